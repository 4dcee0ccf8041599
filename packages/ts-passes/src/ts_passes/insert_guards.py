"""Guards from profiles, as TorchScript's `insert_guards.cpp`, and type checks for fusion
groups, as its TensorExpr fuser's `insertTypeGuard`.

`insert_guards` turns each `prim::profile` that recorded a type into a
`prim::Guard` whose output has that type; a profile that recorded nothing
(its use never ran) or saw something other than a tensor is removed:

    %1 : Tensor = prim::profile[profiled_type=Float(4, strides=[1], requires_grad=0, device=cpu), seen_none=0](%x)
      →  %1 : Float(4, strides=[1], requires_grad=0, device=cpu) = prim::Guard(%x)

Guards inside blocks of nodes other than `prim::If` and `prim::Loop` are not
inserted: a bailout could not resume there.

`insert_type_checks` guards each fusion group whose inputs can all be given
complete types (dtype, device, sizes, strides) with one `prim::TypeCheck`,
the group on its true side and a `prim::FallbackGraph` (the group's subgraph
with tensor types forgotten, for the executor to run as a function of its
own) on the other:

    %y : Float(4, ...) = prim::FusionGroup_0(%x.g)       (%x.g a guard of %x)
      →
    %x.t : Float(4, ...), %ok : bool = prim::TypeCheck[types=[Float(4, ...)]](%x)
    %y : Tensor = prim::If(%ok)
      block0():
        %y.1 : Float(4, ...) = prim::FusionGroup_0(%x.t)
        -> (%y.1)
      block1():
        %y.2 : Tensor = prim::FallbackGraph_1(%x)
        -> (%y.2)

A guard (or bailout) whose only users are fusion groups that get type checks
(and other bailouts, which capture it) moves into those checks: it is
removed, and its check happens only where the group runs. A group input
from any other guard or bailout is already checked and stays out of the
`prim::TypeCheck`; any other input is checked against its type, which must
then be complete. Types downstream of the `prim::If` are recomputed from
the checks that remain (`refine_types_from_checks`).
"""

from __future__ import annotations

from ts_ir import Block, BoolType, Graph, Node, TensorType, Value, prim, unshaped_type

from .jit_log import PassLogger
from .profiling_instrumentation import PROFILE, refine_types_from_checks

log = PassLogger(__name__)

GUARD = prim.Guard
BAILOUT = prim.BailOut
TYPE_CHECK = prim.TypeCheck
FALLBACK_GRAPH = prim.FallbackGraph
FUSION_GROUP = prim.FusionGroup
_RESUMABLE_OWNERS = frozenset({prim.If, prim.Loop})


# ---------------------------------------------------------------------------
# guards


def profiled_type(node: Node) -> TensorType | None:
    """The type a `prim::profile` recorded, or None when it recorded none usable."""
    if not node.has_attribute("profiled_type"):
        return None
    if node.has_attribute("seen_none") and node.i("seen_none"):
        return None
    t = node.ty("profiled_type")
    if not isinstance(t, TensorType) or t.is_plain():
        return None
    return t


def _resumable(block: Block) -> bool:
    """Whether every node enclosing `block` is an If or a Loop (a bailout can resume there)."""
    node = block.owning_node
    while node is not None:
        if node.kind not in _RESUMABLE_OWNERS:
            return False
        owner = node.owning_block
        node = owner.owning_node if owner is not None else None
    return True


def _insert_guards_in(graph: Graph, block: Block, resumable: bool) -> tuple[int, int]:
    guards = dropped = 0
    for node in block.nodes():
        if node.kind is PROFILE and len(node.outputs) == 1:
            t = profiled_type(node) if resumable else None
            if t is not None:
                guard = graph.create(GUARD, [node.input(0)])
                guard.output().set_type(t)
                guard.source_range = node.source_range
                guard.insert_before(node)
                node.output().replace_all_uses_with(guard.output())
                guards += 1
            else:
                node.output().replace_all_uses_with(node.input(0))
                dropped += 1
            node.destroy()
            continue
        for b in node.blocks:
            g, d = _insert_guards_in(graph, b, resumable and node.kind in _RESUMABLE_OWNERS)
            guards += g
            dropped += d
    return guards, dropped


def insert_guards(graph: Graph) -> bool:
    """Each `prim::profile` becomes a `prim::Guard` of its recorded type, or goes away (see the
    module docstring); True if the graph changed."""
    guards, dropped = _insert_guards_in(graph, graph.block, _resumable(graph.block))
    if guards or dropped:
        log.update("inserted %d guards, removed %d profiles without a type", guards, dropped)
        log.dump("after insert_guards", graph)
    return guards + dropped > 0


# ---------------------------------------------------------------------------
# type checks for fusion groups


def _is_check(node: Node) -> bool:
    return node.kind is GUARD or node.kind is BAILOUT


def _checked_input(check: Node) -> Value:
    """The value a guard or bailout checks (a bailout's first input is its template)."""
    return check.inputs[1] if check.kind is BAILOUT else check.inputs[0]


