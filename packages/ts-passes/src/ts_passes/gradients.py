"""Symbolic gradients: rules that write a node's backward as graph nodes, keyed by schema.

    GRADIENTS.register("aten::mul.Tensor", rule)
    rule(builder, node, grads) -> [grad of input 0, grad of input 1, ...]   (None: no gradient)

`grads` holds one `Value` per output of `node` (the vector the backward is
multiplied with; a zero tensor where nothing flows into an output, None for
outputs that are not tensors). The rule writes its computation through the
`GradientBuilder`: `builder.insert("aten::mul", [g, x])` matches a schema
as `graph.insert` does, `builder.emit(op, args)` calls one overload, and the
builder decides where the node goes (PyTorch's `differentiate` does the same
in two steps, see `differentiate.py`): into the backward graph `df`, reading
values of the forward graph `f` as captures, or, for a size computation
over forward values alone (`aten::size`, `aten::_size_if_not_equal`), into
`f` itself, so that `df` receives a small list instead of keeping a tensor
alive for its shape.

A rule that cannot write the gradient of this particular node (its
arguments are not constants where it needs them, its types are unknown)
raises `NotDifferentiableError`; the node is then left to eager autograd.
The table's default rule is installed by the runtime (ts-runtime evaluates
its eager derivative formulas on symbolic tensors, so that one formula
serves both); a rule registered here for a key takes precedence. The rules
this module registers are for prims that have no eager formula:
`prim::ConstantChunk`, `prim::AutogradAdd`, `aten::_grad_sum_to_size`.

`is_differentiable(node)` answers whether a node may go into a
differentiable graph: it has no effects and no blocks, and either nothing
that can carry a gradient flows through it, or its rule writes a gradient
for it (tried on a scratch graph, cached by the node's types and constants).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
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
    TorchScriptError,
    Type,
    Value,
    constant_value,
    prim,
)
from ts_schema import (
    Operator,
    RuleTable,
    as_value,
    emit_node,
    match_schema,
    match_schemas,
    registry,
)

from .jit_log import PassLogger
from .shape_analysis import refine_types
from .shape_rules import shape_rules
from .shape_rules.core import ShapeArgs, make_tensor

log = PassLogger(__name__)


class NotDifferentiableError(TorchScriptError):
    """A gradient rule cannot write the backward of a node symbolically."""


#: rule(builder, node, grads) -> one gradient Value (or None) per input of node
GradientRule = Callable[["GradientBuilder", Node, list["Value | None"]], Sequence["Value | None"]]

GRADIENTS: RuleTable[GradientRule] = RuleTable("symbolic gradient", default=None)

_PLAIN = (IntType, FloatType, BoolType, NumberType, StringType, NoneType, DeviceType)


def requires_grad(v: Value) -> bool:
    """Whether a gradient may flow through `v` (a floating or unknown tensor that may require grad)."""
    t = v.type
    if not isinstance(t, TensorType):
        return False
    if t.requires_grad is not None:
        return t.requires_grad
    st = t.scalar_type
    return st is None or st.is_floating_point or st.is_complex


def may_carry_grad(t: Type) -> bool:
    """Whether a value of type `t` may hold a tensor that requires grad (inside containers too)."""
    if isinstance(t, TensorType):
        return t.requires_grad is not False
    if isinstance(t, _PLAIN):
        return False
    if isinstance(t, ListType):
        return may_carry_grad(t.element)
    if isinstance(t, OptionalType):
        return may_carry_grad(t.element)
    contained = getattr(t, "contained_types", None)
    if callable(contained):
        return any(may_carry_grad(e) for e in contained())
    return True


class GradientBuilder:
    """Where a rule writes a node's backward (see the module docstring).

    `f` is the forward graph, `df` the backward graph under construction;
    `capture(v)` gives the `df` value standing for forward value `v`.
    """

    def __init__(self, f: Graph, df: Graph) -> None:
        self.f = f
        self.df = df
        self.captures: dict[Value, Value] = {}
        self.node: Node | None = None  # the forward node whose gradient is being written
        # computations moved into f, by operator and arguments: each is written once
        self._hoisted: dict[Any, Any] = {}
        self._constants: dict[Value, Value] = {}

    # -- values

    def in_forward(self, v: Value) -> bool:
        return v.owning_graph is self.f

    def capture(self, v: Value) -> Value:
        """The `df` value for forward value `v`: a copied constant, or a capture input."""
        if v.owning_graph is self.df:
            return v
        c = self.captures.get(v) or self._constants.get(v)
        if c is not None:
            return c
        if v.node.kind is prim.Constant:
            # copied, not captured
            clone = self.df.create_clone(v.node, _no_inputs)
            self.df.prepend_node(clone)
            c = self._constants[v] = clone.output()
            return c
        c = self.captures[v] = self.df.add_input(type=v.type)
        c.copy_metadata(v)
        return c

    # -- emitting nodes

    def emit(self, op: Operator, args: Sequence[Any]) -> Any:
        """Call overload `op` with positional `args` (Values of either graph, Python values)."""
        graph = self._graph_for(op, args)
        key = _memo_key(op.key, args) if graph is self.f else None
        if key is not None and key in self._hoisted:
            return self._hoisted[key]
        positional: list[Value] = []
        keywords: dict[str, Value] = {}
        formals = op.schema.arguments
        if len(args) > len(formals) and not op.schema.is_vararg:
            raise NotDifferentiableError(f"{op.key} takes {len(formals)} arguments")
        for i, a in enumerate(args):
            v = self._as_value(graph, a)
            if i < len(formals) and formals[i].kwarg_only:
                keywords[formals[i].name] = v
            else:
                positional.append(v)
        try:
            matched = match_schema(op.schema, graph, positional, keywords, allow_conversions=True)
        except TorchScriptError as exc:
            raise NotDifferentiableError(f"{op.key}: {exc}") from exc
        with self._inserting(graph):
            out = self._refine(emit_node(graph, op, matched))
        if key is not None:
            self._hoisted[key] = out
        return out

    def insert(
        self, kind: str, args: Sequence[Any] = (), kwargs: dict[str, Any] | None = None
    ) -> Any:
        """Call operator `kind`, choosing the overload from the arguments' types."""
        flat = list(args) + list((kwargs or {}).values())
        ops = registry.lookup(kind)
        graph = self._graph_for(ops[0] if ops else None, flat)
        key = _memo_key((kind, tuple(sorted(kwargs or {}))), flat) if graph is self.f else None
        if key is not None and key in self._hoisted:
            return self._hoisted[key]
        with self._inserting(graph):
            values = [self._as_value(graph, a) for a in args]
            kw = {k: self._as_value(graph, a) for k, a in (kwargs or {}).items()}
            try:
                op, matched = match_schemas(ops, graph, values, kw)
            except TorchScriptError as exc:
                raise NotDifferentiableError(f"{kind}: {exc}") from exc
            out = self._refine(emit_node(graph, op, matched))
        if key is not None:
            self._hoisted[key] = out
        return out

    @contextlib.contextmanager
    def _inserting(self, graph: Graph) -> Iterator[None]:
        """Nodes go at the end of `df`; in `f`, before its return (after everything they read)."""
        with graph.inserting_before(graph.return_node):
            yield

    def zeros_like(self, v: Value) -> Value:
        """A zero tensor shaped like forward value `v` (for outputs nothing flows into)."""
        return self.insert("aten::zeros_like", [v])

    def sum_to(self, grad: Value, like: Value, result: Value) -> Value:
        """`grad` (shaped like `result`) summed to `like`'s shape where `like` was broadcast.

        The size comparison goes into `f`; `df` gets None when no sum is needed,
        which the backward executor specializes away.
        """
        size = self.insert(
            "aten::_size_if_not_equal",
            [self.insert("aten::size", [like]), self.insert("aten::size", [result])],
        )
        out = self.insert("aten::_grad_sum_to_size", [grad, size])
        g, t = grad.type, like.type
        if isinstance(g, TensorType) and isinstance(t, TensorType):
            out.set_type(TensorType(g.scalar_type, g.device, g.requires_grad, _rank(t)))
        return out

    def _refine(self, out: Any) -> Any:
        first = out[0] if isinstance(out, tuple) else out
        if isinstance(first, Value):
            refine_types(first.node)
        return out

    def _graph_for(self, op: Operator | None, args: Sequence[Any]) -> Graph:
        """`f` for a pure, tensor-free computation over forward values only; else `df`."""
        if op is None or _reads_df(self.df, args):
            return self.df
        schema = op.schema
        if schema.is_mutable or op.has_side_effects or schema.is_vararg or schema.is_varret:
            return self.df
        if not schema.returns or any(isinstance(r.type, TensorType) for r in schema.returns):
            return self.df
        if any(_holds_tensor(a) for a in args):
            # a size of a tensor the forward graph has: hoist only if every tensor is forward
            if not all(self.in_forward(v) for v in _values_in(args)):
                return self.df
        return self.f

    def _as_value(self, graph: Graph, a: Any) -> Value:
        with self._inserting(graph):
            if isinstance(a, Value):
                if graph is self.df:
                    return self.capture(a)
                return a
            if isinstance(a, (list, tuple)) and any(isinstance(e, Value) for e in a):
                items = [self._as_value(graph, e) for e in a]
                return as_value(graph, items if isinstance(a, list) else tuple(items))
            return as_value(graph, a)


