"""Shape, dtype and device rules per operator: the `RuleTable("shape")` of `propagate_shapes`.

A rule is `rule(args: ShapeArgs) -> list[Type | None] | Type | None`: the
output types it can tell from the node's input types and constant inputs
(None where it cannot). Tensor results carry dtype, device, requires_grad and
rank; sizes and strides too when every tensor input is complete. Rules are
registered explicitly per operator family below; an operator without a rule
keeps its declared output types.
"""

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
    NumberType,
    ScalarType,
    TensorType,
    Type,
    Value,
    constant_value,
    contiguous_strides,
    prim,
    result_type,
)
from ts_schema import RuleTable

Shape = tuple[int | None, ...]
CPU = Device("cpu")
_UNKNOWN = object()


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
        """The constant value of an input, `_UNKNOWN` where it is not a constant."""
        v = self.value(key)
        if v is None:
            return _UNKNOWN
        return _const_of(v)

    def tensors(self) -> list[TensorType]:
        return [v.type for v in self.inputs if isinstance(v.type, TensorType)]


def _const_of(v: Value) -> Any:
    n = v.node
    if n.kind is prim.Constant:
        try:
            return constant_value(v)
        except Exception:
            return _UNKNOWN
    if n.kind is prim.ListConstruct:
        items = [_const_of(x) for x in n.inputs]
        return _UNKNOWN if any(i is _UNKNOWN for i in items) else items
    return _UNKNOWN


def known(x: Any) -> bool:
    return x is not _UNKNOWN


shape_rules: RuleTable[Callable[[ShapeArgs], Any]] = RuleTable("shape", default=None)

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


def make_tensor(
    dtype: ScalarType | None,
    device: Device | None,
    shape: Shape | int | None,
    inputs: Sequence[TensorType] = (),
    *,
    strides: Shape | None = None,
    requires_grad: bool | object | None = _UNKNOWN,
) -> TensorType:
    """A result type: `shape` is sizes, a rank (int), or None for unknown rank."""
    if isinstance(shape, int):
        sizes: Shape | None = (None,) * shape
    else:
        sizes = shape
    if sizes is not None and strides is None and None not in sizes:
        strides = contiguous_strides(sizes)  # type: ignore[arg-type]
    rg = _requires_grad(dtype, inputs) if requires_grad is _UNKNOWN else requires_grad
    return TensorType(dtype, device, rg, sizes, strides if sizes is not None else None)  # type: ignore[arg-type]


def _device(types: Sequence[TensorType]) -> Device | None:
    devices = {t.device for t in types}
    if len(devices) == 1:
        return devices.pop()
    # a zero-dim CPU tensor may mix with tensors on another device
    real = {t.device for t in types if t.dim() != 0}
    return real.pop() if len(real) == 1 and None not in real else None


def _complete_sizes(t: TensorType | None) -> Shape | None:
    if t is None or t.sizes is None or None in t.sizes:
        return None
    return t.sizes


def broadcast_shapes(types: Sequence[TensorType]) -> Shape | int | None:
    """Sizes when all are known, else the rank when all ranks are known, else None."""
    if any(t.sizes is None for t in types):
        return None
    rank = max((len(t.sizes) for t in types), default=0)  # type: ignore[arg-type]
    if all(_complete_sizes(t) is not None for t in types):
        out = [1] * rank
        for t in types:
            sizes = t.sizes
            assert sizes is not None
            offset = rank - len(sizes)
            for i, s in enumerate(sizes):
                j = offset + i
                if out[j] == 1:
                    out[j] = s  # type: ignore[assignment]
                elif s != 1 and s != out[j]:
                    return rank
        return tuple(out)
    return rank


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


def _to_float(dtype: ScalarType | None) -> ScalarType | None:
    if dtype is None:
        return None
    return dtype if (dtype.is_floating_point or dtype.is_complex) else ScalarType.Float


# ---------------------------------------------------------------------------
# rule families


