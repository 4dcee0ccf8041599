"""The memory layout of pointwise results (`ops.common.follow_layout`): a result is laid out
as its operands are, the first operand deciding where they disagree, as PyTorch's
TensorIterator does. The expected shapes and strides are PyTorch 2.13's (the same programs
run against PyTorch itself in integration_tests/oracle/test_pointwise_layout_oracle.py)."""

from __future__ import annotations

import pytest
import ts_runtime as torch

SETUP = "m2 = m.arange(6.0).view(2, 3); n2 = m.ones(3, 2); row = m.arange(2.0); a = m.arange(24.0).view(2, 3, 4); b = m.arange(24.0).view(2, 3, 4) * 0.5; i2 = m.arange(6).view(2, 3); "

#: program, then PyTorch's (shape, strides) of `out`, or ("error", the message's start)
EXPECTED = [
    ("out = m2.t() - n2", ((3, 2), (1, 3))),
    ("out = n2 - m2.t()", ((3, 2), (2, 1))),
    ("out = m2.t() + m2.t()", ((3, 2), (1, 3))),
    ("out = m2.t() * 2.0", ((3, 2), (1, 3))),
    ("out = 2.0 * m2.t()", ((3, 2), (1, 3))),
    ("out = m2.t() + row", ((3, 2), (1, 3))),
    ("out = row + m2.t()", ((3, 2), (1, 3))),
    ("out = m2.t() / n2", ((3, 2), (1, 3))),
    ("out = m2.t() > n2", ((3, 2), (1, 3))),
    ("out = m2.t() == n2", ((3, 2), (1, 3))),
    ("out = m2.t() % n2", ((3, 2), (1, 3))),
    ("out = m.atan2(m2.t(), n2)", ((3, 2), (1, 3))),
    ("out = m2.t().double() + n2", ((3, 2), (1, 3))),
    ("out = i2.t() + n2", ((3, 2), (1, 3))),
    ("out = i2.t() // n2.long()", ((3, 2), (1, 3))),
    ("out = m.sin(m2.t()) - n2", ((3, 2), (1, 3))),
    ("out = a.permute(2, 0, 1) + b.permute(2, 0, 1)", ((4, 2, 3), (1, 12, 4))),
    ("out = a.permute(2, 0, 1) + b.permute(2, 0, 1).contiguous()", ((4, 2, 3), (1, 12, 4))),
    ("out = a.permute(1, 0, 2) - b.permute(1, 0, 2).contiguous()", ((3, 2, 4), (4, 12, 1))),
    ("out = a.transpose(0, 2) * b.transpose(0, 2).contiguous()", ((4, 3, 2), (1, 4, 12))),
    ("out = b.transpose(0, 2).contiguous() * a.transpose(0, 2)", ((4, 3, 2), (6, 2, 1))),
    ("out = m2.t().unsqueeze(0) + n2.unsqueeze(1)", ((3, 3, 2), (6, 1, 3))),
    ("out = a[:, ::2].permute(2, 1, 0) + 1", ((4, 2, 2), (1, 4, 8))),
    ("out = a.permute(2, 0, 1)[:, :1] + b.permute(2, 0, 1)", ((4, 2, 3), (1, 12, 4))),
    ("out = m2.t()[:, :1] + n2", ((3, 2), (2, 1))),
    ("out = a.permute(2, 1, 0) + b[0].t().unsqueeze(-1)", ((4, 3, 2), (1, 4, 12))),
    ("out = b[0].t().unsqueeze(-1) + a.permute(2, 1, 0)", ((4, 3, 2), (1, 4, 12))),
    ("out = b[0].t().unsqueeze(0) + a.permute(0, 2, 1)", ((2, 4, 3), (12, 1, 4))),
    ("out = m.where(m2.t() > 1.0, m2.t(), n2)", ((3, 2), (1, 3))),
    ("out = m.where(n2 > 1.0, m2.t(), n2)", ((3, 2), (2, 1))),
    ("out = m.where(m2.t() > 1.0, 0.5, n2)", ((3, 2), (1, 3))),
    ("out = m.where(m2.t() > 1.0, m2.t(), 0.5)", ((3, 2), (1, 3))),
    ("out = m.where(a.permute(2, 0, 1) > 3.0, b.permute(2, 0, 1), 0.0)", ((4, 2, 3), (1, 12, 4))),
    ("out = m2.t().masked_fill(n2 > 0.5, 2.0)", ((3, 2), (2, 1))),
    ("out = m.add(m2.t(), n2, alpha=2)", ((3, 2), (1, 3))),
    ("out = m.clamp(m2.t(), -1.0, 1.0)", ((3, 2), (1, 3))),
    ("out = m.where(m2.t() > 1.0, m2.t(), n2).view(-1)", ("error", "view size is not com")),
    ("out = m.floor(i2.t())", ((3, 2), (1, 3))),
    ("out = m.ceil(i2.t()).view(-1)", ("error", "view size is not com")),
    ("out = m.sigmoid(m.floor(i2.t()))", ((3, 2), (1, 3))),
    ("out = (m2.t() - n2).view(-1)", ("error", "view size is not com")),
    ("out = (n2 - m2.t()).view(-1)", ((6,), (1,))),
    ("out = (m2.t() - n2).reshape(-1)", ((6,), (1,))),
]


def _run(program):
    ns = {"m": torch}
    try:
        exec(SETUP + program, ns)
    except RuntimeError as exc:
        return ("error", str(exc).split(":")[0][:20])
    out = ns["out"]
    return (tuple(out.shape), tuple(out.stride()))


@pytest.mark.parametrize(("program", "expected"), EXPECTED, ids=[p for p, _ in EXPECTED])
def test_pointwise_result_layout(program, expected):
    assert _run(program) == expected


def test_contiguous_operands_give_a_contiguous_result():
    a = torch.ones(3, 4)
    assert (a + a).is_contiguous()
    assert (a * torch.ones(4)).is_contiguous()
