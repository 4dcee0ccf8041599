"""Drivers: what allocates device memory, copies it, compiles and launches kernels.

    driver = current_driver()        # None where no GPU can be used; `unavailable_reason()` says why
    a = driver.allocate(1024)
    driver.copy_to_device(a.ptr, host_array)

`PyCudaDriver` is the real one: the primary context of GPU 0 through
pycuda, modules compiled by nvcc for the device's compute capability
(`nvcc.compile_cubin`) and loaded with `module_from_buffer`, kernels
launched with `prepared_call`. It is chosen when pycuda imports, the CUDA
driver initializes and a device is found; otherwise there is no driver and
CUDA is unavailable, with the reason (`unavailable_reason()`).

`HostDriver` (in `host.py`) emulates a device in host memory and runs the
same generated kernels compiled by g++; it is never chosen by itself:
`use_driver(HostDriver())` installs it, which is how the tests exercise the
whole CUDA path (storage, eager kernels, fused kernels, launches) on
machines without a GPU.

Compiled modules are cached in memory per driver and on disk (`DiskCache`
under `cuda-kernels/`) by a hash of the source, the driver's target (the
compute capability) and its toolkit (the nvcc or g++ version).
"""

from __future__ import annotations

import atexit
import hashlib
import importlib.util
import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from ts_fuser_cpu import DiskCache

from .codegen import Entry
from .errors import CudaError, CudaLaunchError

log = logging.getLogger("ts_fuser_cuda")

FORMAT_VERSION = 1
MAGIC = b"TSJIT-CUDA-MODULE 1\n"


class Allocation:
    """A block of device memory; freed (or returned to its pool) when the last reference to it
    goes."""

    __slots__ = ("__weakref__", "handle", "nbytes", "pool", "ptr")

    def __init__(self, ptr: int, nbytes: int, handle: Any, pool: BlockPool | None = None) -> None:
        self.ptr = ptr
        self.nbytes = nbytes
        self.handle = handle  # what keeps the memory alive (pycuda's DeviceAllocation, a buffer)
        self.pool = pool

    def __del__(self) -> None:
        pool = self.pool
        if pool is not None:
            try:
                pool.give_back(self.ptr, self.handle)
            except Exception:  # at interpreter shutdown the pool may be gone already
                pass

    def __repr__(self) -> str:
        return f"<Allocation 0x{self.ptr:x} {self.nbytes} bytes>"


