# Functions from PyTorch's TorchScript tests, test/jit/test_with.py
# (pytorch/pytorch commit dc3d6fe6b0710a19a5a9a288f3232955521868cb), BSD-3-Clause,
# Copyright (c) 2016- Facebook, Inc.
# The test methods define these functions (and the classes they use) inside their
# bodies and check them with `self.checkScript(fn, inputs)`; they are lifted to module
# level here (dedented), each function renamed `<test method>__<name>` so that the
# names are unique, otherwise copied as written. The comment above each names its test.
# The imports are the file's own (less its test-harness imports).
from typing import Any, List
import torch


# TestWith.test_with_as
@torch.jit.script
class Context:
    """
    This class implements a basic context manager interface for use in
    the unit tests. Unlike Context, the stateful part of this class
    is a Tensor that is mutated in-place so that modifications made in the
    JIT interpreter are visible outside of it.
    """

    def __init__(self, start: int):
        self.count = torch.tensor([start], dtype=torch.double)

    def __enter__(self):
        self.count.add_(0.3)
        return self.count

    def __exit__(self, type: Any, value: Any, tb: Any) -> bool:
        self.count.sub_(0.3)
        return True


# TestWith.test_with_as
def test_with_as__test_basic(x: torch.Tensor) -> torch.Tensor:
    """Basic test with one with-statement."""

    c = Context(1)

    with c as mult:
        y = x + mult

    y *= c.count
    return y


# TestWith.test_with_as
def test_with_as__test_pass(x: torch.Tensor) -> torch.Tensor:
    """
    Test with a pass statement inside a with-statement. Although
    the body of the with is empty, __enter__ and __exit__ should
    still be called.
    """
    c = Context(1)

    with c as mult:
        pass

    x *= c.count
    return x


# TestWith.test_with_as
def test_with_as__test_serial(x: torch.Tensor) -> torch.Tensor:
    """
    Test two with-statements in a row.
    """
    c = Context(1)

    with c as mult:
        y = x + mult

    with c as mult:
        y *= mult

    return y


# TestWith.test_with_as
def test_with_as__test_nested(x: torch.Tensor) -> torch.Tensor:
    """
    Test nested with-statements.
    """
    c = Context(1)

    with c as m:
        with c as n:
            y = x + n

        y *= m

    return y


# TestWith.test_with_as
def test_with_as__test_combined(x: torch.Tensor) -> torch.Tensor:
    """
    Test a with-statement with multiple with items.
    """
    c = Context(1)
    d = Context(2)

    with c as m, d as n:
        y = x + (m + n)

    return y


