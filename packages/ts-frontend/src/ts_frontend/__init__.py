"""ts-frontend: Python to TorchScript IR, by scripting and by tracing."""

from . import registrations as _registrations
from .errors import (
    CallError,
    FrontendError,
    FrontendTypeError,
    NotSupportedError,
    ParseError,
    SourceUnavailableError,
    UndefinedNameError,
    UninitializedVariableError,
)
from .jit_api import (
    Final,
    annotate,
    export,
    fork,
    ignore,
    interface,
    is_scripting,
    is_tracing,
    unused,
    wait,
)
from .script import (
    CompilationUnit,
    ScriptCompiler,
    ScriptFunction,
    default_compiler,
    script,
    script_if_tracing,
    script_source,
)
from .script_module import ScriptModule, script_method
from .tracer import TracerWarning, TracingCheckError, trace

_registrations.register()

__all__ = [
    "CallError",
    "CompilationUnit",
    "Final",
    "FrontendError",
    "FrontendTypeError",
    "NotSupportedError",
    "ParseError",
    "ScriptCompiler",
    "ScriptFunction",
    "ScriptModule",
    "SourceUnavailableError",
    "TracerWarning",
    "TracingCheckError",
    "UndefinedNameError",
    "UninitializedVariableError",
    "annotate",
    "default_compiler",
    "export",
    "fork",
    "ignore",
    "interface",
    "is_scripting",
    "is_tracing",
    "script",
    "script_if_tracing",
    "script_method",
    "script_source",
    "trace",
    "unused",
    "wait",
]
