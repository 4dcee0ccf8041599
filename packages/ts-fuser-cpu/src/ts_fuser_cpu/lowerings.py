"""CPU lowerings: how each fusible operator becomes LLVM IR, keyed by schema.

    CPU_LOWERINGS.lookup(node)  # a `Lowering`, or None (the default: not fusible)

A `Lowering` has three parts:

- `dtype(node, args)`: the result dtype from the operands' dtypes and
  categories, through ts-ir's `result_type` (PyTorch's promotion); raises
  `UnsupportedFusionError` for combinations the interpreter would reject or
  compute differently (so those groups run there instead);
- `emit(ctx, node, args, dtype)`: the LLVM value of one element, computed as
  the interpreter's kernel computes it (the same operation order and
  precision, so fused and unfused results agree);
- `check(node)`: what can be told before any input is seen (constant
  arguments that must be constants), as a reason it cannot fuse or None.

Reductions over the innermost dimension (`reduction`) and operators built
from them (`decompose`: softmax, log_softmax, layer_norm) are registered in
`reductions`.

`broadcast` names the inputs whose shapes take part in broadcasting (by
default every tensor input; `type_as` takes only its first input's shape).
Operands carry a dtype and a promotion category; compile-time constants also
carry their Python value (`None`, a rounding mode, a number).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from llvmlite import ir
from ts_ir import DEFAULT_DTYPE, Node, ScalarType, constant_value, prim, result_type
from ts_schema import RuleTable, registry

from . import mathlib
from .errors import UnsupportedFusionError
from .llvm_types import I1, is_float, is_int, is_supported
from .operands import NO_CONST, LoweringContext, Operand, compare, maximum, minimum

S = ScalarType


Emit = Callable[[LoweringContext, Node, list[Operand], ScalarType], ir.Value]
DtypeRule = Callable[[Node, list[Operand]], ScalarType]


@dataclass(frozen=True, slots=True)
class Lowering:
    emit: Emit
    dtype: DtypeRule
    check: Callable[[Node], str | None] | None = None
    broadcast: tuple[int, ...] | None = None
    #: a reduction over the innermost dimension ("sum", "mean", "amax", "amin"): `emit` is
    #: unused, the kernel accumulates its input over each row (`reductions`)
    reduction: str | None = None
    #: an operator built from others (softmax from amax, exp, sum, div): rewrites the node
    #: in a copy of the group into those before the analysis (`reductions`)
    decompose: Callable[[Node], list[Any]] | None = None


#: The CPU lowering of every fusible operator; the default (None) means "not fusible".
CPU_LOWERINGS: RuleTable[Lowering] = RuleTable("cpu_lowering", default=None)


def register(keys: Sequence[str], lowering: Lowering) -> None:
    """Register `lowering` for operator keys; a key without an overload name means that exact
    schema (`aten::relu`), not every overload of the name."""
    for key in keys:
        op_name = key.partition("::")[2]
        if "." in op_name:
            CPU_LOWERINGS.register(key, lowering)
        else:
            CPU_LOWERINGS.register(str(registry.get(key).schema), lowering)


def node_constant(node: Node, i: int) -> Any:
    """The constant value of input `i`, or `NO_CONST` when it is not a constant."""
    v = node.inputs[i]
    if v.node.kind is prim.Constant:
        return constant_value(v)
    return NO_CONST


def _dtype_name(dtype: ScalarType | None) -> str:
    return "unknown" if dtype is None else dtype.python_name


def _unsupported(message: str) -> UnsupportedFusionError:
    return UnsupportedFusionError(message)


# ---------------------------------------------------------------------------
# dtype rules


def promoted(args: Sequence[Operand], indices: Sequence[int]) -> ScalarType:
    """`result_type` over the number operands at `indices` (None constants are skipped)."""
    operands = [(args[i].dtype, args[i].category) for i in indices if args[i].is_number]
    if not operands:
        raise _unsupported("no numeric operands to promote")
    return result_type(operands)  # type: ignore[arg-type]


def _same_as(i: int) -> DtypeRule:
    def rule(node: Node, args: list[Operand]) -> ScalarType:
        return args[i].dtype  # type: ignore[return-value]

    return rule


def _promote(*indices: int, no_bool: str | None = None) -> DtypeRule:
    def rule(node: Node, args: list[Operand]) -> ScalarType:
        d = promoted(args, indices)
        if no_bool and d is S.Bool:
            raise _unsupported(f"{node.kind} on bool tensors ({no_bool})")
        return d

    return rule


def _to_bool(*indices: int) -> DtypeRule:
    def rule(node: Node, args: list[Operand]) -> ScalarType:
        promoted(args, indices)
        return S.Bool

    return rule


def _floating(i: int) -> DtypeRule:
    def rule(node: Node, args: list[Operand]) -> ScalarType:
        d = args[i].dtype
        return d if is_float(d) else DEFAULT_DTYPE  # type: ignore[arg-type,return-value]

    return rule


def _float_only(i: int) -> DtypeRule:
    def rule(node: Node, args: list[Operand]) -> ScalarType:
        d = args[i].dtype
        if not is_float(d):  # type: ignore[arg-type]
            raise _unsupported(
                f"{node.kind} of a {_dtype_name(d)} tensor is computed in the interpreter"
            )
        return d  # type: ignore[return-value]

    return rule


def _numeric_same(i: int) -> DtypeRule:
    def rule(node: Node, args: list[Operand]) -> ScalarType:
        d = args[i].dtype
        if d is S.Bool:
            raise _unsupported(f"{node.kind} is not defined for bool tensors")
        return d  # type: ignore[return-value]

    return rule


# ---------------------------------------------------------------------------
# helpers for emitters


def _arith(b: ir.IRBuilder, dtype: ScalarType, op: str, x: ir.Value, y: ir.Value) -> ir.Value:
    if is_float(dtype):
        return {"+": b.fadd, "-": b.fsub, "*": b.fmul}[op](x, y)
    if dtype is S.Bool:
        if op == "+":
            return b.or_(x, y)
        if op == "*":
            return b.and_(x, y)
        raise _unsupported("subtraction of bool tensors")
    return {"+": b.add, "-": b.sub, "*": b.mul}[op](x, y)


def _is_one(operand: Operand) -> bool:
    return operand.is_const and operand.const == 1 and not isinstance(operand.const, bool)


def _scaled(ctx: LoweringContext, operand: Operand, alpha: Operand, dtype: ScalarType) -> ir.Value:
    value = ctx.cast(operand, dtype)
    if _is_one(alpha):
        return value
    return _arith(ctx.b, dtype, "*", value, ctx.cast(alpha, dtype))


def _alpha_dtype(self_i: int, other_i: int, alpha_i: int, *, subtract: bool) -> DtypeRule:
    def rule(node: Node, args: list[Operand]) -> ScalarType:
        d = promoted(args, (self_i, other_i))
        alpha = args[alpha_i]
        if subtract and d is S.Bool:
            raise _unsupported("subtraction of bool tensors is an error")
        if not _is_one(alpha) and (d is S.Bool or (is_int(d) and is_float(alpha.dtype))):  # type: ignore[arg-type]
            raise _unsupported(f"alpha of dtype {_dtype_name(alpha.dtype)} with {d.name} operands")
        return d

    return rule


# ---------------------------------------------------------------------------
# arithmetic


def _emit_add(ctx: LoweringContext, node: Node, args: list[Operand], d: ScalarType) -> ir.Value:
    return _arith(ctx.b, d, "+", ctx.cast(args[0], d), _scaled(ctx, args[1], args[2], d))


def _emit_sub(ctx: LoweringContext, node: Node, args: list[Operand], d: ScalarType) -> ir.Value:
    return _arith(ctx.b, d, "-", ctx.cast(args[0], d), _scaled(ctx, args[1], args[2], d))


def _emit_rsub(ctx: LoweringContext, node: Node, args: list[Operand], d: ScalarType) -> ir.Value:
    return _arith(ctx.b, d, "-", ctx.cast(args[1], d), _scaled(ctx, args[0], args[2], d))


def _emit_mul(ctx: LoweringContext, node: Node, args: list[Operand], d: ScalarType) -> ir.Value:
    return _arith(ctx.b, d, "*", ctx.cast(args[0], d), ctx.cast(args[1], d))


register(
    ["aten::add.Tensor", "aten::add.Scalar"],
    Lowering(_emit_add, _alpha_dtype(0, 1, 2, subtract=False)),
)
register(
    ["aten::sub.Tensor", "aten::sub.Scalar"],
    Lowering(_emit_sub, _alpha_dtype(0, 1, 2, subtract=True)),
)
register(
    ["aten::rsub.Tensor", "aten::rsub.Scalar"],
    Lowering(_emit_rsub, _alpha_dtype(1, 0, 2, subtract=True)),
)
register(["aten::mul.Tensor", "aten::mul.Scalar"], Lowering(_emit_mul, _promote(0, 1)))


def _div_dtype(node: Node, args: list[Operand]) -> ScalarType:
    d = promoted(args, (0, 1))
    if len(args) > 2 and args[2].const in ("trunc", "floor"):
        if d is S.Bool:
            raise _unsupported("rounding division of bool tensors")
        return d
    return d if is_float(d) else DEFAULT_DTYPE


def _rounding_mode_check(node: Node) -> str | None:
    mode = node_constant(node, 2)
    if mode is NO_CONST:
        return "the rounding mode of a division is not a constant"
    if mode not in (None, "trunc", "floor"):
        return f"unknown rounding mode {mode!r}"
    return None


def _safe_divisor(ctx: LoweringContext, y: ir.Value) -> ir.Value:
    """The divisor with 0 and -1 replaced by 1 (0 fails the kernel; -1 is negation, which
    wraps where the hardware division would trap)."""
    b = ctx.b
    zero = b.icmp_signed("==", y, y.type(0))
    ctx.fail_if(zero)
    trap = b.or_(zero, b.icmp_signed("==", y, y.type(-1)))
    return b.select(trap, y.type(1), y)


def _int_floor_div(ctx: LoweringContext, x: ir.Value, y: ir.Value) -> ir.Value:
    b = ctx.b
    safe = _safe_divisor(ctx, y)
    q = b.sdiv(x, safe)
    r = b.srem(x, safe)
    signs_differ = b.xor(b.icmp_signed("<", r, r.type(0)), b.icmp_signed("<", y, y.type(0)))
    adjust = b.and_(b.icmp_signed("!=", r, r.type(0)), signs_differ)
    q = b.sub(q, b.zext(adjust, q.type))
    return b.select(b.icmp_signed("==", y, y.type(-1)), b.neg(x), q)


def _float_floor_div(ctx: LoweringContext, x: ir.Value, y: ir.Value) -> ir.Value:
    """numpy's floor_divide for floats (Python's algorithm): exact where floor(x / y) is not."""
    b = ctx.b
    ty = x.type
    mod = b.frem(x, y)
    div = b.fdiv(b.fsub(x, mod), y)
    nonzero_mod = b.fcmp_unordered("!=", mod, ty(0.0))
    signs_differ = b.xor(b.fcmp_ordered("<", y, ty(0.0)), b.fcmp_ordered("<", mod, ty(0.0)))
    div = b.select(b.and_(nonzero_mod, signs_differ), b.fsub(div, ty(1.0)), div)
    floor = b.call(mathlib.intrinsic(b, "floor", ty), [div])
    floor = b.select(
        b.fcmp_ordered(">", b.fsub(div, floor), ty(0.5)), b.fadd(floor, ty(1.0)), floor
    )
    quotient = b.fdiv(x, y)
    floor = b.select(
        b.fcmp_ordered("==", div, ty(0.0)), mathlib.copysign(b, ty(0.0), quotient), floor
    )
    return b.select(b.fcmp_ordered("==", y, ty(0.0)), quotient, floor)


def _emit_div(ctx: LoweringContext, node: Node, args: list[Operand], d: ScalarType) -> ir.Value:
    b = ctx.b
    mode = args[2].const if len(args) > 2 else None
    x, y = ctx.cast(args[0], d), ctx.cast(args[1], d)
    if mode is None:
        return b.fdiv(x, y)
    if mode == "trunc":
        if is_float(d):
            return b.call(mathlib.intrinsic(b, "trunc", x.type), [b.fdiv(x, y)])
        q = b.sdiv(x, _safe_divisor(ctx, y))
        return b.select(b.icmp_signed("==", y, y.type(-1)), b.neg(x), q)
    if is_float(d):
        return _float_floor_div(ctx, x, y)
    return _int_floor_div(ctx, x, y)


register(["aten::div.Tensor", "aten::div.Scalar"], Lowering(_emit_div, _div_dtype))
register(
    ["aten::div.Tensor_mode", "aten::div.Scalar_mode"],
    Lowering(_emit_div, _div_dtype, check=_rounding_mode_check),
)


def _emit_remainder(
    ctx: LoweringContext, node: Node, args: list[Operand], d: ScalarType
) -> ir.Value:
    """Python's modulo (the result takes the divisor's sign), as numpy's `remainder`."""
    b = ctx.b
    x, y = ctx.cast(args[0], d), ctx.cast(args[1], d)
    if is_float(d):
        ty = x.type
        mod = b.frem(x, y)
        nonzero = b.fcmp_unordered("!=", mod, ty(0.0))
        signs_differ = b.xor(b.fcmp_ordered("<", y, ty(0.0)), b.fcmp_ordered("<", mod, ty(0.0)))
        fixed = b.select(b.and_(nonzero, signs_differ), b.fadd(mod, y), mod)
        return b.select(nonzero, fixed, mathlib.copysign(b, ty(0.0), y))
    safe = _safe_divisor(ctx, y)
    r = b.srem(x, safe)
    signs_differ = b.xor(b.icmp_signed("<", r, r.type(0)), b.icmp_signed("<", y, y.type(0)))
    r = b.select(b.and_(b.icmp_signed("!=", r, r.type(0)), signs_differ), b.add(r, y), r)
    return b.select(b.icmp_signed("==", y, y.type(-1)), y.type(0), r)


