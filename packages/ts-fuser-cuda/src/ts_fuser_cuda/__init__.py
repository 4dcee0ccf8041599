"""ts-fuser-cuda: CUDA tensors, eager CUDA kernels, and the CUDA fusion backend.

    import ts_fuser_cuda   # registers the "cuda" fuser and device (also found via `ts.fusers`)

    x = tsjit.randn(8, 1000, device="cuda")       # where pycuda finds a GPU
    ts_fuser_cuda.backend.cuda_source(group, specs)  # the CUDA C of a fusion group

A `prim::FusionGroup` on CUDA tensors is analyzed by the CPU fuser's
specialization with this package's lowerings (`CUDA_LOWERINGS`), written as
CUDA C (`codegen`), compiled by nvcc for the GPU's compute capability and
loaded through pycuda (`driver`), cached in memory and on disk. Eager
operators on CUDA tensors run kernels from the same generator
(`eager.pointwise`), and reductions, matrix products, copies and views of
their own (`eager`). Without a GPU, `HostDriver` runs the same kernels
compiled by g++ (`host`), which is how the tests check them.
"""

from __future__ import annotations

from . import device as _device
from .backend import CudaFuser, backend, register
from .codegen import PRELUDE, GeneratedKernel, generate, module_source
from .driver import Driver, PyCudaDriver, current_driver, unavailable_reason
from .driver import use_driver as _use_driver
from .errors import CudaCompileError, CudaError, CudaLaunchError, NvccNotFoundError
from .host import HostDriver
from .lowerings import CUDA_LOWERINGS, CudaLowering
from .storage import CudaArray


def use_driver(driver: Driver | None) -> Driver | None:
    """Install a driver (a `HostDriver` to run CUDA code on the host); None goes back to
    looking for a GPU. Device dispatch in ts-runtime is switched on with a driver and off
    without. Returns the driver that was in use."""
    from ts_runtime import devices

    previous = _use_driver(driver)
    if driver is not None:
        devices.is_available("cuda")
    else:
        devices.deactivate()
    return previous


register()
_device.register()

__all__ = [
    "CUDA_LOWERINGS",
    "PRELUDE",
    "CudaArray",
    "CudaCompileError",
    "CudaError",
    "CudaFuser",
    "CudaLaunchError",
    "CudaLowering",
    "Driver",
    "GeneratedKernel",
    "HostDriver",
    "NvccNotFoundError",
    "PyCudaDriver",
    "backend",
    "current_driver",
    "generate",
    "module_source",
    "register",
    "unavailable_reason",
    "use_driver",
]
