"""`CudaArray`: the storage of a CUDA tensor.

A `CudaArray` is a view of a device allocation: a byte offset into it, a
shape, strides in bytes and a numpy dtype, the metadata numpy arrays have
(ts-runtime reads `shape`, `strides`, `dtype`, `ndim`, ...). Views share the
allocation, which is freed when the last view goes. Nothing on it reads
device memory implicitly: `to_host()` is the explicit copy (`Tensor.cpu()`,
`item()`, printing), and numpy refuses the array (`ts_runtime.DeviceArray`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from ts_ir import Device
from ts_runtime.devices import DeviceArray, DeviceError

from .driver import Allocation, Driver

CUDA0 = Device("cuda", 0)


def contiguous_strides(shape: tuple[int, ...], itemsize: int) -> tuple[int, ...]:
    strides = []
    step = itemsize
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(reversed(strides))


class CudaArray(DeviceArray):
    """A strided view of device memory (see the module docstring)."""

    __slots__ = ("allocation", "driver", "dtype", "offset", "shape", "strides")

    device = CUDA0

    def __init__(
        self,
        driver: Driver,
        allocation: Allocation,
        offset: int,
        shape: tuple[int, ...],
        strides: tuple[int, ...],
        dtype: np.dtype,
    ) -> None:
        self.driver = driver
        self.allocation = allocation
        self.offset = offset
        self.shape = tuple(shape)
        self.strides = tuple(strides)
        self.dtype = np.dtype(dtype)

    # -- metadata, as numpy names it

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        n = 1
        for s in self.shape:
            n *= s
        return n

    @property
    def itemsize(self) -> int:
        return self.dtype.itemsize

    @property
    def nbytes(self) -> int:
        return self.size * self.dtype.itemsize

    @property
    def data_ptr(self) -> int:
        return self.allocation.ptr + self.offset

    @property
    def storage_offset(self) -> int:
        return self.offset // self.dtype.itemsize

    def is_contiguous(self) -> bool:
        expected = self.dtype.itemsize
        for size, stride in zip(reversed(self.shape), reversed(self.strides), strict=True):
            if size != 1 and stride != expected:
                return False
            expected *= size
        return True

    def byte_extent(self) -> tuple[int, int]:
        """The bytes [low, high) of the allocation, relative to `offset`, the view can touch."""
        low = high = 0
        for size, stride in zip(self.shape, self.strides, strict=True):
            if size == 0:
                return 0, 0
            reach = (size - 1) * stride
            if reach < 0:
                low += reach
            else:
                high += reach
        return low, high + self.dtype.itemsize

    # -- making arrays

    @classmethod
    def empty(cls, driver: Driver, shape: tuple[int, ...], dtype: Any) -> CudaArray:
        dtype = np.dtype(dtype)
        n = 1
        for s in shape:
            n *= s
        allocation = driver.allocate(n * dtype.itemsize)
        return cls(driver, allocation, 0, shape, contiguous_strides(shape, dtype.itemsize), dtype)

    @classmethod
    def from_host(cls, driver: Driver, array: np.ndarray) -> CudaArray:
        """A contiguous device copy of a host array."""
        host = np.ascontiguousarray(array)
        out = cls.empty(driver, host.shape, host.dtype)
        driver.copy_to_device(out.data_ptr, host)
        return out

    def view(
        self, shape: tuple[int, ...], strides: tuple[int, ...], offset: int | None = None
    ) -> CudaArray:
        """Another view of the same memory (`offset` in bytes from the allocation's start)."""
        return CudaArray(
            self.driver,
            self.allocation,
            self.offset if offset is None else offset,
            shape,
            strides,
            self.dtype,
        )

    # -- explicit copies (no kernel: the bytes the view spans move as they are)

    def to_host(self) -> np.ndarray:
        """The elements, copied into a new host array (C order): the bytes the view spans are
        copied, then read with its strides on the host."""
        if self.size == 0:
            return np.empty(self.shape, self.dtype)
        if self.is_contiguous():
            out = np.empty(self.shape, self.dtype)
            self.driver.copy_to_host(out, self.data_ptr)
            return out
        low, high = self.byte_extent()
        span = np.empty(high - low, np.uint8)
        self.driver.copy_to_host(span, self.data_ptr + low)
        strided = np.ndarray(self.shape, self.dtype, span, -low, self.strides)
        return np.ascontiguousarray(strided)

    def copy(self) -> CudaArray:
        """A device copy with the same shape and strides (the spanned bytes, copied on the
        device)."""
        low, high = self.byte_extent()
        allocation = self.driver.allocate(max(high - low, 1))
        self.driver.copy_on_device(allocation.ptr, self.data_ptr + low, high - low)
        return CudaArray(self.driver, allocation, -low, self.shape, self.strides, self.dtype)

    def reshape(self, shape: Any) -> CudaArray:
        """A view with another shape (what `Tensor.item()` asks of a one-element tensor); a
        shape no view can express is an error here (`Tensor.reshape` copies)."""
        from ts_runtime.ops.shape import infer_size, view_strides

        size = tuple(shape) if isinstance(shape, (tuple, list)) else (shape,)
        new = infer_size(size, self.size)
        item = self.dtype.itemsize
        strides = view_strides(self.shape, [s // item for s in self.strides], new)
        if strides is None:
            raise DeviceError("this CUDA array cannot be viewed with that shape; reshape copies")
        return self.view(new, tuple(s * item for s in strides))

    def __repr__(self) -> str:
        return (
            f"<CudaArray {self.dtype} {list(self.shape)} strides={list(self.strides)} "
            f"at 0x{self.data_ptr:x}>"
        )
