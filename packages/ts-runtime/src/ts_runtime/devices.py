"""Tensors on devices other than the CPU: their storage, the packages that provide them.

A tensor's storage (`Tensor._data`) is a numpy array on the CPU, or a
`DeviceArray` on another device. A `DeviceArray` has numpy's metadata
(`shape`, `strides` in bytes, `dtype`, `ndim`, `size`, `itemsize`) but no
host memory: numpy cannot read it (every numpy entry point raises
`DeviceError`), so no operator ever copies device memory to the host behind
the user's back.

A package provides a device type by registering a `DeviceProvider`
(`register_device`), as ts-fuser-cuda does for "cuda" when imported (it is
found through the `ts.fusers` entry point group). The provider says whether
its device is usable here and why not, and gives the kernel of an operator
for its tensors (`kernel_for(op)`), or None: the operator then fails with an
error naming it and the device.

Dispatch to those kernels (`ops.dispatch.device_dispatch`) is switched on
(`ACTIVE`) the first time a device initializes (`require`), so that a
process without one pays nothing for it: eager calls, plans and fused
groups compiled before then run CPU kernels only (plans are keyed on the
switch, so they are compiled again once it is on).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from ts_ir import Device
from ts_schema import Operator

from .errors import TensorError

CPU = Device("cpu")

#: True once a provider's device has initialized: operators then dispatch on device.
ACTIVE = [False]

_lock = threading.RLock()
_providers: dict[str, DeviceProvider] = {}
_entry_points_loaded = [False]


class DeviceError(TensorError):
    """An operation met a tensor on a device it cannot work with, or tensors on two devices."""


class DeviceUnavailableError(DeviceError):
    """A device was asked for that this machine, or this installation, does not have."""


class DeviceNotDispatchedError(DeviceError):
    """A CPU kernel was given another device: the call did not go through device dispatch.

    Eager dispatch catches it the first time a device initializes (the call is
    then dispatched to the device's kernel); anywhere else it says that the
    operation has no implementation for that device.
    """

    def __init__(self, device: Device) -> None:
        super().__init__(
            f"this operation ran its CPU implementation with device={device}; "
            f"it has no implementation for {device.type} tensors"
        )
        self.device = device


class DeviceArray:
    """The storage of a tensor on a device: numpy's metadata, no host access (see the module
    docstring). Subclasses provide `device`, `dtype`, `shape`, `strides`, `ndim`, `size`,
    `itemsize`, `nbytes`, `data_ptr`, `storage_offset`, `is_contiguous()`, `copy()` and
    `to_host()` (an explicit copy to a numpy array)."""

    __slots__ = ()

    device: Device

    def to_host(self) -> Any:
        raise NotImplementedError

    def item(self) -> Any:
        """The single element, copied to the host (as `Tensor.item()` asks)."""
        return self.to_host().item()

    def tolist(self) -> Any:
        return self.to_host().tolist()

    def __array__(self, dtype: Any = None, copy: Any = None) -> Any:
        raise DeviceError(
            f"a tensor on {self.device} cannot be used as a numpy array; "
            "copy it to the host first with .cpu()"
        )

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        raise DeviceError(
            f"numpy's {getattr(ufunc, '__name__', ufunc)} cannot compute on a tensor on "
            f"{self.device}: the operation has no {self.device.type} kernel"
        )

    def __array_function__(self, func: Any, types: Any, args: Any, kwargs: Any) -> Any:
        raise DeviceError(
            f"numpy's {getattr(func, '__name__', func)} cannot read a tensor on "
            f"{self.device}: the operation has no {self.device.type} kernel"
        )


@runtime_checkable
class DeviceProvider(Protocol):
    """What a package providing a device type implements (see the module docstring)."""

    type: str

    def available(self) -> bool:
        """Whether a device can be used here (probed once; cheap afterwards)."""
        ...

    def unavailable_reason(self) -> str:
        """Why not, in a sentence, when `available()` is False."""
        ...

    def device_count(self) -> int: ...

    def synchronize(self, device: Device | None = None) -> None: ...

    def kernel_for(self, op: Operator) -> Callable[..., Any] | None:
        """The implementation of `op` for this device's tensors, or None."""
        ...

    def upload(self, array: Any, device: Device) -> DeviceArray:
        """A copy of a host (numpy) array on `device`."""
        ...