def _emit_fmod(ctx: LoweringContext, node: Node, args: list[Operand], d: ScalarType) -> ir.Value:
    """C's fmod (the result takes the dividend's sign); integers by zero give 0, as numpy."""
    b = ctx.b
    x, y = ctx.cast(args[0], d), ctx.cast(args[1], d)
    if is_float(d):
        return b.frem(x, y)
    trap = b.or_(b.icmp_signed("==", y, y.type(0)), b.icmp_signed("==", y, y.type(-1)))
    r = b.srem(x, b.select(trap, y.type(1), y))
    return b.select(trap, y.type(0), r)


register(
    ["aten::remainder.Tensor", "aten::remainder.Scalar", "aten::remainder.Scalar_Tensor"],
    Lowering(_emit_remainder, _promote(0, 1, no_bool="remainder")),
)
register(
    ["aten::fmod.Tensor", "aten::fmod.Scalar"],
    Lowering(_emit_fmod, _promote(0, 1, no_bool="fmod")),
)


def _int_pow(ctx: LoweringContext, base: ir.Value, exponent: ir.Value) -> ir.Value:
    """base ** exponent for integers by square-and-multiply over every exponent bit (no branches,
    so the loop around it still vectorizes); negative exponents fail the kernel."""
    b = ctx.b
    ty = base.type
    ctx.fail_if(b.icmp_signed("<", exponent, ty(0)))
    result: ir.Value = ty(1)
    for _ in range(ty.width - 1):
        odd = b.trunc(exponent, I1)
        result = b.select(odd, b.mul(result, base), result)
        base = b.mul(base, base)
        exponent = b.lshr(exponent, ty(1))
    return result


