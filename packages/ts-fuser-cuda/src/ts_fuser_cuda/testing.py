"""Checking generated CUDA code without a GPU: kernels in batches, host arrays as CUDA tensors.

    batch = KernelBatch("check")
    batch.add("iou", graph, *arrays)          # a fusion group and host arrays as its inputs
    compiled = batch.compile(HostDriver())    # one g++ run for every kernel of the batch
    outputs = compiled.run("iou")             # launched as on a GPU, on the host
    ptx = compile_ptx_batches(batch.bodies)   # and one or two nvcc runs for all of them

Compiling each kernel on its own would pay the compilers' start-up hundreds
of times; a batch puts the kernels of many groups into one compilation unit.
Used by this package's tests and the cross-package ones.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from ts_fuser_cpu import Specialization
from ts_ir import BoolType, Device, FloatType, Graph, IntType, TensorType, Type, parse_ir
from ts_runtime.dtypes import scalar_type_of_numpy
from ts_runtime.tensor import Tensor, wrap

from .backend import backend, spec_index_bits
from .codegen import GeneratedKernel, generate, module_source
from .driver import Driver, Module
from .kernel import CompiledKernel, bind
from .storage import CudaArray

CUDA = Device("cuda", 0)


def spec_of(value: object) -> Type:
    """The input spec a CUDA tensor (given as its host array) or a number would have."""
    if isinstance(value, np.ndarray):
        strides = tuple(s // value.itemsize for s in value.strides)
        return TensorType(scalar_type_of_numpy(value.dtype), CUDA, False, value.shape, strides)
    if isinstance(value, bool):
        return BoolType.get()
    if isinstance(value, int):
        return IntType.get()
    if isinstance(value, float):
        return FloatType.get()
    raise TypeError(f"no input spec for a {type(value).__name__}")


def upload(driver: Driver, array: np.ndarray) -> Tensor:
    """A CUDA tensor with `array`'s values and its strides: the bytes the array spans are
    copied, and viewed on the device as the array views them on the host."""
    if array.size == 0:
        return wrap(CudaArray.empty(driver, array.shape, array.dtype))
    if any(st < 0 for st in array.strides):
        array = np.ascontiguousarray(array)
    span = array.itemsize + sum(
        (s - 1) * st for s, st in zip(array.shape, array.strides, strict=True)
    )
    raw = np.ctypeslib.as_array((ctypes.c_uint8 * span).from_address(array.ctypes.data))
    stored = CudaArray.from_host(driver, raw)
    return wrap(CudaArray(driver, stored.allocation, 0, array.shape, array.strides, array.dtype))


@dataclass
class BatchEntry:
    name: str
    graph: Graph
    values: tuple
    spec: Specialization
    kernel: GeneratedKernel


@dataclass
class KernelBatch:
    """Many fusion groups' kernels in one compilation unit (see the module docstring)."""

    prefix: str
    entries: dict[str, BatchEntry] = field(default_factory=dict)

    def add(self, name: str, ir: str | Graph, *values: object) -> BatchEntry:
        g = parse_ir(ir) if isinstance(ir, str) else ir
        spec = backend.specialize(g, [spec_of(v) for v in values])
        symbol = f"{self.prefix}_{len(self.entries)}"
        kernel = generate(spec, symbol, index_bits=spec_index_bits(spec))
        entry = self.entries[name] = BatchEntry(name, g, values, spec, kernel)
        return entry

    @property
    def bodies(self) -> list[str]:
        return [e.kernel.source for e in self.entries.values()]

    @property
    def source(self) -> str:
        return module_source(self.bodies)

    @property
    def kernel_entries(self) -> list[Any]:
        return [k for e in self.entries.values() for k in e.kernel.entries]

    def compile(self, driver: Driver) -> BatchModule:
        return BatchModule(self, driver.module(self.source, self.kernel_entries))


@dataclass
class BatchModule:
    batch: KernelBatch
    module: Module

    def run(self, name: str, *values: object) -> list[np.ndarray] | None:
        """Run the named group's kernel on the host-emulated device: numpy outputs, or None
        when the kernel asks for the interpreter."""
        entry = self.batch.entries[name]
        values = values or entry.values
        kernel = bind(entry.spec, CompiledKernel(entry.kernel, self.module, ""))
        d = self.module.driver
        out = kernel(*[upload(d, v) if isinstance(v, np.ndarray) else v for v in values])
        if out is None:
            return None
        outs = out if isinstance(out, tuple) else (out,)
        return [o._data.to_host() for o in outs]
