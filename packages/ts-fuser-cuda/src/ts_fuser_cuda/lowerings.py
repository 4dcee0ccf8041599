"""CUDA lowerings: how each fusible operator becomes CUDA C, keyed by schema.

    CUDA_LOWERINGS.lookup(node)  # a `CudaLowering`, or None (the default: not fusible)

What an operator computes does not depend on the device: the result dtype
(through ts-ir's `result_type`, PyTorch's promotion), the checks of
constant arguments, and which inputs broadcast are the CPU fuser's own
rules (`ts_fuser_cpu.CPU_LOWERINGS`), taken over here for the same schema.
Only `emit` is new: the C expression of one element, written in the
interpreter's order of operations and precision, so that fused results
agree with unfused ones exactly (kernels are compiled without contracting
multiplies and adds into FMAs; see `nvcc.py`).

An emitter gets the context (`cast`, `let`, `fail_if`), the node, its
operands (dtype, promotion category, C expression or Python constant) and
the result dtype, and returns a C expression of that dtype. Helpers it calls
(`ts_maximum`, `ts_div_floor`, ...) are in `prelude.cuh`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from ts_fuser_cpu import CPU_LOWERINGS, Lowering, Operand, promoted
from ts_ir import Node, ScalarType
from ts_schema import RuleTable, registry

from .c_types import is_float, literal, math_function

S = ScalarType


class EmitContext(Protocol):
    """What an emitter may use (the kernel generator provides it)."""

    def cast(self, operand: Operand, dtype: ScalarType) -> str: ...

    def let(self, dtype: ScalarType, expr: str) -> str: ...

    def fail_if(self, condition: str) -> None: ...


Emit = Callable[[EmitContext, Node, list[Operand], ScalarType], str]


@dataclass(frozen=True, slots=True)
class CudaLowering:
    """`emit` for CUDA C; `dtype`, `check` and `broadcast` as the CPU fuser's rule for the
    same schema (what `ts_fuser_cpu.specialize` reads)."""

    emit: Emit
    shared: Lowering

    @property
    def dtype(self) -> Callable[[Node, list[Operand]], ScalarType]:
        return self.shared.dtype

    @property
    def check(self) -> Callable[[Node], str | None] | None:
        return self.shared.check

    @property
    def broadcast(self) -> tuple[int, ...] | None:
        return self.shared.broadcast


#: The CUDA lowering of every fusible operator; the default (None) means "not fusible".
CUDA_LOWERINGS: RuleTable[CudaLowering] = RuleTable("cuda_lowering", default=None)


def _schema_key(key: str) -> str:
    """A key as CPU_LOWERINGS holds it: `aten::add.Tensor` as is, a bare name by its schema."""
    if "." in key.partition("::")[2]:
        return key
    return str(registry.get(key).schema)


def register(keys: Sequence[str], emit: Emit) -> None:
    """Register `emit` for operator keys, with the CPU fuser's dtype rule and checks for each."""
    for key in keys:
        table_key = _schema_key(key)
        shared = CPU_LOWERINGS.lookup_operator(registry.get(key))
        if shared is None:
            raise KeyError(f"{key} has no CPU lowering to share its dtype rule with")
        CUDA_LOWERINGS.register(table_key, CudaLowering(emit, shared))


# ---------------------------------------------------------------------------
# helpers


def _arith(dtype: ScalarType, op: str, x: str, y: str) -> str:
    if is_float(dtype):
        return f"{x} {op} {y}"
    if dtype is S.Bool:
        if op == "+":
            return f"{x} || {y}"
        if op == "*":
            return f"{x} && {y}"
        raise AssertionError("bool subtraction is refused by the dtype rule")
    return {"+": "ts_iadd", "-": "ts_isub", "*": "ts_imul"}[op] + f"({x}, {y})"


def _is_one(operand: Operand) -> bool:
    return operand.is_const and operand.const == 1 and not isinstance(operand.const, bool)


def _scaled(ctx: EmitContext, operand: Operand, alpha: Operand, dtype: ScalarType) -> str:
    value = ctx.cast(operand, dtype)
    if _is_one(alpha):
        return value
    return ctx.let(dtype, _arith(dtype, "*", value, ctx.cast(alpha, dtype)))


def _zero(dtype: ScalarType) -> str:
    return literal(0, dtype)


# ---------------------------------------------------------------------------
# arithmetic


def _emit_add(ctx: EmitContext, node: Node, args: list[Operand], d: ScalarType) -> str:
    return _arith(d, "+", ctx.cast(args[0], d), _scaled(ctx, args[1], args[2], d))


