"""Comparing graphs up to value names: what "imports back to the same graph" means.

`structure(graph)` writes a graph as lines in which every value is named by
its position (inputs `%a0`, node outputs `%v3`, block inputs `%b7`) and every
constant is written in place as its type and value, so that names, source
ranges and the order of the (pooled) constants at the top of the graph do
not matter, while node kinds, attributes, types, the order of the other
nodes, blocks and the wiring all do. An element of a constant tuple
(`prim::TupleUnpack` of a `prim::Constant`) is a constant too, and is
written as one: the frontend unpacks a tuple constant with a node, while
source that spells the tuple out unpacks it at compile time.
`graph_difference(a, b)` is None for graphs with the same structure, else
the first differing line.
"""

from __future__ import annotations

import itertools
from typing import Any

from ts_ir import FunctionType, Graph, Node, Value, constant_value, prim

_CONSTANT = prim.Constant
_TUPLE_UNPACK = prim.TupleUnpack


def _constant_text(node: Node) -> str:
    out = node.output()
    t = out.type
    if isinstance(t, FunctionType):
        name = node.s("name") if node.has_attribute("name") else t.function_name
        return f"fn<{name}>"
    if node.has_attribute("name") and not node.has_attribute("value"):
        return f"named<{node.s('name')}>"
    value = constant_value(out)
    if hasattr(value, "_data"):  # a tensor: identity does not survive a round trip, contents do
        value = ("tensor", value._data.dtype.name, value._data.shape, value._data.tobytes())
    return f"const<{t}:{value!r}>"


def structure(graph: Graph) -> list[str]:
    """The graph's lines, with positional value names and constants written in place."""
    names: dict[Value, str] = {}
    counter = itertools.count()
    lines: list[str] = []

    def name(v: Value) -> str:
        n = names.get(v)
        if n is None:
            node = v.node
            if node.kind is _CONSTANT:
                return _constant_text(node)
            return f"<undefined {v.debug_name}>"
        return n

    def define(v: Value, prefix: str) -> str:
        n = names[v] = f"%{prefix}{next(counter)}"
        return f"{n}:{v.type}"

    def attributes(node: Node, depth: int) -> str:
        parts = []
        for attr in sorted(node.attribute_names()):
            value: Any = node.attr(attr)
            if isinstance(value, Graph):
                sub = structure(value)
                parts.append(f"{attr}=graph{{{' ; '.join(sub)}}}")
            elif isinstance(value, list) and value and isinstance(value[0], Graph):
                parts.append(
                    f"{attr}=[" + " | ".join(" ; ".join(structure(g)) for g in value) + "]"
                )
            else:
                parts.append(f"{attr}={value!r}")
        return "[" + ", ".join(parts) + "]" if parts else ""

    def block(b: Any, depth: int) -> None:
        pad = "  " * depth
        for node in b.nodes():
            if node.kind is _CONSTANT:
                continue
            if node.kind is _TUPLE_UNPACK and node.inputs[0].node.kind is _CONSTANT:
                items = constant_value(node.inputs[0])
                if isinstance(items, tuple) and len(items) == len(node.outputs):
                    for out, item in zip(node.outputs, items, strict=True):
                        names[out] = f"const<{out.type}:{item!r}>"
                    continue
            outs = ", ".join(define(o, "v") for o in node.outputs)
            ins = ", ".join(name(i) for i in node.inputs)
            lines.append(f"{pad}{outs} = {node.kind}{attributes(node, depth)}({ins})")
            for sub in node.blocks:
                params = ", ".join(define(i, "b") for i in sub.inputs)
                lines.append(f"{pad}  block({params}):")
                block(sub, depth + 2)
                lines.append(f"{pad}    -> (" + ", ".join(name(o) for o in sub.outputs) + ")")

    params = ", ".join(define(v, "a") for v in graph.inputs)
    lines.append(f"graph({params}):")
    block(graph.block, 1)
    lines.append("  return (" + ", ".join(name(o) for o in graph.outputs) + ")")
    return lines


def graph_difference(a: Graph, b: Graph) -> str | None:
    """None when `a` and `b` have the same structure, else where they first differ."""
    left, right = structure(a), structure(b)
    for i, (x, y) in enumerate(zip(left, right, strict=False)):
        if x != y:
            return f"line {i}:\n  {x}\n  {y}"
    if len(left) != len(right):
        return f"{len(left)} lines against {len(right)}"
    return None
