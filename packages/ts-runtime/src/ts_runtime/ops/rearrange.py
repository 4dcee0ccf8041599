"""Rearranging elements: `unfold` (sliding windows, a view), `repeat_interleave`, and
`fill_diagonal_`.

    x.unfold(dim, size, step)   dim becomes (n - size) // step + 1 windows, and a new last
                                dim of `size` holds each window: a strided view of x
    repeat_interleave(x, r, d)  each element (or slice along d) repeated r times
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..tensor import Tensor, TensorError, bump_version, make_view, normalize_dim, wrap
from .common import result
from .dispatch import call, derivative, implements
from .shape import element_strides, strided

ndarray = np.ndarray


@implements("aten::unfold")
def unfold(self: Tensor, dimension: int, size: int, step: int) -> Tensor:
    a = self._data
    n = a.ndim
    d = normalize_dim(dimension, n)
    length = a.shape[d] if n else 1
    if size > length:
        raise TensorError(
            f"maximum size for tensor at dimension {d} is {length} but size is {size}"
        )
    if step <= 0:
        raise TensorError(f"step is {step} but must be > 0")
    if size < 0:
        raise TensorError(f"size is {size} but must be >= 0")
    if n == 0:
        return make_view(self, a.reshape(1))
    s = element_strides(a)
    count = (length - size) // step + 1
    shape = [*a.shape[:d], count, *a.shape[d + 1 :], size]
    strides = [*s[:d], s[d] * step, *s[d + 1 :], s[d]]
    return make_view(self, strided(a, shape, strides))


@derivative("aten::unfold", saves=())
def _d_unfold(grad, self, dimension, size, step, *, result):
    # every window's gradient added back where the window came from
    shape = self._data.shape
    if not shape:
        return (grad.reshape([]),)
    d = normalize_dim(dimension, len(shape))
    count = (shape[d] - size) // step + 1
    starts = np.arange(count) * step
    positions = (starts[:, None] + np.arange(size)[None, :]).reshape(-1)  # (count*size,)
    g = call("aten::movedim", grad, [d, grad.dim() - 1], [0, 1])  # (count, size, ...)
    g = call("aten::reshape", g, [count * size, *g.shape[2:]])
    zeros = wrap(np.zeros((shape[d], *g.shape[1:]), dtype=grad._data.dtype))
    summed = call("aten::index_add", zeros, 0, wrap(positions), g)
    return (call("aten::movedim", summed, 0, d),)


def _repeats_of(repeats: Any) -> ndarray:
    r = repeats._data if isinstance(repeats, Tensor) else np.asarray(repeats)
    if r.ndim > 1:
        raise TensorError("repeats must be 0-dim or 1-dim tensor")
    if r.dtype.kind not in "iu" and not isinstance(repeats, int):
        raise TensorError("repeats has to be Long or Int tensor")
    if (r < 0).any():
        raise TensorError("repeats can not be negative")
    return r.astype(np.int64)


def _interleave(self: Tensor, repeats: Any, dim: int | None, output_size: int | None) -> Tensor:
    x = self if dim is not None else call("aten::reshape", self, [-1])
    d = 0 if dim is None else normalize_dim(dim, max(self._data.ndim, 1))
    if x._data.ndim == 0:
        x = call("aten::reshape", x, [1])
    r = _repeats_of(repeats)
    n = x.shape[d]
    if r.ndim == 0 or r.size == 1:
        r = np.full(n, int(r.reshape(-1)[0]) if r.size else 0, dtype=np.int64)
    elif r.size != n:
        raise TensorError("repeats must have the same size as input along dim")
    index = np.repeat(np.arange(n), r)
    if output_size is not None and output_size != index.size:
        raise TensorError("allocated size does not match required size")
    return call("aten::index_select", x, d, wrap(index))


@implements("aten::repeat_interleave.self_int", autograd=False)
def repeat_interleave_int(
    self: Tensor, repeats: int, dim: int | None = None, output_size: int | None = None
) -> Tensor:
    return _interleave(self, repeats, dim, output_size)


@implements("aten::repeat_interleave.self_Tensor", autograd=False)
def repeat_interleave_tensor(
    self: Tensor, repeats: Tensor, dim: int | None = None, output_size: int | None = None
) -> Tensor:
    return _interleave(self, repeats, dim, output_size)


@implements("aten::repeat_interleave.Tensor")
def repeat_interleave_counts(repeats: Tensor, output_size: int | None = None) -> Tensor:
    """repeat_interleave(repeats): each index i repeated repeats[i] times."""
    r = _repeats_of(repeats)
    if r.ndim != 1:
        raise TensorError("repeat_interleave only accept 1D vector as repeat")
    out = np.repeat(np.arange(r.size, dtype=np.int64), r)
    if output_size is not None and output_size != out.size:
        raise TensorError("allocated size does not match required size")
    return result(out)


@implements("aten::fill_diagonal_")
def fill_diagonal_(self: Tensor, fill_value: Any, wrap_: bool = False) -> Tensor:
    a = self._data
    if a.ndim < 2:
        raise TensorError("dimensions must larger than 1")
    if a.ndim > 2 and len(set(a.shape)) != 1:
        raise TensorError("all dimensions of input must be of equal length")
    if a.ndim == 2:
        rows, cols = a.shape
        limit = min(rows, cols)
        if wrap_ and rows > cols + 1:
            # tall matrices continue the diagonal every cols + 1 rows
            idx = np.arange(0, rows * cols, cols + 1)
            a.reshape(-1)[idx] = fill_value
        else:
            a[np.arange(limit), np.arange(limit)] = fill_value
    else:
        i = np.arange(a.shape[0])
        a[(i,) * a.ndim] = fill_value
    bump_version(self)
    return self


@implements("aten::diff", autograd=False)
def diff(
    self: Tensor,
    n: int = 1,
    dim: int = -1,
    prepend: Tensor | None = None,
    append: Tensor | None = None,
) -> Tensor:
    """n-th forward differences along dim (after prepend and append), by narrow and sub."""
    if self.dim() == 0:
        raise TensorError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise TensorError(f"order must be non-negative but got {n}")
    d = normalize_dim(dim, self.dim())
    parts = [t for t in (prepend, self, append) if t is not None]
    x = call("aten::cat", parts, d) if len(parts) > 1 else self
    for _ in range(n):
        length = x.shape[d]
        if length == 0:
            break
        later = call("aten::narrow", x, d, 1, length - 1)
        earlier = call("aten::narrow", x, d, 0, length - 1)
        x = call("aten::logical_xor", later, earlier) if x.dtype == ts_bool() else later - earlier
    return x


def ts_bool() -> Any:
    from ..dtypes import bool_

    return bool_
