"""Batch and instance norm round float32 as PyTorch's CPU kernels do.

PyTorch sums the per-channel statistics in double and applies them as one multiply-add per
element, `x * alpha + beta` with `alpha = invstd * weight` and `beta = bias - mean * alpha`
(fused); the float32 results are compared bit for bit, float64 ones to a few ulps. Inputs
with one element per channel and sample (`(N, C)`) are the exception: PyTorch then sums in
float32 per thread, so those statistics depend on its thread count and agree to a few ulps.
"""

from __future__ import annotations

import numpy as np
import pytest
import ts_runtime as ts
from ts_runtime.nn import functional as F

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.oracle

SHAPES = [(2, 8, 37, 41), (1, 16, 33, 33), (4, 3, 5), (5, 7), (3, 4, 2, 3, 5)]


def _case(shape: tuple[int, ...], dtype: type, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    c = shape[1]
    return [
        (rng.standard_normal(shape) * 3 + 1).astype(dtype),
        rng.standard_normal(c).astype(dtype),
        rng.standard_normal(c).astype(dtype),
        rng.standard_normal(c).astype(dtype),
        rng.uniform(0.5, 1.5, c).astype(dtype),
    ]


def _check(ours: np.ndarray, theirs: np.ndarray, exact: bool = True) -> None:
    if ours.dtype == np.float32 and exact:
        np.testing.assert_array_equal(ours, theirs)
    elif ours.dtype == np.float32:
        np.testing.assert_allclose(ours, theirs, rtol=1e-6, atol=1e-6)
    else:
        np.testing.assert_allclose(ours, theirs, rtol=1e-14, atol=1e-14)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("affine", [True, False])
def test_batch_norm_matches_pytorch(shape, dtype, training, affine):
    x, w, b, rm, rv = _case(shape, dtype, seed=len(shape) * 7 + shape[1])
    if not affine:
        w = b = None
    t = lambda a: None if a is None else torch.from_numpy(a.copy())  # noqa: E731
    o = lambda a: None if a is None else ts.from_numpy(a.copy())  # noqa: E731
    trm, trv, orm, orv = t(rm), t(rv), o(rm), o(rv)
    expected = torch.nn.functional.batch_norm(
        t(x), trm, trv, t(w), t(b), training=training, momentum=0.1, eps=1e-5
    )
    got = F.batch_norm(o(x), orm, orv, o(w), o(b), training=training, momentum=0.1, eps=1e-5)
    _check(got.numpy(), expected.numpy(), exact=len(shape) > 2 or not training)
    # the running statistics move as PyTorch's do (a few float32 roundings apart)
    np.testing.assert_allclose(orm.numpy(), trm.numpy(), rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(orv.numpy(), trv.numpy(), rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("shape", SHAPES[:3])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_instance_norm_matches_pytorch(shape, dtype):
    x, w, b, _, _ = _case(shape, dtype, seed=shape[0])
    expected = torch.nn.functional.instance_norm(
        torch.from_numpy(x), weight=torch.from_numpy(w), bias=torch.from_numpy(b)
    )
    got = F.instance_norm(ts.from_numpy(x), weight=ts.from_numpy(w), bias=ts.from_numpy(b))
    _check(got.numpy(), expected.numpy())


def test_zero_variance_with_zero_eps_gives_zero_as_pytorch():
    x = np.ones((3, 2, 4), np.float32)
    expected = torch.batch_norm(torch.from_numpy(x), None, None, None, None, True, 0.1, 0.0, False)
    got = ts.batch_norm(ts.from_numpy(x), None, None, None, None, True, 0.1, 0.0, False)
    np.testing.assert_array_equal(got.numpy(), expected.numpy())
