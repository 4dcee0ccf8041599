# Functions from PyTorch's TorchScript tests, test/jit/test_dataclasses.py
# (pytorch/pytorch commit dc3d6fe6b0710a19a5a9a288f3232955521868cb), BSD-3-Clause,
# Copyright (c) 2016- Facebook, Inc.
# The test methods define these functions (and the classes they use) inside their
# bodies and check them with `self.checkScript(fn, inputs)`; they are lifted to module
# level here (dedented), each function renamed `<test method>__<name>` so that the
# names are unique, otherwise copied as written. The comment above each names its test.
# The imports are those of the file that the lifted code uses.
from dataclasses import dataclass, InitVar
from typing import Optional
import torch


# TestDataclasses.test_init_vars
@torch.jit.script
@dataclass(order=True)
class Point2:
    x: float
    y: float
    norm_p: InitVar[int] = 2
    norm: Optional[torch.Tensor] = None

    def __post_init__(self, norm_p: int):
        self.norm = (torch.tensor(self.x) ** norm_p + torch.tensor(self.y) ** norm_p) ** (1 / norm_p)


# TestDataclasses.test_init_vars
def test_init_vars__fn(x: float, y: float, p: int):
    pt = Point2(x, y, p)
    return pt.norm


# TestDataclasses.test_custom__eq__
@torch.jit.script
@dataclass
class CustomEq:
    a: int
    b: int

    def __eq__(self, other: 'CustomEq') -> bool:
        return self.a == other.a  # ignore the b field


# TestDataclasses.test_custom__eq__
def test_custom__eq____fn(a: int, b1: int, b2: int):
    pt1 = CustomEq(a, b1)
    pt2 = CustomEq(a, b2)
    return pt1 == pt2