def _rank(t: TensorType) -> tuple[None, ...] | None:
    rank = t.dim()
    return None if rank is None else (None,) * rank


def _memo_key(head: Any, args: Sequence[Any]) -> Any:
    parts: list[Any] = [head]
    for a in args:
        if isinstance(a, Value):
            parts.append(("value", id(a)))
        elif isinstance(a, (list, tuple)):
            inner = _memo_key(type(a).__name__, a)
            if inner is None:
                return None
            parts.append(inner)
        else:
            try:
                hash(a)
            except TypeError:
                return None
            parts.append((type(a), a))
    return tuple(parts)


def _reads_df(df: Graph, args: Sequence[Any]) -> bool:
    return any(v.owning_graph is df for v in _values_in(args))


def _values_in(args: Sequence[Any]) -> list[Value]:
    out: list[Value] = []
    for a in args:
        if isinstance(a, Value):
            out.append(a)
        elif isinstance(a, (list, tuple)):
            out.extend(_values_in(a))
    return out


def _holds_tensor(a: Any) -> bool:
    return any(isinstance(v.type, TensorType) for v in _values_in([a]))


def _no_inputs(v: Value) -> Value:
    raise AssertionError("a constant has no inputs")


# ---------------------------------------------------------------------------
# Which nodes can go into a differentiable graph


