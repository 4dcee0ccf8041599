# Functions from PyTorch's TorchScript tests, test/jit/test_misc.py
# (pytorch/pytorch commit dc3d6fe6b0710a19a5a9a288f3232955521868cb), BSD-3-Clause,
# Copyright (c) 2016- Facebook, Inc.
# The test methods define these functions (and the classes they use) inside their
# bodies and check them with `self.checkScript(fn, inputs)`; they are lifted to module
# level here (dedented), each function renamed `<test method>__<name>` so that the
# names are unique, otherwise copied as written. The comment above each names its test.
# The imports are the file's own (less its test-harness imports).
from typing import Any, Dict, List, Optional, Tuple
from torch import jit
import torch
import torch.nn as nn


# TestMisc.test_if_returning_any
def test_if_returning_any__if_function(inp: torch.Tensor) -> Any:
    if inp.shape[0] == 1:
        return inp * inp
    else:
        return "str"


# TestMisc.test_legacy_tensor_constructor
def test_legacy_tensor_constructor__test_all_dtypes():
    return (
        torch.BoolTensor([2]),
        torch.LongTensor([3]),
        torch.ByteTensor([4]),
        torch.CharTensor([5]),
        torch.DoubleTensor([6]),
        torch.FloatTensor([7]),
        torch.IntTensor([8]),
        torch.ShortTensor([1]),
        torch.HalfTensor([1]),
    )


# TestMisc.test_legacy_tensor_constructor
def test_legacy_tensor_constructor__no_inputs():
    return torch.DoubleTensor()
