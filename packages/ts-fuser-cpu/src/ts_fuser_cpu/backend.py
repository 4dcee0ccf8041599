"""`CpuFuser`: the fusion backend for the CPU (ts-passes' `FusionBackend` protocol).

    kernel = backend.compile(subgraph, input_specs)
    outputs = kernel(*inputs)          # None: run the subgraph in the interpreter instead

`compile` analyzes the group for the input specs (`specialize`), then finds
machine code for the resulting structure: in memory, else in the disk cache,
else by generating LLVM IR and compiling it (and storing it on disk). The
code is bound to the specialization (`kernel.bind`), which is cheap, so a
new shape of a known structure costs no LLVM work. A group the fuser cannot
compile raises `UnsupportedFusionError`, whose message says why.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ts_ir import Graph, Node, Type

from .codegen import Abi, generate_ir
from .compiler import compiler
from .disk_cache import DiskCache, entry_key
from .errors import UnsupportedFusionError
from .fusibility import can_fuse, why_not_fusible
from .kernel import CompiledCode, bind, detect_abi
from .parallel import get_num_threads
from .specialization import Specialization, specialize

log = logging.getLogger("ts_fuser_cpu")


@dataclass
class FuserStats:
    """What the fuser has done in this process (tests and benchmarks read it)."""

    specializations: int = 0
    compiled: int = 0
    disk_hits: int = 0
    memory_hits: int = 0
    compile_seconds: float = 0.0  # in LLVM, for the code compiled here
    seconds: float = 0.0  # in `compile` altogether: analysis, code generation, LLVM, loading


class CpuFuser:
    """Compiles fusion groups for the CPU with LLVM; see the module docstring."""

    device = "cpu"

    def __init__(self, *, abi: Abi | None = None, disk_cache: DiskCache | None = None) -> None:
        self._abi = abi
        self.disk_cache = disk_cache if disk_cache is not None else DiskCache()
        self.stats = FuserStats()
        self._codes: dict[tuple, CompiledCode] = {}
        self._lock = threading.RLock()

    def __repr__(self) -> str:
        return "<CpuFuser device='cpu'>"

    @property
    def abi(self) -> Abi:
        if self._abi is None:
            self._abi = detect_abi()
        return self._abi

    # -- the protocol

    def can_fuse(self, node: Node) -> bool:
        return can_fuse(node)

    def why_not_fusible(self, node: Node) -> str | None:
        return why_not_fusible(node)

    def describe(self) -> dict[str, Any]:
        """What `tsjit doctor` shows of this backend."""
        return {"kernel cache": self.disk_cache.directory, "threads": get_num_threads()}

    def compile(self, subgraph: Graph, input_specs: Sequence[Type]) -> Callable[..., Any]:
        t0 = time.perf_counter()
        try:
            spec = specialize(subgraph, input_specs)
        except UnsupportedFusionError as exc:
            log.info(
                "cannot compile a fusion group for (%s): %s; it runs in the interpreter",
                ", ".join(map(str, input_specs)),
                exc,
            )
            raise
        self.stats.specializations += 1
        kernel = bind(spec, self.code_for(spec), self.abi)
        self.stats.seconds += time.perf_counter() - t0
        return kernel

    # -- code

    def symbol_for(self, spec: Specialization) -> tuple[str, str]:
        """(disk cache key, kernel symbol) of a specialization on this machine."""
        key = entry_key((spec.codegen_key, self.abi.key, compiler().identity))
        return key, f"tsjit_cpu_{key[:24]}"

    def code_for(self, spec: Specialization) -> CompiledCode:
        memory_key = (spec.codegen_key, self.abi.key)
        with self._lock:
            code = self._codes.get(memory_key)
            if code is not None:
                self.stats.memory_hits += 1
                return code
            code = self._load_or_compile(spec)
            self._codes[memory_key] = code
            return code

    def _load_or_compile(self, spec: Specialization) -> CompiledCode:
        llvm = compiler()
        key, symbol = self.symbol_for(spec)
        t0 = time.perf_counter()
        abi = self.abi
        names = [symbol, f"{symbol}.py"] if abi.python_entry else [symbol]
        if llvm.is_loaded(symbol) is not None:
            addresses = llvm.load(b"", names)
            return CompiledCode.make(
                spec, abi, symbol, addresses[0], "memory", 0.0, None, *addresses[1:]
            )
        obj = self.disk_cache.load(key)
        origin, ir_text = "disk", None
        if obj is None:
            origin = "compiled"
            ir_text = generate_ir(spec, symbol, abi)
            obj = llvm.compile(ir_text)
            self.disk_cache.store(key, obj)
        addresses = llvm.load(obj, names)
        seconds = time.perf_counter() - t0
        if origin == "disk":
            self.stats.disk_hits += 1
            log.debug("loaded kernel %s from the disk cache in %.1f ms", symbol, seconds * 1e3)
        else:
            self.stats.compiled += 1
            self.stats.compile_seconds += seconds
            log.debug(
                "compiled kernel %s (%s path, %d steps) in %.1f ms",
                symbol,
                spec.path.value,
                len(spec.steps),
                seconds * 1e3,
            )
        return CompiledCode.make(
            spec, abi, symbol, addresses[0], origin, seconds, ir_text, *addresses[1:]
        )

    # -- inspection

    def llvm_ir(self, subgraph: Graph, input_specs: Sequence[Type]) -> str:
        """The unoptimized LLVM IR of a group for these input specs."""
        spec = specialize(subgraph, input_specs)
        return generate_ir(spec, self.symbol_for(spec)[1], self.abi)

    def assembly(self, subgraph: Graph, input_specs: Sequence[Type]) -> str:
        """The optimized machine code of a group for these input specs, as assembly."""
        return compiler().assembly(self.llvm_ir(subgraph, input_specs))

    def clear_memory_cache(self) -> None:
        """Forget compiled code (machine code already loaded stays loaded; the disk cache stays)."""
        with self._lock:
            self._codes.clear()


#: The backend registered for the CPU.
backend = CpuFuser()


def register() -> CpuFuser:
    """Register `backend` as ts-passes' fusion backend for the CPU (done on import)."""
    from ts_passes import register_fusion_backend

    register_fusion_backend(backend)
    return backend