_MAX_CACHE = 4096
_cache: dict[Any, bool] = {}


def is_differentiable(node: Node, *, rules: RuleTable[GradientRule] = GRADIENTS) -> bool:
    """Whether `node` may go into a `prim::DifferentiableGraph` (see the module docstring)."""
    if node.blocks or node.kind in (prim.Constant, prim.Param, prim.Return):
        return False
    if node.has_attribute("Subgraph"):
        return node.kind is prim.DifferentiableGraph
    if node.has_side_effects():
        return False
    if node.kind is not prim.ConstantChunk:
        schema = node.maybe_schema()
        if schema is None or schema.is_mutable:
            return False
    carried = [v for v in (*node.inputs, *node.outputs) if may_carry_grad(v.type)]
    if any(not isinstance(v.type, TensorType) for v in carried):
        return False  # a list or optional of tensors would carry gradients past the graph
    if not any(requires_grad(v) for v in node.outputs):
        return True  # no gradient flows through it
    if not any(requires_grad(v) for v in node.inputs):
        return False  # it creates tensors that require grad: autograd must see them
    rule = rules.lookup(node)
    if rule is None:
        return False
    key = _cache_key(node, rules)
    known = _cache.get(key) if key is not None else None
    if known is not None:
        return known
    ok = _try_rule(node, rule)
    if key is not None:
        if len(_cache) >= _MAX_CACHE:
            _cache.clear()
        _cache[key] = ok
    return ok


def _cache_key(node: Node, rules: RuleTable[GradientRule]) -> Any:
    parts: list[Any] = [id(rules), node.kind, id(rules.lookup(node))]
    op = registry.operator_for(node)
    parts.append(op.key if op is not None else None)
    for v in node.inputs:
        if v.node.kind is prim.Constant:
            try:
                value = constant_value(v)
                hash(value)
            except Exception:
                return None
            parts.append(("const", type(value), value))
        else:
            parts.append(v.type)
    parts.extend(v.type for v in node.outputs)
    parts.extend((name, repr(node.attr(name))) for name in node.attribute_names())
    return tuple(parts)


def _try_rule(node: Node, rule: GradientRule) -> bool:
    """Write the node's gradient into scratch graphs; whether the rule managed it."""
    f = Graph()
    env: dict[Value, Value] = {}
    for v in node.inputs:
        if v in env:
            continue
        if v.node.kind is prim.Constant:
            env[v] = f.insert_node(f.create_clone(v.node, _no_inputs)).output()
        else:
            env[v] = f.add_input(type=v.type)
    clone = f.insert_node(f.create_clone(node, lambda v: env[v]))
    df = Graph()
    builder = GradientBuilder(f, df)
    grads = [
        builder.capture(df.add_input(type=o.type)) if isinstance(o.type, TensorType) else None
        for o in clone.outputs
    ]
    try:
        out = gradient_of_node(builder, clone, grads, rule)
    except NotDifferentiableError as exc:
        log.debug("no symbolic gradient for %s: %s", node.kind, exc)
        return False
    return out is not None


