"""Constant propagation, as TorchScript's `constant_propagation.cpp`.

A node whose inputs are all constants is run at compile time and its outputs
become constants:

    %a : int = prim::Constant[value=2]()
    %l : int[] = prim::ListConstruct(%a)          %l : int[] = prim::Constant[value=[2]]()
    %n : int = aten::len(%l)                  →   %n : int = prim::Constant[value=1]()

Operators run through the registry: `Operator.implementation_for(node)`,
which the runtime attaches when it is imported; a node without an
implementation is left alone. Containers (`ListConstruct`, `TupleConstruct`,
`ListUnpack`, `TupleUnpack`, `TupleIndex`, `DictConstruct`) are folded here.
Never folded: nondeterministic nodes (rand, dropout in training), nodes with
side effects, nodes whose inputs or outputs may be written (alias analysis),
operators tagged `Tag.no_fold` (TorchScript's skip list), vararg operators,
and results that cannot be constants (tensors that require grad, objects).

Control flow: `prim::If` on a constant condition is replaced by the taken
branch; `prim::Loop` that cannot run is removed; `If` outputs equal in both
branches and loop-carried values the body passes through unchanged are
replaced by their value. Dead code elimination runs afterwards when anything
changed.
"""

from __future__ import annotations

from typing import Any

from ts_ir import (
    NOT_CONSTANT,
    Block,
    Device,
    DeviceType,
    DictType,
    Graph,
    IfView,
    IRError,
    ListType,
    LoopView,
    Node,
    NoneType,
    OptionalType,
    ScalarType,
    TensorLiteral,
    TensorType,
    TupleType,
    Type,
    Value,
    maybe_constant,
    prim,
)
from ts_schema import Tag, registry

from .alias_analysis import AliasDb
from .dead_code_elimination import eliminate_dead_code
from .jit_log import PassLogger
from .node_properties import attributes_key, is_nondeterministic

log = PassLogger(__name__)


class _Unfoldable(Exception):
    """The node cannot be evaluated at compile time."""


def _input_constant(v: Value) -> Any:
    """`maybe_constant`, except that tensor constants are not folded through."""
    value = maybe_constant(v)
    if isinstance(value, TensorLiteral):
        return NOT_CONSTANT
    if isinstance(value, list) and any(isinstance(x, TensorLiteral) for x in value):
        return NOT_CONSTANT
    return value


def _evaluate(node: Node, args: list[Any]) -> list[Any]:
    kind = node.kind
    if kind is prim.ListConstruct:
        return [list(args)]
    if kind is prim.TupleConstruct:
        t = node.output().type
        if isinstance(t, TupleType) and t.names is not None:
            raise _Unfoldable
        return [tuple(args)]
    if kind is prim.ListUnpack or kind is prim.TupleUnpack:
        seq = args[0]
        if not isinstance(seq, (list, tuple)) or len(seq) != len(node.outputs):
            raise _Unfoldable
        return list(seq)
    if kind is prim.TupleIndex:
        seq, i = args
        if not isinstance(seq, tuple) or not isinstance(i, int) or not -len(seq) <= i < len(seq):
            raise _Unfoldable
        return [seq[i]]
    if kind is prim.DictConstruct:
        return [{args[i]: args[i + 1] for i in range(0, len(args), 2)}]
    op = registry.operator_for(node)
    if op is None or op.schema.is_vararg or not op.has_implementation:
        raise _Unfoldable
    try:
        impl = op.implementation_for(node)
        result = impl(*args)
    except Exception as exc:  # the operator rejected these inputs: leave it to run time
        raise _Unfoldable from exc
    n_out = len(node.outputs)
    if n_out == 0:
        return []
    if n_out == 1:
        return [result]
    if not isinstance(result, (tuple, list)) or len(result) != n_out:
        raise _Unfoldable
    return list(result)


