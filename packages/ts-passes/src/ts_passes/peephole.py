"""Peephole optimizations, as TorchScript's `peephole.cpp` and its list and alias-sensitive parts.

Local rewrites, each checked on its own:

    x.t().t()                          → x
    x.type_as(y), same dtype/device    → x
    x.expand(x.size()), sizes known    → x
    x + 0, x - 0, x * 1, x / 1         → x  (int scalar, alpha 1, dtype known and kept,
                                              and aliasing x to the result is unobservable)
    aten::size(x), sizes known         → constant int[]
    aten::dim(x), rank known           → constant int
    prim::dtype / prim::device / prim::is_cuda / aten::is_floating_point, known → constant
    aten::_size_if_not_equal(a, b), both known → constant
    aten::Int(prim::NumToTensor(i))    → i (and aten::Float, aten::*Implicit likewise)
    aten::Int(i) with i an int         → i
    x == x, x != x for ints, floats, bools, strings, devices → constant
    i + 0, i - 0, i * 1, i // 1 on ints → i
    prim::If(c) -> (True) else (False) → c
    aten::__is__ / __isnot__ with None against a value that cannot be None → constant
    prim::unchecked_cast / unchecked_unwrap_optional that changes nothing → its input
    prim::TupleIndex / prim::TupleUnpack of a prim::TupleConstruct → the element(s)
    list idioms on a list made by prim::ListConstruct and never written:
      len(l) → constant, l[i] (constant i) → element, prim::ListUnpack(l) → elements,
      l1 + l2 → one prim::ListConstruct

Dead code elimination runs afterwards when anything changed.
"""

from __future__ import annotations

from typing import Any

from ts_ir import (
    BoolType,
    DeviceType,
    FloatType,
    Graph,
    IntType,
    ListType,
    Node,
    NoneType,
    NumberType,
    OptionalType,
    StringType,
    TensorType,
    Value,
    constant_value,
    prim,
    unify_types,
    unshaped_type,
)

from .alias_analysis import AliasDb
from .dead_code_elimination import eliminate_dead_code
from .jit_log import PassLogger

log = PassLogger(__name__)

_NO = object()


def _const(v: Value) -> Any:
    n = v.node
    if n.kind is not prim.Constant or (n.has_attribute("name") and not n.has_attribute("value")):
        return _NO
    try:
        return constant_value(v)
    except Exception:
        return _NO


def _must_be_none(v: Value) -> bool:
    if isinstance(v.type, NoneType):
        return True
    return v.node.kind is prim.Constant and _const(v) is None and isinstance(v.type, OptionalType)


def _must_not_be_none(v: Value) -> bool:
    t = v.type
    if v.node.kind is prim.AutogradZero:
        return True
    if isinstance(t, OptionalType):
        return False
    if isinstance(t, NoneType) or t.kind in ("AnyType", "UnionType"):
        return False
    return True


def _complete_sizes(v: Value) -> tuple[int, ...] | None:
    t = v.type
    if not isinstance(t, TensorType) or t.sizes is None or None in t.sizes:
        return None
    return t.sizes  # type: ignore[return-value]


_IMMUTABLE_EQ = (IntType, FloatType, BoolType, StringType, DeviceType, NumberType)
_LIST_IDIOMS = frozenset({"aten::len", "aten::__getitem__", "prim::ListUnpack", "aten::add"})
_NUMBER_CASTS = frozenset(
    {"aten::Float", "aten::Int", "aten::FloatImplicit", "aten::IntImplicit", "aten::ScalarImplicit"}
)


