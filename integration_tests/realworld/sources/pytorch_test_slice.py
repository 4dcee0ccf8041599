# Functions from PyTorch's TorchScript tests, test/jit/test_slice.py
# (pytorch/pytorch commit dc3d6fe6b0710a19a5a9a288f3232955521868cb), BSD-3-Clause,
# Copyright (c) 2016- Facebook, Inc.
# The test methods define these functions (and the classes they use) inside their
# bodies and check them with `self.checkScript(fn, inputs)`; they are lifted to module
# level here (dedented), each function renamed `<test method>__<name>` so that the
# names are unique, otherwise copied as written. The comment above each names its test.
# The imports are the file's own (less its test-harness imports).
import torch
from typing import List


# TestSlice.test_slice_three_nones
def test_slice_three_nones__three_nones(x: List[int]):
    return x[slice(None, None, None)]


# TestSlice.test_slice_two_nones
def test_slice_two_nones__two_nones(x: List[int]):
    return x[slice(None, None)]


# TestSlice.test_slice_one_none
def test_slice_one_none__one_none(x: List[int]):
    return x[slice(None)]


# TestSlice.test_slice_stop_only
def test_slice_stop_only__fn(x: List[int]):
    return x[slice(5)]


# TestSlice.test_slice_stop_only_with_nones
def test_slice_stop_only_with_nones__fn(x: List[int]):
    return x[slice(None, 5, None)]


# TestSlice.test_slice_start_stop
def test_slice_start_stop__fn(x: List[int]):
    return x[slice(1, 5)]


# TestSlice.test_slice_start_stop_with_none
def test_slice_start_stop_with_none__fn(x: List[int]):
    return x[slice(1, 5, None)]


# TestSlice.test_slice_start_stop_step
def test_slice_start_stop_step__fn(x: List[int]):
    return x[slice(0, 6, 2)]


# TestSlice.test_slice_string
def test_slice_string__fn(x: str):
    return x[slice(None, 3, 1)]


# TestSlice.test_slice_tensor
def test_slice_tensor__fn(x: torch.Tensor):
    return x[slice(None, 3, 1)]


# TestSlice.test_slice_tensor_multidim
def test_slice_tensor_multidim__fn(x: torch.Tensor):
    return x[slice(None, 3, 1), 0]


# TestSlice.test_slice_tensor_multidim_with_dots
def test_slice_tensor_multidim_with_dots__fn(x: torch.Tensor):
    return x[slice(None, 3, 1), ...]


# TestSlice.test_slice_as_variable
def test_slice_as_variable__fn(x: List[int]):
    a = slice(1)
    return x[a]


# TestSlice.test_slice_stop_clipped
def test_slice_stop_clipped__fn(x: List[int]):
    return x[slice(1000)]


# TestSlice.test_slice_dynamic_index
def test_slice_dynamic_index__t(x):
    slice1 = x[0:1]
    zero = 0
    one = zero + 1
    slice2 = x[zero:one]
    return slice1 + slice2


# TestSlice.test_tuple_slicing
def test_tuple_slicing__tuple_slice(a):
    if bool(a):
        b = (1, 2, 3, 4)
    else:
        b = (4, 3, 2, 1)
    c = b[-4:4]
    e = c[1:-1]
    return e