def unary_same(args: ShapeArgs) -> Type | None:
    t = args.tensor(0)
    if t is None:
        return None
    return make_tensor(t.scalar_type, t.device, _complete_sizes(t) or t.dim(), [t])


def unary_float(args: ShapeArgs) -> Type | None:
    t = args.tensor(0)
    if t is None:
        return None
    return make_tensor(_to_float(t.scalar_type), t.device, _complete_sizes(t) or t.dim(), [t])


def unary_bool(args: ShapeArgs) -> Type | None:
    t = args.tensor(0)
    if t is None:
        return None
    return make_tensor(ScalarType.Bool, t.device, _complete_sizes(t) or t.dim(), [t])


def _pointwise(args: ShapeArgs, operands: Sequence[Value], dtype: ScalarType | None) -> Type | None:
    tensors = [v.type for v in operands if isinstance(v.type, TensorType)]
    if not tensors:
        return None
    return make_tensor(dtype, _device(tensors), broadcast_shapes(tensors), tensors)


def _operands(args: ShapeArgs, names: Sequence[str]) -> list[Value]:
    out = []
    for i, name in enumerate(names):
        v = args.value(name) if args.index(name) is not None else args.value(i)
        if v is not None:
            out.append(v)
    return out


def binary_promote(args: ShapeArgs) -> Type | None:
    ops = _operands(args, ("self", "other"))
    return _pointwise(args, ops, promoted_dtype(ops))


def binary_float(args: ShapeArgs) -> Type | None:
    ops = _operands(args, ("self", "other"))
    return _pointwise(args, ops, _to_float(promoted_dtype(ops)))


def div_rule(args: ShapeArgs) -> Type | None:
    ops = _operands(args, ("self", "other"))
    mode = args.const("rounding_mode") if args.index("rounding_mode") is not None else None
    dtype = promoted_dtype(ops)
    if mode is None:
        dtype = _to_float(dtype)
    elif not known(mode):
        dtype = dtype if dtype is not None and dtype.is_floating_point else None
    return _pointwise(args, ops, dtype)


def compare_rule(args: ShapeArgs) -> Type | None:
    ops = _operands(args, ("self", "other"))
    return _pointwise(args, ops, ScalarType.Bool)


def self_dtype_pointwise(args: ShapeArgs) -> Type | None:
    """Broadcast over every tensor input, keeping `self`'s dtype (masked_fill, lerp, ...)."""
    self_t = args.tensor(0)
    if self_t is None:
        return None
    return _pointwise(args, list(args.inputs), self_t.scalar_type)


def all_promote(args: ShapeArgs) -> Type | None:
    """Broadcast and promote over every tensor and scalar input (addcmul, clamp with tensors)."""
    ops = [v for v in args.inputs if isinstance(v.type, (TensorType, IntType, FloatType))]
    return _pointwise(args, list(args.inputs), promoted_dtype(ops))


def where_rule(args: ShapeArgs) -> Type | None:
    ops = _operands(args, ("self", "other"))
    cond = args.value("condition") or args.value(0)
    return _pointwise(args, [cond, *ops] if cond is not None else ops, promoted_dtype(ops))


def clamp_rule(args: ShapeArgs) -> Type | None:
    t = args.tensor(0)
    if t is None:
        return None
    bounds = [v for v in args.inputs[1:] if not isinstance(v.type, NoneType)]
    if any(isinstance(v.type, TensorType) for v in bounds):
        return all_promote(args)
    dtype = promoted_dtype([args.inputs[0], *bounds])
    return make_tensor(dtype, t.device, _complete_sizes(t) or t.dim(), [t])


def type_as_rule(args: ShapeArgs) -> Type | None:
    t, other = args.tensor(0), args.tensor(1)
    if t is None or other is None:
        return None
    return make_tensor(other.scalar_type, other.device, _complete_sizes(t) or t.dim(), [t])


def _dims(value: Any, rank: int | None) -> list[int] | None:
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


