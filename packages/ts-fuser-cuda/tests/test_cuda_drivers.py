"""Where CUDA cannot be used, and how the pycuda driver is driven.

Without a driver (here: pycuda not installed, or no GPU), CUDA is
unavailable with a reason, asking for a CUDA tensor raises
`DeviceUnavailableError` saying why, and plans never dispatch to a device.

`PyCudaDriver` itself needs a GPU. What can be checked without one is that it
calls pycuda's API as pycuda defines it: a stand-in `pycuda.driver` with the
same functions (`init`, `Device`, `mem_alloc`, `memcpy_*`,
`module_from_buffer`, `Function.prepare`/`prepared_call`, `Context`) checks
each call's arguments (the parameter buffer is packed with `struct`, as
pycuda packs it) and runs launches on the host. It is not pycuda: this shows
the wiring, not that a GPU computes the results.
"""

from __future__ import annotations

import ctypes
import importlib.machinery
import struct
import sys
import types

import numpy as np
import pytest
import ts_fuser_cuda
import ts_runtime as ts
from cuda_testing import record
from ts_fuser_cuda import driver as driver_module
from ts_fuser_cuda.host import compile_host_library, load_host_library
from ts_fuser_cuda.nvcc import find_nvcc
from ts_ir import parse_ir
from ts_runtime import devices
from ts_runtime.devices import DeviceUnavailableError


@pytest.fixture
def no_gpu(monkeypatch):
    """No driver installed and no pycuda: what every machine without a GPU sees."""
    monkeypatch.setattr(driver_module.importlib.util, "find_spec", lambda name: None)
    previous = ts_fuser_cuda.use_driver(None)
    try:
        yield
    finally:
        ts_fuser_cuda.use_driver(previous)


def test_cuda_is_unavailable_with_the_reason(no_gpu):
    assert not devices.is_available("cuda")
    assert devices.device_count("cuda") == 0
    assert "pycuda is not installed" in ts_fuser_cuda.unavailable_reason()
    assert not devices.ACTIVE[0]
    for ask in (
        lambda: ts.ones(2).cuda(),
        lambda: ts.ones(2).to("cuda"),
        lambda: ts.zeros(3, device="cuda"),
        lambda: ts.tensor([1.0], device="cuda:0"),
        lambda: devices.synchronize("cuda"),
    ):
        with pytest.raises(DeviceUnavailableError, match="CUDA is not available: pycuda"):
            ask()
    assert not devices.ACTIVE[0]


def test_scripted_code_asking_for_cuda_says_it_is_unavailable(no_gpu):
    text = """graph(%x : Tensor):
  %y : Tensor = aten::cuda(%x)
  return (%y)
"""
    fn = ts.Function("f", parse_ir(text))
    with pytest.raises(DeviceUnavailableError, match="pycuda is not installed"):
        fn(ts.ones(2))


def test_a_device_other_than_cuda_0(host_cuda):
    with pytest.raises(DeviceUnavailableError, match="does not exist"):
        ts.ones(2).to("cuda:1")


# ---------------------------------------------------------------------------
# a stand-in for pycuda.driver


class FakeError(Exception):
    pass


