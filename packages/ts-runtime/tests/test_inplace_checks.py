"""What PyTorch checks before an in-place op writes, and the errors it raises (RuntimeError).

The expected outcomes are PyTorch 2.13's; integration_tests/oracle/test_inplace_checks_oracle.py
runs the same cases against PyTorch itself.
"""

from __future__ import annotations

import numpy as np
import pytest
import ts_runtime as torch
from ts_runtime import TensorError

OVERLAP = "some elements of the input tensor and the written-to tensor refer to a single memory"
INTERNAL = "more than one element of the written-to tensor refers to a single memory location"
BROADCAST = "doesn't match the broadcast shape"
CAST = "can't be cast to the desired output type"
ALPHA = "argument alpha must not be a floating point number"
BOOL_ALPHA = "Boolean alpha only supported for Boolean results"


def t(values, dtype=None):
    return torch.tensor(values, dtype=dtype)


# (name, make the operands, the in-place op, the error's words or None for no error)
CASES = [
    ("sub of the transpose", lambda: [torch.ones(3, 3)], lambda a: a.sub_(a.t()), OVERLAP),
    ("add of a shifted slice", lambda: [torch.arange(6.0)], lambda a: a[1:].add_(a[:-1]), OVERLAP),
    ("add of an element", lambda: [torch.ones(3, 3)], lambda a: a.add_(a[0, 0]), OVERLAP),
    ("add of itself", lambda: [torch.ones(3)], lambda a: a.add_(a), None),
    ("row plus another row", lambda: [torch.ones(3, 3)], lambda a: a[0].add_(a[1]), None),
    ("row times the same row", lambda: [torch.ones(3, 3)], lambda a: a[0].mul_(a[0]), None),
    ("add to an expanded tensor", lambda: [torch.ones(3)], lambda a: a.expand(2, 3).add_(1), INTERNAL),
    ("add broadcasting the target", lambda: [torch.zeros(3)], lambda a: a.add_(torch.zeros(3, 3)), BROADCAST),
    ("sub broadcasting a view", lambda: [torch.zeros(3)], lambda a: a[1:].sub_(torch.zeros(3, 2)), BROADCAST),
    ("augmented sub broadcasting", lambda: [torch.zeros(3)], lambda a: a.__isub__(torch.zeros(3, 3)), BROADCAST),
    ("float into an int tensor", lambda: [t([1, 2])], lambda a: a.mul_(1.5), CAST),
    ("float into an int element", lambda: [t([1, 2])], lambda a: a[-1].mul_(1.5), CAST),
    ("float tensor into an int view", lambda: [t([1, 2])], lambda a: a[1:].add_(t([0.5])), CAST),
    ("float alpha with int tensors", lambda: [t([1, 2])], lambda a: torch.add(a, a, alpha=0.5), ALPHA),
    ("float alpha in place", lambda: [t([1, 2])], lambda a: a.sub_(a, alpha=2.0), ALPHA),
    ("bool alpha with int tensors", lambda: [t([1, 2])], lambda a: torch.add(a, a, alpha=True), BOOL_ALPHA),
    ("int alpha with int tensors", lambda: [t([1, 2])], lambda a: torch.add(a, a, alpha=2), None),
    ("float alpha with float tensors", lambda: [t([1.0])], lambda a: a.add_(a, alpha=0.5), None),
]  # fmt: skip


@pytest.mark.parametrize(("name", "make", "op", "error"), CASES, ids=[c[0] for c in CASES])
def test_inplace_checks_as_pytorch(name, make, op, error):
    operands = make()
    before = [x.numpy().copy() for x in operands]
    if error is None:
        op(*operands)
        return
    with pytest.raises(TensorError, match=error):
        op(*operands)
    # a refused op writes nothing
    for x, old in zip(operands, before, strict=True):
        np.testing.assert_array_equal(x.numpy(), old)


def test_shape_errors_of_inplace_ops_are_runtime_errors_not_numpy_value_errors():
    x = torch.zeros(3)
    with pytest.raises(RuntimeError) as info:
        x.add_(torch.zeros(3, 3))
    assert not isinstance(info.value, ValueError)
    assert "output with shape [3] doesn't match the broadcast shape [3, 3]" in str(info.value)


def test_the_checks_hold_under_autograd_too():
    base = torch.ones(3, 3, requires_grad=True) * 1.0  # not a leaf: in-place is allowed
    with pytest.raises(TensorError, match=OVERLAP):
        base.sub_(base.t())
    with pytest.raises(TensorError, match=BROADCAST):
        base[0].add_(torch.ones(3, 3))
