"""Graphviz DOT export of a graph, drawn to be read.

    dot = graph.to_dot()               # then: dot -Tsvg g.dot -o g.svg

- An operation is a box: its kind with its attributes, then one line per
  value it defines with the type in short form (`%y : f32[*,*]`, see
  `short_type`).
- Constants are not drawn: each user shows them in place of the input
  (`aten::add(·, ·, 1)`, `·` being an input drawn as an edge; `return (·,
  1)`), so a constant shared by a dozen nodes adds no edge.
- Each graph input is a node of its own; the graph's outputs meet in one
  `return` node.
- A node with blocks (`prim::If`, `prim::Loop`) is a cluster: its header on
  top, each block a cluster inside with its parameters and its `->` return,
  and, below, the node's outputs, where the blocks' results meet.
- A node with a `Subgraph` (`prim::FusionGroup`, `prim::DifferentiableGraph`)
  is a shaded cluster around its subgraph's operations, named as the printer
  names it (`prim::FusionGroup_0`): edges come in straight to the operations
  that use the group's inputs and leave from those that compute its outputs.
- An edge carries a value's name only where its source defines several
  values (a `prim::ConstantChunk`, a block's parameters).

Cost: O(nodes + uses), subgraphs included.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from .attributes import AttributeKind, format_attribute
from .dtypes import ScalarType
from .ir import Block, Graph, Node, Value
from .symbol import prim
from .types import ListType, OptionalType, TensorType, TupleType, Type

#: dtypes as short names (`f32[*,*]` for a 2-D float tensor).
DTYPE_NAMES: dict[ScalarType, str] = {
    ScalarType.Byte: "u8",
    ScalarType.Char: "i8",
    ScalarType.Short: "i16",
    ScalarType.Int: "i32",
    ScalarType.Long: "i64",
    ScalarType.Half: "f16",
    ScalarType.BFloat16: "bf16",
    ScalarType.Float: "f32",
    ScalarType.Double: "f64",
    ScalarType.ComplexHalf: "c32",
    ScalarType.ComplexFloat: "c64",
    ScalarType.ComplexDouble: "c128",
    ScalarType.Bool: "b8",
}
#: The longest a constant or attribute is shown before it is cut with `…`.
MAX_SHOWN = 24

_GRAPH_STYLE = (
    "  rankdir=TB; newrank=true; compound=true; nodesep=0.25; ranksep=0.35;\n"
    '  node [fontname="Helvetica", fontsize=10, shape=box, style="rounded,filled", '
    'fillcolor=white, margin="0.12,0.04", height=0.3];\n'
    '  edge [fontname="Helvetica", fontsize=8, color="#555555", arrowsize=0.6];\n'
)
_SUBGRAPH_FILL = {prim.FusionGroup: "#fde7e9", prim.DifferentiableGraph: "#e6f4ea"}


def short_type(t: Type) -> str:
    """A type as pictures show it: `f32[*,*]` for `Float(*, *, requires_grad=0, device=cpu)`,
    `f32[64,512]` with sizes, `f32[...]` of unknown rank, `Tensor` when nothing is known;
    ` grad` when it requires grad and the device when it is not the CPU."""
    if isinstance(t, TensorType):
        if t.scalar_type is None and t.sizes is None:
            text = "Tensor"
        else:
            dims = (
                "..."
                if t.sizes is None
                else ",".join("*" if s is None else str(s) for s in t.sizes)
            )
            head = (
                "Tensor"
                if t.scalar_type is None
                else DTYPE_NAMES.get(t.scalar_type, t.scalar_type.name)
            )
            text = f"{head}[{dims}]"
        if t.requires_grad:
            text += " grad"
        if t.device is not None and t.device.type != "cpu":
            text += f" {t.device}"
        return text
    if isinstance(t, TupleType):
        return "(" + ", ".join(short_type(e) for e in t.elements) + ")"
    if isinstance(t, ListType):
        return f"{short_type(t.element)}[]"
    if isinstance(t, OptionalType):
        return f"{short_type(t.element)}?"
    return str(t)


def _cut(text: str) -> str:
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 1] + "…"


def _escape(text: str) -> str:
    """One line of a label: quotes and backslashes escaped, line breaks shown as `\\n`."""
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\\\n")


def _label(lines: list[str]) -> str:
    return "\\n".join(_escape(line) for line in lines)


def _is_constant(node: Node) -> bool:
    return node.kind is prim.Constant and not node.blocks


def constant_text(node: Node) -> str:
    """How a `prim::Constant` shows where it is used: its value (`None` when it has none)."""
    if not node.has_attribute("value"):
        return "None"
    kind, value = node.kind_of("value"), node.attr("value")
    return _cut(repr(value) if kind is AttributeKind.f else format_attribute(kind, value))


class _DotWriter:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.edges: list[str] = []
        self.counter = 0
        # where a value is drawn coming from: (dot node id, whether to name it on edges)
        self.sources: dict[int, tuple[str, bool]] = {}
        # a subgraph's inputs stand for the values its node receives
        self.aliases: dict[int, Value] = {}
        self.deferred_outputs: dict[int, Value] = {}
        self.declared: list[str] = []

    def new_id(self) -> str:
        nid = f"n{self.counter}"
        self.counter += 1
        return nid

    def declare(self, indent: str, nid: str, lines: list[str], **attrs: str) -> None:
        extra = "".join(f", {k}={v}" for k, v in attrs.items())
        self.lines.append(f'{indent}{nid} [label="{_label(lines)}"{extra}];')
        self.declared.append(nid)

    # -- values

    def define(self, v: Value, nid: str, named: bool) -> None:
        self.sources[id(v)] = (nid, named)

    def resolve(self, v: Value) -> Value:
        """The value drawn for `v`: a subgraph input is the value its node receives, a
        subgraph node's output the value its subgraph computes."""
        while True:
            if id(v) in self.aliases:
                v = self.aliases[id(v)]
            elif id(v) in self.deferred_outputs:
                v = self.deferred_outputs[id(v)]
            else:
                return v

    def connect(self, inputs: list[Value], target: str) -> list[str]:
        """Edges from each non-constant input to `target` (one per value); the argument list
        to show, with `·` for an edge and the constant's text for a constant."""
        shown = []
        drawn: set[int] = set()
        for v in inputs:
            v = self.resolve(v)
            if _is_constant(v.node):
                shown.append(constant_text(v.node))
                continue
            shown.append("·")
            found = self.sources.get(id(v))
            if found is None or id(v) in drawn:  # a free value (not drawn), or drawn already
                continue
            drawn.add(id(v))
            src, named = found
            label = f' [label="%{_escape(v.debug_name)}"]' if named else ""
            self.edges.append(f"{src} -> {target}{label};")
        return shown

    # -- graphs, blocks, nodes

    def graph(self, g: Graph, indent: str, *, top: bool = False) -> None:
        input_ids = []
        for v in g.inputs:
            nid = self.new_id()
            input_ids.append(nid)
            self.declare(
                indent, nid, [f"%{v.debug_name}", short_type(v.type)],
                shape="ellipse", fillcolor='"#e8f0fe"',
            )  # fmt: skip
            self.define(v, nid, False)
        if input_ids and top:
            # side by side, in the order of the signature
            order = " -> ".join(input_ids)
            self.lines.append(f"{indent}{{rank=same; {order} [style=invis];}}")
        self.block_body(g.block, indent, counter=[0])
        ret = self.new_id()
        shown = self.connect(g.outputs, ret)
        text = "return" if all(s == "·" for s in shown) else f"return ({', '.join(shown)})"
        self.declare(indent, ret, [text], shape="house", fillcolor='"#e8f0fe"')

    def block_body(self, block: Block, indent: str, counter: list[int]) -> None:
        for n in block.nodes():
            if _is_constant(n):
                continue
            self.node(n, indent, counter)

    def node(self, n: Node, indent: str, counter: list[int]) -> None:
        if n.has_attribute("Subgraph") and n.kind_of("Subgraph") is AttributeKind.g:
            name = f"{n.kind}_{counter[0]}"
            counter[0] += 1
            self.subgraph_node(n, name, indent)
        elif n.blocks:
            self.block_node(n, indent, counter)
        else:
            self.plain_node(n, indent)

    def attributes(self, n: Node) -> str:
        attrs = [
            f"{name}={_cut(format_attribute(n.kind_of(name), n.attr(name)))}"
            for name in n.attribute_names()
            if n.kind_of(name) not in (AttributeKind.g, AttributeKind.gs)
        ]
        return f"[{', '.join(attrs)}]" if attrs else ""

    def head(self, n: Node, kind: str, shown: list[str]) -> str:
        args = f"({', '.join(shown)})" if any(s != "·" for s in shown) else ""
        return f"{kind}{self.attributes(n)}{args}"

    def outputs(self, values: list[Value]) -> list[str]:
        return [f"%{v.debug_name} : {short_type(v.type)}" for v in values]

    def plain_node(self, n: Node, indent: str) -> None:
        nid = self.new_id()
        shown = self.connect(n.inputs, nid)
        self.declare(indent, nid, [self.head(n, str(n.kind), shown), *self.outputs(n.outputs)])
        for v in n.outputs:
            self.define(v, nid, len(n.outputs) > 1)

    def block_node(self, n: Node, indent: str, counter: list[int]) -> None:
        """`prim::If` / `prim::Loop`: a cluster with the header, the blocks, the outputs."""
        nid = self.new_id()
        inner = indent + "  "
        self.lines.append(f"{indent}subgraph cluster_{nid} {{")
        self.lines.append(
            f'{inner}label="{_escape(str(n.kind))}"; style="rounded"; color="#c58b00";'
        )
        shown = self.connect(n.inputs, nid)
        self.declare(inner, nid, [self.head(n, str(n.kind), shown)], fillcolor='"#fff4e0"')
        out_id = self.new_id() if n.outputs else None
        for i, b in enumerate(n.blocks):
            self.lines.append(f"{inner}subgraph cluster_{nid}_b{i} {{")
            bind = inner + "  "
            title = _block_title(n, i)
            self.lines.append(f'{bind}label="{_escape(title)}"; style="dashed"; color="#999999";')
            if b.inputs:
                pid = self.new_id()
                self.declare(bind, pid, self.outputs(b.inputs), shape="plaintext", style='""')
                self.edges.append(f"{nid} -> {pid} [style=dotted, arrowhead=none];")
                for v in b.inputs:
                    self.define(v, pid, len(b.inputs) > 1)
            first = len(self.declared)
            self.block_body(b, bind, counter)
            ret = self.new_id()
            returned = self.connect(b.outputs, ret)
            self.declare(bind, ret, [f"-> ({', '.join(returned)})"], shape="plaintext", style='""')
            if not b.inputs:  # keep the header above the block
                self.edges.append(f"{nid} -> {self.declared[first]} [style=invis];")
            if out_id is not None:
                self.edges.append(f"{ret} -> {out_id} [style=dashed, color=gray];")
            self.lines.append(f"{inner}}}")
        if out_id is not None:
            self.declare(inner, out_id, self.outputs(n.outputs), fillcolor='"#fff4e0"')
            for v in n.outputs:
                self.define(v, out_id, len(n.outputs) > 1)
        self.lines.append(f"{indent}}}")

    def subgraph_node(self, n: Node, name: str, indent: str) -> None:
        """A FusionGroup or DifferentiableGraph: its subgraph drawn inside the node's cluster."""
        sub = n.g("Subgraph")
        nid = self.new_id()
        inner = indent + "  "
        fill = _SUBGRAPH_FILL.get(n.kind, "#f3f3f3")
        attrs = self.attributes(n)
        self.lines.append(f"{indent}subgraph cluster_{nid} {{")
        self.lines.append(
            f'{inner}label="{_escape(name + attrs)}"; style="rounded,filled"; '
            f'fillcolor="{fill}"; color="#b0b0b0";'
        )
        if len(sub.inputs) == len(n.inputs) and len(sub.outputs) == len(n.outputs):
            for inside, outside in zip(sub.inputs, n.inputs, strict=True):
                self.aliases[id(inside)] = outside
            self.block_body(sub.block, inner, counter=[0])
            for outside, inside in zip(n.outputs, sub.outputs, strict=True):
                self.deferred_outputs[id(outside)] = inside
        else:  # not the usual calling convention: the node, and its subgraph beside it
            shown = self.connect(n.inputs, nid)
            self.declare(inner, nid, [self.head(n, name, shown), *self.outputs(n.outputs)])
            for v in n.outputs:
                self.define(v, nid, len(n.outputs) > 1)
            self.lines.append(f"{inner}subgraph cluster_{nid}_sub {{")
            self.lines.append(f'{inner}  label="subgraph"; style="dashed";')
            self.graph(sub, inner + "  ")
            self.lines.append(f"{inner}}}")
        self.lines.append(f"{indent}}}")


