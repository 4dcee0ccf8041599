"""Loop unrolling, as TorchScript's `loop_unrolling.cpp`.

Only `for` loops (a `prim::Loop` whose start and continue conditions are the
constant True) with a small body (at most 32 executed nodes) are unrolled:

- a constant trip count below 64 unrolls completely: the body is repeated
  that many times in place of the loop;
- otherwise the body is repeated `UNROLL_FACTOR` (8) times inside a loop
  that runs `n // 8` times, followed by an epilogue loop (the original body)
  for the remaining `n - n // 8 * 8` iterations.

If the body reads the loop counter, it is first replaced by a loop-carried
counter starting at 0 and incremented by 1, which the unrolled loop and its
epilogue share:

    %y = prim::Loop(%n, %true, %x)            %0 = prim::Constant[value=0]()
      block0(%i, %x.1):                       %c, %y = prim::Loop(%n, %true, %0, %x)
        %z = f(%x.1, %i)               →        block0(%i, %k, %x.1):
        -> (%true, %z)                             %z = f(%x.1, %k)
                                                   %k.1 = aten::add(%k, 1)
                                                   -> (%true, %k.1, %z)

Dead code elimination runs afterwards when anything changed.
"""

from __future__ import annotations

from ts_ir import Block, Graph, IntType, LoopView, Node, Value, aten, maybe_constant, prim

from .dead_code_elimination import eliminate_dead_code, eliminate_dead_code_in_block
from .jit_log import PassLogger

log = PassLogger(__name__)

UNROLL_FACTOR = 8
MAX_BODY_SIZE = 32
MAX_BODY_REPEATS = 64
_NOT_EXECUTED = frozenset({prim.Constant, prim.profile, prim.profile_ivalue})


def is_for_loop(node: Node) -> bool:
    if node.kind is not prim.Loop:
        return False
    loop = LoopView(node)
    return maybe_constant(loop.input_cond) is True and maybe_constant(loop.next_cond) is True


def limited_block_size(body: Block, limit: int) -> int:
    """How many executed nodes `body` holds, counting stops at `limit`."""
    count = 0
    for node in body.nodes():
        for b in node.blocks:
            count += limited_block_size(b, limit - count)
        if node.kind not in _NOT_EXECUTED:
            count += 1
        if count >= limit:
            return limit
    return count


def is_small_block(body: Block) -> bool:
    return limited_block_size(body, MAX_BODY_SIZE + 1) <= MAX_BODY_SIZE


def _insert_block_copy(graph: Graph, body: Block, inputs: list[Value]) -> list[Value]:
    """Insert a copy of `body`'s nodes at the insertion point; returns its outputs."""
    value_map: dict[Value, Value] = dict(zip(body.inputs, inputs, strict=True))

    def get(v: Value) -> Value:
        return value_map.get(v, v)

    for node in body.nodes():
        clone = graph.insert_node(graph.create_clone(node, get))
        for old, new in zip(node.outputs, clone.outputs, strict=True):
            value_map[old] = new
    return [get(v) for v in body.outputs]


def _repeat_body(body: Block, times: int, dest: Block) -> None:
    graph = body.graph
    with graph.inserting_before(dest.return_node):
        for v in body.inputs:
            dest.add_input().copy_metadata(v)
        io = list(dest.inputs)
        for _ in range(times):
            io[0] = body.inputs[0]  # the counter is unused: see _replace_loop_counter
            io = _insert_block_copy(graph, body, io)
        for v in io:
            dest.register_output(v)
    eliminate_dead_code_in_block(dest)


def _replace_loop_counter(loop: Node) -> None:
    graph = loop.graph
    view = LoopView(loop)
    with graph.inserting_before(loop):
        init = graph.insert_constant(0)
    view.insert_carried_input(0, init)
    loop.insert_output(0, IntType.get())
    counter = view.insert_body_carried_input(0, IntType.get())
    view.current_trip_count.replace_all_uses_with(counter)
    with graph.inserting_before(view.body.return_node):
        result = graph.insert(aten.add, [counter, 1])
    view.insert_body_carried_output(0, result)


def _inline_body(loop: Node) -> None:
    """Replace a loop that runs exactly once by its body."""
    graph = loop.graph
    view = LoopView(loop)
    body = view.body
    carried = view.all_carried()
    value_map: dict[Value, Value] = {c.body_input: c.initial for c in carried}

    def get(v: Value) -> Value:
        return value_map.get(v, v)

    with graph.inserting_before(loop):
        for node in body.nodes():
            clone = graph.insert_node(graph.create_clone(node, get))
            for old, new in zip(node.outputs, clone.outputs, strict=True):
                value_map[old] = new
    for c in carried:
        c.final.replace_all_uses_with(get(c.body_output))
    loop.destroy()


def _unroll(loop: Node) -> bool:
    graph = loop.graph
    view = LoopView(loop)
    body = view.body
    if not is_small_block(body):
        return False
    if not log.allowed():
        return False
    if view.current_trip_count.uses:
        _replace_loop_counter(loop)
        body = view.body
    trip = view.max_trip_count
    const_len = None
    value = maybe_constant(trip)
    if isinstance(value, int) and not isinstance(value, bool):
        const_len = value
    if const_len is not None and const_len < MAX_BODY_REPEATS:
        log.update("unrolling a loop of %d iterations completely", const_len)
        dest = loop.add_block()
        _repeat_body(body, max(const_len, 0), dest)
        loop.erase_block(0)
        _inline_body(loop)
        return True
    log.update("unrolling a loop by %d", UNROLL_FACTOR)
    epilogue = graph.create_clone(loop, lambda v: v)
    epilogue.insert_after(loop)
    epilogue_view = LoopView(epilogue)
    for i, out in enumerate(loop.outputs):
        out.replace_all_uses_with(epilogue.outputs[i])
        epilogue_view.replace_carried_input(i, out)
    dest = loop.add_block()
    _repeat_body(body, UNROLL_FACTOR, dest)
    loop.erase_block(0)
    with graph.inserting_before(loop):
        unrolled = graph.insert("aten::__round_to_zero_floordiv", [trip, UNROLL_FACTOR])
        view.replace_max_trip_count(unrolled)
        done = graph.insert(aten.mul, [unrolled, UNROLL_FACTOR])
        epilogue_view.replace_max_trip_count(graph.insert(aten.sub, [trip, done]))
    return True


def _unroll_block(block: Block) -> bool:
    # Last loop first (the nodes taken beforehand, so copies made on the way are not
    # visited again): old bodies then leave from the back of shared values' use lists.
    changed = False
    for node in list(block.nodes_reversed()):
        for b in node.blocks:
            changed |= _unroll_block(b)
        if is_for_loop(node):
            changed |= _unroll(node)
    return changed


def unroll_loops(graph: Graph) -> bool:
    """Unroll small `for` loops (see the module docstring)."""
    changed = _unroll_block(graph.block)
    if changed:
        eliminate_dead_code(graph)
        log.dump("after loop unrolling", graph)
    return changed
