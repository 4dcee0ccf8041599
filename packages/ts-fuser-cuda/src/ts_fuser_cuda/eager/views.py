"""Views of CUDA tensors: new shapes, strides and offsets over the same device memory.

Each function here computes the geometry PyTorch gives the view (with
ts-runtime's helpers for what they share with the CPU: `infer_size`,
`view_strides`, `expand_geometry`, `normalize_dim`) and returns a
`CudaArray` over the same allocation; no kernel runs, except in `reshape`
of a layout no view can express, which copies (as PyTorch's does).
"""

from __future__ import annotations

from collections.abc import Sequence

from ts_runtime.ops.shape import expand_geometry, infer_size, view_strides
from ts_runtime.tensor import DimensionError, TensorError, normalize_dim

from ..storage import CudaArray

Shape = tuple[int, ...]


def _elements(a: CudaArray) -> list[int]:
    return [s // a.itemsize for s in a.strides]


def restride(
    a: CudaArray, shape: Sequence[int], strides: Sequence[int], offset: int = 0
) -> CudaArray:
    """A view with `shape` and `strides` (in elements) starting `offset` elements further."""
    item = a.itemsize
    return a.view(tuple(shape), tuple(s * item for s in strides), a.offset + offset * item)


def view(a: CudaArray, size: Sequence[int]) -> CudaArray:
    shape = infer_size(size, a.size)
    strides = view_strides(a.shape, _elements(a), shape)
    if strides is None:
        raise TensorError(
            "view size is not compatible with input tensor's size and stride (at least one "
            "dimension spans across two contiguous subspaces). Use .reshape(...) instead."
        )
    return restride(a, shape, strides)


def reshape(a: CudaArray, size: Sequence[int]) -> CudaArray:
    """A view where one exists, else a contiguous copy in the new shape."""
    shape = infer_size(size, a.size)
    strides = view_strides(a.shape, _elements(a), shape)
    if strides is not None:
        return restride(a, shape, strides)
    from .copies import contiguous

    return view(contiguous(a, force=True), shape)


def flatten(a: CudaArray, start_dim: int = 0, end_dim: int = -1) -> CudaArray:
    if a.ndim == 0:
        return reshape(a, [1])
    start, end = normalize_dim(start_dim, a.ndim), normalize_dim(end_dim, a.ndim)
    if start > end:
        raise TensorError("flatten() has invalid args: start_dim cannot come after end_dim")
    if start == end:
        return a.view(a.shape, a.strides)
    merged = 1
    for s in a.shape[start : end + 1]:
        merged *= s
    return reshape(a, [*a.shape[:start], merged, *a.shape[end + 1 :]])


def permute(a: CudaArray, dims: Sequence[int]) -> CudaArray:
    n = a.ndim
    if len(dims) != n:
        raise TensorError(
            "permute(): number of dimensions in the tensor input does not match the length of "
            f"the desired ordering of dimensions i.e. input.dim() = {n} is not equal to "
            f"len(dims) = {len(dims)}"
        )
    perm = [normalize_dim(d, n) for d in dims]
    if len(set(perm)) != n:
        raise TensorError("permute(): duplicate dims are not allowed.")
    return a.view(tuple(a.shape[d] for d in perm), tuple(a.strides[d] for d in perm))


def transpose(a: CudaArray, dim0: int, dim1: int) -> CudaArray:
    n = a.ndim
    if n == 0:
        normalize_dim(dim0, 0)
        normalize_dim(dim1, 0)
        return a.view(a.shape, a.strides)
    perm = list(range(n))
    d0, d1 = normalize_dim(dim0, n), normalize_dim(dim1, n)
    perm[d0], perm[d1] = perm[d1], perm[d0]
    return permute(a, perm)


def t(a: CudaArray) -> CudaArray:
    if a.ndim > 2:
        raise TensorError(f"t() expects a tensor with <= 2 dimensions, but self is {a.ndim}D")
    return transpose(a, 0, 1) if a.ndim == 2 else a.view(a.shape, a.strides)


def expand(a: CudaArray, size: Sequence[int]) -> CudaArray:
    sizes, strides = expand_geometry(a.shape, tuple(_elements(a)), size)
    return restride(a, sizes, strides)


def unsqueeze(a: CudaArray, dim: int) -> CudaArray:
    d = normalize_dim(dim, a.ndim + 1)
    shape = list(a.shape)
    strides = _elements(a)
    inner = shape[d] * strides[d] if d < a.ndim else 1
    shape.insert(d, 1)
    strides.insert(d, inner)
    return restride(a, shape, strides)


def squeeze(a: CudaArray, dims: Sequence[int] | None = None) -> CudaArray:
    """Size-1 dimensions dropped: all of them, or those among `dims`."""
    if dims is None:
        chosen = set(range(a.ndim))
    elif a.ndim == 0:
        for d in dims:
            normalize_dim(d, 0)
        chosen = set()
    else:
        chosen = {normalize_dim(d, a.ndim) for d in dims}
    keep = [d for d in range(a.ndim) if not (d in chosen and a.shape[d] == 1)]
    return a.view(tuple(a.shape[d] for d in keep), tuple(a.strides[d] for d in keep))


def select(a: CudaArray, dim: int, index: int) -> CudaArray:
    if a.ndim == 0:
        raise DimensionError("select() cannot be applied to a 0-dim tensor.")
    d = normalize_dim(dim, a.ndim)
    size = a.shape[d]
    if not -size <= index < size:
        raise DimensionError(
            f"select(): index {index} out of range for tensor of size {list(a.shape)} at "
            f"dimension {dim}"
        )
    index %= size
    strides = _elements(a)
    shape = a.shape[:d] + a.shape[d + 1 :]
    return restride(a, shape, strides[:d] + strides[d + 1 :], index * strides[d])


def _bounds(size: int, start: int | None, end: int | None) -> tuple[int, int]:
    s = 0 if start is None else start
    e = size if end is None else end
    if s < 0:
        s += size
    if e < 0:
        e += size
    s = min(max(s, 0), size)
    return s, min(max(e, s), size)


def slice_(
    a: CudaArray, dim: int = 0, start: int | None = None, end: int | None = None, step: int = 1
) -> CudaArray:
    if a.ndim == 0:
        raise DimensionError("slice() cannot be applied to a 0-dim tensor.")
    d = normalize_dim(dim, a.ndim)
    if step <= 0:
        raise TensorError("slice step must be positive")
    s, e = _bounds(a.shape[d], start, end)
    strides = _elements(a)
    shape = list(a.shape)
    shape[d] = (e - s + step - 1) // step
    new_strides = list(strides)
    new_strides[d] = strides[d] * step
    return restride(a, shape, new_strides, s * strides[d])


def narrow(a: CudaArray, dim: int, start: int, length: int) -> CudaArray:
    if a.ndim == 0:
        raise DimensionError("narrow() cannot be applied to a 0-dim tensor.")
    d = normalize_dim(dim, a.ndim)
    size = a.shape[d]
    if not -size <= start <= size:
        raise DimensionError(
            f"start out of range (expected to be in range of [{-size}, {size}], but got {start})"
        )
    if start < 0:
        start += size
    if length < 0:
        raise TensorError("narrow(): length must be non-negative.")
    if start + length > size:
        raise TensorError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
    return slice_(a, d, start, start + length)


def _dim_of(a: CudaArray, dim: int, name: str) -> int:
    if a.ndim == 0:
        raise TensorError(f"{name} expects at least a 1-dimensional tensor")
    return normalize_dim(dim, a.ndim)


def _pieces(a: CudaArray, d: int, sizes: Sequence[int]) -> list[CudaArray]:
    out, start = [], 0
    for n in sizes:
        out.append(slice_(a, d, start, start + n))
        start += n
    return out


def split_sizes(a: CudaArray, sizes: Sequence[int], dim: int) -> list[CudaArray]:
    d = _dim_of(a, dim, "split_with_sizes")
    if sum(sizes) != a.shape[d] or any(s < 0 for s in sizes):
        raise TensorError(
            f"split_with_sizes expects split_sizes to sum exactly to {a.shape[d]} (input tensor's "
            f"size at dimension {dim}), but got split_sizes={list(sizes)}"
        )
    return _pieces(a, d, sizes)


def split(a: CudaArray, size: int, dim: int) -> list[CudaArray]:
    d = _dim_of(a, dim, "split")
    total = a.shape[d]
    if size < 0:
        raise TensorError(f"split expects split_size be non-negative, but got split_size={size}")
    if size == 0:
        if total != 0:
            raise TensorError(
                "split_size can only be 0 if dimension size is 0, but got dimension size of "
                f"{total}"
            )
        return _pieces(a, d, [0])
    n = max(-(-total // size), 1)
    sizes = [size] * n
    sizes[-1] = total - size * (n - 1)
    return _pieces(a, d, sizes)


def chunk(a: CudaArray, chunks: int, dim: int) -> list[CudaArray]:
    if chunks <= 0:
        raise TensorError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    d = _dim_of(a, dim, "chunk")
    size = a.shape[d]
    step = -(-size // chunks)
    if step == 0 and size == 0:
        return _pieces(a, d, [0] * chunks)
    return split(a, step, d)


def unbind(a: CudaArray, dim: int) -> list[CudaArray]:
    if a.ndim == 0:
        raise DimensionError("Dimension specified as 0 but tensor has no dimensions")
    d = normalize_dim(dim, a.ndim)
    return [select(a, d, i) for i in range(a.shape[d])]
