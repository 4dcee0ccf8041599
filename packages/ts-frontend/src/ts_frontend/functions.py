"""Compiled functions: `ScriptFunction`, and `PythonFunction` for `@ignore`d callees.

A `ScriptFunction` is callable like the Python function it came from, with
`.graph`, `.code`, `.schema`, `.inlined_graph` and `.graph_for(*inputs)`;
called while a trace records, it is inlined into the trace. A
`PythonFunction` is a Python function compiled code calls back into.
"""

from __future__ import annotations

import collections
from collections.abc import Callable
from typing import Any

import ts_runtime
from ts_ir import (
    ClassType,
    DictType,
    Graph,
    InterfaceType,
    ListType,
    OptionalType,
    TupleType,
    Type,
)

from .inliner import inline_calls
from .python_printer import print_function
from .script_object import to_script_object
from .tracing_state import current_tracing_state
from .type_annotations import NAMED_TUPLE_CLASSES


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

    # what a call converts at the boundary with Python: the parameters typed by a TorchScript
    # class, and whether the result holds named tuples (None until the first call)
    _boundary: tuple[dict[str, tuple[int, Type]], bool] | None = None

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        state = current_tracing_state()
        if state is not None:
            return state.call_script_function(self, args, kwargs)
        boundary = self._boundary
        if boundary is None:
            boundary = self._boundary = _boundary_of(self.schema)
        objects, named = boundary
        if objects:  # Python instances of TorchScript classes enter as script objects
            args, kwargs = _convert_objects(objects, args, kwargs)
        result = self.executor.run(*self.bind(args, kwargs))
        return _named_tuples(result, self.schema.returns[0].type) if named else result

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


def _boundary_of(schema: Any) -> tuple[dict[str, tuple[int, Type]], bool]:
    returns = getattr(schema, "returns", None) or []
    named = len(returns) == 1 and _has_named_tuple(returns[0].type)
    return _object_params(schema), named


def _object_params(schema: Any) -> dict[str, tuple[int, Type]]:
    """The parameters whose type holds a TorchScript class (not a module) or an interface
    (`Boxes`, `List[Boxes]`, `Optional[Shape]`), by name."""
    out: dict[str, tuple[int, Type]] = {}
    for i, arg in enumerate(getattr(schema, "arguments", ())):
        if _holds_objects(arg.type):
            out[arg.name] = (i, arg.type)
    return out


def _holds_objects(typ: Type) -> bool:
    if isinstance(typ, ClassType):
        return not typ.is_module
    if isinstance(typ, InterfaceType):
        return True
    return any(_holds_objects(t) for t in typ.contained_types())


def _convert_objects(
    objects: dict[str, tuple[int, Type]], args: tuple, kwargs: dict[str, Any]
) -> tuple[tuple, dict[str, Any]]:
    converted = list(args)
    for name, (i, typ) in objects.items():
        if i < len(converted):
            converted[i] = _to_objects(converted[i], typ)
        elif name in kwargs:
            kwargs = {**kwargs, name: _to_objects(kwargs[name], typ)}
    return tuple(converted), kwargs


def _to_objects(value: Any, typ: Type) -> Any:
    """`value` with the Python instances of TorchScript classes in it copied into script
    objects, following `typ` into lists, tuples, dicts and optionals."""
    if isinstance(typ, ClassType):
        return to_script_object(value, typ)
    if isinstance(typ, InterfaceType):
        return to_script_object(value)
    if isinstance(typ, OptionalType):
        return None if value is None else _to_objects(value, typ.element)
    if isinstance(typ, ListType) and isinstance(value, (list, tuple)):
        return [_to_objects(v, typ.element) for v in value]
    if isinstance(typ, TupleType) and isinstance(value, tuple):
        return tuple(_to_objects(v, t) for v, t in zip(value, typ.elements, strict=False))
    if isinstance(typ, DictType) and isinstance(value, dict):
        return {k: _to_objects(v, typ.value) for k, v in value.items()}
    return value


def _has_named_tuple(typ: Type) -> bool:
    if isinstance(typ, TupleType) and typ.names is not None:
        return True
    return any(_has_named_tuple(t) for t in typ.contained_types())


_BUILTIN_NAMED: dict[tuple[str, ...], type] = {}


def _named_tuples(value: Any, typ: Type) -> Any:
    """A compiled function's result with its named tuples as Python NamedTuples: of their own
    class (`Point(x=1.0, y=2.0)`), or of one made from the field names (`torch.max`'s
    `(values, indices)`), as TorchScript returns them."""
    if isinstance(typ, OptionalType):
        return None if value is None else _named_tuples(value, typ.element)
    if isinstance(typ, TupleType) and isinstance(value, tuple):
        items = [_named_tuples(v, t) for v, t in zip(value, typ.elements, strict=True)]
        if typ.names is None:
            return tuple(items)
        cls = NAMED_TUPLE_CLASSES.get(typ.qualified_name or "")
        if cls is None:
            cls = _BUILTIN_NAMED.get(typ.names)
            if cls is None:
                cls = _BUILTIN_NAMED[typ.names] = collections.namedtuple("NamedTuple", typ.names)
        return cls(*items)
    if isinstance(typ, ListType) and isinstance(value, list):
        return [_named_tuples(v, typ.element) for v in value]
    if isinstance(typ, DictType) and isinstance(value, dict):
        return {k: _named_tuples(v, typ.value) for k, v in value.items()}
    return value
