"""The errors ts-fuser-cuda raises; all derive from ts-ir's `TorchScriptError`."""

from __future__ import annotations

from ts_ir import TorchScriptError


class CudaError(TorchScriptError):
    """The CUDA backend was misused or failed."""


class NvccNotFoundError(CudaError):
    """nvcc, which compiles every CUDA kernel, cannot be found or run."""


class CudaCompileError(CudaError):
    """A compiler (nvcc, or g++ for the host emulation) rejected generated code.

    `source` is the compilation unit, for the report.
    """

    def __init__(self, message: str, *, source: str = "") -> None:
        super().__init__(message)
        self.source = source


class CudaLaunchError(CudaError):
    """A kernel launch or a memory operation failed on the device."""
