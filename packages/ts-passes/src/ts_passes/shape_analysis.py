"""Shape, dtype and device propagation: refine value types from input types forward.

    propagate_shapes(graph) -> bool

Tensor outputs get dtype, device, requires_grad and rank (sizes and strides
too where the inputs tell them) from the operator's rule
(`shape_rules.rule_for`); tuples, lists, `prim::If` (the branches' types
unified) and `prim::Loop` (carried types unified with the body's outputs
until they stop changing) carry types through. A type is only ever replaced
by a subtype of the type the value was declared with, so schema matching
never breaks.

List types are invariant, so a `Tensor[]` value keeps its type; the element
type its producer's rule gives (`chunk`, `split`, `where(cond)`, a
`prim::ListConstruct` of typed tensors) is remembered for the
`prim::ListUnpack` and `aten::__getitem__` that read it:

    %parts : Tensor[] = aten::chunk(%x, 2, 0)          # x : Float(4, 6)
    %a : Tensor, %b : Tensor = prim::ListUnpack(%parts)
      -->  %a : Float(*, *), %b : Float(*, *)

O(nodes), loops a few times over.
"""

from __future__ import annotations

from ts_ir import (
    Block,
    Graph,
    ListType,
    Node,
    Symbol,
    TensorType,
    TupleType,
    Type,
    Value,
    constant_value,
    prim,
    unify_types,
)

from .jit_log import PassLogger
from .shape_rules import ShapeArgs, broadcast_shapes, make_tensor, rule_for

log = PassLogger(__name__)

_MAX_LOOP_ITERATIONS = 4
_GETITEM = Symbol("aten::__getitem__")


