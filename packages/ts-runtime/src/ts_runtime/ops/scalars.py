"""Operators on Python numbers and booleans: arithmetic, comparisons, logic, conversions.

Each kernel is the Python operation itself. Where a single Python expression
computes exactly the same thing, it is registered with `expr=` and the
interpreter inlines it: `aten::add.int` runs as `a + b` with no call at all.

Python's semantics apply where TorchScript's differ and neither raises: ints
are unbounded, `//` and `%` round toward negative infinity, `1.0 // 0.1` is
9.0. Division by zero is TorchScript's: `1 / 0` and `1.0 // 0.0` are inf,
`0.0 / 0` and `x % 0.0` are nan (Python raises), while an int `//` or `%` by
zero raises ZeroDivisionError in both. `min` and `max` of two floats are
TorchScript's `a < b ? a : b` (Python keeps the first of a NaN pair). Where Python raises and TorchScript
silently returns inf or nan otherwise (`0.0 ** -1`, `int(inf)`), Python's
exception is raised. Results
keep the schema's types: `aten::pow.int` is a float (TorchScript's `2 ** 3`
is `8.0`), `aten::round.float` is a float rounded half to even.

`register` is how the value operators of this package (lists, strings,
dicts, prims, math) attach kernels: without the autograd wrapper, which
would record history on the tensors an operator only passes through
(`aten::sorted.Tensor`) or treat a mutated list or dict as a tensor written
in place; none of them makes a tensor that needs a gradient.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any

from ts_schema import SchemaError, registry

from ..tensor import Tensor, TensorError
from .dispatch import implements

_NUMERIC = (
    "int",
    "float",
    "int_float",
    "float_int",
    "complex",
    "int_complex",
    "complex_int",
    "float_complex",
    "complex_float",
)
_REAL = ("int", "float", "int_float", "float_int")


def overloads(name: str, names: Iterable[str], *, namespace: str = "aten") -> tuple[str, ...]:
    """The catalogue's keys among `name.overload` for `names` ("" is the overload-less key)."""
    keys = (f"{namespace}::{name}.{o}" if o else f"{namespace}::{name}" for o in names)
    return tuple(k for k in keys if registry.find(k) is not None)


def register(
    name: str,
    names: Iterable[str],
    kernel: Callable[..., Any],
    expr: str | None = None,
    *,
    namespace: str = "aten",
) -> None:
    """Implement every catalogued overload `name.o` for `o` in `names` with one kernel.

    An overload implemented already is an error: two kernels for one operator
    would leave the one imported last in force.
    """
    keys = overloads(name, names, namespace=namespace)
    if not keys:
        raise SchemaError(f"no overload of {namespace}::{name} among {list(names)}")
    taken = [k for k in keys if registry.get(k).has_implementation]
    if taken:
        raise SchemaError(f"{', '.join(taken)} already has an implementation")
    implements(*keys, expr=expr, autograd=False)(kernel)


# ---------------------------------------------------------------------------
# Arithmetic: the generic `Scalar` overload (empty overload name) behaves the same

register("add", (*_NUMERIC, ""), lambda a, b: a + b, "{0} + {1}")
register("sub", (*_NUMERIC, ""), lambda a, b: a - b, "{0} - {1}")
register("mul", (*_NUMERIC, ""), lambda a, b: a * b, "{0} * {1}")


def _quotient_by_zero(a: Any) -> float:
    """`a / 0` in IEEE arithmetic: inf with the sign of `a`, nan for `0 / 0` (and nan / 0)."""
    if a == 0 or a != a:
        return math.nan
    return math.copysign(math.inf, a)


def true_divide(a: Any, b: Any) -> Any:
    """`a / b` as TorchScript computes it, in doubles: a real division by zero is inf or nan
    (Python would raise ZeroDivisionError)."""
    if b == 0 and type(a) is not complex and type(b) is not complex:
        return _quotient_by_zero(a) if math.copysign(1.0, b) > 0 else -_quotient_by_zero(a)
    return a / b


