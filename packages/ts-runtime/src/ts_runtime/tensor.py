"""`Tensor`: a numpy array with PyTorch's semantics on top.

The storage is a numpy array (`_data`); views are numpy views, so they share
memory exactly as PyTorch views do. Sizes and strides are reported in
elements. Autograd state lives in `_ag` (an `AutogradMeta`, or None for the
common tensor that neither requires grad nor was produced by a recorded op),
and the version counter in `_version` (a one-element list shared by a tensor
and its views, made on first need). Keeping the plain tensor this small is
what makes the interpreter's per-op cost low.

Operators (`x.add(y)`, `x + y`) are installed on the class by
`ts_runtime.tensor_methods` from the operator library.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from ts_ir import Device, TensorType

from . import devices
from .devices import DeviceArray, DeviceError
from .dtypes import (
    bool_,
    complex64,
    dtype,
    dtype_of_numpy,
    float32,
    get_default_dtype,
    int64,
    numpy_dtype,
    to_dtype,
)
from .errors import DimensionError, TensorError

CPU = Device("cpu")


class Size(tuple):
    """The sizes of a tensor: a tuple that prints as `tsjit.Size([2, 3])`."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"tsjit.Size({list(self)})"

    def numel(self) -> int:
        n = 1
        for s in self:
            n *= s
        return n


class AutogradMeta:
    """Autograd state of a tensor that requires grad or was computed from one."""

    __slots__ = (
        "grad",
        "grad_accumulator",
        "grad_fn",
        "hooks",
        "output_nr",
        "requires_grad",
        "retains_grad",
        "view_version",
    )

    def __init__(
        self, requires_grad: bool = False, grad_fn: Any = None, output_nr: int = 0
    ) -> None:
        self.requires_grad = requires_grad
        self.grad: Tensor | None = None
        self.grad_fn = grad_fn
        self.output_nr = output_nr
        self.retains_grad = False
        self.hooks: list[Any] | None = None
        self.grad_accumulator: Any = None
        # for a view: the version of its storage when this history was set
        self.view_version: int | None = None


