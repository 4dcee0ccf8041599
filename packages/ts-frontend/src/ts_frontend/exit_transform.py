"""Removing exit statements, as TorchScript's `exit_transform.cpp`.

After SSA conversion, `prim::ReturnStmt(value)` may sit anywhere in the
graph and `prim::LoopContinuation(cond, carried...)` anywhere in a loop
body. This pass removes them so that every block simply falls through to
its outputs. Once an exit is hit nothing else in its target block may run,
so each block's exit status is tracked:

- WONT: no exit on any path;
- WILL: an exit on every path (the rest of the block is deleted);
- MIGHT: an exit on some paths; the rest of the block is guarded by a new
  `prim::If` on a "has exited" flag, and the exit values travel out as If
  outputs (`prim::Uninitialized` where a path did not exit);
- THROWS: every path raises (the block's values never matter).

Loops holding a `return` stop iterating once it is hit (their condition
becomes `has_exited ? False : cond`). `continue` exits to the end of its
loop body; `return` to the end of the graph. Finally, an `if` whose
condition is the constant-valued "has exited" output of the `if` just
before it is merged into that one, which turns

    if x: return 1           %r = prim::If(%x)
    return 2          into     block0(): -> (%1)
                               block1(): -> (%2)
"""

from __future__ import annotations

import enum

from ts_ir import Block, BoolType, Graph, Node, Type, Value, constant_value, unify_types

from .kinds import CONSTANT, IF, LOOP, LOOP_CONTINUATION, RAISE_EXCEPTION, RETURN_STMT


class ExitStatus(enum.Enum):
    WONT = 0
    MIGHT = 1
    WILL = 2
    THROWS = 3


class ExitPair:
    __slots__ = ("exit_values", "has_exited")

    def __init__(self, has_exited: Value, exit_values: list[Value]) -> None:
        self.has_exited = has_exited
        self.exit_values = exit_values


