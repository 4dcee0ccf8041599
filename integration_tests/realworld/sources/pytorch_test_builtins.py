# Functions from PyTorch's TorchScript tests, test/jit/test_builtins.py
# (pytorch/pytorch commit dc3d6fe6b0710a19a5a9a288f3232955521868cb), BSD-3-Clause,
# Copyright (c) 2016- Facebook, Inc.
# The test methods define these functions (and the classes they use) inside their
# bodies and check them with `self.checkScript(fn, inputs)`; they are lifted to module
# level here (dedented), each function renamed `<test method>__<name>` so that the
# names are unique, otherwise copied as written. The comment above each names its test.
# The imports are the file's own (less its test-harness imports).
from typing import Dict, List
import torch


# TestBuiltins.test_del
def test_del__fn(x: List[int]) -> List[int]:
    a = x * 2
    del a
    return x


# TestBuiltins.test_del_multiple_operands
def test_del_multiple_operands__fn(x: List[int]) -> List[int]:
    a, b, c = x[0], x[1], x[2]
    del a, b, c
    return x


# TestTensorBuiltins.test_tensor_item
def test_tensor_item__test_scalar_cast(x):
    scalar = x.item()
    return int(scalar), float(scalar)