def _emit_sub(ctx: EmitContext, node: Node, args: list[Operand], d: ScalarType) -> str:
    return _arith(d, "-", ctx.cast(args[0], d), _scaled(ctx, args[1], args[2], d))


def _emit_rsub(ctx: EmitContext, node: Node, args: list[Operand], d: ScalarType) -> str:
    return _arith(d, "-", ctx.cast(args[1], d), _scaled(ctx, args[0], args[2], d))


def _emit_mul(ctx: EmitContext, node: Node, args: list[Operand], d: ScalarType) -> str:
    return _arith(d, "*", ctx.cast(args[0], d), ctx.cast(args[1], d))


register(["aten::add.Tensor", "aten::add.Scalar"], _emit_add)
register(["aten::sub.Tensor", "aten::sub.Scalar"], _emit_sub)
register(["aten::rsub.Tensor", "aten::rsub.Scalar"], _emit_rsub)
register(["aten::mul.Tensor", "aten::mul.Scalar"], _emit_mul)


def _emit_div(ctx: EmitContext, node: Node, args: list[Operand], d: ScalarType) -> str:
    mode = args[2].const if len(args) > 2 else None
    x, y = ctx.cast(args[0], d), ctx.cast(args[1], d)
    if mode is None:
        return f"{x} / {y}"
    if is_float(d):
        if mode == "trunc":
            return f"{math_function('trunc', d)}({x} / {y})"
        return f"ts_div_floor({x}, {y})"
    y = ctx.let(d, y)
    ctx.fail_if(f"{y} == 0")
    return f"ts_div_trunc({x}, {y})" if mode == "trunc" else f"ts_div_floor({x}, {y})"


register(
    [
        "aten::div.Tensor",
        "aten::div.Scalar",
        "aten::div.Tensor_mode",
        "aten::div.Scalar_mode",
    ],
    _emit_div,
)


def _emit_remainder(ctx: EmitContext, node: Node, args: list[Operand], d: ScalarType) -> str:
    x, y = ctx.cast(args[0], d), ctx.cast(args[1], d)
    if is_float(d):
        return f"ts_remainder({x}, {y})"
    y = ctx.let(d, y)
    ctx.fail_if(f"{y} == 0")
    return f"ts_remainder_int({x}, {y})"


def _emit_fmod(ctx: EmitContext, node: Node, args: list[Operand], d: ScalarType) -> str:
    x, y = ctx.cast(args[0], d), ctx.cast(args[1], d)
    if is_float(d):
        return f"{math_function('fmod', d)}({x}, {y})"
    return f"ts_fmod_int({x}, {y})"


register(
    ["aten::remainder.Tensor", "aten::remainder.Scalar", "aten::remainder.Scalar_Tensor"],
    _emit_remainder,
)
register(["aten::fmod.Tensor", "aten::fmod.Scalar"], _emit_fmod)


def _emit_pow(ctx: EmitContext, node: Node, args: list[Operand], d: ScalarType) -> str:
    base, exponent = args
    x = ctx.cast(base, d)
    if exponent.is_const and not base.is_const:
        # the interpreter's shortcuts for these exponents
        if exponent.const == 2:
            x = ctx.let(d, x)
            return _arith(d, "*", x, x)
        if exponent.const == 0.5 and is_float(d):
            return f"{math_function('sqrt', d)}({x})"
    y = ctx.cast(exponent, d)
    if is_float(d):
        return f"{math_function('pow', d)}({x}, {y})"
    y = ctx.let(d, y)
    ctx.fail_if(f"{y} < 0")
    return f"ts_pow_int({x}, {y})"


register(
    ["aten::pow.Tensor_Tensor", "aten::pow.Tensor_Scalar", "aten::pow.Scalar"],
    _emit_pow,
)


def _binary_helper(name: str) -> Emit:
    def emit(ctx: EmitContext, node: Node, args: list[Operand], d: ScalarType) -> str:
        return f"{name}({ctx.cast(args[0], d)}, {ctx.cast(args[1], d)})"

    return emit


register(["aten::maximum", "aten::max.other"], _binary_helper("ts_maximum"))
register(["aten::minimum", "aten::min.other"], _binary_helper("ts_minimum"))


def _emit_clamp(ctx: EmitContext, node: Node, args: list[Operand], d: ScalarType) -> str:
    x = ctx.cast(args[0], d)
    if args[1].is_number:
        x = f"ts_maximum({x}, {ctx.cast(args[1], d)})"
    if len(args) > 2 and args[2].is_number:
        x = f"ts_minimum({x}, {ctx.cast(args[2], d)})"
    return x


def _emit_clamp_max(ctx: EmitContext, node: Node, args: list[Operand], d: ScalarType) -> str:
    return f"ts_minimum({ctx.cast(args[0], d)}, {ctx.cast(args[1], d)})"


