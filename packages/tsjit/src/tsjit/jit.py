"""`tsjit.jit`: scripting, tracing, saving and loading, as `torch.jit`."""

from __future__ import annotations

from ts_frontend import (
    CompilationUnit,
    Final,
    ScriptFunction,
    ScriptModule,
    _overload_method,
    annotate,
    export,
    fork,
    ignore,
    interface,
    is_scripting,
    is_tracing,
    script,
    script_if_tracing,
    script_method,
    trace,
    unused,
    wait,
)
from ts_frontend import TracerWarning as TracerWarning
from ts_runtime import Future, fuser, get_fuser, set_fuser, set_profiling_executor

from .serialization import jit_load as load
from .serialization import jit_save as save

_script_if_tracing = script_if_tracing  # the name published code imports

__all__ = [
    "CompilationUnit",
    "Final",
    "Future",
    "ScriptFunction",
    "ScriptModule",
    "_overload_method",
    "annotate",
    "export",
    "fork",
    "fuser",
    "get_fuser",
    "ignore",
    "interface",
    "is_scripting",
    "is_tracing",
    "load",
    "save",
    "script",
    "script_if_tracing",
    "script_method",
    "set_fuser",
    "set_profiling_executor",
    "trace",
    "unused",
    "wait",
]