class _ExitTransformer:
    def __init__(self, graph: Graph, exit_kind: str) -> None:
        self.graph = graph
        self.exit_kind = exit_kind
        first = graph.block.return_node.next
        anchor = first if first is not None else graph.block.return_node
        with graph.inserting_before(anchor):
            self.true_value = graph.insert_constant(True)
            self.false_value = graph.insert_constant(False)
        self.unit_values: dict[Type, Value] = {}
        self.throws_value = self.unit(BoolType.get())
        self.target: Block | None = None

    def unit(self, typ: Type) -> Value:
        """A `prim::Uninitialized` of this type, one per type, at the start of the graph."""
        v = self.unit_values.get(typ)
        if v is None:
            g = self.graph
            node = g.create_uninitialized(typ)
            node.insert_after(g.block.param_node)
            v = self.unit_values[typ] = node.output()
        return v

    def wont(self) -> ExitPair:
        return ExitPair(self.false_value, [])

    def will(self, values: list[Value]) -> ExitPair:
        return ExitPair(self.true_value, values)

    def throws(self) -> ExitPair:
        return ExitPair(self.throws_value, [])

    def status(self, pair: ExitPair) -> ExitStatus:
        v = pair.has_exited
        if v is self.true_value:
            return ExitStatus.WILL
        if v is self.false_value:
            return ExitStatus.WONT
        if v is self.throws_value:
            return ExitStatus.THROWS
        return ExitStatus.MIGHT

    def is_target(self, block: Block) -> bool:
        owner = block.owning_node
        if self.exit_kind is LOOP_CONTINUATION:
            return owner is not None and owner.kind is LOOP
        return owner is None

    # -- control flow nodes

    def add_if_outputs(self, n: Node, true_outs: list[Value], false_outs: list[Value]) -> None:
        then_block, else_block = n.blocks
        for a, b in zip(true_outs, false_outs, strict=True):
            then_block.register_output(a)
            else_block.register_output(b)
            unified = unify_types(a.type, b.type, default_to_union=True)
            assert unified is not None
            n.add_output(unified)

    def transform_if(self, n: Node) -> ExitPair:
        then_block, else_block = n.blocks
        then_pair = self.transform_block(then_block)
        else_pair = self.transform_block(else_block)
        then_status = self.status(then_pair)
        else_status = self.status(else_pair)
        statuses = {then_status, else_status}
        if ExitStatus.WILL not in statuses and ExitStatus.MIGHT not in statuses:
            # neither branch exits: both raise, or one raises and the other falls through
            return self.throws() if statuses == {ExitStatus.THROWS} else self.wont()
        # A branch that exits leaves its exit values in its own block: they become outputs
        # of the If, the other branch giving uninitialized values of the same types. A
        # branch that raises never reaches the If's end, so it counts as exiting too.
        then_values = then_pair.exit_values
        else_values = else_pair.exit_values
        if then_status in (ExitStatus.WONT, ExitStatus.THROWS):
            then_values = [self.unit(v.type) for v in else_values]
        elif else_status in (ExitStatus.WONT, ExitStatus.THROWS):
            else_values = [self.unit(v.type) for v in then_values]
        if statuses <= {ExitStatus.WILL, ExitStatus.THROWS}:
            start = len(n.outputs)
            self.add_if_outputs(n, then_values, else_values)
            return self.will(list(n.outputs[start:]))
        start = len(n.outputs)
        self.add_if_outputs(
            n, [then_pair.has_exited, *then_values], [else_pair.has_exited, *else_values]
        )
        outs = list(n.outputs[start:])
        return ExitPair(outs[0], outs[1:])

    def transform_loop(self, n: Node) -> ExitPair:
        body = n.blocks[0]
        pair = self.transform_block(body)
        status = self.status(pair)
        if status in (ExitStatus.WONT, ExitStatus.THROWS):
            return self.wont()
        g = self.graph
        # stop iterating once the exit is hit
        with g.inserting_before(body.return_node):
            new_if = g.insert_node(g.create(IF, [pair.has_exited], 0))
        then_block, else_block = new_if.add_block(), new_if.add_block()
        then_block.register_output(self.false_value)
        else_block.register_output(body.outputs[0])
        new_cond = new_if.add_output(BoolType.get())
        body.erase_output(0)
        body.insert_output(0, new_cond)
        # carry the exit flag and values out of the loop
        n.add_input(self.false_value)
        body.add_input(None, BoolType.get())
        body.register_output(pair.has_exited)
        has_exited = n.add_output(BoolType.get())
        values = []
        for v in pair.exit_values:
            n.add_input(self.unit(v.type))
            body.add_input(None, v.type)
            body.register_output(v)
            values.append(n.add_output(v.type))
        return ExitPair(has_exited, values)

    def guard_block_nodes(self, block: Block, pair: ExitPair, first: Node) -> ExitPair:
        """Move `first` and the nodes after it into an `if not has_exited`."""
        g = self.graph
        new_if = g.create(IF, [pair.has_exited], 0)
        new_if.insert_before(first)
        exit_block, guard_block = new_if.add_block(), new_if.add_block()
        n: Node | None = first
        while n is not block.return_node:
            assert n is not None
            nxt = n.next
            n.move_before(guard_block.return_node)
            n = nxt
        outputs = list(block.outputs)
        for v in outputs:
            exit_block.register_output(self.unit(v.type))
            guard_block.register_output(v)
            new_if.add_output(v.type)
        while block.outputs:
            block.erase_output(0)
        for out in new_if.outputs:
            block.register_output(out)
        exit_node = g.create(self.exit_kind, pair.exit_values, 0)
        exit_node.insert_before(exit_block.return_node)
        return self.transform_if(new_if)

    # -- blocks

    def delete_after(self, block: Block, first: Node | None) -> None:
        """Delete `first` and what follows it in `block`: nothing there runs after an exit.

        The block's outputs (and anything else) that used those values get an
        uninitialized value of the same type instead.
        """
        ret = block.return_node
        doomed = []
        n = first
        while n is not None and n is not ret:
            doomed.append(n)
            n = n.next
        for node in reversed(doomed):
            for out in node.outputs:
                if out.uses:
                    out.replace_all_uses_with(self.unit(out.type))
            node.destroy()

    def transform_block(self, block: Block) -> ExitPair:
        pair = self.wont()
        ret = block.return_node
        n = ret.next
        while n is not ret:
            assert n is not None
            nxt = n.next
            kind = n.kind
            if kind is RAISE_EXCEPTION:
                pair = self.throws()
            elif kind is self.exit_kind:
                pair = self.will(list(n.inputs))
                n.destroy()
            elif kind is IF:
                pair = self.transform_if(n)
            elif kind is LOOP:
                pair = self.transform_loop(n)
            status = self.status(pair)
            if status in (ExitStatus.WILL, ExitStatus.THROWS):
                self.delete_after(block, nxt)
                break
            if status is ExitStatus.MIGHT:
                if nxt is not ret:
                    pair = self.guard_block_nodes(block, pair, nxt)  # type: ignore[arg-type]
                break
            n = nxt
        if self.is_target(block):
            status = self.status(pair)
            if status is ExitStatus.MIGHT:
                g = self.graph
                with g.inserting_before(block.return_node):
                    new_if = g.insert_node(g.create(IF, [pair.has_exited], 0))
                new_if.add_block()
                new_if.add_block()
                self.add_if_outputs(new_if, pair.exit_values, list(block.outputs))
                _replace_outputs(block, list(new_if.outputs))
            elif status is ExitStatus.WILL:
                _replace_outputs(block, pair.exit_values)
            pair = self.wont()
        return pair