def register_device(provider: DeviceProvider) -> DeviceProvider:
    """Make `provider` the source of tensors of its device type (done by the providing
    package when imported)."""
    if not isinstance(getattr(provider, "type", None), str):
        raise DeviceError(f"device provider {provider!r} has no device type name")
    with _lock:
        _providers[provider.type] = provider
    return provider


def unregister_device(type_name: str) -> DeviceProvider | None:
    with _lock:
        return _providers.pop(type_name, None)


def provider_for(type_name: str) -> DeviceProvider | None:
    """The provider of a device type; the first miss loads the packages of the `ts.fusers`
    entry point group, where device packages declare themselves."""
    provider = _providers.get(type_name)
    if provider is None and not _entry_points_loaded[0]:
        _entry_points_loaded[0] = True
        from ts_passes import fusion_backends

        fusion_backends()
        provider = _providers.get(type_name)
    return provider


def as_device(device: Any) -> Device:
    """A `Device` from a `Device`, a string ("cuda", "cuda:1") or None (the CPU)."""
    if device is None:
        return CPU
    if isinstance(device, Device):
        return device
    if isinstance(device, int) and not isinstance(device, bool):
        return Device("cuda", device)
    try:
        return Device(str(device))
    except ValueError:
        raise DeviceError(
            f"unknown device {device!r}: expected 'cpu', 'cuda' or 'cuda:N'"
        ) from None


def require(device: Any) -> DeviceProvider:
    """The provider of `device`, its device initialized (dispatch is switched on); raises
    `DeviceUnavailableError` saying why when there is none."""
    d = as_device(device)
    provider = provider_for(d.type)
    if provider is None:
        raise DeviceUnavailableError(
            f"{d.type.upper() if d.type == 'cuda' else d.type} is not available: no installed "
            f"package provides {d.type} tensors"
            + (" (install ts-fuser-cuda with its pycuda extra)" if d.type == "cuda" else "")
        )
    if not provider.available():
        raise DeviceUnavailableError(
            f"{d.type.upper() if d.type == 'cuda' else d.type} is not available: "
            f"{provider.unavailable_reason()}"
        )
    count = provider.device_count()
    if d.index is not None and not 0 <= d.index < count:
        raise DeviceUnavailableError(
            f"device {d} does not exist: this machine has {count} {d.type} device(s)"
        )
    ACTIVE[0] = True
    return provider


def is_available(type_name: str) -> bool:
    """Whether tensors of a device type can be made here (initializing the device if so)."""
    provider = provider_for(type_name)
    if provider is None or not provider.available():
        return False
    ACTIVE[0] = True
    return True


def device_count(type_name: str) -> int:
    provider = provider_for(type_name)
    if provider is None or not provider.available():
        return 0
    return provider.device_count()


def synchronize(device: Any = None) -> None:
    """Wait for the work queued on a device (default: the first of type cuda) to finish."""
    d = as_device(device if device is not None else "cuda")
    require(d).synchronize(d)


def deactivate() -> None:
    """Switch device dispatch off again (for tests that switch a device on and off)."""
    ACTIVE[0] = False


def storage_device(data: Any) -> Device:
    """The device of a tensor's storage."""
    return data.device if isinstance(data, DeviceArray) else CPU


def check_device(device: Any) -> None:
    """For CPU kernels that take a `device`: None and the CPU pass; another device raises
    `DeviceUnavailableError` when it is not available, else `DeviceNotDispatchedError`."""
    if device is None:
        return
    d = as_device(device)
    if d.type == "cpu":
        return
    require(d)
    raise DeviceNotDispatchedError(d)


__all__ = [
    "ACTIVE",
    "CPU",
    "DeviceArray",
    "DeviceError",
    "DeviceNotDispatchedError",
    "DeviceProvider",
    "DeviceUnavailableError",
    "as_device",
    "check_device",
    "deactivate",
    "device_count",
    "is_available",
    "provider_for",
    "register_device",
    "require",
    "storage_device",
    "synchronize",
    "unregister_device",
]
