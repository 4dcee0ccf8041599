"""Shape operators: views, copies, conversions, and tensor metadata (joins and splits: `joins`).

Views (`view`, `t`, `transpose`, `permute`, `select`, `slice`, `narrow`,
`expand`, `squeeze`, `unsqueeze`, `diagonal`, `as_strided`, the pieces of
`chunk`/`split`/`unbind`) are numpy views made with `make_view`, so they
share memory and the version counter with their base as PyTorch's do, and
report the strides PyTorch reports (`view` computes them with PyTorch's
algorithm and refuses where no view is possible). Composite operators
(`to`, `contiguous`, `movedim`, `hstack`, ...) call other operators, which
record their own history, as PyTorch's CompositeImplicitAutograd ones do.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from ts_schema import registry

from ..dtypes import dtype_of_numpy, numpy_dtype
from ..tensor import (
    DimensionError,
    Tensor,
    TensorError,
    check_device,
    make_view,
    normalize_dim,
    wrap,
)
from .common import result, sum_to
from .dispatch import call, derivative, implements

ndarray = np.ndarray
_as_strided = np.lib.stride_tricks.as_strided


def impl(key: str) -> Any:
    """The registered (autograd-recording) implementation of `key`, for composite kernels."""
    return registry.get(key).impl


def lazy_impl(key: str) -> Any:
    """`impl(key)` looked up on first call: for operators another module registers."""
    found: list[Any] = []

    def call_impl(*args: Any) -> Any:
        if not found:
            found.append(registry.get(key).impl)
        return found[0](*args)

    call_impl.__name__ = key
    return call_impl


# ---------------------------------------------------------------------------
# Helpers shared by the operator modules


def shape_str(shape: Sequence[int]) -> str:
    return str(list(shape))


def strided(a: ndarray, shape: Sequence[int], strides: Sequence[int], offset: int = 0) -> ndarray:
    """A view of `a`'s memory with these sizes and element strides, starting `offset`
    elements after `a`'s first element. Made over the root array of `a`'s base chain,
    so that `storage_offset()` still finds where it starts."""
    item = a.itemsize
    byte_strides = tuple(s * item for s in strides)
    if a.flags.c_contiguous and a.flags.writeable:
        try:
            return ndarray(
                tuple(shape), a.dtype, buffer=a, offset=offset * item, strides=byte_strides
            )
        except (TypeError, ValueError, BufferError):
            pass
    root = a
    while isinstance(root.base, ndarray):
        root = root.base
    start = a.__array_interface__["data"][0] - root.__array_interface__["data"][0] + offset * item
    try:
        return ndarray(tuple(shape), a.dtype, buffer=root, offset=start, strides=byte_strides)
    except (TypeError, ValueError, BufferError):
        # the root exposes no contiguous buffer (a foreign array): numpy's as_strided
        base = a if offset == 0 else _as_strided(a, (offset + 1,), (item,))[offset:]
        return _as_strided(base, tuple(shape), byte_strides)


def scalar_in(value: Any, dt: np.dtype) -> ndarray:
    """A 0-d array of `value` in dtype `dt`; integers out of its range wrap around, as
    PyTorch's C casts do (numpy refuses them)."""
    try:
        return np.asarray(value, dtype=dt)
    except (OverflowError, ValueError):
        return np.asarray(value).astype(dt)


