"""Common subexpression elimination, as TorchScript's `common_subexpression_elimination.cpp`.

A node equal to an earlier one (same kind, inputs, attributes and output
types) in the same block or an enclosing one is replaced by it:

    %a = aten::mul(%x, %y)
    %b = aten::mul(%x, %y)        # uses of %b now use %a; %b is removed

Never merged: nodes with side effects, nondeterministic nodes (rand,
dropout), nodes with blocks, and nodes whose inputs or outputs may be
written (alias analysis); nor where merging would make two graph outputs
alias each other.
"""

from __future__ import annotations

from collections.abc import Callable

from ts_ir import Block, Graph, Node, prim

from .alias_analysis import AliasDb
from .jit_log import PassLogger
from .node_properties import is_nondeterministic, node_key

log = PassLogger(__name__)


def _cse_block(
    block: Block,
    db: AliasDb,
    parent_lookup: Callable[[tuple], Node | None],
    dead: list[Node],
) -> bool:
    changed = False
    seen: dict[tuple, Node] = {}
    graph_outputs = block.graph.outputs

    def lookup(key: tuple) -> Node | None:
        found = seen.get(key)
        return found if found is not None else parent_lookup(key)

    for node in block.nodes():
        if node.kind in (prim.profile, prim.Param, prim.Return):
            continue
        if node.has_side_effects() or is_nondeterministic(node):
            continue
        if node.blocks:
            for b in node.blocks:
                changed |= _cse_block(b, db, lookup, dead)
            continue
        if node.has_attribute("Subgraph"):
            continue
        if db.has_writers(node):
            continue
        key = node_key(node)
        existing = parent_lookup(key)
        if existing is None:
            existing = seen.get(key)
            if existing is None:
                seen[key] = node
                continue
            if db.may_alias(node.outputs, graph_outputs) and db.may_alias(
                existing.outputs, graph_outputs
            ):
                continue
        elif not db.safe_to_change_aliasing_relationship(node.outputs, existing.outputs):
            continue
        if not log.allowed():
            continue
        log.update(lambda node=node, existing=existing: f"replacing {node!r} with {existing!r}")
        node.replace_all_uses_with(existing)
        dead.append(node)
        changed = True
    return changed


def eliminate_common_subexpression(graph: Graph, *, alias_db: AliasDb | None = None) -> bool:
    """Replace repeated pure computations by their first occurrence."""
    db = alias_db if alias_db is not None else AliasDb(graph)
    log.dump("before CSE", graph)
    dead: list[Node] = []
    changed = _cse_block(graph.block, db, lambda key: None, dead)
    # destroyed last to first: their uses leave from the back of the use lists
    for node in reversed(dead):
        node.destroy()
    if changed:
        log.dump("after CSE", graph)
    return changed
