"""`ts_runtime.optim`: the update formulas against a numpy transcription of them (float64),
parameter groups, state dicts, and the errors of bad arguments. The comparison with
`torch.optim` itself is in integration_tests/nn/test_optim_oracle.py."""

from __future__ import annotations

import math

import numpy as np
import pytest
import ts_runtime as ts
from ts_runtime import nn, optim


def _params(rng, *shapes):
    return [nn.Parameter(ts.tensor(rng.standard_normal(s))) for s in shapes]


def _run(opt, params, grads):
    for step_grads in grads:
        for p, g in zip(params, step_grads, strict=True):
            p.grad = ts.tensor(g.copy())
        opt.step()
    return [p.detach().numpy().copy() for p in params]


def _grads(rng, steps, *shapes):
    return [[rng.standard_normal(s) for s in shapes] for _ in range(steps)]


@pytest.mark.parametrize("nesterov", [False, True])
def test_sgd_momentum_weight_decay(nesterov):
    rng = np.random.RandomState(0)
    params = _params(rng, (3, 2))
    x = params[0].detach().numpy().copy()
    grads = _grads(rng, 5, (3, 2))
    lr, mom, wd = 0.1, 0.9, 0.01
    got = _run(
        optim.SGD(params, lr=lr, momentum=mom, weight_decay=wd, nesterov=nesterov), params, grads
    )
    buf = None
    for (g,) in grads:
        g = g + wd * x
        buf = g.copy() if buf is None else mom * buf + g
        x = x - lr * (g + mom * buf if nesterov else buf)
    np.testing.assert_allclose(got[0], x, rtol=1e-12)


@pytest.mark.parametrize(
    ("cls", "wd", "amsgrad"),
    [(optim.Adam, 0.1, False), (optim.Adam, 0.0, True), (optim.AdamW, 0.1, False)],
)
def test_adam_family(cls, wd, amsgrad):
    rng = np.random.RandomState(1)
    params = _params(rng, (4,))
    x = params[0].detach().numpy().copy()
    grads = _grads(rng, 6, (4,))
    lr, b1, b2, eps = 0.01, 0.9, 0.999, 1e-8
    got = _run(cls(params, lr=lr, weight_decay=wd, amsgrad=amsgrad), params, grads)
    m = np.zeros(4)
    v = np.zeros(4)
    vmax = np.zeros(4)
    for t, (g,) in enumerate(grads, start=1):
        if cls is optim.AdamW:
            x = x * (1 - lr * wd)
        else:
            g = g + wd * x
        m = m + (1 - b1) * (g - m)
        v = b2 * v + (1 - b2) * g * g
        vmax = np.maximum(vmax, v)
        denom = np.sqrt(vmax if amsgrad else v) / math.sqrt(1 - b2**t) + eps
        x = x - lr / (1 - b1**t) * m / denom
    np.testing.assert_allclose(got[0], x, rtol=1e-10)


def test_groups_take_defaults_and_their_own_options():
    rng = np.random.RandomState(2)
    a, b = _params(rng, (2,), (2,))
    opt = optim.SGD([{"params": [a]}, {"params": b, "lr": 0.5}], lr=0.1, momentum=0.9)
    assert opt.param_groups[0]["lr"] == 0.1 and opt.param_groups[1]["lr"] == 0.5
    assert opt.param_groups[1]["momentum"] == 0.9
    with pytest.raises(ValueError, match="more than one parameter group"):
        opt.add_param_group({"params": [a]})


def test_state_dict_resumes_exactly():
    rng = np.random.RandomState(3)
    grads = _grads(rng, 6, (3,))
    start = rng.standard_normal(3)
    whole = [nn.Parameter(ts.tensor(start.copy()))]
    expected = _run(optim.Adam(whole, lr=0.05), whole, grads)
    first = [nn.Parameter(ts.tensor(start.copy()))]
    opt = optim.Adam(first, lr=0.05)
    _run(opt, first, grads[:3])
    saved = opt.state_dict()
    assert saved["param_groups"][0]["params"] == [0]
    second = [nn.Parameter(ts.tensor(first[0].detach().numpy().copy()))]
    resumed = optim.Adam(second, lr=0.05)
    resumed.load_state_dict(saved)
    got = _run(resumed, second, grads[3:])
    np.testing.assert_allclose(got[0], expected[0], rtol=1e-12)


def test_zero_grad_and_parameters_without_gradients():
    rng = np.random.RandomState(4)
    a, b = _params(rng, (2,), (2,))
    before = b.detach().numpy().copy()
    opt = optim.SGD([a, b], lr=0.1, momentum=0.9)
    a.grad = ts.ones(2)
    opt.step()
    np.testing.assert_array_equal(b.detach().numpy(), before)
    opt.zero_grad(set_to_none=False)
    assert not a.grad.numpy().any()
    opt.zero_grad()
    assert a.grad is None


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: optim.SGD(p, lr=-1), "Invalid learning rate"),
        (lambda p: optim.SGD(p, momentum=0.0, nesterov=True), "Nesterov"),
        (lambda p: optim.Adam(p, betas=(1.0, 0.9)), "Invalid beta"),
        (lambda p: optim.Adam([], lr=0.1), "empty parameter list"),
    ],
)
def test_bad_arguments(make, message):
    with pytest.raises(ValueError, match=message):
        make(_params(np.random.RandomState(5), (2,)))


def test_non_leaf_and_non_tensor_parameters_are_refused():
    x = nn.Parameter(ts.ones(2))
    with pytest.raises(ValueError, match="non-leaf"):
        optim.SGD([x * 2], lr=0.1)
    with pytest.raises(TypeError, match="only optimize Tensors"):
        optim.SGD([1.0], lr=0.1)