class _Peephole:
    __slots__ = ("changed", "db", "graph", "mutated_lists", "stale")

    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        self.db = AliasDb(graph)
        self.changed = False
        self.stale: set[Value] = set()
        self.mutated_lists: set[Value] = set()

    # -- helpers

    def replace(self, old: Value, new: Value, why: str) -> bool:
        if not log.allowed():
            return False
        log.update(lambda: f"{why}: replacing %{old.debug_name} with %{new.debug_name}")
        old.replace_all_uses_with(new)
        self.changed = True
        return True

    def replace_with_constant(self, node: Node, value: Any, why: str) -> bool:
        if not log.allowed():
            return False
        with self.graph.inserting_before(node):
            c = self.graph.insert_constant(value)
        log.update(lambda: f"{why}: %{node.output().debug_name} is {value!r}")
        node.output().replace_all_uses_with(c)
        self.changed = True
        return True

    def replace_output_with_input(self, node: Node, inp: Value, why: str) -> bool:
        """Make `node`'s output `inp`, where the new aliasing cannot be observed."""
        out = node.output()
        if not self.db.safe_to_change_aliasing_relationship(inp, out):
            return False
        if self.stale and self.db.may_alias([inp, out], self.stale):
            return False
        if not self.replace(out, inp, why):
            return False
        self.stale.update((inp, out))
        return True

    # -- the walk

    def run(self) -> bool:
        self._collect_mutated_lists()
        self.block(self.graph.block)
        return self.changed

    def _collect_mutated_lists(self) -> None:
        stack = [self.graph.block]
        while stack:
            b = stack.pop()
            values = list(b.inputs)
            for n in b.nodes():
                values.extend(n.outputs)
                stack.extend(n.blocks)
            for v in values:
                if isinstance(v.type, ListType) and self.db.has_writers(v):
                    self.mutated_lists.add(v)

    def block(self, block: Any) -> None:
        for node in block.nodes():
            for b in node.blocks:
                self.block(b)
            self.node(node)

    def node(self, node: Node) -> None:
        kind = node.kind
        inputs = node.inputs
        if inputs and kind in _LIST_IDIOMS and isinstance(inputs[0].type, ListType):
            self._list_idiom(node)
        elif kind == "aten::t" and len(inputs) == 1:
            producer = inputs[0].node
            if producer.kind == "aten::t" and len(producer.inputs) == 1:
                self.replace(node.output(), producer.inputs[0], "x.t().t() == x")
        elif kind == "aten::type_as" and len(inputs) == 2:
            a, b = inputs[0].type, inputs[1].type
            if (
                isinstance(a, TensorType)
                and isinstance(b, TensorType)
                and a.scalar_type is not None
                and a.scalar_type == b.scalar_type
                and a.device is not None
                and a.device == b.device
            ):
                self.replace(node.output(), inputs[0], "x.type_as(y) with equal types")
        elif kind == "aten::expand" and len(inputs) >= 2:
            size = _const(inputs[1])
            sizes = _complete_sizes(inputs[0])
            if sizes is not None and isinstance(size, list) and tuple(size) == sizes:
                self.replace(node.output(), inputs[0], "x.expand(x.size()) == x")
        elif kind == "aten::size" and len(inputs) == 1:
            sizes = _complete_sizes(inputs[0])
            if sizes is not None:
                self.replace_with_constant(node, list(sizes), "size of a complete tensor")
        elif kind == "aten::dim" and len(inputs) == 1:
            t = inputs[0].type
            if isinstance(t, TensorType) and t.dim() is not None:
                self.replace_with_constant(node, t.dim(), "rank is known")
        elif kind == "prim::dtype":
            t = inputs[0].type
            if isinstance(t, TensorType) and t.scalar_type is not None:
                self.replace_with_constant(node, int(t.scalar_type), "dtype is known")
        elif kind == "aten::is_floating_point" and len(inputs) == 1:
            t = inputs[0].type
            if isinstance(t, TensorType) and t.scalar_type is not None:
                self.replace_with_constant(node, t.scalar_type.is_floating_point, "dtype is known")
        elif kind == "prim::device":
            t = inputs[0].type
            if isinstance(t, TensorType) and t.device is not None:
                self.replace_with_constant(node, t.device, "device is known")
        elif kind in ("prim::is_cuda", "aten::is_cuda"):
            t = inputs[0].type
            if isinstance(t, TensorType) and t.device is not None:
                self.replace_with_constant(node, t.device.type == "cuda", "device is known")
        elif kind == "aten::_size_if_not_equal" and len(inputs) == 2:
            self._size_if_not_equal(node)
        elif kind in _NUMBER_CASTS and len(inputs) == 1:
            producer = inputs[0].node
            if (
                producer.kind == "prim::NumToTensor"
                and node.output().type == producer.inputs[0].type
            ):
                self.replace(node.output(), producer.inputs[0], "number → tensor → number")
            elif kind == "aten::Int" and isinstance(inputs[0].type, IntType):
                self.replace(node.output(), inputs[0], "int(int)")
        elif kind in ("aten::eq", "aten::ne") and len(inputs) == 2:
            if inputs[0] is inputs[1] and isinstance(inputs[0].type, _IMMUTABLE_EQ):
                if not isinstance(inputs[0].type, FloatType):  # nan != nan
                    self.replace_with_constant(node, kind == "aten::eq", "x == x")
        elif kind in ("aten::add", "aten::sub", "aten::mul", "aten::div", "aten::floordiv"):
            self._arithmetic_identity(node)
        elif kind is prim.If:
            self._if(node)
        elif kind in ("aten::__is__", "aten::__isnot__") and len(inputs) == 2:
            for i in (0, 1):
                if _must_be_none(inputs[i]) and _must_not_be_none(inputs[1 - i]):
                    self.replace_with_constant(node, kind == "aten::__isnot__", "None check")
                    break
            else:
                if _must_be_none(inputs[0]) and _must_be_none(inputs[1]):
                    self.replace_with_constant(node, kind == "aten::__is__", "None is None")
        elif kind in (prim.unchecked_unwrap_optional, "aten::_unwrap_optional"):
            if _must_not_be_none(inputs[0]):
                self.replace(node.output(), inputs[0], "unwrapping a value that is never None")
        elif kind is prim.unchecked_cast:
            if unshaped_type(inputs[0].type).is_subtype_of(unshaped_type(node.output().type)):
                self.replace(node.output(), inputs[0], "redundant unchecked_cast")
        elif kind is prim.TupleIndex and len(inputs) == 2:
            producer = inputs[0].node
            i = _const(inputs[1])
            if producer.kind is prim.TupleConstruct and isinstance(i, int):
                n = len(producer.inputs)
                if -n <= i < n:
                    self.replace(
                        node.output(), producer.inputs[i], "tuple index of a constructed tuple"
                    )
        elif kind is prim.TupleUnpack:
            producer = inputs[0].node
            if producer.kind is prim.TupleConstruct and len(producer.inputs) == len(node.outputs):
                for out, v in zip(node.outputs, producer.inputs, strict=True):
                    self.replace(out, v, "unpacking a constructed tuple")

    def _size_if_not_equal(self, node: Node) -> None:
        a, b = (self._known_sizes(v) for v in node.inputs)
        if a is None or b is None:
            return
        if a == b:
            with self.graph.inserting_before(node):
                if not log.allowed():
                    return
                c = self.graph.insert_constant(None)
            c.set_type(node.output().type)
            log.update("_size_if_not_equal of equal sizes is None")
            node.output().replace_all_uses_with(c)
            self.changed = True
        else:
            self.replace_with_constant(node, list(a), "_size_if_not_equal of different sizes")

    @staticmethod
    def _known_sizes(v: Value) -> tuple[int, ...] | None:
        c = _const(v)
        if isinstance(c, list) and all(isinstance(x, int) for x in c):
            return tuple(c)
        if v.node.kind == "aten::size" and len(v.node.inputs) == 1:
            return _complete_sizes(v.node.inputs[0])
        return None

    def _arithmetic_identity(self, node: Node) -> None:
        kind = node.kind
        inputs = node.inputs
        if len(inputs) < 2:
            return
        x, other = inputs[0], inputs[1]
        value = _const(other)
        if not isinstance(value, int) or isinstance(value, bool):
            return
        identity = 0 if kind in ("aten::add", "aten::sub") else 1
        if value != identity:
            return
        if isinstance(x.type, IntType) and isinstance(other.type, IntType) and len(inputs) == 2:
            if kind != "aten::div":  # int / int is a float
                self.replace(node.output(), x, f"int {kind.name} by its identity")
            return
        t = x.type
        if (
            not isinstance(t, TensorType)
            or t.scalar_type is None
            or not isinstance(other.type, IntType)
        ):
            return
        if len(inputs) == 3:
            alpha = _const(inputs[2])
            if alpha != 1 or isinstance(alpha, bool) or not isinstance(inputs[2].type, IntType):
                return
        elif kind in ("aten::add", "aten::sub"):
            return
        elif len(inputs) != 2:
            return
        dtype = t.scalar_type
        if dtype.name == "Bool":
            return  # bool + 0 is an integer tensor
        if kind == "aten::div" and not dtype.is_floating_point:
            return  # true division makes integers float
        if kind == "aten::floordiv":
            return
        out = node.output().type
        if isinstance(out, TensorType) and out.scalar_type not in (None, dtype):
            return
        self.replace_output_with_input(node, x, f"tensor {kind.name} by its identity")

    def _if(self, node: Node) -> None:
        then_b, else_b = node.blocks
        cond = node.input()
        for i, out in enumerate(node.outputs):
            if not isinstance(out.type, BoolType) or not out.uses:
                continue
            t = _const(then_b.outputs[i])
            f = _const(else_b.outputs[i])
            if t is True and f is False:
                self.replace(out, cond, "if c then True else False == c")
        for i, out in enumerate(node.outputs):
            a, b = then_b.outputs[i].type, else_b.outputs[i].type
            if (
                isinstance(out.type, OptionalType)
                and not isinstance(a, OptionalType)
                and not isinstance(b, OptionalType)
            ):
                unified = unify_types(a, b)
                if (
                    unified is not None
                    and unified != out.type
                    and not isinstance(unified, NoneType)
                ):
                    if unified.is_subtype_of(out.type) and log.allowed():
                        log.update("refining output %d of prim::If to %s", i, unified)
                        out.set_type(unified)
                        self.changed = True

    def _list_idiom(self, node: Node) -> None:
        lst = node.inputs[0]
        if lst in self.mutated_lists or lst.node.kind is not prim.ListConstruct:
            return
        elements = lst.node.inputs
        kind = node.kind
        if kind == "aten::len" and len(node.inputs) == 1:
            self.replace_with_constant(node, len(elements), "len of a constructed list")
        elif kind == "aten::__getitem__" and len(node.inputs) == 2:
            i = _const(node.inputs[1])
            if (
                isinstance(i, int)
                and not isinstance(i, bool)
                and -len(elements) <= i < len(elements)
            ):
                self.replace(node.output(), elements[i], "indexing a constructed list")
        elif kind is prim.ListUnpack:
            if len(elements) == len(node.outputs):
                for out, v in zip(node.outputs, elements, strict=True):
                    self.replace(out, v, "unpacking a constructed list")
        elif kind == "aten::add" and len(node.inputs) == 2:
            second = node.inputs[1]
            if second in self.mutated_lists or second.node.kind is not prim.ListConstruct:
                return
            if not log.allowed():
                return
            with self.graph.inserting_before(node):
                new = self.graph.insert_node(
                    self.graph.create(prim.ListConstruct, [*elements, *second.node.inputs])
                )
            new.output().set_type(node.output().type)
            self.db.create_value(new.output())
            if node.output() in self.mutated_lists:
                self.mutated_lists.add(new.output())
            log.update("concatenating two constructed lists")
            node.output().replace_all_uses_with(new.output())
            self.changed = True


def peephole_optimize(graph: Graph) -> bool:
    """Apply the local rewrites above everywhere; True if any applied."""
    log.dump("before peephole", graph)
    changed = _Peephole(graph).run()
    if changed:
        eliminate_dead_code(graph)
        log.dump("after peephole", graph)
    return changed
