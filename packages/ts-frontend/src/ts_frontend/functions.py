"""Compiled functions: `ScriptFunction`, and `PythonFunction` for `@ignore`d callees.

A `ScriptFunction` is callable like the Python function it came from, with
`.graph`, `.code`, `.schema`, `.inlined_graph` and `.graph_for(*inputs)`;
called while a trace records, it is inlined into the trace. A
`PythonFunction` is a Python function compiled code calls back into.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ts_runtime
from ts_ir import Graph

from .inliner import inline_calls
from .python_printer import print_function
from .tracing_state import current_tracing_state


class ScriptFunction(ts_runtime.Function):
    """A compiled function: call it like the Python function it came from."""

    _qualified_name: str | None = None

    @property
    def qualified_name(self) -> str:
        """`__torch__.<module>.<name>` for a compiled Python function, else its name."""
        return self._qualified_name or self.name

    @qualified_name.setter
    def qualified_name(self, value: str) -> None:
        self._qualified_name = value

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        state = current_tracing_state()
        if state is not None:
            return state.call_script_function(self, args, kwargs)
        return self.executor.run(*self.bind(args, kwargs))

    @property
    def code(self) -> str:
        """TorchScript-style Python source of the graph."""
        return print_function(self)

    @property
    def inlined_graph(self) -> Graph:
        """The graph with every function and method call replaced by the callee's body."""
        g = self.graph.copy()
        inline_calls(g)
        return g

    def __repr__(self) -> str:
        return f"<ScriptFunction {self.name}>"


class PythonFunction:
    """An `@ignore`d Python function that compiled code calls back into."""

    def __init__(self, name: str, fn: Callable[..., Any], schema: Any) -> None:
        self.name = name
        self.fn = fn
        self.schema = schema
        self.graph = None

    def __call__(self, *args: Any) -> Any:
        return self.fn(*args)
