"""`.code`: a graph printed back as TorchScript-style Python.

    def seed_if(a: Tensor,
        b: Tensor,
        c: bool) -> Tensor:
      d = torch.add(a, b)
      if c:
        e = torch.add(d, d)
      else:
        e = torch.add(b, d)
      return e

Operators print as `torch.<name>(...)` (other namespaces as
`ops.<ns>.<name>(...)`) without the arguments that equal their schema's
defaults; constants print as literals; lists, tuples, indexing and attribute
access print as Python syntax; `prim::If` and `prim::Loop` print as `if`,
`for ... in range(...)` and `while`. A value used once, right where it is
computed, is inlined into its user unless the program named it, as
TorchScript's printer does.
"""

from __future__ import annotations

from typing import Any

from ts_ir import (
    Block,
    ClassType,
    Graph,
    Node,
    Value,
    constant_value,
    format_double,
)

from .kinds import (
    CALL_FUNCTION,
    CALL_METHOD,
    CONSTANT,
    DICT_CONSTRUCT,
    FORK,
    GET_ATTR,
    IF,
    ISINSTANCE,
    LIST_CONSTRUCT,
    LIST_UNPACK,
    LOOP,
    PRINT,
    RAISE_EXCEPTION,
    RETURN,
    SET_ATTR,
    TUPLE_CONSTRUCT,
    TUPLE_INDEX,
    TUPLE_UNPACK,
    UNCHECKED_CAST,
    UNINITIALIZED,
)

INT64_MAX = 2**63 - 1