def _replace_outputs(block: Block, values: list[Value]) -> None:
    while block.outputs:
        block.erase_output(0)
    for v in values:
        block.register_output(v)


def _inline_consecutive_ifs(block: Block) -> None:
    n = block.return_node.next
    while n is not block.return_node:
        assert n is not None
        for b in n.blocks:
            _inline_consecutive_ifs(b)
        if _inline_if_into_previous(n):
            continue  # the next node changed; look at this one again
        n = n.next


def _inline_if_into_previous(node: Node) -> bool:
    nxt = node.next
    if node.kind is not IF or nxt is None or nxt.kind is not IF:
        return False
    cond = nxt.inputs[0]
    if cond.node is not node:
        return False
    offset = cond.offset
    then_block, else_block = node.blocks
    then_value = _const_bool(then_block.outputs[offset])
    else_value = _const_bool(else_block.outputs[offset])
    if then_value is None or else_value is None or then_value == else_value:
        return False
    second_then, second_else = nxt.blocks
    for first_block, branch in (
        (then_block, second_then if then_value else second_else),
        (else_block, second_then if else_value else second_else),
    ):

        def value_map(v: Value, fb: Block = first_block) -> Value:
            if v.node is node:
                return fb.outputs[v.offset]
            return v

        first_block.clone_from(branch, value_map)
    for out in list(nxt.outputs):
        new_out = node.add_output(out.type)
        new_out.copy_metadata(out)
        out.replace_all_uses_with(new_out)
    nxt.destroy()
    return True


def _const_bool(v: Value) -> bool | None:
    if v.node.kind is CONSTANT and isinstance(v.type, BoolType):
        return bool(constant_value(v))
    return None


def transform_exits(graph: Graph) -> None:
    """Remove `prim::LoopContinuation` and `prim::ReturnStmt` (see the module docstring)."""
    loops = _ExitTransformer(graph, LOOP_CONTINUATION)
    loops.transform_block(graph.block)
    returns = _ExitTransformer(graph, RETURN_STMT)
    returns.transform_block(graph.block)
    _inline_consecutive_ifs(graph.block)