def gradient_of_node(
    builder: GradientBuilder, node: Node, grads: list[Value | None], rule: GradientRule
) -> list[Value | None]:
    """Run `rule` for `node`, checking what it returns; raises `NotDifferentiableError`."""
    builder.node = node
    try:
        result = list(rule(builder, node, grads))
    except NotDifferentiableError:
        raise
    except TorchScriptError as exc:
        raise NotDifferentiableError(f"{node.kind}: {exc}") from exc
    finally:
        builder.node = None
    if len(result) < len(node.inputs):
        result += [None] * (len(node.inputs) - len(result))
    if len(result) != len(node.inputs):
        raise NotDifferentiableError(
            f"the gradient rule for {node.kind} returned {len(result)} gradients "
            f"for {len(node.inputs)} inputs"
        )
    for i, (g, x) in enumerate(zip(result, node.inputs, strict=True)):
        if g is None:
            continue
        if not isinstance(g, Value) or not isinstance(g.type, TensorType):
            raise NotDifferentiableError(
                f"the gradient rule for {node.kind} returned {g!r} for input {i}"
            )
        if not requires_grad(x):
            result[i] = None
    return result


# ---------------------------------------------------------------------------
# Rules for prims without an eager formula


@GRADIENTS.rule("prim::ConstantChunk")
def _constant_chunk(builder: GradientBuilder, node: Node, grads: list[Value | None]) -> list:
    pieces = [
        g if g is not None else builder.zeros_like(o)
        for g, o in zip(grads, node.outputs, strict=True)
    ]
    return [builder.insert("aten::cat", [pieces, node.i("dim")])]


@GRADIENTS.rule("prim::AutogradAdd")
def _autograd_add(builder: GradientBuilder, node: Node, grads: list[Value | None]) -> list:
    return [grads[0], grads[0]]


@GRADIENTS.rule("aten::_grad_sum_to_size")
def _grad_sum_to_size(builder: GradientBuilder, node: Node, grads: list[Value | None]) -> list:
    g = grads[0]
    if g is None:
        return [None, None]
    x = node.inputs[0]
    return [builder.insert("aten::expand", [g, builder.insert("aten::size", [x])]), None]


def _mm(
    builder: GradientBuilder, a: Value, b: Value, *, ta: bool = False, tb: bool = False
) -> Value:
    if ta:
        a = builder.insert("aten::t", [a])
    if tb:
        b = builder.insert("aten::t", [b])
    return builder.insert("aten::mm", [a, b])


def _sum(builder: GradientBuilder, terms: list[Value]) -> Value:
    total = terms[0]
    for t in terms[1:]:
        total = builder.insert("aten::add", [total, t])
    return total


@GRADIENTS.rule("prim::MMTreeReduce")
def _mm_tree_reduce(builder: GradientBuilder, node: Node, grads: list[Value | None]) -> list:
    """out = Σ lhsᵢ @ rhsᵢ: d lhsᵢ = g @ rhsᵢᵀ, d rhsᵢ = lhsᵢᵀ @ g."""
    g = grads[0]
    n = len(node.inputs) // 2
    lhs, rhs = node.inputs[:n], node.inputs[n:]
    assert g is not None
    return [_mm(builder, g, r, tb=True) for r in rhs] + [_mm(builder, x, g, ta=True) for x in lhs]


@GRADIENTS.rule("prim::MMBatchSide")
def _mm_batch_side(builder: GradientBuilder, node: Node, grads: list[Value | None]) -> list:
    """side 0: outᵢ = A @ Bᵢ, dA = Σ gᵢ @ Bᵢᵀ, dBᵢ = Aᵀ @ gᵢ; side 1: outᵢ = Aᵢ @ B, likewise."""
    shared, others = node.inputs[0], node.inputs[1:]
    gs = [
        g if g is not None else builder.zeros_like(o)
        for g, o in zip(grads, node.outputs, strict=True)
    ]
    if node.i("side") == 0:
        d_shared = _sum(
            builder, [_mm(builder, g, b, tb=True) for g, b in zip(gs, others, strict=True)]
        )
        return [d_shared] + [_mm(builder, shared, g, ta=True) for g in gs]
    d_shared = _sum(builder, [_mm(builder, a, g, ta=True) for g, a in zip(gs, others, strict=True)])
    return [d_shared] + [_mm(builder, g, shared, tb=True) for g in gs]


# ---------------------------------------------------------------------------
# Shapes of what backward graphs use


@shape_rules.rule("aten::_grad_sum_to_size")
def _grad_sum_to_size_shape(args: ShapeArgs) -> Type | None:
    t = args.tensor(0)
    size = args.value(1)
    if t is None or size is None:
        return None
    if isinstance(size.type, NoneType):
        return t
    const = args.const(1)
    rank = len(const) if isinstance(const, list) else None
    return make_tensor(t.scalar_type, t.device, rank, [t])
