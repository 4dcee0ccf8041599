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
from .lowerings import CPU_LOWERINGS, Lowering
from .operands import Operand
from .parallel import get_num_threads, set_num_threads
from .specialization import Specialization, canonical_text, specialize

register()

__all__ = [
    "CPU_LOWERINGS",
    "Abi",
    "CpuFuser",
    "DiskCache",
    "FuserError",
    "FuserStats",
    "Lowering",
    "Operand",
    "Specialization",
    "UnsupportedFusionError",
    "backend",
    "cache_dir",
    "can_fuse",
    "canonical_text",
    "get_num_threads",
    "register",
    "set_num_threads",
    "specialize",
    "why_not_fusible",
]
