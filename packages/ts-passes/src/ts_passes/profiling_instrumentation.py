"""Profiling instrumentation: `prim::profile` on every use of a tensor, as TorchScript's
`ProfilingRecord::instrumentBlock`.

    graph(%x : Tensor):                      graph(%x : Tensor):
      %y : Tensor = aten::mul(%x, %x)   →      %1 : Tensor = prim::profile(%x)
      return (%y)                              %2 : Tensor = prim::profile(%x)
                                               %y : Tensor = aten::mul(%1, %2)
                                               %3 : Tensor = prim::profile(%y)
                                               return (%3)

`insert_profile_nodes` first forgets every tensor type refinement (the
profiling executor learns types by running, not from the graph), then gives
each use of a `Tensor`-typed value its own `prim::profile` node just before
the user, in the user's block, and each tensor a block returns (the If and
Loop blocks' outputs too) one just before the block's return. The runtime
records, per profile node, the merged type of every tensor that passed
through it (`profiled_type`, and `seen_none=1` when something other than a
tensor did); `insert_guards` turns them into guards.

Uses by the profiling executor's own nodes (guards, bailouts, type checks,
profiles) are not profiled, nor are uses inside subgraph attributes (fork
bodies, fusion groups). O(uses).
"""

from __future__ import annotations

from ts_ir import Block, Graph, Node, TensorType, Type, Value, prim, unshaped_type
from ts_schema import Tag, registry

from .jit_log import PassLogger
from .shape_analysis import propagate_shapes

log = PassLogger(__name__)

PROFILE = prim.profile
#: The profiles themselves; their inputs, and those of checks (`Tag.type_check`), are never
#: profiled.
PROFILE_KINDS = frozenset({prim.profile, prim.profile_ivalue})


def is_profiling_node(node: Node) -> bool:
    """A node of the profiling executor itself: a profile, or a check (a guard, bailout or
    type check: tagged `Tag.type_check`)."""
    return node.kind in PROFILE_KINDS or Tag.type_check in registry.tags_of(node)


def _is_tensor(v: Value) -> bool:
    return isinstance(v.type, TensorType)


def erase_tensor_types(graph: Graph) -> bool:
    """Every refined tensor type (also inside containers) becomes its unshaped form, except
    constants' (PyTorch's `unprofileGraphInputs` and `unprofileBlock`); True if any changed."""
    changed = False

    def forget(values: list[Value]) -> None:
        nonlocal changed
        for v in values:
            plain = unshaped_type(v.type)
            if plain != v.type:
                v.set_type(plain)
                changed = True

    forget(graph.inputs)
    stack = [graph.block]
    while stack:
        block = stack.pop()
        if block is not graph.block:
            forget(block.inputs)
        for node in block.nodes():
            if node.kind is not prim.Constant:
                forget(node.outputs)
            stack.extend(node.blocks)
    return changed


def has_checked_types(node: Node) -> bool:
    """Whether the node's outputs' types are facts the profiling pipeline keeps: checks
    (tagged `Tag.type_check`) establish them, fusion groups were typed from checked inputs when
    they formed."""
    return node.kind is prim.FusionGroup or Tag.type_check in registry.tags_of(node)


def refine_types_from_checks(graph: Graph) -> bool:
    """Recompute tensor types from what is checked: every type except those of graph inputs,
    constants and the outputs of guards, bailouts, type checks and fusion groups is forgotten,
    then shape propagation derives the rest again. After a pass removes or moves a check,
    no type claims what nothing checks any more. True if any type changed."""
    before: dict[Value, Type] = {}
    stack = [graph.block]
    while stack:
        block = stack.pop()
        values = [] if block is graph.block else list(block.inputs)
        for node in block.nodes():
            if node.kind is not prim.Constant and not has_checked_types(node):
                values.extend(node.outputs)
            stack.extend(node.blocks)
        for v in values:
            before[v] = v.type
            v.set_type(unshaped_type(v.type))
    propagate_shapes(graph)
    return any(v.type != t for v, t in before.items())


def _profile(graph: Graph, user: Node, offset: int) -> None:
    """A `prim::profile` of input `offset` of `user`, just before it."""
    value = user.inputs[offset]
    pn = graph.create(PROFILE, [value])
    pn.output().set_type(value.type)
    pn.insert_before(user)
    user.replace_input(offset, pn.output())


def _instrument_block(graph: Graph, block: Block) -> int:
    count = 0
    for node in block.nodes():
        if not is_profiling_node(node):
            for offset, v in enumerate(node.inputs):
                if _is_tensor(v):
                    _profile(graph, node, offset)
                    count += 1
        for b in node.blocks:
            count += _instrument_block(graph, b)
    # profiles on block outputs put a guard's use in the block that defines the value,
    # so guard elimination finds more guards to remove
    ret = block.return_node
    for offset, v in enumerate(ret.inputs):
        if _is_tensor(v):
            _profile(graph, ret, offset)
            count += 1
    return count


def insert_profile_nodes(graph: Graph) -> bool:
    """Forget tensor type refinements, then put a `prim::profile` on every use of a tensor (see
    the module docstring); True if the graph changed."""
    changed = erase_tensor_types(graph)
    count = _instrument_block(graph, graph.block)
    if count:
        log.update("inserted %d prim::profile nodes", count)
        log.dump("instrumented for profiling", graph)
    return changed or count > 0


def remove_profile_nodes(graph: Graph) -> bool:
    """Remove every `prim::profile` node, its uses reading its input again (PyTorch's
    `ProfilingRecord::removeProfilingNodes`); True if any was removed."""
    removed = 0
    stack = [graph.block]
    while stack:
        block = stack.pop()
        for node in block.nodes():
            if node.kind is PROFILE or node.kind is prim.profile_ivalue:
                node.output().replace_all_uses_with(node.input(0))
                node.destroy()
                removed += 1
            else:
                stack.extend(node.blocks)
    if removed:
        log.update("removed %d prim::profile nodes", removed)
    return removed > 0
