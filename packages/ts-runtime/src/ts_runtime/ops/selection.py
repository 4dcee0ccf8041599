"""Order statistics and running extremes: kthvalue, mode, nanmedian, cummax, cummin, and
logcumsumexp.

The (values, indices) reductions pick an element per slice, so their
gradient puts the values' gradient back at the indices, as max.dim's does;
cummax and cummin likewise per position. Ties pick as PyTorch's CPU kernels
do: kthvalue and nanmedian the stably sorted position, mode the smallest of
the most frequent values at its last occurrence, cummax and cummin the
latest position of the running extreme.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..tensor import Tensor, TensorError, normalize_dim, wrap
from .common import result
from .dispatch import derivative, implements
from .reduction import ValuesIndices, _reduced_dim, _selected

ndarray = np.ndarray


def _zero_dim(self: Tensor) -> ValuesIndices:
    return ValuesIndices(wrap(self._data.copy()), wrap(np.zeros((), np.int64)))


def _pick(a: ndarray, idx: ndarray, d: int, keepdim: bool) -> ValuesIndices:
    values = np.take_along_axis(a, idx, axis=d)
    if not keepdim:
        values, idx = values.squeeze(d), idx.squeeze(d)
    return ValuesIndices(result(values), result(idx.astype(np.int64, copy=False)))


@implements("aten::kthvalue")
def kthvalue(self: Tensor, k: int, dim: int = -1, keepdim: bool = False) -> ValuesIndices:
    a = self._data
    d = _reduced_dim(a, dim, "kthvalue")
    n = a.shape[d] if a.ndim else 1
    if not 1 <= k <= n:
        raise TensorError(f"kthvalue(): selected number k out of range for dimension {d}")
    if a.ndim == 0:
        return _zero_dim(self)
    order = np.argsort(a, axis=d, kind="stable")
    return _pick(a, order.take([k - 1], axis=d), d, keepdim)


@implements("aten::nanmedian")
def nanmedian(self: Tensor) -> Tensor:
    a = self._data.reshape(-1)
    if a.dtype.kind in "fc":
        a = a[~np.isnan(a)]
    if a.size == 0:
        return result(np.full((), np.nan, dtype=self._data.dtype))
    return result(np.asarray(np.sort(a, kind="stable")[(a.size - 1) // 2]))


@implements("aten::nanmedian.dim")
def nanmedian_dim(self: Tensor, dim: int, keepdim: bool = False) -> ValuesIndices:
    a = self._data
    d = _reduced_dim(a, dim, "nanmedian")
    if a.ndim == 0:
        return _zero_dim(self)
    order = np.argsort(a, axis=d, kind="stable")  # NaNs sort last
    if a.dtype.kind in "fc":
        valid = a.shape[d] - np.add.reduce(np.isnan(a), axis=d, keepdims=True)
    else:
        valid = np.full((*a.shape[:d], 1, *a.shape[d + 1 :]), a.shape[d])
    pos = np.maximum(valid - 1, 0) // 2
    return _pick(a, np.take_along_axis(order, pos.astype(np.int64), axis=d), d, keepdim)


@implements("aten::mode")
def mode(self: Tensor, dim: int = -1, keepdim: bool = False) -> ValuesIndices:
    a = self._data
    d = _reduced_dim(a, dim, "mode")
    if a.ndim == 0:
        return _zero_dim(self)
    moved = np.moveaxis(a, d, -1)
    flat = moved.reshape(-1, moved.shape[-1])
    values = np.empty(flat.shape[0], dtype=a.dtype)
    indices = np.empty(flat.shape[0], dtype=np.int64)
    for row, x in enumerate(flat):
        uniq, counts = np.unique(x, return_counts=True)
        best = uniq[np.argmax(counts)]  # the smallest of the most frequent
        values[row] = best
        indices[row] = np.flatnonzero(x == best)[-1]
    shape = moved.shape[:-1]
    v, i = values.reshape(shape), indices.reshape(shape)
    if keepdim:
        v, i = np.expand_dims(v, d), np.expand_dims(i, d)
    return ValuesIndices(result(v), result(i))


def _running(extreme: Any, name: str) -> Any:
    """cummax/cummin: the running extreme along `dim`, and where it was last reached."""

    def kernel(self: Tensor, dim: int) -> ValuesIndices:
        a = self._data
        if a.ndim == 0:
            return _zero_dim(self)
        d = normalize_dim(dim, a.ndim)
        moved = np.moveaxis(a, d, -1)
        values = np.empty_like(moved)
        indices = np.zeros(moved.shape, dtype=np.int64)
        best = moved[..., 0].copy()
        where = np.zeros(moved.shape[:-1], dtype=np.int64)
        for j in range(moved.shape[-1]):
            x = moved[..., j]
            take = extreme(x, best) | (x == best)
            if a.dtype.kind in "fc":
                take |= np.isnan(x) | (np.isnan(best) & np.isnan(x))
                take &= ~(np.isnan(best) & ~np.isnan(x))
            best = np.where(take, x, best)
            where = np.where(take, j, where)
            values[..., j] = best
            indices[..., j] = where
        return ValuesIndices(
            result(np.moveaxis(values, -1, d)), result(np.moveaxis(indices, -1, d))
        )

    kernel.__name__ = name
    return kernel


cummax = implements("aten::cummax")(_running(np.greater, "cummax"))
cummin = implements("aten::cummin")(_running(np.less, "cummin"))


@implements("aten::logcumsumexp")
def logcumsumexp(self: Tensor, dim: int) -> Tensor:
    a = self._data
    if a.dtype.kind not in "fc":
        raise TensorError(f"\"logcumsumexp_out_cpu\" not implemented for '{self.dtype}'")
    if a.ndim == 0:
        return result(a.copy())
    d = normalize_dim(dim, a.ndim)
    with np.errstate(all="ignore"):
        return result(np.logaddexp.accumulate(a, axis=d).astype(a.dtype, copy=False))


@derivative("aten::kthvalue", saves=("result",))
def _d_kthvalue(grad, self, k, dim=-1, keepdim=False, *, result):
    return (_selected(grad, self, result[1], dim, keepdim),)


@derivative("aten::mode", "aten::nanmedian.dim", saves=("result",))
def _d_mode(grad, self, dim=-1, keepdim=False, *, result):
    return (_selected(grad, self, result[1], dim, keepdim),)


@derivative("aten::nanmedian", saves=("self", "result"))
def _d_nanmedian(grad, self, *, result):
    # the gradient goes to the first element equal to the median
    a = self._data.reshape(-1)
    m = result._data
    hits = np.flatnonzero(np.isnan(a) if np.isnan(m) else a == m)
    mask = np.zeros(a.shape, dtype=grad._data.dtype)
    if hits.size:
        mask[hits[0]] = 1
    return (grad * wrap(mask.reshape(self._data.shape)),)


@derivative("aten::cummax", "aten::cummin", saves=("result",))
def _d_running(grad, self, dim, *, result):
    if self._data.ndim == 0:
        return (grad[0] if isinstance(grad, tuple) else grad,)
    g = grad[0] if isinstance(grad, tuple) else grad
    d = normalize_dim(dim, self._data.ndim)
    zeros = wrap(np.zeros(self._data.shape, dtype=g._data.dtype))
    return (zeros.scatter_add(d, result[1], g),)


@derivative("aten::logcumsumexp", saves=("self", "result"))
def _d_logcumsumexp(grad, self, dim, *, result):
    if self._data.ndim == 0:
        return (grad,)
    d = normalize_dim(dim, self._data.ndim)
    # d out_j / d x_i = exp(x_i - out_j) for j >= i: a reversed cumulative sum
    w = grad * (-result).exp()
    return ((w.flip([d]).cumsum(d).flip([d])) * self.exp(),)
