"""Generated CUDA C compiled as C++ for the host (g++ and `host_shim.h`), the grid run as loops.

    library = build_host_library(module_source(sources), entries)
    library.launch("tsjit_cuda_...", grid=(2, 1, 1), block=(64, 1, 1), args=[...])

This is how kernels are checked where there is no GPU: the same text nvcc
compiles runs on the CPU, and its results are compared with numpy's. The
shim runs blocks one after another and the threads of a block in turn (as
fibers that switch at `__syncthreads` when the entry has barriers), so the
grid-stride loops, index arithmetic, vector loads and shared-memory
reductions of the generated code all execute; what it cannot show is
anything about the GPU itself (timing, memory coalescing, the CUDA math
library's own rounding: the host's libm stands in for it).

A launcher per entry (`tsh_launch_NAME(grid, block, void **params)`)
takes the arguments as `cuLaunchKernel` does: an array of pointers to each
argument's value. Compiled libraries are cached on disk by the hash of
their source and the compiler's version, in the kernel cache directory
under `cuda-host/`.
"""

from __future__ import annotations

import ctypes
import functools
import hashlib
import os
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from ts_fuser_cpu import cache_dir

from .codegen import Entry
from .driver import Allocation, BlockPool, DeviceInfo, Driver, Module
from .errors import CudaCompileError, CudaLaunchError

SHIM = Path(__file__).parent / "host_shim.h"
#: g++ as the host compiler: IEEE arithmetic without contraction (as the GPU kernels are
#: compiled), wrapping signed arithmetic (numpy's), no fast math.
GXX_OPTIONS = (
    "-std=c++17",
    "-O0",
    "-fPIC",
    "-shared",
    "-ffp-contract=off",
    "-fno-fast-math",
    "-fwrapv",
    "-fno-strict-aliasing",
    "-w",
)

_CTYPES = {"P": ctypes.c_void_p, "q": ctypes.c_int64, "i": ctypes.c_int32, "d": ctypes.c_double}


def find_compiler() -> str | None:
    return os.environ.get("TS_JIT_HOST_CXX") or shutil.which("g++") or shutil.which("c++")


