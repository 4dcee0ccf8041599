"""Guard elimination, as TorchScript's `guard_elimination.cpp`: fewer, earlier guards.

`eliminate_redundant_guards` runs the four steps below (each a pass of its
own too); PyTorch runs them in this order, here the dominated and derivable
guards go first, so that only the few left pay for a move (each walks its
block: a profiled graph has a guard per use, O(uses x nodes) moved first).

- `move_guards_to_defs`: each `prim::Guard` moves up to just after the
  definition of the value it checks (to the top of its block when the value
  comes from outside), as far as alias analysis allows. Guards of one value
  then sit side by side:

      %a = aten::mul(%x, %y)                 %a = aten::mul(%x, %y)
      %b = aten::relu(%x)             →      %a.1 = prim::Guard(%a)
      %a.1 = prim::Guard(%a)                 %b = aten::relu(%x)

- `coalesce_guards`: in a run of guards (constants may sit between them), a
  second guard of the same value with the same type (or a type the first
  implies) reads the first one's result instead.
- `remove_dominated_guards`: a guard of a value nothing writes replaces the
  guards of that value it dominates whose types it implies (those in nested
  blocks, say).
- `eliminate_guards`: a guard is redundant when its value's type, derived by
  shape propagation from the checked types of the inputs of the node that
  computed it, already says everything the guard would check (dtype,
  device, requires_grad, sizes; strides where the rule tells them, and a
  layout it cannot tell is left unknown rather than checked); TorchScript
  keeps a hand-made list of such operators, here every operator with a
  shape rule qualifies:

      %x.1 : Float(4, strides=[1], ...) = prim::Guard(%x)
      %y : Tensor = aten::sigmoid(%x.1)
      %y.1 : Float(4, strides=[1], ...) = prim::Guard(%y)      ← removed: sigmoid's rule
      %z : Tensor = aten::neg(%y.1)                                derives this type

  Values something writes to keep their guards (an in-place op may change
  what the rule derived). Afterwards every type is recomputed from the
  guards that remain (`refine_types_from_checks`), so types claim only what
  is checked.
"""

from __future__ import annotations

from ts_ir import Block, Graph, Node, TensorType, Type, prim

from .alias_analysis import AliasDb
from .jit_log import PassLogger
from .profiling_instrumentation import refine_types_from_checks

log = PassLogger(__name__)

GUARD = prim.Guard
_RUN_KINDS = frozenset({prim.Guard, prim.Constant})
_MAX_ATTEMPTS = 5


def _guards(block: Block) -> list[Node]:
    return [n for n in block.nodes() if n.kind is GUARD]


def _implies(stronger: Node, weaker: Node) -> bool:
    """Whether a guard's check implies another's (its type is a subtype of the other's)."""
    return stronger.output().type.is_subtype_of(weaker.output().type)


# -- move_guards_to_defs


def _placed(node: Node, anchor: Node | None) -> bool:
    """Whether a guard already sits right after `anchor` (None: the start of its block), with
    only guards and constants between."""
    block = node.owning_block
    assert block is not None
    p = node.prev
    while p is not None and p is not anchor and p is not block.return_node:
        if p.kind not in _RUN_KINDS:
            break
        p = p.prev
    return p is (anchor if anchor is not None else block.return_node)


def _move_in(block: Block, db: AliasDb) -> bool:
    changed = False
    for node in list(block.nodes()):
        if node.kind is GUARD:
            guardee = node.input(0).node
            # a value from an enclosing block (or an input): the guard goes to the top
            anchor = (
                guardee
                if guardee.owning_block is block and guardee.kind is not prim.Param
                else None
            )
            if _placed(node, anchor):
                continue
            if anchor is not None:
                moved = db.move_after_topologically_valid(node, anchor)
            else:
                first = block.return_node.next
                assert first is not None
                moved = db.move_before_topologically_valid(node, first)
            if moved:
                changed = True
                log.update("moved the guard of %%%s to its definition", node.input(0).debug_name)
        else:
            for b in node.blocks:
                changed |= _move_in(b, db)
    return changed


def move_guards_to_defs(graph: Graph) -> bool:
    """Move every `prim::Guard` just after the definition of what it checks (see the module
    docstring); True if any moved."""
    db = AliasDb(graph)
    changed = False
    for _ in range(_MAX_ATTEMPTS):
        if not _move_in(graph.block, db):
            break
        changed = True
    return changed


