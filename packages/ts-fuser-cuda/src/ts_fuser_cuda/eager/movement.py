"""Eager kernels that move data: transfers between host and device, copies, views, creation.

- Transfers (`to`, `cuda`, `cpu`, `_to_copy`): the only way data crosses
  between host and device, always asked for by the caller. A conversion of
  dtype happens on the side that has the data: numpy's `astype` before an
  upload, the device copy kernel before a download.
- Copies (`copy_`, `contiguous`, `clone`, `fill_`, `zero_`): the strided copy
  kernel (`copies.py`).
- Views (`view`, `reshape`, `permute`, `select`, `chunk`, ...): geometry only
  (`views.py`), sharing the version counter with their base as CPU views do.
- Creation with `device="cuda"` (`zeros`, `randn`, `arange`, `full_like`,
  ...): the CPU implementation makes the values, which are then uploaded, so
  random numbers are the same as on the CPU with the same seed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from ts_fuser_cpu import UnsupportedFusionError, broadcast_shapes
from ts_ir import Device, DeviceType, OptionalType, TensorType
from ts_runtime.devices import DeviceError, as_device, require
from ts_runtime.dtypes import numpy_dtype
from ts_runtime.tensor import Tensor, TensorError, bump_version, make_view, wrap
from ts_schema import Operator

from ..launching import driver
from ..storage import CudaArray
from . import views
from .copies import contiguous, convert, copy_into

# ---------------------------------------------------------------------------
# transfers


def _check_index(device: Device) -> None:
    if device.type == "cuda" and device.index not in (None, 0):
        require(device)  # a device that does not exist says so
        raise DeviceError(f"tensors can be placed on cuda:0 only, not {device}")


def transfer(t: Tensor, device: Any, dtype: int | None, copy: bool = False) -> Tensor:
    """`t` on `device` (None: where it is) with `dtype` (None: its own); `t` itself when that
    changes nothing and no copy is asked for."""
    data = t._data
    target = t.device if device is None else as_device(device)
    _check_index(target)
    np_dtype = data.dtype if dtype is None else numpy_dtype(dtype)
    if isinstance(data, CudaArray):
        if target.type == "cpu":
            # converted, or made contiguous, on the device: only the elements cross
            data = convert(data, np_dtype) if np_dtype != data.dtype else contiguous(data)
            return wrap(data.to_host())
        if np_dtype != data.dtype:
            return wrap(convert(data, np_dtype))
        return wrap(contiguous(data, force=True)) if copy else t
    if target.type != "cuda":
        raise DeviceError(f"a tensor on {t.device} cannot be moved to {target}")
    require(target)
    host = data if np_dtype == data.dtype else data.astype(np_dtype)
    return wrap(CudaArray.from_host(driver(), host))


def _to_device(self: Tensor, device: Any, dtype: int | None = None, non_blocking: bool = False,
               copy: bool = False, memory_format: Any = None) -> Tensor:  # fmt: skip
    return transfer(self, device, dtype, copy)


def _to_dtype(self: Tensor, dtype: int | None = None, non_blocking: bool = False,
              copy: bool = False, memory_format: Any = None) -> Tensor:  # fmt: skip
    return transfer(self, None, dtype, copy)


def _to_other(self: Tensor, other: Tensor, non_blocking: bool = False, copy: bool = False,
              memory_format: Any = None) -> Tensor:  # fmt: skip
    return transfer(self, other.device, int(other.dtype), copy)


def _to_dtype_layout(self: Tensor, dtype: int | None = None, layout: Any = None,
                     device: Any = None, pin_memory: Any = None, non_blocking: bool = False,
                     copy: bool = False, memory_format: Any = None) -> Tensor:  # fmt: skip
    return transfer(self, device, dtype, copy)


def _to_copy(self: Tensor, dtype: int | None = None, layout: Any = None, device: Any = None,
             pin_memory: Any = None, non_blocking: bool = False,
             memory_format: Any = None) -> Tensor:  # fmt: skip
    return transfer(self, device, dtype, copy=True)


def _to_prim_other(self: Tensor, non_blocking: bool = False, copy: bool = False) -> Tensor:
    return transfer(self, None, None, copy)


TRANSFERS: dict[str, Callable[..., Any]] = {
    "aten::to.device": _to_device,
    "aten::to.prim_Device": _to_device,
    "aten::to.dtype": _to_dtype,
    "aten::to.prim_dtype": _to_dtype,
    "aten::to.other": _to_other,
    "aten::to.dtype_layout": _to_dtype_layout,
    "aten::to.prim_other": _to_prim_other,
    "aten::_to_copy": _to_copy,
    "aten::cuda": lambda self: transfer(self, Device("cuda", 0), None),
    "aten::cpu": lambda self: transfer(self, Device("cpu"), None),
}


# ---------------------------------------------------------------------------
# copies


def _device_array(t: Tensor, name: str) -> CudaArray:
    if not isinstance(t._data, CudaArray):
        raise DeviceError(f"{name}: expected a tensor on cuda, got one on {t.device}")
    return t._data


def copy_(self: Tensor, src: Any, non_blocking: bool = False) -> Tensor:
    """self[...] = src, across devices and dtypes, with broadcasting."""
    if not isinstance(src, Tensor):
        src = wrap(np.asarray(src, dtype=self._data.dtype))
    if isinstance(self._data, CudaArray):
        source = src._data
        if not isinstance(source, CudaArray):
            source = CudaArray.from_host(self._data.driver, source)
        copy_into(self._data, source)
    else:
        host = _device_array(src, "copy_").to_host()
        try:
            np.copyto(self._data, host, casting="unsafe")
        except ValueError:
            raise TensorError(
                f"the source of a copy of shape {list(host.shape)} does not broadcast to the "
                f"destination's shape {list(self._data.shape)}"
            ) from None
    bump_version(self)
    return self


def _fill(self: Tensor, value: Any) -> Tensor:
    a = _device_array(self, "fill_")
    if isinstance(value, Tensor):
        if value._data.ndim != 0:
            raise TensorError(
                "fill_ only supports 0-dimension value tensor but got tensor with "
                f"{value._data.ndim} dimensions."
            )
        source = value._data if isinstance(value._data, CudaArray) else None
        if source is None:
            source = CudaArray.from_host(a.driver, value._data)
    else:
        with np.errstate(all="ignore"):
            source = CudaArray.from_host(a.driver, np.array(value).astype(a.dtype))
    copy_into(a, source)
    bump_version(self)
    return self


def _contiguous(self: Tensor, memory_format: Any = 0) -> Tensor:
    a = _device_array(self, "contiguous")
    out = contiguous(a)
    return self if out is a else wrap(out)


def _clone(self: Tensor, memory_format: Any = None) -> Tensor:
    return wrap(contiguous(_device_array(self, "clone"), force=True))


COPIES: dict[str, Callable[..., Any]] = {
    "aten::copy_": copy_,
    "aten::copy_.Tensor": lambda self, other: copy_(self, other),
    "aten::copy_.int": lambda self, other: copy_(self, other),
    "aten::copy_.float": lambda self, other: copy_(self, other),
    "aten::fill_.Scalar": _fill,
    "aten::fill_.Tensor": _fill,
    "aten::zero_": lambda self: _fill(self, 0),
    "aten::contiguous": _contiguous,
    "aten::clone": _clone,
}


# ---------------------------------------------------------------------------
# views


def _view(fn: Callable[..., Any]) -> Callable[..., Tensor]:
    def kernel(self: Tensor, *args: Any) -> Tensor:
        return make_view(self, fn(_device_array(self, fn.__name__), *args))

    return kernel


def _views(fn: Callable[..., Any]) -> Callable[..., list[Tensor]]:
    def kernel(self: Tensor, *args: Any) -> list[Tensor]:
        return [make_view(self, a) for a in fn(_device_array(self, fn.__name__), *args)]

    return kernel


def _same(a: CudaArray) -> CudaArray:
    return a.view(a.shape, a.strides)


def _broadcast_tensors(tensors: list[Tensor]) -> list[Tensor]:
    arrays = [_device_array(t, "broadcast_tensors") for t in tensors]
    try:
        shape = broadcast_shapes([a.shape for a in arrays])
    except UnsupportedFusionError:
        raise TensorError(
            "shape mismatch: objects cannot be broadcast to a single shape: "
            + ", ".join(str(list(a.shape)) for a in arrays)
        ) from None
    return [
        make_view(t, views.expand(a, list(shape))) for t, a in zip(tensors, arrays, strict=True)
    ]


def _detach(self: Tensor) -> Tensor:
    out = make_view(self, _same(_device_array(self, "detach")))
    out._base = None
    return out


VIEWS: dict[str, Callable[..., Any]] = {
    "aten::view": _view(views.view),
    "aten::reshape": _view(views.reshape),
    "aten::view_as": lambda self, other: _view(views.view)(self, other.shape),
    "aten::reshape_as": lambda self, other: _view(views.reshape)(self, other.shape),
    "aten::flatten.using_ints": _view(views.flatten),
    "aten::permute": _view(views.permute),
    "aten::transpose.int": _view(views.transpose),
    "aten::t": _view(views.t),
    "aten::expand": lambda self, size, implicit=False: _view(views.expand)(self, size),
    "aten::expand_as": lambda self, other: _view(views.expand)(self, other.shape),
    "aten::unsqueeze": _view(views.unsqueeze),
    "aten::squeeze": _view(views.squeeze),
    "aten::squeeze.dim": lambda self, dim: _view(views.squeeze)(self, [dim]),
    "aten::squeeze.dims": _view(views.squeeze),
    "aten::select.int": _view(views.select),
    "aten::slice.Tensor": _view(views.slice_),
    "aten::narrow": _view(views.narrow),
    "aten::split.Tensor": _views(views.split),
    "aten::split.sizes": _views(views.split_sizes),
    "aten::split_with_sizes": _views(views.split_sizes),
    "aten::chunk": _views(views.chunk),
    "aten::unbind.int": _views(views.unbind),
    "aten::alias": _view(_same),
    "aten::broadcast_tensors": _broadcast_tensors,
    "aten::detach": _detach,
}


# ---------------------------------------------------------------------------
# creation


def _device_position(op: Operator) -> int | None:
    for i, arg in enumerate(op.schema.arguments):
        t = arg.type.element if isinstance(arg.type, OptionalType) else arg.type
        if isinstance(t, DeviceType):
            return i
    return None


def factory_kernel(op: Operator) -> Callable[..., Any] | None:
    """Creation with a device (`zeros(..., device="cuda")`, `randn_like(cuda_x)`): the CPU
    implementation makes the values, then they are uploaded. None for other operators."""
    position = _device_position(op)
    returns = op.schema.returns
    if position is None or len(returns) != 1 or not isinstance(returns[0].type, TensorType):
        return None
    if op.impl is None or op.schema.is_mutable:
        return None
    tensors = [i for i, a in enumerate(op.schema.arguments) if isinstance(a.type, TensorType)]
    if any(a.name != "self" for a in (op.schema.arguments[i] for i in tensors)):
        return None  # only `*_like(self, ...)` takes a tensor
    impl = op.impl

    def kernel(*args: Any) -> Tensor:
        target = args[position] if position < len(args) else None
        like = next((args[i] for i in tensors if i < len(args)), None)
        device = as_device(target) if target is not None else like.device  # type: ignore[union-attr]
        if device.type != "cuda":
            raise DeviceError(f"{op.key}: cannot make a tensor on {device} from a cuda tensor")
        _check_index(device)
        require(device)
        host_args = list(args)
        host_args[position] = None
        host = impl(*host_args)
        return wrap(CudaArray.from_host(driver(), host._data))

    return kernel
