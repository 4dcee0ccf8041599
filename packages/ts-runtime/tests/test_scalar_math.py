"""The `math` module on numbers: overloads by argument type, result types, domain errors, rounding."""

from __future__ import annotations

import cmath
import math

import pytest
import ts_ir
import ts_runtime
from ts_runtime import call
from ts_schema import registry


def kernel(key: str):
    return registry.get(key).impl


def run(ir: str, *args):
    return ts_runtime.Function("f", ts_ir.parse_ir(ir), optimize=False)(*args)


@pytest.mark.parametrize(
    ("name", "fn"),
    [
        ("sqrt", math.sqrt),
        ("exp", math.exp),
        ("log", math.log),
        ("log10", math.log10),
        ("log1p", math.log1p),
        ("expm1", math.expm1),
        ("sin", math.sin),
        ("cos", math.cos),
        ("tan", math.tan),
        ("atan", math.atan),
        ("sinh", math.sinh),
        ("cosh", math.cosh),
        ("tanh", math.tanh),
        ("asinh", math.asinh),
        ("erf", math.erf),
        ("erfc", math.erfc),
        ("gamma", math.gamma),
        ("lgamma", math.lgamma),
        ("degrees", math.degrees),
        ("radians", math.radians),
        ("fabs", math.fabs),
    ],
)
def test_unary_functions_of_ints_and_floats(name, fn):
    for key, x in [(f"aten::{name}.int", 3), (f"aten::{name}.float", 0.75)]:
        got = kernel(key)(x)
        assert got == fn(x) and type(got) is float, key
    # the eager call resolves the overload from the value
    assert call(f"aten::{name}", 0.5) == fn(0.5)


@pytest.mark.parametrize("name", ["sqrt", "exp", "log", "sin", "cos", "tanh", "acos", "atanh"])
def test_complex_overloads_use_cmath(name):
    z = 0.5 + 0.25j
    assert kernel(f"aten::{name}.complex")(z) == getattr(cmath, name)(z)
    # the Scalar overload picks by the argument's type
    assert kernel(f"aten::{name}.Scalar")(z) == getattr(cmath, name)(z)
    assert kernel(f"aten::{name}.Scalar")(0.5) == getattr(math, name)(0.5)


@pytest.mark.parametrize(
    ("key", "x", "error"),
    [
        ("aten::sqrt.float", -1.0, ValueError),
        ("aten::log.float", 0.0, ValueError),
        ("aten::log.int", -2, ValueError),
        ("aten::acos.float", 2.0, ValueError),
        ("aten::exp.float", 1000.0, OverflowError),
        ("aten::gamma.int", 0, ValueError),
        ("aten::factorial.int", -1, ValueError),
    ],
)
def test_domain_errors_are_pythons(key, x, error):
    # TorchScript returns nan or inf here; tsjit raises what Python's math raises
    with pytest.raises(error):
        kernel(key)(x)


def test_floor_and_ceil_are_ints():
    for key, x, expected in [
        ("aten::floor.float", -2.5, -3),
        ("aten::floor.int", 7, 7),
        ("aten::floor.Scalar", 2.5, 2),
        ("aten::ceil.float", 2.1, 3),
        ("aten::ceil.Scalar", -2.5, -2),
    ]:
        got = kernel(key)(x)
        assert got == expected and type(got) is int, key
    with pytest.raises(OverflowError):
        kernel("aten::floor.float")(math.inf)


@pytest.mark.parametrize(
    ("x", "expected"),
    [(2.5, 2.0), (3.5, 4.0), (-2.5, -2.0), (0.5, 0.0), (-3.7, -4.0), (1.5, 2.0), (7.0, 7.0)],
)
def test_round_is_a_float_rounded_half_to_even(x, expected):
    got = run(
        """
graph(%x : float):
  %r : float = aten::round(%x)
  return (%r)
""",
        x,
    )
    assert got == expected and type(got) is float


def test_round_keeps_infinities_and_nan():
    f = kernel("aten::round.float")
    assert f(math.inf) == math.inf
    assert math.isnan(f(math.nan))
    assert math.copysign(1.0, f(-0.25)) == -1.0
    assert kernel("aten::round.int")(3) == 3.0 and type(kernel("aten::round.int")(3)) is float
    assert kernel("aten::round.Scalar")(2.5) == 2.0


def test_angle():
    f = kernel("aten::angle.float")
    assert f(-1.0) == math.pi and f(2.0) == 0.0 and f(-0.0) == 0.0
    assert math.isnan(f(math.nan))
    assert kernel("aten::angle.int")(-3) == math.pi
    assert kernel("aten::angle.complex")(1j) == math.pi / 2


def test_predicates():
    assert kernel("aten::isnan.float")(math.nan) is True
    assert kernel("aten::isnan.complex")(complex(0, math.nan)) is True
    assert kernel("aten::isinf.float")(-math.inf) is True
    assert kernel("aten::isfinite.complex")(1 + 1j) is True


def test_binary_functions():
    assert call("aten::atan2", 1, 1) == math.atan2(1, 1)
    assert call("aten::copysign", 3, -1) == -3.0
    assert call("aten::fmod", -7, 3) == -1.0
    assert call("aten::mathremainder", 7, 2) == -1.0
    assert call("aten::gcd", -4, 6) == 2
    assert call("aten::factorial", 5) == 120
    assert kernel("aten::log.int_int")(8, 2) == 3.0
    assert kernel("aten::log.complex_int")(-1 + 0j, 2) == cmath.log(-1 + 0j, 2)
    assert kernel("aten::polar.float")(2.0, 0.0) == 2 + 0j
    assert kernel("aten::ldexp")(0.75, 3) == 6.0
    assert kernel("aten::frexp")(6.0) == (0.75, 3)
    assert kernel("aten::modf")(-2.5) == (-0.5, -2.0)
    with pytest.raises(ValueError):
        call("aten::fmod", 1.0, 0.0)


def test_math_in_a_graph():
    ir = """
graph(%a : float, %b : int):
  %s : float = aten::sqrt(%a)
  %f : int = aten::floor(%a)
  %l : float = aten::log(%b)
  %r : (float, int, float) = prim::TupleConstruct(%s, %f, %l)
  return (%r)
"""
    assert run(ir, 6.25, 1) == (2.5, 6, 0.0)