# -- coalesce_guards


def _coalesce_in(block: Block) -> int:
    removed = 0
    seen: dict[object, list[Node]] = {}
    for node in list(block.nodes()):
        if node.kind is GUARD:
            same_value = seen.setdefault(node.input(0), [])
            keep = next((g for g in same_value if _implies(g, node)), None)
            if keep is not None and log.allowed():
                node.output().replace_all_uses_with(keep.output())
                node.destroy()
                removed += 1
                continue
            weaker = [g for g in same_value if _implies(node, g)]
            if weaker and log.allowed():
                # the later guard checks more: the earlier ones read its result (no use of
                # a guard sits inside the run, so its uses all come after this one)
                for g in weaker:
                    g.output().replace_all_uses_with(node.output())
                    g.destroy()
                    same_value.remove(g)
                    removed += 1
            same_value.append(node)
        elif node.kind is not prim.Constant:
            seen.clear()
            for b in node.blocks:
                removed += _coalesce_in(b)
    return removed


def coalesce_guards(graph: Graph) -> bool:
    """Merge guards of the same value that sit side by side (see the module docstring); True
    if any was removed."""
    removed = _coalesce_in(graph.block)
    if removed:
        log.update("coalesced %d guards", removed)
    return removed > 0


# -- remove_dominated_guards


def _remove_dominated_in(block: Block, db: AliasDb) -> int:
    removed = 0
    for node in list(block.nodes()):
        if node.owning_block is None:
            continue  # removed as dominated by an earlier guard
        if node.kind is GUARD:
            value = node.input(0)
            if db.has_writers(value):
                continue
            for use in list(value.uses):
                other = use.user
                if (
                    other is node
                    or other.kind is not GUARD
                    or not other.is_dominated_by(node)
                    or not _implies(node, other)
                    or not log.allowed()
                ):
                    continue
                other.output().replace_all_uses_with(node.output())
                other.destroy()
                removed += 1
        else:
            for b in node.blocks:
                removed += _remove_dominated_in(b, db)
    return removed


def remove_dominated_guards(graph: Graph) -> bool:
    """Remove guards implied by a guard of the same value that dominates them; True if any was
    removed."""
    removed = _remove_dominated_in(graph.block, AliasDb(graph))
    if removed:
        log.update("removed %d dominated guards", removed)
    return removed > 0


# -- eliminate_guards


def _derives(derived: TensorType, checked: Type) -> bool:
    """Whether a derived type tells all a guard checks, strides aside: a layout shape
    propagation cannot tell is left unclaimed (only a fusion group's inputs need it, and a
    type check of its own then verifies it), but one it claims must agree."""
    if not isinstance(checked, TensorType):
        return False
    if not derived.with_sizes(derived.sizes).is_subtype_of(checked.with_sizes(checked.sizes)):
        return False
    return derived.strides is None or derived.is_subtype_of(checked)


def eliminate_guards(graph: Graph) -> bool:
    """Remove guards whose type shape propagation derives from checked types (see the module
    docstring); True if any was removed."""
    refine_types_from_checks(graph)
    db = AliasDb(graph)
    removed = 0
    for node in list(graph.all_nodes()):
        if node.kind is not GUARD:
            continue
        value = node.input(0)
        producer = value.node
        if producer.kind is prim.Param or not isinstance(value.type, TensorType):
            continue  # an input: nothing derives its type
        if db.has_writers(value) or not _derives(value.type, node.output().type):
            continue
        if not log.allowed():
            continue
        log.update(
            "%s derives the type of %%%s: its guard is redundant", producer.kind, value.debug_name
        )
        node.output().replace_all_uses_with(value)
        node.destroy()
        removed += 1
    if removed:
        refine_types_from_checks(graph)
    return removed > 0


def eliminate_redundant_guards(graph: Graph) -> bool:
    """`remove_dominated_guards`, `eliminate_guards`, `move_guards_to_defs`, `coalesce_guards`
    (PyTorch's `EliminateRedundantGuards`, whose moves come first); True if any changed the
    graph."""
    # PyTorch moves first; here the guards of one value that dominate each other merge, and
    # the derivable ones go, before the few left move (each move walks its block)
    changed = remove_dominated_guards(graph)
    changed |= eliminate_guards(graph)
    changed |= move_guards_to_defs(graph)
    changed |= coalesce_guards(graph)
    log.dump("after guard elimination", graph)
    return changed
