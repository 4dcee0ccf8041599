"""The tensor operators of ts-runtime against real PyTorch, on random inputs.

Each case is a function of the library (`torch` or `ts_runtime`, which share
the API) and of input tensors made from the same numpy arrays; results must
agree in dtype, shape and values (and in type for Python results). View
operators must report PyTorch's strides and storage offsets and share memory
with their base; errors must be raised by both, as the same Python class.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

torch = pytest.importorskip("torch")
import ts_runtime as ts  # noqa: E402

pytestmark = pytest.mark.oracle

RNG_SEED = 1234


def _rng(name: str) -> np.random.Generator:
    return np.random.default_rng([RNG_SEED, *map(ord, name)])


def make(rng: np.random.Generator, spec) -> np.ndarray:
    """An input array: (shape, dtype) random, or an explicit array."""
    if isinstance(spec, np.ndarray):
        return spec
    shape, dtype = spec
    dt = np.dtype(dtype)
    if dt.kind == "f":
        return rng.standard_normal(shape).astype(dt)
    if dt.kind == "b":
        return rng.random(shape) > 0.5
    if dt == np.uint8:
        return rng.integers(0, 5, shape).astype(dt)
    return rng.integers(-5, 6, shape).astype(dt)


def _to(lib, arr):
    return torch.from_numpy(arr.copy()) if lib is torch else ts.from_numpy(arr.copy())


def _dtype_name(t) -> str:
    return str(t.dtype).split(".")[-1]


def compare(ours, theirs, *, rtol=1e-5, atol=1e-6, path="result"):
    if isinstance(theirs, torch.Tensor):
        assert isinstance(ours, ts.Tensor), f"{path}: expected a tensor, got {type(ours).__name__}"
        assert _dtype_name(ours) == _dtype_name(theirs), (
            f"{path}: dtype {ours.dtype} != {theirs.dtype}"
        )
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
        assert isinstance(ours, (tuple, list)), (
            f"{path}: expected a sequence, got {type(ours).__name__}"
        )
        assert len(ours) == len(theirs), f"{path}: {len(ours)} items != {len(theirs)}"
        for i, (o, t) in enumerate(zip(ours, theirs, strict=True)):
            compare(o, t, rtol=rtol, atol=atol, path=f"{path}[{i}]")
        return
    if isinstance(theirs, torch.dtype):
        assert str(ours).split(".")[-1] == str(theirs).split(".")[-1], path
        return
    if isinstance(theirs, float):
        assert isinstance(ours, float) and math.isclose(ours, theirs, rel_tol=rtol, abs_tol=atol), (
            f"{path}: {ours!r} != {theirs!r}"
        )
        return
    assert type(ours) is type(theirs) and ours == theirs, f"{path}: {ours!r} != {theirs!r}"


def run_case(name, fn, specs, **tol):
    rng = _rng(name)
    arrays = [make(rng, s) for s in specs]
    expected = fn(torch, *[_to(torch, a) for a in arrays])
    actual = fn(ts, *[_to(ts, a) for a in arrays])
    compare(actual, expected, **tol)


F32, F64, I64, I32, B, U8 = "float32", "float64", "int64", "int32", "bool", "uint8"


def c(name, fn, *specs, **tol):
    return pytest.param(name, fn, specs, tol, id=name)


# ---------------------------------------------------------------------------
# Shape operators

SHAPE_CASES = [
    c("view", lambda t, x: x.view(3, 4), ((2, 6), F32)),
    c("view_infer", lambda t, x: x.view(-1, 2), ((2, 3, 2), F64)),
    c("view_of_transpose_ok", lambda t, x: x.t().view(3, 2, 1), ((2, 3), F32)),
    c("reshape_copy", lambda t, x: x.t().reshape(6), ((2, 3), F32)),
    c("reshape_int", lambda t, x: t.reshape(x, (3, -1)), ((6,), I64)),
    c("t", lambda t, x: x.t(), ((2, 3), F32)),
    c("t_1d", lambda t, x: x.t(), ((4,), F32)),
    c("transpose", lambda t, x: x.transpose(0, 2), ((2, 3, 4), F32)),
    c("permute", lambda t, x: x.permute(2, 0, 1), ((2, 3, 4), I32)),
    c("select", lambda t, x: x.select(1, -1), ((2, 3, 4), F32)),
    c("narrow", lambda t, x: x.narrow(1, 1, 2), ((3, 4), F32)),
    c("expand", lambda t, x: x.expand(2, 3, 4), ((3, 1), F32)),
    c("expand_keep", lambda t, x: x.expand(-1, 5), ((3, 1), B)),
    c("expand_as", lambda t, x, y: x.expand_as(y), ((1, 4), F32), ((3, 4), F32)),
    c("squeeze", lambda t, x: x.squeeze(), ((1, 3, 1, 2), F32)),
    c("squeeze_dim", lambda t, x: x.squeeze(2), ((1, 3, 1), F32)),
    c("squeeze_dims", lambda t, x: x.squeeze((0, 1)), ((1, 3, 1), F32)),
    c("unsqueeze", lambda t, x: (x.unsqueeze(0), x.unsqueeze(-1), x.unsqueeze(1)), ((2, 3), F32)),
    c("flatten", lambda t, x: (x.flatten(), x.flatten(1), x.flatten(0, 1)), ((2, 3, 4), F32)),
    c("unflatten", lambda t, x: x.unflatten(1, (2, -1)), ((3, 6), F32)),
    c("contiguous", lambda t, x: x.t().contiguous(), ((3, 4), F32)),
    c("clone", lambda t, x: x.clone(), ((3, 4), I64)),
    c("cat", lambda t, x, y: t.cat([x, y], 1), ((2, 3), F32), ((2, 2), F32)),
    c("cat_promote", lambda t, x, y: t.cat([x, y]), ((2, 3), I64), ((1, 3), F32)),
    c("cat_empty_1d", lambda t, x, y: t.cat([x, y]), (np.zeros(0, np.float32)), ((2, 3), F32)),
    c("stack", lambda t, x, y: t.stack([x, y], -1), ((2, 3), F32), ((2, 3), F32)),
    c("hstack", lambda t, x, y: t.hstack([x, y]), ((2, 3), F32), ((2, 1), F32)),
    c("vstack", lambda t, x, y: t.vstack([x, y]), ((3,), F32), ((3,), F32)),
    c("chunk", lambda t, x: x.chunk(3, 1), ((2, 7), F32)),
    c("chunk_uneven", lambda t, x: t.chunk(x, 4), ((6, 2), F32)),
    c("split_int", lambda t, x: x.split(2), ((5, 3), F32)),
    c("split_sizes", lambda t, x: x.split([1, 3, 1], 0), ((5, 3), F32)),
    c("unbind", lambda t, x: x.unbind(1), ((2, 3), F32)),
    c("repeat", lambda t, x: x.repeat(2, 1, 3), ((2, 3), F32)),
    c("flip", lambda t, x: x.flip(0, 2), ((2, 3, 4), F32)),
    c("roll", lambda t, x: (x.roll(1, 0), x.roll((2, -1), (1, 0)), x.roll(3)), ((3, 4), F32)),
    c("tril_triu", lambda t, x: (x.tril(), x.triu(1), x.tril(-1)), ((3, 4), F32)),
    c(
        "diagonal",
        lambda t, x: (x.diagonal(), x.diagonal(1), x.diagonal(-1, 1, 2)),
        ((3, 4, 5), F32),
    ),
    c("movedim", lambda t, x: (x.movedim(0, 2), x.movedim((0, 1), (2, 0))), ((2, 3, 4), F32)),
    c("as_strided", lambda t, x: x.as_strided((2, 2), (1, 3), 1), ((3, 4), F32)),
    c(
        "view_as_reshape_as",
        lambda t, x, y: (x.view_as(y), x.reshape_as(y)),
        ((6,), F32),
        ((2, 3), F32),
    ),
    c("to_dtype", lambda t, x: (x.to(t.int32), x.to(t.float64), x.to(t.bool)), ((3, 2), F32)),
    c("to_other", lambda t, x, y: x.to(y), ((3,), F32), ((1,), I64)),
    c("type_as", lambda t, x, y: x.type_as(y), ((3,), I64), ((1,), F64)),
    c(
        "float_double_long",
        lambda t, x: (x.float(), x.double(), x.long(), x.int(), x.bool()),
        ((4,), F32),
    ),
    c(
        "size_dim_numel",
        lambda t, x: (list(x.size()), x.size(1), x.dim(), x.numel(), len(x)),
        ((2, 3), F32),
    ),
    c(
        "is_floating_point",
        lambda t, x: (x.is_floating_point(), x.long().is_floating_point()),
        ((2,), F32),
    ),
]

# ---------------------------------------------------------------------------
# Indexing

IDX = np.array([2, 0, 1, 2], dtype=np.int64)

INDEXING_CASES = [
    c("getitem_int", lambda t, x: (x[0], x[-1], x[1, 2]), ((3, 4), F32)),
    c("getitem_slices", lambda t, x: (x[1:3], x[:, ::2], x[:: -1 + 2, 1:], x[-2:]), ((4, 5), F32)),
    c(
        "getitem_none_ellipsis",
        lambda t, x: (x[None], x[..., 0], x[:, None, 1], x[..., None]),
        ((2, 3, 4), F32),
    ),
    c("getitem_long_tensor", lambda t, x, i: (x[i], x[:, i[:3]], x[i, i]), ((3, 4), F32), IDX),
    c("getitem_bool_mask", lambda t, x: (x[x > 0], x[(x > 0)[:, 0]]), ((3, 4), F32)),
    c("getitem_list", lambda t, x: (x[[0, 2]], x[[True, False, True]]), ((3, 2), F32)),
    c("getitem_mixed", lambda t, x, i: x[1:, i[:2], None], ((3, 4, 5), F32), np.array([3, 1])),
    c(
        "index_tensor",
        lambda t, x, i: t.ops.aten.index(x, [None, i]) if t is torch else t.index(x, [None, i]),
        ((3, 4), F32),
        IDX,
    ),
    c(
        "index_select",
        lambda t, x, i: (x.index_select(1, i), x.index_select(0, i[:2])),
        ((3, 4), F32),
        IDX,
    ),
    c("gather", lambda t, x, i: x.gather(1, i), ((3, 4), F32), np.array([[0, 3], [1, 1], [2, 0]])),
    c(
        "scatter",
        lambda t, x, i, s: (x.scatter(1, i, s), x.scatter(1, i, 2.5)),
        ((3, 4), F32),
        np.array([[0, 3], [1, 2], [2, 0]]),
        ((3, 2), F32),
    ),
    c(
        "scatter_add",
        lambda t, x, i, s: x.scatter_add(0, i, s),
        ((3, 4), F32),
        np.array([[0, 1, 2, 0], [0, 0, 0, 0]]),
        ((2, 4), F32),
    ),
    c("masked_select", lambda t, x, m: x.masked_select(m), ((3, 4), F32), ((4,), B)),
    c(
        "masked_scatter",
        lambda t, x, m, s: x.masked_scatter(m, s),
        ((3, 4), F32),
        ((3, 4), B),
        ((12,), F32),
    ),
    c("nonzero", lambda t, x: (x.nonzero(), t.argwhere(x)), ((3, 4), I64)),
    c(
        "index_put",
        lambda t, x, i, v: x.index_put((i,), v),
        ((5, 2), F32),
        np.array([0, 3]),
        ((2, 2), F32),
    ),
    c(
        "index_put_accumulate",
        lambda t, x, i, v: x.index_put((i,), v, accumulate=True),
        ((5, 2), F32),
        np.array([0, 3, 0]),
        ((3, 2), F32),
    ),
    c(
        "index_add",
        lambda t, x, i, v: x.index_add(0, i, v),
        ((4, 3), F32),
        np.array([0, 2, 0]),
        ((3, 3), F32),
    ),
    c("index_fill", lambda t, x, i: x.index_fill(1, i, -1.0), ((3, 4), F32), np.array([0, 2])),
    c("take", lambda t, x, i: x.take(i), ((3, 4), F32), np.array([[0, 11], [-1, 5]])),
    c(
        "take_along_dim",
        lambda t, x, i: t.take_along_dim(x, i, 1),
        ((3, 4), F32),
        np.array([[0], [3], [1]]),
    ),
    c(
        "slice_scatter",
        lambda t, x, s: t.slice_scatter(x, s, 1, 0, 4, 2),
        ((3, 4), F32),
        ((3, 2), F32),
    ),
    c("select_scatter", lambda t, x, s: t.select_scatter(x, s, 0, 1), ((3, 4), F32), ((4,), F32)),
    c("diagonal_scatter", lambda t, x, s: t.diagonal_scatter(x, s, 1), ((3, 4), F32), ((3,), F32)),
]


def _setitem(lib, x, index, value):
    y = x.clone()
    y[index] = value
    return y


SETITEM_CASES = [
    c("setitem_int", lambda t, x: _setitem(t, x, 1, 5.0), ((3, 4), F32)),
    c(
        "setitem_slice_tensor",
        lambda t, x, v: _setitem(t, x, (slice(None), slice(1, 3)), v),
        ((3, 4), F32),
        ((3, 2), F32),
    ),
    c(
        "setitem_broadcast",
        lambda t, x, v: _setitem(t, x, (slice(0, 2),), v),
        ((3, 4), F32),
        ((4,), F32),
    ),
    c("setitem_mask", lambda t, x: _setitem(t, x, x > 0, 0.0), ((3, 4), F32)),
    c(
        "setitem_long_index",
        lambda t, x, v: (
            _setitem(t, x, (np.array([0, 2]),), v) if False else _setitem(t, x, t.tensor([0, 2]), v)
        ),
        ((3, 4), F32),
        ((2, 4), F32),
    ),
    c("setitem_int_dtype_cast", lambda t, x: _setitem(t, x, 0, 2.7), ((3,), I64)),
    c("setitem_ellipsis_none", lambda t, x: _setitem(t, x, (Ellipsis, 1), -1.0), ((2, 3, 4), F32)),
]

# ---------------------------------------------------------------------------
# Reductions

REDUCTION_CASES = [
    c(
        "sum",
        lambda t, x: (x.sum(), x.sum(1), x.sum((0, 2), keepdim=True), x.sum(dtype=t.float64)),
        ((2, 3, 4), F32),
    ),
    c(
        "sum_int_bool",
        lambda t, x, b: (x.sum(), x.sum(0), b.sum(), b.sum(1)),
        ((3, 4), I32),
        ((3, 4), B),
    ),
    c(
        "mean",
        lambda t, x: (x.mean(), x.mean(0), x.mean((0, 1), True), x.mean(-1)),
        ((2, 3, 4), F32),
    ),
    c("mean_dtype", lambda t, x: x.mean(dtype=t.float64), ((3,), I64)),
    c(
        "prod",
        lambda t, x, i: (x.prod(), x.prod(1), i.prod(), i.prod(0, keepdim=True)),
        ((2, 3), F64),
        ((2, 3), I32),
    ),
    c("max_min_full", lambda t, x: (x.max(), x.min(), t.max(x), t.min(x)), ((3, 4), F32)),
    c(
        "max_min_dim",
        lambda t, x: (tuple(x.max(1)), tuple(x.min(0, keepdim=True)), tuple(t.max(x, -1))),
        ((3, 4), F32),
    ),
    c("max_other", lambda t, x, y: (t.max(x, y), t.min(x, y)), ((3, 4), F32), ((4,), F32)),
    c(
        "argmax_argmin",
        lambda t, x: (
            x.argmax(),
            x.argmin(1),
            x.argmax(0, keepdim=True),
            t.argmax(x, dim=None, keepdim=True),
        ),
        ((3, 4), F32),
    ),
    c(
        "amax_amin",
        lambda t, x: (x.amax(), x.amax((0, 2)), x.amin(1, keepdim=True)),
        ((2, 3, 4), F32),
    ),
    c(
        "var_std",
        lambda t, x: (
            x.var(),
            x.std(),
            x.var(1),
            x.std(0, unbiased=False),
            x.var(1, keepdim=True, correction=0),
            x.std((0, 1), correction=2),
        ),
        ((3, 4), F64),
    ),
    c("var_mean", lambda t, x: (t.var_mean(x, 1), t.std_mean(x)), ((3, 4), F32)),
    c(
        "norm",
        lambda t, x: (
            x.norm(),
            x.norm(1),
            x.norm(3, 1),
            x.norm(float("inf")),
            x.norm(0),
            t.linalg.vector_norm(x, 2, (0,), True)
            if t is torch
            else t.linalg_vector_norm(x, 2, (0,), True),
        ),
        ((3, 4), F32),
    ),
    c(
        "logsumexp",
        lambda t, x: (t.logsumexp(x, 1), x.logsumexp((0, 1), keepdim=True)),
        ((3, 4), F32),
    ),
    c(
        "softmax",
        lambda t, x: (
            x.softmax(1),
            t.softmax(x, 0),
            t.log_softmax(x, -1),
            x.softmax(1, dtype=t.float64),
        ),
        ((3, 4), F32),
    ),
    c("softmax_int_dtype", lambda t, x: t.softmax(x, 0, dtype=t.float32), ((4,), I64)),
    c(
        "cumsum_cumprod",
        lambda t, x, i: (
            x.cumsum(1),
            x.cumprod(0),
            i.cumsum(0),
            i.cumprod(1),
            x.cumsum(0, dtype=t.float64),
        ),
        ((3, 4), F32),
        ((2, 3), I32),
    ),
    c(
        "all_any",
        lambda t, b, u: (b.all(), b.any(), b.all(1), b.any(0, keepdim=True), u.all(), u.any(1)),
        ((3, 4), B),
        ((3, 4), U8),
    ),
    c("all_any_float", lambda t, x: (x.all(), x.any(), (x > 0).all(1)), ((3, 4), F32)),
    c(
        "count_nonzero",
        lambda t, x: (x.count_nonzero(), x.count_nonzero(1), t.count_nonzero(x, (0, 1))),
        ((3, 4), I64),
    ),
    c(
        "sort",
        lambda t, x: (
            tuple(x.sort()),
            tuple(x.sort(0, descending=True)),
            tuple(t.sort(x, stable=True, dim=1)),
        ),
        ((3, 5), F32),
    ),
    c(
        "sort_ties_stable",
        lambda t, x: (tuple(x.sort(stable=True)), tuple(x.sort(descending=True, stable=True))),
        np.array([3, 1, 2, 1, 3, 1], dtype=np.int64),
    ),
    c("argsort", lambda t, x: (x.argsort(), x.argsort(0, descending=True)), ((4, 3), F32)),
    c("topk", lambda t, x: (tuple(x.topk(2)), tuple(x.topk(3, 0, largest=False))), ((4, 5), F32)),
    c(
        "median",
        lambda t, x, y: (
            x.median(),
            y.median(),
            tuple(x.median(1)),
            tuple(y.median(0, keepdim=True)),
        ),
        ((3, 5), F32),
        ((4, 3), F32),
    ),
    c(
        "equal_allclose_isclose",
        lambda t, x, y: (
            t.equal(x, x),
            t.equal(x, y),
            t.allclose(x, x + 1e-9),
            t.allclose(x, y),
            t.isclose(x, y, atol=0.5),
        ),
        ((3, 4), F32),
        ((3, 4), F32),
    ),
    c(
        "nansum_nanmean",
        lambda t, x: (x.nansum(), x.nanmean(1)),
        np.array([[1.0, np.nan, 2.0], [np.nan, np.nan, 4.0]]),
    ),
]

# ---------------------------------------------------------------------------
# Creation

CREATION_CASES = [
    c(
        "zeros_ones_full",
        lambda t: (
            t.zeros(2, 3),
            t.ones([2], dtype=t.int32),
            t.full((2, 2), 3),
            t.full([2], 2.5),
            t.full([1], True),
            t.full([2], 7, dtype=t.float64),
        ),
    ),
    c("empty_shape", lambda t: (t.empty(2, 3).shape, t.empty(0).dtype)),
    c(
        "like",
        lambda t, x: (
            t.zeros_like(x),
            t.ones_like(x, dtype=t.int64),
            t.full_like(x, 4),
            t.empty_like(x).shape,
        ),
        ((2, 3), F32),
    ),
    c(
        "new_factories",
        lambda t, x: (
            x.new_zeros(2),
            x.new_ones((1, 2)),
            x.new_full((2,), 5),
            x.new_tensor([1, 2]),
        ),
        ((2, 3), F64),
    ),
    c(
        "arange",
        lambda t: (
            t.arange(5),
            t.arange(1, 4),
            t.arange(0, 1, 0.25),
            t.arange(10, 0, -3),
            t.arange(5.0),
            t.arange(0, 5, dtype=t.float64),
            t.arange(1, 2.5, 0.5),
        ),
    ),
    c("arange_float_steps", lambda t: (t.arange(0.0, 1.0, 0.1), t.arange(-1, 1, 0.3))),
    c(
        "linspace",
        lambda t: (
            t.linspace(0, 1, 5),
            t.linspace(-2, 3, 7),
            t.linspace(0, 10, 5, dtype=t.int64),
            t.linspace(1, 1, 1),
            t.linspace(0, 1, 0),
        ),
    ),
    c("eye", lambda t: (t.eye(3), t.eye(2, 4), t.eye(2, dtype=t.int64))),
    c(
        "tensor_infer",
        lambda t: (
            t.tensor(3),
            t.tensor(2.5),
            t.tensor(True),
            t.tensor([1, 2]),
            t.tensor([1, 2.0]),
            t.tensor([[True, False]]),
            t.tensor([], dtype=t.float64),
        ),
    ),
    c("scalar_tensor", lambda t: (t.scalar_tensor(3), t.scalar_tensor(2.5, dtype=t.float64))),
    c(
        "as_tensor",
        lambda t, x: (t.as_tensor(x) is x, t.as_tensor([1, 2]), t.as_tensor(x, dtype=t.int64)),
        ((3,), F32),
    ),
    c(
        "randint_dtype",
        lambda t: (
            t.randint(5, (3,)).dtype,
            t.randint(1, 5, (2, 2)).shape,
            t.rand(2, 3).dtype,
            t.randn(4, dtype=t.float64).dtype,
            t.randperm(5).dtype,
        ),
    ),
]

# ---------------------------------------------------------------------------
# Linear algebra

LINALG_CASES = [
    c("mm", lambda t, a, b: t.mm(a, b), ((3, 4), F32), ((4, 2), F32)),
    c("mm_int", lambda t, a, b: a.mm(b), ((3, 4), I64), ((4, 2), I64)),
    c("bmm", lambda t, a, b: a.bmm(b), ((2, 3, 4), F32), ((2, 4, 5), F32)),
    c("matmul_1_1", lambda t, a, b: a @ b, ((4,), F32), ((4,), F32)),
    c("matmul_2_1", lambda t, a, b: a @ b, ((3, 4), F32), ((4,), F32)),
    c("matmul_1_2", lambda t, a, b: a @ b, ((4,), F32), ((4, 3), F32)),
    c("matmul_3_2", lambda t, a, b: t.matmul(a, b), ((2, 3, 4), F32), ((4, 5), F32)),
    c("matmul_1_3", lambda t, a, b: t.matmul(a, b), ((4,), F64), ((2, 4, 5), F64)),
    c("matmul_3_1", lambda t, a, b: t.matmul(a, b), ((2, 3, 4), F64), ((4,), F64)),
    c("matmul_broadcast", lambda t, a, b: t.matmul(a, b), ((2, 1, 3, 4), F32), ((5, 4, 2), F32)),
    c(
        "addmm",
        lambda t, c_, a, b: (t.addmm(c_, a, b), t.addmm(c_, a, b, beta=0.5, alpha=2.0)),
        ((2,), F32),
        ((2, 3), F32),
        ((3, 2), F32),
    ),
    c(
        "addmv_mv",
        lambda t, c_, a, v: (t.addmv(c_, a, v), t.mv(a, v)),
        ((2,), F32),
        ((2, 3), F32),
        ((3,), F32),
    ),
    c(
        "dot_outer",
        lambda t, a, b: (t.dot(a, b), t.outer(a, b), t.outer(a, b.double())),
        ((3,), F32),
        ((3,), F32),
    ),
    c(
        "linear",
        lambda t, x, w, b: (t.nn.functional.linear(x, w, b), t.nn.functional.linear(x, w)),
        ((2, 5, 3), F32),
        ((4, 3), F32),
        ((4,), F32),
    ),
    c(
        "baddbmm",
        lambda t, c_, a, b: t.baddbmm(c_, a, b, beta=2.0),
        ((1, 3, 2), F32),
        ((2, 3, 4), F32),
        ((2, 4, 2), F32),
    ),
    c(
        "einsum",
        lambda t, a, b: (
            t.einsum("ij,jk->ik", a, b),
            t.einsum("ij->j", a),
            t.einsum("ij,jk", a, b),
            t.einsum("i j , j k -> k i", a, b),
        ),
        ((2, 3), F32),
        ((3, 4), F32),
    ),
    c(
        "einsum_ellipsis",
        lambda t, a, b: t.einsum("...ij,...jk->...ik", a, b),
        ((2, 3, 4), F64),
        ((2, 4, 5), F64),
    ),
    c(
        "trace_diag",
        lambda t, a, v: (t.trace(a), t.diag(v), t.diag(a, 1)),
        ((3, 4), F32),
        ((3,), F32),
    ),
]

# ---------------------------------------------------------------------------
# Neural-network functions


def _F(t):
    return t.nn.functional


NN_CASES = [
    c(
        "layer_norm",
        lambda t, x, w, b: (
            _F(t).layer_norm(x, (4,)),
            _F(t).layer_norm(x, (3, 4), None, None, 1e-3),
            _F(t).layer_norm(x, [4], w, b),
        ),
        ((2, 3, 4), F32),
        ((4,), F32),
        ((4,), F32),
    ),
    c(
        "batch_norm_eval",
        lambda t, x, m, v, w, b: _F(t).batch_norm(x, m, v.abs(), w, b, False),
        ((4, 3), F32),
        ((3,), F32),
        ((3,), F32),
        ((3,), F32),
        ((3,), F32),
    ),
    c(
        "batch_norm_train",
        lambda t, x, m, v: (_F(t).batch_norm(x, m, v, training=True, momentum=0.2), m, v),
        ((4, 3, 5), F32),
        ((3,), F32),
        np.ones(3, np.float32),
    ),
    c("group_norm", lambda t, x: _F(t).group_norm(x, 2), ((2, 4, 3), F32)),
    c(
        "dropout_eval",
        lambda t, x: (
            _F(t).dropout(x, 0.5, training=False),
            t.dropout(x, 0.3, False),
            _F(t).dropout(x, 0.0),
        ),
        ((3, 4), F32),
    ),
    c(
        "embedding",
        lambda t, i, w: (_F(t).embedding(i, w), _F(t).embedding(i, w, padding_idx=0)),
        np.array([[0, 2], [3, 1]]),
        ((4, 3), F32),
    ),
    c(
        "activations",
        lambda t, x: (
            _F(t).relu6(x * 4),
            _F(t).hardswish(x * 3),
            _F(t).hardsigmoid(x * 3),
            _F(t).mish(x),
            _F(t).logsigmoid(x),
            _F(t).selu(x),
            _F(t).celu(x, 0.5),
            _F(t).glu(x, 1),
            _F(t).softplus(x, 2.0),
            _F(t).threshold(x, 0.1, 20.0),
        ),
        ((3, 4), F32),
    ),
    c("one_hot", lambda t, i: (_F(t).one_hot(i), _F(t).one_hot(i, 6)), np.array([0, 3, 1])),
    c(
        "mse_l1_smooth_huber",
        lambda t, x, y: (
            _F(t).mse_loss(x, y),
            _F(t).l1_loss(x, y, reduction="sum"),
            _F(t).smooth_l1_loss(x, y, reduction="none", beta=0.5),
            _F(t).huber_loss(x, y, delta=0.7),
        ),
        ((3, 4), F32),
        ((3, 4), F32),
    ),
    c(
        "nll_loss",
        lambda t, x, y, w: (
            _F(t).nll_loss(x, y),
            _F(t).nll_loss(x, y, w, reduction="sum"),
            _F(t).nll_loss(x, y, ignore_index=1, reduction="none"),
        ),
        ((4, 3), F32),
        np.array([0, 2, 1, 1]),
        ((3,), F32),
    ),
    c(
        "nll_loss_nd",
        lambda t, x, y: _F(t).nll_loss(x, y),
        ((2, 3, 4), F32),
        np.array([[0, 1, 2, 1], [2, 2, 0, 1]]),
    ),
    c(
        "cross_entropy",
        lambda t, x, y, w: (
            _F(t).cross_entropy(x, y),
            _F(t).cross_entropy(x, y, w),
            _F(t).cross_entropy(x, y, reduction="none", label_smoothing=0.1),
            _F(t).cross_entropy(x, y, w, label_smoothing=0.2, ignore_index=2),
        ),
        ((4, 3), F32),
        np.array([0, 2, 1, 1]),
        ((3,), F32),
    ),
    c(
        "cross_entropy_probs",
        lambda t, x, p: (
            _F(t).cross_entropy(x, p.softmax(1)),
            _F(t).cross_entropy(x, p.softmax(1), label_smoothing=0.3, reduction="sum"),
        ),
        ((4, 3), F32),
        ((4, 3), F32),
    ),
    c(
        "bce",
        lambda t, x, y, w: (
            _F(t).binary_cross_entropy(x.sigmoid(), y.sigmoid()),
            _F(t).binary_cross_entropy(x.sigmoid(), (y > 0).float(), w, reduction="none"),
        ),
        ((3, 4), F32),
        ((3, 4), F32),
        ((3, 4), F32),
    ),
    c(
        "bce_with_logits",
        lambda t, x, y, pw: (
            _F(t).binary_cross_entropy_with_logits(x, y.sigmoid()),
            _F(t).binary_cross_entropy_with_logits(
                x, y.sigmoid(), pos_weight=pw.abs(), reduction="sum"
            ),
        ),
        ((3, 4), F32),
        ((3, 4), F32),
        ((4,), F32),
    ),
    c(
        "kl_div",
        lambda t, x, y: (
            _F(t).kl_div(x.log_softmax(1), y.softmax(1), reduction="batchmean"),
            _F(t).kl_div(x, y, reduction="sum", log_target=True),
        ),
        ((3, 4), F32),
        ((3, 4), F32),
    ),
    c(
        "pad",
        lambda t, x: (
            _F(t).pad(x, (1, 2)),
            _F(t).pad(x, (1, 1, 0, 2), value=3.0),
            _F(t).pad(x, (-1, 1)),
            _F(t).pad(x[None], (2, 1), mode="reflect"),
            _F(t).pad(x[None], (2, 3), mode="replicate"),
            _F(t).pad(x[None], (1, 2), mode="circular"),
        ),
        ((2, 4), F32),
    ),
]

CONV_CASES = [
    c(
        "conv1d",
        lambda t, x, w, b: (
            _F(t).conv1d(x, w, b),
            _F(t).conv1d(x, w, None, 2, 1, 2),
            _F(t).conv1d(x[0], w),
        ),
        ((2, 4, 11), F32),
        ((6, 4, 3), F32),
        ((6,), F32),
        rtol=1e-4,
        atol=1e-5,
    ),
    c(
        "conv2d",
        lambda t, x, w: (
            _F(t).conv2d(x, w),
            _F(t).conv2d(x, w, stride=(2, 1), padding=1),
            _F(t).conv2d(x, w, padding="same", dilation=2),
        ),
        ((2, 3, 8, 7), F32),
        ((5, 3, 3, 2), F32),
        rtol=1e-4,
        atol=1e-5,
    ),
    c(
        "conv2d_groups",
        lambda t, x, w: _F(t).conv2d(x, w, groups=2, padding=(0, 2)),
        ((1, 4, 6, 6), F64),
        ((6, 2, 3, 3), F64),
    ),
    c(
        "conv_transpose",
        lambda t, x, w, v: (
            _F(t).conv_transpose2d(x, w, stride=2, padding=1, output_padding=1),
            _F(t).conv_transpose1d(v, w[:, :, 0], groups=1, dilation=2),
        ),
        ((2, 4, 5, 5), F64),
        ((4, 3, 3, 3), F64),
        ((2, 4, 7), F64),
    ),
    c(
        "max_pool",
        lambda t, x: (
            _F(t).max_pool2d(x, 2),
            _F(t).max_pool2d(x, 3, 2, 1, ceil_mode=True),
            _F(t).max_pool1d(x[0], 3, 1, 1, 2),
        ),
        ((2, 3, 9, 8), F32),
    ),
    c(
        "avg_pool",
        lambda t, x: (
            _F(t).avg_pool2d(x, 2),
            _F(t).avg_pool2d(x, 3, 2, 1, count_include_pad=False),
            _F(t).avg_pool2d(x, (2, 3), ceil_mode=True),
            _F(t).avg_pool1d(x[0], 4, 3),
        ),
        ((2, 3, 9, 8), F32),
    ),
    c(
        "adaptive_avg_pool",
        lambda t, x: (
            _F(t).adaptive_avg_pool2d(x, (3, 5)),
            _F(t).adaptive_avg_pool2d(x, 1),
            _F(t).adaptive_avg_pool1d(x[0], 4),
        ),
        ((2, 3, 9, 8), F32),
    ),
]


def _inplace(fn):
    def run(t, x, *rest):
        y = x.clone()
        out = fn(t, y, *rest)
        return y, out is y

    return run


MORE_CASES = [
    c(
        "broadcast",
        lambda t, a, b: (t.broadcast_to(a, (2, 3, 4)), tuple(t.broadcast_tensors(a, b))),
        ((3, 1), F32),
        ((2, 1, 4), F32),
    ),
    c(
        "tensor_split_atleast",
        lambda t, a: (tuple(t.tensor_split(a, 3, 1)), t.atleast_1d(a[0, 0]), t.atleast_2d(a[0])),
        ((2, 7), F32),
    ),
    c(
        "dstack_column_stack",
        lambda t, a, b: (t.dstack([a, b]), t.column_stack([a[0], b[0]])),
        ((2, 3), F32),
        ((2, 3), F32),
    ),
    c(
        "meshgrid",
        lambda t, a, b: (
            tuple(t.meshgrid(a, b, indexing="ij")),
            tuple(t.meshgrid(a, b, indexing="xy")),
        ),
        ((3,), F32),
        ((4,), F32),
    ),
    c("tile_ravel", lambda t, a: (a.tile((2,)), a.tile((2, 1, 2)), a.t().ravel()), ((2, 3), F32)),
    c(
        "swap_mT_adjoint",
        lambda t, a: (a.swapaxes(0, 2), a.swapdims(1, 2), a.adjoint(), a.transpose(-2, -1)),
        ((2, 3, 4), F32),
    ),
    c("view_dtype", lambda t, a: (a.view(t.int32), a.view(t.float32).view(t.int32)), ((2, 3), F32)),
    c(
        "inplace_views_and_scans",
        _inplace(lambda t, y: y.tril_(-1).triu_(-1).cumsum_(0)),
        ((4, 4), F32),
    ),
    c(
        "inplace_index_ops",
        _inplace(
            lambda t, y, i, s: (
                y.index_fill_(1, i, 2.0)
                .scatter_(0, t.tensor([[1, 0, 2]]), s)
                .scatter_add_(1, t.tensor([[0], [0], [0]]), s.t())
            )
        ),
        ((3, 3), F32),
        np.array([2]),
        ((1, 3), F32),
    ),
    c(
        "scatter_reduce",
        lambda t, a, s: (
            a.scatter(1, t.tensor([[0, 0], [1, 1]]), s, reduce="add"),
            a.scatter(1, t.tensor([[0, 0], [1, 1]]), s, reduce="multiply"),
        ),
        ((2, 3), F64),
        ((2, 2), F64),
    ),
    c(
        "masked_scatter_inplace",
        _inplace(lambda t, y, m, s: y.masked_scatter_(m, s)),
        ((3, 4), F32),
        ((4,), B),
        ((12,), F32),
    ),
    c(
        "aminmax",
        lambda t, a: (tuple(t.aminmax(a)), tuple(t.aminmax(a, dim=1, keepdim=True))),
        ((3, 4), F32),
    ),
    c(
        "std_mean_prod_dtype",
        lambda t, a: (
            tuple(t.std_mean(a, 1)),
            tuple(t.var_mean(a, (0, 1), correction=0)),
            a.prod(1, dtype=t.float64),
        ),
        ((3, 4), F32),
    ),
    c(
        "norm_dtypes",
        lambda t, a: (t.norm(a, 2, (1,), False, dtype=t.float64), a.norm(p=1.5)),
        ((3, 4), F32),
    ),
    c(
        "argsort_stable",
        lambda t, a: (a.argsort(stable=True), a.argsort(dim=0, descending=True, stable=True)),
        np.array([[2, 1, 2], [1, 2, 1]], dtype=np.int64),
    ),
    c(
        "shrink_prelu",
        lambda t, a, w: (
            _F(t).hardshrink(a, 0.3),
            _F(t).softshrink(a),
            _F(t).prelu(a, w),
            _F(t).alpha_dropout(a, 0.2, False),
        ),
        ((3, 4), F32),
        ((4,), F32),
    ),
    c(
        "feature_dropout_eval",
        lambda t, a: (t.feature_dropout(a, 0.5, False), t.alpha_dropout(a, 0.5, False)),
        ((2, 3, 4), F32),
    ),
    c(
        "alias_and_T",
        lambda t, a: (t.alias(a) if t is ts else a.view_as(a), a.T, a.numel()),
        ((2, 3), F32),
    ),
]

ALL_CASES = (
    SHAPE_CASES
    + INDEXING_CASES
    + SETITEM_CASES
    + REDUCTION_CASES
    + CREATION_CASES
    + LINALG_CASES
    + NN_CASES
    + CONV_CASES
    + MORE_CASES
)


@pytest.mark.parametrize(("name", "fn", "specs", "tol"), ALL_CASES)
def test_op_matches_torch(name, fn, specs, tol):
    run_case(name, fn, specs, **tol)


# ---------------------------------------------------------------------------
# Views: memory sharing, strides, storage offsets, version counters

VIEW_OPS = [
    ("view", lambda x: x.view(4, 6)),
    ("t", lambda x: x.t()),
    ("transpose", lambda x: x.transpose(0, 1)),
    ("permute", lambda x: x.permute(1, 0)),
    ("select", lambda x: x.select(0, 1)),
    ("select_last", lambda x: x.select(1, 3)),
    ("slice", lambda x: x[1:3]),
    ("slice_step", lambda x: x[:, 1::2]),
    ("narrow", lambda x: x.narrow(1, 2, 3)),
    ("expand", lambda x: x[:1].expand(3, 6)),
    ("expand_new_dims", lambda x: x[0].expand(2, 3, 6)),
    ("unsqueeze_front", lambda x: x.unsqueeze(0)),
    ("unsqueeze_mid", lambda x: x.unsqueeze(1)),
    ("unsqueeze_end", lambda x: x.unsqueeze(2)),
    ("unsqueeze_of_transpose", lambda x: x.t().unsqueeze(2)),
    ("squeeze", lambda x: x[:1].squeeze(0)),
    ("diagonal", lambda x: x.diagonal(1)),
    ("diagonal_neg", lambda x: x.diagonal(-2)),
    ("as_strided", lambda x: x.as_strided((2, 3), (2, 5), 3)),
    ("unbind", lambda x: x.unbind(1)[2]),
    ("chunk", lambda x: x.chunk(2, 1)[1]),
    ("split", lambda x: x.split([2, 4], 1)[1]),
    ("getitem_basic", lambda x: x[1, 2:]),
    ("getitem_none", lambda x: x[None, :, None, 1]),
    ("view_of_slice", lambda x: x[:, :4].reshape(2, 2, 4)),
    ("view_of_transpose", lambda x: x.t()[1:].view(5, 2, 2)),
    ("flatten_of_slice_rows", lambda x: x[1:3].flatten()),
    ("movedim", lambda x: x.view(2, 2, 6).movedim(0, 2)),
    ("detach", lambda x: x.detach()),
]


@pytest.mark.parametrize(("name", "op"), VIEW_OPS, ids=[n for n, _ in VIEW_OPS])
def test_view_shares_memory_and_reports_torch_strides(name, op):
    base = np.arange(24, dtype=np.float32).reshape(4, 6)
    tx, ox = torch.from_numpy(base.copy()), ts.from_numpy(base.copy())
    tv, ov = op(tx), op(ox)
    assert tuple(ov.shape) == tuple(tv.shape)
    assert ov.stride() == tv.stride(), f"strides {ov.stride()} != {tv.stride()}"
    assert ov.storage_offset() == tv.storage_offset()
    assert ov.is_contiguous() == tv.is_contiguous()
    np.testing.assert_array_equal(ov.numpy(), tv.numpy())
    # a write through the view reaches the base, and the version counter is shared
    before = ox._version_number
    if tv.numel():
        tv.view(-1)[0:1].fill_(-7.0) if tv.is_contiguous() else tv.fill_(-7.0)
        ov.view(-1)[0:1].fill_(-7.0) if ov.is_contiguous() else ov.fill_(-7.0)
        np.testing.assert_array_equal(ox.numpy(), tx.numpy())
        assert ox._version_number > before


def test_view_refuses_like_torch():
    x = ts.arange(6.0).view(2, 3).t()
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        x.view(6)
    with pytest.raises(RuntimeError):
        torch.arange(6.0).view(2, 3).t().view(6)
    assert x.reshape(6).tolist() == torch.arange(6.0).view(2, 3).t().reshape(6).tolist()


def test_clone_and_contiguous_strides_follow_torch():
    base = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    for fn in (
        lambda x: x.permute(2, 0, 1).clone(),
        lambda x: x.permute(2, 0, 1).contiguous(),
        lambda x: x[:, ::2].clone(),
        lambda x: (
            x.transpose(0, 1).clone(memory_format=torch.contiguous_format)
            if isinstance(x, torch.Tensor)
            else x.transpose(0, 1).clone(memory_format=0)
        ),
        lambda x: x.exp(),
        lambda x: x.t() + 1 if x.dim() == 2 else x.permute(2, 1, 0) * 2,
    ):
        assert fn(ts.from_numpy(base.copy())).stride() == fn(torch.from_numpy(base.copy())).stride()


def test_contiguous_of_contiguous_is_self_and_to_same_dtype_is_self():
    for lib in (torch, ts):
        x = lib.ones(2, 3)
        assert x.contiguous() is x
        assert x.to(lib.float32) is x
        assert x.to(lib.float32, copy=True) is not x


# ---------------------------------------------------------------------------
# Errors: both raise, as the same Python class

ERROR_CASES = [
    ("view_bad_size", lambda t, x: x.view(4, 2)),
    ("view_two_infer", lambda t, x: x.view(-1, -1)),
    ("expand_bad", lambda t, x: x.expand(3, 3)),
    ("select_range", lambda t, x: x.select(0, 5)),
    ("dim_range", lambda t, x: x.transpose(0, 3)),
    ("permute_len", lambda t, x: x.permute(0)),
    ("cat_sizes", lambda t, x: t.cat([x, x.t()])),
    ("stack_sizes", lambda t, x: t.stack([x, x.t()])),
    ("chunk_zero", lambda t, x: x.chunk(0)),
    ("split_sizes_sum", lambda t, x: x.split([1, 2])),
    ("repeat_short", lambda t, x: x.repeat(2)),
    ("getitem_range", lambda t, x: x[5]),
    ("getitem_too_many", lambda t, x: x[0, 1, 2]),
    ("getitem_float", lambda t, x: x[1.5]),
    ("getitem_bad_mask", lambda t, x: x[t.tensor([True, False, True])]),
    ("index_select_range", lambda t, x: x.index_select(0, t.tensor([3]))),
    ("gather_range", lambda t, x: x.gather(1, t.tensor([[3]]))),
    ("mean_int", lambda t, x: x.long().mean()),
    ("var_int", lambda t, x: x.long().var()),
    ("max_empty", lambda t, x: t.zeros(0).max()),
    ("mm_shapes", lambda t, x: x.mm(x)),
    ("mm_dtypes", lambda t, x: x.mm(x.t().double())),
    ("matmul_0d", lambda t, x: t.matmul(t.tensor(1.0), x)),
    ("dot_sizes", lambda t, x: t.dot(t.ones(2), t.ones(3))),
    ("arange_zero_step", lambda t, x: t.arange(0, 5, 0)),
    ("arange_sign", lambda t, x: t.arange(5, 0, 1)),
    ("zeros_negative", lambda t, x: t.zeros(-1)),
    ("requires_grad_int", lambda t, x: t.zeros(2, dtype=t.int64, requires_grad=True)),
    ("copy_broadcast", lambda t, x: x.clone().copy_(t.ones(4))),
    ("fill_nonscalar", lambda t, x: x.clone().fill_(t.ones(2))),
    ("nll_target_range", lambda t, x: t.nn.functional.nll_loss(x, t.tensor([0, 7]))),
    ("layer_norm_shape", lambda t, x: t.nn.functional.layer_norm(x, [2])),
    ("softmax_int", lambda t, x: t.softmax(t.tensor([1, 2]), 0)),
    ("t_3d", lambda t, x: t.ones(2, 2, 2).t()),
    (
        "index_put_dtype",
        lambda t, x: x.clone().index_put_((t.tensor([0]),), t.tensor(1.0, dtype=t.float64)),
    ),
]

_BASES = (RuntimeError, IndexError, TypeError, ValueError)


@pytest.mark.parametrize(("name", "fn"), ERROR_CASES, ids=[n for n, _ in ERROR_CASES])
def test_errors_match_torch(name, fn):
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    with pytest.raises(Exception) as theirs:
        fn(torch, torch.from_numpy(x.copy()))
    with pytest.raises(Exception) as ours:
        fn(ts, ts.from_numpy(x.copy()))
    expected = next((b for b in _BASES if isinstance(theirs.value, b)), None)
    assert expected is not None and isinstance(ours.value, expected), (
        f"torch raised {type(theirs.value).__name__}, tsjit {type(ours.value).__name__}: {ours.value}"
    )
    assert isinstance(
        ours.value, ts.TensorError | ts.DimensionError | ts.ArgumentError | ValueError
    ), f"untyped error {type(ours.value).__name__}: {ours.value}"


def test_cuda_is_a_typed_error():
    # a CPU build of torch raises its own "not compiled with CUDA" error; ours is a TensorError
    with pytest.raises(ts.TensorError, match="cuda"):
        ts.zeros(2, device="cuda")
    with pytest.raises(ts.TensorError, match="cuda"):
        ts.ones(2).to("cuda")


# ---------------------------------------------------------------------------
# Type promotion through the operators


PROMOTION_CASES = [
    c("cat_int_bool", lambda t, a, b: t.cat([a, b]), ((2,), I32), ((3,), B)),
    c("cat_f32_f64", lambda t, a, b: t.cat([a, b]), ((2,), F32), ((3,), F64)),
    c("stack_u8_i64", lambda t, a, b: t.stack([a, b]), ((2,), U8), ((2,), I64)),
    c("where_scalar_int", lambda t, m, a: t.where(m, a, 0), ((3,), B), ((3,), I32)),
    c("sum_u8", lambda t, a: (a.sum(), a.cumsum(0)), ((4,), U8)),
    c("outer_int_float", lambda t, a, b: t.outer(a, b), ((2,), I64), ((3,), F32)),
    c("mse_f32_f64", lambda t, a, b: t.nn.functional.mse_loss(a, b), ((3,), F32), ((3,), F64)),
    c("index_put_bool", lambda t, a: _setitem(t, a, 0, True), ((3,), B)),
    c("arange_mixed", lambda t: (t.arange(0, 3, 1.0), t.arange(True, 4))),
]


@pytest.mark.parametrize(("name", "fn", "specs", "tol"), PROMOTION_CASES)
def test_promotion_matches_torch(name, fn, specs, tol):
    run_case(name, fn, specs, **tol)