def _block_title(n: Node, i: int) -> str:
    if n.kind is prim.If:
        return f"block{i} ({'true' if i == 0 else 'false'})"
    if n.kind is prim.Loop:
        return f"block{i} (body)"
    return f"block{i}"


def graph_to_dot(graph: Graph, name: str = "graph") -> str:
    """The DOT text of `graph` (see the module docstring); render it with `dot -Tsvg`."""
    w = _DotWriter()
    w.graph(graph, "  ", top=True)
    body = "\n".join(w.lines + ["  " + e for e in w.edges])
    return f'digraph "{_escape(name)}" {{\n{_GRAPH_STYLE}{body}\n}}\n'


# ---------------------------------------------------------------------------
# Reading a picture back (for tests of what it shows)


@dataclass
class DotCluster:
    """A cluster of a picture: its label, the nodes declared directly in it, nested clusters."""

    name: str
    label: str = ""
    nodes: list[str] = field(default_factory=list)
    clusters: list[DotCluster] = field(default_factory=list)

    def all_nodes(self) -> list[str]:
        """The nodes of this cluster and of every cluster inside it."""
        return self.nodes + [n for c in self.clusters for n in c.all_nodes()]

    def walk(self) -> Iterator[DotCluster]:
        yield self
        for c in self.clusters:
            yield from c.walk()