def _emit_pow(ctx: LoweringContext, node: Node, args: list[Operand], d: ScalarType) -> ir.Value:
    b = ctx.b
    base, exponent = args
    x = ctx.cast(base, d)
    if exponent.is_const and not base.is_const:
        # the interpreter's shortcuts for these exponents
        if exponent.const == 2:
            return _arith(b, d, "*", x, x)
        if exponent.const == 0.5 and is_float(d):
            return b.call(mathlib.intrinsic(b, "sqrt", x.type), [x])
    y = ctx.cast(exponent, d)
    if is_float(d):
        return mathlib.call_libm(b, "pow", x, y)
    return _int_pow(ctx, x, y)


register(
    ["aten::pow.Tensor_Tensor", "aten::pow.Tensor_Scalar", "aten::pow.Scalar"],
    Lowering(_emit_pow, _promote(0, 1, no_bool="pow")),
)


def _binary_select(fn: Callable[..., ir.Value]) -> Emit:
    def emit(ctx: LoweringContext, node: Node, args: list[Operand], d: ScalarType) -> ir.Value:
        return fn(ctx.b, d, ctx.cast(args[0], d), ctx.cast(args[1], d))

    return emit


register(["aten::maximum", "aten::max.other"], Lowering(_binary_select(maximum), _promote(0, 1)))
register(["aten::minimum", "aten::min.other"], Lowering(_binary_select(minimum), _promote(0, 1)))


