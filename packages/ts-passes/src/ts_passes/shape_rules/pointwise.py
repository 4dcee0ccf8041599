"""Shape rules of pointwise operators: unary, binary with promotion, comparisons, selection."""

from __future__ import annotations

from collections.abc import Sequence

from ts_ir import FloatType, IntType, NoneType, ScalarType, TensorType, Type, Value

from .core import (
    ShapeArgs,
    broadcast_shapes,
    device_of,
    known,
    make_tensor,
    promoted_dtype,
    shape_rules,
    to_float,
)


def unary_same(args: ShapeArgs) -> Type | None:
    t = args.tensor("self") or args.tensor(0)
    if t is None:
        return None
    return make_tensor(t.scalar_type, t.device, t.sizes, [t])


def unary_float(args: ShapeArgs) -> Type | None:
    t = args.tensor("self") or args.tensor(0)
    if t is None:
        return None
    return make_tensor(to_float(t.scalar_type), t.device, t.sizes, [t])


def unary_bool(args: ShapeArgs) -> Type | None:
    t = args.tensor(0)
    if t is None:
        return None
    return make_tensor(ScalarType.Bool, t.device, t.sizes, [t])


def pointwise_result(
    args: ShapeArgs, operands: Sequence[Value], dtype: ScalarType | None
) -> Type | None:
    tensors = [v.type for v in operands if isinstance(v.type, TensorType)]
    if not tensors:
        return None
    return make_tensor(dtype, device_of(tensors), broadcast_shapes(tensors), tensors)


def operands_named(args: ShapeArgs, names: Sequence[str]) -> list[Value]:
    out = []
    for i, name in enumerate(names):
        v = args.value(name) if args.index(name) is not None else args.value(i)
        if v is not None:
            out.append(v)
    return out


def binary_promote(args: ShapeArgs) -> Type | None:
    ops = operands_named(args, ("self", "other"))
    return pointwise_result(args, ops, promoted_dtype(ops))


def binary_float(args: ShapeArgs) -> Type | None:
    ops = operands_named(args, ("self", "other"))
    return pointwise_result(args, ops, to_float(promoted_dtype(ops)))


def div_rule(args: ShapeArgs) -> Type | None:
    ops = operands_named(args, ("self", "other"))
    mode = args.const("rounding_mode") if args.index("rounding_mode") is not None else None
    dtype = promoted_dtype(ops)
    if mode is None:
        dtype = to_float(dtype)
    elif not known(mode):
        dtype = dtype if dtype is not None and dtype.is_floating_point else None
    return pointwise_result(args, ops, dtype)


def compare_rule(args: ShapeArgs) -> Type | None:
    ops = operands_named(args, ("self", "other"))
    return pointwise_result(args, ops, ScalarType.Bool)


def self_dtype_pointwise(args: ShapeArgs) -> Type | None:
    """Broadcast over every tensor input, keeping `self`'s dtype (masked_fill, lerp, ...)."""
    self_t = args.tensor(0)
    if self_t is None:
        return None
    return pointwise_result(args, list(args.inputs), self_t.scalar_type)


def all_promote(args: ShapeArgs) -> Type | None:
    """Broadcast and promote over every tensor and scalar input (clamp with tensor bounds)."""
    ops = [v for v in args.inputs if isinstance(v.type, (TensorType, IntType, FloatType))]
    return pointwise_result(args, list(args.inputs), promoted_dtype(ops))


def tensors_promote(args: ShapeArgs) -> Type | None:
    """Broadcast and promote over the tensor inputs only; scalars such as addcmul's
    `value` or lerp's weight take no part."""
    ops = [v for v in args.inputs if isinstance(v.type, TensorType)]
    return pointwise_result(args, ops, promoted_dtype(ops))


def where_rule(args: ShapeArgs) -> Type | None:
    ops = operands_named(args, ("self", "other"))
    cond = args.value("condition") or args.value(0)
    return pointwise_result(args, [cond, *ops] if cond is not None else ops, promoted_dtype(ops))


def clamp_rule(args: ShapeArgs) -> Type | None:
    t = args.tensor(0)
    if t is None:
        return None
    bounds = [v for v in args.inputs[1:] if not isinstance(v.type, NoneType)]
    if any(isinstance(v.type, TensorType) for v in bounds):
        return all_promote(args)
    dtype = promoted_dtype([args.inputs[0], *bounds])
    return make_tensor(dtype, t.device, t.sizes, [t])


