"""Peephole optimizations, as TorchScript's `peephole.cpp` and its list and alias-sensitive parts.

Local rewrites, each a named rule of `PEEPHOLE_RULES` (the kinds it applies to,
then the rewrite), each with its own test:

    transpose_twice            x.t().t()                         → x
    type_as_same_type          x.type_as(y), same dtype/device   → x
    expand_to_own_size         x.expand(x.size()), sizes known   → x
    size_known                 aten::size(x), sizes known        → constant int[]
    len_of_size                len(x.size()), rank known         → constant int
    dim_known                  aten::dim(x), rank known          → constant int
    conv_dim                   aten::dim(conv{1,2,3}d(...)), the output never written
                               → the input's rank where known, else the batched rank
                               (3, 4, 5) as PyTorch folds it
    dtype_known                prim::dtype(x), dtype known       → constant
    is_floating_point_known    aten::is_floating_point(x), known → constant
    device_known               prim::device(x), device known     → constant
    is_cuda_known              prim::is_cuda(x), device known    → constant
    size_if_not_equal_known    aten::_size_if_not_equal(a, b), both known → constant
    number_round_trip          aten::Int(prim::NumToTensor(i))   → i (Float, *Implicit alike);
                               aten::Int(i) with i an int        → i
    self_comparison            x == x, x != x for ints, bools, strings, devices and lists of them → constant
    arithmetic_identity        x + 0, 0 + x, x - 0, x * 1, 1 * x, x / 1, x // 1 → x
                               (ints; tensors where the dtype is kept and aliasing
                               x to the result is unobservable)
    if_returning_condition     prim::If(c) -> (True) else (False) → c; and If outputs
                               refined to the type both branches give
    none_check                 aten::__is__ / __isnot__ of None against a value that
                               cannot be None → constant
    unwrap_never_none          prim::unchecked_unwrap_optional of a non-Optional → input
    redundant_cast             prim::unchecked_cast that changes nothing → input
    tuple_index_of_construct   prim::TupleIndex of a prim::TupleConstruct → the element
    tuple_unpack_of_construct  prim::TupleUnpack of a prim::TupleConstruct → the elements
    list_idioms                on a list made by prim::ListConstruct and never written:
                               len(l) → constant, l[i] (constant i) → element,
                               prim::ListUnpack(l) → elements, l1 + l2 → one ListConstruct

Dead code elimination runs afterwards when anything changed.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from ts_ir import (
    BoolType,
    DeviceType,
    FloatType,
    Graph,
    IfView,
    IntType,
    ListType,
    Node,
    NoneType,
    NumberType,
    OptionalType,
    StringType,
    TensorType,
    Value,
    maybe_constant,
    prim,
    unify_types,
    unshaped_type,
)

from .alias_analysis import AliasDb
from .dead_code_elimination import eliminate_dead_code
from .jit_log import PassLogger

log = PassLogger(__name__)


def _must_be_none(v: Value) -> bool:
    if isinstance(v.type, NoneType):
        return True
    return (
        v.node.kind is prim.Constant
        and maybe_constant(v) is None
        and isinstance(v.type, OptionalType)
    )


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


class _Peephole:
    __slots__ = ("by_kind", "changed", "db", "graph", "mutated_lists", "stale")

    def __init__(self, graph: Graph, by_kind: dict[str, tuple[PeepholeRule, ...]]) -> None:
        self.graph = graph
        self.by_kind = by_kind
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
            # an empty list (the size of a 0-dim tensor) takes its type from the output
            typed = node.output().type if isinstance(value, list) and not value else None
            c = self.graph.insert_constant(value, typed)
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
            for rule in self.by_kind.get(node.kind, ()):
                rule.rewrite(self, node)


# ---------------------------------------------------------------------------
# The rules


@dataclass(frozen=True)
class PeepholeRule:
    """A named rewrite: `rewrite(peephole, node)` for nodes of the `kinds`."""

    name: str
    kinds: tuple[str, ...]
    rewrite: Callable[[_Peephole, Node], Any]


def transpose_twice(p: _Peephole, node: Node) -> None:
    producer = node.inputs[0].node if len(node.inputs) == 1 else None
    if producer is not None and producer.kind == "aten::t" and len(producer.inputs) == 1:
        p.replace(node.output(), producer.inputs[0], "x.t().t() == x")


def type_as_same_type(p: _Peephole, node: Node) -> None:
    if len(node.inputs) != 2:
        return
    a, b = node.inputs[0].type, node.inputs[1].type
    if (
        isinstance(a, TensorType)
        and isinstance(b, TensorType)
        and a.scalar_type is not None
        and a.scalar_type == b.scalar_type
        and a.device is not None
        and a.device == b.device
    ):
        p.replace(node.output(), node.inputs[0], "x.type_as(y) with equal types")


def expand_to_own_size(p: _Peephole, node: Node) -> None:
    if len(node.inputs) < 2:
        return
    size = maybe_constant(node.inputs[1])
    sizes = _complete_sizes(node.inputs[0])
    if sizes is not None and isinstance(size, list) and tuple(size) == sizes:
        p.replace(node.output(), node.inputs[0], "x.expand(x.size()) == x")


def size_known(p: _Peephole, node: Node) -> None:
    if len(node.inputs) == 1:
        sizes = _complete_sizes(node.inputs[0])
        if sizes is not None:
            p.replace_with_constant(node, list(sizes), "size of a complete tensor")


def len_of_size(p: _Peephole, node: Node) -> None:
    if len(node.inputs) != 1:
        return
    producer = node.inputs[0].node
    # the list x.size() made may have been appended to since
    if (
        producer.kind == "aten::size"
        and len(producer.inputs) == 1
        and node.inputs[0] not in p.mutated_lists
    ):
        t = producer.inputs[0].type
        if isinstance(t, TensorType) and t.dim() is not None:
            p.replace_with_constant(node, t.dim(), "len(x.size()) of a known rank")


def dim_known(p: _Peephole, node: Node) -> None:
    t = node.inputs[0].type if len(node.inputs) == 1 else None
    if isinstance(t, TensorType) and t.dim() is not None:
        p.replace_with_constant(node, t.dim(), "rank is known")


_CONV_RANK = {"aten::conv1d": 3, "aten::conv2d": 4, "aten::conv3d": 5}


def conv_dim(p: _Peephole, node: Node) -> None:
    if len(node.inputs) != 1:
        return
    conv = node.inputs[0].node
    rank = _CONV_RANK.get(str(conv.kind))
    if rank is None or not node.output().uses or p.db.has_writers(node.inputs[0]):
        return
    t = conv.inputs[0].type
    if isinstance(t, TensorType) and t.dim() is not None:
        rank = t.dim()  # an unbatched input gives an unbatched output
    p.replace_with_constant(node, rank, "rank of a convolution's output")


def dtype_known(p: _Peephole, node: Node) -> None:
    t = node.inputs[0].type
    if isinstance(t, TensorType) and t.scalar_type is not None:
        p.replace_with_constant(node, int(t.scalar_type), "dtype is known")


def is_floating_point_known(p: _Peephole, node: Node) -> None:
    t = node.inputs[0].type if len(node.inputs) == 1 else None
    if isinstance(t, TensorType) and t.scalar_type is not None:
        p.replace_with_constant(node, t.scalar_type.is_floating_point, "dtype is known")


def device_known(p: _Peephole, node: Node) -> None:
    t = node.inputs[0].type
    if isinstance(t, TensorType) and t.device is not None:
        p.replace_with_constant(node, t.device, "device is known")


def is_cuda_known(p: _Peephole, node: Node) -> None:
    t = node.inputs[0].type
    if isinstance(t, TensorType) and t.device is not None:
        p.replace_with_constant(node, t.device.type == "cuda", "device is known")


def size_if_not_equal_known(p: _Peephole, node: Node) -> None:
    if len(node.inputs) != 2:
        return
    a, b = (_known_sizes(v) for v in node.inputs)
    if a is None or b is None:
        return
    if a == b:
        with p.graph.inserting_before(node):
            if not log.allowed():
                return
            c = p.graph.insert_constant(None)
        c.set_type(node.output().type)
        log.update("_size_if_not_equal of equal sizes is None")
        node.output().replace_all_uses_with(c)
        p.changed = True
    else:
        p.replace_with_constant(node, list(a), "_size_if_not_equal of different sizes")


def number_round_trip(p: _Peephole, node: Node) -> None:
    if len(node.inputs) != 1:
        return
    producer = node.inputs[0].node
    if producer.kind == "prim::NumToTensor" and node.output().type == producer.inputs[0].type:
        p.replace(node.output(), producer.inputs[0], "number → tensor → number")
    elif node.kind == "aten::Int" and isinstance(node.inputs[0].type, IntType):
        p.replace(node.output(), node.inputs[0], "int(int)")


def self_comparison(p: _Peephole, node: Node) -> None:
    inputs = node.inputs
    if len(inputs) != 2 or inputs[0] is not inputs[1]:
        return
    t = inputs[0].type
    if isinstance(t, ListType):  # element by element, each with itself
        t = t.element
    if isinstance(t, _IMMUTABLE_EQ) and not isinstance(t, (FloatType, NumberType)):  # nan != nan
        p.replace_with_constant(node, node.kind == "aten::eq", "x == x")


def _is_int(v: Value, n: int) -> bool:
    """Whether `v` is the int constant `n` (not a bool, a float or a tensor constant)."""
    c = maybe_constant(v)
    return type(c) is int and c == n


def arithmetic_identity(p: _Peephole, node: Node) -> None:
    kind = node.kind
    inputs = node.inputs
    if len(inputs) < 2:
        return
    identity = 0 if kind in ("aten::add", "aten::sub") else 1
    x, other = inputs[0], inputs[1]
    if not _is_int(other, identity) and kind in ("aten::add", "aten::mul") and len(inputs) == 2:
        # 0 + x and 1 * x: the constant first (ints; tensors have no such overload)
        x, other = inputs[1], inputs[0]
    if not _is_int(other, identity):
        return
    if isinstance(x.type, IntType) and isinstance(other.type, IntType) and len(inputs) == 2:
        if kind != "aten::div":  # int / int is a float
            p.replace(node.output(), x, f"int {kind.name} by its identity")
        return
    if x is not inputs[0]:
        return
    t = x.type
    if (
        not isinstance(t, TensorType)
        or t.scalar_type is None
        or not isinstance(other.type, IntType)
    ):
        return
    if len(inputs) == 3:
        if not _is_int(inputs[2], 1) or not isinstance(inputs[2].type, IntType):
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
    p.replace_output_with_input(node, x, f"tensor {kind.name} by its identity")


def if_returning_condition(p: _Peephole, node: Node) -> None:
    view = IfView(node)
    then_b, else_b, cond = view.then_block, view.else_block, view.cond
    for i, out in enumerate(node.outputs):
        if not isinstance(out.type, BoolType) or not out.uses:
            continue
        if maybe_constant(then_b.outputs[i]) is True and maybe_constant(else_b.outputs[i]) is False:
            p.replace(out, cond, "if c then True else False == c")
    for i, out in enumerate(node.outputs):
        a, b = then_b.outputs[i].type, else_b.outputs[i].type
        if (
            isinstance(out.type, OptionalType)
            and not isinstance(a, OptionalType)
            and not isinstance(b, OptionalType)
        ):
            unified = unify_types(a, b)
            if unified is not None and unified != out.type and not isinstance(unified, NoneType):
                if unified.is_subtype_of(out.type) and log.allowed():
                    log.update("refining output %d of prim::If to %s", i, unified)
                    out.set_type(unified)
                    p.changed = True


def none_check(p: _Peephole, node: Node) -> None:
    inputs = node.inputs
    if len(inputs) != 2:
        return
    for i in (0, 1):
        if _must_be_none(inputs[i]) and _must_not_be_none(inputs[1 - i]):
            p.replace_with_constant(node, node.kind == "aten::__isnot__", "None check")
            return
    if _must_be_none(inputs[0]) and _must_be_none(inputs[1]):
        p.replace_with_constant(node, node.kind == "aten::__is__", "None is None")


def unwrap_never_none(p: _Peephole, node: Node) -> None:
    if _must_not_be_none(node.inputs[0]):
        p.replace(node.output(), node.inputs[0], "unwrapping a value that is never None")


def redundant_cast(p: _Peephole, node: Node) -> None:
    if unshaped_type(node.inputs[0].type).is_subtype_of(unshaped_type(node.output().type)):
        p.replace(node.output(), node.inputs[0], "redundant unchecked_cast")


def tuple_index_of_construct(p: _Peephole, node: Node) -> None:
    if len(node.inputs) != 2:
        return
    producer = node.inputs[0].node
    i = maybe_constant(node.inputs[1])
    if producer.kind is prim.TupleConstruct and isinstance(i, int):
        n = len(producer.inputs)
        if -n <= i < n:
            p.replace(node.output(), producer.inputs[i], "tuple index of a constructed tuple")


def tuple_unpack_of_construct(p: _Peephole, node: Node) -> None:
    producer = node.inputs[0].node
    if producer.kind is prim.TupleConstruct and len(producer.inputs) == len(node.outputs):
        for out, v in zip(node.outputs, producer.inputs, strict=True):
            p.replace(out, v, "unpacking a constructed tuple")


def list_idioms(p: _Peephole, node: Node) -> None:
    if not node.inputs or not isinstance(node.inputs[0].type, ListType):
        return
    lst = node.inputs[0]
    if lst in p.mutated_lists or lst.node.kind is not prim.ListConstruct:
        return
    elements = lst.node.inputs
    kind = node.kind
    if kind == "aten::len" and len(node.inputs) == 1:
        p.replace_with_constant(node, len(elements), "len of a constructed list")
    elif kind == "aten::__getitem__" and len(node.inputs) == 2:
        i = maybe_constant(node.inputs[1])
        if isinstance(i, int) and not isinstance(i, bool) and -len(elements) <= i < len(elements):
            p.replace(node.output(), elements[i], "indexing a constructed list")
    elif kind is prim.ListUnpack:
        if len(elements) == len(node.outputs):
            for out, v in zip(node.outputs, elements, strict=True):
                p.replace(out, v, "unpacking a constructed list")
    elif kind == "aten::add" and len(node.inputs) == 2:
        second = node.inputs[1]
        if second in p.mutated_lists or second.node.kind is not prim.ListConstruct:
            return
        if not log.allowed():
            return
        with p.graph.inserting_before(node):
            new = p.graph.insert_node(
                p.graph.create(prim.ListConstruct, [*elements, *second.node.inputs])
            )
        new.output().set_type(node.output().type)
        p.db.create_value(new.output())
        if node.output() in p.mutated_lists:
            p.mutated_lists.add(new.output())
        log.update("concatenating two constructed lists")
        node.output().replace_all_uses_with(new.output())
        p.changed = True


def _known_sizes(v: Value) -> tuple[int, ...] | None:
    c = maybe_constant(v)
    if isinstance(c, list) and all(isinstance(x, int) for x in c):
        return tuple(c)
    if v.node.kind == "aten::size" and len(v.node.inputs) == 1:
        return _complete_sizes(v.node.inputs[0])
    return None


def _rule(name: str, kinds: str, rewrite: Callable[[_Peephole, Node], Any]) -> PeepholeRule:
    return PeepholeRule(name, tuple(kinds.split()), rewrite)


#: The rules, in the order they apply to a node (see the module docstring).
PEEPHOLE_RULES: tuple[PeepholeRule, ...] = (
    _rule("list_idioms", "aten::len aten::__getitem__ prim::ListUnpack aten::add", list_idioms),
    _rule("transpose_twice", "aten::t", transpose_twice),
    _rule("type_as_same_type", "aten::type_as", type_as_same_type),
    _rule("expand_to_own_size", "aten::expand", expand_to_own_size),
    _rule("size_known", "aten::size", size_known),
    _rule("len_of_size", "aten::len", len_of_size),
    _rule("dim_known", "aten::dim", dim_known),
    _rule("conv_dim", "aten::dim", conv_dim),
    _rule("dtype_known", "prim::dtype", dtype_known),
    _rule("is_floating_point_known", "aten::is_floating_point", is_floating_point_known),
    _rule("device_known", "prim::device", device_known),
    _rule("is_cuda_known", "prim::is_cuda aten::is_cuda", is_cuda_known),
    _rule("size_if_not_equal_known", "aten::_size_if_not_equal", size_if_not_equal_known),
    _rule("number_round_trip", "aten::Float aten::Int aten::FloatImplicit aten::IntImplicit aten::ScalarImplicit", number_round_trip),
    _rule("self_comparison", "aten::eq aten::ne", self_comparison),
    _rule("arithmetic_identity", "aten::add aten::sub aten::mul aten::div aten::floordiv", arithmetic_identity),
    _rule("if_returning_condition", "prim::If", if_returning_condition),
    _rule("none_check", "aten::__is__ aten::__isnot__", none_check),
    _rule("unwrap_never_none", "prim::unchecked_unwrap_optional aten::_unwrap_optional", unwrap_never_none),
    _rule("redundant_cast", "prim::unchecked_cast", redundant_cast),
    _rule("tuple_index_of_construct", "prim::TupleIndex", tuple_index_of_construct),
    _rule("tuple_unpack_of_construct", "prim::TupleUnpack", tuple_unpack_of_construct),
)  # fmt: skip


def _by_kind(rules: tuple[PeepholeRule, ...]) -> dict[str, tuple[PeepholeRule, ...]]:
    out: dict[str, tuple[PeepholeRule, ...]] = {}
    for rule in rules:
        for kind in rule.kinds:
            out[kind] = (*out.get(kind, ()), rule)
    return out


_RULES_BY_KIND = _by_kind(PEEPHOLE_RULES)


def peephole_optimize(graph: Graph, *, only: Collection[str] | None = None) -> bool:
    """Apply the local rewrites above everywhere; True if any applied. `only` names the
    rules to apply (all of them by default), as the tests do to try each rule alone."""
    log.dump("before peephole", graph)
    by_kind = _RULES_BY_KIND
    if only is not None:
        unknown = set(only) - {r.name for r in PEEPHOLE_RULES}
        if unknown:
            raise ValueError(f"no peephole rule named {sorted(unknown)}")
        by_kind = _by_kind(tuple(r for r in PEEPHOLE_RULES if r.name in only))
    changed = _Peephole(graph, by_kind).run()
    if changed:
        eliminate_dead_code(graph)
        log.dump("after peephole", graph)
    return changed
