"""`Function`: a graph you can call with Python values, and the `CompilationUnit` it lives in.

Calling checks and converts the arguments against the function's schema
(typed errors name the argument and the expected type), then runs the
function's `GraphExecutor`. A function's schema comes from the frontend, or
is derived from the graph's inputs (names without their `.N` suffix).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ts_ir import Graph, TorchScriptError, Type

from .executor import GraphExecutor, Optimizer
from .interpreter.typecheck import coerce, describe, is_convertible
from .profiling_executor import ProfilingGraphExecutor, profiling_executor_enabled

_NO_DEFAULT = object()


class ArgumentCountError(TorchScriptError, TypeError):
    """A function was called with too many or too few arguments."""


class ArgumentTypeError(TorchScriptError, TypeError):
    """An argument is not a value of the type the function declares."""


class UnknownFunctionError(TorchScriptError, KeyError):
    """A program calls a function its compilation unit does not define."""


@dataclass(frozen=True)
class Parameter:
    """One parameter of a function: name, declared type, optional default, keyword-only."""

    name: str
    type: Type
    default: Any = _NO_DEFAULT
    kwarg_only: bool = False

    @property
    def has_default(self) -> bool:
        return self.default is not _NO_DEFAULT


def parameters_of_graph(graph: Graph) -> list[Parameter]:
    return [Parameter(v.debug_name_base() or f"arg{i}", v.type) for i, v in enumerate(graph.inputs)]


def parameters_of_schema(schema: Any) -> list[Parameter]:
    """Parameters from a ts_schema FunctionSchema."""
    return [
        Parameter(
            a.name, a.type, a.default_value if a.has_default_value else _NO_DEFAULT, a.kwarg_only
        )
        for a in schema.arguments
    ]


def _entering(value: Any) -> Any:
    """A value as a program receives it from Python: lists and dicts are the program's own
    copies (a Python list is converted to a new list, as in TorchScript, so a program's
    `append` does not change the caller's list); tensors and other objects are shared."""
    if isinstance(value, list):
        return [_entering(v) for v in value]
    if isinstance(value, dict):
        return {k: _entering(v) for k, v in value.items()}
    if isinstance(value, tuple) and any(isinstance(v, (list, dict, tuple)) for v in value):
        return tuple(_entering(v) for v in value)
    return value


class Function:
    """A named graph, callable with Python values through a specializing executor."""

    def __init__(
        self,
        name: str,
        graph: Graph,
        *,
        schema: Any = None,
        parameters: Sequence[Parameter] | None = None,
        compilation_unit: CompilationUnit | None = None,
        optimize: bool = True,
        optimizer: Optimizer | None = None,
    ) -> None:
        self.name = name
        self.graph = graph
        self.schema = schema
        if parameters is not None:
            self.parameters = list(parameters)
        elif schema is not None:
            self.parameters = parameters_of_schema(schema)
        else:
            self.parameters = parameters_of_graph(graph)
        if len(self.parameters) != len(graph.inputs):
            raise ArgumentCountError(
                f"{name}: {len(self.parameters)} parameters for a graph of {len(graph.inputs)} inputs"
            )
        self.compilation_unit = compilation_unit
        self._optimize = optimize
        self._optimizer = optimizer
        self._executor: GraphExecutor | ProfilingGraphExecutor | None = None
        self._fast = all(not p.has_default and not p.kwarg_only for p in self.parameters)

    @property
    def executor(self) -> GraphExecutor | ProfilingGraphExecutor:
        """The function's executor, made when first needed: the profiling executor when it is
        chosen then (`set_profiling_executor`) and the function is optimized with the default
        passes, else the ArgumentSpec `GraphExecutor`."""
        executor = self._executor
        if executor is None:
            unit = self.compilation_unit
            resolver = unit.resolve if unit is not None else None
            if self._optimize and self._optimizer is None and profiling_executor_enabled():
                executor = ProfilingGraphExecutor(self.graph, self.name, resolver=resolver)
            else:
                executor = GraphExecutor(
                    self.graph,
                    self.name,
                    optimize=self._optimize,
                    optimizer=self._optimizer,
                    resolver=resolver,
                )
            self._executor = executor
        return executor

    @property
    def qualified_name(self) -> str:
        return self.name

    def bind(self, args: Sequence[Any], kwargs: dict[str, Any]) -> list[Any]:
        """The positional inputs for a call: defaults filled in, values checked and converted."""
        params = self.parameters
        positional = [p for p in params if not p.kwarg_only]
        if len(args) > len(positional):
            raise ArgumentCountError(
                f"{self.name}() takes {len(positional)} positional argument{'s' if len(positional) != 1 else ''} "
                f"but {len(args)} were given"
            )
        values: list[Any] = []
        for i, p in enumerate(params):
            if i < len(args) and not p.kwarg_only:
                if p.name in kwargs:
                    raise ArgumentCountError(
                        f"{self.name}() got multiple values for argument '{p.name}'"
                    )
                value = args[i]
            elif p.name in kwargs:
                value = kwargs[p.name]
            elif p.has_default:
                values.append(p.default)
                continue
            else:
                raise ArgumentCountError(
                    f"{self.name}() is missing a value for argument '{p.name}'"
                )
            converted = coerce(value, p.type)
            if not is_convertible(converted):
                raise ArgumentTypeError(
                    f"{self.name}() expected a value of type '{p.type.annotation_str()}' for argument "
                    f"'{p.name}' but instead found type '{describe(value)}'"
                )
            values.append(_entering(converted))
        unknown = set(kwargs) - {p.name for p in params}
        if unknown:
            raise ArgumentCountError(
                f"{self.name}() got an unexpected keyword argument '{sorted(unknown)[0]}'"
            )
        return values

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.executor.run(*self.bind(args, kwargs))

    def graph_for(self, *args: Any, **kwargs: Any) -> Graph:
        """The optimized graph a call with these arguments runs."""
        return self.executor.graph_for(*self.bind(args, kwargs))

    def last_executed_optimized_graph(self) -> Graph | None:
        return self.executor.last_executed_optimized_graph()

    def code_for(self, *args: Any, **kwargs: Any) -> Any:
        """The interpreter `Code` a call with these arguments runs."""
        return self.executor.plan_for(*self.bind(args, kwargs)).code

    def __repr__(self) -> str:
        return f"<tsjit Function {self.name}>"


class CompilationUnit:
    """A namespace of functions that can call each other by name."""

    def __init__(self) -> None:
        self._functions: dict[str, Function] = {}

    def register(self, fn: Function) -> Function:
        self._functions[fn.name] = fn
        return fn

    def create_function(self, name: str, graph: Graph, **kwargs: Any) -> Function:
        return self.register(Function(name, graph, compilation_unit=self, **kwargs))

    def find_function(self, name: str) -> Function | None:
        return self._functions.get(name) or self._functions.get(name.rpartition(".")[2])

    def resolve(self, name: str) -> Callable[..., Any]:
        fn = self.find_function(name)
        if fn is None:
            raise UnknownFunctionError(f"function {name!r} is not defined in this compilation unit")
        return fn

    def __getattr__(self, name: str) -> Function:
        fn = self.__dict__.get("_functions", {}).get(name)
        if fn is None:
            raise AttributeError(name)
        return fn

    def functions(self) -> list[Function]:
        return list(self._functions.values())
