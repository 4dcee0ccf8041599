"""Inlining of calls whose callee graph is known, as TorchScript's `inliner.cpp`.

    %f : Function = prim::Constant[name="helper"]()
    %y = prim::CallFunction(%f, %x)          →   (helper's nodes, on %x)

`prim::CallFunction` inlines when its function constant's `FunctionType`
carries a `function` with a `.graph`, or when `resolver(name)` (an argument
of the pass) returns such an object or a `Graph`. `prim::CallMethod[name=m]`
inlines when the receiver's `ClassType.methods[m]` has a `.graph` (whose
first input is `self`), or through `resolver("<class>.<m>")`. Callees are
inlined into each other first (recursion stops at a depth of 64). Calls
whose callee is unknown stay.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ts_ir import Block, ClassType, FunctionType, Graph, Node, Value, prim

from .jit_log import PassLogger

log = PassLogger(__name__)

Resolver = Callable[[str], Any]
MAX_DEPTH = 64


def _graph_of(obj: Any) -> Graph | None:
    if isinstance(obj, Graph):
        return obj
    g = getattr(obj, "graph", None)
    return g if isinstance(g, Graph) else None


def _resolve(resolver: Resolver | None, name: str | None) -> Graph | None:
    if resolver is None or not name:
        return None
    try:
        return _graph_of(resolver(name))
    except Exception:
        return None


def callee_graph(node: Node, resolver: Resolver | None = None) -> Graph | None:
    """The graph a call node runs, where it can be known."""
    if node.kind is prim.CallFunction:
        fn = node.inputs[0]
        t = fn.type
        if isinstance(t, FunctionType):
            g = _graph_of(t.function) if t.function is not None else None
            if g is not None:
                return g
            name = t.function_name
            if name is None and fn.node.kind is prim.Constant and fn.node.has_attribute("name"):
                name = fn.node.s("name")
            return _resolve(resolver, name)
        if fn.node.kind is prim.Constant and fn.node.has_attribute("name"):
            return _resolve(resolver, fn.node.s("name"))
        return None
    if node.kind is prim.CallMethod:
        receiver = node.inputs[0].type
        name = node.s("name") if node.has_attribute("name") else None
        if isinstance(receiver, ClassType) and name:
            method = receiver.methods.get(name)
            g = _graph_of(method) if method is not None else None
            if g is not None:
                return g
            return _resolve(resolver, f"{receiver.qualified_name}.{name}")
    return None


def insert_graph(graph: Graph, callee: Graph, inputs: list[Value]) -> list[Value]:
    """Copy `callee`'s nodes at `graph`'s insertion point, reading `inputs`; its outputs."""
    value_map: dict[Value, Value] = dict(zip(callee.inputs, inputs, strict=True))

    def get(v: Value) -> Value:
        return value_map[v]

    for node in callee.nodes():
        clone = graph.insert_node(graph.create_clone(node, get))
        for old, new in zip(node.outputs, clone.outputs, strict=True):
            value_map[old] = new
            if old.has_debug_name() and not new.has_debug_name():
                new.set_debug_name(old.debug_name_base() or None)
    return [get(v) for v in callee.outputs]


def _inline_block(block: Block, resolver: Resolver | None, depth: int) -> bool:
    changed = False
    for node in block.nodes():
        for b in node.blocks:
            changed |= _inline_block(b, resolver, depth)
        if node.kind not in (prim.CallFunction, prim.CallMethod):
            continue
        callee = callee_graph(node, resolver)
        if callee is None:
            continue
        if depth >= MAX_DEPTH:
            log.debug("not inlining %s: calls nested too deeply", node.kind)
            continue
        n_args = len(node.inputs) - (1 if node.kind is prim.CallFunction else 0)
        if len(callee.inputs) != n_args or len(callee.outputs) != len(node.outputs):
            continue
        if not log.allowed():
            continue
        body = callee.copy()
        _inline_block(body.block, resolver, depth + 1)
        args = node.inputs[1:] if node.kind is prim.CallFunction else node.inputs
        graph = node.graph
        with graph.inserting_before(node):
            outputs = insert_graph(graph, body, list(args))
        log.update(lambda node=node: f"inlining {node!r}")
        for out, new in zip(node.outputs, outputs, strict=True):
            out.replace_all_uses_with(new)
        node.destroy()
        changed = True
    return changed


def inline_calls(graph: Graph, *, resolver: Resolver | None = None) -> bool:
    """Inline every call whose callee graph is known (see the module docstring)."""
    changed = _inline_block(graph.block, resolver, 0)
    if changed:
        log.dump("after inlining", graph)
    return changed
