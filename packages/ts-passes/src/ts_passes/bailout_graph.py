"""Bailouts, as TorchScript's `bailout_graph.cpp`: where a guard fails, the rest of the
computation continues in a deoptimized graph.

`insert_bailout_nodes` replaces each `prim::Guard` by a `prim::BailOut`
that also takes every value the rest of the computation needs from that
point (constants excepted: the bailout graph makes its own), and puts the
graph as it is then, the template, in a `prim::BailoutTemplate` whose
result every bailout takes first:

    %x.1 : Float(4, ...) = prim::Guard(%x)
      →
    %t : int = prim::BailoutTemplate_0()
    %x.1 : Float(4, ...) = prim::BailOut[index=0](%t, %x, %y)
    with prim::BailoutTemplate_0 = graph(...)        (the graph, with its bailouts)

`build_bailout_graph(template, index)` builds the graph that continues from
bailout `index`: its inputs are the bailout's other inputs, in order (the
checked value first); its outputs are the template's outputs. It holds the
rest of the bailout's block, then the rest of each enclosing block:

- after a branch of a `prim::If`, the If's outputs are the branch's results
  and the nodes after the If follow;
- after the body of a `prim::Loop` in iteration `i`, a new loop runs the
  remaining `n - i - 1` iterations from the carried values and the condition
  just computed, its counter offset by `i + 1`, then the nodes after the loop.

Every other bailout in it becomes its checked value again, and every tensor
type is forgotten: the executor profiles and optimizes the bailout graph as
a function of its own when it is first needed. Building one costs O(nodes
after the bailout); `insert_bailout_nodes` builds each once (and throws it
away) to learn what it captures.
"""

from __future__ import annotations

from collections.abc import Callable

from ts_ir import Block, Graph, IntType, IRError, Node, Value, prim

from .constant_pooling import constant_pooling
from .jit_log import PassLogger
from .profiling_instrumentation import erase_tensor_types

log = PassLogger(__name__)

GUARD = prim.Guard
BAILOUT = prim.BailOut
BAILOUT_TEMPLATE = prim.BailoutTemplate


class BailOutGraphError(IRError):
    """A bailout graph cannot be built (no bailout with that index, or a value it needs is not
    among the bailout's inputs)."""


class _Continuation:
    """Builds the graph that continues from a guard, or a bailout of a template (see the module
    docstring). `captured` lists the values that became inputs, in order."""

    def __init__(self, *, inputs_known: bool) -> None:
        self.target = Graph()
        self.env: dict[Value, Value] = {}
        self.captured: list[Value] = []
        # with the bailout's inputs given, a value missing from them is an error
        self.inputs_known = inputs_known

    def capture(self, v: Value) -> Value:
        new = self.target.add_input()
        new.copy_metadata(v)
        self.env[v] = new
        self.captured.append(v)
        return new

    def lookup(self, v: Value) -> Value:
        mapped = self.env.get(v)
        if mapped is not None:
            return mapped
        if v.node.kind is prim.Constant:
            const = self.target.create_clone(v.node, _no_inputs)
            self.target.prepend_node(const)
            self.env[v] = const.output()
            return const.output()
        if self.inputs_known:
            raise BailOutGraphError(
                f"the bailout graph needs %{v.debug_name}, which its bailout does not capture"
            )
        return self.capture(v)

    def clone_into(self, block: Block, node: Node, env: Callable[[Value], Value]) -> Node:
        new = self.target.create_clone(node, env)
        block.append_node(new)
        return new

    def rest_of_block(self, start: Node, block: Block) -> None:
        """Clone from `start` to the end of `block`, then continue in the enclosing block."""
        node = start
        top = self.target.block
        while node is not block.return_node:
            new = self.clone_into(top, node, self.lookup)
            for old, out in zip(node.outputs, new.outputs, strict=True):
                self.env[old] = out
            assert node.next is not None
            node = node.next
        owner = block.owning_node
        if owner is None:
            for v in block.outputs:
                self.target.register_output(self.lookup(v))
        elif owner.kind is prim.If:
            for out, result in zip(owner.outputs, block.outputs, strict=True):
                self.env[out] = self.lookup(result)
            self._after(owner)
        elif owner.kind is prim.Loop:
            self.remaining_iterations(owner, block)
            self._after(owner)
        else:
            raise BailOutGraphError(f"a bailout cannot resume inside a block of {owner.kind}")

    def _after(self, owner: Node) -> None:
        block = owner.owning_block
        assert block is not None and owner.next is not None
        self.rest_of_block(owner.next, block)

    def remaining_iterations(self, loop: Node, body: Block) -> None:
        """A loop running the iterations after the current one (see the module docstring)."""
        g = self.target
        trip, _, *_ = loop.inputs
        counter = body.inputs[0]
        current = self.lookup(counter)
        cond = self.lookup(body.outputs[0])
        carried = [self.lookup(v) for v in body.outputs[1:]]
        with g.inserting_before(g.block.return_node):
            left = g.insert("aten::sub", [self.lookup(trip), current])
            left = g.insert("aten::sub", [left, 1])
            start = g.insert("aten::add", [current, 1]) if counter.uses else None
        new_loop = g.create(prim.Loop, [left, cond, *carried], 0)
        for out in loop.outputs:
            new_loop.add_output().copy_metadata(out)
        g.block.append_node(new_loop)
        new_body = new_loop.add_block()
        local: dict[Value, Value] = {}
        j = new_body.add_input(type=IntType.get())
        for old in body.inputs[1:]:
            local[old] = new_body.add_input().copy_metadata(old)
        if start is not None:
            with g.inserting_before(new_body.return_node):
                local[counter] = g.insert("aten::add", [j, start])

        def env(v: Value) -> Value:
            mapped = local.get(v)
            return mapped if mapped is not None else self.lookup(v)

        for node in body.nodes():
            new = self.clone_into(new_body, node, env)
            for old, out in zip(node.outputs, new.outputs, strict=True):
                local[old] = out
        for v in body.outputs:
            new_body.register_output(env(v))
        for old, out in zip(loop.outputs, new_loop.outputs, strict=True):
            self.env[old] = out

    def build_from(self, check: Node) -> Graph:
        """The continuation of `check` (a guard, or a bailout of a template: its first input is
        the checked value)."""
        self.env[check.output()] = self.lookup(check.inputs[0])
        block = check.owning_block
        assert block is not None and check.next is not None
        self.rest_of_block(check.next, block)
        return self.target


