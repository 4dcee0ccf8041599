"""Loads and stores to SSA, as TorchScript's `convert_to_ssa.cpp`.

The emitter leaves variables as `prim::Store`/`prim::Load` nodes, loops
with a body block and a condition block, and `break`/`continue` as
statements. This pass, in four steps, makes the graph SSA:

1. `add_control_flow_load_stores`: a variable stored in both branches of an
   `if` becomes an output of the `prim::If` (loads at the end of each block,
   a store after the node); one stored in a loop body that exists before
   the loop becomes loop-carried (a load before the loop as its input, a
   block input stored at the start of the body, a load at the end of the
   body as its output, a store of the loop's output after it).
2. `break` and `continue` become `prim::LoopContinuation(cond, carried...)`:
   `break` continues with false, `continue` with the loop condition
   evaluated where it stands.
3. The loop condition block is copied before the loop (the first check)
   and to the end of the body (the check before the next iteration).
4. `erase_load_stores`: each load is replaced by the value last stored to
   its name in scope, and the loads and stores are deleted.

Then `exit_transform` removes the exit nodes (`prim::ReturnStmt` and
`prim::LoopContinuation`).

    %x = prim::Load[name="x"]()                 %y.1 = aten::add(%x.1, ...)
    %y = aten::add(%x, ...)          →
    prim::Store[name="y"](%y)
"""

from __future__ import annotations

from ts_ir import Block, Graph, Node, Type, Value, unify_types

from .environment import meaningful_name
from .exit_transform import transform_exits
from .kinds import (
    BREAK_STMT,
    COMPREHENSION_SCOPE,
    CONTINUE_STMT,
    IF,
    LOAD,
    LOOP,
    LOOP_CONTINUATION,
    STORE,
)


class _TypeFrame:
    __slots__ = ("parent", "vars")

    def __init__(self, parent: _TypeFrame | None) -> None:
        self.parent = parent
        self.vars: dict[str, Type] = {}

    def find(self, name: str) -> Type | None:
        frame: _TypeFrame | None = self
        while frame is not None:
            t = frame.vars.get(name)
            if t is not None:
                return t
            frame = frame.parent
        return None


def _nodes(block: Block):
    """The nodes of a block, seeing nodes inserted after the current one as it goes."""
    ret = block.return_node
    n = ret.next
    while n is not ret:
        assert n is not None
        yield n
        n = n.next


def _create_load(g: Graph, name: str, typ: Type) -> Node:
    n = g.create(LOAD, [], 1)
    n.s_("name", name)
    n.output().set_type(typ)
    return n


def _create_store(g: Graph, name: str, v: Value) -> Node:
    n = g.create(STORE, [v], 0)
    n.s_("name", name)
    return n


class _ControlFlowLoadStores:
    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        self.frame: _TypeFrame | None = None

    def run(self) -> None:
        self.add(self.graph.block)

    def add(self, block: Block) -> _TypeFrame:
        self.frame = _TypeFrame(self.frame)
        for n in _nodes(block):
            kind = n.kind
            if kind is IF:
                self.add_if(n)
            elif kind is LOOP:
                self.add_loop(n)
            elif kind is COMPREHENSION_SCOPE:
                self.add(n.blocks[0])
            elif kind is STORE:
                self.frame.vars[n.s("name")] = n.input().type
        frame = self.frame
        self.frame = frame.parent
        return frame

    def add_block_output(self, block: Block, typ: Type, name: str) -> None:
        load = _create_load(self.graph, name, typ)
        load.insert_before(block.return_node)
        block.register_output(load.output())

    def add_node_output(self, n: Node, typ: Type, name: str) -> None:
        out = n.add_output(typ)
        if meaningful_name(name):
            out.set_debug_name(name)
        _create_store(self.graph, name, out).insert_after(n)

    def add_node_input(self, n: Node, typ: Type, name: str) -> None:
        load = _create_load(self.graph, name, typ)
        load.insert_before(n)
        n.add_input(load.output())

    def add_block_input(self, b: Block, typ: Type, name: str) -> None:
        v = b.add_input(name if meaningful_name(name) else None, typ)
        store = _create_store(self.graph, name, v)
        if b.is_empty():
            store.insert_before(b.return_node)
        else:
            store.insert_before(b.return_node.next)  # type: ignore[arg-type]

    def add_if(self, n: Node) -> None:
        true_block, false_block = n.blocks
        true_vars = self.add(true_block)
        false_vars = self.add(false_block)
        mutated = set()
        for v in true_vars.vars:
            if false_vars.find(v) is not None:
                mutated.add(v)
        for v in false_vars.vars:
            if true_vars.find(v) is not None:
                mutated.add(v)
        for x in sorted(mutated):
            tt = true_vars.find(x)
            ft = false_vars.find(x)
            assert tt is not None and ft is not None
            unified = unify_types(tt, ft, default_to_union=True)
            if unified is None:
                continue
            self.add_block_output(true_block, tt, x)
            self.add_block_output(false_block, ft, x)
            self.add_node_output(n, unified, x)

    def add_loop(self, n: Node) -> None:
        body = n.blocks[0]
        loop_vars = self.add(body)
        assert self.frame is not None
        for name, block_type in loop_vars.vars.items():
            parent_type = self.frame.find(name)
            if parent_type is None:
                continue
            unified = unify_types(parent_type, block_type) or parent_type
            self.add_node_input(n, parent_type, name)
            self.add_block_input(body, unified, name)
            self.add_block_output(body, block_type, name)
            self.add_node_output(n, unified, name)