def _clamp_dtype(node: Node, args: list[Operand]) -> ScalarType:
    present = [i for i in (1, 2) if i < len(args) and args[i].is_number]
    if not present:
        raise _unsupported("clamp without min or max is an error")
    return promoted(args, (0, *present))


def _emit_clamp(ctx: LoweringContext, node: Node, args: list[Operand], d: ScalarType) -> ir.Value:
    x = ctx.cast(args[0], d)
    if args[1].is_number:
        x = maximum(ctx.b, d, x, ctx.cast(args[1], d))
    if len(args) > 2 and args[2].is_number:
        x = minimum(ctx.b, d, x, ctx.cast(args[2], d))
    return x


def _emit_clamp_max(
    ctx: LoweringContext, node: Node, args: list[Operand], d: ScalarType
) -> ir.Value:
    return minimum(ctx.b, d, ctx.cast(args[0], d), ctx.cast(args[1], d))


register(["aten::clamp", "aten::clamp.Tensor"], Lowering(_emit_clamp, _clamp_dtype))
register(["aten::clamp_min", "aten::clamp_min.Tensor"], Lowering(_emit_clamp, _clamp_dtype))
register(["aten::clamp_max", "aten::clamp_max.Tensor"], Lowering(_emit_clamp_max, _promote(0, 1)))


