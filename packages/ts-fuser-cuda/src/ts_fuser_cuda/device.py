"""The "cuda" device as ts-runtime sees it: a `DeviceProvider` over the current driver.

Registered when the package is imported (ts-runtime finds the package
through the `ts.fusers` entry point the first time a CUDA device is asked
for). It probes for a GPU only when first asked (`available()`), and hands
ts-runtime's device dispatch the eager kernel of each operator.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from ts_ir import Device
from ts_runtime.devices import DeviceError
from ts_schema import Operator

from .driver import current_driver, unavailable_reason
from .storage import CudaArray


class CudaDevice:
    """ts-runtime's `DeviceProvider` for "cuda"."""

    type = "cuda"

    def __init__(self) -> None:
        self._kernels: dict[str, Callable[..., Any] | None] = {}
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return "<CudaDevice>"

    def available(self) -> bool:
        return current_driver() is not None

    def unavailable_reason(self) -> str:
        return unavailable_reason()

    def device_count(self) -> int:
        d = current_driver()
        return 0 if d is None else d.device_count()

    def synchronize(self, device: Device | None = None) -> None:
        d = current_driver()
        if d is not None:
            d.synchronize()

    def upload(self, array: Any, device: Device) -> Any:
        from .launching import driver

        if device.index not in (None, 0):
            raise DeviceError(f"tensors can be placed on cuda:0 only, not {device}")
        return CudaArray.from_host(driver(), array)

    def kernel_for(self, op: Operator) -> Callable[..., Any] | None:
        kernel = self._kernels.get(op.key, False)
        if kernel is False:
            from .eager import kernel_for

            with self._lock:
                kernel = self._kernels[op.key] = kernel_for(op)
        return kernel  # type: ignore[return-value]


#: The provider registered with ts-runtime.
device = CudaDevice()


def register() -> CudaDevice:
    from ts_runtime.devices import register_device

    register_device(device)
    return device
