"""The passes that finish a freshly compiled graph, as TorchScript's `runCleanupPasses`.

- `canonicalize_modified_loops`: a `for i in range(n)` loop whose condition
  became a value (a `break`) turns into a while loop with its own counter,
  as Python-recognizable loops must be.
- `lower_simple_tuples`: `prim::TupleUnpack`/`prim::TupleIndex` of a
  `prim::TupleConstruct` read its inputs directly.
- `simplify_control_flow`: an `if` on a constant runs its branch inline;
  an `if` output that is the same value in both branches, and a loop output
  the body passes through unchanged, are replaced by that value.
- dead code elimination, then constant pooling (every constant moved to the
  front of the graph, duplicates merged).

Dead code elimination and pooling here are the frontend's own small
versions: a fresh graph has no aliasing subtleties a conservative rule
misses (every operator that writes memory, and what it reads, stays), and
ts-passes' versions build an alias analysis per run, which would dominate
compile time. The executor runs ts-passes' full pipeline later.
"""

from __future__ import annotations

from typing import Any

from ts_ir import (
    Block,
    BoolType,
    ComplexType,
    DeviceType,
    FloatType,
    Graph,
    IntType,
    Node,
    NoneType,
    StringType,
    Value,
    constant_value,
)
from ts_schema import Tag, registry

from .kinds import (
    CONSTANT,
    IF,
    LOOP,
    TUPLE_CONSTRUCT,
    TUPLE_INDEX,
    TUPLE_UNPACK,
)

INT64_MAX = 2**63 - 1


def run_cleanup(graph: Graph) -> None:
    canonicalize_modified_loops(graph.block)
    lower_simple_tuples(graph.block)
    simplify_control_flow(graph.block)
    eliminate_dead_code(graph)
    constant_pooling(graph)


# -- loops


def _is_true(v: Value) -> bool:
    return v.node.kind is CONSTANT and isinstance(v.type, BoolType) and constant_value(v) is True


def canonicalize_modified_loops(block: Block) -> None:
    for n in list(block.nodes()):
        for b in n.blocks:
            canonicalize_modified_loops(b)
        if n.kind is LOOP:
            _canonicalize_loop(n)


def _canonicalize_loop(n: Node) -> None:
    """Before: `Loop(%n, %c, ...)` with a body condition that is not constant true.

    After: `Loop(INT64_MAX, %n > 0 [and %c], ..., 0)` with the counter carried and
    `counter + 1 < %n and cond` as the body's condition.
    """
    trip, cond = n.inputs[0], n.inputs[1]
    body = n.blocks[0]
    next_cond = body.outputs[0]
    if _is_true(cond) and _is_true(next_cond):
        return
    if trip.node.kind is CONSTANT and constant_value(trip) == INT64_MAX:
        return
    g = n.graph
    with g.inserting_before(n):
        zero = g.insert_constant(0)
        one = g.insert_constant(1)
        condition = g.insert("aten::gt", [trip, zero])
        n.replace_input(0, g.insert_constant(INT64_MAX))
        if not _is_true(cond):
            condition = g.insert("aten::__and__", [condition, cond])
    n.replace_input(1, condition)
    n.add_output(IntType.get())
    n.add_input(zero)
    new_iter = body.add_input(None, IntType.get())
    old_iter = body.inputs[0]
    old_iter.set_debug_name(None)
    old_iter.replace_all_uses_with(new_iter)
    with g.inserting_before(body.return_node):
        inc = g.insert("aten::add", [new_iter, one])
        body.register_output(inc)
        less = g.insert("aten::lt", [inc, trip])
        new_cond = g.insert("aten::__and__", [less, next_cond])
    body.erase_output(0)
    body.insert_output(0, new_cond)


# -- tuples


def lower_simple_tuples(block: Block) -> None:
    for n in list(block.nodes()):
        for b in n.blocks:
            lower_simple_tuples(b)
        if n.kind is TUPLE_UNPACK:
            src = n.input().node
            if src.kind is TUPLE_CONSTRUCT:
                for out, v in zip(n.outputs, src.inputs, strict=True):
                    out.replace_all_uses_with(v)
                n.destroy()
        elif n.kind is TUPLE_INDEX:
            src = n.inputs[0].node
            index = n.inputs[1]
            if src.kind is TUPLE_CONSTRUCT and index.node.kind is CONSTANT:
                i = constant_value(index)
                n.output().replace_all_uses_with(src.inputs[i])
                n.destroy()


