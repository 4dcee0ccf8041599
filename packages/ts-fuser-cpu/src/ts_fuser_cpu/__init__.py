"""ts-fuser-cpu: tsjit's CPU fusion backend.

    import ts_fuser_cpu          # registers the backend for "cpu" (also found via `ts.fusers`)

A `prim::FusionGroup` made by ts-passes' `fuse_graph` is compiled, per
specialization of its inputs (dtypes, ranks, contiguity), to LLVM IR
(`codegen`), optimized and vectorized for this CPU and loaded as machine
code (`compiler`), cached in memory and on disk (`disk_cache`), and run on
all cores for large tensors with the GIL released (`kernel`, `parallel`).
Per-operator lowerings live in `CPU_LOWERINGS`, keyed by schema.

    ts_fuser_cpu.set_num_threads(1)
    ts_fuser_cpu.backend.stats        # specializations, compiled, disk_hits, ...
"""

from .backend import CpuFuser, FuserStats, backend, register
from .codegen import Abi
from .disk_cache import DiskCache, cache_dir
from .errors import FuserError, UnsupportedFusionError
from .fusibility import can_fuse, why_not_fusible
from .llvm_types import is_supported, numpy_dtype
from .lowerings import CPU_LOWERINGS, Lowering, node_constant, promoted
from .operands import NO_CONST, Operand
from .parallel import get_num_threads, set_num_threads
from .specialization import (
    Access,
    Leaf,
    Path,
    Specialization,
    Step,
    broadcast_shapes,
    canonical_text,
    coalesce,
    specialize,
)

register()

__all__ = [
    "CPU_LOWERINGS",
    "NO_CONST",
    "Abi",
    "Access",
    "CpuFuser",
    "DiskCache",
    "FuserError",
    "FuserStats",
    "Leaf",
    "Lowering",
    "Operand",
    "Path",
    "Specialization",
    "Step",
    "UnsupportedFusionError",
    "backend",
    "broadcast_shapes",
    "cache_dir",
    "can_fuse",
    "canonical_text",
    "coalesce",
    "get_num_threads",
    "is_supported",
    "node_constant",
    "numpy_dtype",
    "promoted",
    "register",
    "set_num_threads",
    "specialize",
    "why_not_fusible",
]