class _LoopContinuations:
    """`break`/`continue` statements to `prim::LoopContinuation`."""

    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        self.false_value: Value | None = None

    def false(self) -> Value:
        if self.false_value is None:
            g = self.graph
            first = g.block.return_node.next
            with g.inserting_before(first if first is not None else g.block.return_node):
                self.false_value = g.insert_constant(False)
        return self.false_value

    def run(self, block: Block, loop: Node | None) -> None:
        for n in list(block.nodes()):
            kind = n.kind
            if kind is IF or kind is COMPREHENSION_SCOPE:
                for b in n.blocks:
                    self.run(b, loop)
            elif kind is LOOP:
                self.run(n.blocks[0], n)
            elif kind is CONTINUE_STMT:
                assert loop is not None
                cont = self.graph.create(LOOP_CONTINUATION, [], 0)
                cont.insert_after(n)
                header = cont.add_block()
                header.clone_from(loop.blocks[1], lambda v: v)
                cond = inline_block_before_node(n, header)[0]
                cont.add_input(cond)
                cont.erase_block(0)
                self.add_loop_carried_outputs(cont, loop)
                n.destroy()
            elif kind is BREAK_STMT:
                assert loop is not None
                cont = self.graph.create(LOOP_CONTINUATION, [self.false()], 0)
                cont.insert_after(n)
                self.add_loop_carried_outputs(cont, loop)
                n.destroy()

    def add_loop_carried_outputs(self, cont: Node, loop: Node) -> None:
        g = self.graph
        for out in loop.blocks[0].outputs:
            load = out.node
            assert load.kind is LOAD
            clone = g.create_clone(load, lambda v: v)
            clone.insert_before(cont)
            cont.add_input(clone.output())


def inline_block_before_node(before: Node, block: Block) -> list[Value]:
    """Move the nodes of `block` before `before`; the block's outputs."""
    for n in list(block.nodes()):
        n.move_before(before)
    return list(block.outputs)


def _inline_loop_conditions(block: Block) -> None:
    for n in list(block.nodes()):
        for b in n.blocks:
            _inline_loop_conditions(b)
        if n.kind is LOOP:
            _inline_loop_condition(n)


def _inline_loop_condition(n: Node) -> None:
    body = n.blocks[0]
    pre_header = n.blocks[1]
    header = n.add_block()
    header.clone_from(pre_header, lambda v: v)
    first_cond = inline_block_before_node(n, header)[0]
    n.insert_input(1, first_cond)
    n.erase_block(2)
    cond = inline_block_before_node(body.return_node, pre_header)[0]
    body.insert_output(0, cond)
    n.erase_block(1)


class _EraseLoadStores:
    def run(
        self, block: Block, parent: dict[str, Value] | None, chain: list[dict[str, Value]]
    ) -> None:
        frame: dict[str, Value] = {}
        chain.append(frame)
        ret = block.return_node
        n = ret.next
        while n is not ret:
            assert n is not None
            nxt = n.next
            kind = n.kind
            if kind is STORE:
                frame[n.s("name")] = n.input()
                n.destroy()
            elif kind is LOAD:
                name = n.s("name")
                var = _find(chain, name)
                assert var is not None, f"no store for the load of {name!r}"
                n.output().replace_all_uses_with(var)
                n.destroy()
            elif kind is COMPREHENSION_SCOPE:
                body = n.blocks[0]
                self.run(body, frame, chain)
                for inner in list(body.nodes()):
                    inner.move_before(n)
                n.destroy()
            else:
                for b in n.blocks:
                    self.run(b, frame, chain)
            n = nxt
        chain.pop()


def _find(chain: list[dict[str, Value]], name: str) -> Value | None:
    for frame in reversed(chain):
        v = frame.get(name)
        if v is not None:
            return v
    return None


def convert_to_ssa(graph: Graph) -> None:
    """Make a graph of loads, stores and exit statements SSA (see the module docstring)."""
    _ControlFlowLoadStores(graph).run()
    _LoopContinuations(graph).run(graph.block, None)
    _inline_loop_conditions(graph.block)
    _EraseLoadStores().run(graph.block, None, [])
    transform_exits(graph)