# -- control flow


def simplify_control_flow(block: Block) -> None:
    """Constant propagation over immutable values, as TorchScript's cleanup runs it."""
    for n in list(block.nodes()):
        if n.kind is IF:
            cond = n.input()
            if cond.node.kind is CONSTANT:
                taken = n.blocks[0 if constant_value(cond) else 1]
                simplify_control_flow(taken)
                _inline_branch(n, 0 if constant_value(cond) else 1)
                continue
        for b in n.blocks:
            simplify_control_flow(b)
        if n.kind is IF:
            _remove_extra_if_outputs(n)
        elif n.kind is LOOP:
            _remove_extra_loop_outputs(n)
        elif not n.blocks:
            _fold(n)


_IMMUTABLE = (IntType, FloatType, BoolType, StringType, NoneType, ComplexType, DeviceType)


def _fold(n: Node) -> None:
    """Run an operator whose inputs are all constants of immutable types; use its result."""
    if n.kind.ns != "aten" or not n.inputs or not n.outputs:
        return
    for v in (*n.inputs, *n.outputs):
        if not isinstance(v.type, _IMMUTABLE):
            return
    if any(v.node.kind is not CONSTANT for v in n.inputs):
        return
    if n.has_side_effects():
        return
    op = registry.operator_for(n)
    if op is None or op.schema.is_mutable or not op.has_implementation:
        return
    try:
        impl = op.implementation_for(n)
        result = impl(*[constant_value(v) for v in n.inputs])
    except Exception:  # an operator that fails on these values is left to fail at run time
        return
    results = result if len(n.outputs) > 1 else (result,)
    if not isinstance(results, tuple) or len(results) != len(n.outputs):
        return
    g = n.graph
    with g.inserting_before(n):
        try:
            values = [
                g.insert_constant(r, out.type) for r, out in zip(results, n.outputs, strict=True)
            ]
        except Exception:  # not representable as a constant
            return
    for out, v in zip(n.outputs, values, strict=True):
        if not v.type.is_subtype_of(out.type):
            return
    for out, v in zip(n.outputs, values, strict=True):
        out.replace_all_uses_with(v)
    n.destroy()


def _inline_branch(n: Node, which: int) -> None:
    block = n.blocks[which]
    for inner in list(block.nodes()):
        inner.move_before(n)
    for out, v in zip(n.outputs, block.outputs, strict=True):
        out.replace_all_uses_with(v)
    n.destroy()


def _remove_extra_if_outputs(n: Node) -> None:
    then_block, else_block = n.blocks
    for i in range(len(n.outputs) - 1, -1, -1):
        a = then_block.outputs[i]
        if a is else_block.outputs[i]:
            n.outputs[i].replace_all_uses_with(a)
            n.erase_output(i)
            then_block.erase_output(i)
            else_block.erase_output(i)


def _remove_extra_loop_outputs(n: Node) -> None:
    body = n.blocks[0]
    for i in range(len(n.outputs) - 1, -1, -1):
        if body.inputs[1 + i] is body.outputs[1 + i]:
            initial = n.inputs[2 + i]
            n.outputs[i].replace_all_uses_with(initial)
            body.inputs[1 + i].replace_all_uses_with(initial)
            n.erase_output(i)
            n.remove_input(2 + i)
            body.erase_output(1 + i)
            body.erase_input(1 + i)


# -- dead code