def element_strides(a: ndarray) -> tuple[int, ...]:
    item = a.itemsize
    return tuple(s // item for s in a.strides)


def infer_size(size: Sequence[int], numel: int) -> tuple[int, ...]:
    """`size` with its one `-1` filled in so that it holds `numel` elements (PyTorch's infer_size)."""
    infer = -1
    known = 1
    for i, s in enumerate(size):
        if s == -1:
            if infer >= 0:
                raise TensorError("only one dimension can be inferred")
            infer = i
        elif s >= 0:
            known *= s
        else:
            raise TensorError(f"invalid shape dimension {s}")
    if numel == known and infer < 0:
        return tuple(size)
    if infer >= 0:
        if known == 0:
            raise TensorError(
                f"cannot reshape tensor of 0 elements into shape {list(size)} because the "
                "unspecified dimension size -1 can be any value and is ambiguous"
            )
        if numel % known == 0:
            out = list(size)
            out[infer] = numel // known
            return tuple(out)
    raise TensorError(f"shape '{list(size)}' is invalid for input of size {numel}")


def view_strides(
    shape: Sequence[int], strides: Sequence[int], new_shape: Sequence[int]
) -> list[int] | None:
    """The strides of a view of (shape, strides) as `new_shape`, or None where no view
    exists (PyTorch's computeStride)."""
    n = len(new_shape)
    if not shape:
        return [1] * n
    numel = math.prod(shape)
    if numel == 0:
        if tuple(shape) == tuple(new_shape):
            return list(strides)
        out = [1] * n
        for d in range(n - 2, -1, -1):
            out[d] = out[d + 1] * max(new_shape[d + 1], 1)
        return out
    new = [0] * n
    view_d = n - 1
    chunk_base = strides[-1]
    tensor_numel = 1
    view_numel = 1
    for d in range(len(shape) - 1, -1, -1):
        tensor_numel *= shape[d]
        if d == 0 or (shape[d - 1] != 1 and strides[d - 1] != tensor_numel * chunk_base):
            while view_d >= 0 and (view_numel < tensor_numel or new_shape[view_d] == 1):
                new[view_d] = view_numel * chunk_base
                view_numel *= new_shape[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return None
            if d > 0:
                chunk_base = strides[d - 1]
                tensor_numel = 1
                view_numel = 1
    if view_d != -1:
        return None
    return new


def _view_array(a: ndarray, shape: tuple[int, ...]) -> ndarray | None:
    if a.flags.c_contiguous:
        return a.reshape(shape)
    strides = view_strides(a.shape, element_strides(a), shape)
    return None if strides is None else strided(a, shape, strides)


def zeros_of(shape: Sequence[int], like: Tensor) -> Tensor:
    """A zero tensor of `like`'s dtype (a constant: it takes no part in autograd)."""
    return result(np.zeros(tuple(shape), dtype=like._data.dtype))


# ---------------------------------------------------------------------------
# Views


@implements("aten::view")
def view(self: Tensor, size: list[int]) -> Tensor:
    a = self._data
    shape = infer_size(size, a.size)
    out = _view_array(a, shape)
    if out is None:
        raise TensorError(
            "view size is not compatible with input tensor's size and stride (at least one "
            "dimension spans across two contiguous subspaces). Use .reshape(...) instead."
        )
    return make_view(self, out)


@implements("aten::view.dtype")
def view_dtype(self: Tensor, dtype: int) -> Tensor:
    a = self._data
    target = numpy_dtype(dtype)
    if target.itemsize != a.itemsize:
        raise TensorError(
            f"view(dtype) between dtypes of different element sizes ({a.dtype} and {target}) is not supported"
        )
    return make_view(self, a.view(target))


@implements("aten::reshape")
def reshape(self: Tensor, shape: list[int]) -> Tensor:
    a = self._data
    new_shape = infer_size(shape, a.size)
    out = _view_array(a, new_shape)
    if out is None:
        return result(np.reshape(a, new_shape, copy=True))
    return make_view(self, out)


@implements("aten::view_as")
def view_as(self: Tensor, other: Tensor) -> Tensor:
    return view(self, other._data.shape)


@implements("aten::reshape_as")
def reshape_as(self: Tensor, other: Tensor) -> Tensor:
    return reshape(self, other._data.shape)


@implements("aten::flatten.using_ints")
def flatten(self: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    a = self._data
    if a.ndim == 0:
        return reshape(self, [1])
    start = normalize_dim(start_dim, a.ndim)
    end = normalize_dim(end_dim, a.ndim)
    if start > end:
        raise TensorError("flatten() has invalid args: start_dim cannot come after end_dim")
    if start == end:
        return make_view(self, a.view())
    shape = (*a.shape[:start], math.prod(a.shape[start : end + 1]), *a.shape[end + 1 :])
    return reshape(self, shape)


@implements("aten::unflatten.int")
def unflatten(self: Tensor, dim: int, sizes: list[int]) -> Tensor:
    a = self._data
    d = normalize_dim(dim, a.ndim)
    if not sizes:
        raise TensorError("unflatten: sizes must be non-empty")
    size = a.shape[d] if a.ndim else 1
    if -1 in sizes:
        inner = infer_size(sizes, size)
    else:
        if math.prod(sizes) != size:
            raise TensorError(
                f"unflatten: Provided sizes {list(sizes)} don't multiply up to the size of dim {dim} ({size}) in the input tensor"
            )
        inner = tuple(sizes)
    return view(self, a.shape[:d] + inner + a.shape[d + 1 :])


@implements("aten::t")
def t(self: Tensor) -> Tensor:
    a = self._data
    if a.ndim > 2:
        raise TensorError(f"t() expects a tensor with <= 2 dimensions, but self is {a.ndim}D")
    return make_view(self, a.T if a.ndim == 2 else a.view())


@implements("aten::transpose.int")
def transpose(self: Tensor, dim0: int, dim1: int) -> Tensor:
    a = self._data
    n = a.ndim
    d0, d1 = normalize_dim(dim0, n), normalize_dim(dim1, n)
    return make_view(self, a.swapaxes(d0, d1) if n else a.view())


@implements("aten::permute")
def permute(self: Tensor, dims: list[int]) -> Tensor:
    a = self._data
    n = a.ndim
    if len(dims) != n:
        raise TensorError(
            "permute(sparse_coo): number of dimensions in the tensor input does not match the "
            f"length of the desired ordering of dimensions i.e. input.dim() = {n} is not equal to len(dims) = {len(dims)}"
        )
    perm = [normalize_dim(d, n) for d in dims]
    if len(set(perm)) != n:
        raise TensorError("permute(): duplicate dims are not allowed.")
    return make_view(self, a.transpose(perm) if n else a.view())


def _index_at(dim: int, index: Any) -> tuple[Any, ...]:
    return (slice(None),) * dim + (index, Ellipsis)


@implements("aten::select.int")
def select(self: Tensor, dim: int, index: int) -> Tensor:
    a = self._data
    if a.ndim == 0:
        raise DimensionError("select() cannot be applied to a 0-dim tensor.")
    d = normalize_dim(dim, a.ndim)
    size = a.shape[d]
    if not -size <= index < size:
        raise DimensionError(
            f"select(): index {index} out of range for tensor of size {shape_str(a.shape)} at dimension {dim}"
        )
    return make_view(self, a[_index_at(d, index)])


def _slice_bounds(size: int, start: int | None, end: int | None) -> tuple[int, int]:
    s = 0 if start is None else start
    e = size if end is None else end
    if s < 0:
        s += size
    if e < 0:
        e += size
    s = min(max(s, 0), size)
    e = min(max(e, s), size)
    return s, e


@implements("aten::slice.Tensor")
def slice_(
    self: Tensor, dim: int = 0, start: int | None = None, end: int | None = None, step: int = 1
) -> Tensor:
    a = self._data
    if a.ndim == 0:
        raise DimensionError("slice() cannot be applied to a 0-dim tensor.")
    d = normalize_dim(dim, a.ndim)
    if step <= 0:
        raise TensorError("slice step must be positive")
    s, e = _slice_bounds(a.shape[d], start, end)
    return make_view(self, a[(slice(None),) * d + (slice(s, e, step),)])


@implements("aten::narrow", "aten::narrow.Tensor")
def narrow(self: Tensor, dim: int, start: Any, length: int) -> Tensor:
    a = self._data
    if a.ndim == 0:
        raise DimensionError("narrow() cannot be applied to a 0-dim tensor.")
    if isinstance(start, Tensor):
        start = int(start.item())  # type: ignore[arg-type]
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
    return make_view(self, a[(slice(None),) * d + (slice(start, start + length),)])


@implements("aten::narrow_copy")
def narrow_copy(self: Tensor, dim: int, start: int, length: int) -> Tensor:
    """`narrow`, copied out rather than a view."""
    return result(narrow(self, dim, start, length)._data.copy())


def expand_geometry(
    shape: tuple[int, ...], strides: tuple[int, ...], size: Sequence[int]
) -> tuple[list[int], list[int]]:
    """Sizes and strides of `expand(size)` (PyTorch's inferExpandGeometry)."""
    n = len(size)
    lead = n - len(shape)
    if lead < 0:
        raise TensorError(
            f"expand(torch.FloatTensor{{{list(shape)}}}, size={list(size)}): the number of sizes "
            f"provided ({n}) must be greater or equal to the number of dimensions in the tensor ({len(shape)})"
        )
    sizes = [0] * n
    out = [0] * n
    for i in range(n - 1, -1, -1):
        target = size[i]
        k = i - lead
        if k >= 0:
            have = shape[k]
            if target == -1:
                target = have
            if have == target:
                sizes[i], out[i] = have, strides[k]
                continue
            if have != 1:
                raise TensorError(
                    f"The expanded size of the tensor ({target}) must match the existing size ({have}) at "
                    f"non-singleton dimension {i}.  Target sizes: {list(size)}.  Tensor sizes: {list(shape)}"
                )
        elif target < 0:
            raise TensorError(
                f"The expanded size of the tensor ({target}) isn't allowed in a leading, non-existing dimension {i}"
            )
        sizes[i], out[i] = target, 0
    return sizes, out


@implements("aten::expand")
def expand(self: Tensor, size: list[int], implicit: bool = False) -> Tensor:
    a = self._data
    if tuple(size) == a.shape:
        return make_view(self, a.view())
    sizes, strides = expand_geometry(a.shape, element_strides(a), size)
    return make_view(self, strided(a, sizes, strides))


@implements("aten::expand_as")
def expand_as(self: Tensor, other: Tensor) -> Tensor:
    return expand(self, other._data.shape)


@implements("aten::broadcast_to", autograd=False)
def broadcast_to(self: Tensor, size: list[int]) -> Tensor:
    return _expand(self, size, False)


@implements("aten::broadcast_tensors", autograd=False)
def broadcast_tensors(tensors: list[Tensor]) -> list[Tensor]:
    try:
        shape = np.broadcast_shapes(*(t._data.shape for t in tensors))
    except ValueError:
        raise TensorError(
            "shape mismatch: objects cannot be broadcast to a single shape: "
            + ", ".join(shape_str(t._data.shape) for t in tensors)
        ) from None
    return [_expand(t, list(shape), False) for t in tensors]


@implements("aten::squeeze")
def squeeze(self: Tensor) -> Tensor:
    a = self._data
    return make_view(self, a.squeeze() if 1 in a.shape else a.view())


@implements("aten::squeeze.dim")
def squeeze_dim(self: Tensor, dim: int) -> Tensor:
    a = self._data
    d = normalize_dim(dim, a.ndim)
    return make_view(self, a.squeeze(d) if a.ndim and a.shape[d] == 1 else a.view())


@implements("aten::squeeze.dims")
def squeeze_dims(self: Tensor, dim: list[int]) -> Tensor:
    a = self._data
    if a.ndim == 0:
        for d in dim:
            normalize_dim(d, 0)
        return make_view(self, a.view())
    dims = [normalize_dim(d, a.ndim) for d in dim]
    if len(set(dims)) != len(dims):
        raise TensorError(f"dim {dims[0]} appears multiple times in the list of dims")
    axes = tuple(d for d in dims if a.shape[d] == 1)
    return make_view(self, a.squeeze(axes) if axes else a.view())


@implements("aten::unsqueeze")
def unsqueeze(self: Tensor, dim: int) -> Tensor:
    a = self._data
    n = a.ndim
    d = normalize_dim(dim, n + 1)
    if a.flags.c_contiguous:
        return make_view(self, a.reshape((*a.shape[:d], 1, *a.shape[d:])))
    strides = element_strides(a)
    # PyTorch's stride for the new dim: that of the dim it is inserted before, times its size
    new = a.shape[d] * strides[d] if d < n else 1
    return make_view(
        self, strided(a, (*a.shape[:d], 1, *a.shape[d:]), (*strides[:d], new, *strides[d:]))
    )


@implements("aten::diagonal")
def diagonal(self: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    a = self._data
    n = a.ndim
    d1, d2 = normalize_dim(dim1, n), normalize_dim(dim2, n)
    if d1 == d2:
        raise TensorError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    s = element_strides(a)
    if offset >= 0:
        length = max(min(a.shape[d1], a.shape[d2] - offset), 0)
        start = offset * s[d2] if length else 0
    else:
        length = max(min(a.shape[d1] + offset, a.shape[d2]), 0)
        start = -offset * s[d1] if length else 0
    keep = [i for i in range(n) if i not in (d1, d2)]
    shape = [a.shape[i] for i in keep] + [length]
    strides = [s[i] for i in keep] + [s[d1] + s[d2]]
    return make_view(self, strided(a, shape, strides, start))


@implements("aten::as_strided")
def as_strided(
    self: Tensor, size: list[int], stride: list[int], storage_offset: int | None = None
) -> Tensor:
    a = self._data
    if len(size) != len(stride):
        raise TensorError(
            f"mismatch in length of strides and shape: {len(size)} sizes and {len(stride)} strides"
        )
    if any(s < 0 for s in stride):
        raise TensorError("as_strided: Negative strides are not supported at the moment")
    if any(s < 0 for s in size):
        raise TensorError(f"Trying to create tensor with negative dimension: {list(size)}")
    if storage_offset is not None and storage_offset < 0:
        raise TensorError(f"Tensor: invalid storage offset {storage_offset}")
    root = a
    while isinstance(root.base, ndarray):
        root = root.base
    own = (a.__array_interface__["data"][0] - root.__array_interface__["data"][0]) // a.itemsize
    offset = own if storage_offset is None else storage_offset
    needed = offset + 1 + sum((sz - 1) * st for sz, st in zip(size, stride, strict=True))
    if 0 in size:
        needed = 0
    if needed > root.size:
        raise TensorError(
            f"setStorage: sizes {list(size)}, strides {list(stride)}, storage offset {offset}, "
            f"and itemsize {a.itemsize} requiring a storage size of {needed * a.itemsize} are out of "
            f"bounds for storage of size {root.size * a.itemsize}"
        )
    return make_view(self, strided(a, size, stride, offset - own))


@implements("aten::alias")
def alias(self: Tensor) -> Tensor:
    return make_view(self, self._data.view())


@implements("aten::movedim.int", autograd=False)
def movedim(self: Tensor, source: int, destination: int) -> Tensor:
    return movedim_list(self, [source], [destination])


@implements("aten::movedim.intlist", autograd=False)
def movedim_list(self: Tensor, source: list[int], destination: list[int]) -> Tensor:
    n = self._data.ndim
    if len(source) != len(destination):
        raise TensorError(
            f"movedim: Invalid source or destination dims: source ({list(source)} dims) should "
            f"contain the same number of dims as destination ({list(destination)} dims)"
        )
    src = [normalize_dim(d, n) for d in source]
    dst = [normalize_dim(d, n) for d in destination]
    if n == 0:
        return _alias(self)
    if len(set(src)) != len(src) or len(set(dst)) != len(dst):
        raise TensorError("movedim: repeated dim in `source` or `destination`")
    order = [d for d in range(n) if d not in src]
    perm = [0] * n
    for s, d in zip(src, dst, strict=True):
        perm[d] = s
    rest = iter(order)
    taken = set(dst)
    for i in range(n):
        if i not in taken:
            perm[i] = next(rest)
    return _permute(self, perm)


@implements("aten::swapaxes", "aten::swapdims", autograd=False)
def swapaxes(self: Tensor, axis0: int, axis1: int) -> Tensor:
    return _transpose(self, axis0, axis1)


@implements("aten::mT", "aten::mT.a", autograd=False)
def matrix_transpose(self: Tensor) -> Tensor:
    if self._data.ndim < 2:
        raise TensorError(
            "tensor.mT is only supported on matrices or batches of matrices. Got 1-D tensor."
        )
    return _transpose(self, -2, -1)


@implements("aten::adjoint", "aten::mH", "aten::mH.a", autograd=False)
def adjoint(self: Tensor) -> Tensor:
    """`x.mH`: the conjugate transpose of the last two dimensions (a transpose when real)."""
    if self._data.ndim < 2:
        raise TensorError(
            "tensor.mH is only supported on matrices or batches of matrices. Got 1-D tensor."
        )
    return call("aten::conj", _transpose(self, -2, -1))


@implements("aten::matrix_H", "aten::matrix_H.a", autograd=False)
def matrix_h(self: Tensor) -> Tensor:
    """`x.H`: the conjugate transpose of a matrix."""
    if self._data.ndim != 2:
        raise TensorError(
            f"tensor.H is only supported on matrices (2-D tensors). Got {self._data.ndim}-D tensor."
        )
    return call("aten::conj", _transpose(self, 0, 1))


@implements("aten::numpy_T", "aten::numpy_T.a", autograd=False)
def numpy_t(self: Tensor) -> Tensor:
    return _permute(self, list(range(self._data.ndim - 1, -1, -1)))


@implements("aten::ravel", autograd=False)
def ravel(self: Tensor) -> Tensor:
    return _reshape(self, [-1])


# ---------------------------------------------------------------------------
# Copies: repeat, flip, roll, triangles


@implements("aten::repeat")
def repeat(self: Tensor, repeats: list[int]) -> Tensor:
    a = self._data
    if len(repeats) < a.ndim:
        raise TensorError(
            "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor"
        )
    if any(r < 0 for r in repeats):
        raise TensorError(f"Trying to create tensor with negative dimension: {list(repeats)}")
    return result(np.tile(a, tuple(repeats)))


@implements("aten::tile", autograd=False)
def tile(self: Tensor, dims: list[int]) -> Tensor:
    n = self._data.ndim
    reps = list(dims)
    if len(reps) < n:
        reps = [1] * (n - len(reps)) + reps
    return _repeat(self, reps)


@implements("aten::flip")
def flip(self: Tensor, dims: list[int]) -> Tensor:
    a = self._data
    axes = tuple(normalize_dim(d, a.ndim) for d in dims)
    if len(set(axes)) != len(axes):
        raise TensorError(
            f"dims has duplicates, original flip dims size={len(dims)}, but unique flip dims size={len(set(axes))}"
        )
    if a.ndim == 0:
        return result(a.copy())
    return result(np.flip(a, axes).copy())


@implements("aten::roll")
def roll(self: Tensor, shifts: list[int], dims: Sequence[int] = ()) -> Tensor:
    a = self._data
    if not dims:
        if len(shifts) != 1:
            raise TensorError(
                f"`shifts` required to be of size 1 when `dims` is empty, but got {len(shifts)}"
            )
        return result(np.roll(a.reshape(-1), shifts[0]).reshape(a.shape))
    if len(shifts) != len(dims):
        raise TensorError(
            f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims)}"
        )
    axes = tuple(normalize_dim(d, a.ndim) for d in dims)
    if a.ndim == 0:
        return result(a.copy())
    return result(np.roll(a, tuple(shifts), axes))


def _triangle(fn: Any, name: str) -> Any:
    def kernel(self: Tensor, diagonal: int = 0) -> Tensor:
        a = self._data
        if a.ndim < 2:
            raise TensorError(f"{name}: input tensor must have at least 2 dimensions")
        return result(fn(a, diagonal))

    kernel.__name__ = name
    return kernel


tril = implements("aten::tril")(_triangle(np.tril, "tril"))
triu = implements("aten::triu")(_triangle(np.triu, "triu"))


def _triangle_inplace(fn: Any) -> Any:
    def kernel(self: Tensor, diagonal: int = 0) -> Tensor:
        from ..tensor import bump_version

        self._data[...] = fn(self, diagonal)._data
        bump_version(self)
        return self

    return kernel


implements("aten::tril_")(_triangle_inplace(tril))
implements("aten::triu_")(_triangle_inplace(triu))


# ---------------------------------------------------------------------------
# Copies and conversions

_MEMORY_FORMATS = {None: "K", 0: "C", 1: "K"}


@implements("aten::clone")
def clone(self: Tensor, memory_format: int | None = None) -> Tensor:
    order = _MEMORY_FORMATS.get(memory_format)
    if order is None:
        raise TensorError(f"clone: memory format {memory_format} is not supported by this runtime")
    a = self._data
    if order == "K" and not _dense(a):
        order = "C"
    return result(np.array(a, order=order, copy=True))


def _dense(a: ndarray) -> bool:
    return a.flags.c_contiguous or a.flags.f_contiguous or 0 not in a.strides


@implements("aten::contiguous", autograd=False)
def contiguous(self: Tensor, memory_format: int = 0) -> Tensor:
    if memory_format not in (0, 1):
        raise TensorError(
            f"contiguous: memory format {memory_format} is not supported by this runtime"
        )
    if self.is_contiguous():
        return self
    return _clone(self, 0)


@implements("aten::detach", autograd=False)
def detach(self: Tensor) -> Tensor:
    out = make_view(self, self._data.view())
    out._base = None
    return out


@implements("aten::_to_copy")
def to_copy(
    self: Tensor,
    dtype: int | None = None,
    layout: int | None = None,
    device: Any = None,
    pin_memory: bool | None = None,
    non_blocking: bool = False,
    memory_format: int | None = None,
) -> Tensor:
    if device is not None:
        check_device(device)
    a = self._data
    target = a.dtype if dtype is None else numpy_dtype(dtype)
    order = "C" if memory_format == 0 else "K"
    return result(a.astype(target, order=order, copy=True))


def _convert(self: Tensor, dtype: Any, copy: bool, memory_format: Any = None) -> Tensor:
    a = self._data
    if dtype is not None and numpy_dtype(dtype) != a.dtype:
        return _to_copy(self, dtype, None, None, None, False, memory_format)
    if copy:
        return _to_copy(self, None, None, None, None, False, memory_format)
    return self


@implements("aten::to.dtype", autograd=False)
def to_dtype(
    self: Tensor,
    dtype: int,
    non_blocking: bool = False,
    copy: bool = False,
    memory_format: Any = None,
) -> Tensor:
    return _convert(self, dtype, copy, memory_format)


@implements("aten::to.device", autograd=False)
def to_device(
    self: Tensor,
    device: Any,
    dtype: int,
    non_blocking: bool = False,
    copy: bool = False,
    memory_format: Any = None,
) -> Tensor:
    check_device(device)
    return _convert(self, dtype, copy, memory_format)


@implements("aten::cpu", autograd=False)
def to_cpu(self: Tensor) -> Tensor:
    """The tensor itself: a CPU tensor is on the CPU (device packages copy theirs)."""
    return self


@implements("aten::cuda", autograd=False)
def to_cuda(self: Tensor) -> Tensor:
    # reached only without device dispatch: CUDA is unavailable, or was not used yet
    check_device("cuda")
    return self


@implements("aten::to.other", autograd=False)
def to_other(
    self: Tensor,
    other: Tensor,
    non_blocking: bool = False,
    copy: bool = False,
    memory_format: Any = None,
) -> Tensor:
    return _convert(self, dtype_of_numpy(other._data.dtype), copy, memory_format)


@implements("aten::to.dtype_layout", autograd=False)
def to_dtype_layout(
    self: Tensor,
    dtype: int | None = None,
    layout: int | None = None,
    device: Any = None,
    pin_memory: bool | None = None,
    non_blocking: bool = False,
    copy: bool = False,
    memory_format: Any = None,
) -> Tensor:
    check_device(device)
    return _convert(self, dtype, copy, memory_format)


@implements("aten::to.prim_Device", autograd=False)
def to_prim_device(
    self: Tensor,
    device: Any,
    dtype: int | None = None,
    non_blocking: bool = False,
    copy: bool = False,
) -> Tensor:
    check_device(device)
    return _convert(self, dtype, copy)


@implements("aten::to.prim_dtype", autograd=False)
def to_prim_dtype(
    self: Tensor, dtype: int | None = None, non_blocking: bool = False, copy: bool = False
) -> Tensor:
    return _convert(self, dtype, copy)


@implements("aten::to.prim_other", autograd=False)
def to_prim_other(self: Tensor, non_blocking: bool = False, copy: bool = False) -> Tensor:
    return _convert(self, None, copy)


@implements("aten::resize_", autograd=False)
def resize_(self: Tensor, size: Sequence[int], memory_format: Any = None) -> Tensor:
    """Give `self` the shape `size`, contiguous, keeping its first elements in storage order;
    elements beyond the old storage are uninitialized (zeros here)."""
    from ..tensor import bump_version

    size = [int(n) for n in size]
    if any(n < 0 for n in size):
        raise TensorError(f"resize_: negative dimension in size {size}")
    if self.requires_grad:
        raise TensorError("resize_: cannot resize a tensor that requires grad")
    a = self._data
    if list(a.shape) == size:
        return self
    if not isinstance(a, ndarray) or not a.flags.c_contiguous:
        raise TensorError(
            "resize_: only a contiguous CPU tensor can be resized here "
            f"(shape {list(a.shape)} to {size})"
        )
    n = math.prod(size)
    # the storage under `a` (a shrinking resize_ leaves the rest of it there, as PyTorch)
    storage = a
    while isinstance(storage.base, ndarray) and storage.base.flags.c_contiguous:
        storage = storage.base
    offset = (a.ctypes.data - storage.ctypes.data) // a.itemsize
    if storage.dtype != a.dtype or offset < 0 or offset + a.size > storage.size:
        storage, offset = a, 0
    flat = storage.reshape(-1)
    if offset + n <= flat.size:
        # the same memory, viewed anew: other views of the storage still share it
        self._data = flat[offset : offset + n].reshape(size)
    elif self._base is not None:
        raise TensorError(
            f"resize_: cannot grow a view beyond its storage (shape {list(a.shape)} to {size})"
        )
    else:
        grown = np.zeros(n, dtype=a.dtype)
        kept = flat[offset:]
        grown[: kept.size] = kept
        self._data = grown.reshape(size)
    bump_version(self)
    return self


@implements("aten::resize", autograd=False)
def resize(self: Tensor, size: Sequence[int], memory_format: Any = None) -> Tensor:
    """resize_ of a copy of `self` laid out as `self` is (its elements in the order of its
    strides, as PyTorch's clone with the memory format preserved)."""
    a = self._data
    order = sorted(range(a.ndim), key=lambda d: -abs(a.strides[d]) if a.shape[d] > 1 else 0)
    storage_order = np.ascontiguousarray(np.transpose(a, order)).reshape(-1)
    out = result(storage_order.copy())
    return resize_(out, size, memory_format)


@implements("aten::type_as", autograd=False)
def type_as(self: Tensor, other: Tensor) -> Tensor:
    return _convert(self, dtype_of_numpy(other._data.dtype), False)


# ---------------------------------------------------------------------------
# Metadata


@implements("aten::size", autograd=False)
def size(self: Tensor) -> list[int]:
    return list(self._data.shape)


def _dim_for_query(self: Tensor, dim: int) -> int:
    n = self._data.ndim
    if n == 0:
        raise DimensionError(f"Dimension specified as {dim} but tensor has no dimensions")
    return normalize_dim(dim, n)


@implements("aten::size.int", autograd=False)
def size_int(self: Tensor, dim: int) -> int:
    return self._data.shape[_dim_for_query(self, dim)]


@implements("aten::stride", autograd=False)
def stride(self: Tensor) -> list[int]:
    return list(element_strides(self._data))


@implements("aten::stride.int", autograd=False)
def stride_int(self: Tensor, dim: int) -> int:
    return element_strides(self._data)[_dim_for_query(self, dim)]


@implements("aten::dim", autograd=False)
def dim(self: Tensor) -> int:
    return self._data.ndim


@implements("aten::numel", autograd=False)
def numel(self: Tensor) -> int:
    return self._data.size


@implements("aten::is_floating_point", autograd=False)
def is_floating_point(self: Tensor) -> bool:
    return self._data.dtype.kind == "f"


@implements("aten::is_complex", autograd=False)
def is_complex(self: Tensor) -> bool:
    return self._data.dtype.kind == "c"


@implements("aten::is_contiguous", autograd=False)
def is_contiguous(self: Tensor) -> bool:
    return self.is_contiguous()


@implements("aten::is_pinned", autograd=False)
def is_pinned(self: Tensor, device: Any = None) -> bool:
    """Host memory here is never page-locked for a GPU's transfers (no `pin_memory`)."""
    return False


@implements("aten::element_size", autograd=False)
def element_size(self: Tensor) -> int:
    return self._data.itemsize


@implements("aten::_version", autograd=False)
def version(self: Tensor) -> int:
    return self._version_number


@implements("aten::is_leaf", autograd=False)
def is_leaf(self: Tensor) -> bool:
    return self.is_leaf


@implements("aten::output_nr", autograd=False)
def output_nr(self: Tensor) -> int:
    return 0 if self._ag is None else self._ag.output_nr


@implements("aten::requires_grad_", autograd=False)
def requires_grad_(self: Tensor, requires_grad: bool = True) -> Tensor:
    return self.requires_grad_(requires_grad)


@implements("aten::retain_grad", autograd=False)
def retain_grad(self: Tensor) -> None:
    self.retain_grad()


@implements("aten::backward", autograd=False)
def backward(
    self: Tensor,
    gradient: Tensor | None = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
) -> None:
    self.backward(gradient, retain_graph, create_graph)


# ---------------------------------------------------------------------------
# Scatters: the inverses of select/slice/diagonal (and their backward)


@implements("aten::select_scatter")
def select_scatter(self: Tensor, src: Tensor, dim: int, index: int) -> Tensor:
    out = wrap(self._data.copy())
    target = select(out, dim, index)._data
    _write(target, src, "select_scatter")
    return out


@implements("aten::slice_scatter")
def slice_scatter(
    self: Tensor,
    src: Tensor,
    dim: int = 0,
    start: int | None = None,
    end: int | None = None,
    step: int = 1,
) -> Tensor:
    out = wrap(self._data.copy())
    _write(slice_(out, dim, start, end, step)._data, src, "slice_scatter")
    return out


@implements("aten::diagonal_scatter")
def diagonal_scatter(
    self: Tensor, src: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1
) -> Tensor:
    out = wrap(self._data.copy())
    _write(diagonal(out, offset, dim1, dim2)._data, src, "diagonal_scatter")
    return out


@implements("aten::as_strided_scatter")
def as_strided_scatter(
    self: Tensor, src: Tensor, size: list[int], stride: list[int], storage_offset: int | None = None
) -> Tensor:
    out = wrap(np.array(self._data, order="C", copy=True))
    _write(as_strided(out, size, stride, storage_offset)._data, src, "as_strided_scatter")
    return out


def _write(target: ndarray, src: Tensor, name: str) -> None:
    if target.shape != src._data.shape:
        raise TensorError(
            f"{name}: expected src to have a size equal to the slice of self. src size = "
            f"{shape_str(src._data.shape)}, slice size = {shape_str(target.shape)}"
        )
    target[...] = src._data


# ---------------------------------------------------------------------------
# Derivatives


def _reshape_back(grad, self, *rest, result):
    return (grad.reshape(self.size()),)


for _key in (
    "aten::view",
    "aten::reshape",
    "aten::view_as",
    "aten::reshape_as",
    "aten::flatten.using_ints",
    "aten::unflatten.int",
    "aten::squeeze",
    "aten::squeeze.dim",
    "aten::squeeze.dims",
    "aten::unsqueeze",
):
    derivative(_key, saves=())(_reshape_back)


@derivative("aten::alias", "aten::clone", saves=())
def _d_identity(grad, self, *rest, result):
    return (grad,)


@derivative("aten::_to_copy", saves=())
def _d_to_copy(grad, self, *rest, result):
    if self._data.dtype.kind not in "fc":
        return (None,)
    return (_convert(grad, dtype_of_numpy(self._data.dtype), False),)


@derivative("aten::t", saves=())
def _d_t(grad, self, *, result):
    return (grad.t(),)


@derivative("aten::transpose.int", saves=())
def _d_transpose(grad, self, dim0, dim1, *, result):
    return (grad.transpose(dim0, dim1),)


@derivative("aten::permute", saves=())
def _d_permute(grad, self, dims, *, result):
    n = len(dims)
    inverse = [0] * n
    for i, d in enumerate(dims):
        inverse[normalize_dim(d, n)] = i
    return (grad.permute(inverse),)


@derivative("aten::select.int", saves=())
def _d_select(grad, self, dim, index, *, result):
    return (call("aten::select_scatter", _zeros_like_size(self, grad), grad, dim, index),)


@derivative("aten::slice.Tensor", saves=())
def _d_slice(grad, self, dim=0, start=None, end=None, step=1, *, result):
    zeros = _zeros_like_size(self, grad)
    return (call("aten::slice_scatter", zeros, grad, dim, start, end, step),)


def _zeros_like_size(shape_of: Tensor, dtype_of: Tensor) -> Tensor:
    """Zeros of `shape_of`'s size and `dtype_of`'s dtype (a constant for autograd)."""
    return call("aten::zeros", shape_of.size(), dtype=dtype_of.dtype)


@derivative("aten::narrow", "aten::narrow.Tensor", saves=())
def _d_narrow(grad, self, dim, start, length, *, result):
    if isinstance(start, Tensor):
        start = int(start.item())
    if start < 0:
        start += self._data.shape[normalize_dim(dim, self._data.ndim)]
    return (_slice_scatter(zeros_of(self._data.shape, grad), grad, dim, start, start + length, 1),)


@derivative("aten::expand", "aten::expand_as", saves=())
def _d_expand(grad, self, *rest, result):
    return (sum_to(grad, self),)


@derivative("aten::diagonal", saves=())
def _d_diagonal(grad, self, offset=0, dim1=0, dim2=1, *, result):
    return (_diagonal_scatter(zeros_of(self._data.shape, grad), grad, offset, dim1, dim2),)


@derivative("aten::as_strided", saves=())
def _d_as_strided(grad, self, size, stride, storage_offset=None, *, result):
    a = self._data
    if not a.flags.c_contiguous:
        raise TensorError("the derivative of as_strided is implemented for contiguous inputs only")
    own = self.storage_offset()
    offset = own if storage_offset is None else storage_offset
    positions = np.full(tuple(size), offset - own, dtype=np.int64)
    for d, (n, s) in enumerate(zip(size, stride, strict=True)):
        shape = [1] * len(size)
        shape[d] = n
        positions = positions + (np.arange(n, dtype=np.int64) * s).reshape(shape)
    flat = wrap(np.zeros(a.size, dtype=grad._data.dtype))
    index = wrap(positions.reshape(-1))
    out = call("aten::index_put", flat, [index], grad.reshape([-1]), True)
    return (out.reshape(list(a.shape)),)


@derivative("aten::repeat", saves=())
def _d_repeat(grad, self, repeats, *, result):
    shape = self._data.shape
    padded = (1,) * (len(repeats) - len(shape)) + shape
    interleaved = []
    for r, s in zip(repeats, padded, strict=True):
        interleaved += [r, s]
    g = grad.reshape(interleaved)
    if g._data.ndim:
        g = g.sum(list(range(0, len(interleaved), 2)))
    return (g.reshape(list(shape)),)


@derivative("aten::flip", saves=())
def _d_flip(grad, self, dims, *, result):
    return (grad.flip(dims),)


@derivative("aten::roll", saves=())
def _d_roll(grad, self, shifts, dims=(), *, result):
    return (_roll(grad, [-s for s in shifts], list(dims)),)


@derivative("aten::tril", saves=())
def _d_tril(grad, self, diagonal=0, *, result):
    return (grad.tril(diagonal),)


@derivative("aten::triu", saves=())
def _d_triu(grad, self, diagonal=0, *, result):
    return (grad.triu(diagonal),)


@derivative("aten::select_scatter", saves=())
def _d_select_scatter(grad, self, src, dim, index, *, result):
    return (
        _select_scatter(grad, zeros_of(src._data.shape, grad), dim, index),
        grad.select(dim, index),
    )


@derivative("aten::slice_scatter", saves=())
def _d_slice_scatter(grad, self, src, dim=0, start=None, end=None, step=1, *, result):
    return (
        _slice_scatter(grad, zeros_of(src._data.shape, grad), dim, start, end, step),
        _slice(grad, dim, start, end, step),
    )


@derivative("aten::diagonal_scatter", saves=())
def _d_diagonal_scatter(grad, self, src, offset=0, dim1=0, dim2=1, *, result):
    return (
        _diagonal_scatter(grad, zeros_of(src._data.shape, grad), offset, dim1, dim2),
        grad.diagonal(offset, dim1, dim2),
    )


def broadcast_tensors_eager(*tensors: Tensor) -> list[Tensor]:
    """`tsjit.broadcast_tensors(a, b)`: PyTorch's eager form, tensors as separate arguments."""
    return call("aten::broadcast_tensors", _varargs(tensors))


def _varargs(values: tuple[Any, ...]) -> list[Any]:
    if len(values) == 1 and isinstance(values[0], (list, tuple)):
        return list(values[0])
    return list(values)


EAGER = {"broadcast_tensors": broadcast_tensors_eager}

_alias = impl("aten::alias")
_clone = impl("aten::clone")
_to_copy = impl("aten::_to_copy")
_reshape = impl("aten::reshape")
_expand = impl("aten::expand")
_permute = impl("aten::permute")
_transpose = impl("aten::transpose.int")
_unsqueeze = impl("aten::unsqueeze")
_repeat = impl("aten::repeat")
_roll = impl("aten::roll")
_slice = impl("aten::slice.Tensor")
_select_scatter = impl("aten::select_scatter")
_slice_scatter = impl("aten::slice_scatter")
_diagonal_scatter = impl("aten::diagonal_scatter")
