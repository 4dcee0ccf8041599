"""In-place operations on views under autograd: the base's history is rebased and views re-read.

Each scenario mixes in-place writes through views (`y[1].mul_(w)`), on the
base (`y.mul_(w)`), and later uses of views taken before those writes. The
gradients are checked against central finite differences in float64.
"""

from __future__ import annotations

import numpy as np
import pytest
import ts_runtime as ts

X0 = np.random.default_rng(0).random((3, 4))
W0 = np.random.default_rng(1).random(4)


def program(x, w, steps: str):
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
    return out


def numeric_grad(f, arr: np.ndarray, eps: float = 1e-6) -> np.ndarray:
    grad = np.zeros_like(arr)
    for idx in np.ndindex(arr.shape):
        plus, minus = arr.copy(), arr.copy()
        plus[idx] += eps
        minus[idx] -= eps
        grad[idx] = (f(plus) - f(minus)) / (2 * eps)
    return grad


@pytest.mark.parametrize(
    "steps", ["A", "B", "C", "AB", "ABC", "Az", "Cz", "ACz", "Cq", "BCq", "ABCzq"]
)
def test_gradients_through_inplace_views_match_finite_differences(steps):
    x = ts.tensor(X0, requires_grad=True)
    w = ts.tensor(W0, requires_grad=True)
    program(x, w, steps).backward()

    def value(x_arr, w_arr):
        with ts.no_grad():
            return float(program(ts.tensor(x_arr), ts.tensor(w_arr), steps))

    np.testing.assert_allclose(
        x.grad.numpy(), numeric_grad(lambda a: value(a, W0), X0), rtol=1e-6, atol=1e-7
    )
    expected_w = numeric_grad(lambda a: value(X0, a), W0)
    got_w = np.zeros(4) if w.grad is None else w.grad.numpy()
    np.testing.assert_allclose(got_w, expected_w, rtol=1e-6, atol=1e-7)


def test_view_taken_before_its_base_required_grad_is_re_read():
    y = ts.zeros(3, 4, dtype=ts.float64)
    z = y[0]
    w = ts.tensor(W0, requires_grad=True)
    y.add_(w)
    assert z.requires_grad and z.grad_fn is not None
    (z * z).sum().backward()
    np.testing.assert_allclose(w.grad.numpy(), 2 * W0)


def test_inplace_on_a_view_of_a_grad_leaf_is_an_error():
    x = ts.tensor(X0, requires_grad=True)
    with pytest.raises(ts.TensorError, match="view of a leaf Variable"):
        x[0].zero_()


def test_inplace_op_saves_the_value_from_before_the_write():
    x = ts.tensor(X0, requires_grad=True)
    w = ts.tensor(W0, requires_grad=True)
    y = x * 1
    y.mul_(w)  # d/dw of sum(y * w) needs y's old value
    (y * 3).sum().backward()
    np.testing.assert_allclose(w.grad.numpy(), 3 * X0.sum(axis=0))
