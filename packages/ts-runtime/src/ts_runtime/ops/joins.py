"""Splitting and joining: chunk, split, unbind, cat, stack and its family, meshgrid.

The pieces of `chunk`/`split`/`unbind` are views of their input (`make_view`),
sharing memory and the version counter as PyTorch's do; `cat` and `stack`
promote their inputs' dtypes with PyTorch's rules; the `*stack` family and
`meshgrid` are composites of these.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..dtypes import dtype_of_numpy
from ..tensor import DimensionError, Tensor, TensorError, make_view, normalize_dim
from .common import promote, result
from .dispatch import call, derivative, implements
from .shape import _convert, _varargs, impl, shape_str

# ---------------------------------------------------------------------------
# Splitting


def _pieces(self: Tensor, d: int, sizes: Sequence[int]) -> list[Tensor]:
    a = self._data
    lead = (slice(None),) * d
    out = []
    start = 0
    for n in sizes:
        out.append(make_view(self, a[(*lead, slice(start, start + n))]))
        start += n
    return out


def _dim_of(self: Tensor, dim: int, name: str) -> int:
    a = self._data
    if a.ndim == 0:
        raise TensorError(f"{name} expects at least a 1-dimensional tensor")
    return normalize_dim(dim, a.ndim)


@implements("aten::chunk", "aten::unsafe_chunk")
def chunk(self: Tensor, chunks: int, dim: int = 0) -> list[Tensor]:
    if chunks <= 0:
        raise TensorError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    d = _dim_of(self, dim, "chunk")
    size = self._data.shape[d]
    split_size = (size + chunks - 1) // chunks
    if split_size == 0 and size == 0:
        return _pieces(self, d, [0] * chunks)
    return split(self, split_size, d)


@implements("aten::split.Tensor", "aten::unsafe_split.Tensor")
def split(self: Tensor, split_size: int, dim: int = 0) -> list[Tensor]:
    d = _dim_of(self, dim, "split")
    size = self._data.shape[d]
    if split_size < 0:
        raise TensorError(
            f"split expects split_size be non-negative, but got split_size={split_size}"
        )
    if split_size == 0:
        if size != 0:
            raise TensorError(
                f"split_size can only be 0 if dimension size is 0, but got dimension size of {size}"
            )
        return _pieces(self, d, [0])
    n = max((size + split_size - 1) // split_size, 1)
    sizes = [split_size] * n
    sizes[-1] = size - split_size * (n - 1)
    return _pieces(self, d, sizes)


@implements("aten::split.sizes", "aten::split", "aten::split_with_sizes")
def split_with_sizes(self: Tensor, split_sizes: list[int], dim: int = 0) -> list[Tensor]:
    d = _dim_of(self, dim, "split_with_sizes")
    size = self._data.shape[d]
    if sum(split_sizes) != size or any(s < 0 for s in split_sizes):
        raise TensorError(
            f"split_with_sizes expects split_sizes to sum exactly to {size} (input tensor's size at "
            f"dimension {dim}), but got split_sizes={list(split_sizes)}"
        )
    return _pieces(self, d, split_sizes)


@implements("aten::tensor_split.sections")
def tensor_split(self: Tensor, sections: int, dim: int = 0) -> list[Tensor]:
    if sections <= 0:
        raise TensorError(f"number of sections must be larger than 0, got {sections}")
    d = _dim_of(self, dim, "tensor_split")
    size = self._data.shape[d]
    base, extra = divmod(size, sections)
    return _pieces(self, d, [base + 1 if i < extra else base for i in range(sections)])


@implements("aten::unbind.int")
def unbind(self: Tensor, dim: int = 0) -> list[Tensor]:
    a = self._data
    if a.ndim == 0:
        raise DimensionError("Dimension specified as 0 but tensor has no dimensions")
    d = normalize_dim(dim, a.ndim)
    lead = (slice(None),) * d
    return [make_view(self, a[(*lead, i, Ellipsis)]) for i in range(a.shape[d])]


# ---------------------------------------------------------------------------
# Joining


def _join_dtype(tensors: Sequence[Tensor]) -> np.dtype:
    first = tensors[0]._data.dtype
    for t in tensors:
        if t._data.dtype is not first:
            return promote(*tensors)
    return first


@implements("aten::cat")
def cat(tensors: list[Tensor], dim: int = 0) -> Tensor:
    if not tensors:
        raise TensorError("torch.cat(): expected a non-empty list of Tensors")
    # PyTorch skips 1-D empty tensors, whatever the other shapes
    arrays = [t._data for t in tensors if t._data.shape != (0,)]
    if not arrays:
        return result(np.concatenate([t._data for t in tensors]).astype(_join_dtype(tensors)))
    ref = arrays[0]
    if ref.ndim == 0:
        raise TensorError("zero-dimensional tensor (at position 0) cannot be concatenated")
    d = normalize_dim(dim, ref.ndim)
    for i, t in enumerate(tensors):
        a = t._data
        if a.shape == (0,):
            continue
        if a.ndim != ref.ndim:
            raise TensorError(
                f"Tensors must have same number of dimensions: got {ref.ndim} and {a.ndim}"
            )
        for k in range(a.ndim):
            if k != d and a.shape[k] != ref.shape[k]:
                raise TensorError(
                    f"Sizes of tensors must match except in dimension {d}. Expected size "
                    f"{ref.shape[k]} but got size {a.shape[k]} for tensor number {i} in the list."
                )
    dt = _join_dtype(tensors)
    return result(np.concatenate(arrays, axis=d, dtype=dt))


@implements("aten::stack")
def stack(tensors: list[Tensor], dim: int = 0) -> Tensor:
    if not tensors:
        raise TensorError("stack expects a non-empty TensorList")
    ref = tensors[0]._data.shape
    for i, t in enumerate(tensors):
        if t._data.shape != ref:
            raise TensorError(
                f"stack expects each tensor to be equal size, but got {shape_str(ref)} at entry 0 "
                f"and {shape_str(t._data.shape)} at entry {i}"
            )
    d = normalize_dim(dim, len(ref) + 1)
    dt = _join_dtype(tensors)
    return result(np.stack([t._data for t in tensors], axis=d, dtype=dt))


@implements("aten::atleast_1d", autograd=False)
def atleast_1d(self: Tensor) -> Tensor:
    return _reshape(self, [1]) if self._data.ndim == 0 else self


@implements("aten::atleast_2d", autograd=False)
def atleast_2d(self: Tensor) -> Tensor:
    n = self._data.ndim
    if n >= 2:
        return self
    return _reshape(self, [1, 1]) if n == 0 else _unsqueeze(self, 0)


@implements("aten::atleast_1d.Sequence", autograd=False)
def atleast_1d_seq(tensors: list[Tensor]) -> list[Tensor]:
    return [atleast_1d(t) for t in tensors]


@implements("aten::atleast_2d.Sequence", autograd=False)
def atleast_2d_seq(tensors: list[Tensor]) -> list[Tensor]:
    return [atleast_2d(t) for t in tensors]


@implements("aten::hstack", autograd=False)
def hstack(tensors: list[Tensor]) -> Tensor:
    ts = [atleast_1d(t) for t in tensors]
    return _cat(ts, 0 if ts and ts[0]._data.ndim == 1 else 1)


@implements("aten::vstack", autograd=False)
def vstack(tensors: list[Tensor]) -> Tensor:
    return _cat([atleast_2d(t) for t in tensors], 0)


@implements("aten::dstack", autograd=False)
def dstack(tensors: list[Tensor]) -> Tensor:
    out = []
    for t in tensors:
        t2 = atleast_2d(t)
        out.append(_unsqueeze(t2, 2) if t2._data.ndim == 2 else t2)
    return _cat(out, 2)


@implements("aten::column_stack", autograd=False)
def column_stack(tensors: list[Tensor]) -> Tensor:
    cols = [_reshape(t, [-1, 1]) if t._data.ndim <= 1 else t for t in tensors]
    return _cat(cols, 1)


@implements("aten::meshgrid", autograd=False)
def meshgrid(tensors: list[Tensor]) -> list[Tensor]:
    return meshgrid_indexing(tensors, "ij")


@implements("aten::meshgrid.indexing", autograd=False)
def meshgrid_indexing(tensors: list[Tensor], indexing: str) -> list[Tensor]:
    if indexing not in ("ij", "xy"):
        raise TensorError(
            f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: {indexing}'
        )
    for t in tensors:
        if t._data.ndim > 1:
            raise TensorError("torch.meshgrid: Expected 0D or 1D tensor in the tensor list")
    ts = [_reshape(t, [-1]) for t in tensors]
    swap = indexing == "xy" and len(ts) >= 2
    if swap:
        ts[0], ts[1] = ts[1], ts[0]
    shape = [t._data.shape[0] for t in ts]
    n = len(ts)
    out = []
    for i, t in enumerate(ts):
        view_shape = [1] * n
        view_shape[i] = -1
        out.append(_expand(_reshape(t, view_shape), shape, False))
    if swap:
        out[0], out[1] = out[1], out[0]
    return out


# ---------------------------------------------------------------------------
# Derivatives


@derivative("aten::cat", saves=())
def _d_cat(grad, tensors, dim=0, *, result):
    kept = [t for t in tensors if t._data.shape != (0,)]
    d = normalize_dim(dim, kept[0]._data.ndim) if kept else 0
    out = []
    offset = 0
    for t in tensors:
        if t._data.shape == (0,):
            out.append(None)
            continue
        n = t._data.shape[d]
        g = grad.narrow(d, offset, n)
        offset += n
        out.append(_convert(g, dtype_of_numpy(t._data.dtype), False))
    return (out,)


@derivative("aten::stack", saves=())
def _d_stack(grad, tensors, dim=0, *, result):
    d = normalize_dim(dim, tensors[0]._data.ndim + 1)
    return ([grad.select(d, i) for i in range(len(tensors))],)


def _grads_list(grad: Any) -> list[Tensor]:
    return [grad] if isinstance(grad, Tensor) else list(grad)


@derivative(
    "aten::chunk",
    "aten::unsafe_chunk",
    "aten::split.Tensor",
    "aten::unsafe_split.Tensor",
    "aten::split.sizes",
    "aten::split",
    "aten::split_with_sizes",
    "aten::tensor_split.sections",
    saves=(),
)
def _d_split(grad, self, size, dim=0, *, result):
    grads = _grads_list(grad)
    if len(grads) == 1:
        return (grads[0],)
    return (_cat(grads, normalize_dim(dim, self._data.ndim)),)


@derivative("aten::unbind.int", saves=())
def _d_unbind(grad, self, dim=0, *, result):
    return (_stack(_grads_list(grad), normalize_dim(dim, self._data.ndim)),)


def meshgrid_eager(*tensors: Tensor, indexing: str | None = None) -> list[Tensor]:
    """`tsjit.meshgrid(a, b, indexing="xy")`: PyTorch's eager form."""
    return call(
        "aten::meshgrid", _varargs(tensors), indexing="ij" if indexing is None else indexing
    )


EAGER = {"meshgrid": meshgrid_eager}

_cat = impl("aten::cat")
_stack = impl("aten::stack")
_reshape = impl("aten::reshape")
_expand = impl("aten::expand")
_unsqueeze = impl("aten::unsqueeze")
