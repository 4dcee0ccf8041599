# Functions from PyTorch's TorchScript tests, test/jit/test_hash.py
# (pytorch/pytorch commit dc3d6fe6b0710a19a5a9a288f3232955521868cb), BSD-3-Clause,
# Copyright (c) 2016- Facebook, Inc.
# The test methods define these functions (and the classes they use) inside their
# bodies and check them with `self.checkScript(fn, inputs)`; they are lifted to module
# level here (dedented), each function renamed `<test method>__<name>` so that the
# names are unique, otherwise copied as written. The comment above each names its test.
# The imports are the file's own (less its test-harness imports).
import torch
from typing import Tuple, List


# TestHash.test_hash_tuple
def test_hash_tuple__fn(t1: Tuple[int, int], t2: Tuple[int, int]) -> bool:
    return hash(t1) == hash(t2)


# TestHash.test_hash_tensor
def test_hash_tensor__fn(t1, t2):
    return hash(t1) == hash(t2)


# TestHash.test_hash_none
def test_hash_none__fn():
    n1 = None
    n2 = None
    return hash(n1) == hash(n2)


# TestHash.test_hash_bool
def test_hash_bool__fn(b1: bool, b2: bool):
    return hash(b1) == hash(b2)


# TestHash.test_hash_float
def test_hash_float__fn(f1: float, f2: float):
    return hash(f1) == hash(f2)


# TestHash.test_hash_int
def test_hash_int__fn(i1: int, i2: int):
    return hash(i1) == hash(i2)


# TestHash.test_hash_string
def test_hash_string__fn(s1: str, s2: str):
    return hash(s1) == hash(s2)