register(["aten::clamp", "aten::clamp.Tensor"], _emit_clamp)
register(["aten::clamp_min", "aten::clamp_min.Tensor"], _emit_clamp)
register(["aten::clamp_max", "aten::clamp_max.Tensor"], _emit_clamp_max)


# ---------------------------------------------------------------------------
# comparisons, logic, selection

_COMPARISONS = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}


def _comparison(op: str) -> Emit:
    # C's comparisons are numpy's: ordered for floats except !=, which NaN satisfies
    def emit(ctx: EmitContext, node: Node, args: list[Operand], d: ScalarType) -> str:
        compute = promoted(args, (0, 1))
        return f"{ctx.cast(args[0], compute)} {op} {ctx.cast(args[1], compute)}"

    return emit


for _name, _op in _COMPARISONS.items():
    register([f"aten::{_name}.Tensor", f"aten::{_name}.Scalar"], _comparison(_op))


def _logical(op: str) -> Emit:
    def emit(ctx: EmitContext, node: Node, args: list[Operand], d: ScalarType) -> str:
        x = ctx.cast(args[0], S.Bool)
        if op == "not":
            return f"!{x}"
        y = ctx.cast(args[1], S.Bool)
        return f"{x} {({'and': '&&', 'or': '||', 'xor': '!='})[op]} {y}"

    return emit


for _op in ("and", "or", "xor"):
    register([f"aten::logical_{_op}"], _logical(_op))
register(["aten::logical_not"], _logical("not"))


def _bitwise(op: str) -> Emit:
    def emit(ctx: EmitContext, node: Node, args: list[Operand], d: ScalarType) -> str:
        x = ctx.cast(args[0], d)
        if d is S.Bool:
            if op == "not":
                return f"!{x}"
            return f"{x} {({'and': '&&', 'or': '||', 'xor': '!='})[op]} {ctx.cast(args[1], d)}"
        if op == "not":
            return f"~{x}"
        return f"{x} {({'and': '&', 'or': '|', 'xor': '^'})[op]} {ctx.cast(args[1], d)}"

    return emit


for _op in ("and", "or", "xor"):
    register(
        [
            f"aten::bitwise_{_op}.Tensor",
            f"aten::bitwise_{_op}.Scalar",
            f"aten::__{_op}__.Tensor",
            f"aten::__{_op}__.Scalar",
        ],
        _bitwise(_op),
    )
register(["aten::bitwise_not"], _bitwise("not"))


def _emit_where(ctx: EmitContext, node: Node, args: list[Operand], d: ScalarType) -> str:
    cond = ctx.cast(args[0], S.Bool)
    return f"{cond} ? {ctx.cast(args[1], d)} : {ctx.cast(args[2], d)}"


register(
    ["aten::where.self", "aten::where.ScalarSelf", "aten::where.ScalarOther", "aten::where.Scalar"],
    _emit_where,
)


# ---------------------------------------------------------------------------
# unary operators


def _unary(fn: Callable[[EmitContext, str, ScalarType], str]) -> Emit:
    def emit(ctx: EmitContext, node: Node, args: list[Operand], d: ScalarType) -> str:
        return fn(ctx, ctx.let(d, ctx.cast(args[0], d)), d)

    return emit


def _neg(ctx: EmitContext, x: str, d: ScalarType) -> str:
    return f"-{x}" if is_float(d) else f"ts_ineg({x})"


def _abs(ctx: EmitContext, x: str, d: ScalarType) -> str:
    if is_float(d):
        return f"{math_function('fabs', d)}({x})"
    return f"{x} < {_zero(d)} ? ts_ineg({x}) : {x}"


def _square(ctx: EmitContext, x: str, d: ScalarType) -> str:
    return _arith(d, "*", x, x)


register(["aten::neg"], _unary(_neg))
register(["aten::abs"], _unary(_abs))
register(["aten::sign"], _unary(lambda ctx, x, d: f"ts_sign({x})"))
register(["aten::square"], _unary(_square))
register(["aten::relu"], _unary(lambda ctx, x, d: f"ts_maximum({x}, {_zero(d)})"))


def _rounding(name: str) -> Callable[[EmitContext, str, ScalarType], str]:
    def fn(ctx: EmitContext, x: str, d: ScalarType) -> str:
        if not is_float(d):
            return x  # rounding an integer is the identity
        if name == "frac":
            return f"{x} - {math_function('trunc', d)}({x})"
        return f"{math_function(name, d)}({x})"

    return fn


for _name, _function in (
    ("floor", "floor"),
    ("ceil", "ceil"),
    ("trunc", "trunc"),
    ("round", "rint"),
):
    register([f"aten::{_name}"], _unary(_rounding(_function)))
