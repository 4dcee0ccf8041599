"""tsjit: TorchScript's JIT rebuilt in Python, behind a torch-shaped namespace.

    import tsjit as torch

    @torch.jit.script
    def f(x, n: int):
        for _ in range(n):
            x = torch.tanh(x) * 2
        return x

Everything ts-runtime's eager namespace offers (`tsjit.tensor`,
`tsjit.tanh`, dtypes, `tsjit.no_grad`) is available here; `tsjit.jit`
compiles and traces, `tsjit.nn` has the modules, `tsjit.cuda` says whether
CUDA devices can be used.
"""

from __future__ import annotations

from math import e, inf, nan, pi
from typing import Any

import ts_runtime as _runtime
from ts_runtime.ops_namespace import ops

from . import _C, cuda, jit, nn, optim
from .serialization import load, save

__version__ = "0.1.0"


def _assert(condition: Any, message: str) -> None:
    """`assert condition, message`, written as a call (as `torch._assert`)."""
    assert condition, message


def __getattr__(name: str) -> Any:
    """Everything else is ts-runtime's torch-shaped namespace."""
    try:
        return getattr(_runtime, name)
    except AttributeError:
        raise AttributeError(f"module 'tsjit' has no attribute {name!r}") from None


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(dir(_runtime)))


__all__ = ["_C", "cuda", "e", "inf", "jit", "load", "nan", "nn", "ops", "optim", "pi", "save"]