# ---------------------------------------------------------------------------
# comparisons, logic, selection

_COMPARISONS = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}


def _comparison(op: str) -> Emit:
    def emit(ctx: LoweringContext, node: Node, args: list[Operand], d: ScalarType) -> ir.Value:
        compute = promoted(args, (0, 1))
        return compare(ctx.b, compute, op, ctx.cast(args[0], compute), ctx.cast(args[1], compute))

    return emit


for _name, _op in _COMPARISONS.items():
    register(
        [f"aten::{_name}.Tensor", f"aten::{_name}.Scalar"],
        Lowering(_comparison(_op), _to_bool(0, 1)),
    )


def _logical(op: str) -> Emit:
    def emit(ctx: LoweringContext, node: Node, args: list[Operand], d: ScalarType) -> ir.Value:
        b = ctx.b
        x = ctx.cast(args[0], S.Bool)
        if op == "not":
            return b.xor(x, I1(1))
        y = ctx.cast(args[1], S.Bool)
        return {"and": b.and_, "or": b.or_, "xor": b.xor}[op](x, y)

    return emit


for _op in ("and", "or", "xor"):
    register([f"aten::logical_{_op}"], Lowering(_logical(_op), _to_bool(0, 1)))
register(["aten::logical_not"], Lowering(_logical("not"), _to_bool(0)))


def _bitwise_dtype(*indices: int) -> DtypeRule:
    def rule(node: Node, args: list[Operand]) -> ScalarType:
        d = promoted(args, indices)
        if is_float(d):
            raise _unsupported(f"{node.kind} of floating-point tensors is an error")
        return d

    return rule


def _bitwise(op: str) -> Emit:
    def emit(ctx: LoweringContext, node: Node, args: list[Operand], d: ScalarType) -> ir.Value:
        b = ctx.b
        x = ctx.cast(args[0], d)
        if op == "not":
            return b.xor(x, x.type(-1))
        y = ctx.cast(args[1], d)
        return {"and": b.and_, "or": b.or_, "xor": b.xor}[op](x, y)

    return emit