def reduction_rule(args: ShapeArgs) -> Type | None:
    """sum/mean/prod/amax...: over all dims (0-dim result) or `dim` (with `keepdim`)."""
    t = args.tensor(0)
    if t is None:
        return None
    dtype = t.scalar_type
    kind = args.node.kind
    explicit = args.const("dtype") if args.index("dtype") is not None else None
    if known(explicit) and explicit is not None:
        dtype = ScalarType(explicit)
    elif not known(explicit):
        dtype = None
    elif (
        kind in ("aten::sum", "aten::prod")
        and dtype is not None
        and not (dtype.is_floating_point or dtype.is_complex)
    ):
        dtype = ScalarType.Long
    elif kind in ("aten::mean", "aten::norm", "aten::std", "aten::var"):
        dtype = _to_float(dtype)
    if kind in ("aten::all", "aten::any"):
        dtype = ScalarType.Bool
    if kind in ("aten::argmax", "aten::argmin"):
        dtype = ScalarType.Long
    if args.index("dim") is None:
        return make_tensor(dtype, t.device, (), [t])
    dim_value = args.const("dim")
    if dim_value is None:
        return make_tensor(dtype, t.device, (), [t])
    keepdim = args.const("keepdim") if args.index("keepdim") is not None else False
    rank = t.dim()
    dims = _dims(dim_value, rank)
    if dims is None or not known(keepdim):
        return make_tensor(dtype, t.device, None, [t])
    assert rank is not None
    sizes = t.sizes or ()
    if keepdim:
        out = tuple(1 if i in dims else sizes[i] for i in range(rank))
    else:
        out = tuple(sizes[i] for i in range(rank) if i not in dims)
    if dims == [] and kind in ("aten::sum", "aten::mean"):
        out = ()  # an empty dim list reduces over everything
    return make_tensor(dtype, t.device, out if None not in out else len(out), [t])


def max_dim_rule(args: ShapeArgs) -> Any:
    """max.dim/min.dim/sort/topk-like: (values, indices)."""
    values = reduction_rule(args)
    if not isinstance(values, TensorType):
        return None
    indices = values.with_scalar_type(ScalarType.Long).with_requires_grad(False)
    return [values, indices]


def softmax_rule(args: ShapeArgs) -> Type | None:
    t = args.tensor(0)
    if t is None:
        return None
    dtype = t.scalar_type
    explicit = args.const("dtype") if args.index("dtype") is not None else None
    if known(explicit) and explicit is not None:
        dtype = ScalarType(explicit)
    elif not known(explicit):
        dtype = None
    return make_tensor(dtype, t.device, _complete_sizes(t) or t.dim(), [t])


# -- views and shape changes


