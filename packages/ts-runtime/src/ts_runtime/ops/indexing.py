"""Indexing: `tensor[index]` and `tensor[index] = value`, and the indexing operators.

`getitem` lowers a Python index as TorchScript does: ints to `select`,
slices to `slice`, None to `unsqueeze`, Ellipsis to nothing, and tensors
(long or bool) and lists to one `aten::index.Tensor` at the end, so autograd
records each step. Basic indexing gives a view; advanced indexing a copy.

`setitem` writes through the same view of the target's memory (`copy_`,
`fill_` or `index_put_` on it). Where autograd is recording, it rebuilds the
target functionally instead (`index_put`, then `select_scatter` and
`slice_scatter` back up the chain of views) and copies the result into the
target, so the target's history says how it was written.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from ts_schema import registry

from ..autograd.grad_mode import GRAD_MODE
from ..devices import DeviceArray
from ..dtypes import dtype_of_numpy
from ..tensor import DimensionError, Tensor, TensorError, bump_version, normalize_dim, tensor, wrap
from .common import check_inplace_overlap, result, sum_to_shape
from .dispatch import call, derivative, device_dispatch, implements
from .shape import impl, lazy_impl, scalar_in, shape_str, zeros_of

ndarray = np.ndarray
_INDEX_KINDS = "iub"


# ---------------------------------------------------------------------------
# Python indexing


def _parse(self: Tensor, index: Any) -> list[tuple[str, Any]]:
    """The index as steps: ("select", i), ("slice", slice), ("none", None),
    ("ellipsis", n) and ("tensor", t), with the dims each consumes checked."""
    items = index if type(index) is tuple else (index,)
    steps: list[tuple[str, Any]] = []
    consumed = 0
    ellipsis_at = -1
    for item in items:
        if item is None:
            steps.append(("none", None))
        elif item is Ellipsis:
            if ellipsis_at < 0:
                ellipsis_at = len(steps)
                steps.append(("ellipsis", 0))
        elif isinstance(item, bool):
            steps.append(("bool", item))
        elif isinstance(item, int):
            steps.append(("select", item))
            consumed += 1
        elif isinstance(item, slice):
            steps.append(("slice", item))
            consumed += 1
        elif isinstance(item, Tensor) or isinstance(item, (list, np.ndarray)):
            t = item if isinstance(item, Tensor) else tensor(item)
            kind = t._data.dtype.kind
            if kind not in _INDEX_KINDS:
                raise DimensionError(
                    "tensors used as indices must be long, int, byte or bool tensors"
                )
            steps.append(("tensor", t))
            consumed += t._data.ndim if kind == "b" else 1
        elif isinstance(item, np.integer):
            steps.append(("select", int(item)))
            consumed += 1
        else:
            raise DimensionError(
                "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are "
                f"valid indices (got {type(item).__name__})"
            )
    ndim = self._data.ndim
    if consumed > ndim:
        raise DimensionError(f"too many indices for tensor of dimension {ndim}")
    if ellipsis_at >= 0:
        steps[ellipsis_at] = ("ellipsis", ndim - consumed)
    return steps


def _apply_basic(
    self: Tensor, steps: list[tuple[str, Any]], ops: dict[str, Any]
) -> tuple[Tensor, list[tuple[str, int, Any]], list[tuple[int, Tensor]]]:
    """Apply the view steps with `ops`; return the view, the chain of
    (op, dim, args) applied, and the tensor indices with the dim each starts at."""
    result = self
    dim = 0
    chain: list[tuple[str, int, Any]] = []
    tensors: list[tuple[int, Tensor]] = []
    for kind, value in steps:
        if kind == "select":
            chain.append(("select", dim, value))
            result = ops["select"](result, dim, value)
        elif kind == "slice":
            start, stop, step = value.start, value.stop, value.step
            step = 1 if step is None else step
            if step <= 0:
                raise TensorError("step must be greater than zero")
            if not (start is None and stop is None and step == 1):
                chain.append(("slice", dim, (start, stop, step)))
                result = ops["slice"](result, dim, start, stop, step)
            dim += 1
        elif kind == "none":
            chain.append(("unsqueeze", dim, None))
            result = ops["unsqueeze"](result, dim)
            dim += 1
        elif kind == "ellipsis":
            dim += value
        elif kind == "bool":
            chain.append(("unsqueeze", dim, None))
            result = ops["unsqueeze"](result, dim)
            tensors.append((dim, wrap(np.zeros(1 if value else 0, dtype=np.int64))))
            dim += 1
        else:
            tensors.append((dim, value))
            dim += value._data.ndim if value._data.dtype.kind == "b" else 1
    return result, chain, tensors


def _index_list(tensors: list[tuple[int, Tensor]]) -> list[Tensor | None]:
    indices: list[Tensor | None] = []
    covered = 0
    for d, t in tensors:
        while covered < d:
            indices.append(None)
            covered += 1
        indices.append(t)
        covered += t._data.ndim if t._data.dtype.kind == "b" else 1
    return indices


def getitem(self: Tensor, index: Any) -> Tensor:
    """`self[index]` with PyTorch's semantics, through recorded operators."""
    if self._data.__class__ is not ndarray and isinstance(self._data, DeviceArray):
        return _device_getitem(self, index)
    if type(index) is int:
        return _select(self, 0, index)
    steps = _parse(self, index)
    result, _chain, tensors = _apply_basic(self, steps, _RECORDED)
    if tensors:
        return _index(result, _index_list(tensors))
    if result is self:
        return _alias(self)
    return result