def _only_feeds_groups(check: Node) -> bool:
    """Whether a check's output is read only by fusion groups and captured by bailouts."""
    out = check.output()
    return bool(out.uses) and all(
        u.user.kind is FUSION_GROUP or (u.user.kind is BAILOUT and u.offset >= 2) for u in out.uses
    )


def _complete(v: Value) -> bool:
    return isinstance(v.type, TensorType) and v.type.is_complete()


def _plan_group(group: Node) -> list[int] | None:
    """The positions of the group's inputs a type check may cover, or None when the group
    cannot be specialized (an input's type is incomplete, or it is checked already). Inputs
    from guards that only feed fusion groups are among them; whether those guards move into
    the checks is decided for all groups together."""
    entries: list[int] = []
    for i, v in enumerate(group.inputs):
        if not isinstance(v.type, TensorType):
            continue
        if v.node.kind is TYPE_CHECK:
            return None  # guarded already
        if not _complete(v):
            return None
        if _is_check(v.node) and not _only_feeds_groups(v.node):
            continue  # a guard that stays: the value is known on every path from here
        entries.append(i)
    return entries


def _fallback_graph(graph: Graph, group: Node, inputs: list[Value]) -> Node:
    """A `prim::FallbackGraph` over `inputs` running a copy of the group's subgraph."""
    sub = group.g("Subgraph").copy()
    for v in sub.inputs:
        v.set_type(unshaped_type(v.type))
    for node in sub.all_nodes():
        if node.kind is not prim.Constant:
            for o in node.outputs:
                o.set_type(unshaped_type(o.type))
    fallback = graph.create(FALLBACK_GRAPH, inputs, 0)
    fallback.g_("Subgraph", sub)
    for out in group.outputs:
        fallback.add_output(unshaped_type(out.type))
    return fallback


def _guard_group(graph: Graph, group: Node, entries: list[int], moved: set[Node]) -> None:
    raw_inputs = list(group.inputs)
    checked: list[Value] = []
    for i in entries:
        v = group.inputs[i]
        if _is_check(v.node) and v.node in moved:
            raw = _checked_input(v.node)
            raw_inputs[i] = raw
            checked.append(raw)
        else:
            checked.append(v)
    types = [group.inputs[i].type for i in entries]
    tc = graph.create(TYPE_CHECK, checked, 0)
    tc.tys_("types", types)
    for t in types:
        tc.add_output(t)
    ok = tc.add_output(BoolType.get())
    tc.insert_before(group)
    versioned = graph.create(prim.If, [ok], 0)
    versioned.insert_before(group)
    for out in group.outputs:
        out.replace_all_uses_with(versioned.add_output(unshaped_type(out.type)))
    true_block = versioned.add_block()
    false_block = versioned.add_block()
    fallback = _fallback_graph(graph, group, raw_inputs)
    false_block.append_node(fallback)
    for o in fallback.outputs:
        false_block.register_output(o)
    group.move_before(true_block.return_node)
    for k, i in enumerate(entries):
        group.replace_input(i, tc.outputs[k])
    for o in group.outputs:
        true_block.register_output(o)


def _drop_unused_template(graph: Graph) -> None:
    """Remove the `prim::BailoutTemplate` once no bailout is left to read it."""
    for node in graph.nodes():
        if node.kind is prim.BailoutTemplate and not node.output().uses:
            node.destroy()
            return


def insert_type_checks(graph: Graph) -> bool:
    """Guard fusion groups with `prim::TypeCheck`, a `prim::If` and a `prim::FallbackGraph` (see
    the module docstring); True if any group was guarded."""
    groups = [n for n in graph.all_nodes() if n.kind is FUSION_GROUP]
    if not groups:
        return False
    refine_types_from_checks(graph)  # the types the fuser gave what it added (broadcasts)
    plans: dict[Node, list[int]] = {}
    for g in groups:
        entries = _plan_group(g)
        if entries is not None:
            plans[g] = entries
    # a check moves into the type checks only when every group reading it gets one
    moved: set[Node] = set()
    for g, entries in plans.items():
        for i in entries:
            v = g.inputs[i]
            if _is_check(v.node) and all(
                u.user.kind is not FUSION_GROUP or u.user in plans for u in v.uses
            ):
                moved.add(v.node)
    guarded = 0
    for g, candidates in plans.items():
        # a check that stays (another reader of it is not guarded) is a fact here
        entries = [
            i for i in candidates if not _is_check(g.inputs[i].node) or g.inputs[i].node in moved
        ]
        if not entries or not log.allowed():
            continue
        _guard_group(graph, g, entries, moved)
        guarded += 1
    for check in moved:
        out = check.output()
        if any(u.user.kind is FUSION_GROUP for u in out.uses):
            continue  # a group left unguarded (the optimization limit) still reads it
        out.replace_all_uses_with(_checked_input(check))  # bailouts capture the raw value
        check.destroy()
    _drop_unused_template(graph)
    if guarded:
        refine_types_from_checks(graph)
        log.update("guarded %d fusion groups with prim::TypeCheck", guarded)
        log.dump("after insert_type_checks", graph)
    return guarded > 0
