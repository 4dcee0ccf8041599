"""Convolutions (im2col into column buffers, one BLAS product per chunk of images; pointwise and
depthwise paths) against PyTorch, over hypothesis-generated configurations: 1 to 3 spatial
dimensions, strides, paddings, dilations, groups (depthwise included), batches that span
several column chunks. Forward results in float32 and float64, and the gradients of input,
weight and bias in float64.
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
def configurations(draw):
    nd = draw(st.integers(1, 3))
    groups = draw(st.sampled_from([1, 1, 2, 3]))
    cg = draw(st.integers(1, 3))
    og = draw(st.integers(1, 3))
    depthwise = draw(st.booleans())
    if depthwise:
        cg, og = 1, 1
        groups = draw(st.integers(2, 5))
    kernel = [draw(st.integers(1, 3)) for _ in range(nd)]
    stride = [draw(st.integers(1, 3)) for _ in range(nd)]
    padding = [draw(st.integers(0, 2)) for _ in range(nd)]
    dilation = [draw(st.integers(1, 2)) for _ in range(nd)]
    spatial = []
    for i in range(nd):
        need = dilation[i] * (kernel[i] - 1) + 1 - 2 * padding[i]
        low = max(1, need)
        spatial.append(draw(st.integers(low, low + (9 if nd < 3 else 3))))
    batch = draw(st.integers(1, 5))
    bias = draw(st.booleans())
    return nd, batch, groups, cg, og, kernel, stride, padding, dilation, spatial, bias


def _run(lib, x, w, b, stride, padding, dilation, groups):
    F = lib.nn.functional
    conv = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}[x.ndim - 2]
    return conv(x, w, b, stride=stride, padding=padding, dilation=dilation, groups=groups)


def _arrays(config, dtype, seed):
    _nd, batch, groups, cg, og, kernel, stride, padding, dilation, spatial, bias = config
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((batch, cg * groups, *spatial)).astype(dtype)
    w = rng.standard_normal((og * groups, cg, *kernel)).astype(dtype)
    b = rng.standard_normal(og * groups).astype(dtype) if bias else None
    return x, w, b, stride, padding, dilation, groups


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=configurations(), seed=st.integers(0, 2**16))
def test_convolution_matches_pytorch(config, seed):
    for dtype, tol in ((np.float32, 1e-4), (np.float64, 1e-10)):
        x, w, b, *rest = _arrays(config, dtype, seed)
        want = _run(
            torch, torch.from_numpy(x), torch.from_numpy(w),
            None if b is None else torch.from_numpy(b), *rest,
        ).numpy()  # fmt: skip
        got = _run(
            ts, ts.from_numpy(x), ts.from_numpy(w), None if b is None else ts.from_numpy(b), *rest
        )
        assert got.numpy().dtype == want.dtype
        np.testing.assert_allclose(got.numpy(), want, rtol=tol, atol=tol)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=configurations(), seed=st.integers(0, 2**16))
def test_convolution_gradients_match_pytorch(config, seed):
    x, w, b, *rest = _arrays(config, np.float64, seed)
    grads = []
    for lib in (torch, ts):
        ins = [
            lib.from_numpy(a.copy()).requires_grad_(True)
            for a in (x, w) + ((b,) if b is not None else ())
        ]
        out = _run(lib, ins[0], ins[1], ins[2] if b is not None else None, *rest)
        cotangent = np.random.default_rng(seed + 1).standard_normal(tuple(out.shape))
        (out * lib.from_numpy(cotangent)).sum().backward()
        grads.append([t.grad.numpy() for t in ins])
    for want, got in zip(*grads, strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-9)


def test_a_batch_larger_than_one_column_chunk_is_computed_whole():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((9, 4, 20, 20)).astype(np.float32)  # 9 images of 400 positions
    w = rng.standard_normal((6, 4, 3, 3)).astype(np.float32)
    want = torch.nn.functional.conv2d(torch.from_numpy(x), torch.from_numpy(w), padding=1)
    got = ts.nn.functional.conv2d(ts.from_numpy(x), ts.from_numpy(w), padding=1)
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-4, atol=1e-4)
