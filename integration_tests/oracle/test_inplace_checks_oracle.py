"""In-place ops PyTorch refuses (overlapping memory, broadcasting the target, casts, alpha),
and their neighbours it accepts: tsjit must raise where PyTorch raises, and agree elsewhere."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

import tsjit  # noqa: E402

# Each program runs with `m` bound to torch and to tsjit; `out` is what it computed.
PROGRAMS = [
    "a = m.ones(3, 3); out = a.sub_(a.t())",
    "a = m.arange(6.0); out = a[1:].add_(a[:-1])",
    "a = m.ones(3, 3); out = a.add_(a[0, 0])",
    "a = m.ones(4); out = a.view(2, 2).add_(a.view(2, 2).t())",
    "a = m.ones(3); out = a.add_(a)",
    "a = m.ones(3, 3); out = a[0].add_(a[1])",
    "a = m.ones(3, 3); out = a[0].mul_(a[0])",
    "a = m.ones(3); out = a.expand(2, 3).add_(1)",
    "a = m.zeros(3); out = a.add_(m.zeros(3, 3))",
    "a = m.zeros(3); out = a[1:].sub_(m.zeros(3, 2))",
    "a = m.zeros(3); a -= m.zeros(3, 3); out = a",
    "a = m.tensor([1, 2]); out = a.mul_(1.5)",
    "a = m.tensor([1, 2]); out = a[-1].mul_(1.5)",
    "a = m.tensor([1, 2]); out = a[1:].add_(m.tensor([0.5]))",
    "a = m.tensor([1, 2]); out = m.add(a, a, alpha=0.5)",
    "a = m.tensor([1, 2]); out = a.sub_(a, alpha=2.0)",
    "a = m.tensor([1, 2]); out = m.add(a, a, alpha=True)",
    "a = m.tensor([1, 2]); out = m.add(a, a, alpha=2)",
    "a = m.tensor([1.0]); out = a.add_(a, alpha=0.5)",
    "a = m.tensor([True]); out = m.add(a, a, alpha=True)",
    "a = m.arange(4.0); out = a[1:].copy_(a[:3])",
    "a = m.arange(4.0); a[1:] = a[:3]; out = a",
    "a = m.arange(4.0); out = a[1:].copy_(a[:3].clone())",
    "a = m.ones(2, 2); out = a.copy_(a.t())",
    "a = m.ones(2, 2); out = a.copy_(a)",
    # a number written into a tensor must fit its dtype (checked, not written as garbage)
    "a = m.tensor([1, 2]); a[0] = float('nan'); out = a",
    "a = m.tensor([1, 2]); out = a.fill_(float('inf'))",
    "a = m.tensor([1, 2]); out = a.fill_(float('nan'))",
    "a = m.tensor([1, 2]); a[0] = 1e30; out = a",
    "a = m.tensor([1, 2]); a[0] = 2.5; out = a",
    "a = m.tensor([1, 2], dtype=m.int32); out = a.fill_(1e10)",
    "a = m.tensor([1, 2], dtype=m.int32); a[1] = 3000000000; out = a",
    "a = m.tensor([1, 2], dtype=m.uint8); out = a.fill_(300)",
    "a = m.tensor([1, 2], dtype=m.int8); a[0] = -129; out = a",
    "a = m.tensor([1.0, 2.0]); a[0] = 1e300; out = a",
    "a = m.tensor([1.0, 2.0]); out = a.fill_(float('inf'))",
    "a = m.tensor([1.0, 2.0], dtype=m.float64); a[0] = 1e300; out = a",
    "a = m.tensor([True, False]); out = a.fill_(float('nan'))",
]


def run(m, program):
    scope = {"m": m}
    try:
        exec(program, scope)
    except RuntimeError as exc:
        return "RuntimeError", str(exc).split("(")[0].strip()
    out = scope["out"]
    return "ok", (str(out.dtype).rsplit(".", 1)[-1], out.numpy().tolist())


@pytest.mark.parametrize("program", PROGRAMS)
def test_inplace_op_agrees_with_pytorch(program):
    want = run(torch, program)
    got = run(tsjit, program)
    assert got[0] == want[0], (got, want)
    if want[0] == "ok":
        assert got[1][0] == want[1][0]
        np.testing.assert_array_equal(np.array(got[1][1]), np.array(want[1][1]))
    else:
        # PyTorch's message, up to the operator name tsjit adds in parentheses
        assert got[1].startswith(want[1][:40]), (got, want)
