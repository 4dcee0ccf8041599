"""The JIT switches of `torch._C` that programs written for PyTorch call.

    import tsjit as torch
    torch._C._jit_set_profiling_executor(True)   # returns the previous setting

Each sets what `ts_runtime.profiling_executor` reads when a function first
runs (see docs/debugging.md).
"""

from __future__ import annotations

import ts_runtime as _profiling


def _jit_set_profiling_executor(enabled: bool) -> bool:
    """Use the profiling executor (True) or the ArgumentSpec one (False) for functions that
    have not run yet; the previous setting."""
    return _profiling.set_profiling_executor(enabled)


def _jit_set_profiling_mode(enabled: bool) -> bool:
    """PyTorch's other half of the same choice (profiling, or not); the previous setting."""
    return _profiling.set_profiling_executor(enabled)


def _jit_set_num_profiled_runs(runs: int) -> int:
    """How many runs profile before the profiling executor optimizes; the previous count."""
    return _profiling.set_num_profiled_runs(runs)


def _jit_get_num_profiled_runs() -> int:
    return _profiling.get_num_profiled_runs()


def _jit_set_bailout_depth(depth: int) -> int:
    """How many times a function may re-specialize; the previous depth."""
    return _profiling.set_bailout_depth(depth)