def _no_inputs(v: Value) -> Value:
    raise BailOutGraphError("a constant has no inputs")


def _checks(block: Block) -> list[Node]:
    found: list[Node] = []
    for node in block.nodes():
        if node.kind is GUARD:
            found.append(node)
        for b in node.blocks:
            found.extend(_checks(b))
    return found


def insert_bailout_nodes(graph: Graph) -> bool:
    """Replace every `prim::Guard` by a `prim::BailOut` capturing what the rest of the
    computation needs, and add the `prim::BailoutTemplate` (see the module docstring); True if
    the graph had guards."""
    guards = _checks(graph.block)
    if not guards:
        return False
    captures = []
    for guard in guards:
        builder = _Continuation(inputs_known=False)
        builder.build_from(guard)
        captures.append(builder.captured)
    replaced: dict[Value, Value] = {}
    bailouts = []
    for index, (guard, captured) in enumerate(zip(guards, captures, strict=True)):
        bailout = graph.create(BAILOUT, captured, 1)
        bailout.i_("index", index)
        bailout.output().set_type(guard.output().type)
        bailout.source_range = guard.source_range
        bailout.insert_before(guard)
        replaced[guard.output()] = bailout.output()
        bailouts.append(bailout)
    for guard in guards:
        guard.output().replace_all_uses_with(replaced[guard.output()])
        guard.destroy()
    template = graph.copy()
    holder = graph.create_with_subgraph(BAILOUT_TEMPLATE)
    holder.g_("Subgraph", template)
    holder.add_output(IntType.get())
    graph.prepend_node(holder)
    for bailout in bailouts:
        bailout.insert_input(0, holder.output())
    log.update("inserted %d bailouts", len(bailouts))
    log.dump("after insert_bailout_nodes", graph)
    return True


def _find_bailout(block: Block, index: int) -> Node | None:
    for node in block.nodes():
        if node.kind is BAILOUT and node.has_attribute("index") and node.i("index") == index:
            return node
        for b in node.blocks:
            found = _find_bailout(b, index)
            if found is not None:
                return found
    return None


def _remove_checks(block: Block) -> None:
    for node in block.nodes():
        if node.kind is BAILOUT or node.kind is GUARD:
            node.output().replace_all_uses_with(node.inputs[0])
            node.destroy()
        else:
            for b in node.blocks:
                _remove_checks(b)


def bailout_template(graph: Graph) -> Graph | None:
    """The template of a graph with bailouts (its `prim::BailoutTemplate`'s subgraph)."""
    for node in graph.nodes():
        if node.kind is BAILOUT_TEMPLATE:
            return node.g("Subgraph")
    return None


def build_bailout_graph(template: Graph, index: int) -> Graph:
    """The graph that continues from bailout `index` of `template` (see the module docstring)."""
    bailout = _find_bailout(template.block, index)
    if bailout is None:
        raise BailOutGraphError(f"the bailout template has no bailout with index {index}")
    builder = _Continuation(inputs_known=True)
    for v in bailout.inputs:  # one input per position, as the bailout passes them
        builder.capture(v)
    graph = builder.build_from(bailout)
    _remove_checks(graph.block)
    erase_tensor_types(graph)
    constant_pooling(graph)
    log.dump(lambda: f"bailout graph {index}", graph)
    return graph
