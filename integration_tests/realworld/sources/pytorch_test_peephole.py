# Functions from PyTorch's TorchScript tests, test/jit/test_peephole.py
# (pytorch/pytorch commit dc3d6fe6b0710a19a5a9a288f3232955521868cb), BSD-3-Clause,
# Copyright (c) 2016- Facebook, Inc.
# The test methods define these functions (and the classes they use) inside their
# bodies and check them with `self.checkScript(fn, inputs)`; they are lifted to module
# level here (dedented), each function renamed `<test method>__<name>` so that the
# names are unique, otherwise copied as written. The comment above each names its test.
# The imports are those of the file that the lifted code uses.
import torch


# TestPeephole.test_peephole_with_writes
def test_peephole_with_writes__test_write(x):
    s = 0
    s += x
    s += x
    return s


# TestPeephole.test_peephole_type_refinements
def test_peephole_type_refinements__is_int_tensor(x):
    scalar = x.item()
    if isinstance(scalar, int):
        return scalar + 3
    else:
        return 8


# TestPeephole.test_normalized_rsub
def test_normalized_rsub__convertible_rsub(x, y):
    return (x - y), torch.rsub(y, x)


# TestPeephole.test_normalized_is_op
def test_normalized_is_op__convertible_is_op(x: bool, y: bool):
    return x is True, False is x, x is y


# TestPeephole.test_normalized_isnot_op
def test_normalized_isnot_op__convertible_isnot_op(x: bool, y: bool):
    return x is not True, False is not x, x is not y


# TestPeephole.test_peephole_slice_all_three_args
def test_peephole_slice_all_three_args__foo(x: int):
    return [1, 2, x, 4, 5, 6, 7][-5:6:2]
