"""What a kernel computes on: operands, conversions between dtypes, and comparisons.

An `Operand` is one value inside a kernel: its dtype and promotion category
(`ts_ir.Category`), its LLVM value, and for compile-time constants its Python
value. `cast_value` converts an element between the dtypes kernels compute
in as numpy's `astype` does; `compare`, `maximum` and `minimum` compare with
numpy's semantics (NaN is unequal to everything; maximum and minimum
propagate NaN).
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np
from llvmlite import ir
from ts_ir import Category, ScalarType

from . import mathlib
from .llvm_types import I1, is_float, is_int, numpy_dtype, register_type

S = ScalarType
NO_CONST = object()


class Operand:
    """A value inside a kernel: dtype and promotion category, its LLVM value, its constant."""

    __slots__ = ("category", "const", "dtype", "value")

    def __init__(
        self,
        dtype: ScalarType | None,
        category: Category | None,
        value: ir.Value | None = None,
        const: Any = NO_CONST,
    ) -> None:
        self.dtype = dtype
        self.category = category
        self.value = value
        self.const = const

    @property
    def is_const(self) -> bool:
        return self.const is not NO_CONST

    @property
    def is_number(self) -> bool:
        return self.dtype is not None

    def __repr__(self) -> str:
        const = "" if self.const is NO_CONST else f" = {self.const!r}"
        dtype = None if self.dtype is None else self.dtype.name
        category = None if self.category is None else self.category.name
        return f"<Operand {dtype} {category}{const}>"


class LoweringContext(Protocol):
    """What a lowering's `emit` may use (the kernel emitter provides it)."""

    b: ir.IRBuilder
    exact: bool

    def cast(self, operand: Operand, dtype: ScalarType) -> ir.Value: ...

    def needs_exact(self, flag: ir.Value) -> None: ...

    def fail_if(self, flag: ir.Value) -> None: ...


def _cmp_float(b: ir.IRBuilder, op: str, x: ir.Value, y: ir.Value) -> ir.Value:
    return b.fcmp_unordered(op, x, y) if op == "!=" else b.fcmp_ordered(op, x, y)


def compare(b: ir.IRBuilder, dtype: ScalarType, op: str, x: ir.Value, y: ir.Value) -> ir.Value:
    """x <op> y for one dtype: ordered for floats (NaN is unequal to everything), unsigned for bools."""
    if is_float(dtype):
        return _cmp_float(b, op, x, y)
    if dtype is S.Bool:
        return b.icmp_unsigned(op, x, y)
    return b.icmp_signed(op, x, y)


def maximum(b: ir.IRBuilder, dtype: ScalarType, x: ir.Value, y: ir.Value) -> ir.Value:
    """numpy's maximum: NaN in either operand gives NaN; of equal operands (0.0 and
    -0.0) the second; bools are or-ed."""
    if dtype is S.Bool:
        return b.or_(x, y)
    if is_float(dtype):
        take_x = b.or_(b.fcmp_ordered(">", x, y), mathlib.is_nan(b, x))
        return b.select(take_x, x, y)
    return b.select(b.icmp_signed(">=", x, y), x, y)


def minimum(b: ir.IRBuilder, dtype: ScalarType, x: ir.Value, y: ir.Value) -> ir.Value:
    """numpy's minimum, as `maximum`."""
    if dtype is S.Bool:
        return b.and_(x, y)
    if is_float(dtype):
        take_x = b.or_(b.fcmp_ordered("<", x, y), mathlib.is_nan(b, x))
        return b.select(take_x, x, y)
    return b.select(b.icmp_signed("<=", x, y), x, y)


_INT_LIMITS = {S.Int: 2.0**31, S.Long: 2.0**63}


def cast_value(b: ir.IRBuilder, x: ir.Value, src: ScalarType, dst: ScalarType) -> ir.Value:
    """Convert one element from `src` to `dst` as numpy's `astype` does on x86.

    Floats out of an integer type's range (NaN included) become its minimum,
    which is what the hardware conversion numpy uses produces.
    """
    if src is dst:
        return x
    target = register_type(dst)
    if dst is S.Bool:
        if is_float(src):
            return b.fcmp_unordered("!=", x, x.type(0.0))
        return b.icmp_unsigned("!=", x, x.type(0))
    if src is S.Bool:
        return b.uitofp(x, target) if is_float(dst) else b.zext(x, target)
    if is_float(dst):
        if is_float(src):
            return b.fpext(x, target) if dst is S.Double else b.fptrunc(x, target)
        return b.sitofp(x, target)
    if is_int(src):
        return b.sext(x, target) if dst is S.Long else b.trunc(x, target)
    limit = _INT_LIMITS[dst]
    in_range = b.and_(
        b.fcmp_ordered(">=", x, x.type(-limit)), b.fcmp_ordered("<", x, x.type(limit))
    )
    minimum_int = target(-(1 << (target.width - 1)))
    return b.select(in_range, b.fptosi(x, target), minimum_int)


def constant_value_of(value: Any, dst: ScalarType) -> ir.Constant:
    """A Python number as an LLVM constant of `dst`, converted as numpy converts it."""
    target = register_type(dst)
    if dst is S.Bool:
        return I1(1 if value else 0)
    with np.errstate(all="ignore"):
        converted = np.array(value).astype(numpy_dtype(dst)).item()
    if is_float(dst):
        return target(float(converted))
    return target(int(converted))
