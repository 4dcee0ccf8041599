"""Scalar types (dtypes) and the one type-promotion table.

`ScalarType` numbers match PyTorch's `c10::ScalarType`, because the IR stores
dtypes as integer constants (`dtype=6` is float32). `promote_types` is
PyTorch's pairwise table; `result_type` adds its operand categories: tensors
with dimensions outrank zero-dim tensors, which outrank Python scalars, except
that a lower-ranked operand of a higher category (bool < integral < floating <
complex) lifts the result into its category. Every package that needs a
result dtype calls these two functions; none keeps a table of its own.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable


class ScalarType(enum.IntEnum):
    Byte = 0
    Char = 1
    Short = 2
    Int = 3
    Long = 4
    Half = 5
    Float = 6
    Double = 7
    ComplexHalf = 8
    ComplexFloat = 9
    ComplexDouble = 10
    Bool = 11
    BFloat16 = 15

    @property
    def is_floating_point(self) -> bool:
        return self in _FLOATING

    @property
    def is_complex(self) -> bool:
        return self in _COMPLEX

    def is_integral(self, *, include_bool: bool = False) -> bool:
        return self in _INTEGRAL or (include_bool and self is ScalarType.Bool)

    @property
    def is_signed(self) -> bool:
        return self not in (ScalarType.Byte, ScalarType.Bool)

    @property
    def itemsize(self) -> int:
        return _ITEMSIZE[self]

    @property
    def python_name(self) -> str:
        """The name `torch` spells it with: `float32`, `int64`, `bool`."""
        return _PYTHON_NAME[self]

    @classmethod
    def from_python_name(cls, name: str) -> ScalarType:
        try:
            return _FROM_PYTHON_NAME[name]
        except KeyError:
            raise ValueError(f"unknown dtype name {name!r}") from None

    def to_complex(self) -> ScalarType:
        return {
            ScalarType.Half: ScalarType.ComplexHalf,
            ScalarType.BFloat16: ScalarType.ComplexFloat,
            ScalarType.Float: ScalarType.ComplexFloat,
            ScalarType.Double: ScalarType.ComplexDouble,
        }.get(self, self)

    def to_real(self) -> ScalarType:
        return {
            ScalarType.ComplexHalf: ScalarType.Half,
            ScalarType.ComplexFloat: ScalarType.Float,
            ScalarType.ComplexDouble: ScalarType.Double,
        }.get(self, self)


S = ScalarType
_FLOATING = frozenset({S.Half, S.Float, S.Double, S.BFloat16})
_COMPLEX = frozenset({S.ComplexHalf, S.ComplexFloat, S.ComplexDouble})
_INTEGRAL = frozenset({S.Byte, S.Char, S.Short, S.Int, S.Long})
_ITEMSIZE = {
    S.Byte: 1, S.Char: 1, S.Short: 2, S.Int: 4, S.Long: 8, S.Half: 2, S.Float: 4,
    S.Double: 8, S.ComplexHalf: 4, S.ComplexFloat: 8, S.ComplexDouble: 16, S.Bool: 1,
    S.BFloat16: 2,
}  # fmt: skip
_PYTHON_NAME = {
    S.Byte: "uint8", S.Char: "int8", S.Short: "int16", S.Int: "int32", S.Long: "int64",
    S.Half: "float16", S.Float: "float32", S.Double: "float64", S.ComplexHalf: "complex32",
    S.ComplexFloat: "complex64", S.ComplexDouble: "complex128", S.Bool: "bool",
    S.BFloat16: "bfloat16",
}  # fmt: skip
_FROM_PYTHON_NAME = {v: k for k, v in _PYTHON_NAME.items()} | {
    "float": S.Float, "double": S.Double, "half": S.Half, "long": S.Long, "int": S.Int,
    "short": S.Short, "cfloat": S.ComplexFloat, "cdouble": S.ComplexDouble,
}  # fmt: skip

#: The dtype a Python float (and a float tensor created without a dtype) gets.
DEFAULT_DTYPE = S.Float


def _rank_in_category(t: ScalarType) -> int:
    return _ITEMSIZE[t.to_real()] if t.is_complex else _ITEMSIZE[t]


def _promote_rule(a: ScalarType, b: ScalarType) -> ScalarType:
    """PyTorch's pairwise promotion, written as the rules its table encodes."""
    if a is b:
        return a
    if a is S.Bool:
        return b
    if b is S.Bool:
        return a
    if a.is_complex or b.is_complex:
        real = _promote_rule(a.to_real(), b.to_real())
        return real.to_complex()
    if a.is_floating_point or b.is_floating_point:
        if a.is_floating_point and b.is_floating_point:
            if {a, b} == {S.Half, S.BFloat16}:
                return S.Float
            return a if _ITEMSIZE[a] > _ITEMSIZE[b] else b
        return a if a.is_floating_point else b
    # Both integral. uint8 is the only unsigned type: mixing it with a signed type
    # of the same size needs the next signed size up.
    if S.Byte in (a, b):
        other = b if a is S.Byte else a
        return S.Short if other is S.Char else other
    return a if _ITEMSIZE[a] > _ITEMSIZE[b] else b


_TABLE: dict[tuple[ScalarType, ScalarType], ScalarType] = {
    (a, b): _promote_rule(a, b) for a in ScalarType for b in ScalarType
}


def promote_types(a: ScalarType, b: ScalarType) -> ScalarType:
    """The smallest dtype both `a` and `b` convert to without losing their category."""
    return _TABLE[a, b]


class Category(enum.IntEnum):
    """Where an operand ranks in `result_type`."""

    SCALAR = 0  # a Python number (a "wrapped number")
    ZERO_DIM = 1  # a tensor with no dimensions
    DIM = 2  # a tensor with at least one dimension


def scalar_dtype(value: object) -> ScalarType:
    """The dtype a Python scalar takes part in promotion with: bool, int64, float32, complex64."""
    if isinstance(value, bool):
        return S.Bool
    if isinstance(value, int):
        return S.Long
    if isinstance(value, float):
        return DEFAULT_DTYPE
    if isinstance(value, complex):
        return DEFAULT_DTYPE.to_complex()
    raise TypeError(f"not a Python scalar: {value!r}")


def _combine_categories(higher: ScalarType | None, lower: ScalarType | None) -> ScalarType | None:
    if higher is None:
        return lower
    if lower is None:
        return higher
    if higher.is_complex:
        return higher
    if lower.is_complex:
        return higher.to_complex() if higher.is_floating_point else lower
    if higher.is_floating_point:
        return higher
    if higher is S.Bool or lower.is_floating_point:
        return promote_types(higher, lower)
    return higher


def result_type(operands: Iterable[tuple[ScalarType, Category]]) -> ScalarType:
    """`torch.result_type` over (dtype, category) pairs.

    For a Python scalar, pass `scalar_dtype(value)` with `Category.SCALAR`; a
    Python float then counts as the default dtype, as in PyTorch.
    """
    results: list[ScalarType | None] = [None, None, None]
    for dtype, category in operands:
        if category is Category.SCALAR:
            if dtype.is_complex:
                dtype = DEFAULT_DTYPE.to_complex()
            elif dtype.is_floating_point:
                dtype = DEFAULT_DTYPE
        current = results[category]
        results[category] = dtype if current is None else _TABLE[current, dtype]
    dim, zero, scalar = results[Category.DIM], results[Category.ZERO_DIM], results[Category.SCALAR]
    out = _combine_categories(dim, _combine_categories(zero, scalar))
    if out is None:
        raise ValueError("result_type needs at least one operand")
    return out