def _infer_view_size(t: TensorType, size: list[int]) -> Shape | int:
    complete = _complete_sizes(t)
    if complete is not None and size.count(-1) <= 1:
        numel = 1
        for s in complete:
            numel *= s
        known_part = 1
        for s in size:
            if s != -1:
                known_part *= s
        if -1 in size and known_part:
            size = [numel // known_part if s == -1 else s for s in size]
        return tuple(size)
    if -1 in size:
        return tuple(None if s == -1 else s for s in size)
    return tuple(size)


def view_rule(args: ShapeArgs) -> Type | None:
    t = args.tensor(0)
    if t is None:
        return None
    size = args.const(1)
    if not known(size) or not isinstance(size, list):
        return make_tensor(t.scalar_type, t.device, None, [t])
    return make_tensor(t.scalar_type, t.device, _infer_view_size(t, size), [t])


def _keep(t: TensorType, sizes: Shape | int | None, strides: Shape | None = None) -> TensorType:
    return make_tensor(t.scalar_type, t.device, sizes, [t], strides=strides)


def transpose_like(args: ShapeArgs) -> Type | None:
    """t, transpose, permute, movedim: same rank, sizes permuted."""
    t = args.tensor(0)
    if t is None or t.sizes is None:
        return None if t is None else _keep(t, None)
    rank = len(t.sizes)
    kind = args.node.kind
    if kind in ("aten::t", "aten::numpy_T"):
        perm = list(range(rank))[::-1] if rank == 2 else list(range(rank))
    elif kind == "aten::permute":
        perm = _dims(args.const(1), rank)  # type: ignore[assignment]
        if perm is None or len(perm) != rank:
            return _keep(t, rank)
    else:
        dims = _dims(
            [args.const(1), args.const(2)]
            if known(args.const(1)) and known(args.const(2))
            else _UNKNOWN,
            rank,
        )
        if dims is None:
            return _keep(t, rank)
        perm = list(range(rank))
        perm[dims[0]], perm[dims[1]] = perm[dims[1]], perm[dims[0]]
    sizes = tuple(t.sizes[p] for p in perm)
    strides = tuple(t.strides[p] for p in perm) if t.strides is not None else None
    if strides is not None and None in strides:
        strides = None
    return _keep(t, sizes if None not in sizes else rank, strides if None not in sizes else None)


def select_rule(args: ShapeArgs) -> Type | None:
    t = args.tensor(0)
    if t is None or t.sizes is None:
        return None if t is None else _keep(t, None)
    rank = len(t.sizes)
    dims = _dims(args.const(1), rank)
    if dims is None:
        return _keep(t, rank - 1)
    d = dims[0]
    sizes = t.sizes[:d] + t.sizes[d + 1 :]
    strides = t.strides[:d] + t.strides[d + 1 :] if t.strides is not None else None
    if None in sizes or (strides is not None and None in strides):
        return _keep(t, len(sizes))
    return _keep(t, sizes, strides)


def same_rank_unknown_sizes(args: ShapeArgs) -> Type | None:
    """slice, narrow, index_select, gather...: rank and dtype kept, sizes may change."""
    t = args.tensor(0)
    if t is None:
        return None
    return _keep(t, t.dim())


def unsqueeze_rule(args: ShapeArgs) -> Type | None:
    t = args.tensor(0)
    if t is None or t.sizes is None:
        return None if t is None else _keep(t, None)
    rank = len(t.sizes)
    d = args.const(1)
    if not isinstance(d, int) or isinstance(d, bool):
        return _keep(t, rank + 1)
    if d < 0:
        d += rank + 1
    sizes = (*t.sizes[:d], 1, *t.sizes[d:])
    if None in sizes:
        return _keep(t, rank + 1)
    return _keep(t, sizes)


def squeeze_rule(args: ShapeArgs) -> Type | None:
    t = args.tensor(0)
    if t is None or t.sizes is None:
        return None if t is None else _keep(t, None)
    rank = len(t.sizes)
    if len(args.inputs) == 1:
        if None in t.sizes:
            return _keep(t, None)
        return _keep(t, tuple(s for s in t.sizes if s != 1))
    dims = _dims(args.const(1), rank)
    if dims is None:
        return _keep(t, None)
    sizes = list(t.sizes)
    out = [s for i, s in enumerate(sizes) if not (i in dims and s == 1)]
    if any(sizes[d] is None for d in dims):
        return _keep(t, None)
    return _keep(t, tuple(out) if None not in out else len(out))


def expand_rule(args: ShapeArgs) -> Type | None:
    t = args.tensor(0)
    if t is None:
        return None
    size = args.const(1)
    if not known(size) or not isinstance(size, list):
        return _keep(t, None)
    rank = len(size)
    if t.sizes is None:
        return _keep(t, rank)
    offset = rank - len(t.sizes)
    out: list[int | None] = []
    for i, s in enumerate(size):
        j = i - offset
        if s == -1:
            out.append(t.sizes[j] if j >= 0 else None)
        else:
            out.append(s)
    return _keep(t, tuple(out) if None not in out else rank, None)


def expand_as_rule(args: ShapeArgs) -> Type | None:
    t, other = args.tensor(0), args.tensor(1)
    if t is None or other is None:
        return None
    return _keep(t, _complete_sizes(other) or other.dim(), None)


def flatten_rule(args: ShapeArgs) -> Type | None:
    t = args.tensor(0)
    if t is None or t.sizes is None:
        return None if t is None else _keep(t, None)
    rank = len(t.sizes)
    start, end = args.const(1), args.const(2)
    if not (isinstance(start, int) and isinstance(end, int)):
        return _keep(t, None)
    r = max(rank, 1)
    start, end = start % r, end % r
    out_rank = rank - (end - start) if rank else 1
    if _complete_sizes(t) is None:
        return _keep(t, out_rank)
    numel = 1
    for s in t.sizes[start : end + 1]:
        numel *= s  # type: ignore[operator]
    return _keep(t, (*t.sizes[:start], numel, *t.sizes[end + 1 :]) if rank else (1,))


def contiguous_rule(args: ShapeArgs) -> Type | None:
    t = args.tensor(0)
    if t is None:
        return None
    return _keep(t, _complete_sizes(t) or t.dim())


def to_rule(args: ShapeArgs) -> Type | None:
    t = args.tensor(0)
    if t is None:
        return None
    dtype: ScalarType | None = t.scalar_type
    device = t.device
    other = args.tensor("other")
    if other is not None:
        dtype, device = other.scalar_type, other.device
    if args.index("dtype") is not None:
        d = args.const("dtype")
        if d is None:
            pass
        elif known(d) and isinstance(d, int):
            dtype = ScalarType(d)
        else:
            dtype = None
    if args.index("device") is not None:
        dev = args.const("device")
        if dev is None:
            pass
        elif known(dev):
            device = dev if isinstance(dev, Device) else Device(str(dev))
        else:
            device = None
    return make_tensor(dtype, device, _complete_sizes(t) or t.dim(), [t])


# -- matmul family


def mm_rule(args: ShapeArgs) -> Type | None:
    a, b = args.tensor(0), args.tensor(1)
    if a is None or b is None:
        return None
    dtype = a.scalar_type if a.scalar_type == b.scalar_type else None
    sa, sb = _complete_sizes(a), _complete_sizes(b)
    if sa is not None and sb is not None and len(sa) == 2 and len(sb) == 2:
        return make_tensor(dtype, _device([a, b]), (sa[0], sb[1]), [a, b])
    return make_tensor(dtype, _device([a, b]), 2, [a, b])


def bmm_rule(args: ShapeArgs) -> Type | None:
    a, b = args.tensor(0), args.tensor(1)
    if a is None or b is None:
        return None
    dtype = a.scalar_type if a.scalar_type == b.scalar_type else None
    sa, sb = _complete_sizes(a), _complete_sizes(b)
    if sa is not None and sb is not None and len(sa) == 3 and len(sb) == 3:
        return make_tensor(dtype, _device([a, b]), (sa[0], sa[1], sb[2]), [a, b])
    return make_tensor(dtype, _device([a, b]), 3, [a, b])


def matmul_rule(args: ShapeArgs) -> Type | None:
    a, b = args.tensor(0), args.tensor(1)
    if a is None or b is None:
        return None
    dtype = a.scalar_type if a.scalar_type == b.scalar_type else None
    ra, rb = a.dim(), b.dim()
    if ra is None or rb is None:
        return make_tensor(dtype, _device([a, b]), None, [a, b])
    if ra == 1 and rb == 1:
        rank = 0
    elif ra == 1 or rb == 1:
        rank = max(ra, rb) - 1
    else:
        rank = max(ra, rb)
    sa, sb = _complete_sizes(a), _complete_sizes(b)
    if sa is not None and sb is not None and ra >= 2 and rb >= 2:
        batch = broadcast_shapes([TensorType(sizes=sa[:-2]), TensorType(sizes=sb[:-2])])
        if isinstance(batch, tuple):
            return make_tensor(dtype, _device([a, b]), (*batch, sa[-2], sb[-1]), [a, b])
    return make_tensor(dtype, _device([a, b]), rank, [a, b])


def addmm_rule(args: ShapeArgs) -> Type | None:
    m1, m2 = args.tensor("mat1"), args.tensor("mat2")
    if m1 is None or m2 is None:
        return None
    dtype = m1.scalar_type if m1.scalar_type == m2.scalar_type else None
    s1, s2 = _complete_sizes(m1), _complete_sizes(m2)
    ins = args.tensors()
    if s1 is not None and s2 is not None:
        return make_tensor(dtype, _device(ins), (s1[0], s2[1]), ins)
    return make_tensor(dtype, _device(ins), 2, ins)


def linear_rule(args: ShapeArgs) -> Type | None:
    x, w = args.tensor(0), args.tensor(1)
    if x is None or w is None:
        return None
    ins = args.tensors()
    dtype = x.scalar_type if x.scalar_type == w.scalar_type else None
    sx, sw = _complete_sizes(x), _complete_sizes(w)
    if sx is not None and sw is not None and len(sw) == 2:
        return make_tensor(dtype, _device(ins), (*sx[:-1], sw[0]), ins)
    return make_tensor(dtype, _device(ins), x.dim(), ins)


# -- lists of tensors


def _list_element_types(v: Value | None) -> list[TensorType] | None:
    if v is None or v.node.kind is not prim.ListConstruct:
        return None
    out = []
    for x in v.node.inputs:
        if not isinstance(x.type, TensorType):
            return None
        out.append(x.type)
    return out


def cat_rule(args: ShapeArgs) -> Type | None:
    types = _list_element_types(args.value(0))
    if not types:
        return None
    dtypes = {t.scalar_type for t in types}
    dtype = None
    if None not in dtypes:
        dtype = dtypes.pop() if len(dtypes) == 1 else None
    ranks = {t.dim() for t in types if t.dim() != 1 or _complete_sizes(t) != (0,)}
    rank = ranks.pop() if len(ranks) == 1 else None
    stack = args.node.kind == "aten::stack"
    if rank is not None and stack:
        rank += 1
    device = _device(types)
    dims = _dims(args.const(1), rank)
    if rank is not None and dims is not None and all(_complete_sizes(t) for t in types):
        d = dims[0]
        if stack:
            first = types[0].sizes
            assert first is not None
            sizes = (*first[:d], len(types), *first[d:])
            return make_tensor(dtype, device, sizes, types)
        parts = [t.sizes for t in types if t.sizes is not None and len(t.sizes) == rank]
        total = sum(p[d] for p in parts)  # type: ignore[misc]
        sizes = (*parts[0][:d], total, *parts[0][d + 1 :])
        return make_tensor(dtype, device, sizes, types)
    return make_tensor(dtype, device, rank, types)


# -- creation


def _creation_dtype(args: ShapeArgs, default: ScalarType | None) -> ScalarType | None:
    if args.index("dtype") is None:
        return default
    d = args.const("dtype")
    if d is None:
        return default
    return ScalarType(d) if known(d) and isinstance(d, int) else None


def _creation_device(args: ShapeArgs, default: Device | None) -> Device | None:
    if args.index("device") is None:
        return default
    d = args.const("device")
    if d is None:
        return default
    if known(d):
        return d if isinstance(d, Device) else Device(str(d))
    return None


def _creation_requires_grad(args: ShapeArgs) -> bool | None:
    if args.index("requires_grad") is None:
        return False
    r = args.const("requires_grad")
    return bool(r) if known(r) and r is not None else (False if r is None else None)


def factory_rule(args: ShapeArgs) -> Type | None:
    """zeros/ones/empty/rand/randn/full(size, ...)."""
    size = args.const(0)
    v0 = args.value(0)
    rank: Any = None
    if known(size) and isinstance(size, list):
        ok = all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in size)
        rank = tuple(size) if ok else len(size)
    elif v0 is not None and v0.node.kind is prim.ListConstruct:
        rank = len(v0.node.inputs)
    default = ScalarType.Float
    if args.node.kind == "aten::full":
        fill = args.value("fill_value")
        if fill is not None and isinstance(fill.type, IntType):
            default = ScalarType.Long
        elif fill is not None and isinstance(fill.type, BoolType):
            default = ScalarType.Bool
        elif fill is not None and not isinstance(fill.type, FloatType):
            default = None  # type: ignore[assignment]
    if args.node.kind in ("aten::randint",):
        default = ScalarType.Long
    dtype = _creation_dtype(args, default)
    return make_tensor(
        dtype,
        _creation_device(args, CPU),
        rank,
        requires_grad=_creation_requires_grad(args),
    )