#: the C names in PyTorch's message for a number that does not fit a tensor's dtype
_C_NAMES = {
    np.dtype(np.int64): "int64_t",
    np.dtype(np.int32): "int",
    np.dtype(np.int16): "int16_t",
    np.dtype(np.int8): "int8_t",
    np.dtype(np.uint8): "uint8_t",
    np.dtype(np.float32): "float",
}
_FLOAT32_MAX = float(np.finfo(np.float32).max)


def checked_scalar(value: Any, dt: np.dtype) -> Any:
    """A Python number written into a tensor of dtype `dt` (`t[i] = v`, `fill_`), checked as
    PyTorch checks it: NaN, an infinity or a value out of an integer dtype's range (an
    unsigned one takes negatives down to minus its maximum, which wrap), or a finite float
    beyond float32's range, is refused rather than written as garbage."""
    name = _C_NAMES.get(dt)
    if name is None or isinstance(value, bool) or not isinstance(value, (int, float)):
        return value
    if dt.kind == "f":
        ok = not math.isfinite(value) or abs(value) <= _FLOAT32_MAX
    else:
        info = np.iinfo(dt)
        low = -int(info.max) if info.min == 0 else int(info.min)
        if isinstance(value, float):  # compared in double, as PyTorch compares
            ok = math.isfinite(value) and float(low) <= value <= float(info.max)
        else:
            ok = low <= value <= info.max
    if not ok:
        raise TensorError(f"value cannot be converted to type {name} without overflow")
    return value


def _value_tensor(value: Any, like: Tensor) -> Tensor:
    if isinstance(value, Tensor):
        return value
    if isinstance(value, (bool, int, float, complex)):
        dt = like._data.dtype
        return result(scalar_in(checked_scalar(value, dt), dt))
    return tensor(value, dtype=dtype_of_numpy(like._data.dtype))


def setitem(self: Tensor, index: Any, value: Any) -> None:
    """`self[index] = value`: written in place, through views of `self`."""
    if self._data.__class__ is not ndarray and isinstance(self._data, DeviceArray):
        _device_setitem(self, index, value)
        return
    steps = _parse(self, index)
    v = _value_tensor(value, self)
    if GRAD_MODE.enabled and (self._ag is not None or v._ag is not None):
        _setitem_recorded(self, steps, v)
        return
    view, _, tensors = _apply_basic(self, steps, _KERNELS)
    if tensors:
        vd = v._data if v._data.dtype is view._data.dtype else v._data.astype(view._data.dtype)
        _put(view._data, _index_list(tensors), vd, False)
    elif isinstance(value, (bool, int, float)):
        view._data[...] = value
    else:
        _check_broadcast(v._data.shape, view._data.shape)
        check_inplace_overlap(view, (v,))
        view._data[...] = v._data
    bump_version(self)


def _setitem_recorded(self: Tensor, steps: list[tuple[str, Any]], value: Tensor) -> None:
    view, chain, tensors = _apply_basic(self, steps, _RECORDED)
    if value._data.dtype is not view._data.dtype:
        value = _to_copy(value, dtype_of_numpy(view._data.dtype))
    if tensors:
        new = _index_put(view, _index_list(tensors), value, False)
    else:
        _check_broadcast(value._data.shape, view._data.shape)
        while value._data.ndim > view._data.ndim:  # leading size-1 dims, as PyTorch drops them
            value = _squeeze_dim(value, 0)
        new = _expand(value, list(view._data.shape), False)
    # walk back up the chain of views, scattering each new part into its base
    bases = [self]  # bases[i] is the input of chain[i]
    for op, dim, args in chain[:-1]:
        bases.append(_RECORDED[op](bases[-1], dim, *_args(op, args)))
    if not chain:
        bases.clear()
    for (op, dim, args), base in zip(reversed(chain), reversed(bases), strict=True):
        if op == "select":
            new = _select_scatter(base, new, dim, args)
        elif op == "slice":
            new = _slice_scatter(base, new, dim, *args)
        else:
            new = _squeeze_dim(new, dim)
    _copy_(self, new, False)


def _dispatched(key: str) -> Any:
    def op(*args: Any) -> Any:
        operator = registry.get(key)
        return device_dispatch(operator, operator.impl, args)  # type: ignore[arg-type]

    return op


