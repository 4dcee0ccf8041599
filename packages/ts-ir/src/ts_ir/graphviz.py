"""Graphviz DOT export of a graph, its nested blocks and its subgraph attributes.

Each node is a box labelled with its kind (and the types of its outputs);
edges run from a value's producer to each user and are labelled with the
value's name. Blocks are drawn as clusters inside their owning node's
cluster; `Subgraph` attributes as clusters of their own.
"""

from __future__ import annotations

from .attributes import AttributeKind, format_attribute
from .ir import Block, Graph, Node, Value
from .symbol import prim


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


class _DotWriter:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.ids: dict[int, str] = {}
        self.counter = 0
        self.edges: list[str] = []

    def node_id(self, n: Node) -> str:
        key = id(n)
        nid = self.ids.get(key)
        if nid is None:
            nid = self.ids[key] = f"n{self.counter}"
            self.counter += 1
        return nid

    def source_of(self, v: Value) -> str:
        return self.node_id(v.node)

    def graph(self, g: Graph, prefix: str, indent: str) -> None:
        params = self.node_id(g.param_node)
        label = "inputs\\n" + "\\n".join(_escape(f"%{v.debug_name} : {v.type}") for v in g.inputs)
        self.lines.append(
            f'{indent}{params} [label="{label}", shape=invhouse, style=filled, fillcolor="#e8f0fe"];'
        )
        self.block_body(g.block, prefix, indent)
        ret = self.node_id(g.return_node)
        self.lines.append(
            f'{indent}{ret} [label="return", shape=house, style=filled, fillcolor="#e8f0fe"];'
        )
        self.uses(g.return_node)

    def block_body(self, block: Block, prefix: str, indent: str) -> None:
        for n in block.nodes():
            self.node(n, prefix, indent)

    def node(self, n: Node, prefix: str, indent: str) -> None:
        nid = self.node_id(n)
        label = str(n.kind)
        attrs = [
            f"{name}={format_attribute(n.kind_of(name), n.attr(name))}"
            for name in n.attribute_names()
            if n.kind_of(name) not in (AttributeKind.g, AttributeKind.gs)
        ]
        if attrs:
            label += "\\n[" + _escape(", ".join(attrs)[:60]) + "]"
        if n.outputs:
            label += "\\n" + "\\n".join(_escape(f"%{v.debug_name} : {v.type}") for v in n.outputs)
        fill = (
            "#fff4e0"
            if n.kind in (prim.If, prim.Loop)
            else "#fde7e9"
            if n.has_attribute("Subgraph")
            else "white"
        )
        self.lines.append(
            f'{indent}{nid} [label="{label}", shape=box, style=filled, fillcolor="{fill}"];'
        )
        self.uses(n)
        for i, b in enumerate(n.blocks):
            cluster = f"cluster_{prefix}{nid}_b{i}"
            self.lines.append(f"{indent}subgraph {cluster} {{")
            self.lines.append(f'{indent}  label="{_escape(str(n.kind))} block{i}"; style=dashed;')
            bparams = self.node_id(b.param_node)
            blabel = f"block{i} inputs" + "".join(_escape(f"\\n%{v.debug_name}") for v in b.inputs)
            self.lines.append(f'{indent}  {bparams} [label="{blabel}", shape=invhouse];')
            self.block_body(b, prefix, indent + "  ")
            bret = self.node_id(b.return_node)
            self.lines.append(f'{indent}  {bret} [label="-> block{i}", shape=house];')
            self.uses(b.return_node)
            self.lines.append(f"{indent}}}")
            self.edges.append(f"{bret} -> {nid} [style=dotted, arrowhead=none];")
        if n.has_attribute("Subgraph") and n.kind_of("Subgraph") is AttributeKind.g:
            cluster = f"cluster_{prefix}{nid}_sub"
            self.lines.append(f"{indent}subgraph {cluster} {{")
            self.lines.append(
                f'{indent}  label="{_escape(str(n.kind))} subgraph"; style=filled; fillcolor="#fafafa";'
            )
            self.graph(n.g("Subgraph"), prefix + nid + "_", indent + "  ")
            self.lines.append(f"{indent}}}")
            self.edges.append(
                f"{nid} -> {self.node_id(n.g('Subgraph').param_node)} [style=dashed, color=gray];"
            )

    def uses(self, n: Node) -> None:
        for v in n.inputs:
            self.edges.append(
                f'{self.source_of(v)} -> {self.node_id(n)} [label="%{_escape(v.debug_name)}"];'
            )


def graph_to_dot(graph: Graph, name: str = "graph") -> str:
    """The DOT text of `graph`; render it with `dot -Tsvg`."""
    w = _DotWriter()
    w.graph(graph, "", "  ")
    body = "\n".join(w.lines + ["  " + e for e in w.edges])
    return (
        f'digraph "{_escape(name)}" {{\n'
        "  rankdir=TB; compound=true;\n"
        '  node [fontname="Helvetica", fontsize=10]; edge [fontname="Helvetica", fontsize=9];\n'
        f"{body}\n}}\n"
    )