class BlockPool:
    """Device memory blocks kept for reuse, by size, as PyTorch's caching allocator keeps them.

    Allocating device memory (`cuMemAlloc`) costs tens of microseconds, as
    much as a fused kernel on a million elements runs: outputs of one call
    reuse the blocks the previous call's temporaries gave back. Every
    kernel and copy runs on one stream, in order, so a block given back while
    a kernel that used it is still queued is only reused by work queued
    after it. Sizes are rounded up to 512 bytes; at most `limit` bytes are
    kept, beyond which blocks are freed.
    """

    ROUND = 512

    def __init__(self, allocate: Any, limit: int = 1 << 30) -> None:
        self._allocate = allocate  # nbytes -> (ptr, handle)
        self.limit = limit
        self.cached = 0
        self._free: dict[int, list[tuple[int, Any]]] = {}
        self._sizes: dict[int, int] = {}  # ptr -> rounded size
        self._lock = threading.Lock()

    def allocate(self, nbytes: int) -> Allocation:
        size = max(self.ROUND, -(-nbytes // self.ROUND) * self.ROUND)
        with self._lock:
            blocks = self._free.get(size)
            if blocks:
                ptr, handle = blocks.pop()
                self.cached -= size
                return Allocation(ptr, nbytes, handle, self)
        ptr, handle = self._allocate(size)
        with self._lock:
            self._sizes[ptr] = size
        return Allocation(ptr, nbytes, handle, self)

    def give_back(self, ptr: int, handle: Any) -> None:
        with self._lock:
            size = self._sizes.get(ptr)
            if size is None:
                return
            if self.cached + size <= self.limit:
                self._free.setdefault(size, []).append((ptr, handle))
                self.cached += size
            else:
                del self._sizes[ptr]  # the handle goes with this frame: the block is freed

    def empty(self) -> None:
        """Free every kept block."""
        with self._lock:
            for blocks in self._free.values():
                for ptr, _ in blocks:
                    self._sizes.pop(ptr, None)
            self._free.clear()
            self.cached = 0


class Module:
    """A loaded compilation unit: its entries by name, launched through the driver."""

    def __init__(self, driver: Driver, handle: Any, entries: Sequence[Entry]) -> None:
        self.driver = driver
        self.handle = handle
        self.entries = {e.name: e for e in entries}
        self.functions: dict[str, Any] = {}

    def launch(
        self,
        name: str,
        grid: tuple[int, int, int],
        block: tuple[int, int, int],
        args: Sequence[Any],
        shared: int = 0,
    ) -> None:
        self.driver.launch(self, name, grid, block, args, shared)


@dataclass(frozen=True)
class DeviceInfo:
    name: str
    target: str  # sm_80, or "host" for the emulation
    toolkit: str  # the compiler's version line
    multiprocessors: int


class Driver:
    """What the CUDA backend needs from a device (see the module docstring)."""

    name = "driver"
    info: DeviceInfo

    def device_count(self) -> int:
        raise NotImplementedError

    def allocate(self, nbytes: int) -> Allocation:
        raise NotImplementedError

    def copy_to_device(self, dst: int, src: np.ndarray) -> None:
        raise NotImplementedError

    def copy_to_host(self, dst: np.ndarray, src: int) -> None:
        raise NotImplementedError

    def copy_on_device(self, dst: int, src: int, nbytes: int) -> None:
        raise NotImplementedError

    def build(self, source: str, entries: Sequence[Entry]) -> bytes:
        """Compile a whole module to the image `load` takes."""
        raise NotImplementedError

    def load(self, image: bytes, entries: Sequence[Entry]) -> Module:
        raise NotImplementedError

    def launch(
        self,
        module: Module,
        name: str,
        grid: tuple[int, int, int],
        block: tuple[int, int, int],
        args: Sequence[Any],
        shared: int,
    ) -> None:
        raise NotImplementedError

    def synchronize(self) -> None:
        raise NotImplementedError

    def max_blocks(self) -> int:
        """How many blocks a grid-stride launch needs at most to fill the device."""
        return self.info.multiprocessors * 8

    def launch_shape(
        self, work: int, threads: int
    ) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
        """(grid, block) of a grid-stride launch over `work` items with up to `threads` per block."""
        blocks = max(1, min(-(-work // threads), self.max_blocks()))
        return (blocks, 1, 1), (threads, 1, 1)

    # -- modules, cached

    def __init__(self) -> None:
        self._modules: dict[str, Module] = {}
        self._module_lock = threading.RLock()
        self.disk_cache = DiskCache(folder="cuda-kernels", magic=MAGIC, logger=log)
        self.compiled = 0
        self.disk_hits = 0

    #: compiler options that change the image (part of the cache key)
    build_options: tuple[str, ...] = ()

    def module_key(self, source: str, entries: Sequence[Entry]) -> str:
        parts = (
            FORMAT_VERSION,
            source,
            [(e.name, e.params, e.barriers) for e in entries],
            self.info.target,
            self.info.toolkit,
            self.name,
            self.build_options,
        )
        return hashlib.sha256(repr(parts).encode()).hexdigest()

    def module(self, source: str, entries: Sequence[Entry]) -> Module:
        """The loaded module of `source`: from memory, else the disk cache, else compiled."""
        key = self.module_key(source, entries)
        with self._module_lock:
            module = self._modules.get(key)
            if module is not None:
                return module
            image = self.disk_cache.load(key)
            if image is None:
                image = self.build(source, entries)
                self.disk_cache.store(key, image)
                self.compiled += 1
            else:
                self.disk_hits += 1
            module = self._modules[key] = self.load(image, entries)
            return module


class PyCudaDriver(Driver):
    """GPU 0 through pycuda (see the module docstring)."""

    name = "pycuda"

    def __init__(self) -> None:
        super().__init__()
        try:
            import pycuda.driver as cuda
        except ImportError as exc:
            raise CudaError(f"pycuda cannot be imported: {exc}") from None

        from . import nvcc

        cuda.init()
        if cuda.Device.count() == 0:
            raise CudaError("the CUDA driver found no device")
        self.cuda = cuda
        self.device = cuda.Device(0)
        self.context = self.device.retain_primary_context()
        self.context.push()
        atexit.register(self._release)
        major, minor = self.device.compute_capability()
        sms = self.device.get_attribute(cuda.device_attribute.MULTIPROCESSOR_COUNT)
        self.info = DeviceInfo(
            name=self.device.name(),
            target=f"sm_{major}{minor}",
            toolkit=nvcc.nvcc_version(),
            multiprocessors=int(sms),
        )
        self.build_options = nvcc.NVCC_OPTIONS
        self.pool = BlockPool(self._allocate_block)

    def _release(self) -> None:
        try:
            self.context.pop()
        except Exception:  # the context may be gone at exit already
            pass

    def device_count(self) -> int:
        return int(self.cuda.Device.count())

    def allocate(self, nbytes: int) -> Allocation:
        return self.pool.allocate(nbytes)

    def _allocate_block(self, nbytes: int) -> tuple[int, Any]:
        handle = self.cuda.mem_alloc(nbytes)
        return int(handle), handle

    def copy_to_device(self, dst: int, src: np.ndarray) -> None:
        if src.nbytes:
            self.cuda.memcpy_htod(dst, src)

    def copy_to_host(self, dst: np.ndarray, src: int) -> None:
        if dst.nbytes:
            self.cuda.memcpy_dtoh(dst, src)

    def copy_on_device(self, dst: int, src: int, nbytes: int) -> None:
        if nbytes:
            self.cuda.memcpy_dtod(dst, src, nbytes)

    def build(self, source: str, entries: Sequence[Entry]) -> bytes:
        from .nvcc import compile_cubin

        return compile_cubin(source, self.info.target)

    def load(self, image: bytes, entries: Sequence[Entry]) -> Module:
        try:
            handle = self.cuda.module_from_buffer(image)
        except self.cuda.Error as exc:
            # a toolkit newer than the driver, say: the group runs in the interpreter
            raise CudaLaunchError(f"the device cannot load the module: {exc}") from None
        module = Module(self, handle, entries)
        for e in entries:
            fn = handle.get_function(e.name)
            fn.prepare("".join(p.format for p in e.params))
            module.functions[e.name] = fn
        return module

    def launch(
        self,
        module: Module,
        name: str,
        grid: tuple[int, int, int],
        block: tuple[int, int, int],
        args: Sequence[Any],
        shared: int,
    ) -> None:
        try:
            module.functions[name].prepared_call(grid, block, *args, shared_size=shared)
        except self.cuda.Error as exc:
            raise CudaLaunchError(f"launching {name} failed: {exc}") from None

    def synchronize(self) -> None:
        self.cuda.Context.synchronize()


# ---------------------------------------------------------------------------
# which driver


_state: dict[str, Any] = {"driver": None, "probed": False, "reason": "", "explicit": False}
_lock = threading.RLock()


def _probe() -> None:
    if importlib.util.find_spec("pycuda") is None:
        _state["reason"] = (
            "pycuda is not installed (install ts-fuser-cuda[pycuda] on a machine with an "
            "NVIDIA GPU and driver)"
        )
        return
    try:
        _state["driver"] = PyCudaDriver()
    except CudaError as exc:  # pycuda does not import, no device
        _state["reason"] = str(exc)
    except Exception as exc:  # the driver's own errors: no driver library, ...
        _state["reason"] = f"the CUDA driver cannot be used: {exc}"


def current_driver() -> Driver | None:
    """The driver in use: one installed with `use_driver`, else pycuda's if a GPU is found."""
    with _lock:
        if not _state["probed"] and not _state["explicit"]:
            _state["probed"] = True
            _probe()
            if _state["driver"] is not None:
                info = _state["driver"].info
                log.info("CUDA device: %s (%s, %s)", info.name, info.target, info.toolkit)
            else:
                log.info("CUDA is not available: %s", _state["reason"])
        return _state["driver"]


def unavailable_reason() -> str:
    current_driver()
    return _state["reason"] or "no driver is installed"


def use_driver(driver: Driver | None) -> Driver | None:
    """Install `driver` (a `HostDriver`, say) as the device; None goes back to probing for a
    GPU. Returns the driver that was in use."""
    with _lock:
        previous = _state["driver"]
        if driver is None:
            _state.update(driver=None, probed=False, reason="", explicit=False)
        else:
            _state.update(driver=driver, probed=True, reason="", explicit=True)
        return previous