def _device_getitem(self: Tensor, index: Any) -> Tensor:
    """`self[index]` of a tensor on a device: the same steps, each through device dispatch."""
    view, _chain, tensors = _apply_basic(self, _parse(self, index), _DISPATCHED)
    if tensors:
        return call("aten::index", view, _index_list(tensors))
    return call("aten::alias", self) if view is self else view


def _device_setitem(self: Tensor, index: Any, value: Any) -> None:
    view, _chain, tensors = _apply_basic(self, _parse(self, index), _DISPATCHED)
    if tensors:
        call("aten::index_put_", view, _index_list(tensors), _value_tensor(value, self))
    elif isinstance(value, (bool, int, float)):
        call("aten::fill_", view, value)
    else:
        call("aten::copy_", view, _value_tensor(value, self))


def _args(op: str, args: Any) -> tuple[Any, ...]:
    if op == "select":
        return (args,)
    if op == "slice":
        return args
    return ()


def _check_broadcast(src: tuple[int, ...], dst: tuple[int, ...]) -> None:
    if src == dst:
        return
    if len(src) > len(dst):
        lead = src[: len(src) - len(dst)]
        if any(s != 1 for s in lead):
            raise TensorError(
                f"expand(torch.FloatTensor{{{list(src)}}}, size={list(dst)}): the number of sizes "
                f"provided ({len(dst)}) must be greater or equal to the number of dimensions in the tensor ({len(src)})"
            )
        src = src[len(src) - len(dst) :]
    for i in range(1, len(src) + 1):
        a, b = src[-i], dst[-i]
        if a != b and a != 1:
            raise TensorError(
                f"The size of tensor a ({b}) must match the size of tensor b ({a}) at non-singleton "
                f"dimension {len(dst) - i}"
            )


# ---------------------------------------------------------------------------
# Advanced indexing operators


def _index_key(a: ndarray, indices: list[Tensor | None]) -> tuple[Any, ...]:
    """A numpy index for PyTorch's `indices` (None: the whole dim; bool: a mask over
    as many dims as it has; integers: positions), bounds-checked with PyTorch's errors."""
    key: list[Any] = []
    dim = 0
    shapes = []
    for t in indices:
        if t is None:
            key.append(slice(None))
            dim += 1
            continue
        idx = t._data
        kind = idx.dtype.kind
        if kind not in _INDEX_KINDS:
            raise DimensionError("tensors used as indices must be long, int, byte or bool tensors")
        if kind == "b" or idx.dtype == np.uint8:
            mask = idx.astype(bool, copy=False)
            if mask.ndim == 0:
                key.append(mask)
                continue
            for k in range(mask.ndim):
                if dim + k >= a.ndim or mask.shape[k] != a.shape[dim + k]:
                    raise DimensionError(
                        f"The shape of the mask {shape_str(mask.shape)} at index {k} does not match "
                        f"the shape of the indexed tensor {shape_str(a.shape)} at index {dim + k}"
                    )
            nz = mask.nonzero()
            key.extend(nz)
            shapes.extend(n.shape for n in nz)
            dim += mask.ndim
            continue
        if dim >= a.ndim:
            raise DimensionError(f"too many indices for tensor of dimension {a.ndim}")
        size = a.shape[dim]
        if idx.size and (idx.min() < -size or idx.max() >= size):
            bad = idx[(idx < -size) | (idx >= size)].flat[0]
            raise DimensionError(
                f"index {bad} is out of bounds for dimension {dim} with size {size}"
            )
        key.append(idx)
        shapes.append(idx.shape)
        dim += 1
    if dim > a.ndim:
        raise DimensionError(f"too many indices for tensor of dimension {a.ndim}")
    if len(shapes) > 1:
        try:
            np.broadcast_shapes(*shapes)
        except ValueError:
            raise DimensionError(
                "shape mismatch: indexing tensors could not be broadcast together with shapes "
                + ", ".join(shape_str(s) for s in shapes)
            ) from None
    return tuple(key)


@implements("aten::index.Tensor", "aten::index.Tensor_hacked_twin")
def index(self: Tensor, indices: list[Tensor | None]) -> Tensor:
    a = self._data
    r = a[_index_key(a, indices)]
    return result(r if type(r) is ndarray else np.asarray(r))


def _put(a: ndarray, indices: list[Tensor | None], v: ndarray, accumulate: bool) -> None:
    key = _index_key(a, indices)
    target_shape = a[key].shape
    try:
        values = np.broadcast_to(v, target_shape)
    except ValueError:
        raise TensorError(
            f"shape mismatch: value tensor of shape {shape_str(v.shape)} cannot be broadcast to indexing "
            f"result of shape {shape_str(target_shape)}"
        ) from None
    if accumulate:
        np.add.at(a, key, values)
    else:
        a[key] = values


