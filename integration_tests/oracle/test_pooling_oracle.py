"""Pooling against PyTorch over hypothesis-generated configurations: max and average pooling
in 1 and 2 dimensions (strides, paddings, dilations, ceil_mode, count_include_pad, divisor
override) and adaptive average pooling, without autograd (the array paths) and with it (the
composite paths), results and gradients.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

torch = pytest.importorskip("torch")
import ts_runtime as ts  # noqa: E402

pytestmark = pytest.mark.oracle


@st.composite
def pools(draw):
    nd = draw(st.integers(1, 2))
    kernel = [draw(st.integers(1, 3)) for _ in range(nd)]
    stride = [draw(st.integers(1, 3)) for _ in range(nd)]
    padding = [draw(st.integers(0, k // 2)) for k in kernel]
    dilation = [draw(st.integers(1, 2)) for _ in range(nd)]
    spatial = [draw(st.integers(dilation[i] * (kernel[i] - 1) + 1, 12)) for i in range(nd)]
    lead = draw(st.sampled_from([(3,), (2, 3)]))  # unbatched and batched
    return nd, lead, spatial, kernel, stride, padding, dilation, draw(st.booleans())


def _max(lib, x, nd, kernel, stride, padding, dilation, ceil_mode):
    f = {1: lib.nn.functional.max_pool1d, 2: lib.nn.functional.max_pool2d}[nd]
    return f(x, kernel, stride, padding, dilation, ceil_mode=ceil_mode)


def _avg(lib, x, nd, kernel, stride, padding, ceil_mode, include, divisor):
    f = {1: lib.nn.functional.avg_pool1d, 2: lib.nn.functional.avg_pool2d}[nd]
    if nd == 1:
        return f(x, kernel, stride, padding, ceil_mode, include)
    return f(x, kernel, stride, padding, ceil_mode, include, divisor)


def _both(fn, x: np.ndarray, grad: bool):
    outs = []
    for lib in (torch, ts):
        t = lib.from_numpy(x.copy())
        if grad:
            t.requires_grad_(True)
        out = fn(lib, t)
        g = None
        if grad:
            cot = np.random.default_rng(1).standard_normal(tuple(out.shape)).astype(x.dtype)
            (out * lib.from_numpy(cot)).sum().backward()
            g = t.grad.numpy()
        outs.append((out.detach().numpy(), g))
    return outs


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=pools(), seed=st.integers(0, 2**16), grad=st.booleans(), include=st.booleans(),
       divisor=st.sampled_from([None, 3]))  # fmt: skip
def test_pooling_matches_pytorch(config, seed, grad, include, divisor):
    nd, lead, spatial, kernel, stride, padding, dilation, ceil_mode = config
    x = np.random.default_rng(seed).standard_normal((*lead, *spatial))
    (want, want_g), (got, got_g) = _both(
        lambda lib, t: _max(lib, t, nd, kernel, stride, padding, dilation, ceil_mode), x, grad
    )
    np.testing.assert_array_equal(got, want)
    if grad:
        np.testing.assert_allclose(got_g, want_g, rtol=1e-12, atol=1e-12)
    (want, want_g), (got, got_g) = _both(
        lambda lib, t: _avg(lib, t, nd, kernel, stride, padding, ceil_mode, include, divisor),
        x,
        grad,
    )
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    if grad:
        np.testing.assert_allclose(got_g, want_g, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("size", [(1, 1), (2, 3), (5, 4)])
@pytest.mark.parametrize("grad", [False, True])
def test_adaptive_average_pooling_matches_pytorch(size, grad):
    x = np.random.default_rng(0).standard_normal((2, 3, 7, 9)).astype(np.float32)
    (want, want_g), (got, got_g) = _both(
        lambda lib, t: lib.nn.functional.adaptive_avg_pool2d(t, size), x, grad
    )
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    if grad:
        np.testing.assert_allclose(got_g, want_g, rtol=1e-5, atol=1e-6)
