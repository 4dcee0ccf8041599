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
from .import_source import (
    ClassSpec,
    SourceFile,
    SourceImporter,
    SourceImportError,
    literal_value,
    read_class,
    read_source_file,
)
from .jit_api import (
    Final,
    _overload_method,
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
from .python_printer import ConstantTable, PrintError, print_for_archive, qualified_function_name
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
from .tracer import TracerWarning, TracingCheckError, TracingError, trace

_registrations.register()

__all__ = [
    "CallError",
    "ClassSpec",
    "CompilationUnit",
    "ConstantTable",
    "Final",
    "FrontendError",
    "FrontendTypeError",
    "NotSupportedError",
    "ParseError",
    "PrintError",
    "ScriptCompiler",
    "ScriptFunction",
    "ScriptModule",
    "SourceFile",
    "SourceImportError",
    "SourceImporter",
    "SourceUnavailableError",
    "TracerWarning",
    "TracingCheckError",
    "TracingError",
    "UndefinedNameError",
    "UninitializedVariableError",
    "_overload_method",
    "annotate",
    "default_compiler",
    "export",
    "fork",
    "ignore",
    "interface",
    "is_scripting",
    "is_tracing",
    "literal_value",
    "print_for_archive",
    "qualified_function_name",
    "read_class",
    "read_source_file",
    "script",
    "script_if_tracing",
    "script_method",
    "script_source",
    "trace",
    "unused",
    "wait",
]
