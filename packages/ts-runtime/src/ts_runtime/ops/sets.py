"""Sets and bins: unique (sorted, along a dim, consecutive), bucketize, searchsorted, histc.

None is differentiable. As PyTorch's `_unique2`, the inverse indices and
counts are empty tensors unless asked for; the CPU kernels sort even when
`sorted` is False, and so does this.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..tensor import Tensor, TensorError, normalize_dim
from .common import result
from .dispatch import implements

ndarray = np.ndarray
_EMPTY = np.zeros(0, dtype=np.int64)


def _results(values: ndarray, inverse: ndarray | None, counts: ndarray | None) -> tuple:
    return (
        result(values),
        result(_EMPTY.copy() if inverse is None else inverse.astype(np.int64, copy=False)),
        result(_EMPTY.copy() if counts is None else counts.astype(np.int64, copy=False)),
    )


@implements("aten::_unique2")
def unique(
    self: Tensor, sorted: bool = True, return_inverse: bool = False, return_counts: bool = False
) -> tuple[Tensor, Tensor, Tensor]:
    a = self._data
    values, inverse, counts = np.unique(a.reshape(-1), return_inverse=True, return_counts=True)
    return _results(
        values,
        inverse.reshape(a.shape) if return_inverse else None,
        counts if return_counts else None,
    )


@implements("aten::unique_dim")
def unique_dim(
    self: Tensor,
    dim: int,
    sorted: bool = True,
    return_inverse: bool = False,
    return_counts: bool = False,
) -> tuple[Tensor, Tensor, Tensor]:
    a = self._data
    d = normalize_dim(dim, a.ndim)
    values, inverse, counts = np.unique(a, axis=d, return_inverse=True, return_counts=True)
    return _results(
        values,
        inverse.reshape(-1) if return_inverse else None,
        counts if return_counts else None,
    )


def _consecutive(
    a: ndarray, d: int | None, return_inverse: bool, return_counts: bool
) -> tuple[Tensor, Tensor, Tensor]:
    """Runs of equal elements (of equal slices along `d`; of the flattened tensor without)."""
    original = a.shape
    flatten = d is None
    if flatten:
        a, d = a.reshape(-1), 0
    moved = np.moveaxis(a, d, 0)  # type: ignore[arg-type]
    n = moved.shape[0]
    changed = np.ones(n, dtype=bool)
    if n:
        flat = moved.reshape(n, -1)
        changed[1:] = np.any(flat[1:] != flat[:-1], axis=1)
    starts = np.flatnonzero(changed)
    values = np.moveaxis(moved[starts], 0, d)  # type: ignore[arg-type]
    inverse = np.cumsum(changed) - 1
    counts = np.diff(np.append(starts, n))
    return _results(
        values,
        (inverse.reshape(original) if flatten else inverse) if return_inverse else None,
        counts if return_counts else None,
    )


@implements("aten::unique_consecutive")
def unique_consecutive(
    self: Tensor, return_inverse: bool = False, return_counts: bool = False, dim: int | None = None
) -> tuple[Tensor, Tensor, Tensor]:
    a = self._data
    d = None if dim is None else normalize_dim(dim, a.ndim)
    return _consecutive(a, d, return_inverse, return_counts)


@implements("aten::unique_dim_consecutive")
def unique_dim_consecutive(
    self: Tensor, dim: int, return_inverse: bool = False, return_counts: bool = False
) -> tuple[Tensor, Tensor, Tensor]:
    a = self._data
    return _consecutive(a, normalize_dim(dim, a.ndim), return_inverse, return_counts)


def _side(right: bool, side: str | None) -> str:
    if side is not None:
        if side not in ("left", "right"):
            raise TensorError(
                f"torch.searchsorted(): side can only be 'left' or 'right' but got {side}"
            )
        if right and side == "left":
            raise TensorError(
                "torch.searchsorted(): side and right can't be set to opposites, got side of "
                "left while right was True"
            )
        return side
    return "right" if right else "left"


def _search(sorted_sequence: ndarray, values: ndarray, side: str) -> ndarray:
    if sorted_sequence.ndim <= 1:
        return np.searchsorted(sorted_sequence, values, side=side)  # type: ignore[call-overload]
    rows = sorted_sequence.reshape(-1, sorted_sequence.shape[-1])
    vals = values.reshape(rows.shape[0], -1)
    out = np.stack([np.searchsorted(r, v, side=side) for r, v in zip(rows, vals, strict=True)])  # type: ignore[call-overload]
    return out.reshape(values.shape)


@implements("aten::searchsorted.Tensor", "aten::searchsorted.Scalar")
def searchsorted(
    sorted_sequence: Tensor,
    self: Any,
    out_int32: bool = False,
    right: bool = False,
    side: str | None = None,
    sorter: Tensor | None = None,
) -> Tensor:
    seq = sorted_sequence._data
    if sorter is not None:
        seq = np.take_along_axis(seq, sorter._data, axis=-1)
    values = self._data if isinstance(self, Tensor) else np.asarray(self)
    if seq.ndim > 1 and seq.shape[:-1] != values.shape[:-1]:
        raise TensorError(
            "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 "
            "dimensions of boundaries tensor and input value tensor must match"
        )
    out = _search(seq, values, _side(right, side))
    return result(np.asarray(out).astype(np.int32 if out_int32 else np.int64))


@implements("aten::bucketize.Tensor", "aten::bucketize.Scalar")
def bucketize(
    self: Any, boundaries: Tensor, out_int32: bool = False, right: bool = False
) -> Tensor:
    b = boundaries._data
    if b.ndim != 1:
        raise TensorError(f"boundaries tensor must be 1 dimension, but got dim({b.ndim})")
    values = self._data if isinstance(self, Tensor) else np.asarray(self)
    out = np.searchsorted(b, values, side="right" if right else "left")
    return result(np.asarray(out).astype(np.int32 if out_int32 else np.int64))


@implements("aten::histc")
def histc(self: Tensor, bins: int = 100, min: Any = 0, max: Any = 0) -> Tensor:
    a = self._data
    if a.dtype.kind not in "fc":
        raise TensorError(f"\"histogram_cpu\" not implemented for '{self.dtype}'")
    if bins <= 0:
        raise TensorError("bins must be > 0")
    lo, hi = float(min), float(max)
    if lo == hi and a.size:
        lo, hi = float(a.min()), float(a.max())
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    if lo > hi:
        raise TensorError("max must be larger than min")
    flat = a.reshape(-1).astype(np.float64)
    inside = flat[(flat >= lo) & (flat <= hi)]
    index = np.minimum(((inside - lo) * bins / (hi - lo)).astype(np.int64), bins - 1)
    return result(np.bincount(index, minlength=bins).astype(a.dtype))


def unique_eager(
    input: Tensor,
    sorted: bool = True,
    return_inverse: bool = False,
    return_counts: bool = False,
    dim: int | None = None,
) -> Any:
    """`tsjit.unique`: PyTorch's eager form, the values alone unless more is asked for."""
    if dim is None:
        out = unique(input, sorted, return_inverse, return_counts)
    else:
        out = unique_dim(input, dim, sorted, return_inverse, return_counts)
    return _pick(out, return_inverse, return_counts)


def unique_consecutive_eager(
    input: Tensor, return_inverse: bool = False, return_counts: bool = False, dim: int | None = None
) -> Any:
    """`tsjit.unique_consecutive`: PyTorch's eager form."""
    return _pick(
        unique_consecutive(input, return_inverse, return_counts, dim), return_inverse, return_counts
    )


def _pick(out: tuple, inverse: bool, counts: bool) -> Any:
    values, inv, cnt = out
    if not inverse and not counts:
        return values
    return (values, *((inv,) if inverse else ()), *((cnt,) if counts else ()))


unique_eager.__name__ = "unique"
unique_consecutive_eager.__name__ = "unique_consecutive"
EAGER = {"unique": unique_eager, "unique_consecutive": unique_consecutive_eager}