@dataclass
class DotPicture:
    """What `read_dot` finds in the text `graph_to_dot` writes."""

    root: DotCluster
    labels: dict[str, str]  # node id -> label, lines separated by "\n"
    edges: list[tuple[str, str, str]]  # (source, target, label), the visible ones

    def clusters(self, label_prefix: str = "") -> list[DotCluster]:
        return [
            c for c in self.root.walk() if c is not self.root and c.label.startswith(label_prefix)
        ]


_NODE = re.compile(r'^(n\d+) \[label="((?:\\.|[^"\\])*)"')
_EDGE = re.compile(r'^(n\d+) -> (n\d+)(?: \[(?:label="((?:\\.|[^"\\])*)")?[^\]]*\])?;$')
_CLUSTER = re.compile(r"^subgraph (cluster_\w+) \{$")
_CLUSTER_LABEL = re.compile(r'^label="((?:\\.|[^"\\])*)";')


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: "\n" if m.group(1) == "n" else m.group(1), text)


def read_dot(text: str) -> DotPicture:
    """The clusters, node labels and edges of a picture written by `graph_to_dot` (one
    statement per line, as it writes them; not a general DOT parser)."""
    root = DotCluster("graph")
    stack = [root]
    labels: dict[str, str] = {}
    edges: list[tuple[str, str, str]] = []
    for raw in text.splitlines()[1:-1]:
        line = raw.strip()
        if m := _CLUSTER.match(line):
            cluster = DotCluster(m.group(1))
            stack[-1].clusters.append(cluster)
            stack.append(cluster)
        elif line == "}":
            stack.pop()
        elif (m := _CLUSTER_LABEL.match(line)) and len(stack) > 1:
            stack[-1].label = _unescape(m.group(1))
        elif m := _EDGE.match(line):
            if "style=invis" not in line:  # layout only
                edges.append((m.group(1), m.group(2), _unescape(m.group(3) or "")))
        elif m := _NODE.match(line):
            labels[m.group(1)] = _unescape(m.group(2))
            stack[-1].nodes.append(m.group(1))
    if len(stack) != 1:
        raise ValueError("unbalanced clusters in the DOT text")
    return DotPicture(root, labels, edges)