def _check_put_dtype(self: Tensor, values: Tensor) -> None:
    if values._data.dtype is not self._data.dtype:
        raise TensorError(
            "Index put requires the source and destination dtypes match, got "
            f"{self.dtype.scalar_type.name} for the destination and {values.dtype.scalar_type.name} for the source."
        )


@implements("aten::index_put_", "aten::index_put_.hacked_twin")
def index_put_(
    self: Tensor, indices: list[Tensor | None], values: Tensor, accumulate: bool = False
) -> Tensor:
    _check_put_dtype(self, values)
    _put(self._data, indices, values._data, accumulate)
    bump_version(self)
    return self


@implements("aten::index_put", "aten::index_put.hacked_twin")
def index_put(
    self: Tensor, indices: list[Tensor | None], values: Tensor, accumulate: bool = False
) -> Tensor:
    _check_put_dtype(self, values)
    out = self._data.copy()
    _put(out, indices, values._data, accumulate)
    return result(out)


def _index_of(index: Tensor, name: str) -> ndarray:
    idx = index._data
    if idx.dtype.kind not in "iu":
        raise TensorError(f"{name}(): Expected dtype int32/int64 for index")
    return idx


@implements("aten::index_select")
def index_select(self: Tensor, dim: int, index: Tensor) -> Tensor:
    a = self._data
    idx = _index_of(index, "index_select")
    if idx.ndim > 1:
        raise DimensionError("index_select(): Index is supposed to be a vector")
    d = normalize_dim(dim, a.ndim)
    size = a.shape[d] if a.ndim else 1
    if idx.size and (idx.min() < -size or idx.max() >= size):
        raise DimensionError("index out of range in self")
    if a.ndim == 0:
        return result(a.reshape(1)[idx.reshape(-1)].reshape(idx.shape).copy())
    return result(np.take(a, idx.reshape(-1), axis=d))


@implements("aten::index_add")
def index_add(self: Tensor, dim: int, index: Tensor, source: Tensor, alpha: Any = 1) -> Tensor:
    out = wrap(self._data.copy())
    return _index_add_into(out, dim, index, source, alpha)


@implements("aten::index_add_")
def index_add_(self: Tensor, dim: int, index: Tensor, source: Tensor, alpha: Any = 1) -> Tensor:
    _index_add_into(self, dim, index, source, alpha)
    bump_version(self)
    return self


def _index_add_into(out: Tensor, dim: int, index: Tensor, source: Tensor, alpha: Any) -> Tensor:
    a = out._data
    idx = _index_of(index, "index_add").reshape(-1)
    d = normalize_dim(dim, a.ndim)
    size = a.shape[d] if a.ndim else 1
    if idx.size and (idx.min() < -size or idx.max() >= size):
        raise DimensionError("index out of range in self")
    src = source._data
    if alpha != 1:
        src = src * (scalar_in(alpha, src.dtype) if src.dtype.kind in "biu" else alpha)
    if a.ndim == 0:
        if src.size != idx.size:
            raise TensorError("index_add_(): Number of indices should be equal to source.size(dim)")
        np.add.at(a.reshape(1), idx, src.reshape(-1).astype(a.dtype, copy=False))
        return out
    expected = (*a.shape[:d], idx.size, *a.shape[d + 1 :])
    if src.shape != expected:
        if src.size != int(np.prod(expected)):
            raise TensorError(
                f"index_add_(): Source/destination tensor must have same slice shapes. Destination slice "
                f"shape: {shape_str(expected)} at dimension {d} and source slice shape: {shape_str(src.shape)}"
            )
        src = src.reshape(expected)
    np.add.at(a, (slice(None),) * d + (idx,), src.astype(a.dtype, copy=False))
    return out


@implements("aten::index_fill.int_Scalar", "aten::index_fill.int_Tensor")
def index_fill(self: Tensor, dim: int, index: Tensor, value: Any) -> Tensor:
    out = wrap(self._data.copy())
    _index_fill_into(out, dim, index, value)
    return out


@implements("aten::index_fill_.int_Scalar", "aten::index_fill_.int_Tensor")
def index_fill_(self: Tensor, dim: int, index: Tensor, value: Any) -> Tensor:
    _index_fill_into(self, dim, index, value)
    bump_version(self)
    return self


def _index_fill_into(out: Tensor, dim: int, index: Tensor, value: Any) -> None:
    a = out._data
    if isinstance(value, Tensor):
        if value._data.ndim != 0:
            raise TensorError(
                f"index_fill_ only supports a 0-dimensional value tensor, but got tensor with {value._data.ndim} dimension(s)."
            )
        value = value._data.item()
    idx = _index_of(index, "index_fill").reshape(-1)
    d = normalize_dim(dim, a.ndim)
    size = a.shape[d] if a.ndim else 1
    if idx.size and (idx.min() < -size or idx.max() >= size):
        raise DimensionError(
            f"index {idx.max()} is out of bounds for dimension {d} with size {size}"
        )
    if a.ndim == 0:
        if idx.size:
            a[...] = value
        return
    a[(slice(None),) * d + (idx,)] = scalar_in(value, a.dtype)


