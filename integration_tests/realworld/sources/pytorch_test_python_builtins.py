# Functions from PyTorch's TorchScript tests, test/jit/test_python_builtins.py
# (pytorch/pytorch commit dc3d6fe6b0710a19a5a9a288f3232955521868cb), BSD-3-Clause,
# Copyright (c) 2016- Facebook, Inc.
# The test methods define these functions (and the classes they use) inside their
# bodies and check them with `self.checkScript(fn, inputs)`; they are lifted to module
# level here (dedented), each function renamed `<test method>__<name>` so that the
# names are unique, otherwise copied as written. The comment above each names its test.
# The imports are the file's own (less its test-harness imports).
import tempfile
import random
from textwrap import dedent
import torch


# TestPythonBuiltinOP.test_pow
def test_pow__func3(a, b):
    # type: (int, float) -> float
    return a ** b


# TestPythonBuiltinOP.test_pow
def test_pow__func4():
    # type: () -> float
    return 2 ** -2


# TestPythonBuiltinOP.test_adv_indexing_list
def test_adv_indexing_list__func1(x):
    return x[[0, 1, 5]]


# TestPythonBuiltinOP.test_adv_indexing_list
def test_adv_indexing_list__func2(x):
    return x[[0, 1], [0, 1]]


# TestPythonBuiltinOP.test_adv_indexing_list
def test_adv_indexing_list__func3(x):
    return x[[[0, 1], [0, 1]], [[0, 1], [0, 1]]]


# TestPythonBuiltinOP.test_adv_indexing_list
def test_adv_indexing_list__func4(x):
    ls = [0]
    ls.append(1)
    ls.append(2)
    return x[ls]


# TestPythonBuiltinOP.test_adv_indexing_list
def test_adv_indexing_list__func5(x):
    ls = [0.1, 1.2, 2.3]
    return x[ls]
