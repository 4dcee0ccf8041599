"""`tsjit.cuda`, as `torch.cuda`: whether CUDA tensors can be made here, and waiting for them.

    import tsjit as torch
    if torch.cuda.is_available():
        x = torch.randn(8, 1000, device="cuda")

CUDA tensors come from ts-fuser-cuda (installed with its `pycuda` extra, on
a machine with an NVIDIA GPU and driver). Where there is none,
`is_available()` is False and asking for a CUDA tensor raises
`DeviceUnavailableError` saying why.
"""

from __future__ import annotations

from typing import Any

from ts_runtime import devices


def is_available() -> bool:
    """Whether a CUDA device can be used (the first call looks for one)."""
    return devices.is_available("cuda")


def device_count() -> int:
    """How many CUDA devices there are (0 without CUDA)."""
    return devices.device_count("cuda")


def synchronize(device: Any = None) -> None:
    """Wait until the work queued on a CUDA device has finished."""
    devices.synchronize(device if device is not None else "cuda")


def current_device() -> int:
    """The index of the device CUDA tensors are made on (tsjit places them on device 0)."""
    devices.require("cuda")
    return 0


def unavailable_reason() -> str | None:
    """Why CUDA cannot be used here, or None when it can."""
    provider = devices.provider_for("cuda")
    if provider is None:
        return "no installed package provides cuda tensors (install ts-fuser-cuda)"
    return None if provider.available() else provider.unavailable_reason()


__all__ = ["current_device", "device_count", "is_available", "synchronize", "unavailable_reason"]