def _literal(value: Any) -> str:
    if value is None:
        return "None"
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, float):
        return format_double(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    if isinstance(value, (list, tuple)):
        items = ", ".join(_literal(v) for v in value)
        if isinstance(value, tuple):
            return "(" + items + ("," if len(value) == 1 else "") + ")"
        return "[" + items + "]"
    return repr(value)


class PythonPrinter:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.names: dict[Value, str] = {}
        self.used: set[str] = set()
        self.inline: set[Node] = set()
        self.forks = 0

    # -- naming

    def fresh(self, base: str) -> str:
        base = base or "_"
        if base != "_" and base.isidentifier() and base not in self.used:
            self.used.add(base)
            return base
        i = 0
        while True:
            candidate = f"{base}{i}" if base != "_" else f"_{i}"
            if candidate not in self.used:
                self.used.add(candidate)
                return candidate
            i += 1

    def name(self, v: Value) -> str:
        n = self.names.get(v)
        if n is None:
            base = v.debug_name_base() if v.has_debug_name() else ""
            base = "".join(ch if ch.isalnum() or ch == "_" else "_" for ch in base)
            if base[:1].isdigit():
                base = "_" + base
            n = self.names[v] = self.fresh(base)
        return n

    def alias(self, v: Value, name: str) -> None:
        self.names[v] = name

    # -- inlining decisions (TorchScript's scanBlock)

    def can_inline(self, v: Value) -> bool:
        n = v.node
        if len(n.outputs) != 1 or len(v.uses) != 1 or n.blocks:
            return False
        use = v.uses[0]
        if v.has_debug_name() and use.user.kind is not RETURN:
            return False
        if use.user.kind is LOOP and use.offset >= 2:
            return False
        if use.user.kind is FORK or n.kind is ISINSTANCE:
            return False
        return not (n.kind is TUPLE_UNPACK or n.kind is LIST_UNPACK)

    def scan_block(self, b: Block) -> None:
        self.scan_node(b.return_node)
        for n in list(b.nodes_reversed()):
            self.scan_node(n)

    def scan_node(self, n: Node) -> Node:
        if n in self.inline:
            return n
        for b in n.blocks:
            self.scan_block(b)
        point = n.prev
        ret = n.owning_block.return_node if n.owning_block is not None else None
        while point is not None and point.kind is CONSTANT and point is not ret:
            point = point.prev
        for v in reversed(n.inputs):
            point = self.scan_value(point, v)  # type: ignore[arg-type]
        return point  # type: ignore[return-value]

    def scan_value(self, point: Node, v: Value) -> Node:
        n = v.node
        if n.kind is CONSTANT:
            self.inline.add(n)
            return point
        if n is point and self.can_inline(v):
            point = self.scan_node(n)
            self.inline.add(n)
        return point

    # -- expressions

    def expr(self, v: Value) -> str:
        n = v.node
        if n.kind is CONSTANT:
            if n.has_attribute("name") and not n.has_attribute("value"):
                return n.s("name")
            return _literal(constant_value(v))
        if n in self.inline:
            return self.node_expr(n)
        return self.name(v)

    def args(self, values: list[Value]) -> str:
        return ", ".join(self.expr(v) for v in values)

    def node_expr(self, n: Node) -> str:
        kind = n.kind
        ins = n.inputs
        if kind is TUPLE_CONSTRUCT:
            items = self.args(ins)
            return f"({items},)" if len(ins) == 1 else f"({items})"
        if kind is LIST_CONSTRUCT:
            return f"[{self.args(ins)}]"
        if kind is DICT_CONSTRUCT:
            pairs = [f"{self.expr(ins[i])}: {self.expr(ins[i + 1])}" for i in range(0, len(ins), 2)]
            return "{" + ", ".join(pairs) + "}"
        if kind is TUPLE_INDEX or kind == "aten::__getitem__":
            return f"{self.expr(ins[0])}[{self.expr(ins[1])}]"
        if kind is GET_ATTR:
            attr = n.s("name")
            base = self.expr(ins[0])
            return f"{base}.{attr}" if attr.isidentifier() else f'getattr({base}, "{attr}")'
        if kind is CALL_METHOD:
            return f"({self.expr(ins[0])}).{n.s('name')}({self.args(ins[1:])}, )"
        if kind is CALL_FUNCTION:
            return f"{self.expr(ins[0])}({self.args(ins[1:])}, )"
        if kind is UNCHECKED_CAST:
            return f"unchecked_cast({n.output().type.annotation_str()}, {self.expr(ins[0])})"
        if kind is UNINITIALIZED:
            return f"uninitialized({n.output().type.annotation_str()})"
        if kind is ISINSTANCE:
            types = ", ".join(t.annotation_str() for t in n.tys("types"))
            return f"isinstance({self.expr(ins[0])}, ({types},))"
        if kind == "aten::wait":
            return f"torch.wait({self.expr(ins[0])})"
        return self.call_expr(n)

    def call_expr(self, n: Node) -> str:
        kind = n.kind
        prefix = "torch" if kind.ns == "aten" else f"ops.{kind.ns}"
        schema = None
        try:
            schema = n.maybe_schema()
        except Exception:  # no registry answer: print every input
            schema = None
        ins = list(n.inputs)
        if schema is None or schema.is_vararg:
            return f"{prefix}.{kind.name}({self.args(ins)})"
        formals = list(schema.arguments)
        keep = len(ins)
        while keep > 0 and keep <= len(formals) and _is_default(ins[keep - 1], formals[keep - 1]):
            keep -= 1
        parts = []
        for i in range(keep):
            formal = formals[i] if i < len(formals) else None
            if formal is not None and formal.kwarg_only:
                if _is_default(ins[i], formal):
                    continue
                parts.append(f"{formal.name}={self.expr(ins[i])}")
            else:
                parts.append(self.expr(ins[i]))
        return f"{prefix}.{kind.name}({', '.join(parts)})"

    # -- statements

    def emit(self, indent: int, text: str) -> None:
        self.lines.append("  " * indent + text)

    def assign(self, indent: int, targets: list[Value], sources: list[str]) -> None:
        if not targets:
            return
        names = [self.name(t) for t in targets]
        pairs = [(a, b) for a, b in zip(names, sources, strict=True) if a != b]
        if not pairs:
            return
        lhs = ", ".join(a for a, _ in pairs)
        rhs = ", ".join(b for _, b in pairs)
        self.emit(indent, f"{lhs} = {rhs}")

    def block(self, b: Block, indent: int) -> None:
        start = len(self.lines)
        for n in b.nodes():
            self.node(n, indent)
        if len(self.lines) == start:
            self.emit(indent, "pass")

    def node(self, n: Node, indent: int) -> None:
        kind = n.kind
        if n in self.inline or kind is CONSTANT:
            return
        if kind is IF:
            self.if_node(n, indent)
        elif kind is LOOP:
            self.loop_node(n, indent)
        elif kind is SET_ATTR:
            base = self.expr(n.inputs[0])
            attr = n.s("name")
            self.emit(indent, f"{base}.{attr} = {self.expr(n.inputs[1])}")
        elif kind is RAISE_EXCEPTION:
            self.emit(indent, f"ops.RAISE_EXCEPTION({self.args(n.inputs)})")
        elif kind is PRINT:
            self.emit(indent, f"print({self.args(n.inputs)})")
        elif kind is TUPLE_UNPACK or kind is LIST_UNPACK:
            names = ", ".join(self.name(o) for o in n.outputs)
            self.emit(indent, f"{names}, = {self.expr(n.inputs[0])}")
        elif kind is FORK:
            self.fork_node(n, indent)
        elif not n.outputs:
            self.emit(indent, self.node_expr(n))
        elif len(n.outputs) == 1:
            self.emit(indent, f"{self.name(n.output())} = {self.node_expr(n)}")
        else:
            names = ", ".join(self.name(o) for o in n.outputs)
            self.emit(indent, f"{names} = {self.node_expr(n)}")

    def if_node(self, n: Node, indent: int) -> None:
        for o in n.outputs:
            self.name(o)
        self.emit(indent, f"if {self.expr(n.inputs[0])}:")
        then_block, else_block = n.blocks
        self.branch(then_block, n, indent + 1)
        if else_block.is_empty() and not n.outputs:
            return
        self.emit(indent, "else:")
        self.branch(else_block, n, indent + 1)

    def branch(self, b: Block, n: Node, indent: int) -> None:
        start = len(self.lines)
        for inner in b.nodes():
            self.node(inner, indent)
        self.assign(indent, list(n.outputs), [self.expr(v) for v in b.outputs])
        if len(self.lines) == start:
            self.emit(indent, "pass")

    def loop_node(self, n: Node, indent: int) -> None:
        trip, cond, *init = n.inputs
        body = n.blocks[0]
        counter, *carried = body.inputs
        for out, carried_value in zip(n.outputs, carried, strict=True):
            self.alias(carried_value, self.name(out))
        self.assign(indent, list(n.outputs), [self.expr(v) for v in init])
        is_for = cond.node.kind is CONSTANT and constant_value(cond) is True
        endless = trip.node.kind is CONSTANT and constant_value(trip) == INT64_MAX
        if is_for and _is_true(body.outputs[0]) and not endless:
            self.emit(indent, f"for {self.name(counter)} in range({self.expr(trip)}):")
            cond_name = None
        else:
            cond_name = self.fresh("_")
            self.emit(indent, f"{cond_name} = {self.expr(cond)}")
            if not endless:
                counter_name = self.name(counter)
                self.emit(indent, f"{counter_name} = 0")
                self.emit(indent, f"while {cond_name} and {counter_name} < {self.expr(trip)}:")
            else:
                self.emit(indent, f"while {cond_name}:")
        start = len(self.lines)
        for inner in body.nodes():
            self.node(inner, indent + 1)
        targets = list(n.outputs)
        sources = [self.expr(v) for v in body.outputs[1:]]
        if cond_name is not None:
            pairs = [(cond_name, self.expr(body.outputs[0]))]
            pairs += [(self.name(t), s) for t, s in zip(targets, sources, strict=True)]
            pairs = [(a, b) for a, b in pairs if a != b]
            if pairs:
                self.emit(
                    indent + 1,
                    ", ".join(a for a, _ in pairs) + " = " + ", ".join(b for _, b in pairs),
                )
            if not endless:
                self.emit(indent + 1, f"{self.name(counter)} = torch.add({self.name(counter)}, 1)")
        else:
            self.assign(indent + 1, targets, sources)
        if len(self.lines) == start:
            self.emit(indent + 1, "pass")

    def fork_node(self, n: Node, indent: int) -> None:
        sub: Graph = n.g("Subgraph")
        fn_name = "__forked_function" if self.forks == 0 else f"__forked_function{self.forks}"
        self.forks += 1
        inner = PythonPrinter()
        inner.used = set(self.used)
        for v, outer in zip(sub.inputs, n.inputs, strict=True):
            inner.alias(v, self.expr(outer))
        inner.scan_block(sub.block)
        for node in sub.nodes():
            inner.node(node, 0)
        self.emit(indent, f"def {fn_name}():")
        for line in inner.lines:
            self.emit(indent + 1, line)
        self.emit(indent + 1, f"return {inner.args(list(sub.outputs))}")
        self.emit(indent, f"{self.name(n.output())} = fork({fn_name})")


def _is_true(v: Value) -> bool:
    return v.node.kind is CONSTANT and constant_value(v) is True


def _is_default(v: Value, formal: Any) -> bool:
    if not formal.has_default_value or v.node.kind is not CONSTANT:
        return False
    if v.node.has_attribute("name") and not v.node.has_attribute("value"):
        return False
    value = constant_value(v)
    default = formal.default_value
    if isinstance(default, list):
        default = list(default)
    return (type(value) is type(default) and value == default) or (
        value is None and default is None
    )


def print_graph_as_python(graph: Graph, name: str, *, method: bool = False) -> str:
    p = PythonPrinter()
    p.scan_block(graph.block)
    params = []
    for i, v in enumerate(graph.inputs):
        n = p.name(v)
        if method and i == 0 and isinstance(v.type, ClassType):
            params.append(n)
        else:
            params.append(f"{n}: {v.type.annotation_str()}")
    ret = graph.outputs[0].type.annotation_str() if len(graph.outputs) == 1 else "None"
    header = f"def {name}(" + ",\n    ".join(params) + f") -> {ret}:"
    for node in graph.nodes():
        p.node(node, 1)
    p.emit(1, f"return {p.args(list(graph.outputs))}")
    return header + "\n" + "\n".join(p.lines) + "\n"


def print_function(fn: Any) -> str:
    """The `.code` of a compiled function or method."""
    graph = fn.graph
    method = bool(graph.inputs) and isinstance(graph.inputs[0].type, ClassType)
    return print_graph_as_python(graph, fn.name, method=method)