def _gather_key(a_shape: tuple[int, ...], d: int, idx: ndarray) -> tuple[Any, ...]:
    grids = list(np.indices(idx.shape, sparse=True))
    grids[d] = idx
    return tuple(grids)


def _check_index_range(idx: ndarray, size: int, d: int) -> None:
    if idx.size and (idx.min() < 0 or idx.max() >= size):
        bad = idx[(idx < 0) | (idx >= size)].flat[0]
        raise TensorError(f"index {bad} is out of bounds for dimension {d} with size {size}")


def _check_gather_shapes(
    name: str, a: ndarray, idx: ndarray, d: int, other: ndarray | None = None
) -> None:
    if idx.ndim != max(a.ndim, 1) and not (a.ndim == 0 and idx.ndim <= 1):
        raise TensorError("Index tensor must have the same number of dimensions as input tensor")
    for k in range(idx.ndim):
        if k != d and a.ndim and idx.shape[k] > a.shape[k]:
            raise TensorError(
                f"Size does not match at dimension {k} expected index {shape_str(idx.shape)} to be "
                f"smaller than self {shape_str(a.shape)} apart from dimension {d}"
            )
        if other is not None and idx.shape[k] > other.shape[k]:
            raise TensorError(
                f"Expected index {shape_str(idx.shape)} to be smaller than self {shape_str(a.shape)} apart "
                f"from dimension {d} and to be smaller size than src {shape_str(other.shape)}"
            )


@implements("aten::gather")
def gather(self: Tensor, dim: int, index: Tensor, sparse_grad: bool = False) -> Tensor:
    a = self._data
    idx = _index_of(index, "gather")
    d = normalize_dim(dim, a.ndim)
    if a.ndim == 0:
        _check_index_range(idx, 1, 0)
        return result(np.broadcast_to(a, idx.shape).copy())
    _check_gather_shapes("gather", a, idx, d)
    _check_index_range(idx, a.shape[d], d)
    return result(a[_gather_key(a.shape, d, idx)])


def _scatter_into(
    a: ndarray, dim: int, index: Tensor, src: Any, reduce: str | None, name: str
) -> None:
    idx = _index_of(index, name)
    d = normalize_dim(dim, a.ndim)
    if a.ndim == 0:
        a = a.reshape(1)
        idx = idx.reshape(-1)
    if idx.ndim != a.ndim:
        raise TensorError("Index tensor must have the same number of dimensions as self tensor")
    if isinstance(src, Tensor):
        s = src._data
        if s.dtype is not a.dtype:
            raise TensorError(f"{name}(): Expected self.dtype to be equal to src.dtype")
        if s.ndim and s.ndim != idx.ndim:
            raise TensorError("Index tensor must have the same number of dimensions as src tensor")
        _check_gather_shapes(name, a, idx, d, s if s.ndim else None)
        values: Any = s[tuple(slice(0, n) for n in idx.shape)] if s.ndim else s
    else:
        _check_gather_shapes(name, a, idx, d)
        values = scalar_in(src, a.dtype)
    _check_index_range(idx, a.shape[d], d)
    key = _gather_key(a.shape, d, idx)
    if reduce is None:
        a[key] = values
    elif reduce in ("add", "sum"):
        np.add.at(a, key, np.broadcast_to(values, idx.shape))
    elif reduce in ("multiply", "prod"):
        np.multiply.at(a, key, np.broadcast_to(values, idx.shape))
    else:
        raise TensorError(f"reduce argument must be either add or multiply, got {reduce}")


@implements("aten::scatter.src", "aten::scatter.value")
def scatter(self: Tensor, dim: int, index: Tensor, src: Any) -> Tensor:
    out = self._data.copy()
    _scatter_into(out, dim, index, src, None, "scatter")
    return result(out)


@implements("aten::scatter.reduce", "aten::scatter.value_reduce")
def scatter_reduce(self: Tensor, dim: int, index: Tensor, src: Any, reduce: str) -> Tensor:
    out = self._data.copy()
    _scatter_into(out, dim, index, src, reduce, "scatter")
    return result(out)


@implements("aten::scatter_.src", "aten::scatter_.value")
def scatter_(self: Tensor, dim: int, index: Tensor, src: Any) -> Tensor:
    _scatter_into(self._data, dim, index, src, None, "scatter_")
    bump_version(self)
    return self


@implements("aten::scatter_.reduce", "aten::scatter_.value_reduce")
def scatter_reduce_(self: Tensor, dim: int, index: Tensor, src: Any, reduce: str) -> Tensor:
    _scatter_into(self._data, dim, index, src, reduce, "scatter_")
    bump_version(self)
    return self