class _DeadCode:
    """Mark and sweep: side effects, mutation and the graph's outputs are live."""

    def __init__(self) -> None:
        self.live: set[Value] = set()
        self.live_nodes: set[Node] = set()
        self.memo: dict[Node, bool] = {}

    def has_effects(self, node: Node) -> bool:
        memo = self.memo.get(node)
        if memo is not None:
            return memo
        # tagged side effects, and calls (a forked subgraph may have effects)
        tags = registry.tags_of(node)
        result = Tag.side_effect in tags or Tag.calls in tags
        if not result:
            op = registry.operator_for(node)
            result = op is not None and (
                op.has_side_effects  # a CONSERVATIVE operator
                or (not node.blocks and node.kind is not CONSTANT and op.schema.is_mutable)
            )
        if not result:
            result = any(self.has_effects(m) for b in node.blocks for m in b.nodes())
        self.memo[node] = result
        return result

    def mark_block(self, block: Block) -> None:
        for v in block.outputs:
            self.live.add(v)
        for node in list(block.nodes_reversed()):
            self.mark_node(node)

    def mark_node(self, node: Node) -> None:
        if node.kind is LOOP:
            # as TorchScript's `markLoop`: a loop whose body computes something live (its next
            # condition, or a carried value the body reads) runs, and so is kept
            marked = len(self.live_nodes)
            self.mark_loop(node)
            if len(self.live_nodes) > marked:
                self.live_nodes.add(node)
                for v in node.inputs:
                    self.live.add(v)
                return
        if not (self.has_effects(node) or any(o in self.live for o in node.outputs)):
            return
        self.live_nodes.add(node)
        if node.kind is IF:
            for i, out in enumerate(node.outputs):
                if out in self.live:
                    for b in node.blocks:
                        self.live.add(b.outputs[i])
            for b in node.blocks:
                for m in list(b.nodes_reversed()):
                    self.mark_node(m)
        elif node.kind is LOOP:
            self.mark_loop(node)
        for v in node.inputs:
            self.live.add(v)

    def mark_loop(self, node: Node) -> None:
        body = node.blocks[0]
        self.live.add(body.outputs[0])
        while True:
            before = len(self.live)
            for i, out in enumerate(node.outputs):
                inner = body.inputs[1 + i]
                if out in self.live or inner in self.live or inner.uses:
                    self.live.add(body.outputs[1 + i])
                    self.live.add(out)
            for m in list(body.nodes_reversed()):
                self.mark_node(m)
            if len(self.live) == before:
                break

    def sweep_block(self, block: Block) -> None:
        for node in list(block.nodes_reversed()):
            if node not in self.live_nodes:
                if not any(o.uses for o in node.outputs):
                    node.destroy()
                continue
            if node.kind is IF:
                for i in range(len(node.outputs) - 1, -1, -1):
                    out = node.outputs[i]
                    if out not in self.live and not out.uses:
                        node.erase_output(i)
                        for b in node.blocks:
                            b.erase_output(i)
            elif node.kind is LOOP:
                body = node.blocks[0]
                dead = [
                    i
                    for i, out in enumerate(node.outputs)
                    if out not in self.live and body.inputs[1 + i] not in self.live and not out.uses
                ]
                for i in reversed(dead):
                    body.erase_output(1 + i)
                self.sweep_block(body)
                for i in reversed(dead):
                    inner = body.inputs[1 + i]
                    if inner.uses:  # still read inside: keep it carried unchanged
                        body.insert_output(1 + i, inner)
                        continue
                    body.erase_input(1 + i)
                    node.erase_output(i)
                    node.remove_input(2 + i)
                continue
            for b in node.blocks:
                self.sweep_block(b)


def _local_dead_code_elimination(graph: Graph) -> None:
    dce = _DeadCode()
    dce.mark_block(graph.block)
    dce.sweep_block(graph.block)


def _local_constant_pooling(graph: Graph) -> None:
    seen: dict[Any, Node] = {}
    order: list[Node] = []

    def visit(block: Block) -> None:
        for node in list(block.nodes()):
            if node.blocks:
                for b in node.blocks:
                    visit(b)
                continue
            if node.kind is not CONSTANT:
                continue
            key = _constant_key(node)
            existing = seen.get(key)
            if existing is not None:
                node.output().replace_all_uses_with(existing.output())
                if node.output().has_debug_name() and not existing.output().has_debug_name():
                    existing.output().set_debug_name(node.output().debug_name)
                node.destroy()
                continue
            seen[key] = node
            order.append(node)

    visit(graph.block)
    for node in order:
        first = graph.block.return_node.next
        if first is not node:
            node.move_before(first)  # type: ignore[arg-type]


def _constant_key(node: Node) -> Any:
    out = node.output()
    items = []
    for name in node.attribute_names():
        kind, value = node._attr_entry(name)
        if hasattr(value, "numel") and hasattr(value, "dim"):
            value = ("tensor", id(value))
        elif isinstance(value, list):
            value = tuple(value)
        items.append((name, kind, type(value).__name__, repr(value)))
    return (str(out.type), type(out.type).__name__, tuple(items))


def eliminate_dead_code(graph: Graph) -> None:
    _local_dead_code_elimination(graph)


def constant_pooling(graph: Graph) -> None:
    _local_constant_pooling(graph)