def float_power_rule(args: ShapeArgs) -> Type | None:
    """float_power computes in float64 (complex128 for complex operands)."""
    ops = [v for v in args.inputs if isinstance(v.type, TensorType)]
    complex_ = any(v.type.scalar_type is not None and v.type.scalar_type.is_complex for v in ops)
    return pointwise_result(args, ops, ScalarType.ComplexDouble if complex_ else ScalarType.Double)


def square_rule(args: ShapeArgs) -> Type | None:
    """square is pow(x, 2): bools square to int64."""
    t = args.tensor(0)
    if t is None:
        return None
    dtype = ScalarType.Long if t.scalar_type is ScalarType.Bool else t.scalar_type
    return make_tensor(dtype, t.device, t.sizes, [t])


def type_as_rule(args: ShapeArgs) -> Type | None:
    t, other = args.tensor(0), args.tensor(1)
    if t is None or other is None:
        return None
    return make_tensor(other.scalar_type, other.device, t.sizes, [t])


UNARY_SAME = (
    "abs", "neg", "relu", "relu6", "floor", "ceil", "round", "trunc", "sign", "clone",
    "hardtanh", "leaky_relu", "elu", "selu", "celu", "gelu", "mish", "hardsigmoid",
    "hardswish", "softplus", "hardshrink", "softshrink", "bitwise_not", "positive",
    "threshold", "frac", "fill", "zero", "copy", "alias", "flip", "roll", "tril", "triu",
    "detach", "cpu", "nan_to_num",
)  # fmt: skip
UNARY_FLOAT = (
    "sigmoid", "tanh", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt",
    "rsqrt", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "asinh",
    "acosh", "atanh", "erf", "erfc", "erfinv", "reciprocal", "logit", "digamma",
    "lgamma", "sinc", "log_sigmoid", "i0", "special_i0", "special_i0e",
    "special_i1", "special_i1e", "deg2rad", "rad2deg", "special_sinc", "special_entr",
    "special_ndtr", "special_logit", "special_erfinv", "special_digamma", "special_psi",
    "polygamma", "special_polygamma", "silu",
)  # fmt: skip
UNARY_BOOL = ("isnan", "isinf", "isfinite", "logical_not", "signbit", "isneginf", "isposinf")
BINARY_PROMOTE = (
    "add", "sub", "mul", "rsub", "remainder", "fmod", "maximum", "minimum", "fmax",
    "fmin", "floor_divide", "bitwise_and", "bitwise_or", "bitwise_xor", "pow",
    "__and__", "__or__", "__xor__", "__lshift__", "__rshift__", "hypot", "copysign",
    "heaviside", "bitwise_left_shift", "bitwise_right_shift",
)  # fmt: skip
BINARY_FLOAT = (
    "atan2", "true_divide", "xlogy", "special_xlogy", "special_xlog1py", "logaddexp",
    "logaddexp2",
)  # fmt: skip
COMPARE = (
    "eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or", "logical_xor",
    "isclose", "greater", "less", "greater_equal", "less_equal", "not_equal",
)  # fmt: skip


def _register() -> None:
    r = shape_rules.register
    for names, rule in (
        (UNARY_SAME, unary_same),
        (UNARY_FLOAT, unary_float),
        (UNARY_BOOL, unary_bool),
        (BINARY_PROMOTE, binary_promote),
        (BINARY_FLOAT, binary_float),
        (COMPARE, compare_rule),
    ):
        for name in names:
            r(f"aten::{name}", rule)
    r("aten::div", div_rule)
    for name in ("clamp", "clamp_min", "clamp_max", "clip"):
        r(f"aten::{name}", clamp_rule)
    for key in ("aten::where.self", "aten::where.ScalarSelf", "aten::where.ScalarOther"):
        r(key, where_rule)
    r("aten::where.Scalar", where_rule)
    for name in ("masked_fill", "masked_scatter"):
        r(f"aten::{name}", self_dtype_pointwise)
    for name in ("lerp", "addcmul", "addcdiv"):
        r(f"aten::{name}", tensors_promote)
    r("aten::type_as", type_as_rule)
    r("aten::square", square_rule)
    r("aten::float_power", float_power_rule)


_register()