@functools.lru_cache(maxsize=4)
def compiler_version(cxx: str) -> str:
    try:
        out = subprocess.run([cxx, "--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError) as exc:
        raise CudaCompileError(f"{cxx} --version failed: {exc}") from None
    return out.stdout.splitlines()[0].strip() if out.stdout else cxx


def _plain_type(ctype: str) -> str:
    return ctype.replace("__restrict__", "").strip()


def launcher(entry: Entry) -> str:
    """The C++ function that runs `entry`'s grid on the host from a `void **params` array."""
    args = ", ".join(f"*({_plain_type(p.ctype)}*)params[{i}]" for i, p in enumerate(entry.params))
    barriers = "true" if entry.barriers else "false"
    return (
        f"static void tsh_body_{entry.name}(void** params) {{ {entry.name}({args}); }}\n"
        f'extern "C" int tsh_launch_{entry.name}(unsigned gx, unsigned gy, unsigned gz, '
        f"unsigned bx, unsigned by, unsigned bz, void** params) {{\n"
        f"    return ts_host::run_grid({{gx, gy, gz}}, {{bx, by, bz}}, {barriers}, "
        f"tsh_body_{entry.name}, params);\n"
        f"}}\n"
    )


def host_source(source: str, entries: Sequence[Entry]) -> str:
    return source + "\n" + "\n".join(launcher(e) for e in entries)


class HostLibrary:
    """A compiled host library: launch its entries by name."""

    def __init__(self, path: Path, entries: Sequence[Entry]) -> None:
        self.path = path
        self._lib = ctypes.CDLL(str(path))
        self.entries = {e.name: e for e in entries}
        self._functions: dict[str, Any] = {}
        self._lock = threading.Lock()

    def function(self, name: str) -> Any:
        fn = self._functions.get(name)
        if fn is None:
            fn = getattr(self._lib, f"tsh_launch_{name}")
            fn.restype = ctypes.c_int
            fn.argtypes = [ctypes.c_uint] * 6 + [ctypes.c_void_p]
            self._functions[name] = fn
        return fn

    def launch(
        self,
        name: str,
        grid: tuple[int, int, int],
        block: tuple[int, int, int],
        args: Sequence[Any],
    ) -> None:
        """Run entry `name` over the grid; `args` in parameter order, as numbers (pointers as
        integer addresses)."""
        entry = self.entries[name]
        values = [_CTYPES[p.format](a) for p, a in zip(entry.params, args, strict=True)]
        pointers = (ctypes.c_void_p * max(1, len(values)))(*[ctypes.addressof(v) for v in values])
        # one launch at a time: the shim's grid state is global, as a GPU's stream is ordered
        with self._lock:
            status = self.function(name)(*grid, *block, pointers)
        if status:
            raise CudaLaunchError(
                f"{name} called __syncthreads but was launched without barrier support"
                if status == 1
                else f"{name}: the host emulation ran out of memory for its threads"
            )


def require_compiler() -> str:
    cxx = find_compiler()
    if cxx is None:
        raise CudaCompileError("no C++ compiler (g++) was found for the host emulation")
    return cxx


def compile_host_library(source: str, entries: Sequence[Entry]) -> bytes:
    """The shared library of `source` (a whole module, prelude included) and its entries'
    launchers, compiled by g++ with the shim."""
    cxx = require_compiler()
    text = host_source(source, entries)
    with tempfile.TemporaryDirectory(prefix="tsjit-host-") as workdir:
        src = Path(workdir) / "kernels.cpp"
        out = Path(workdir) / "kernels.so"
        src.write_text(text)
        command = [cxx, *GXX_OPTIONS, "-include", str(SHIM), str(src), "-o", str(out)]
        try:
            result = subprocess.run(command, capture_output=True, text=True, timeout=900)
        except (OSError, subprocess.SubprocessError) as exc:
            raise CudaCompileError(f"{cxx} could not run: {exc}", source=text) from None
        if result.returncode != 0 or not out.exists():
            raise CudaCompileError(
                f"{cxx} failed (exit {result.returncode}):\n{result.stderr.strip()}", source=text
            )
        return out.read_bytes()


def load_host_library(image: bytes, entries: Sequence[Entry]) -> HostLibrary:
    """Load a library `compile_host_library` made (from a file named by its hash)."""
    digest = hashlib.sha256(image).hexdigest()[:40]
    for directory in (cache_dir("cuda-host"), Path(tempfile.gettempdir()) / "tsjit-cuda-host"):
        path = directory / f"{digest}.so"
        try:
            if not path.exists() or path.stat().st_size != len(image):
                directory.mkdir(parents=True, exist_ok=True)
                fd, tmp = tempfile.mkstemp(dir=directory, suffix=".so")
                with os.fdopen(fd, "wb") as f:
                    f.write(image)
                os.replace(tmp, path)
            return HostLibrary(path, entries)
        except OSError as exc:
            last = exc
    raise CudaCompileError(f"the host library cannot be loaded: {last}")


def build_host_library(source: str, entries: Sequence[Entry]) -> HostLibrary:
    """Compile and load `source` for the host (no cache: the driver's module cache is the
    cached way)."""
    return load_host_library(compile_host_library(source, entries), entries)


class HostDriver(Driver):
    """A CUDA device emulated in host memory, running the generated kernels compiled by g++.

    Allocations are host buffers (256-byte aligned, as `cudaMalloc`'s; kept for reuse in
    a `BlockPool` as on a GPU), copies are `memmove`s, launches run the grid on the
    calling thread. Grids are kept small
    (`threads` per block, at most `blocks` blocks), so grid-stride loops go round
    several times even on small tensors. It is for checking the CUDA path where there
    is no GPU (install it with `use_driver(HostDriver())`); it is not fast.
    """

    name = "host"

    def __init__(self, *, threads: int = 32, blocks: int = 3) -> None:
        super().__init__()
        cxx = require_compiler()
        self.threads = threads
        self.blocks = blocks
        self.build_options = GXX_OPTIONS
        self.info = DeviceInfo(
            name="host emulation", target="host", toolkit=compiler_version(cxx), multiprocessors=1
        )
        self.allocated = 0  # bytes of blocks made (not counting reuse from the pool)
        self.pool = BlockPool(self._allocate_block)

    def device_count(self) -> int:
        return 1

    def allocate(self, nbytes: int) -> Allocation:
        return self.pool.allocate(nbytes)

    def _allocate_block(self, nbytes: int) -> tuple[int, Any]:
        buffer = np.empty(nbytes + 256, np.uint8)
        self.allocated += nbytes
        return (buffer.ctypes.data + 255) // 256 * 256, buffer

    def copy_to_device(self, dst: int, src: np.ndarray) -> None:
        if src.nbytes:
            ctypes.memmove(dst, np.ascontiguousarray(src).ctypes.data, src.nbytes)

    def copy_to_host(self, dst: np.ndarray, src: int) -> None:
        if dst.nbytes:
            ctypes.memmove(dst.ctypes.data, src, dst.nbytes)

    def copy_on_device(self, dst: int, src: int, nbytes: int) -> None:
        if nbytes:
            ctypes.memmove(dst, src, nbytes)

    def build(self, source: str, entries: Sequence[Entry]) -> bytes:
        return compile_host_library(source, entries)

    def load(self, image: bytes, entries: Sequence[Entry]) -> Module:
        return Module(self, load_host_library(image, entries), entries)

    def launch(
        self,
        module: Module,
        name: str,
        grid: tuple[int, int, int],
        block: tuple[int, int, int],
        args: Sequence[Any],
        shared: int,
    ) -> None:
        module.handle.launch(name, grid, block, args)

    def synchronize(self) -> None:
        pass

    def max_blocks(self) -> int:
        return self.blocks

    def launch_shape(
        self, work: int, threads: int
    ) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
        threads = min(threads, self.threads)
        blocks = max(1, min(-(-work // threads), self.blocks))
        return (blocks, 1, 1), (threads, 1, 1)
