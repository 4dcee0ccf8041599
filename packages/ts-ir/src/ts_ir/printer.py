"""The canonical printer: TorchScript's textual form of a graph.

    graph(%x.1 : Tensor,
          %n.1 : int):
      %3 : int = prim::Constant[value=1]()
      %y : Tensor = aten::add(%x.1, %x.1, %3) # f.py:2:8
       = prim::If(%c)
        block0():
          -> ()
        block1():
          -> ()
      return (%y)
    with prim::FusionGroup_0 = graph(...)

A node holding a `Subgraph` attribute prints as `kind_N` and its graph is
printed after the enclosing graph in a `with` section, numbered in order of
appearance, as TorchScript's `Graph::print` does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .attributes import format_attribute
from .symbol import prim
from .types import TensorType, Type, type_verbosity

if TYPE_CHECKING:
    from .ir import Graph, Node, Value

_DIFFERENTIABLE_GRAPH = prim.DifferentiableGraph
_CONSTANT = prim.Constant


class _Printer:
    __slots__ = ("locations", "out", "type_strings", "verbosity")

    def __init__(self, locations: bool) -> None:
        self.out: list[str] = []
        self.locations = locations
        self.verbosity = type_verbosity()
        self.type_strings: dict[Type, str] = {}

    def type_str(self, t: Type) -> str:
        s = self.type_strings.get(t)
        if s is None:
            s = t.to_string(self.verbosity) if isinstance(t, TensorType) else str(t)
            self.type_strings[t] = s
        return s

    def typed(self, values: list[Value], sep: str = ", ") -> str:
        ts = self.type_str
        return sep.join(f"%{v.debug_name} : {ts(v.type)}" for v in values)

    def graph(self, g: Graph) -> None:
        out = self.out
        out.append("graph(" + self.typed(g.inputs, ",\n      ") + "):\n")
        groups: list[Node] = []
        for n in g.nodes():
            self.node(n, 1, groups)
        out.append("  return (" + _names(g.outputs) + ")\n")
        for i, fg in enumerate(groups):
            out.append(f"with {fg.kind}_{i} = ")
            self.graph(fg.g("Subgraph"))

    def node(self, n: Node, level: int, groups: list[Node] | None) -> None:
        indent = "  " * level
        parts = [indent, self.typed(n.outputs), " = "]
        if groups is not None and n._attrs is not None and "Subgraph" in n._attrs:
            parts.append(f"{n.kind}_{len(groups)}")
            if len(n._attrs) > 1 and n.kind is not _DIFFERENTIABLE_GRAPH:
                parts.append(_attributes(n, skip_subgraph=True))
            groups.append(n)
        else:
            parts.append(n.kind)
            if n._attrs:
                parts.append(_attributes(n, skip_subgraph=False))
        parts.append("(" + _names(n.inputs) + ")")
        if self.locations and n.source_range is not None:
            loc = n.source_range.file_line_col()
            if loc is not None:
                parts.append(f" # {loc[0]}:{loc[1]}:{loc[2]}")
        parts.append("\n")
        out = self.out
        out.append("".join(parts))
        for i, b in enumerate(n.blocks):
            out.append(f"{indent}  block{i}(" + self.typed(b.inputs) + "):\n")
            for nested in b.nodes():
                self.node(nested, level + 2, groups)
            out.append(f"{indent}    -> (" + _names(b.outputs) + ")\n")


def _names(values: list[Value]) -> str:
    return ", ".join("%" + v.debug_name for v in values)


def _attributes(n: Node, *, skip_subgraph: bool) -> str:
    assert n._attrs is not None
    # a constant's value prints with its type: empty lists and dicts are annotated
    typed = n.kind is _CONSTANT and len(n.outputs) == 1
    items = [
        f"{name}={format_attribute(kind, value, n.outputs[0].type if typed else None)}"
        for name, (kind, value) in n._attrs.items()
        if not (skip_subgraph and name == "Subgraph")
    ]
    return "[" + ", ".join(items) + "]"


def print_graph(graph: Graph, *, source_locations: bool = True) -> str:
    """The graph's text; `source_locations` adds `# file:line:col` comments where known."""
    p = _Printer(source_locations)
    p.graph(graph)
    return "".join(p.out)


def print_node(node: Node, *, source_locations: bool = True) -> str:
    """One node (with its blocks); subgraph attributes print as `<Graph>`."""
    p = _Printer(source_locations)
    p.node(node, 0, None)
    return "".join(p.out)