def _tensor_type_of(t: Any) -> Type:
    try:
        if getattr(t, "requires_grad", False):
            raise _Unfoldable
        sizes = tuple(int(s) for s in t.shape)
        strides = tuple(int(s) for s in t.stride())
        dtype = ScalarType(int(t.dtype))
        device = t.device if isinstance(t.device, Device) else Device(str(t.device))
    except _Unfoldable:
        raise
    except Exception:
        return TensorType.get()
    return TensorType(dtype, device, False, sizes, strides)


def _requires_grad(value: Any) -> bool:
    """Whether a container holds a tensor that requires grad (which no constant may hold)."""
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, (list, tuple)):
        return any(_requires_grad(x) for x in value)
    return _is_tensor(value) and bool(getattr(value, "requires_grad", False))


def _is_tensor(x: Any) -> bool:
    return hasattr(x, "numel") and hasattr(x, "dim") and not isinstance(x, TensorLiteral)


def _constant_for(graph: Graph, value: Any, declared: Type) -> Node:
    """A constant node for a runtime value, typed as TorchScript would (or raise)."""
    if value is None:
        n = graph.create_constant_node(None)
        n.output().set_type(
            declared if isinstance(declared, (OptionalType, NoneType)) else NoneType.get()
        )
        return n
    if _is_tensor(value):
        n = graph.create_constant_node(value)
        n.output().set_type(_tensor_type_of(value))
        return n
    if isinstance(declared, ListType):
        if not isinstance(value, (list, tuple)):
            raise _Unfoldable
        if _requires_grad(value):
            raise _Unfoldable
        return graph.create_constant_node(list(value), declared)
    if isinstance(declared, DictType):
        if not isinstance(value, dict) or _requires_grad(value):
            raise _Unfoldable
        return graph.create_constant_node(dict(value), declared)
    if isinstance(value, tuple) and not isinstance(declared, TupleType):
        raise _Unfoldable
    if isinstance(value, tuple):
        if _requires_grad(value):
            raise _Unfoldable
        return graph.create_constant_node(tuple(value), declared)
    if isinstance(declared, DeviceType) and isinstance(value, str):
        value = Device(value)
    if isinstance(value, (bool, int, float, complex, str, Device)):
        if isinstance(value, int) and not isinstance(value, bool) and type(value) is not int:
            value = int(value)  # dtypes and other int subclasses become plain ints
        if isinstance(value, float) and type(value) is not float:
            value = float(value)
        return graph.create_constant_node(value)
    raise _Unfoldable