def fake_pycuda(*, devices_found: int = 1, init_error: str | None = None) -> types.ModuleType:
    """A module with pycuda.driver's API, running launches on the host (see the docstring)."""
    cuda = types.ModuleType("pycuda.driver")
    cuda.calls = []  # type: ignore[attr-defined]
    buffers: dict[int, np.ndarray] = {}
    cuda.Error = FakeError  # type: ignore[attr-defined]

    def init() -> None:
        if init_error:
            raise FakeError(init_error)

    class Context:
        def push(self) -> None:
            cuda.calls.append("push")

        def pop(self) -> None:
            cuda.calls.append("pop")

        @staticmethod
        def synchronize() -> None:
            cuda.calls.append("synchronize")

    class Device:
        def __init__(self, ordinal: int) -> None:
            assert isinstance(ordinal, int) and 0 <= ordinal < devices_found

        @staticmethod
        def count() -> int:
            return devices_found

        def compute_capability(self) -> tuple[int, int]:
            return (8, 0)

        def name(self) -> str:
            return "stand-in device"

        def get_attribute(self, attribute: object) -> int:
            assert attribute == "MULTIPROCESSOR_COUNT"
            return 2

        def retain_primary_context(self) -> Context:
            return Context()

    class DeviceAllocation:
        def __init__(self, nbytes: int) -> None:
            buffer = np.zeros(nbytes + 256, np.uint8)
            self.ptr = (buffer.ctypes.data + 255) // 256 * 256
            buffers[self.ptr] = buffer

        def __int__(self) -> int:
            return self.ptr

    def mem_alloc(nbytes: int) -> DeviceAllocation:
        assert isinstance(nbytes, int) and nbytes > 0
        return DeviceAllocation(nbytes)

    def memcpy_htod(dest: int, src: np.ndarray) -> None:
        assert isinstance(dest, int) and isinstance(src, np.ndarray) and src.flags.c_contiguous
        ctypes.memmove(dest, src.ctypes.data, src.nbytes)
        cuda.calls.append("htod")

    def memcpy_dtoh(dest: np.ndarray, src: int) -> None:
        assert isinstance(src, int) and isinstance(dest, np.ndarray) and dest.flags.c_contiguous
        ctypes.memmove(dest.ctypes.data, src, dest.nbytes)
        cuda.calls.append("dtoh")

    def memcpy_dtod(dest: int, src: int, size: int) -> None:
        assert isinstance(dest, int) and isinstance(src, int) and isinstance(size, int)
        ctypes.memmove(dest, src, size)

    class Function:
        def __init__(self, library: object, name: str) -> None:
            self.library, self.name, self.arg_format = library, name, None

        def prepare(self, arg_types: str) -> Function:
            assert isinstance(arg_types, str) and set(arg_types) <= set("Pqid")
            self.arg_format = arg_types
            return self

        def prepared_call(self, grid, block, *args, shared_size=0):
            assert self.arg_format is not None, "prepared_call before prepare"
            assert isinstance(grid, tuple) and 1 <= len(grid) <= 3
            assert isinstance(block, tuple) and 1 <= len(block) <= 3
            assert isinstance(shared_size, int)
            struct.pack(self.arg_format, *args)  # what pycuda packs: raises for a wrong type
            grid3 = (*grid, 1, 1)[:3]
            block3 = (*block, 1, 1)[:3]
            self.library.launch(self.name, grid3, block3, args)  # type: ignore[attr-defined]
            cuda.calls.append(f"launch {self.name}")

    class Module:
        def __init__(self, library: object) -> None:
            self.library = library

        def get_function(self, name: str) -> Function:
            return Function(self.library, name)

    def module_from_buffer(image: bytes) -> Module:
        assert isinstance(image, bytes)
        return Module(load_host_library(image, cuda.entries))  # type: ignore[attr-defined]

    cuda.init = init  # type: ignore[attr-defined]
    cuda.Device = Device  # type: ignore[attr-defined]
    cuda.Context = Context  # type: ignore[attr-defined]
    cuda.device_attribute = types.SimpleNamespace(MULTIPROCESSOR_COUNT="MULTIPROCESSOR_COUNT")  # type: ignore[attr-defined]
    cuda.mem_alloc = mem_alloc  # type: ignore[attr-defined]
    cuda.memcpy_htod = memcpy_htod  # type: ignore[attr-defined]
    cuda.memcpy_dtoh = memcpy_dtoh  # type: ignore[attr-defined]
    cuda.memcpy_dtod = memcpy_dtod  # type: ignore[attr-defined]
    cuda.module_from_buffer = module_from_buffer  # type: ignore[attr-defined]
    return cuda


