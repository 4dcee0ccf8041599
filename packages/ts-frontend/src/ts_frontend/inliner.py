"""Inlining calls: `prim::CallFunction` and `prim::CallMethod` replaced by the callee's body.

    %f = prim::Constant[name="helper"]()          %3 = aten::mul(%x, %2)
    %y = prim::CallFunction(%f, %x)        →       %y = aten::add(%3, %x, %1)

Callees are inlined recursively, so the result calls nothing compiled
(`@ignore`d Python functions stay calls). ts-passes' `inline` is used when
that package provides it (`ts_passes.inline_calls`).
"""

from __future__ import annotations

from typing import Any

from ts_ir import Block, ClassType, FunctionType, Graph, Node, Value

from .kinds import CALL_FUNCTION, CALL_METHOD, CONSTANT


def _callee_graph(node: Node) -> Graph | None:
    if node.kind is CALL_FUNCTION:
        typ = node.inputs[0].type
        fn = typ.function if isinstance(typ, FunctionType) else None
    else:
        typ = node.inputs[0].type
        fn = typ.methods.get(node.s("name")) if isinstance(typ, ClassType) else None
    graph = getattr(fn, "graph", None)
    return graph if isinstance(graph, Graph) else None


def _inline_block(block: Block, depth: int) -> None:
    for node in list(block.nodes()):
        for b in node.blocks:
            _inline_block(b, depth)
        if node.kind is CALL_FUNCTION or node.kind is CALL_METHOD:
            callee = _callee_graph(node)
            if callee is None or depth > 64:
                continue
            inputs = list(node.inputs[1:]) if node.kind is CALL_FUNCTION else list(node.inputs)
            outputs = _insert_graph(node, callee, inputs)
            for old, new in zip(node.outputs, outputs, strict=True):
                old.replace_all_uses_with(new)
            fn_value = node.inputs[0]
            node.destroy()
            if fn_value.node.kind is CONSTANT and not fn_value.uses:
                fn_value.node.destroy()


def _insert_graph(before: Node, callee: Graph, inputs: list[Value]) -> list[Value]:
    g = before.graph
    copy = callee.copy()
    inline_calls(copy)
    env: dict[Value, Value] = dict(zip(copy.inputs, inputs, strict=True))

    def value_map(v: Value) -> Value:
        return env[v]

    for node in copy.nodes():
        clone = g.create_clone(node, value_map)
        clone.insert_before(before)
        for a, b in zip(node.outputs, clone.outputs, strict=True):
            env[a] = b
    return [env[v] for v in copy.outputs]


def inline_calls(graph: Graph) -> Any:
    """Inline every call of a compiled function or method in `graph`, recursively."""
    try:
        import ts_passes

        inline = getattr(ts_passes, "inline_calls", None)
    except ImportError:
        inline = None
    if callable(inline):
        return inline(graph)
    _inline_block(graph.block, 0)
    return None
