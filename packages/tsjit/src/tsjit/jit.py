"""`tsjit.jit`: scripting, tracing, saving and loading, as `torch.jit`."""

from __future__ import annotations

from ts_frontend import (
    CompilationUnit,
    Final,
    ScriptFunction,
    annotate,
    export,
    fork,
    ignore,
    is_scripting,
    is_tracing,
    script,
    trace,
    unused,
    wait,
)
from ts_frontend import TracerWarning as TracerWarning
from ts_runtime import Future, ScriptModule, fuser, get_fuser, set_fuser

from .serialization import jit_load as load
from .serialization import jit_save as save

__all__ = [
    "CompilationUnit",
    "Final",
    "Future",
    "ScriptFunction",
    "ScriptModule",
    "annotate",
    "export",
    "fork",
    "fuser",
    "get_fuser",
    "ignore",
    "is_scripting",
    "is_tracing",
    "load",
    "save",
    "script",
    "set_fuser",
    "trace",
    "unused",
    "wait",
]
