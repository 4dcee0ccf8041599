"""Helpers for ts-passes tests: parse IR, find values and nodes by name, round trips."""

from __future__ import annotations

import ts_ir
import ts_schema  # noqa: F401  (connects node.schema() and friends)
from ts_ir import Graph, Node, Value


def parse(text: str) -> Graph:
    g = ts_ir.parse_ir(text)
    g.lint()
    return g


def values(g: Graph) -> dict[str, Value]:
    """Every value of the graph by its printed name (`x`, `x.1`, `7`), nested blocks included."""
    out: dict[str, Value] = {}

    def add(vs: list[Value]) -> None:
        for v in vs:
            out[v.debug_name] = v

    add(g.inputs)
    stack = [g.block]
    while stack:
        b = stack.pop()
        add(b.inputs)
        for n in b.nodes():
            add(n.outputs)
            stack.extend(n.blocks)
    return out


def node_of(g: Graph, name: str) -> Node:
    return values(g)[name].node


def round_trip(g: Graph) -> str:
    """print → parse → print gives the same text (and the parsed graph lints)."""
    text = str(g)
    again = ts_ir.parse_ir(text)
    again.lint()
    assert str(again) == text
    return text


def order(g: Graph) -> list[str]:
    """The first output name of each top-level node, in order (nodes without outputs: kind)."""
    return [n.outputs[0].debug_name if n.outputs else str(n.kind) for n in g.nodes()]
