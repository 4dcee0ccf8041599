"""What sugared values may ask of the function being compiled, and of the compiler.

A sugared value (see `sugared_value`) emits nodes through an `EmitContext`:
the graph, an insertion, a constant, a call of a builtin operator. It never
sees the syntax tree nor the emitter's other machinery; arguments reach it
already evaluated. What lies beyond one function (compiling a callee, the
class of a module object) it asks of the `Compiler` the context carries,
as TorchScript's sugared values ask their `GraphFunction` and compilation
unit.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from ts_ir import Graph, Node, SourceRange, Type, Value


class Compiler(Protocol):
    """The driver, as sugared values see it (`script.ScriptCompiler` implements it)."""

    def compile_function(
        self, fn: Callable[..., Any], *, call_site: SourceRange | None, caller: str | None
    ) -> Any:
        """The compiled function (a `ts_runtime.Function`) for a Python function."""
        ...

    def try_compile(self, fn: Callable[..., Any]) -> Any:
        """The compiled function, or None when `fn` does not compile."""
        ...

    def python_function(self, fn: Callable[..., Any], loc: SourceRange | None) -> Any:
        """A callable compiled code calls back into (an `@ignore`d function)."""
        ...

    def object_value(self, value: Value, loc: SourceRange) -> Any:
        """The sugared value of an object of a compiled class (a module or a class instance)."""
        ...

    def method(self, class_type: Any, name: str, loc: SourceRange | None, caller: str) -> Any:
        """Method `name` of a compiled class, compiled on first use."""
        ...

    def method_overloads(
        self, class_type: Any, name: str, loc: SourceRange | None, caller: str
    ) -> list[Any] | None:
        """The compiled overloads of a module method declared with `@_overload_method`, in
        declaration order; None for a method without overloads."""
        ...

    def class_value(self, cls: type, loc: SourceRange | None) -> Any:
        """The sugared value of a Python class compiled as a TorchScript class."""
        ...

    def class_type_of(self, cls: type) -> Type | None:
        """The ClassType of a Python class compiled as a TorchScript class (for annotations),
        or None when `cls` is not such a class."""
        ...

    def reflected_functions(self, symbol: str) -> list[Any]:
        """The builtin script functions for a scalar on the left (`2 * x`) named like `symbol`."""
        ...


class EmitContext(Protocol):
    """The function being compiled: where sugared values put their nodes."""

    graph: Graph
    compiler: Compiler
    function_name: str

    def insert(self, node: Node, loc: SourceRange | None) -> Node:
        """Insert `node` at the insertion point, with `loc` as its source range."""
        ...

    def constant(self, value: Any, loc: SourceRange | None, typ: Type | None = None) -> Value:
        """A `prim::Constant` of `value`."""
        ...

    def call_builtin(
        self, symbol: str, args: list[Value], kwargs: dict[str, Value], loc: SourceRange | None
    ) -> Value:
        """A call of the operator `symbol`, matched against its overloads."""
        ...

    def unannotated_hint(self, value: Value) -> str | None:
        """A hint when `value` is an unannotated parameter (so a Tensor) used as something else."""
        ...