@implements("aten::scatter_add")
def scatter_add(self: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    out = self._data.copy()
    _scatter_into(out, dim, index, src, "add", "scatter_add")
    return result(out)


@implements("aten::scatter_add_")
def scatter_add_(self: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    _scatter_into(self._data, dim, index, src, "add", "scatter_add_")
    bump_version(self)
    return self


def _mask_of(mask: Tensor, name: str) -> ndarray:
    m = mask._data
    if m.dtype.kind != "b":
        raise TensorError(f"{name}: expected BoolTensor for mask")
    return m


@implements("aten::masked_select")
def masked_select(self: Tensor, mask: Tensor) -> Tensor:
    m = _mask_of(mask, "masked_select")
    a = self._data
    try:
        a_b, m_b = np.broadcast_arrays(a, m)
    except ValueError:
        raise TensorError(_broadcast_message(a.shape, m.shape)) from None
    return result(a_b[m_b])


def _broadcast_message(a: tuple[int, ...], b: tuple[int, ...]) -> str:
    for i in range(1, min(len(a), len(b)) + 1):
        if a[-i] != b[-i] and a[-i] != 1 and b[-i] != 1:
            return (
                f"The size of tensor a ({a[-i]}) must match the size of tensor b ({b[-i]}) at "
                f"non-singleton dimension {max(len(a), len(b)) - i}"
            )
    return "shapes cannot be broadcast"


@implements("aten::masked_scatter")
def masked_scatter(self: Tensor, mask: Tensor, source: Tensor) -> Tensor:
    m = _mask_of(mask, "masked_scatter_")
    a = self._data
    try:
        shape = np.broadcast_shapes(a.shape, m.shape)
    except ValueError:
        raise TensorError(_broadcast_message(a.shape, m.shape)) from None
    out = np.array(np.broadcast_to(a, shape))
    _masked_scatter_into(out, np.broadcast_to(m, shape), source)
    return result(out)


@implements("aten::masked_scatter_")
def masked_scatter_(self: Tensor, mask: Tensor, source: Tensor) -> Tensor:
    m = _mask_of(mask, "masked_scatter_")
    a = self._data
    try:
        mb = np.broadcast_to(m, a.shape)
    except ValueError:
        raise TensorError(_broadcast_message(a.shape, m.shape)) from None
    _masked_scatter_into(a, mb, source)
    bump_version(self)
    return self


def _masked_scatter_into(out: ndarray, mask: ndarray, source: Tensor) -> None:
    n = int(np.count_nonzero(mask))
    s = source._data.reshape(-1)
    if s.size < n:
        raise TensorError("Number of elements of source < number of ones in mask")
    out[mask] = s[:n]


@implements("aten::nonzero", "aten::argwhere")
def nonzero(self: Tensor) -> Tensor:
    return result(np.argwhere(self._data).astype(np.int64, copy=False))


@implements("aten::where", "aten::nonzero_numpy")
def nonzero_numpy(condition: Tensor) -> list[Tensor]:
    """`torch.where(cond)`: one index tensor per dimension (a 0-dim input counts as 1-dim)."""
    a = condition._data
    return [result(i.astype(np.int64, copy=False)) for i in np.nonzero(np.atleast_1d(a))]


def where_eager(condition: Tensor, *args: Any, **kwargs: Any) -> Any:
    """`tsjit.where`: of a condition alone, a tuple of index tensors, as PyTorch's eager
    `torch.where` gives (compiled code gets the operator's list)."""
    if not args and not kwargs:
        return tuple(call("aten::where", condition))
    return call("aten::where", condition, *args, **kwargs)


where_eager.__name__ = "where"
where_eager._ts_operator = "aten::where"  # type: ignore[attr-defined]

EAGER = {"where": where_eager}


@implements("aten::take")
def take(self: Tensor, index: Tensor) -> Tensor:
    a = self._data
    idx = _index_of(index, "take")
    n = a.size
    if idx.size and (idx.min() < -n or idx.max() >= n):
        bad = idx[(idx < -n) | (idx >= n)].flat[0]
        raise DimensionError(
            f"out of range: tried to access index {bad} on a tensor of {n} elements."
        )
    return result(a.reshape(-1)[idx])


@implements("aten::take_along_dim", autograd=False)
def take_along_dim(self: Tensor, indices: Tensor, dim: int | None = None) -> Tensor:
    if dim is None:
        return _gather(_reshape(self, [-1]), 0, _reshape(indices, [-1]), False)
    a, idx = self._data, indices._data
    if a.ndim == 0 and idx.ndim == 0:
        return _gather(self, 0, indices, False)
    if a.ndim != idx.ndim:
        raise TensorError(
            "torch.take_along_dim(): input and indices should have the same number of dimensions, but got "
            f"{a.ndim} dimensions for input, and {idx.ndim} dimensions for indices"
        )
    d = normalize_dim(dim, a.ndim)
    try:
        broadcast = np.broadcast_shapes(
            (*a.shape[:d], 1, *a.shape[d + 1 :]), (*idx.shape[:d], 1, *idx.shape[d + 1 :])
        )
    except ValueError:
        raise TensorError(
            f"take_along_dim(): input of shape {shape_str(a.shape)} and indices of shape "
            f"{shape_str(idx.shape)} cannot be broadcast outside dimension {d}"
        ) from None
    shape_self = list(broadcast)
    shape_idx = list(shape_self)
    shape_self[d] = a.shape[d]
    shape_idx[d] = idx.shape[d]
    return _gather(_expand(self, shape_self, False), d, _expand(indices, shape_idx, False), False)


# ---------------------------------------------------------------------------
# Writing: copy_, fill_, zero_


@implements("aten::copy_", "aten::copy_.Tensor")
def copy_(self: Tensor, src: Tensor, non_blocking: bool = False) -> Tensor:
    s = src._data
    _check_broadcast(s.shape, self._data.shape)
    check_inplace_overlap(self, (src,))
    self._data[...] = s
    bump_version(self)
    return self


@implements("aten::copy_.int", "aten::copy_.float")
def copy_number_(self: Tensor, other: Any) -> Tensor:
    self._data[...] = scalar_in(other, self._data.dtype)
    bump_version(self)
    return self


@implements("aten::copy")
def copy(self: Tensor, src: Tensor, non_blocking: bool = False) -> Tensor:
    s = src._data
    _check_broadcast(s.shape, self._data.shape)
    out = np.empty_like(self._data)
    out[...] = s
    return result(out)


def _fill_value(value: Any, dt: np.dtype) -> Any:
    if isinstance(value, Tensor):
        if value._data.ndim != 0:
            raise TensorError(
                f"fill_ only supports 0-dimension value tensor but got tensor with {value._data.ndim} dimensions."
            )
        return value._data
    return scalar_in(checked_scalar(value, dt), dt)


@implements("aten::fill_.Scalar", "aten::fill_.Tensor")
def fill_(self: Tensor, value: Any) -> Tensor:
    self._data[...] = _fill_value(value, self._data.dtype)
    bump_version(self)
    return self


@implements("aten::fill.Scalar", "aten::fill.Tensor")
def fill(self: Tensor, value: Any) -> Tensor:
    out = np.empty_like(self._data)
    out[...] = _fill_value(value, out.dtype)
    return result(out)


@implements("aten::zero_")
def zero_(self: Tensor) -> Tensor:
    self._data[...] = 0
    bump_version(self)
    return self


@implements("aten::zero")
def zero(self: Tensor) -> Tensor:
    return result(np.zeros_like(self._data))


# ---------------------------------------------------------------------------
# Derivatives


def _zeros(shape: tuple[int, ...], like: Tensor) -> Tensor:
    return zeros_of(shape, like)


@derivative("aten::index.Tensor", "aten::index.Tensor_hacked_twin", saves=("indices",))
def _d_index(grad, self, indices, *, result):
    return (_index_put(_zeros(self._data.shape, grad), indices, grad, True),)


@derivative("aten::index_put", "aten::index_put.hacked_twin", saves=("indices",))
def _d_index_put(grad, self, indices, values, accumulate=False, *, result):
    g_self = grad if accumulate else _index_put(grad, indices, _zeros((), grad), False)
    return g_self, None, sum_to_shape(_index(grad, indices), values._data.shape)


@derivative("aten::index_select", saves=("index",))
def _d_index_select(grad, self, dim, index, *, result):
    if self._data.ndim == 0:
        return (grad.sum(),)
    return (_index_add(_zeros(self._data.shape, grad), dim, index, grad, 1),)


@derivative("aten::index_add", saves=("index",))
def _d_index_add(grad, self, dim, index, source, alpha=1, *, result):
    g_src = (
        _index_select(grad, dim, index)
        if self._data.ndim
        else grad.reshape([1]).expand([index._data.size])
    )
    if alpha != 1:
        g_src = g_src * alpha
    return grad, None, None, g_src.reshape(list(source._data.shape))


@derivative("aten::index_fill.int_Scalar", "aten::index_fill.int_Tensor", saves=("index",))
def _d_index_fill(grad, self, dim, index, value, *, result):
    g_value = None
    if isinstance(value, Tensor):
        g_value = _index_select(grad, dim, index).sum() if self._data.ndim else grad.sum()
    return _index_fill(grad, dim, index, 0), None, None, g_value


@derivative("aten::gather", saves=("index",))
def _d_gather(grad, self, dim, index, sparse_grad=False, *, result):
    if self._data.ndim == 0:
        return (grad.sum(),)
    return (_scatter_add(_zeros(self._data.shape, grad), dim, index, grad),)


def _pad_to(g: Tensor, shape: tuple[int, ...]) -> Tensor:
    if g._data.shape == shape:
        return g
    pads: list[int] = []
    for have, want in zip(reversed(g._data.shape), reversed(shape), strict=True):
        pads += [0, want - have]
    return _constant_pad(g, pads, 0)


@derivative("aten::scatter.src", "aten::scatter.value", saves=("index",))
def _d_scatter(grad, self, dim, index, src, *, result):
    g_self = _scatter(grad, dim, index, 0)
    g_src = None
    if isinstance(src, Tensor):
        g_src = _pad_to(_gather(grad, dim, index, False), src._data.shape)
    return g_self, None, None, g_src


@derivative("aten::scatter_add", saves=("index",))
def _d_scatter_add(grad, self, dim, index, src, *, result):
    return grad, None, None, _pad_to(_gather(grad, dim, index, False), src._data.shape)


@derivative("aten::masked_select", saves=("mask",))
def _d_masked_select(grad, self, mask, *, result):
    shape = np.broadcast_shapes(self._data.shape, mask._data.shape)
    full = _masked_scatter(_zeros(shape, grad), mask, grad)
    return (sum_to_shape(full, self._data.shape),)


@derivative("aten::masked_scatter", saves=("mask",))
def _d_masked_scatter(grad, self, mask, source, *, result):
    g_self = sum_to_shape(grad.masked_fill(mask, 0), self._data.shape)
    chosen = _masked_select(grad, mask)
    n = source._data.size
    have = chosen._data.size
    if have < n:
        chosen = _cat([chosen, wrap(np.zeros(n - have, dtype=grad._data.dtype))], 0)
    return g_self, None, chosen.reshape(list(source._data.shape))


@derivative("aten::take", saves=("index",))
def _d_take(grad, self, index, *, result):
    flat = wrap(np.zeros(self._data.size, dtype=grad._data.dtype))
    out = _index_put(flat, [_reshape(index, [-1])], _reshape(grad, [-1]), True)
    return (out.reshape(list(self._data.shape)),)


@derivative("aten::copy", saves=())
def _d_copy(grad, self, src, non_blocking=False, *, result):
    shape = src._data.shape
    extra = len(shape) - grad._data.ndim
    # a source with more (size-1) leading dims than the target: sum, then give them back
    g = sum_to_shape(grad, shape[extra:]) if extra > 0 else sum_to_shape(grad, shape)
    if extra > 0:
        g = g.reshape(list(shape))
    if src._data.dtype.kind not in "fc":
        return None, None
    if g._data.dtype is not src._data.dtype:
        g = _to_copy(g, dtype_of_numpy(src._data.dtype))
    return None, g


@derivative("aten::fill.Scalar", "aten::fill.Tensor", saves=())
def _d_fill(grad, self, value, *, result):
    return None, (grad.sum() if isinstance(value, Tensor) else None)


@derivative("aten::zero", saves=())
def _d_zero(grad, self, *, result):
    return (None,)


def _ops(keys: dict[str, str], plain: bool) -> dict[str, Any]:
    out = {}
    for name, key in keys.items():
        f = impl(key)
        out[name] = getattr(f, "__wrapped__", f) if plain else f
    return out


_VIEW_OPS = {
    "select": "aten::select.int",
    "slice": "aten::slice.Tensor",
    "unsqueeze": "aten::unsqueeze",
}
_RECORDED = _ops(_VIEW_OPS, plain=False)
_KERNELS = _ops(_VIEW_OPS, plain=True)
_DISPATCHED = {name: _dispatched(key) for name, key in _VIEW_OPS.items()}
_select = _RECORDED["select"]
_alias = impl("aten::alias")
_index = impl("aten::index.Tensor")
_index_put = impl("aten::index_put")
_index_select = impl("aten::index_select")
_index_add = impl("aten::index_add")
_index_fill = impl("aten::index_fill.int_Scalar")
_gather = impl("aten::gather")
_scatter = impl("aten::scatter.value")
_scatter_add = impl("aten::scatter_add")
_masked_scatter = impl("aten::masked_scatter")
_masked_select = impl("aten::masked_select")
_select_scatter = impl("aten::select_scatter")
_slice_scatter = impl("aten::slice_scatter")
_squeeze_dim = impl("aten::squeeze.dim")
_expand = impl("aten::expand")
_reshape = impl("aten::reshape")
_cat = lazy_impl("aten::cat")  # registered by ops.joins
_copy_ = impl("aten::copy_")


_to_copy_impl = impl("aten::_to_copy")


def _to_copy(t: Tensor, dtype: int) -> Tensor:
    return _to_copy_impl(t, dtype, None, None, None, False, None)


_constant_pad = lazy_impl("aten::constant_pad_nd")


__all__ = ["getitem", "setitem"]