def like_rule(args: ShapeArgs) -> Type | None:
    t = args.tensor(0)
    if t is None:
        return None
    dtype = _creation_dtype(args, t.scalar_type)
    if args.node.kind == "aten::full_like" and args.index("dtype") is not None:
        fill = args.value("fill_value")
        if args.const("dtype") is None and fill is not None and isinstance(fill.type, FloatType):
            dtype = t.scalar_type
    return make_tensor(
        dtype,
        _creation_device(args, t.device),
        _complete_sizes(t) or t.dim(),
        requires_grad=_creation_requires_grad(args),
    )


def arange_rule(args: ShapeArgs) -> Type | None:
    numbers = [
        v
        for v in args.inputs
        if isinstance(v.type, (IntType, FloatType, NumberType))
        and args.node.inputs.index(v) < (args.index("dtype") or len(args.inputs))
    ]
    if any(isinstance(v.type, NumberType) for v in numbers):
        default = None
    elif any(isinstance(v.type, FloatType) for v in numbers):
        default = ScalarType.Float
    else:
        default = ScalarType.Long
    return make_tensor(
        _creation_dtype(args, default),
        _creation_device(args, CPU),
        1,
        requires_grad=_creation_requires_grad(args),
    )


def eye_rule(args: ShapeArgs) -> Type | None:
    return make_tensor(
        _creation_dtype(args, ScalarType.Float),
        _creation_device(args, CPU),
        2,
        requires_grad=_creation_requires_grad(args),
    )


