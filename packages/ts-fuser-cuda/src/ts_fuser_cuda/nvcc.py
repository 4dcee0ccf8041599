"""nvcc: finding it, its version, and compiling CUDA C to PTX or a cubin.

    source = module_source(kernels)
    cubin = compile_cubin(source, arch="sm_80")   # what a GPU loads
    ptx = compile_ptx(source, arch="sm_80")       # what the checks compile without a GPU

nvcc is looked for in `$TS_JIT_NVCC`, then `$CUDA_HOME/bin`, then `PATH`.
Every compilation uses the same options (`NVCC_OPTIONS`): no contraction of
multiplies and adds into FMAs (`-fmad=false`), so fused kernels round as the
interpreter does; IEEE division and square root (nvcc's default); warnings
about unused prelude helpers silenced. Any other diagnostic is kept and
reported: a kernel that compiles with warnings is a code generation bug.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from .errors import CudaCompileError, NvccNotFoundError

NVCC_OPTIONS = (
    "-std=c++17",
    "-fmad=false",
    "-diag-suppress",
    "177",  # a prelude helper the module does not call
)


def find_nvcc() -> str | None:
    """The path of nvcc, or None when it cannot be found."""
    explicit = os.environ.get("TS_JIT_NVCC")
    if explicit:
        return explicit if Path(explicit).exists() else None
    home = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH")
    if home and (Path(home) / "bin" / "nvcc").exists():
        return str(Path(home) / "bin" / "nvcc")
    found = shutil.which("nvcc")
    if found:
        return found
    default = Path("/usr/local/cuda/bin/nvcc")
    return str(default) if default.exists() else None


def require_nvcc() -> str:
    nvcc = find_nvcc()
    if nvcc is None:
        raise NvccNotFoundError(
            "nvcc was not found (set TS_JIT_NVCC or CUDA_HOME, or put it on PATH); "
            "CUDA kernels cannot be compiled"
        )
    return nvcc


@functools.lru_cache(maxsize=4)
def nvcc_version(nvcc: str | None = None) -> str:
    """nvcc's release line (`Cuda compilation tools, release 13.0, V13.0.88`): part of every
    cache key, since another toolkit compiles the same source differently."""
    path = nvcc or require_nvcc()
    try:
        out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError) as exc:
        raise NvccNotFoundError(f"{path} --version failed: {exc}") from None
    lines = [line for line in out.stdout.splitlines() if "release" in line]
    return lines[-1].strip() if lines else out.stdout.strip()


def _compile(source: str, arch: str, target: str, extra: tuple[str, ...] = ()) -> bytes:
    nvcc = require_nvcc()
    with tempfile.TemporaryDirectory(prefix="tsjit-nvcc-") as tmp:
        src = Path(tmp) / "kernels.cu"
        out = Path(tmp) / f"kernels.{target}"
        src.write_text(source)
        command = [
            nvcc,
            f"-{target}",
            f"-arch={arch}",
            *NVCC_OPTIONS,
            *extra,
            str(src),
            "-o",
            str(out),
        ]
        try:
            result = subprocess.run(command, capture_output=True, text=True, timeout=600)
        except (OSError, subprocess.SubprocessError) as exc:
            raise CudaCompileError(f"nvcc could not run: {exc}", source=source) from None
        diagnostics = (result.stderr + result.stdout).strip()
        if result.returncode != 0 or not out.exists():
            raise CudaCompileError(
                f"nvcc failed (exit {result.returncode}):\n{diagnostics}", source=source
            )
        if diagnostics:
            raise CudaCompileError(f"nvcc reported:\n{diagnostics}", source=source)
        return out.read_bytes()


def compile_ptx(source: str, arch: str = "sm_80") -> str:
    """PTX for `arch` (compiles without a GPU); raises `CudaCompileError` with nvcc's output."""
    return _compile(source, arch, "ptx").decode()


def compile_ptx_batches(bodies: list[str], arch: str = "sm_80", batches: int = 2) -> list[str]:
    """Kernel sources (without the prelude) compiled to PTX in `batches` compilation units,
    nvcc running on each at once: how many kernels are checked in few nvcc invocations. Raises
    `CudaCompileError` for the first unit nvcc rejects."""
    from concurrent.futures import ThreadPoolExecutor

    from .codegen import module_source

    batches = max(1, min(batches, len(bodies)))
    units = [module_source(bodies[i::batches]) for i in range(batches)]
    with ThreadPoolExecutor(max_workers=batches) as pool:
        return list(pool.map(lambda unit: compile_ptx(unit, arch), units))


def compile_cubin(source: str, arch: str) -> bytes:
    """A cubin for `arch` (`sm_80`), optimized: what a GPU of that compute capability loads."""
    return _compile(source, arch, "cubin", ("-O3",))
