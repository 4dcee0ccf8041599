"""The memory layout of pointwise results: PyTorch's TensorIterator lays a result out as its
operands are laid out (the first operand decides where they disagree), so that `view` of a
result refuses or succeeds as it does in PyTorch. tsjit must give the same strides."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

import tsjit  # noqa: E402

# Each program runs with `m` bound to torch and to tsjit; `out` is the result whose strides count.
SETUP = (
    "m2 = m.arange(6.0).view(2, 3); n2 = m.ones(3, 2); row = m.arange(2.0); "
    "a = m.arange(24.0).view(2, 3, 4); b = m.arange(24.0).view(2, 3, 4) * 0.5; "
    "i2 = m.arange(6).view(2, 3); "
)
PROGRAMS = [
    "out = m2.t() - n2",
    "out = n2 - m2.t()",
    "out = m2.t() + m2.t()",
    "out = m2.t() * 2.0",
    "out = 2.0 * m2.t()",
    "out = m2.t() + row",
    "out = row + m2.t()",
    "out = m2.t() / n2",
    "out = m2.t() > n2",
    "out = m2.t() == n2",
    "out = m2.t() % n2",
    "out = m.atan2(m2.t(), n2)",
    "out = m2.t().double() + n2",
    "out = i2.t() + n2",
    "out = i2.t() // n2.long()",
    "out = m.sin(m2.t()) - n2",
    "out = a.permute(2, 0, 1) + b.permute(2, 0, 1)",
    "out = a.permute(2, 0, 1) + b.permute(2, 0, 1).contiguous()",
    "out = a.permute(1, 0, 2) - b.permute(1, 0, 2).contiguous()",
    "out = a.transpose(0, 2) * b.transpose(0, 2).contiguous()",
    "out = b.transpose(0, 2).contiguous() * a.transpose(0, 2)",
    "out = m2.t().unsqueeze(0) + n2.unsqueeze(1)",
    "out = a[:, ::2].permute(2, 1, 0) + 1",
    "out = a.permute(2, 0, 1)[:, :1] + b.permute(2, 0, 1)",
    "out = m2.t()[:, :1] + n2",
    "out = a.permute(2, 1, 0) + b[0].t().unsqueeze(-1)",
    "out = b[0].t().unsqueeze(-1) + a.permute(2, 1, 0)",
    "out = b[0].t().unsqueeze(0) + a.permute(0, 2, 1)",
    "out = m.where(m2.t() > 1.0, m2.t(), n2)",
    "out = m.where(n2 > 1.0, m2.t(), n2)",
    "out = m.where(m2.t() > 1.0, 0.5, n2)",
    "out = m.where(m2.t() > 1.0, m2.t(), 0.5)",
    "out = m.where(a.permute(2, 0, 1) > 3.0, b.permute(2, 0, 1), 0.0)",
    "out = m2.t().masked_fill(n2 > 0.5, 2.0)",
    "out = m.add(m2.t(), n2, alpha=2)",
    "out = m.clamp(m2.t(), -1.0, 1.0)",
    "out = m.where(m2.t() > 1.0, m2.t(), n2).view(-1)",
    "out = m.floor(i2.t())",
    "out = m.ceil(i2.t()).view(-1)",
    "out = m.sigmoid(m.floor(i2.t()))",
    "out = (m2.t() - n2).view(-1)",
    "out = (n2 - m2.t()).view(-1)",
    "out = (m2.t() - n2).reshape(-1)",
]


def _run(module, program):
    ns = {"m": module}
    try:
        exec(SETUP + program, ns)
    except RuntimeError as exc:  # tsjit's errors derive from RuntimeError too; PyTorch's view
        # error and tsjit's begin alike
        return ("error", str(exc).split(":")[0][:20])
    out = ns["out"]
    return (tuple(out.shape), tuple(out.stride()))


@pytest.mark.parametrize("program", PROGRAMS)
def test_pointwise_result_has_pytorchs_layout(program):
    assert _run(tsjit, program) == _run(torch, program)