def zero_dim_float(args: ShapeArgs) -> Type | None:
    """dot and friends: a zero-dim result of the promoted dtype."""
    ins = args.tensors()
    if not ins:
        return None
    dtypes = {t.scalar_type for t in ins}
    return make_tensor(dtypes.pop() if len(dtypes) == 1 else None, _device(ins), (), ins)


def num_to_tensor_rule(args: ShapeArgs) -> Type | None:
    v = args.value(0)
    if v is None:
        return None
    dtype = {IntType: ScalarType.Long, FloatType: ScalarType.Double, BoolType: ScalarType.Bool}.get(
        type(v.type)  # type: ignore[arg-type]
    )
    return make_tensor(dtype, CPU, (), requires_grad=False)


# ---------------------------------------------------------------------------
# registration, per family

UNARY_SAME = (
    "abs", "neg", "relu", "relu6", "floor", "ceil", "round", "trunc", "sign", "clone",
    "detach", "hardtanh", "leaky_relu", "elu", "selu", "celu", "gelu", "silu", "mish",
    "hardsigmoid", "hardswish", "softplus", "hardshrink", "softshrink", "dropout",
    "feature_dropout", "alpha_dropout", "bitwise_not", "square", "positive", "neg_",
    "threshold", "frac", "cumsum", "cumprod", "flip", "roll", "tril", "triu",
    "zero_", "fill_", "relu_", "sigmoid_", "tanh_", "clamp_", "masked_fill_",
)  # fmt: skip
UNARY_FLOAT = (
    "sigmoid", "tanh", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt",
    "rsqrt", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "asinh",
    "acosh", "atanh", "erf", "erfc", "erfinv", "reciprocal", "logit", "digamma",
    "lgamma", "sinc", "log_sigmoid", "angle",
)  # fmt: skip
UNARY_BOOL = ("isnan", "isinf", "isfinite", "logical_not", "signbit", "isneginf", "isposinf")
BINARY_PROMOTE = (
    "add", "sub", "mul", "rsub", "remainder", "fmod", "maximum", "minimum", "fmax",
    "fmin", "floor_divide", "bitwise_and", "bitwise_or", "bitwise_xor", "pow",
    "__and__", "__or__", "__xor__", "__lshift__", "__rshift__", "hypot", "copysign",
    "xlogy", "heaviside", "add_", "sub_", "mul_", "pow_",
)  # fmt: skip
BINARY_FLOAT = ("atan2", "true_divide")
COMPARE = (
    "eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or", "logical_xor",
    "isclose", "greater", "less", "greater_equal", "less_equal", "not_equal",
)  # fmt: skip
REDUCTIONS = (
    "sum", "mean", "prod", "amax", "amin", "all", "any", "argmax", "argmin", "norm",
    "std", "var", "logsumexp", "nansum", "count_nonzero",
)  # fmt: skip


