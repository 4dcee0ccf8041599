"""Tuple lowering, as TorchScript's `lower_tuples.cpp`.

`lower_all_tuples` removes tuples wherever their elements can be passed one
by one: tuple graph inputs become one input per element, tuple graph
outputs one output per element, tuples carried by `prim::Loop` and produced
by `prim::If` are flattened, and `prim::TupleUnpack` / `prim::TupleIndex`
(constant index) / `prim::TupleSlice` of a `prim::TupleConstruct` read its
inputs directly:

    graph(%t : (Tensor, int)):              graph(%t.0 : Tensor, %t.1 : int):
      %a, %b = prim::TupleUnpack(%t)    →     %y = aten::mul(%t.0, %t.1)
      %y = aten::mul(%a, %b)                  return (%y, %t.1)
      %r = prim::TupleConstruct(%y, %b)
      return (%r)

Dead code is removed afterwards (as TorchScript does, without alias
analysis: operators that may write stay). Note the calling convention changes: callers pass the elements of tuple
inputs one by one and receive flattened results. `lower_simple_tuples` only
does the unpack/index rewrites. A tuple that reaches an operator needing it
whole (a list, a call) is rebuilt there with `prim::TupleConstruct`.
"""

from __future__ import annotations

from ts_ir import Block, Graph, LoopView, Node, TupleType, Value, maybe_constant, prim

from .dead_code_elimination import eliminate_dead_code, eliminate_dead_code_in_block
from .jit_log import PassLogger

log = PassLogger(__name__)


def _construct_elements(v: Value) -> list[Value] | None:
    """The flat element values of a tuple built by (nested) prim::TupleConstruct nodes."""
    n = v.node
    if n.kind is not prim.TupleConstruct:
        return None
    out: list[Value] = []
    for x in n.inputs:
        if isinstance(x.type, TupleType):
            inner = _construct_elements(x)
            if inner is None:
                return None
            out.extend(inner)
        else:
            out.append(x)
    return out


def _remove_tuple_uses(node: Node) -> bool:
    """Rewrite the unpacks, constant indexings and slices of a TupleConstruct's output."""
    changed = False
    tup = node.output()
    for use in list(tup.uses):
        user = use.user
        if user.kind is prim.TupleUnpack and len(user.outputs) == len(node.inputs):
            if not log.allowed():
                continue
            log.update("unpacking a constructed tuple")
            for out, v in zip(user.outputs, node.inputs, strict=True):
                out.replace_all_uses_with(v)
            user.destroy()
            changed = True
        elif user.kind is prim.TupleIndex:
            i = maybe_constant(user.inputs[1])
            n = len(node.inputs)
            if isinstance(i, int) and not isinstance(i, bool) and -n <= i < n and log.allowed():
                log.update("indexing a constructed tuple")
                user.output().replace_all_uses_with(node.inputs[i])
                user.destroy()
                changed = True
        elif user.kind is prim.TupleSlice and user.has_attribute("beg") and log.allowed():
            beg, end = user.i("beg"), user.i("end")
            graph = node.graph
            with graph.inserting_before(user):
                new = graph.insert_node(graph.create_tuple(node.inputs[beg:end]))
            user.output().replace_all_uses_with(new.output())
            user.destroy()
            changed = True
    return changed


