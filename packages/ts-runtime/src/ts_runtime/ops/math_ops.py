"""The `math` module on Python numbers: `aten::sqrt.float`, `aten::log.int_int`, `aten::gcd.int`, ...

Kernels are `math` and `cmath` functions themselves, so a call costs what
`math.sqrt(x)` costs in Python; the `int` and `float` overloads take the
`math` function, `complex` the `cmath` one, and the generic `Scalar` overload
picks by the argument's type. Domain errors are Python's: `math.sqrt(-1.0)`
raises `ValueError` where TorchScript returns nan, `math.exp(1000.0)`
raises `OverflowError` where TorchScript returns inf.
"""

from __future__ import annotations

import cmath
import math
from collections.abc import Callable
from typing import Any

from .scalars import register

_UNARY = ("int", "float")
_BINARY = ("int", "float", "int_float", "float_int")


def _by_type(real: Callable[..., Any], imaginary: Callable[..., Any] | None) -> Callable[..., Any]:
    """A `Scalar` overload's kernel: the `cmath` function for a complex argument."""
    if imaginary is None:
        return real

    def kernel(*args: Any) -> Any:
        if any(type(a) is complex for a in args):
            return imaginary(*args)
        return real(*args)

    kernel.__name__ = real.__name__
    kernel.__doc__ = f"`math.{real.__name__}`, or `cmath.{real.__name__}` of a complex number."
    return kernel


# name: (math function, cmath function or None)
_FUNCTIONS: dict[str, tuple[Callable[..., Any], Callable[..., Any] | None]] = {
    "sqrt": (math.sqrt, cmath.sqrt),
    "exp": (math.exp, cmath.exp),
    "log": (math.log, cmath.log),
    "log10": (math.log10, cmath.log10),
    "log1p": (math.log1p, None),
    "expm1": (math.expm1, None),
    "sin": (math.sin, cmath.sin),
    "cos": (math.cos, cmath.cos),
    "tan": (math.tan, cmath.tan),
    "asin": (math.asin, cmath.asin),
    "acos": (math.acos, cmath.acos),
    "atan": (math.atan, cmath.atan),
    "sinh": (math.sinh, cmath.sinh),
    "cosh": (math.cosh, cmath.cosh),
    "tanh": (math.tanh, cmath.tanh),
    "asinh": (math.asinh, cmath.asinh),
    "acosh": (math.acosh, cmath.acosh),
    "atanh": (math.atanh, cmath.atanh),
    "erf": (math.erf, None),
    "erfc": (math.erfc, None),
    "gamma": (math.gamma, None),
    "lgamma": (math.lgamma, None),
    "degrees": (math.degrees, None),
    "radians": (math.radians, None),
    "fabs": (math.fabs, None),
}

for _name, (_real, _imaginary) in _FUNCTIONS.items():
    register(_name, _UNARY, _real)
    if _imaginary is not None:
        register(_name, ("complex",), _imaginary)
    register(_name, ("Scalar",), _by_type(_real, _imaginary))

# floor and ceil give ints; math.floor of an int is the int itself
register("floor", ("int", "float", "Scalar"), math.floor)
register("ceil", ("int", "float", "Scalar"), math.ceil)


def round_half_even(a: Any) -> float:
    """TorchScript's `round`: a float, ties to even (`round(2.5)` is 2.0); inf and nan stay."""
    return round(a, 0) if type(a) is float else float(a)


register("round", ("float",), round_half_even, "round({0}, 0)")
register("round", ("int",), float, "float({0})")
register("round", ("Scalar",), round_half_even)


def angle(a: Any) -> float:
    """The argument of a number: pi for negative reals, 0 otherwise (nan stays nan)."""
    if type(a) is complex:
        return cmath.phase(a)
    if a != a:
        return a
    return math.pi if a < 0 else 0.0


register("angle", ("int", "float", "complex", "Scalar"), angle)

register("isnan", ("float",), math.isnan)
register("isnan", ("complex",), cmath.isnan)
register("isinf", ("float",), math.isinf)
register("isinf", ("complex",), cmath.isinf)
register("isfinite", ("float",), math.isfinite)
register("isfinite", ("complex",), cmath.isfinite)

# log with a base
register("log", ("int_int", "float_float", "int_float", "float_int"), math.log)
register(
    "log",
    ("complex_complex", "int_complex", "complex_int", "float_complex", "complex_float"),
    cmath.log,
)
register("log", ("Scalar_Scalar",), _by_type(math.log, cmath.log))

register("atan2", (*_BINARY, "Scalar_Scalar"), math.atan2)
register("copysign", (*_BINARY, ""), math.copysign)
register("fmod", (*_BINARY, ""), math.fmod)
register("mathremainder", (*_BINARY, ""), math.remainder)
register("polar", (*_BINARY, "Scalar_Scalar"), cmath.rect)
register("gcd", ("int",), math.gcd)
register("factorial", ("int",), math.factorial)
register("ldexp", ("",), math.ldexp)
register("frexp", ("",), math.frexp)
register("modf", ("",), math.modf)