def floor_divide(a: Any, b: Any) -> Any:
    """`a // b`: Python's, except that a float division by zero is TorchScript's
    `floor(a / 0.0)` (inf or nan); an int division by zero raises, as in TorchScript."""
    if b == 0 and (type(a) is float or type(b) is float):
        return true_divide(float(a), float(b))
    return a // b


def remainder(a: Any, b: Any) -> Any:
    """`a % b`: Python's, except that a float remainder by zero is nan, as in TorchScript;
    an int remainder by zero raises, as in TorchScript."""
    if b == 0 and (type(a) is float or type(b) is float):
        return math.nan
    return a % b


register("div", ("complex", "int_complex", "complex_int", "float_complex", "complex_float"),
         lambda a, b: a / b, "{0} / {1}")  # fmt: skip
register("div", (*_REAL, ""), true_divide)
# ints divide by zero as Python does (both raise), so their overloads stay inlined
register("floordiv", ("int",), lambda a, b: a // b, "{0} // {1}")
register("remainder", ("int",), lambda a, b: a % b, "{0} % {1}")
register("floordiv", ("float", "int_float", "float_int", ""), floor_divide)
register("remainder", ("float", "int_float", "float_int", ""), remainder)
register("divmod", _REAL, divmod, "divmod({0}, {1})")
register("neg", ("int", "float", "complex", "Scalar"), lambda a: -a, "(-{0})")
register("__lshift__", ("int",), lambda a, b: a << b, "{0} << {1}")
register("__rshift__", ("int",), lambda a, b: a >> b, "{0} >> {1}")


def round_to_zero_floordiv(a: int, b: int) -> int:
    """C's integer division, truncating toward zero (`aten::__round_to_zero_floordiv`)."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


register("__round_to_zero_floordiv", ("int",), round_to_zero_floordiv)

# `for i in range(lo, hi, step)` loops over k in range(__range_length), i = __derive_index(k, ...)
register(
    "__range_length",
    ("",),
    lambda lo, hi, step: len(range(lo, hi, step)),
    "len(range({0}, {1}, {2}))",
)
register("__derive_index", ("",), lambda k, start, step: start + k * step, "{1} + {0} * {2}")


def pow_float(a: Any, b: Any) -> float:
    """`a ** b` as a float; a negative base to a fractional power is nan, as in TorchScript."""
    r = a**b
    if type(r) is complex:
        return math.nan
    return float(r)


def pow_scalars(a: Any, b: Any) -> Any:
    """`aten::pow.Scalar_Scalar`: a float, or Python's complex power when an operand is complex."""
    if type(a) is complex or type(b) is complex:
        return a**b
    return pow_float(a, b)


register("pow", _REAL, pow_float)
register("pow", ("Scalar_Scalar",), pow_scalars)
register("pow", ("complex", "float_complex", "complex_float"), lambda a, b: a**b, "{0} ** {1}")
# A negative exponent makes a float, as TorchScript's int_to_int also returns.
register("pow", ("int_to_int",), lambda a, b: a**b, "{0} ** {1}")

# ---------------------------------------------------------------------------
# Comparisons

_EQUALITY = ("complex", "float_complex", "complex_float", "device", "enum")
for _name, _symbol, _fn in (
    ("eq", "==", lambda a, b: a == b),
    ("ne", "!=", lambda a, b: a != b),
    ("lt", "<", lambda a, b: a < b),
    ("le", "<=", lambda a, b: a <= b),
    ("gt", ">", lambda a, b: a > b),
    ("ge", ">=", lambda a, b: a >= b),
):
    register(
        _name,
        (*_REAL, "str", "bool", "", *(_EQUALITY if _name in ("eq", "ne") else ())),
        _fn,
        f"{{0}} {_symbol} {{1}}",
    )

# ---------------------------------------------------------------------------
# Logic and identity

register("__and__", ("bool", "int"), lambda a, b: a & b, "{0} & {1}")
register("__or__", ("bool", "int"), lambda a, b: a | b, "{0} | {1}")
register("__xor__", ("bool", "int"), lambda a, b: a ^ b, "{0} ^ {1}")
register("__not__", ("",), lambda a: not a, "(not {0})")
register("__is__", ("",), lambda a, b: a is b, "{0} is {1}")
register("__isnot__", ("",), lambda a, b: a is not b, "{0} is not {1}")

# ---------------------------------------------------------------------------
# min, max and abs of numbers (prim:: in TorchScript's catalogue)

register("min", ("int",), min, "min({0}, {1})", namespace="prim")
register("max", ("int",), max, "max({0}, {1})", namespace="prim")
# Floats compare as TorchScript does (`a < b ? a : b`), which differs from Python's min and
# max where a NaN or signed zeros meet: min(0.5, nan) is nan, min(-0.0, 0.0) is 0.0. The
# mixed overloads return a float whichever argument wins.
register(
    "min",
    ("float", "int_float", "float_int"),
    lambda a, b: float(a if a < b else b),
    "float({0} if {0} < {1} else {1})",
    namespace="prim",
)
register(
    "max",
    ("float", "int_float", "float_int"),
    lambda a, b: float(a if a > b else b),
    "float({0} if {0} > {1} else {1})",
    namespace="prim",
)
# Scalar: Python's min/max, which return the winning argument unconverted.
register("min", ("",), min, "min({0}, {1})", namespace="prim")
register("max", ("",), max, "max({0}, {1})", namespace="prim")
register("abs", ("int", "float", "complex", "Scalar"), abs, "abs({0})", namespace="prim")

# ---------------------------------------------------------------------------
# Conversions between numbers, strings and one-element tensors

# int(inf) is an OverflowError and int(nan) a ValueError, as in Python.
register("Int", ("float", "Scalar", "bool", "str", "Tensor"), int, "int({0})")
register("Float", ("int", "Scalar", "bool", "str", "Tensor"), float, "float({0})")
register("Bool", ("int", "float", "Tensor"), bool, "bool({0})")
register("Complex", ("Scalar",), complex, "complex({0})")
register(
    "Complex",
    (
        "int_bool",
        "bool_int",
        "float_bool",
        "bool_float",
        "float_int",
        "int_float",
        "int_int",
        "bool_bool",
        "float_float",
    ),
    complex,
    "complex({0}, {1})",
)
register("item", ("",), lambda t: t.item(), "{0}.item()")


def _number(x: Any) -> Any:
    return x.item() if isinstance(x, Tensor) else x


def complex_of_tensors(a: Any, b: Any) -> complex:
    """`complex(a, b)` where either part may be a one-element tensor."""
    return complex(_number(a), _number(b))


register(
    "Complex",
    (
        "Tensor_Tensor",
        "Tensor_float",
        "float_Tensor",
        "Tensor_int",
        "int_Tensor",
        "Tensor_bool",
        "bool_Tensor",
    ),
    complex_of_tensors,
)


def _check_implicit(t: Tensor, *, integral: bool = False) -> None:
    """TorchScript's checks where a tensor is passed for a number argument."""
    if t.requires_grad:
        raise TensorError("Cannot input a tensor that requires grad as a scalar argument")
    if t._data.ndim != 0:
        raise TensorError("Cannot input a tensor of dimension other than 0 as a scalar argument")
    if integral and t._data.dtype.kind not in "iu":
        raise TensorError(
            f"Cannot input a tensor of type {t.dtype.scalar_type.name} as an integral argument"
        )


def int_implicit(t: Tensor) -> int:
    _check_implicit(t, integral=True)
    return int(t._data.item())


def float_implicit(t: Tensor) -> float:
    _check_implicit(t)
    return float(t._data.item())


def complex_implicit(t: Tensor) -> complex:
    _check_implicit(t)
    return complex(t._data.item())


def scalar_implicit(t: Tensor) -> Any:
    _check_implicit(t)
    return t._data.item()


register("IntImplicit", ("",), int_implicit)
register("FloatImplicit", ("",), float_implicit)
register("ComplexImplicit", ("",), complex_implicit)
register("ScalarImplicit", ("",), scalar_implicit)