class Tensor:
    """An n-dimensional array of one dtype, with autograd. Create with `tsjit.tensor(...)`."""

    __slots__ = ("__weakref__", "_ag", "_base", "_data", "_version", "_view_version")
    _data: np.ndarray
    _ag: AutogradMeta | None
    _base: Tensor | None  # the tensor this one is a view of
    _version: list[int] | None  # shared with views; None until the first in-place write
    _view_version: int

    if TYPE_CHECKING:
        # the operator methods (`t.sigmoid()`, `t + u`, ...) are attached from the
        # registry by tensor_methods; to a type checker they are Any
        def __getattr__(self, name: str) -> Any: ...

    def __new__(cls, data: Any = None, *, requires_grad: bool = False) -> Tensor:
        if isinstance(data, Tensor):
            arr = data._data
        elif data is None:
            arr = np.zeros((0,), dtype=numpy_dtype(get_default_dtype()))
        else:
            arr = as_array(data, None)
        t = object.__new__(cls)
        t._data = arr
        t._version = None
        t._ag = AutogradMeta(True) if requires_grad else None
        t._base = None
        return t

    # -- identity and metadata

    @property
    def shape(self) -> Size:
        return Size(self._data.shape)

    def size(self, dim: int | None = None) -> Any:
        if dim is None:
            return Size(self._data.shape)
        if self._data.ndim == 0:
            raise DimensionError(f"Dimension specified as {dim} but tensor has no dimensions")
        return self._data.shape[normalize_dim(dim, self._data.ndim)]

    def dim(self) -> int:
        return self._data.ndim

    ndimension = dim

    @property
    def ndim(self) -> int:
        return self._data.ndim

    def numel(self) -> int:
        return self._data.size

    nelement = numel

    def stride(self, dim: int | None = None) -> Any:
        item = self._data.itemsize
        strides = tuple(s // item for s in self._data.strides)
        # numpy reports arbitrary strides for size-1 dims of contiguous arrays; keep them as numpy has them
        if dim is None:
            return strides
        if self._data.ndim == 0:
            raise DimensionError(f"Dimension specified as {dim} but tensor has no dimensions")
        return strides[normalize_dim(dim, self._data.ndim)]

    def storage_offset(self) -> int:
        if isinstance(self._data, DeviceArray):
            return self._data.storage_offset
        base = self._data
        while base.base is not None and isinstance(base.base, np.ndarray):
            base = base.base
        offset = self._data.__array_interface__["data"][0] - base.__array_interface__["data"][0]
        return offset // self._data.itemsize

    def is_contiguous(self, memory_format: Any = None) -> bool:
        if isinstance(self._data, DeviceArray):
            return self._data.is_contiguous()
        return is_contiguous_array(self._data)

    @property
    def dtype(self) -> dtype:
        return dtype_of_numpy(self._data.dtype)

    @property
    def device(self) -> Device:
        data = self._data
        return CPU if data.__class__ is np.ndarray else devices.storage_device(data)

    @property
    def is_cuda(self) -> bool:
        return self.device.type == "cuda"

    def get_device(self) -> int:
        d = self.device
        return -1 if d.type == "cpu" else (d.index or 0)

    @property
    def layout(self) -> int:
        return 0  # strided

    def is_floating_point(self) -> bool:
        return self._data.dtype.kind == "f"

    def is_complex(self) -> bool:
        return self._data.dtype.kind == "c"

    def element_size(self) -> int:
        return self._data.itemsize

    def data_ptr(self) -> int:
        if isinstance(self._data, DeviceArray):
            return self._data.data_ptr
        return self._data.__array_interface__["data"][0]

    @property
    def _version_number(self) -> int:
        return 0 if self._version is None else self._version[0]

    def type_for_ir(self) -> TensorType:
        """This tensor's complete IR type (dtype, device, sizes, strides, requires_grad)."""
        return TensorType(
            self.dtype.scalar_type, self.device, self.requires_grad, self._data.shape, self.stride()
        )

    # -- autograd state

    @property
    def requires_grad(self) -> bool:
        if self._base is not None:
            from .autograd.graph import refresh_view

            refresh_view(self)
        ag = self._ag
        return ag is not None and ag.requires_grad

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        self.requires_grad_(value)

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        ag = self._ag
        if ag is not None and ag.grad_fn is not None:
            if not requires_grad:
                raise TensorError(
                    "you can only change requires_grad flags of leaf variables; "
                    "use .detach() to get a tensor that does not require grad"
                )
            return self
        if requires_grad and not (self.is_floating_point() or self.is_complex()):
            raise TensorError(
                "only tensors of floating point and complex dtype can require gradients"
            )
        if requires_grad and isinstance(self._data, DeviceArray):
            raise DeviceError(f"autograd is not implemented for tensors on {self.device}")
        if ag is None:
            if requires_grad:
                self._ag = AutogradMeta(True)
        else:
            ag.requires_grad = requires_grad
        return self

    @property
    def grad(self) -> Tensor | None:
        return None if self._ag is None else self._ag.grad

    @grad.setter
    def grad(self, value: Tensor | None) -> None:
        if self._ag is None:
            self._ag = AutogradMeta(False)
        self._ag.grad = value

    @property
    def grad_fn(self) -> Any:
        if self._base is not None:
            from .autograd.graph import refresh_view

            refresh_view(self)
        return None if self._ag is None else self._ag.grad_fn

    @property
    def is_leaf(self) -> bool:
        return self._ag is None or self._ag.grad_fn is None

    def retain_grad(self) -> None:
        if not self.requires_grad:
            raise TensorError("can't retain_grad on a tensor that has requires_grad=False")
        assert self._ag is not None
        self._ag.retains_grad = True

    def register_hook(self, hook: Any) -> Any:
        """Call `hook(grad)` when this tensor's gradient is computed; it may return a new gradient."""
        if not self.requires_grad:
            raise TensorError("cannot register a hook on a tensor that doesn't require gradient")
        assert self._ag is not None
        if self._ag.hooks is None:
            self._ag.hooks = []
        self._ag.hooks.append(hook)
        hooks = self._ag.hooks

        class _Handle:
            def remove(self) -> None:
                if hook in hooks:
                    hooks.remove(hook)

        return _Handle()

    def detach(self) -> Tensor:
        """A tensor sharing this storage (and version counter) that is not part of autograd."""
        out = make_view(self, self._data)
        out._base = None
        return out

    def detach_(self) -> Tensor:
        self._ag = None
        return self

    @property
    def data(self) -> Tensor:
        return self.detach()

    @data.setter
    def data(self, value: Tensor) -> None:
        self._data = value._data

    def backward(
        self,
        gradient: Tensor | None = None,
        retain_graph: bool | None = None,
        create_graph: bool = False,
    ) -> None:
        from .autograd.engine import backward

        backward([self], [gradient], retain_graph=retain_graph, create_graph=create_graph)

    # -- conversion

    def item(self) -> bool | int | float | complex:
        if self._data.size != 1:
            raise TensorError(
                f"a Tensor with {self._data.size} elements cannot be converted to Scalar"
            )
        return self._data.reshape(()).item()

    def tolist(self) -> Any:
        return self._data.tolist()

    def numpy(self, *, force: bool = False) -> np.ndarray:
        """The underlying numpy array (shared memory, no copy)."""
        if self.requires_grad and not force:
            raise TensorError(
                "can't call numpy() on a tensor that requires grad; use tensor.detach().numpy()"
            )
        if isinstance(self._data, DeviceArray):
            raise DeviceError(
                f"can't convert a tensor on {self.device} to numpy; copy it to the host "
                "first with .cpu()"
            )
        return self._data

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        if isinstance(self._data, DeviceArray):
            return self._data.__array__(dtype)  # refuses, saying how to copy to the host
        return self._data if dtype is None else self._data.astype(dtype)

    def __float__(self) -> float:
        return float(self.item())  # type: ignore[arg-type]

    def __int__(self) -> int:
        return int(self.item())  # type: ignore[arg-type]

    def __complex__(self) -> complex:
        return complex(self.item())

    def __index__(self) -> int:
        if self._data.dtype.kind not in "iub" or self._data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())  # type: ignore[arg-type]

    def __bool__(self) -> bool:
        if self._data.size != 1:
            raise TensorError(
                f"Boolean value of Tensor with {'no values' if self._data.size == 0 else 'more than one value'} is ambiguous"
            )
        return bool(self._data.reshape(()).item())

    def __len__(self) -> int:
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self) -> Iterator[Tensor]:
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        from .ops import dispatch

        return iter(dispatch.call("aten::unbind", self, 0))

    def __hash__(self) -> int:
        return id(self)

    def __repr__(self) -> str:
        from .printing import tensor_repr

        return tensor_repr(self)

    def __format__(self, spec: str) -> str:
        if self._data.ndim == 0:
            return format(self.item(), spec)
        return repr(self)

    def __reduce_ex__(self, protocol: int):
        return (_rebuild, (self._data.copy(), self.requires_grad))

    def __deepcopy__(self, memo: dict) -> Tensor:
        out = type(self).__new__(type(self), self._data.copy())
        if self.requires_grad:
            out.requires_grad_(True)
        memo[id(self)] = out
        return out