class _TupleLowering:
    __slots__ = ("changed", "graph")

    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        self.changed = False

    def flatten_inputs(self, block: Block) -> None:
        """Tuple inputs of a block become their elements; a TupleConstruct rebuilds each."""
        graph = self.graph
        i = 0
        while i < len(block.inputs):
            v = block.inputs[i]
            if not isinstance(v.type, TupleType) or not log.allowed():
                i += 1
                continue
            elements = v.type.elements
            news = []
            for k, t in enumerate(elements):
                name = f"{v.debug_name_base()}.{k}" if v.has_debug_name() else None
                new = block.insert_input(i + 1 + k, type=t)
                if name:
                    new.set_debug_name(name)
                news.append(new)
            with graph.inserting_after(block.param_node):
                rebuilt = graph.insert_node(graph.create_tuple(news, v.type))
            v.replace_all_uses_with(rebuilt.output())
            block.erase_input(i)
            log.update("flattening a tuple input")
            self.changed = True
            # the new inputs may be tuples themselves: look at them next

    def flatten_outputs(self, block: Block) -> None:
        """Tuple outputs of a block become their elements (for graphs and If/Loop bodies)."""
        graph = self.graph
        i = 0
        while i < len(block.outputs):
            v = block.outputs[i]
            if not isinstance(v.type, TupleType) or not log.allowed():
                i += 1
                continue
            elements = _construct_elements(v)
            if elements is None:
                with graph.inserting_before(block.return_node):
                    unpack = graph.insert_node(graph.create_tuple_unpack(v))
                elements = list(unpack.outputs)
            block.erase_output(i)
            for k, e in enumerate(elements):
                block.insert_output(i + k, e)
            log.update("flattening a tuple output")
            self.changed = True

    def lower_if(self, node: Node) -> None:
        i = 0
        while i < len(node.outputs):
            out = node.outputs[i]
            if not isinstance(out.type, TupleType) or not log.allowed():
                i += 1
                continue
            elem_types = list(out.type.elements)
            for b in node.blocks:
                v = b.outputs[i]
                elements = _first_level(v, self.graph, b)
                b.erase_output(i)
                for k, e in enumerate(elements):
                    b.insert_output(i + k, e)
            news = [node.insert_output(i + k, t) for k, t in enumerate(elem_types)]
            old = node.outputs[i + len(news)]
            with self.graph.inserting_after(node):
                rebuilt = self.graph.insert_node(self.graph.create_tuple(news, out.type))
            old.replace_all_uses_with(rebuilt.output())
            node.erase_output(i + len(news))
            log.update("flattening a tuple output of prim::If")
            self.changed = True

    def lower_loop(self, node: Node) -> None:
        loop = LoopView(node)
        i = 0
        while i < len(node.outputs):
            out = node.outputs[i]
            if not isinstance(out.type, TupleType) or not log.allowed():
                i += 1
                continue
            elem_types = list(out.type.elements)
            n = len(elem_types)
            graph = self.graph
            initial, old_in, v, _ = loop.carried(i)
            # the initial value, element by element
            with graph.inserting_before(node):
                init_elems = _first_level(initial, graph, None)
            loop.remove_carried_input(i)
            for k, e in enumerate(init_elems):
                loop.insert_carried_input(i + k, e)
            # the body's carried input
            new_ins = [loop.insert_body_carried_input(i + k, t) for k, t in enumerate(elem_types)]
            with graph.inserting_after(loop.body.param_node):
                rebuilt_in = graph.insert_node(graph.create_tuple(new_ins, out.type))
            old_in.replace_all_uses_with(rebuilt_in.output())
            loop.erase_body_carried_input(i + n)
            # the body's carried output
            out_elems = _first_level(v, graph, loop.body)
            loop.erase_body_carried_output(i)
            for k, e in enumerate(out_elems):
                loop.insert_body_carried_output(i + k, e)
            # the loop's output
            news = [node.insert_output(i + k, t) for k, t in enumerate(elem_types)]
            old = node.outputs[i + n]
            with graph.inserting_after(node):
                rebuilt = graph.insert_node(graph.create_tuple(news, out.type))
            old.replace_all_uses_with(rebuilt.output())
            node.erase_output(i + n)
            log.update("flattening a loop-carried tuple")
            self.changed = True

    def block(self, block: Block) -> None:
        for node in block.nodes():
            for b in node.blocks:
                self.block(b)
            if node.kind is prim.If:
                self.lower_if(node)
            elif node.kind is prim.Loop:
                self.lower_loop(node)
        self.simple(block)

    def simple(self, block: Block) -> None:
        for node in block.nodes():
            for b in node.blocks:
                self.simple(b)
            if node.kind is prim.TupleConstruct:
                self.changed |= _remove_tuple_uses(node)


def _first_level(v: Value, graph: Graph, block: Block | None) -> list[Value]:
    """The elements of tuple `v` (one level): its construct's inputs, or an unpack of it."""
    if v.node.kind is prim.TupleConstruct:
        return list(v.node.inputs)
    if block is not None:
        with graph.inserting_before(block.return_node):
            unpack = graph.insert_node(graph.create_tuple_unpack(v))
    else:
        unpack = graph.insert_node(graph.create_tuple_unpack(v))
    return list(unpack.outputs)


def lower_simple_tuples(graph: Graph) -> bool:
    """Unpacks, constant indexings and slices of constructed tuples read the elements."""
    lowering = _TupleLowering(graph)
    lowering.simple(graph.block)
    if lowering.changed:
        eliminate_dead_code(graph)
    return lowering.changed


def lower_all_tuples(graph: Graph) -> bool:
    """Flatten tuples out of graph inputs/outputs, loops and ifs (see the module docstring)."""
    lowering = _TupleLowering(graph)
    lowering.flatten_inputs(graph.block)
    lowering.block(graph.block)
    lowering.flatten_outputs(graph.block)
    lowering.simple(graph.block)
    # as TorchScript's pass: always clean up, without alias analysis (writes stay)
    changed = eliminate_dead_code_in_block(graph.block) or lowering.changed
    if changed:
        log.dump("after lowering tuples", graph)
    return changed
