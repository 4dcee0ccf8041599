"""`CudaFuser`: the fusion backend for CUDA (ts-passes' `FusionBackend` protocol).

    kernel = backend.compile(subgraph, input_specs)
    outputs = kernel(*inputs)          # None: run the subgraph in the interpreter instead

`compile` analyzes the group for the input specs with the CPU fuser's
analysis and this package's lowerings (`specialize(...,
lowerings=CUDA_LOWERINGS, device="cuda")`), picks 32- or 64-bit indices for
the sizes at hand, and finds the module of that structure: in memory, else
compiled by the driver (nvcc for a GPU, g++ for the host emulation) or
loaded from the disk cache. Binding the module to one specialization
(`kernel.bind`) is cheap, so a new shape of a known structure compiles
nothing. A group the fuser cannot compile raises `UnsupportedFusionError`
(logged with its reason; ts-runtime runs the subgraph instead).
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ts_fuser_cpu import (
    Access,
    Specialization,
    UnsupportedFusionError,
    specialize,
    why_not_fusible,
)
from ts_fuser_cpu import Path as LoopPath
from ts_ir import Graph, Node, Type

from .c_types import itemsize
from .codegen import GeneratedKernel, generate, module_source
from .driver import Driver
from .kernel import CompiledKernel, bind
from .launching import driver, index_bits, reach
from .lowerings import CUDA_LOWERINGS

log = logging.getLogger("ts_fuser_cuda")


@dataclass
class CudaFuserStats:
    """What the fuser has done in this process (tests and benchmarks read it)."""

    specializations: int = 0
    modules: int = 0  # modules made here (compiled, or loaded from the disk cache)
    memory_hits: int = 0
    seconds: float = 0.0


def spec_index_bits(spec: Specialization) -> int:
    """32-bit indices when the element count and every operand's reach fit (see `launching`)."""
    extents = []
    for leaf in spec.leaves:
        if not leaf.loaded:
            continue
        offset = leaf.offset // itemsize(leaf.dtype)
        if spec.path is LoopPath.FLAT:
            extents.append(offset + (spec.numel if leaf.access is not Access.SCALAR else 0))
        else:
            extents.append(offset + reach(spec.dims, leaf.iter_strides))
    return index_bits(spec.numel, extents)


def kernel_name(spec: Specialization, bits: int) -> str:
    digest = hashlib.sha256(repr((spec.codegen_key, bits)).encode()).hexdigest()
    return f"tsjit_cuda_{digest[:24]}"


class CudaFuser:
    """Compiles fusion groups to CUDA kernels; see the module docstring."""

    device = "cuda"

    def __init__(self) -> None:
        self.stats = CudaFuserStats()
        self._codes: dict[tuple, CompiledKernel] = {}
        self._lock = threading.RLock()

    def __repr__(self) -> str:
        return "<CudaFuser device='cuda'>"

    # -- the protocol

    def describe(self) -> dict[str, Any]:
        """What `tsjit doctor` shows of this backend: the device or why there is none, nvcc,
        and the kernel caches."""
        from ts_fuser_cpu import cache_dir

        from .driver import current_driver, unavailable_reason
        from .nvcc import find_nvcc, nvcc_version

        d = current_driver()
        nvcc = find_nvcc()
        return {
            "device": (
                f"{d.info.name} ({d.info.target}, {d.name})"
                if d is not None
                else f"none: {unavailable_reason()}"
            ),
            "nvcc": f"{nvcc} ({nvcc_version(nvcc)})" if nvcc else "not found",
            "kernel cache": cache_dir("cuda-kernels"),
        }

    def can_fuse(self, node: Node) -> bool:
        return self.why_not_fusible(node) is None

    def why_not_fusible(self, node: Node) -> str | None:
        return why_not_fusible(node, lowerings=CUDA_LOWERINGS, device="cuda")

    def compile(self, subgraph: Graph, input_specs: Sequence[Type]) -> Callable[..., Any]:
        t0 = time.perf_counter()
        d = driver()
        spec = self.specialize(subgraph, input_specs)
        self.stats.specializations += 1
        kernel = bind(spec, self.code_for(spec, spec_index_bits(spec), d))
        self.stats.seconds += time.perf_counter() - t0
        return kernel

    def specialize(self, subgraph: Graph, input_specs: Sequence[Type]) -> Specialization:
        try:
            return specialize(subgraph, input_specs, lowerings=CUDA_LOWERINGS, device="cuda")
        except UnsupportedFusionError as exc:
            log.info(
                "cannot compile a fusion group for (%s): %s; it runs in the interpreter",
                ", ".join(map(str, input_specs)),
                exc,
            )
            raise

    # -- code

    def generated(self, spec: Specialization, bits: int) -> GeneratedKernel:
        return generate(spec, kernel_name(spec, bits), index_bits=bits)

    def code_for(self, spec: Specialization, bits: int, d: Driver) -> CompiledKernel:
        key = (spec.codegen_key, bits, id(d))
        with self._lock:
            code = self._codes.get(key)
            if code is not None and code.module.driver is d:
                self.stats.memory_hits += 1
                return code
            kernel = self.generated(spec, bits)
            source = module_source([kernel.source])
            t0 = time.perf_counter()
            module = d.module(source, kernel.entries)
            log.debug(
                "module %s (%s path, %d-bit indices, %d steps) ready in %.1f ms",
                kernel.name,
                spec.path.value,
                bits,
                len(spec.steps),
                (time.perf_counter() - t0) * 1e3,
            )
            self.stats.modules += 1
            code = self._codes[key] = CompiledKernel(kernel, module, source)
            return code

    # -- inspection

    def cuda_source(self, subgraph: Graph, input_specs: Sequence[Type]) -> str:
        """The CUDA C of a group for these input specs (the kernels, without the prelude)."""
        spec = self.specialize(subgraph, input_specs)
        return self.generated(spec, spec_index_bits(spec)).source

    def clear_memory_cache(self) -> None:
        with self._lock:
            self._codes.clear()


#: The backend registered for CUDA.
backend = CudaFuser()


def register() -> CudaFuser:
    """Register `backend` as ts-passes' fusion backend for CUDA (done on import)."""
    from ts_passes import register_fusion_backend

    register_fusion_backend(backend)
    return backend