for _op in ("and", "or", "xor"):
    register(
        [
            f"aten::bitwise_{_op}.Tensor",
            f"aten::bitwise_{_op}.Scalar",
            f"aten::__{_op}__.Tensor",
            f"aten::__{_op}__.Scalar",
        ],
        Lowering(_bitwise(_op), _bitwise_dtype(0, 1)),
    )
register(["aten::bitwise_not"], Lowering(_bitwise("not"), _bitwise_dtype(0)))


def _where_dtype(node: Node, args: list[Operand]) -> ScalarType:
    if args[0].dtype is not S.Bool:
        raise _unsupported("where with a condition that is not a bool tensor is an error")
    return promoted(args, (1, 2))


def _emit_where(ctx: LoweringContext, node: Node, args: list[Operand], d: ScalarType) -> ir.Value:
    cond = ctx.cast(args[0], S.Bool)
    return ctx.b.select(cond, ctx.cast(args[1], d), ctx.cast(args[2], d))


register(
    ["aten::where.self", "aten::where.ScalarSelf", "aten::where.ScalarOther", "aten::where.Scalar"],
    Lowering(_emit_where, _where_dtype),
)


# ---------------------------------------------------------------------------
# unary operators


def _unary(fn: Callable[[LoweringContext, ir.Value, ScalarType], ir.Value]) -> Emit:
    def emit(ctx: LoweringContext, node: Node, args: list[Operand], d: ScalarType) -> ir.Value:
        return fn(ctx, ctx.cast(args[0], d), d)

    return emit


def _neg(ctx: LoweringContext, x: ir.Value, d: ScalarType) -> ir.Value:
    return ctx.b.fneg(x) if is_float(d) else ctx.b.neg(x)


def _abs(ctx: LoweringContext, x: ir.Value, d: ScalarType) -> ir.Value:
    b = ctx.b
    if is_float(d):
        return mathlib.fabs(b, x)
    return b.select(b.icmp_signed("<", x, x.type(0)), b.neg(x), x)


def _sign(ctx: LoweringContext, x: ir.Value, d: ScalarType) -> ir.Value:
    b = ctx.b
    ty = x.type
    one, minus_one = (ty(1.0), ty(-1.0)) if is_float(d) else (ty(1), ty(-1))
    zero = ty(0.0) if is_float(d) else ty(0)
    positive = compare(b, d, ">", x, zero)
    negative = compare(b, d, "<", x, zero)
    return b.select(positive, one, b.select(negative, minus_one, x))


def _square(ctx: LoweringContext, x: ir.Value, d: ScalarType) -> ir.Value:
    return _arith(ctx.b, d, "*", x, x)


def _relu(ctx: LoweringContext, x: ir.Value, d: ScalarType) -> ir.Value:
    zero = x.type(0.0) if is_float(d) else x.type(0)
    # zero first: of equal operands the second is kept, so relu(-0.0) is -0.0 (PyTorch's)
    return maximum(ctx.b, d, zero, x)


register(["aten::neg"], Lowering(_unary(_neg), _numeric_same(0)))
register(["aten::abs"], Lowering(_unary(_abs), _numeric_same(0)))
register(["aten::sign"], Lowering(_unary(_sign), _numeric_same(0)))
register(["aten::square"], Lowering(_unary(_square), _numeric_same(0)))
register(["aten::relu"], Lowering(_unary(_relu), _numeric_same(0)))


def _rounding(name: str) -> Callable[[LoweringContext, ir.Value, ScalarType], ir.Value]:
    def fn(ctx: LoweringContext, x: ir.Value, d: ScalarType) -> ir.Value:
        if not is_float(d):
            return x  # rounding an integer is the identity
        b = ctx.b
        if name == "frac":
            return b.fsub(x, b.call(mathlib.intrinsic(b, "trunc", x.type), [x]))
        return b.call(mathlib.intrinsic(b, name, x.type), [x])

    return fn


for _name, _intrinsic in (
    ("floor", "floor"),
    ("ceil", "ceil"),
    ("trunc", "trunc"),
    ("round", "rint"),
):
    register([f"aten::{_name}"], Lowering(_unary(_rounding(_intrinsic)), _same_as(0)))