def _register_defaults() -> None:
    r = shape_rules.register
    for name in UNARY_SAME:
        r(f"aten::{name}", unary_same)
    for name in UNARY_FLOAT:
        r(f"aten::{name}", unary_float)
    for name in UNARY_BOOL:
        r(f"aten::{name}", unary_bool)
    for name in BINARY_PROMOTE:
        r(f"aten::{name}", binary_promote)
    for name in BINARY_FLOAT:
        r(f"aten::{name}", binary_float)
    for name in COMPARE:
        r(f"aten::{name}", compare_rule)
    for name in REDUCTIONS:
        r(f"aten::{name}", reduction_rule)
    r("aten::div", div_rule)
    r("aten::div_", div_rule)
    r("aten::max", _max_min_rule)
    r("aten::min", _max_min_rule)
    r("aten::clamp", clamp_rule)
    r("aten::clamp_min", clamp_rule)
    r("aten::clamp_max", clamp_rule)
    r("aten::where", where_rule)
    for name in ("masked_fill", "lerp", "addcmul", "addcdiv", "index_fill", "masked_scatter"):
        r(f"aten::{name}", self_dtype_pointwise)
    r("aten::type_as", type_as_rule)
    for name in ("softmax", "log_softmax", "_softmax", "_log_softmax"):
        r(f"aten::{name}", softmax_rule)
    r("aten::view", view_rule)
    r("aten::reshape", view_rule)
    for name in ("t", "transpose", "permute", "swapaxes", "swapdims", "numpy_T"):
        r(f"aten::{name}", transpose_like)
    r("aten::select", select_rule)
    for name in (
        "slice",
        "narrow",
        "index_select",
        "gather",
        "scatter",
        "scatter_add",
        "index_put",
        "index_put_",
        "copy_",
    ):
        r(f"aten::{name}", same_rank_unknown_sizes)
    r("aten::unsqueeze", unsqueeze_rule)
    r("aten::squeeze", squeeze_rule)
    r("aten::expand", expand_rule)
    r("aten::expand_as", expand_as_rule)
    r("aten::flatten", flatten_rule)
    r("aten::contiguous", contiguous_rule)
    r("aten::to", to_rule)
    r("aten::mm", mm_rule)
    r("aten::bmm", bmm_rule)
    r("aten::matmul", matmul_rule)
    r("aten::addmm", addmm_rule)
    r("aten::linear", linear_rule)
    r("aten::dot", zero_dim_float)
    r("aten::cat", cat_rule)
    r("aten::stack", cat_rule)
    for name in ("zeros", "ones", "empty", "rand", "randn", "full", "randint"):
        r(f"aten::{name}", factory_rule)
    for name in ("zeros_like", "ones_like", "empty_like", "rand_like", "randn_like", "full_like"):
        r(f"aten::{name}", like_rule)
    r("aten::arange", arange_rule)
    r("aten::eye", eye_rule)
    r("prim::NumToTensor", num_to_tensor_rule)


def _max_min_rule(args: ShapeArgs) -> Any:
    """max/min: of a tensor (0-dim), against another tensor (binary), or over a dim (pair)."""
    if len(args.node.outputs) == 2:
        return max_dim_rule(args)
    if args.index("other") is not None:
        return binary_promote(args)
    t = args.tensor(0)
    if t is None:
        return None
    return make_tensor(t.scalar_type, t.device, (), [t])


_register_defaults()