def _rebuild(arr: np.ndarray, requires_grad: bool) -> Tensor:
    t = wrap(arr)
    if requires_grad:
        t.requires_grad_(True)
    return t


# ---------------------------------------------------------------------------
# Construction helpers used by every operator

_new = object.__new__


def wrap(arr: np.ndarray | DeviceArray) -> Tensor:
    """A new tensor over `arr` (no copy). The hot path of every operator."""
    t = _new(Tensor)
    t._data = arr  # type: ignore[assignment]  # device storage (devices.DeviceArray) too
    t._version = None
    t._ag = None
    t._base = None
    return t


def make_view(base: Tensor, arr: np.ndarray | DeviceArray) -> Tensor:
    """A tensor over `arr`, a numpy view of `base`'s storage: shares its version counter."""
    t = _new(Tensor)
    t._data = arr  # type: ignore[assignment]  # device storage (devices.DeviceArray) too
    version = base._version
    if version is None:
        version = base._version = [0]
    t._version = version
    t._ag = None
    t._base = base if base._base is None else base._base
    t._view_version = version[0]
    return t


def bump_version(t: Tensor) -> None:
    """Record an in-place modification of `t` (and of every view sharing its storage)."""
    version = t._version
    if version is None:
        t._version = [1]
    else:
        version[0] += 1


def is_contiguous_array(arr: np.ndarray) -> bool:
    if arr.flags.c_contiguous:
        return True
    expected = 1
    for size, stride in zip(reversed(arr.shape), reversed(arr.strides), strict=True):
        if size != 1 and stride != expected * arr.itemsize:
            return False
        expected *= size
    return True


def normalize_dim(dim: int, ndim: int, *, wrap_scalar: bool = True) -> int:
    """A dimension index in [0, ndim), accepting negative indices as PyTorch does."""
    bound = max(ndim, 1) if wrap_scalar else ndim
    if not -bound <= dim < bound:
        raise DimensionError(
            f"Dimension out of range (expected to be in range of [{-bound}, {bound - 1}], but got {dim})"
        )
    return dim + bound if dim < 0 else dim


def _infer_dtype(data: Any) -> dtype:
    """torch.tensor's inference: bools → bool, ints → int64, floats → default dtype, complex → complex64."""
    kinds: set[type] = set()
    stack = [data]
    while stack:
        x = stack.pop()
        if isinstance(x, (list, tuple)):
            stack.extend(x)
        elif isinstance(x, Tensor):
            kinds.add(_kind_of_dtype(x.dtype))
        elif isinstance(x, np.ndarray):
            kinds.add(_kind_of_dtype(dtype_of_numpy(x.dtype)))
        else:
            kinds.add(type(x))
    return _from_kinds(kinds)


def _kind_of_dtype(d: dtype) -> type:
    if d == bool_:
        return bool
    if d.is_complex:
        return complex
    if d.is_floating_point:
        return float
    return int


