"""Operators on Python numbers and booleans: arithmetic, comparisons, logic, conversions, math.

Each kernel is the Python operation itself, with TorchScript's error
messages where Python's differ. Where a single Python expression computes
exactly the same thing, it is registered with `expr=` and the interpreter
inlines it: `aten::add.int` runs as `a + b` with no call at all. Python's own
semantics apply to ints (unbounded, floor division and modulo rounding toward
negative infinity, as TorchScript's `//` and `%` on ints also do).
"""

from __future__ import annotations

import math
import operator
from typing import Any

from ..tensor import TensorError
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


def _keys(name: str, *overloads: str) -> tuple[str, ...]:
    return tuple(f"aten::{name}.{o}" if o else f"aten::{name}" for o in overloads)


def _existing(keys: tuple[str, ...]) -> tuple[str, ...]:
    from ts_schema import registry

    return tuple(k for k in keys if registry.find(k) is not None)


def _register(name: str, overloads: tuple[str, ...], expr: str | None, kernel: Any) -> None:
    keys = _existing(_keys(name, *overloads))
    if keys:
        implements(*keys, expr=expr)(kernel)


# arithmetic: the generic `Scalar` overload (empty overload name) behaves the same
_register("add", (*_NUMERIC, ""), "{0} + {1}", operator.add)
_register("sub", (*_NUMERIC, ""), "{0} - {1}", operator.sub)
_register("mul", (*_NUMERIC, ""), "{0} * {1}", operator.mul)


def _div(a: Any, b: Any) -> float:
    if b == 0:
        raise ZeroDivisionError("float division by zero")
    return a / b


_register("div", (*_NUMERIC, ""), None, _div)


def _floordiv(a: Any, b: Any) -> Any:
    if b == 0:
        raise ZeroDivisionError("integer division or modulo by zero")
    return a // b


def _remainder(a: Any, b: Any) -> Any:
    if b == 0:
        raise ZeroDivisionError("integer division or modulo by zero")
    return a % b


_register("floordiv", ("int", "float", "int_float", "float_int", ""), None, _floordiv)
_register("remainder", ("int", "float", "int_float", "float_int", ""), None, _remainder)
_register("neg", ("int", "float", "complex", "Scalar"), "(-{0})", lambda a: -a)


def _pow_float(a: Any, b: Any) -> float:
    return float(a**b)


_register("pow", ("int", "float", "int_float", "float_int", "Scalar_Scalar"), None, _pow_float)
_register("pow", ("int_to_int",), "{0} ** {1}", lambda a, b: a**b)

# comparisons
for _name, _symbol, _fn in (
    ("eq", "==", operator.eq),
    ("ne", "!=", operator.ne),
    ("lt", "<", operator.lt),
    ("le", "<=", operator.le),
    ("gt", ">", operator.gt),
    ("ge", ">=", operator.ge),
):
    _register(
        _name,
        ("int", "float", "int_float", "float_int", "str", "bool", ""),
        f"{{0}} {_symbol} {{1}}",
        _fn,
    )

# logic and identity
_register("__and__", ("bool", "int"), "{0} & {1}", lambda a, b: a & b)
_register("__or__", ("bool", "int"), "{0} | {1}", lambda a, b: a | b)
_register("__xor__", ("bool", "int"), "{0} ^ {1}", lambda a, b: a ^ b)
_register("__not__", ("",), "(not {0})", lambda a: not a)
_register("__is__", ("",), "{0} is {1}", lambda a, b: a is b)
_register("__isnot__", ("",), "{0} is not {1}", lambda a, b: a is not b)


# conversions
def _int_of(x: Any) -> int:
    if isinstance(x, float) and not math.isfinite(x):
        raise TensorError(f"cannot convert float {x} to integer")
    return int(x)


_register("Int", ("float", "Scalar", "bool"), None, _int_of)
_register("Float", ("int", "Scalar", "bool"), "float({0})", float)
_register("Bool", ("int", "float"), "bool({0})", bool)