@pytest.fixture
def with_fake_pycuda(monkeypatch):
    def install(**kwargs):
        cuda = fake_pycuda(**kwargs)
        package = types.ModuleType("pycuda")
        package.__spec__ = importlib.machinery.ModuleSpec("pycuda", None)
        package.driver = cuda  # type: ignore[attr-defined]
        monkeypatch.setitem(sys.modules, "pycuda", package)
        monkeypatch.setitem(sys.modules, "pycuda.driver", cuda)
        return cuda

    previous = ts_fuser_cuda.use_driver(None)
    try:
        yield install
    finally:
        ts_fuser_cuda.use_driver(previous)


def test_a_cuda_driver_that_fails_to_initialize_is_reported(with_fake_pycuda):
    with_fake_pycuda(init_error="cuInit failed: no CUDA-capable device is detected")
    assert ts_fuser_cuda.current_driver() is None
    assert "no CUDA-capable device" in ts_fuser_cuda.unavailable_reason()
    with pytest.raises(DeviceUnavailableError, match="no CUDA-capable device"):
        ts.ones(1).cuda()


def test_no_device_found(with_fake_pycuda):
    with_fake_pycuda(devices_found=0)
    assert ts_fuser_cuda.current_driver() is None
    assert "found no device" in ts_fuser_cuda.unavailable_reason()


@pytest.mark.skipif(find_nvcc() is None, reason="nvcc is not installed")
def test_pycuda_driver_calls_pycuda_as_it_is_defined(with_fake_pycuda, monkeypatch):
    cuda = with_fake_pycuda()

    def build(self, source, entries):
        record(source)  # nvcc compiles it at the end of the session, as every module
        cuda.entries = entries  # the stand-in loads the host library of the same source
        return compile_host_library(source, entries)

    monkeypatch.setattr(driver_module.PyCudaDriver, "build", build)
    d = ts_fuser_cuda.current_driver()
    assert isinstance(d, ts_fuser_cuda.PyCudaDriver)
    assert d.info.target == "sm_80" and d.info.multiprocessors == 2
    devices.is_available("cuda")
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = ts.from_numpy(a).cuda()
    y = (x * 2 + 1).t().sum(1)
    np.testing.assert_array_equal(y.cpu().numpy(), (a * 2 + 1).T.sum(1))
    launches = [c for c in cuda.calls if c.startswith("launch")]
    assert len(launches) >= 2 and "htod" in cuda.calls and "dtoh" in cuda.calls
    ts.from_numpy(a).cuda().sigmoid()  # a vectorized launch (aligned, 12 elements)
    assert any(c.endswith("_v4") for c in cuda.calls)
    devices.synchronize("cuda")
    assert cuda.calls[-1] == "synchronize"


# ---------------------------------------------------------------------------
# the pool of device memory blocks


def test_blocks_are_reused_by_size_and_freed_beyond_the_limit():
    made = []

    def allocate(nbytes):
        made.append(nbytes)
        return 4096 * len(made), object()

    pool = driver_module.BlockPool(allocate, limit=1024)
    a = pool.allocate(100)
    assert (a.nbytes, made) == (100, [512])
    ptr = a.ptr
    del a  # given back
    assert pool.cached == 512
    b = pool.allocate(300)  # rounds to the same size: the same block
    assert b.ptr == ptr and made == [512] and pool.cached == 0
    c = pool.allocate(1000)
    assert made == [512, 1024]
    del b, c  # 512 + 1024 > limit: the second is freed
    assert pool.cached == 512
    pool.empty()
    assert pool.cached == 0
    d = pool.allocate(10)
    assert made == [512, 1024, 512] and d.nbytes == 10


def test_outputs_reuse_the_memory_of_dead_temporaries(host_cuda):
    x = ts.ones(1000, device="cuda")
    made = host_cuda.allocated
    for _ in range(20):
        y = (x * 2).sigmoid()  # x * 2 dies inside each round, y when it is replaced
    # three blocks of 4096 bytes at most (a temporary, and two outputs alive at once), not 40
    assert host_cuda.allocated - made <= 3 * 4096
    assert y.cpu().numpy().shape == (1000,)