register(["aten::frac"], Lowering(_unary(_rounding("frac")), _float_only(0)))


def _fast_math(fn: Callable[[ir.IRBuilder, ir.Value], Any], name: str) -> Callable[..., ir.Value]:
    """A mathlib function; trigonometric ones report elements that need the libm path."""

    def emit(ctx: LoweringContext, x: ir.Value, d: ScalarType) -> ir.Value:
        result = fn(ctx.b, x)
        if not isinstance(result, mathlib.TrigResult):
            return result
        if result.needs_exact is None:
            return result.value
        if not ctx.exact:
            ctx.needs_exact(result.needs_exact)
            return result.value
        # the rerun: libm only for the elements that asked for it
        exact = mathlib.exact(ctx.b, name, x)
        return ctx.b.select(result.needs_exact, exact, result.value)

    return emit


def _sqrt(ctx: LoweringContext, x: ir.Value, d: ScalarType) -> ir.Value:
    return ctx.b.call(mathlib.intrinsic(ctx.b, "sqrt", x.type), [x])


def _rsqrt(ctx: LoweringContext, x: ir.Value, d: ScalarType) -> ir.Value:
    return ctx.b.fdiv(x.type(1.0), _sqrt(ctx, x, d))


def _reciprocal(ctx: LoweringContext, x: ir.Value, d: ScalarType) -> ir.Value:
    return ctx.b.fdiv(x.type(1.0), x)


def _silu(ctx: LoweringContext, x: ir.Value, d: ScalarType) -> ir.Value:
    return ctx.b.fmul(x, mathlib.sigmoid(ctx.b, x))


_FLOAT_UNARY: dict[str, Callable[[LoweringContext, ir.Value, ScalarType], ir.Value]] = {
    "exp": _fast_math(mathlib.exp, "exp"),
    "expm1": _fast_math(mathlib.expm1, "expm1"),
    "log": _fast_math(mathlib.log, "log"),
    "log1p": _fast_math(mathlib.log1p, "log1p"),
    "sin": _fast_math(mathlib.sin, "sin"),
    "cos": _fast_math(mathlib.cos, "cos"),
    "tan": _fast_math(mathlib.tan, "tan"),
    "tanh": _fast_math(mathlib.tanh, "tanh"),
    "sigmoid": _fast_math(mathlib.sigmoid, "sigmoid"),
    "erf": _fast_math(mathlib.erf, "erf"),
    "sqrt": _sqrt,
    "rsqrt": _rsqrt,
    "reciprocal": _reciprocal,
    "silu": _silu,
}
for _name, _fn in _FLOAT_UNARY.items():
    register([f"aten::{_name}"], Lowering(_unary(_fn), _floating(0)))


# ---------------------------------------------------------------------------
# activations with parameters, written in the interpreter's order of operations


def _param(ctx: LoweringContext, operand: Operand, d: ScalarType) -> ir.Value:
    return ctx.cast(operand, d)


def _emit_gelu(ctx: LoweringContext, node: Node, args: list[Operand], d: ScalarType) -> ir.Value:
    b = ctx.b
    x = ctx.cast(args[0], d)
    ty = x.type
    half_x = b.fmul(ty(0.5), x)
    if args[1].const == "tanh":
        # 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x * x * x)))
        cube = b.fmul(b.fmul(b.fmul(ty(0.044715), x), x), x)
        inner = b.fmul(ty(math.sqrt(2.0 / math.pi)), b.fadd(x, cube))
        return b.fmul(half_x, b.fadd(ty(1.0), mathlib.tanh(b, inner)))
    # 0.5 * x * (1 + erf(x / sqrt(2)))
    scaled = b.fdiv(x, ty(math.sqrt(2.0)))
    return b.fmul(half_x, b.fadd(ty(1.0), mathlib.erf(b, scaled)))


def _gelu_check(node: Node) -> str | None:
    mode = node_constant(node, 1)
    if mode not in ("none", "tanh"):
        return f"gelu's approximate argument must be the constant 'none' or 'tanh', not {mode!r}"
    return None


