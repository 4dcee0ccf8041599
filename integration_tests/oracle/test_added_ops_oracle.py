"""Operators added from the coverage ranking, against real PyTorch.

Each case runs the same function on `torch` and on `ts_runtime` (which share
the API) with tensors made from the same numpy arrays: results must agree in
dtype, shape and values, errors in their Python class, and `out=` calls in
the object they return, the out tensor's contents and the warnings given.
Gradients are compared with PyTorch's, in float64.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")
import ts_runtime as ts  # noqa: E402
from ts_runtime import autograd  # noqa: E402

pytestmark = pytest.mark.oracle

F32, F64, I64, I32, B, U8 = "float32", "float64", "int64", "int32", "bool", "uint8"


def _rng(name: str) -> np.random.Generator:
    return np.random.default_rng([77, *map(ord, name)])


def make(rng: np.random.Generator, spec) -> np.ndarray:
    if isinstance(spec, np.ndarray):
        return spec
    shape, dtype = spec
    dt = np.dtype(dtype)
    if dt.kind == "f":
        return rng.standard_normal(shape).astype(dt)
    if dt.kind == "b":
        return rng.random(shape) > 0.5
    if dt.kind == "u":
        return rng.integers(0, 6, shape).astype(dt)
    return rng.integers(-5, 6, shape).astype(dt)


def _to(lib, arr):
    return torch.from_numpy(arr.copy()) if lib is torch else ts.from_numpy(arr.copy())


def _dtype_name(t) -> str:
    return str(t.dtype).split(".")[-1]


def compare(ours, theirs, *, rtol=1e-5, atol=1e-6, path="result"):
    if isinstance(theirs, BaseException):
        assert isinstance(ours, BaseException), f"{path}: expected {theirs!r}, got {ours!r}"
        for cls in (IndexError, ValueError, TypeError, RuntimeError):
            if isinstance(theirs, cls) and not isinstance(theirs, NotImplementedError):
                assert isinstance(ours, cls), f"{path}: {ours!r} is not a {cls.__name__}"
        return
    assert not isinstance(ours, BaseException), f"{path}: raised {ours!r}, expected {theirs!r}"
    if isinstance(theirs, torch.Tensor):
        assert isinstance(ours, ts.Tensor), f"{path}: expected a tensor, got {ours!r}"
        assert _dtype_name(ours) == _dtype_name(theirs), f"{path}: {ours.dtype} != {theirs.dtype}"
        assert tuple(ours.shape) == tuple(theirs.shape), (
            f"{path}: shape {tuple(ours.shape)} != {tuple(theirs.shape)}"
        )
        a, b = ours.detach().numpy(), theirs.detach().numpy()
        if b.dtype.kind in "fc":
            np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, equal_nan=True, err_msg=path)
        else:
            np.testing.assert_array_equal(a, b, err_msg=path)
        return
    if isinstance(theirs, (tuple, list)):
        assert isinstance(ours, (tuple, list)) and len(ours) == len(theirs), path
        for i, (o, t) in enumerate(zip(ours, theirs, strict=True)):
            compare(o, t, rtol=rtol, atol=atol, path=f"{path}[{i}]")
        return
    assert ours == theirs, f"{path}: {ours!r} != {theirs!r}"


def _run(lib, fn, arrays):
    try:
        return fn(lib, *[_to(lib, a) for a in arrays])
    except Exception as exc:  # compared by class
        return exc


def run_case(name, fn, specs, **tol):
    rng = _rng(name)
    arrays = [make(rng, s) for s in specs]
    compare(_run(ts, fn, arrays), _run(torch, fn, arrays), **tol)


def c(name, fn, *specs, **tol):
    return pytest.param(name, fn, specs, tol, id=name)


NONNEG = np.array([1, 3, 3, 0, 7, 3], dtype=np.int64)
WEIGHTS = np.array([0.5, 1.0, 2.0, -1.0, 0.25, 3.0], dtype=np.float32)
BESSEL = np.array([0.0, 1e-3, -0.5, 1.0, -3.0, 12.5, -29.9, 30.0, 30.1, 45.0, -90.0, 700.0])

CASES = [
    # torch.where(cond): one index tensor per dimension
    c("where_cond_2d", lambda t, x: t.where(x > 0), ((3, 4), F32)),
    c("where_cond_int", lambda t, x: t.where(x), ((2, 3, 2), I64)),
    c("where_cond_bool_1d", lambda t, x: t.where(x), ((7,), B)),
    c("where_cond_0d", lambda t, x: (t.where(x > 0), t.where(x < -100)), ((), F32)),
    c("where_cond_empty", lambda t, x: t.where(x), ((0, 3), F32)),
    c("where_cond_index", lambda t, x: x[tuple(t.where(x > 0))], ((3, 4), F32)),
    # bincount
    c("bincount", lambda t, x: t.bincount(x), NONNEG),
    c(
        "bincount_minlength",
        lambda t, x: (t.bincount(x, minlength=10), x.bincount(None, 2)),
        NONNEG,
    ),
    c("bincount_weights_f32", lambda t, x, w: t.bincount(x, w), NONNEG, WEIGHTS),
    c("bincount_weights_f64", lambda t, x, w: t.bincount(x, w.double()), NONNEG, WEIGHTS),
    c("bincount_weights_int", lambda t, x: t.bincount(x, weights=x), NONNEG),
    c(
        "bincount_empty",
        lambda t, x: (t.bincount(x), t.bincount(x, minlength=3)),
        np.zeros(0, np.int64),
    ),
    c("bincount_uint8", lambda t, x: t.bincount(x), ((9,), U8)),
    c("bincount_negative", lambda t, x: t.bincount(x), np.array([1, -1])),
    c("bincount_2d", lambda t, x: t.bincount(x), np.ones((2, 2), np.int64)),
    c("bincount_float", lambda t, x: t.bincount(x), ((3,), F32)),
    c("bincount_bad_weights", lambda t, x: t.bincount(x, x[:2].float()), NONNEG),
    # addcmul / addcdiv
    c(
        "addcmul",
        lambda t, a, b, d: t.addcmul(a, b, d),
        ((3, 4), F32),
        ((3, 4), F32),
        ((3, 4), F32),
    ),
    c(
        "addcmul_value_broadcast",
        lambda t, a, b, d: (t.addcmul(a, b, d, value=-0.5), a.addcmul(b, d, value=2)),
        ((3, 1), F32),
        ((4,), F32),
        ((2, 1, 1), F32),
    ),
    c(
        "addcmul_promote",
        lambda t, a, b, d: (t.addcmul(a, b, d, value=3), t.addcmul(b, a, d)),
        ((3,), I64),
        ((3,), F64),
        ((3,), I32),
    ),
    c("addcmul_int_float_value", lambda t, a: t.addcmul(a, a, a, value=2.5), ((4,), I32)),
    c("addcmul_bool", lambda t, a: t.addcmul(a, a, a), ((4,), B)),
    c(
        "addcmul_inplace",
        lambda t, a, b, d: (a.addcmul_(b, d, value=0.25), a),
        ((2, 3), F32),
        ((3,), F32),
        ((2, 3), F32),
    ),
    c("addcmul_inplace_bad_shape", lambda t, a, b: a.addcmul_(b, b), ((3,), F32), ((2, 3), F32)),
    c("addcmul_inplace_bad_dtype", lambda t, a, b: a.addcmul_(b, b), ((3,), I64), ((3,), F32)),
    c(
        "addcdiv",
        lambda t, a, b, d: (t.addcdiv(a, b, d), t.addcdiv(a, b, d, value=-2)),
        ((3, 4), F32),
        ((3, 4), F32),
        ((4,), F64),
    ),
    c("addcdiv_zero", lambda t, a, b: t.addcdiv(a, b, b * 0), ((3,), F32), ((3,), F32)),
    c("addcdiv_int_operands", lambda t, a, b: t.addcdiv(a, b, b), ((3,), F32), ((3,), I64)),
    c(
        "addcdiv_inplace",
        lambda t, a, b, d: (a.addcdiv_(b, d, value=0.5), a),
        ((4,), F64),
        ((4,), F64),
        ((4,), F64),
    ),
    c("addcmul_mismatch", lambda t, a, b: t.addcmul(a, b, b), ((3,), F32), ((4,), F32)),
    # modified Bessel functions
    c(
        "bessel_f64",
        lambda t, x: (t.i0(x), t.special.i0e(x), t.special.i1(x), t.special.i1e(x)),
        BESSEL,
        rtol=1e-12,
        atol=0,
    ),
    c(
        "bessel_f32",
        lambda t, x: (t.i0(x), t.special.i0e(x), t.special.i1(x), t.special.i1e(x)),
        BESSEL.astype(np.float32),
        rtol=2e-6,
    ),
    c("i0_int", lambda t, x: (t.i0(x), t.special.i1(x)), ((5,), I64)),
    c("i0_inplace", lambda t, x: (x.i0_(), x), ((2, 3), F32)),
    c("i0_method", lambda t, x: x.i0(), ((4,), F64)),
    # scaled dot product attention
    c(
        "sdpa",
        lambda t, q, k, v: t.nn.functional.scaled_dot_product_attention(q, k, v),
        ((2, 3, 4), F32),
        ((2, 5, 4), F32),
        ((2, 5, 6), F32),
    ),
    c(
        "sdpa_heads_scale",
        lambda t, q, k, v: t.nn.functional.scaled_dot_product_attention(q, k, v, scale=0.3),
        ((2, 2, 3, 4), F64),
        ((2, 2, 5, 4), F64),
        ((2, 2, 5, 4), F64),
    ),
    c(
        "sdpa_causal",
        lambda t, q, k, v: t.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True),
        ((2, 4, 8), F32),
        ((2, 6, 8), F32),
        ((2, 6, 8), F32),
    ),
    c(
        "sdpa_bool_mask",
        lambda t, q, k, v, m: t.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=m),
        ((2, 3, 4), F32),
        ((2, 5, 4), F32),
        ((2, 5, 4), F32),
        ((3, 5), B),
    ),
    c(
        "sdpa_fully_masked_row",
        lambda t, q, k, v: t.nn.functional.scaled_dot_product_attention(
            q, k, v, attn_mask=t.arange(5) < t.tensor([[3], [0], [5]])
        ),
        ((3, 4), F32),
        ((5, 4), F32),
        ((5, 2), F32),
    ),
    c(
        "sdpa_float_mask",
        lambda t, q, k, v, m: t.nn.functional.scaled_dot_product_attention(q, k, v, m),
        ((2, 3, 4), F32),
        ((2, 5, 4), F32),
        ((2, 5, 4), F32),
        ((2, 1, 5), F32),
    ),
    c(
        "sdpa_gqa",
        lambda t, q, k, v: t.nn.functional.scaled_dot_product_attention(q, k, v, enable_gqa=True),
        ((2, 4, 3, 8), F32),
        ((2, 2, 5, 8), F32),
        ((2, 2, 5, 8), F32),
    ),
    c(
        "sdpa_heads_mismatch",
        lambda t, q, k, v: t.nn.functional.scaled_dot_product_attention(q, k, v),
        ((2, 4, 3, 8), F32),
        ((2, 2, 5, 8), F32),
        ((2, 2, 5, 8), F32),
    ),
    c(
        "sdpa_mask_and_causal",
        lambda t, q, m: t.nn.functional.scaled_dot_product_attention(q, q, q, m, is_causal=True),
        ((2, 3, 4), F32),
        ((3, 3), F32),
    ),
    c(
        "sdpa_no_dropout_in_eval",
        lambda t, q, k: t.nn.functional.scaled_dot_product_attention(q, k, k, dropout_p=0.0),
        ((3, 4), F64),
        ((6, 4), F64),
    ),
]


POS = ((2, 3), "pos")
UNIT = ((7,), "unit")


def _special_arrays(rng, spec):
    shape, kind = spec
    if kind == "pos":
        return (np.abs(rng.standard_normal(shape)) + 0.1).astype(np.float64)
    return rng.uniform(-0.95, 0.95, shape)


MORE_CASES = [
    # aliases
    c(
        "aliases_unary",
        lambda t, x: (t.absolute(x), t.negative(x), t.fix(x * 3), t.arctan(x), t.arcsinh(x)),
        ((2, 3), F32),
    ),
    c(
        "aliases_binary",
        lambda t, x, y: (
            t.subtract(x, y, alpha=2),
            t.multiply(x, y),
            t.divide(x, y, rounding_mode="floor"),
            t.true_divide(x, 2),
            t.greater(x, y),
            t.not_equal(x, y),
            t.arctan2(x, y),
        ),
        ((2, 3), F32),
        ((3,), F32),
    ),
    c(
        "aliases_clip_concat",
        lambda t, x, y: (
            t.clip(x, -0.5, 0.5),
            x.clip(max=0.1),
            t.concat([x, y]),
            t.concatenate([x, y], 0),
        ),
        ((2, 3), F32),
        ((1, 3), F32),
    ),
    c(
        "aliases_inplace",
        lambda t, x: (x.absolute_(), x.clip_(0.1, 0.9), x.negative_(), x),
        ((2, 3), F64),
    ),
    c(
        "aliases_special",
        lambda t, x: (
            t.special.expit(x),
            t.special.exp2(x),
            t.special.expm1(x),
            t.special.erf(x),
            t.special.round(x * 3),
            t.special.softmax(x, 1),
            t.special.log_softmax(x, 0),
        ),
        ((2, 3), F32),
    ),
    c("moveaxis", lambda t, x: (t.moveaxis(x, 0, 2), x.moveaxis((0, 1), (2, 0))), ((2, 3, 4), F32)),
    c("cpu", lambda t, x: (x.cpu(), x.cpu() is x), ((2,), F32)),
    # more pointwise
    c(
        "fmax_fmin",
        lambda t, x, y: (t.fmax(x, y), t.fmin(x, y)),
        np.array([1.0, np.nan, 3.0, np.nan]),
        np.array([np.nan, 2.0, 1.0, np.nan]),
    ),
    c(
        "hypot_logaddexp",
        lambda t, x, y: (t.hypot(x, y), t.logaddexp(x, y), t.logaddexp2(x, y)),
        ((2, 3), F32),
        ((3,), F32),
    ),
    c("hypot_int", lambda t, x: t.hypot(x, x), ((3,), I64)),
    c("heaviside", lambda t, x, v: t.heaviside(x, v), np.array([-1.0, 0.0, 2.0]), np.array([0.5])),
    c(
        "float_power",
        lambda t, x: (t.float_power(x, 2), t.float_power(x.abs(), x), t.float_power(2, x)),
        ((4,), F32),
    ),
    c("float_power_int", lambda t, x: t.float_power(x, 3), ((4,), I64)),
    c(
        "xlogy",
        lambda t, x, y: (
            t.xlogy(x, y),
            t.xlogy(x * 0, y),
            t.xlogy(2, y),
            t.special.xlogy(x, 3.0),
            t.special.xlog1py(x, y),
        ),
        ((2, 3), F64),
        POS,
    ),
    c("xlogy_int", lambda t, x: t.xlogy(x, x), ((3,), I64)),
    c(
        "sign_tests",
        lambda t, x: (
            t.signbit(x),
            t.isposinf(x),
            t.isneginf(x),
            t.nan_to_num(x),
            t.nan_to_num(x, 0.5, 1.0, -1.0),
        ),
        np.array([-0.0, 1.0, np.inf, -np.inf, np.nan, -2.0]),
    ),
    c("nan_to_num_int", lambda t, x: t.nan_to_num(x), ((3,), I64)),
    c("positive", lambda t, x: t.positive(x), ((3,), F32)),
    c("positive_bool", lambda t, x: t.positive(x), ((3,), B)),
    c("degrees", lambda t, x: (t.deg2rad(x), t.rad2deg(x)), ((3,), F32)),
    c("degrees_int", lambda t, x: (t.deg2rad(x), t.rad2deg(x)), ((3,), I64)),
    c(
        "special_math",
        lambda t, x: (
            t.sinc(x),
            t.special.entr(x.abs()),
            t.special.ndtr(x),
            t.erfinv(x * 0.5),
            t.special.erfinv(x * 0.5),
            t.lgamma(x),
            t.digamma(x),
            t.special.psi(x),
        ),
        np.array([-2.5, -0.5, 0.0, 1e-3, 0.5, 1.0, 7.5, 30.0]),
    ),
    c(
        "logit",
        lambda t, x: (t.logit(x), t.logit(x, 0.2), t.special.logit(x)),
        np.array([0.0, 0.1, 0.5, 0.9, 1.0]),
    ),
    c(
        "polygamma",
        lambda t, x: (t.polygamma(1, x), t.polygamma(2, x), t.special.polygamma(3, x)),
        np.array([-2.5, -0.5, 0.3, 1.0, 7.5, 30.0]),
    ),
    c("lgamma_poles", lambda t, x: (t.lgamma(x), t.digamma(x)), np.array([0.0, -1.0, -2.0, 1.0])),
    # order statistics
    c("kthvalue", lambda t, x: (t.kthvalue(x, 2, 1), x.kthvalue(1, 0, True)), ((3, 5), F32)),
    c(
        "mode",
        lambda t, x: (t.mode(x, 1), x.mode(0, True)),
        np.array([[1, 2, 2, 3], [4, 4, 1, 1], [0, 5, 5, 5]]),
    ),
    c(
        "nanmedian",
        lambda t, x: (t.nanmedian(x), t.nanmedian(x, 1), x.nanmedian(0, True)),
        np.array([[1.0, np.nan, 3.0, 2.0], [np.nan, np.nan, 1.0, 5.0], [4.0, np.nan, 1.0, 1.0]]),
    ),
    c(
        "cummax_cummin",
        lambda t, x: (t.cummax(x, 1), t.cummin(x, 0)),
        np.array([[1.0, 3.0, 2.0, 3.0], [0.0, np.nan, 5.0, 1.0]]),
    ),
    c("cummax_int", lambda t, x: t.cummax(x, 0), ((6,), I64)),
    c("logcumsumexp", lambda t, x: (t.logcumsumexp(x, 1), x.logcumsumexp(0)), ((3, 4), F64)),
    # norms
    c(
        "linalg_norm",
        lambda t, x: (
            t.linalg.norm(x),
            t.linalg.norm(x, 1),
            t.linalg.norm(x, float("inf")),
            t.linalg.norm(x, -1),
            t.linalg.norm(x, "fro"),
            t.linalg.norm(x, dim=1),
            t.linalg.norm(x, 3, dim=0, keepdim=True),
        ),
        ((3, 4), F32),
    ),
    c("linalg_norm_vector", lambda t, x: (t.linalg.norm(x, 1), t.linalg.norm(x, 0)), ((5,), F64)),
    c("frobenius_norm", lambda t, x: t.frobenius_norm(x, [0, 1]), ((3, 4), F32)),
    c(
        "instance_norm",
        lambda t, x, w, b: t.instance_norm(x, w, b, None, None, True, 0.1, 1e-5, False),
        ((2, 3, 5), F32),
        ((3,), F32),
        ((3,), F32),
    ),
    c(
        "instance_norm_running",
        lambda t, x, m, v: (
            t.instance_norm(x, None, None, m, v, True, 0.3, 1e-5, False),
            m,
            v,
        ),
        ((2, 3, 4, 4), F64),
        ((3,), F64),
        ((3,), "pos"),
    ),
    # scatter_reduce, index_copy, logspace
    c(
        "scatter_reduce",
        lambda t, x, s: tuple(
            t.scatter_reduce(x, 1, t.tensor([[0, 1, 0], [2, 2, 3]]), s, r, include_self=i)
            for r in ("sum", "prod", "mean", "amax", "amin")
            for i in (True, False)
        ),
        ((2, 4), F64),
        ((2, 3), F64),
    ),
    c(
        "scatter_reduce_int_mean",
        lambda t, x, s: t.scatter_reduce(x, 0, t.tensor([0, 0, 2]), s, "mean"),
        np.array([1, 2, 3]),
        np.array([4, 5, 7]),
    ),
    c(
        "index_copy",
        lambda t, x, s: (
            t.index_copy(x, 1, t.tensor([3, 0]), s),
            x.index_copy(0, t.tensor([1]), s[:1].t()[:, :1].t().expand(1, 4).contiguous()),
        ),
        ((2, 4), F32),
        ((2, 2), F32),
    ),
    c(
        "logspace",
        lambda t: (
            t.logspace(0, 2, 3),
            t.logspace(-1, 1, 5, base=2.0),
            t.logspace(0, 3, 4, dtype=t.int64),
        ),
    ),
    # rearranging
    c(
        "unfold",
        lambda t, x: (x.unfold(1, 2, 1), x.unfold(0, 2, 2), x.unfold(-1, 4, 3)),
        ((4, 5), F32),
    ),
    c("unfold_too_big", lambda t, x: x.unfold(0, 5, 1), ((4,), F32)),
    c(
        "repeat_interleave",
        lambda t, x: (
            x.repeat_interleave(2),
            x.repeat_interleave(2, dim=1),
            t.repeat_interleave(x, t.tensor([1, 0, 3]), dim=0),
            t.repeat_interleave(t.tensor([2, 0, 1])),
        ),
        ((3, 2), I64),
    ),
    c(
        "fill_diagonal",
        lambda t, x: (
            x.clone().fill_diagonal_(0.5),
            t.ones(7, 3).fill_diagonal_(2.0, wrap=True),
            t.ones(7, 3).fill_diagonal_(2.0),
        ),
        ((3, 4), F32),
    ),
    # distances
    c(
        "cross",
        lambda t, a, b: (t.cross(a, b, dim=1), t.linalg.cross(a, b), t.cross(a, b)),
        ((4, 3), F32),
        ((4, 3), F32),
    ),
    c(
        "cosine_similarity",
        lambda t, a, b: (
            t.nn.functional.cosine_similarity(a, b),
            t.cosine_similarity(a, b, dim=0),
            t.cosine_similarity(a, b * 0, dim=1),
        ),
        ((4, 3), F32),
        ((4, 3), F32),
    ),
    c("cosine_similarity_int", lambda t, a: t.cosine_similarity(a, a), ((2, 3), I64)),
    c(
        "pairwise_distance",
        lambda t, a, b: (
            t.pairwise_distance(a, b),
            t.pairwise_distance(a, b, 1.0, 1e-6, True),
        ),
        ((4, 3), F32),
        ((4, 3), F32),
    ),
    c(
        "cdist_dist",
        lambda t, a, b: (
            t.cdist(a, b),
            t.cdist(a, b, p=1.0),
            t.dist(a[:2], b[:2]),
            t.dist(a[0], b[0], 3),
        ),
        ((4, 3), F64),
        ((5, 3), F64),
    ),
    # complex tensors and Fourier transforms
    c(
        "complex_parts",
        lambda t, x, y: (
            t.real(t.complex(x, y)),
            t.imag(t.complex(x, y)),
            t.view_as_real(t.complex(x, y)),
            t.view_as_complex(t.stack([x, y], -1)),
            t.polar(x.abs(), y),
            t.conj_physical(t.complex(x, y)),
            t.angle(t.complex(x, y)),
            t.angle(x),
            t.real(x),
        ),
        ((2, 3), F32),
        ((2, 3), F32),
    ),
    c("imag_of_real", lambda t, x: t.imag(x), ((2,), F32)),
    c(
        "fft_1d",
        lambda t, x: (
            t.fft.fft(x),
            t.fft.ifft(x, n=8),
            t.fft.rfft(x),
            t.fft.rfft(x, n=5, norm="ortho"),
            t.fft.irfft(t.fft.rfft(x)),
            t.fft.hfft(t.fft.ihfft(x)),
            t.fft.fft(x, dim=0, norm="forward"),
        ),
        ((3, 6), F32),
    ),
    c(
        "fft_nd",
        lambda t, x: (
            t.fft.fft2(x),
            t.fft.rfft2(x),
            t.fft.irfft2(t.fft.rfft2(x)),
            t.fft.fftn(x, dim=(0, 2)),
            t.fft.ifftn(x, s=(4, 4)),
            t.fft.rfftn(x),
            t.fft.irfftn(t.fft.rfftn(x)),
        ),
        ((2, 3, 4), F64),
    ),
    c(
        "fft_helpers",
        lambda t, x: (
            t.fft.fftfreq(5),
            t.fft.rfftfreq(6, 0.5),
            t.fft.fftshift(x),
            t.fft.ifftshift(x, dim=(1,)),
        ),
        ((3, 4), F32),
    ),
    c("fft_int", lambda t, x: t.fft.fft(x), ((4,), I64)),
]


SPD = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]])

MORE_CASES += [
    # linear algebra
    c(
        "inverse_det",
        lambda t, a: (
            t.inverse(a),
            t.linalg.inv(a),
            t.det(a),
            t.linalg.det(a),
            t.linalg.slogdet(a),
            t.slogdet(a),
        ),
        ((2, 3, 3), F64),
    ),
    c("inverse_singular", lambda t, a: t.inverse(a * 0), ((3, 3), F64)),
    c("logdet", lambda t, a: (t.logdet(a), t.logdet(-a)), SPD),
    c(
        "solve",
        lambda t, a, b: (
            t.linalg.solve(a, b),
            t.linalg.solve(a, b[..., 0]),
            t.linalg.solve(a, b.transpose(-1, -2), left=False),
        ),
        ((2, 3, 3), F64),
        ((2, 3, 3), F64),
    ),
    c(
        "cholesky",
        lambda t, a: (
            t.linalg.cholesky(a),
            t.linalg.cholesky(a, upper=True),
            t.cholesky_inverse(t.linalg.cholesky(a)),
            t.cholesky_solve(a[:, :2], t.linalg.cholesky(a)),
        ),
        SPD,
    ),
    c("cholesky_not_pd", lambda t, a: t.linalg.cholesky(-a), SPD),
    c(
        "eigh_svdvals",
        lambda t, a, b: (t.linalg.eigvalsh(a), t.linalg.eigh(a)[0], t.linalg.svdvals(b)),
        SPD,
        ((2, 4, 3), F64),
    ),
    c(
        "solve_triangular",
        lambda t, a, b: (
            t.linalg.solve_triangular(a, b, upper=False),
            t.linalg.solve_triangular(a, b, upper=True, unitriangular=True),
            t.linalg.solve_triangular(a, b.t(), upper=True, left=False),
        ),
        SPD,
        ((3, 2), F64),
    ),
    c(
        "pinv",
        lambda t, b: (t.linalg.pinv(b), t.pinverse(b), t.linalg.pinv(b, atol=0.5)),
        ((4, 3), F64),
    ),
    c(
        "matrix_power",
        lambda t, a: (
            t.linalg.matrix_power(a, 0),
            t.linalg.matrix_power(a, 5),
            t.matrix_power(a, -3),
        ),
        SPD,
    ),
    c(
        "matrix_norm",
        lambda t, a: (
            t.linalg.matrix_norm(a),
            t.linalg.matrix_norm(a, 1),
            t.linalg.matrix_norm(a, -2),
            t.linalg.matrix_norm(a, "nuc"),
            t.linalg.norm(a, 2),
            t.linalg.matrix_norm(a, float("inf"), keepdim=True),
        ),
        ((2, 3, 4), F64),
    ),
    # sets and bins
    c(
        "unique",
        lambda t, x: (
            t._unique2(x, True, True, True),
            t.unique(x, return_inverse=True, return_counts=True, dim=1),
            t.unique_consecutive(x.flatten(), return_inverse=True, return_counts=True),
        ),
        ((3, 4), I64),
    ),
    c(
        "unique_consecutive_dim",
        lambda t, x: t.unique_consecutive(x, dim=0),
        np.array([[1, 2], [1, 2], [0, 1], [1, 2]]),
    ),
    c(
        "searchsorted_bucketize",
        lambda t, b, v: (
            t.searchsorted(b, v),
            t.searchsorted(b, v, right=True),
            t.bucketize(v, b),
            t.bucketize(v, b, out_int32=True, right=True),
            t.searchsorted(b, 2.5),
        ),
        np.array([0.0, 1.0, 1.0, 2.5, 4.0]),
        np.array([[-1.0, 1.0, 3.0], [4.0, 5.0, 2.5]]),
    ),
    c("histc", lambda t, x: (t.histc(x), t.histc(x, 7, -1, 1), x.histc(3)), ((40,), F32)),
    c(
        "diff",
        lambda t, x, p: (t.diff(x), t.diff(x, 2, 0), t.diff(x, 1, -1, p, p), t.diff(x, 3)),
        ((4, 5), F64),
        ((4, 1), F64),
    ),
    # windows
    c(
        "windows",
        lambda t: (
            (
                *tuple(
                    getattr(t, w)(n, p)
                    for w in (
                        "hann_window",
                        "hamming_window",
                        "blackman_window",
                        "bartlett_window",
                        "kaiser_window",
                    )
                    for n in (0, 1, 6)
                    for p in (True, False)
                ),
                t.hamming_window(5, True, 0.5, 0.4),
                t.kaiser_window(6, False, 5.0),
                t.hann_window(4, dtype=t.float64),
            )
        ),
    ),
    # in-place forms
    c(
        "lerp_detach_inplace",
        lambda t, a, b: (a.clone().lerp_(b, 0.3), a.clone().lerp_(b, b), a.clone().detach_()),
        ((2, 3), F32),
        ((2, 3), F32),
    ),
    c(
        "random_ranges",
        lambda t, x: (
            x.clone().random_(3, 7).ge(3).all(),
            x.clone().random_(5).lt(5).all(),
            t.zeros(4, dtype=t.uint8).random_().mul(0),
        ),
        ((50,), F32),
    ),
]


@pytest.mark.parametrize(("name", "fn", "specs", "tol"), MORE_CASES)
def test_more_added_ops(name, fn, specs, tol):
    rng = _rng(name)
    arrays = [
        _special_arrays(rng, s)
        if isinstance(s, tuple) and isinstance(s[1], str) and s[1] in ("pos", "unit")
        else make(rng, s)
        for s in specs
    ]
    ours, theirs = _run(ts, fn, arrays), _run(torch, fn, arrays)
    theirs = _resolved(theirs)
    compare(ours, theirs, **tol)


def _resolved(value):
    if isinstance(value, torch.Tensor):
        return value.resolve_conj().resolve_neg()
    if isinstance(value, (tuple, list)):
        return (
            type(value)(_resolved(v) for v in value)
            if not hasattr(value, "_fields")
            else tuple(_resolved(v) for v in value)
        )
    return value


@pytest.mark.parametrize(("name", "fn", "specs", "tol"), CASES)
def test_added_ops(name, fn, specs, tol):
    run_case(name, fn, specs, **tol)


# ---------------------------------------------------------------------------
# out= overloads: the functional kernel written into `out`, with resize semantics


def _out_call(lib, fn, arrays, out_arrays):
    """(what `fn` returned or raised, the out tensors after the call, the UserWarnings given)."""
    # torch.tensor, not from_numpy: a tensor over a numpy array cannot be resized
    outs = [torch.tensor(a) if lib is torch else ts.tensor(a) for a in out_arrays]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            returned = fn(lib, *[_to(lib, a) for a in arrays], *outs)
        except Exception as exc:
            return exc, outs, []
    messages = [str(w.message) for w in caught if issubclass(w.category, UserWarning)]
    return returned, outs, messages


def o(name, fn, ins, outs):
    return pytest.param(name, fn, ins, outs, id=name)


OUT_CASES = [
    o(
        "add_out",
        lambda t, x, y, r: t.add(x, y, out=r),
        [((3, 4), F32), ((4,), F32)],
        [((3, 4), F32)],
    ),
    o(
        "add_out_resize_empty",
        lambda t, x, y, r: t.add(x, y, alpha=2, out=r),
        [((3,), F32), ((3,), F32)],
        [((0,), F32)],
    ),
    o(
        "add_out_resize_warns",
        lambda t, x, y, r: t.add(x, y, out=r),
        [((3,), F32), ((3,), F32)],
        [((5,), F32)],
    ),
    o(
        "add_out_int_into_float",
        lambda t, x, y, r: t.add(x, y, out=r),
        [((3,), I64), ((3,), I64)],
        [((3,), F64)],
    ),
    o(
        "div_out_float_into_int",
        lambda t, x, y, r: t.div(x, y, out=r),
        [((3,), F32), ((3,), F32)],
        [((3,), I64)],
    ),
    o(
        "mul_out_into_input",
        lambda t, x, y: (t.mul(x, y, out=x), x),
        [((3,), F32), ((3,), F32)],
        [],
    ),
    o("exp_out", lambda t, x, r: t.exp(x, out=r), [((2, 2), F32)], [((4,), F32)]),
    o(
        "sum_dim_out",
        lambda t, x, r: t.sum(x, 1, keepdim=True, out=r),
        [((3, 4), F32)],
        [((0,), F32)],
    ),
    o("mean_out", lambda t, x, r: t.mean(x, (0, 1), out=r), [((3, 4), F64)], [((0,), F64)]),
    o(
        "mm_out",
        lambda t, x, y, r: t.mm(x, y, out=r),
        [((2, 3), F32), ((3, 4), F32)],
        [((2, 4), F32)],
    ),
    o(
        "cat_out",
        lambda t, x, y, r: t.cat([x, y], 0, out=r),
        [((2, 3), F32), ((1, 3), F32)],
        [((0,), F32)],
    ),
    o("softmax_out", lambda t, x, r: t.softmax(x, -1, out=r), [((2, 5), F32)], [((2, 5), F32)]),
    o("clamp_out", lambda t, x, r: t.clamp(x, -0.5, 0.5, out=r), [((6,), F32)], [((6,), F32)]),
    o(
        "where_out",
        lambda t, c_, x, y, r: t.where(c_, x, y, out=r),
        [((4,), B), ((4,), F32), ((4,), F32)],
        [((4,), F32)],
    ),
    o("arange_out", lambda t, r: t.arange(0, 5, out=r), [], [((0,), I64)]),
]


@pytest.mark.parametrize(("name", "fn", "ins", "outs"), OUT_CASES)
def test_out_overloads(name, fn, ins, outs):
    rng = _rng(name)
    in_arrays = [make(rng, s) for s in ins]
    out_arrays = [make(rng, s) for s in outs]
    ours, our_outs, our_warnings = _out_call(ts, fn, in_arrays, out_arrays)
    theirs, their_outs, their_warnings = _out_call(torch, fn, in_arrays, out_arrays)
    compare(ours, theirs)
    if not isinstance(theirs, BaseException):
        compare(our_outs, their_outs, path="out")
        if our_outs:
            assert ours is our_outs[0], "the out tensor is not what is returned"
    assert len(our_warnings) == len(their_warnings), (our_warnings, their_warnings)
    for ours_w, theirs_w in zip(our_warnings, their_warnings, strict=True):
        assert ours_w.split(".")[0] == theirs_w.split(".")[0]


def test_out_overload_with_two_outs():
    x = make(_rng("max_out"), ((3, 4), F32))
    values, indices = ts.empty(0), ts.empty(0, dtype=ts.int64)
    returned = ts.max(ts.from_numpy(x), 1, max=values, max_values=indices)
    expected = torch.max(torch.from_numpy(x), 1)
    assert returned[0] is values and returned[1] is indices
    compare([values, indices], [expected.values, expected.indices])


def test_out_with_grad_is_an_error():
    for lib in (torch, ts):
        x = lib.ones(3, requires_grad=True)
        with pytest.raises(RuntimeError, match="don't support automatic differentiation"):
            lib.mul(x, 2.0, out=lib.empty(3))
        with lib.no_grad():
            out = lib.empty(3)
            assert lib.mul(x, 2.0, out=out) is out


# ---------------------------------------------------------------------------
# Gradients against PyTorch's


def _grads(lib, fn, arrays):
    inputs = [_to(lib, a).requires_grad_(True) for a in arrays]
    out = fn(lib, *inputs)
    cot = np.random.default_rng(3).standard_normal(tuple(out.shape))
    loss = (out * _to(lib, cot)).sum()
    grads = (torch.autograd if lib is torch else autograd).grad(loss, inputs)
    return list(grads)


GRAD_CASES = [
    c(
        "addcmul",
        lambda t, a, b, d: t.addcmul(a, b, d, value=-1.5),
        ((3, 1), F64),
        ((4,), F64),
        ((3, 4), F64),
    ),
    c(
        "addcdiv",
        lambda t, a, b, d: t.addcdiv(a, b, d.exp(), value=0.5),
        ((3, 4), F64),
        ((1, 4), F64),
        ((3, 1), F64),
    ),
    c("i0", lambda t, x: t.i0(x * 20), ((7,), F64)),
    c("i0e", lambda t, x: t.special.i0e(x * 20), ((7,), F64)),
    c("i1", lambda t, x: t.special.i1(x * 20), ((7,), F64)),
    c("i1e", lambda t, x: t.special.i1e(x * 20), ((7,), F64)),
    c("i1_at_zero", lambda t, x: t.special.i1(x * 0) + t.special.i1e(x * 0), ((3,), F64)),
    c(
        "sdpa",
        lambda t, q, k, v: t.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True),
        ((2, 3, 4), F64),
        ((2, 3, 4), F64),
        ((2, 3, 5), F64),
    ),
    c(
        "sdpa_float_mask",
        lambda t, q, k, v, m: t.nn.functional.scaled_dot_product_attention(q, k, v, m),
        ((3, 4), F64),
        ((5, 4), F64),
        ((5, 2), F64),
        ((3, 5), F64),
    ),
]


GRAD_CASES += [
    c("unfold", lambda t, x: x.unfold(1, 3, 2), ((2, 7), F64)),
    c(
        "repeat_interleave",
        lambda t, x: t.repeat_interleave(x, t.tensor([2, 0, 1]), dim=0),
        ((3, 2), F64),
    ),
    c("cross", lambda t, a, b: t.linalg.cross(a, b), ((2, 3), F64), ((2, 3), F64)),
    c(
        "cosine_similarity",
        lambda t, a, b: t.nn.functional.cosine_similarity(a, b),
        ((2, 4), F64),
        ((2, 4), F64),
    ),
    c("cdist", lambda t, a, b: t.cdist(a, b), ((3, 2), F64), ((4, 2), F64)),
    c("pairwise_distance", lambda t, a, b: t.pairwise_distance(a, b), ((3, 2), F64), ((3, 2), F64)),
    c(
        "hypot_logaddexp",
        lambda t, a, b: t.hypot(a, b) + t.logaddexp(a, b) + t.fmax(a, b),
        ((2, 3), F64),
        ((2, 3), F64),
    ),
    c("xlogy", lambda t, a, b: t.xlogy(a, b.abs() + 0.1), ((2, 3), F64), ((2, 3), F64)),
    c(
        "special",
        lambda t, x: (
            t.sinc(x)
            + t.lgamma(x.abs() + 0.5)
            + t.digamma(x.abs() + 0.5)
            + t.special.ndtr(x)
            + t.erfinv(x.tanh() * 0.9)
        ),
        ((5,), F64),
    ),
    c(
        "logit_entr",
        lambda t, x: t.logit(x.sigmoid(), 0.3) + t.special.entr(x.abs() + 0.1),
        ((5,), F64),
    ),
    c(
        "kthvalue_mode",
        lambda t, x: t.kthvalue(x, 2, 1).values + t.mode(x, 1).values,
        ((3, 4), F64),
    ),
    c(
        "cummax_logcumsumexp",
        lambda t, x: t.cummax(x, 1).values + t.logcumsumexp(x, 1) + t.cummin(x, 1).values,
        ((2, 5), F64),
    ),
    c(
        "scatter_reduce_sum_mean",
        lambda t, x, s: (
            t.scatter_reduce(x, 1, t.tensor([[0, 1, 0], [2, 2, 3]]), s, "sum")
            + t.scatter_reduce(
                x, 1, t.tensor([[0, 1, 0], [2, 2, 3]]), s, "mean", include_self=False
            )
        ),
        ((2, 4), F64),
        ((2, 3), F64),
    ),
    c(
        "scatter_reduce_amax",
        lambda t, x, s: t.scatter_reduce(x, 1, t.tensor([[0, 1, 0], [2, 2, 3]]), s, "amax"),
        ((2, 4), F64),
        ((2, 3), F64),
    ),
    c(
        "index_copy",
        lambda t, x, s: t.index_copy(x, 1, t.tensor([3, 0]), s),
        ((2, 4), F64),
        ((2, 2), F64),
    ),
    c(
        "linalg_norm",
        lambda t, x: t.linalg.norm(x) + t.linalg.norm(x, 1) + t.linalg.norm(x, dim=1).sum(),
        ((3, 4), F64),
    ),
    c(
        "instance_norm",
        lambda t, x, w, b: t.instance_norm(x, w, b, None, None, True, 0.1, 1e-5, False),
        ((2, 3, 5), F64),
        ((3,), F64),
        ((3,), F64),
    ),
]


GRAD_CASES += [
    c(
        "inverse_det",
        lambda t, a: t.inverse(a).sum() + t.det(a) + t.linalg.slogdet(a)[1],
        ((3, 3), F64),
    ),
    c("solve", lambda t, a, b: t.linalg.solve(a, b), ((3, 3), F64), ((3, 2), F64)),
    c(
        "svdvals_matrix_power",
        lambda t, a: t.linalg.svdvals(a).sum() + t.linalg.matrix_power(a, 3).sum(),
        ((3, 3), F64),
    ),
    c("diff", lambda t, x: t.diff(x, 2, 1), ((2, 5), F64)),
]


@pytest.mark.parametrize(("name", "fn", "specs", "tol"), GRAD_CASES)
def test_added_gradients(name, fn, specs, tol):
    rng = _rng(name)
    arrays = [make(rng, s) for s in specs]
    compare(_grads(ts, fn, arrays), _grads(torch, fn, arrays), rtol=1e-9, atol=1e-12)
