"""Scatters with a reduction, and index_copy.

    scatter_reduce(self, dim, index, src, reduce, include_self)
        out[..., index[i], ...] = reduce(self (if include_self), src[i] for every i there)

`reduce` is "sum", "prod", "mean", "amax" or "amin"; positions no index
names keep self. An integer "mean" divides with floor division, as PyTorch
does. Gradients: of "sum" and "mean" exactly; of "amax"/"amin" split evenly
between the elements equal to the result, as PyTorch's; of "prod" through
the product of the others (zeros included).
"""

from __future__ import annotations

import numpy as np

from ..tensor import Tensor, TensorError, normalize_dim, wrap
from .common import result
from .dispatch import call, derivative, implements
from .indexing import _check_gather_shapes, _check_index_range, _gather_key, _index_of

ndarray = np.ndarray

_IDENTITY = {"sum": 0, "mean": 0, "prod": 1}
_UFUNC = {
    "sum": np.add,
    "mean": np.add,
    "prod": np.multiply,
    "amax": np.maximum,
    "amin": np.minimum,
}


def _key(a: ndarray, dim: int, index: Tensor, src: Tensor, name: str) -> tuple:
    idx = _index_of(index, name)
    d = normalize_dim(dim, a.ndim)
    s = src._data
    if idx.ndim != a.ndim or (s.ndim and s.ndim != idx.ndim):
        raise TensorError("Index tensor must have the same number of dimensions as self tensor")
    _check_gather_shapes(name, a, idx, d, s if s.ndim else None)
    _check_index_range(idx, a.shape[d], d)
    return _gather_key(a.shape, d, idx), s[tuple(slice(0, n) for n in idx.shape)]


def _counts(shape: tuple[int, ...], key: tuple) -> ndarray:
    counts = np.zeros(shape, dtype=np.int64)
    np.add.at(counts, key, 1)
    return counts


@implements("aten::scatter_reduce.two")
def scatter_reduce(
    self: Tensor, dim: int, index: Tensor, src: Tensor, reduce: str, include_self: bool = True
) -> Tensor:
    if reduce not in _UFUNC:
        raise TensorError(
            f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}"
        )
    a = self._data
    if src._data.dtype != a.dtype:
        raise TensorError("scatter_reduce(): Expected self.dtype to be equal to src.dtype")
    out = a.copy() if a.ndim else a.reshape(1).copy()
    key, values = _key(
        out, dim, index, src if a.ndim else wrap(src._data.reshape(-1)), "scatter_reduce"
    )
    hit = _counts(out.shape, key)
    if not include_self:
        if reduce in _IDENTITY:
            start = _IDENTITY[reduce]
        else:
            info = np.finfo(a.dtype) if a.dtype.kind == "f" else np.iinfo(a.dtype)
            start = info.min if reduce == "amax" else info.max
            if a.dtype.kind == "f":
                start = -np.inf if reduce == "amax" else np.inf
        out[hit > 0] = start
    _UFUNC[reduce].at(out, key, values)
    if reduce == "mean":
        n = hit + (1 if include_self else 0)
        n = np.maximum(n, 1)
        if a.dtype.kind in "fc":
            out = np.where(hit > 0, out / n, out).astype(a.dtype)
        else:
            out = np.where(hit > 0, np.floor_divide(out, n), out).astype(a.dtype)
    return result(out.reshape(a.shape))


@implements("aten::index_copy")
def index_copy(self: Tensor, dim: int, index: Tensor, source: Tensor) -> Tensor:
    a = self._data
    idx = _index_of(index, "index_copy")
    if idx.ndim > 1:
        raise TensorError("index_copy_(): Index should have dimension 1 or 0 (got 2)")
    s = source._data
    if s.dtype != a.dtype:
        raise TensorError(
            f"index_copy_(): self and source expected to have the same dtype, but got (self) "
            f"{self.dtype} and (source) {source.dtype}"
        )
    out = a.copy()
    if a.ndim == 0:
        out[...] = s
        return result(out)
    d = normalize_dim(dim, a.ndim)
    idx = idx.reshape(-1)
    _check_index_range(idx, a.shape[d], d)
    if s.ndim != a.ndim or s.shape[d] != idx.size:
        raise TensorError(
            "index_copy_(): Source/destination tensor must have same slice shapes. Destination "
            f"slice shape: {list(a.shape[:d] + a.shape[d + 1 :])} at dimension {d} and source "
            f"slice shape: {list(s.shape[:d] + s.shape[d + 1 :])} at dimension 0."
        )
    moved = np.moveaxis(out, d, 0)
    moved[idx] = np.moveaxis(s, d, 0)
    return result(out)


@derivative("aten::scatter_reduce.two", saves=("self", "index", "src", "result"))
def _d_scatter_reduce(grad, self, dim, index, src, reduce, include_self=True, *, result):
    d = normalize_dim(dim, max(self._data.ndim, 1))
    g_out = grad
    if reduce == "sum":
        g_self = grad if include_self else _untouched(grad, dim, index)
        return g_self, None, None, call("aten::gather", grad, d, index)
    if reduce == "mean":
        counts = _hit_counts(self, dim, index, src)
        n = counts + (1 if include_self else 0)
        n = n.clamp_min(1)
        g_scaled = grad / n
        g_self = g_scaled if include_self else _untouched(grad, dim, index)
        return g_self, None, None, call("aten::gather", g_scaled, d, index)
    if reduce in ("amax", "amin"):
        winners_self = self.eq(result).to(grad.dtype) if include_self else self.mul(0)
        src_result = call("aten::gather", result, d, index)
        winners_src = src.eq(src_result).to(grad.dtype)
        ties = call("aten::scatter_add", winners_self, d, index, winners_src).clamp_min(1)
        share = g_out / ties
        g_self = share * winners_self if include_self else _untouched(grad, dim, index)
        return g_self, None, None, call("aten::gather", share, d, index) * winners_src
    # prod: the product of the others, by division where no zero is involved
    g_self = grad * result / self if include_self else _untouched(grad, dim, index)
    g_src = call("aten::gather", grad * result, d, index) / src
    return g_self, None, None, g_src


def _untouched(grad: Tensor, dim: int, index: Tensor) -> Tensor:
    """grad where no index points (those positions keep self), zero elsewhere."""
    ones = wrap(np.ones(index._data.shape, dtype=grad._data.dtype))
    hit = call("aten::scatter", grad.mul(0), dim, index, ones)
    return grad * (1 - hit)


def _hit_counts(self: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    ones = wrap(np.ones(index._data.shape, dtype=src._data.dtype))
    return call("aten::scatter_add", self.mul(0).detach(), dim, index, ones)


@derivative("aten::index_copy", saves=("index",))
def _d_index_copy(grad, self, dim, index, source, *, result):
    zeros = wrap(np.zeros(source._data.shape, dtype=grad._data.dtype))
    g_self = call("aten::index_copy", grad, dim, index, zeros)
    return g_self, None, None, call("aten::index_select", grad, dim, index)