class _Propagator:
    __slots__ = ("changed", "declared", "elements")

    def __init__(self) -> None:
        self.declared: dict[Value, Type] = {}
        self.elements: dict[Value, TensorType] = {}
        self.changed = False

    def set_type(self, v: Value, new: Type | None) -> None:
        declared = self.declared.get(v)
        if declared is None:
            declared = self.declared[v] = v.type
        if new is None or not new.is_subtype_of(declared):
            new = declared
        if new != v.type:
            v.set_type(new)
            self.changed = True

    def block(self, block: Block) -> None:
        for node in block.nodes():
            self.node(node)

    def node(self, node: Node) -> None:
        kind = node.kind
        if kind is prim.Constant or (not node.outputs and kind not in (prim.If, prim.Loop)):
            return
        if kind is prim.If:
            self.if_node(node)
        elif kind is prim.Loop:
            self.loop_node(node)
        elif kind is prim.TupleConstruct:
            self.set_type(node.output(), TupleType([v.type for v in node.inputs]))
        elif kind is prim.TupleUnpack:
            t = node.input().type
            if isinstance(t, TupleType) and len(t.elements) == len(node.outputs):
                for out, e in zip(node.outputs, t.elements, strict=True):
                    self.set_type(out, e)
        elif kind is prim.TupleIndex:
            t = node.inputs[0].type
            index = node.inputs[1]
            if isinstance(t, TupleType) and index.node.kind is prim.Constant:
                i = constant_value(index)
                if isinstance(i, int) and -len(t.elements) <= i < len(t.elements):
                    self.set_type(node.output(), t.elements[i])
        elif kind is prim.ListUnpack:
            self.list_unpack(node)
        elif kind is prim.ListConstruct:
            self.list_construct(node)
        elif kind in (prim.ConstantChunk, prim.BroadcastingChunk):
            self.chunk(node)
        elif kind is prim.unchecked_cast:
            self.set_type(node.output(), node.input().type)
        elif node.has_attribute("Subgraph") or node.blocks:
            return
        else:
            self.operator(node)

    def operator(self, node: Node) -> None:
        if node.kind is _GETITEM and node.inputs[0] in self.elements:
            self.set_type(node.output(), self.elements[node.inputs[0]])
            return
        rule = rule_for(node)
        if rule is None:
            return
        try:
            result = rule(ShapeArgs(node))
        except (ValueError, TypeError, IndexError, KeyError) as exc:
            log.debug("shape rule for %s failed: %s", node.kind, exc)
            return
        if result is None:
            return
        types = result if isinstance(result, list) else [result]
        for out, t in zip(node.outputs, types, strict=False):
            if isinstance(t, ListType) and isinstance(out.type, ListType):
                if isinstance(t.element, TensorType):
                    self.elements[out] = t.element
            elif t is not None:
                self.set_type(out, t)

    def list_construct(self, node: Node) -> None:
        types = [v.type for v in node.inputs]
        if types and all(isinstance(t, TensorType) for t in types):
            element = types[0]
            for t in types[1:]:
                merged = unify_types(element, t)
                if not isinstance(merged, TensorType):
                    return
                element = merged
            self.elements[node.output()] = element  # type: ignore[assignment]

    def list_unpack(self, node: Node) -> None:
        pieces = _broadcast_pieces(node)
        if pieces is not None:
            for out, t in zip(node.outputs, pieces, strict=True):
                self.set_type(out, t)
            return
        element = self.elements.get(node.input())
        if element is None:
            return
        for out in node.outputs:
            self.set_type(out, element)

    def chunk(self, node: Node) -> None:
        n_in = len(node.inputs)
        per = len(node.outputs) // max(n_in, 1)
        for i, out in enumerate(node.outputs):
            base = node.inputs[min(i // max(per, 1), n_in - 1)].type
            if isinstance(base, TensorType):
                self.set_type(out, make_tensor(base.scalar_type, base.device, base.dim(), [base]))

    def if_node(self, node: Node) -> None:
        then_b, else_b = node.blocks
        self.block(then_b)
        self.block(else_b)
        for out, a, b in zip(node.outputs, then_b.outputs, else_b.outputs, strict=True):
            self.set_type(out, unify_types(a.type, b.type))

    def loop_node(self, node: Node) -> None:
        body = node.blocks[0]
        carried_in = node.inputs[2:]
        block_in = body.inputs[1:]
        for b, v in zip(block_in, carried_in, strict=True):
            self.set_type(b, v.type)
        for _ in range(_MAX_LOOP_ITERATIONS):
            self.block(body)
            stable = True
            for b, v, o in zip(block_in, carried_in, body.outputs[1:], strict=True):
                merged = unify_types(v.type, o.type)
                before = b.type
                self.set_type(b, merged)
                if b.type != before:
                    stable = False
            if stable:
                break
        else:
            for b in block_in:  # no fixed point: fall back to the declared types
                self.set_type(b, None)
            self.block(body)
        for out, b in zip(node.outputs, block_in, strict=True):
            self.set_type(out, b.type)


def _broadcast_pieces(unpack: Node) -> list[TensorType] | None:
    """The type of each result of `aten::broadcast_tensors` of a `prim::ListConstruct` of
    tensors of complete types, unpacked: the broadcast sizes, each operand's strides with 0
    where it is expanded (as `numpy.broadcast_to` lays its views out); else None.

        %l = prim::ListConstruct(%b, %m)          # b : Float(8), m : Float(4, 8)
        %a, %c = prim::ListUnpack(aten::broadcast_tensors(%l))
          -->  %a : Float(4, 8, strides=[0, 1]), %c : Float(4, 8, strides=[8, 1])
    """
    producer = unpack.input().node
    if producer.kind != "aten::broadcast_tensors" or len(producer.inputs) != 1:
        return None
    construct = producer.input().node
    if construct.kind is not prim.ListConstruct or len(construct.inputs) != len(unpack.outputs):
        return None
    types = [v.type for v in construct.inputs]
    if not all(isinstance(t, TensorType) and t.is_complete() for t in types):
        return None
    shape = broadcast_shapes(types)  # type: ignore[arg-type]
    if not isinstance(shape, tuple) or None in shape:
        return None
    pieces = []
    for t in types:
        assert isinstance(t, TensorType) and t.sizes is not None and t.strides is not None
        offset = len(shape) - len(t.sizes)
        strides: list[int | None] = [0] * offset
        for size, stride, out in zip(t.sizes, t.strides, shape[offset:], strict=True):
            strides.append(stride if size == out else 0)
        pieces.append(t.with_sizes_strides(shape, strides))  # type: ignore[arg-type]
    return pieces


def propagate_shapes(graph: Graph) -> bool:
    """Refine every value's type from its inputs' types; True if any type changed."""
    p = _Propagator()
    p.block(graph.block)
    if p.changed:
        log.dump("after shape propagation", graph)
    return p.changed


def refine_types(node: Node) -> None:
    """Refine the output types of one node from its inputs' types (for nodes just inserted)."""
    _Propagator().node(node)


def erase_shape_information(graph: Graph) -> bool:
    """Forget refinements: every tensor type (also inside containers) becomes plain `Tensor`."""
    changed = False

    def plain(t: Type) -> Type:
        if isinstance(t, TensorType):
            return TensorType.get()
        inner = t.contained_types()
        if not inner or (isinstance(t, ListType) and not t.contains_tensor()):
            return t
        return t.with_contained([plain(c) for c in inner])

    stack = [graph.block]
    while stack:
        b = stack.pop()
        values = list(b.inputs)
        for n in b.nodes():
            values.extend(n.outputs)
            stack.extend(n.blocks)
        for v in values:
            new = plain(v.type)
            if new != v.type:
                v.set_type(new)
                changed = True
    return changed