register(["aten::frac"], _unary(_rounding("frac")))


def _library(name: str) -> Callable[[EmitContext, str, ScalarType], str]:
    return lambda ctx, x, d: f"{math_function(name, d)}({x})"


def _one(d: ScalarType) -> str:
    return literal(1.0, d)


_FLOAT_UNARY: dict[str, Callable[[EmitContext, str, ScalarType], str]] = {
    name: _library(name)
    for name in ("exp", "expm1", "log", "log1p", "sin", "cos", "tan", "tanh", "erf", "sqrt")
}
_FLOAT_UNARY.update(
    {
        "sigmoid": lambda ctx, x, d: f"ts_sigmoid({x})",
        # 1 / sqrt(x), rounded twice as the interpreter computes it (not rsqrt's approximation)
        "rsqrt": lambda ctx, x, d: f"{_one(d)} / {math_function('sqrt', d)}({x})",
        "reciprocal": lambda ctx, x, d: f"{_one(d)} / {x}",
        "silu": lambda ctx, x, d: f"{x} * ts_sigmoid({x})",
    }
)
for _name, _fn in _FLOAT_UNARY.items():
    register([f"aten::{_name}"], _unary(_fn))


# ---------------------------------------------------------------------------
# activations with parameters, written in the interpreter's order of operations


def _emit_gelu(ctx: EmitContext, node: Node, args: list[Operand], d: ScalarType) -> str:
    x = ctx.let(d, ctx.cast(args[0], d))
    half_x = ctx.let(d, f"{literal(0.5, d)} * {x}")
    if args[1].const == "tanh":
        # 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x * x * x)))
        cube = ctx.let(d, f"{literal(0.044715, d)} * {x} * {x} * {x}")
        inner = ctx.let(d, f"{literal(math.sqrt(2.0 / math.pi), d)} * ({x} + {cube})")
        return f"{half_x} * ({_one(d)} + {math_function('tanh', d)}({inner}))"
    # 0.5 * x * (1 + erf(x / sqrt(2)))
    scaled = ctx.let(d, f"{x} / {literal(math.sqrt(2.0), d)}")
    return f"{half_x} * ({_one(d)} + {math_function('erf', d)}({scaled}))"


def _emit_leaky_relu(ctx: EmitContext, node: Node, args: list[Operand], d: ScalarType) -> str:
    x = ctx.let(d, ctx.cast(args[0], d))
    return f"{x} > {_zero(d)} ? {x} : {x} * {ctx.cast(args[1], d)}"


def _emit_hardtanh(ctx: EmitContext, node: Node, args: list[Operand], d: ScalarType) -> str:
    x = f"ts_maximum({ctx.cast(args[0], d)}, {ctx.cast(args[1], d)})"
    return f"ts_minimum({x}, {ctx.cast(args[2], d)})"


def _emit_elu(ctx: EmitContext, node: Node, args: list[Operand], d: ScalarType) -> str:
    # scale * where(x > 0, x, alpha * expm1(x * input_scale))
    x = ctx.let(d, ctx.cast(args[0], d))
    alpha, scale, input_scale = (ctx.cast(a, d) for a in args[1:4])
    negative = ctx.let(d, f"{alpha} * {math_function('expm1', d)}({x} * {input_scale})")
    return f"{scale} * ({x} > {_zero(d)} ? {x} : {negative})"


def _emit_softplus(ctx: EmitContext, node: Node, args: list[Operand], d: ScalarType) -> str:
    # where(x * beta > threshold, x, log1p(exp(x * beta)) / beta)
    x = ctx.let(d, ctx.cast(args[0], d))
    beta, threshold = ctx.cast(args[1], d), ctx.cast(args[2], d)
    bx = ctx.let(d, f"{x} * {beta}")
    log1p, exp = math_function("log1p", d), math_function("exp", d)
    return f"{bx} > {threshold} ? {x} : {log1p}({exp}({bx})) / {beta}"


register(["aten::gelu"], _emit_gelu)
register(["aten::leaky_relu"], _emit_leaky_relu)
register(["aten::hardtanh"], _emit_hardtanh)
register(["aten::elu"], _emit_elu)
register(["aten::softplus"], _emit_softplus)


# ---------------------------------------------------------------------------
# conversions


def _emit_convert(ctx: EmitContext, node: Node, args: list[Operand], d: ScalarType) -> str:
    return ctx.cast(args[0], d)


register(
    [
        "aten::to.dtype",
        "aten::to.prim_dtype",
        "aten::to.dtype_layout",
        "aten::to.other",
        "aten::type_as",
    ],
    _emit_convert,
)