class _ConstantPropagator:
    __slots__ = ("db", "graph", "ignore_custom_classes", "made_change")

    def __init__(self, graph: Graph, *, ignore_custom_classes: bool) -> None:
        self.graph = graph
        self.db = AliasDb(graph)
        self.made_change = False
        self.ignore_custom_classes = ignore_custom_classes

    def blocks(self, node: Node) -> None:
        for b in node.blocks:
            self.block(b)

    def block(self, block: Block) -> None:
        for node in block.nodes():
            self.node(node)

    def node(self, n: Node) -> None:
        constant_inputs = all(v.node.kind is prim.Constant for v in n.inputs)
        if n.kind is prim.If:
            if constant_inputs and isinstance(_input_constant(n.input()), bool):
                self.inline_if(n)
            else:
                self.blocks(n)
                self.remove_extra_if_outputs(n)
        elif n.kind is prim.Loop:
            if self.loop_will_not_run(n):
                self.remove_loop(n)
            else:
                self.blocks(n)
                self.remove_extra_loop_outputs(n)
        elif constant_inputs and self.supported(n):
            self.propagate(n)
        else:
            self.blocks(n)

    def supported(self, n: Node) -> bool:
        return (
            Tag.no_fold not in registry.tags_of(n)
            and not n.blocks
            and not n.has_attribute("Subgraph")
            and not is_nondeterministic(n)
            and not n.has_side_effects()
            and not self.db.has_writers(n)
        )

    def propagate(self, n: Node) -> None:
        args = [_input_constant(v) for v in n.inputs]
        if any(a is NOT_CONSTANT for a in args):
            return
        try:
            outputs = _evaluate(n, args)
            new_nodes = [
                _constant_for(self.graph, value, out.type)
                for value, out in zip(outputs, n.outputs, strict=True)
            ]
        except (_Unfoldable, IRError):
            return
        if not log.allowed():
            for new in new_nodes:
                new.destroy()
            return
        for new, out in zip(new_nodes, n.outputs, strict=True):
            new.insert_before(n)
            new.source_range = n.source_range
            log.update(lambda out=out, new=new: f"folding %{out.debug_name} with {new!r}")
            out.replace_all_uses_with(new.output())
            self.db.create_value(new.output())
        self.made_change = True

    @staticmethod
    def loop_will_not_run(n: Node) -> bool:
        loop = LoopView(n)
        trip = maybe_constant(loop.max_trip_count)
        cond = maybe_constant(loop.input_cond)
        trip_count = trip if isinstance(trip, int) and not isinstance(trip, bool) else 1
        start = cond if isinstance(cond, bool) else True
        return not (start and trip_count > 0)

    def remove_loop(self, n: Node) -> None:
        if not log.allowed():
            return
        log.update(lambda: f"removing a loop that never runs: {n!r}")
        for carried in LoopView(n).all_carried():
            carried.final.replace_all_uses_with(carried.initial)
        n.destroy()
        self.made_change = True

    def inline_if(self, n: Node) -> None:
        if not log.allowed():
            self.blocks(n)
            return
        view = IfView(n)
        cond = maybe_constant(view.cond)
        log.update(lambda: f"folding prim::If where the condition is {cond}")
        body = view.then_block if cond else view.else_block
        self.block(body)
        for inner in list(body.nodes()):
            inner.move_before(n)
        for out, v in zip(n.outputs, body.outputs, strict=True):
            out.replace_all_uses_with(v)
        n.destroy()
        self.made_change = True

    def remove_extra_if_outputs(self, n: Node) -> None:
        view = IfView(n)
        i = 0
        while i < len(n.outputs):
            t_out, f_out = view.then_block.outputs[i], view.else_block.outputs[i]
            replacement: Value | None = None
            if t_out is f_out:
                replacement = t_out
            elif (
                t_out.node.kind is prim.Constant
                and f_out.node.kind is prim.Constant
                and t_out.type == f_out.type
                and attributes_key(t_out.node) == attributes_key(f_out.node)
                and not isinstance(t_out.type, TensorType)
                and log.allowed()
            ):
                clone = self.graph.create_clone(t_out.node, lambda v: v)
                clone.insert_before(n)
                replacement = clone.output()
                self.db.create_value(replacement)
            if replacement is None or (t_out is f_out and not log.allowed()):
                i += 1
                continue
            log.update(lambda i=i: f"output {i} of prim::If is the same in both branches")
            n.outputs[i].replace_all_uses_with(replacement)
            view.remove_output(i)
            self.made_change = True

    def remove_extra_loop_outputs(self, n: Node) -> None:
        loop = LoopView(n)
        for i in range(loop.num_carried() - 1, -1, -1):
            carried = loop.carried(i)
            if carried.body_input is not carried.body_output or not log.allowed():
                continue
            log.update("loop-carried value %d does not change", i)
            carried.final.replace_all_uses_with(carried.initial)
            carried.body_input.replace_all_uses_with(carried.initial)
            loop.remove_carried(i)
            self.made_change = True


def constant_propagation(graph: Graph, *, ignore_custom_classes: bool = False) -> bool:
    """Fold nodes whose inputs are constants; simplify control flow on constant conditions."""
    log.dump("before constant propagation", graph)
    p = _ConstantPropagator(graph, ignore_custom_classes=ignore_custom_classes)
    p.block(graph.block)
    if p.made_change:
        eliminate_dead_code(graph)
        log.dump("after constant propagation", graph)
    return p.made_change
