"""`graph.insert(kind, args, kwargs)`: insert an operator call, matching its schema.

    out = graph.insert(aten.add, [x, 3])        # aten::add.Scalar(%x, 3, alpha=1)
    values, indices = graph.insert(aten.max, [x], {"dim": 1})

Arguments are `Value`s of the graph or Python values (ints, floats, bools,
strs, None, devices, and lists and tuples of these), which become
`prim::Constant`s; an empty list takes the type the matched schema wants, and
a list holding `Value`s becomes a `prim::ListConstruct`. The overload is
chosen by `match_schemas`; the node and everything its inputs need
(constants for defaults, conversions) go in at the graph's insertion point.
Returns the output `Value`, a tuple of them for several outputs, or None.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ts_ir import Graph, IRError, ListType, SourceRange, TensorType, Value, unify_type_list

from .matching import emit_node, match_schemas
from .registry import registry


def insert_call(
    graph: Graph,
    kind: str,
    args: Sequence[Any] = (),
    kwargs: Mapping[str, Any] | None = None,
    *,
    source_range: SourceRange | None = None,
    self_arg: Value | None = None,
) -> Value | tuple[Value, ...] | None:
    """Insert a call of operator `kind` (see the module docstring); the frontend's entry point."""
    arg_values = [as_value(graph, a, source_range) for a in args]
    kw_values = {k: as_value(graph, v, source_range) for k, v in (kwargs or {}).items()}
    op, matched = match_schemas(
        registry.lookup(str(kind)),
        graph,
        arg_values,
        kw_values,
        source_range=source_range,
        self_arg=self_arg,
    )
    return emit_node(graph, op, matched, source_range=source_range)


def as_value(graph: Graph, x: Any, source_range: SourceRange | None = None) -> Value:
    """`x` itself if it is a `Value` of this graph; otherwise a value inserted to hold it."""
    if isinstance(x, Value):
        if x.owning_graph is not graph:
            raise IRError(f"value %{x.debug_name} belongs to another graph")
        return x
    if isinstance(x, list) and (not x or any(isinstance(e, Value) for e in x)):
        items = [as_value(graph, e, source_range) for e in x]
        # an empty list is typed as TorchScript types `[]`; matching retypes it
        element = unify_type_list(v.type for v in items) if items else TensorType.get()
        if element is None:
            kinds = ", ".join(v.type.annotation_str() for v in items)
            raise IRError(f"list elements of types {kinds} have no common type")
        node = graph.insert_node(graph.create_list(element, items))
        node.source_range = source_range
        assert isinstance(node.output().type, ListType)
        return node.output()
    if isinstance(x, tuple) and any(isinstance(e, Value) for e in x):
        items = [as_value(graph, e, source_range) for e in x]
        node = graph.insert_node(graph.create_tuple(items))
        node.source_range = source_range
        return node.output()
    return graph.insert_constant(x, source_range=source_range)


def _inserter(graph: Graph, kind: str, args: list[Any], kwargs: dict[str, Any]) -> Any:
    return insert_call(graph, kind, args, kwargs)
