"""Constant pooling, as TorchScript's `constant_pooling.cpp`.

Every `prim::Constant` moves to the front of the graph (out of nested blocks
too), and equal constants (same type and value) become one:

    %a : int = prim::Constant[value=1]()        %b : int = prim::Constant[value=2]()
    %y = aten::add(%x, %a)                  →   %a : int = prim::Constant[value=1]()
    %b : int = prim::Constant[value=2]()        %y = aten::add(%x, %a)
    %c : int = prim::Constant[value=1]()        %z = aten::mul(%y, %b, %a)
    %z = aten::mul(%y, %b, %c)

Constants are moved one at a time to the front in program order, so their
order ends up reversed, exactly as TorchScript's pass leaves it (and so a
second run reverses them again: each run reports the change it makes).
Two constants that may be returned as graph outputs are not merged, so
graph outputs never begin to alias. Tensor constants merge when their types
and elements are equal and nothing writes to either.
"""

from __future__ import annotations

from ts_ir import AttributeKind, Block, Graph, Node, TensorLiteral, prim

from .alias_analysis import AliasDb
from .jit_log import PassLogger
from .node_properties import constant_key

log = PassLogger(__name__)


def _pool_block(
    block: Block, graph: Graph, seen: dict[tuple, Node], db: AliasDb, dead: list[Node]
) -> bool:
    changed = False
    for node in block.nodes():
        if node.blocks:
            for b in node.blocks:
                changed |= _pool_block(b, graph, seen, db, dead)
            continue
        if node.kind is not prim.Constant:
            continue
        key = _tensor_value_key(node, db) or constant_key(node)
        existing = seen.get(key)
        if existing is not None:
            outputs = graph.outputs
            if db.may_contain_alias(node.outputs, outputs) and db.may_contain_alias(
                existing.outputs, outputs
            ):
                continue
            if not log.allowed():
                continue
            log.update(lambda node=node, existing=existing: f"pooling {node!r} into {existing!r}")
            node.replace_all_uses_with(existing)
            dead.append(node)
            changed = True
            continue
        seen[key] = node
        first = graph.block.return_node.next
        if node is not first:
            assert first is not None
            node.move_before(first)
            changed = True
    return changed


def _tensor_value_key(node: Node, db: AliasDb) -> tuple | None:
    """Tensor constants of one type holding the same elements are one constant, where
    nothing writes to either (a write through one would show through the other)."""
    if not node.has_attribute("value") or node.kind_of("value") is not AttributeKind.t:
        return None
    t = node.attr("value")
    if isinstance(t, TensorLiteral) or not hasattr(t, "numpy") or db.has_writers(node.output()):
        return None
    try:
        array = t.numpy()
        elements = array.tobytes()  # in C order, whatever the strides
    except Exception:  # a tensor numpy cannot hold: only the same object is equal
        return None
    return ("tensor", node.output().type, str(t.dtype), tuple(array.shape), elements)


def constant_pooling(graph: Graph) -> bool:
    """Hoist every constant to the front of the graph and merge equal ones."""
    db = AliasDb(graph)
    dead: list[Node] = []
    changed = _pool_block(graph.block, graph, {}, db, dead)
    for node in reversed(dead):
        node.destroy()
    if changed:
        log.dump("after constant pooling", graph)
    return changed
