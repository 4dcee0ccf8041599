"""In-place writes through views under autograd, against PyTorch's CopySlices behaviour."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

import ts_runtime as ts  # noqa: E402

SCENARIOS = [
    "A",
    "B",
    "C",
    "AB",
    "AC",
    "BC",
    "ABC",
    "Az",
    "Cz",
    "ACz",
    "Bq",
    "Cq",
    "BCq",
    "ABCzq",
    "ABCz",
    "ACq",
]


def program(lib, x0, w0, steps):
    x = lib.tensor(x0, requires_grad=True)
    w = lib.tensor(w0, requires_grad=True)
    y = x * 2
    z = y[1]
    if "A" in steps:
        z.mul_(w)
    q = y[:, 0]
    if "B" in steps:
        q.add_(3.0)
    if "C" in steps:
        y.mul_(w)
    out = (y * y).sum()
    if "z" in steps:
        out = out + z.sum() * 2
    if "q" in steps:
        out = out + (q * 3).sum()
    out.backward()
    w_grad = np.zeros(4) if w.grad is None else w.grad.detach().numpy()
    return (
        x.grad.detach().numpy(),
        w_grad,
        type(z.grad_fn).__name__ if lib is torch else z.grad_fn.name,
    )


@pytest.mark.parametrize("steps", SCENARIOS)
def test_matches_pytorch(steps):
    rng = np.random.default_rng(7)
    x0, w0 = rng.random((3, 4)), rng.random(4)
    ours, theirs = program(ts, x0, w0, steps), program(torch, x0, w0, steps)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-10)
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-10)
    assert ours[2] == theirs[2]
