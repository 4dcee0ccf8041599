# Functions from PyTorch's TorchScript tests, test/jit/test_types.py
# (pytorch/pytorch commit dc3d6fe6b0710a19a5a9a288f3232955521868cb), BSD-3-Clause,
# Copyright (c) 2016- Facebook, Inc.
# The test methods define these functions (and the classes they use) inside their
# bodies and check them with `self.checkScript(fn, inputs)`; they are lifted to module
# level here (dedented), each function renamed `<test method>__<name>` so that the
# names are unique, otherwise copied as written. The comment above each names its test.
# The imports are those of the file that the lifted code uses.
from typing import Dict, List, Optional, Tuple
import torch


# TestTypesAndAnnotation.test_pep585_type
def test_pep585_type__fn(x: torch.Tensor) -> Tuple[Tuple[torch.Tensor], Dict[str, int]]:
    xl: list[tuple[torch.Tensor]] = []
    xd: dict[str, int] = {}
    xl.append((x,))
    xd['foo'] = 1
    return xl.pop(), xd


# TestTypesAndAnnotation.test_type_annotate_py3
def test_type_annotate_py3__fn():
    a : List[int] = []
    b : torch.Tensor = torch.ones(2, 2)
    c : Optional[torch.Tensor] = None
    d : Optional[torch.Tensor] = torch.ones(3, 4)
    for _ in range(10):
        a.append(4)
        c = torch.ones(2, 2)
        d = None
    return a, b, c, d