def _from_kinds(kinds: set[type]) -> dtype:
    if complex in kinds:
        return complex64
    if float in kinds or any(issubclass(k, np.floating) for k in kinds):
        return get_default_dtype()
    if int in kinds or any(issubclass(k, np.integer) for k in kinds):
        return int64
    if bool in kinds or any(issubclass(k, np.bool_) for k in kinds):
        return bool_
    return get_default_dtype()


def as_array(data: Any, d: int | None) -> np.ndarray:
    """A new numpy array holding `data` (nested lists, scalars, tensors, arrays) as dtype `d`."""
    if isinstance(data, Tensor):
        arr = data._data
        return arr.astype(numpy_dtype(d)) if d is not None else arr.copy()
    if isinstance(data, np.ndarray):
        return np.array(data, dtype=numpy_dtype(d) if d is not None else None)
    if d is None:
        d = _infer_dtype(data)
    if isinstance(data, (list, tuple)) and any(isinstance(x, Tensor) for x in _flatten(data)):
        data = _tensors_to_lists(data)
    try:
        return np.array(data, dtype=numpy_dtype(d))
    except (ValueError, TypeError) as exc:
        raise TensorError(f"could not make a tensor of {type(data).__name__}: {exc}") from None


def _flatten(data: Any) -> Iterator[Any]:
    for x in data:
        if isinstance(x, (list, tuple)):
            yield from _flatten(x)
        else:
            yield x


def _tensors_to_lists(data: Any) -> Any:
    if isinstance(data, Tensor):
        return data._data.tolist()
    if isinstance(data, (list, tuple)):
        return [_tensors_to_lists(x) for x in data]
    return data


#: Set by the tracer while it traces: called on each `tensor(...)`, whose result the trace
#: can only hold as a constant (PyTorch warns there too).
TENSOR_FROM_DATA_HOOK: list[Any] = [None]


def tensor(
    data: Any, *, dtype: int | None = None, device: Any = None, requires_grad: bool = False
) -> Tensor:
    """A new tensor holding a copy of `data`, with dtype inferred as torch.tensor does."""
    hook = TENSOR_FROM_DATA_HOOK[0]
    if hook is not None:
        hook()
    target = None if device is None else devices.as_device(device)
    if target is not None and target.type != "cpu":
        if isinstance(data, Tensor):
            return data.to(target, dtype, copy=True).requires_grad_(requires_grad)
        t = wrap(devices.require(target).upload(as_array(data, dtype), target))
        return t.requires_grad_(True) if requires_grad else t
    if isinstance(data, Tensor) and isinstance(data._data, DeviceArray):
        return data.to("cpu", dtype, copy=True).requires_grad_(requires_grad)
    t = wrap(as_array(data, dtype))
    if requires_grad:
        t.requires_grad_(True)
    return t


def as_tensor(data: Any, dtype: int | None = None, device: Any = None) -> Tensor:
    """`data` as a tensor, sharing memory where it already is one (or a numpy array) of that
    dtype (on that device)."""
    target = None if device is None else devices.as_device(device)
    if isinstance(data, Tensor) and (target is not None or isinstance(data._data, DeviceArray)):
        return data.to(data.device if target is None else target, dtype)
    if target is not None and target.type != "cpu":
        return tensor(data, dtype=dtype, device=target)
    if isinstance(data, Tensor) and (dtype is None or data.dtype == dtype):
        return data
    if isinstance(data, np.ndarray) and (dtype is None or data.dtype == numpy_dtype(dtype)):
        return from_numpy(data)
    return tensor(data, dtype=dtype)


def from_numpy(arr: np.ndarray) -> Tensor:
    """A tensor sharing `arr`'s memory (no copy)."""
    if not isinstance(arr, np.ndarray):
        raise TypeError(f"expected a numpy.ndarray, got {type(arr).__name__}")
    dtype_of_numpy(arr.dtype)  # validates
    return wrap(arr)


def check_device(device: Any) -> None:
    """For kernels that take a `device`: the CPU passes, another device raises (see
    `devices.check_device`: it is not available, or the call did not reach its kernels)."""
    if device is not None:
        devices.check_device(device)


def scalar_to_array(value: bool | int | float | complex, d: int) -> np.ndarray:
    return np.array(value, dtype=numpy_dtype(d))


def to_dtype_or_default(d: int | None) -> dtype:
    return get_default_dtype() if d is None else to_dtype(d)


def shapes_of(tensors: Sequence[Tensor]) -> list[tuple[int, ...]]:
    return [t._data.shape for t in tensors]


__all__ = [
    "CPU",
    "AutogradMeta",
    "DimensionError",
    "Size",
    "Tensor",
    "TensorError",
    "as_array",
    "as_tensor",
    "bump_version",
    "check_device",
    "float32",
    "from_numpy",
    "make_view",
    "normalize_dim",
    "tensor",
    "wrap",
]
