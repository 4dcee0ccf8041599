"""The machinery every shape rule uses: `ShapeArgs`, result types, broadcasting, promotion."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ts_ir import (
    BoolType,
    Category,
    Device,
    FloatType,
    IntType,
    Node,
    NoneType,
    ScalarType,
    TensorType,
    Value,
    constant_value,
    contiguous_strides,
    prim,
    result_type,
)
from ts_schema import RuleTable

Shape = tuple[int | None, ...]
CPU = Device("cpu")
UNKNOWN = object()


class ShapeArgs:
    """What a rule sees: the node, its input types, constants, and arguments by name."""

    __slots__ = ("_names", "inputs", "node")

    def __init__(self, node: Node) -> None:
        self.node = node
        self.inputs = node.inputs
        schema = node.maybe_schema()
        self._names = (
            {a.name: i for i, a in enumerate(schema.arguments)} if schema is not None else {}
        )

    def index(self, name: str) -> int | None:
        return self._names.get(name)

    def value(self, key: int | str) -> Value | None:
        i = self._names.get(key) if isinstance(key, str) else key
        if i is None or i >= len(self.inputs):
            return None
        return self.inputs[i]

    def tensor(self, key: int | str) -> TensorType | None:
        v = self.value(key)
        return v.type if v is not None and isinstance(v.type, TensorType) else None

    def const(self, key: int | str) -> Any:
        """The constant value of an input, `UNKNOWN` where it is not a constant."""
        v = self.value(key)
        if v is None:
            return UNKNOWN
        return const_of(v)

    def tensors(self) -> list[TensorType]:
        return [v.type for v in self.inputs if isinstance(v.type, TensorType)]


def const_of(v: Value) -> Any:
    n = v.node
    if n.kind is prim.Constant:
        try:
            return constant_value(v)
        except Exception:
            return UNKNOWN
    if n.kind is prim.ListConstruct:
        items = [const_of(x) for x in n.inputs]
        return UNKNOWN if any(i is UNKNOWN for i in items) else items
    return UNKNOWN


def known(x: Any) -> bool:
    return x is not UNKNOWN


Rule = Callable[["ShapeArgs"], Any]

#: The shape rules, keyed by overload or by name; see `rule_for_operator` for how a
#: node's rule is found (in-place and out= forms are handled before this table).
shape_rules: RuleTable[Rule] = RuleTable("shape", default=None)

# ---------------------------------------------------------------------------
# building result types


def _requires_grad(dtype: ScalarType | None, inputs: Sequence[TensorType]) -> bool | None:
    if dtype is not None and not (dtype.is_floating_point or dtype.is_complex):
        return False
    flags = [t.requires_grad for t in inputs]
    if any(f is True for f in flags):
        return True
    if all(f is False for f in flags):
        return False
    return None


def _contiguous_layout(inputs: Sequence[TensorType]) -> bool:
    """Whether every input is known to be laid out contiguously (so a fresh result is)."""
    for t in inputs:
        sizes, strides = t.sizes, t.strides
        if sizes is None or strides is None or None in sizes or None in strides:
            return False
        if tuple(strides) != contiguous_strides(sizes):  # type: ignore[arg-type]
            expected = contiguous_strides(sizes)  # type: ignore[arg-type]
            # strides of dims of size 1 do not matter
            if any(s != e and n != 1 for s, e, n in zip(strides, expected, sizes, strict=True)):
                return False
    return True


def make_tensor(
    dtype: ScalarType | None,
    device: Device | None,
    shape: Shape | int | None,
    inputs: Sequence[TensorType] = (),
    *,
    strides: Shape | None = None,
    contiguous: bool | None = None,
    requires_grad: bool | object | None = UNKNOWN,
) -> TensorType:
    """A result type: `shape` is sizes, a rank (int), or None for unknown rank.

    Strides, when the sizes are complete: `strides` if given; else contiguous
    ones when `contiguous`, or, when it is None, when every input is laid out
    contiguously (results follow their inputs' layout, as PyTorch's do).
    """
    if isinstance(shape, int):
        sizes: Shape | None = (None,) * shape
    else:
        sizes = shape
    if sizes is not None and strides is None and None not in sizes:
        if contiguous or (contiguous is None and _contiguous_layout(inputs)):
            strides = contiguous_strides(sizes)  # type: ignore[arg-type]
    rg = _requires_grad(dtype, inputs) if requires_grad is UNKNOWN else requires_grad
    return TensorType(dtype, device, rg, sizes, strides if sizes is not None else None)  # type: ignore[arg-type]


def device_of(types: Sequence[TensorType]) -> Device | None:
    """The device of a result computed from tensors on `types`' devices, where it is known.

    Operands of one operator share a device (PyTorch refuses others), except that a
    zero-dim CPU tensor may mix with tensors on another device; so the device the
    known operands agree on is the result's, unless only zero-dim ones are known.
    """
    devices = {t.device for t in types if t.device is not None}
    if len(devices) == 1:
        device = devices.pop()
        if all(t.device is not None for t in types) or any(
            t.device is not None and t.dim() not in (0, None) for t in types
        ):
            return device
        return None
    real = {t.device for t in types if t.device is not None and t.dim() != 0}
    return real.pop() if len(real) == 1 and all(t.device is not None for t in types) else None


def agreed_dtype(types: Sequence[TensorType | None]) -> ScalarType | None:
    """The dtype of operands that must share one (mm, conv, linear): any known one."""
    dtypes = {t.scalar_type for t in types if t is not None and t.scalar_type is not None}
    return dtypes.pop() if len(dtypes) == 1 else None


def complete_sizes(t: TensorType | None) -> Shape | None:
    if t is None or t.sizes is None or None in t.sizes:
        return None
    return t.sizes


def broadcast_shapes(types: Sequence[TensorType]) -> Shape | int | None:
    """The broadcast sizes, an unknown size where the operands do not tell it (an unknown size
    against known 1s, or only unknown sizes); the rank when known sizes disagree; None when a
    rank is unknown. An unknown size against a known size n > 1 is n (anything else would not
    broadcast)."""
    if any(t.sizes is None for t in types):
        return None
    rank = max((len(t.sizes) for t in types), default=0)  # type: ignore[arg-type]
    out: list[int | None] = []
    for j in range(rank):
        known: set[int] = set()
        unknown = False
        for t in types:
            sizes = t.sizes
            assert sizes is not None
            i = j - (rank - len(sizes))
            if i < 0:
                continue
            if sizes[i] is None:
                unknown = True
            else:
                known.add(sizes[i])  # type: ignore[arg-type]
        big = known - {1}
        if len(big) > 1:
            return rank
        if big:
            out.append(big.pop())
        elif unknown:
            out.append(None)
        else:
            out.append(1)
    return tuple(out)


def _operand(v: Value) -> tuple[ScalarType, Category] | None:
    t = v.type
    if isinstance(t, TensorType):
        if t.scalar_type is None:
            return None
        rank = t.dim()
        if rank is None:
            return None
        return t.scalar_type, Category.DIM if rank > 0 else Category.ZERO_DIM
    if isinstance(t, BoolType):
        return ScalarType.Bool, Category.SCALAR
    if isinstance(t, IntType):
        return ScalarType.Long, Category.SCALAR
    if isinstance(t, FloatType):
        return ScalarType.Double, Category.SCALAR
    return None


def promoted_dtype(values: Sequence[Value]) -> ScalarType | None:
    """`torch.result_type` over the tensor and scalar operands, or None if any is unknown."""
    operands = []
    for v in values:
        if isinstance(v.type, NoneType):
            continue
        op = _operand(v)
        if op is None:
            return _promote_with_unknown_ranks(values)
        operands.append(op)
    if not operands:
        return None
    return result_type(operands)


def _promote_with_unknown_ranks(values: Sequence[Value]) -> ScalarType | None:
    # Ranks decide precedence only between operands of the same category; when every
    # tensor has the same known dtype and no scalar can lift its category, that dtype wins.
    dtypes = set()
    scalars = []
    for v in values:
        t = v.type
        if isinstance(t, TensorType):
            if t.scalar_type is None:
                return None
            dtypes.add(t.scalar_type)
        elif isinstance(t, (IntType, BoolType, FloatType)):
            scalars.append(t)
        elif isinstance(t, NoneType):
            continue
        else:
            return None
    if len(dtypes) != 1:
        return None
    dtype = dtypes.pop()
    for s in scalars:
        if isinstance(s, FloatType) and not (dtype.is_floating_point or dtype.is_complex):
            return None
        if isinstance(s, IntType) and dtype is ScalarType.Bool:
            return None
    return dtype


def to_float(dtype: ScalarType | None) -> ScalarType | None:
    if dtype is None:
        return None
    return dtype if (dtype.is_floating_point or dtype.is_complex) else ScalarType.Float


# ---------------------------------------------------------------------------


def dims_of(value: Any, rank: int | None) -> list[int] | None:
    if not known(value) or rank is None:
        return None
    dims = [value] if isinstance(value, int) else list(value)
    if not all(isinstance(d, int) for d in dims):
        return None
    out = []
    for d in dims:
        if d < 0:
            d += max(rank, 1)
        if not 0 <= d < max(rank, 1):
            return None
        out.append(d)
    return out


def keep(t: TensorType, sizes: Shape | int | None, strides: Shape | None = None) -> TensorType:
    return make_tensor(t.scalar_type, t.device, sizes, [t], strides=strides)


def list_element_types(v: Value | None) -> list[TensorType] | None:
    if v is None or v.node.kind is not prim.ListConstruct:
        return None
    out = []
    for x in v.node.inputs:
        if not isinstance(x.type, TensorType):
            return None
        out.append(x.type)
    return out


def register_exact(key: str, rule: Rule) -> None:
    """Register `rule` for one overload; a key without an overload name (`aten::where`)
    means that exact schema, not every overload of the name."""
    from ts_schema import registry

    if "." in key.partition("::")[2]:
        shape_rules.register(key, rule)
    else:
        shape_rules.register(str(registry.get(key).schema), rule)


def same_as(t: TensorType, dtype: ScalarType | object | None = UNKNOWN) -> TensorType:
    """A result like `t` (dtype, device, sizes or rank), optionally of another dtype."""
    d = t.scalar_type if dtype is UNKNOWN else dtype
    return make_tensor(d, t.device, t.sizes, [t])  # type: ignore[arg-type]


def like_input(key: int | str = 0) -> Rule:
    """The rule "the result is like input `key`" (layer_norm, prelu, dropout, ...)."""

    def rule(args: ShapeArgs) -> Any:
        t = args.tensor(key)
        return None if t is None else same_as(t)

    rule.__name__ = f"like_input_{key}"
    return rule


def declared_types(args: ShapeArgs) -> None:
    """The rule of operators whose results can be told no better than their schema says
    (dict and list plumbing whose tensors come from elsewhere)."""
    return None


def int_const(args: ShapeArgs, key: int | str) -> int | None:
    """The constant int value of an input, None where it is not a constant int."""
    v = args.const(key) if args.index(key) is not None or isinstance(key, int) else UNKNOWN  # type: ignore[arg-type]
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def int_list_const(args: ShapeArgs, key: int | str, n: int | None = None) -> list[int] | None:
    """A constant int list input (an int repeated `n` times for `int[n]` arguments)."""
    if isinstance(key, str) and args.index(key) is None:
        return None
    v = args.const(key)
    if isinstance(v, int) and not isinstance(v, bool) and n is not None:
        return [v] * n
    if isinstance(v, (list, tuple)) and all(
        isinstance(x, int) and not isinstance(x, bool) for x in v
    ):
        return list(v)
    return None


def size_list(args: ShapeArgs, key: int | str) -> list[int | None] | None:
    """A size argument: its constant ints, or the length of the `prim::ListConstruct` that
    builds it with None for the elements that are not constants; None if neither."""
    if isinstance(key, str) and args.index(key) is None:
        return None
    v = args.value(key)
    if v is None:
        return None
    value = const_of(v)
    if isinstance(value, (list, tuple)):
        return [x if isinstance(x, int) and not isinstance(x, bool) else None for x in value]
    if v.node.kind is prim.ListConstruct:
        out: list[int | None] = []
        for x in v.node.inputs:
            c = const_of(x)
            out.append(c if isinstance(c, int) and not isinstance(c, bool) else None)
        return out
    return None