def _emit_leaky_relu(
    ctx: LoweringContext, node: Node, args: list[Operand], d: ScalarType
) -> ir.Value:
    b = ctx.b
    x = ctx.cast(args[0], d)
    positive = b.fcmp_ordered(">", x, x.type(0.0))
    return b.select(positive, x, b.fmul(x, _param(ctx, args[1], d)))


def _emit_hardtanh(
    ctx: LoweringContext, node: Node, args: list[Operand], d: ScalarType
) -> ir.Value:
    b = ctx.b
    x = maximum(b, d, ctx.cast(args[0], d), _param(ctx, args[1], d))
    return minimum(b, d, x, _param(ctx, args[2], d))


def _emit_elu(ctx: LoweringContext, node: Node, args: list[Operand], d: ScalarType) -> ir.Value:
    # scale * where(x > 0, x, alpha * expm1(x * input_scale))
    b = ctx.b
    x = ctx.cast(args[0], d)
    alpha, scale, input_scale = (_param(ctx, a, d) for a in args[1:4])
    negative = b.fmul(alpha, mathlib.expm1(b, b.fmul(x, input_scale)))
    chosen = b.select(b.fcmp_ordered(">", x, x.type(0.0)), x, negative)
    return b.fmul(scale, chosen)


def _emit_softplus(
    ctx: LoweringContext, node: Node, args: list[Operand], d: ScalarType
) -> ir.Value:
    # where(x * beta > threshold, x, log1p(exp(x * beta)) / beta)
    b = ctx.b
    x = ctx.cast(args[0], d)
    beta, threshold = _param(ctx, args[1], d), _param(ctx, args[2], d)
    bx = b.fmul(x, beta)
    soft = b.fdiv(mathlib.log1p(b, mathlib.exp(b, bx)), beta)
    return b.select(b.fcmp_ordered(">", bx, threshold), x, soft)


register(["aten::gelu"], Lowering(_emit_gelu, _floating(0), check=_gelu_check))
register(["aten::leaky_relu"], Lowering(_emit_leaky_relu, _float_only(0)))
register(["aten::hardtanh"], Lowering(_emit_hardtanh, _float_only(0)))
register(["aten::elu"], Lowering(_emit_elu, _float_only(0)))
register(["aten::softplus"], Lowering(_emit_softplus, _float_only(0)))


# ---------------------------------------------------------------------------
# conversions


def _to_dtype_rule(dtype_index: int) -> DtypeRule:
    def rule(node: Node, args: list[Operand]) -> ScalarType:
        target = args[dtype_index].const
        if target is None:
            return args[0].dtype  # type: ignore[return-value]
        d = ScalarType(int(target))
        if not is_supported(d):
            raise _unsupported(
                f"conversion to {d.python_name} (the fuser computes in bool, int32, int64, float32 and float64)"
            )
        return d

    return rule


def _to_check(dtype_index: int, device_index: int | None = None) -> Callable[[Node], str | None]:
    def check(node: Node) -> str | None:
        target = node_constant(node, dtype_index)
        if target is NO_CONST:
            return "the target dtype of a conversion is not a constant"
        if device_index is not None:
            device = node_constant(node, device_index)
            if device is NO_CONST or (device is not None and str(device) != "cpu"):
                return "a conversion to another device"
        return None

    return check


def _emit_convert(ctx: LoweringContext, node: Node, args: list[Operand], d: ScalarType) -> ir.Value:
    return ctx.cast(args[0], d)


def _other_dtype(node: Node, args: list[Operand]) -> ScalarType:
    return args[1].dtype  # type: ignore[return-value]


register(["aten::to.dtype"], Lowering(_emit_convert, _to_dtype_rule(1), check=_to_check(1)))
register(["aten::to.prim_dtype"], Lowering(_emit_convert, _to_dtype_rule(1), check=_to_check(1)))
register(
    ["aten::to.dtype_layout"],
    Lowering(_emit_convert, _to_dtype_rule(1), check=_to_check(1, device_index=3)),
)
register(
    ["aten::to.other", "aten::type_as"],
    Lowering(_emit_convert, _other_dtype, broadcast=(0,)),
)
