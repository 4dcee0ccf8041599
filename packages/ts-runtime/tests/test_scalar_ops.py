"""Operators on numbers: arithmetic, comparisons, conversions, through eager calls and the interpreter."""

from __future__ import annotations

import math

import pytest
import ts_ir
import ts_runtime
from ts_runtime import TensorError, call
from ts_runtime.ops.dispatch import INLINE
from ts_schema import registry


def run(ir: str, *args):
    """Run IR text through the interpreter, unoptimized."""
    return ts_runtime.Function("f", ts_ir.parse_ir(ir), optimize=False)(*args)


def binary(op: str, a_type: str, b_type: str, out_type: str) -> str:
    return f"""
graph(%a : {a_type}, %b : {b_type}):
  %r : {out_type} = {op}(%a, %b)
  return (%r)
"""


def kernel(key: str):
    return registry.get(key).impl


# ---------------------------------------------------------------------------
# arithmetic


@pytest.mark.parametrize(
    ("op", "a", "b", "expected"),
    [
        ("aten::add", 2, 3, 5),
        ("aten::add", 2, 0.5, 2.5),
        ("aten::add", 1j, 2, 2 + 1j),
        ("aten::sub", 2, 3.0, -1.0),
        ("aten::mul", 4, -3, -12),
        ("aten::div", 7, 2, 3.5),
        ("aten::div", 6, 3, 2.0),
        ("aten::floordiv", -7, 2, -4),
        ("aten::floordiv", 7.5, 2, 3.0),
        ("aten::remainder", -7, 3, 2),
        ("aten::remainder", 7, -3, -2),
        ("aten::remainder", -1.0, 0.75, 0.5),
        ("aten::pow", 2, 10, 1024.0),
        ("aten::pow", 2.0, -1, 0.5),
        ("aten::pow", 1j, 2, -1 + 0j),
    ],
)
def test_arithmetic_follows_python(op, a, b, expected):
    got = call(op, a, b)
    assert got == expected
    assert type(got) is type(expected)


def test_int_division_is_a_float_and_int_power_a_float():
    # TorchScript's `a / b` and `a ** b` of ints are floats (the schemas say so)
    assert run(binary("aten::div", "int", "int", "float"), 7, 2) == 3.5
    got = run(binary("aten::pow", "int", "int", "float"), 17, 2)
    assert got == 289.0 and type(got) is float


def test_int_to_int_power_keeps_ints():
    assert kernel("aten::pow.int_to_int")(3, 4) == 81
    assert type(kernel("aten::pow.int_to_int")(3, 4)) is int


def test_negative_base_to_a_fraction_is_nan():
    # Python makes a complex number; a float result can only be nan, as TorchScript gives
    assert math.isnan(call("aten::pow", -8.0, 0.5))


@pytest.mark.parametrize(
    ("op", "a", "b"),
    [
        ("aten::floordiv", 1, 0),
        ("aten::remainder", 5, 0),
        ("aten::divmod", 5, 0),
        ("aten::divmod", 5.0, 0.0),
        ("aten::pow", 0.0, -1),
        ("aten::pow", 0, -1),
    ],
)
def test_division_by_zero_raises_zero_division_error(op, a, b):
    with pytest.raises(ZeroDivisionError):
        call(op, a, b)


# What TorchScript 2.13 computes (checked there): a real division by zero in doubles.
@pytest.mark.parametrize(
    ("op", "a", "b", "expected"),
    [
        ("aten::div", 1, 0, math.inf),
        ("aten::div", -2, 0, -math.inf),
        ("aten::div", 1.0, 0.0, math.inf),
        ("aten::div", -1.0, 0.0, -math.inf),
        ("aten::div", 1.0, -0.0, -math.inf),
        ("aten::div", 0.0, 0.0, math.nan),
        ("aten::div", 3, 0.0, math.inf),
        ("aten::floordiv", 1.0, 0.0, math.inf),
        ("aten::floordiv", -1.0, 0.0, -math.inf),
        ("aten::floordiv", 0.0, 0.0, math.nan),
        ("aten::floordiv", 5.0, 0, math.inf),
        ("aten::remainder", 5.0, 0.0, math.nan),
        ("aten::remainder", 5, 0.0, math.nan),
        ("aten::remainder", 5.0, 0, math.nan),
    ],
)
def test_float_division_by_zero_is_inf_or_nan_as_in_torchscript(op, a, b, expected):
    got = call(op, a, b)
    assert type(got) is float
    assert (math.isnan(got) and math.isnan(expected)) or got == expected


def test_division_by_zero_in_the_interpreter():
    with pytest.raises(ZeroDivisionError):
        run(binary("aten::remainder", "int", "int", "int"), 3, 0)


def test_python_float_floor_division():
    # Python's 1.0 // 0.1 is 9.0 (TorchScript computes floor(1.0 / 0.1) == 10.0)
    assert call("aten::floordiv", 1.0, 0.1) == 9.0


def test_divmod():
    assert call("aten::divmod", -7, 2) == (-4, 1)
    assert call("aten::divmod", 7.5, 2.0) == (3.0, 1.5)


def test_round_to_zero_floordiv_truncates():
    f = kernel("aten::__round_to_zero_floordiv.int")
    assert [f(7, 2), f(-7, 2), f(7, -2), f(-7, -2), f(6, 3)] == [3, -3, -3, 3, 2]
    with pytest.raises(ZeroDivisionError):
        f(1, 0)


def test_range_length_and_derived_index():
    length = kernel("aten::__range_length")
    derive = kernel("aten::__derive_index")
    for lo, hi, step in [(2, 10, 3), (10, 0, -2), (0, 0, 1), (5, 1, 1), (-3, 4, 2)]:
        assert length(lo, hi, step) == len(range(lo, hi, step))
        assert [derive(k, lo, step) for k in range(length(lo, hi, step))] == list(
            range(lo, hi, step)
        )
    with pytest.raises(ValueError, match="must not be zero"):
        length(0, 5, 0)


def test_shifts_and_bitwise():
    assert call("aten::__lshift__", 3, 4) == 48
    assert call("aten::__rshift__", -16, 2) == -4
    assert call("aten::__and__", 12, 10) == 8
    assert call("aten::__or__", True, False) is True
    assert call("aten::__xor__", 12, 10) == 6
    with pytest.raises(ValueError):
        call("aten::__lshift__", 1, -1)


# ---------------------------------------------------------------------------
# comparisons and logic


@pytest.mark.parametrize(
    ("op", "a", "b", "expected"),
    [
        ("aten::lt", 1, 2.5, True),
        ("aten::ge", 2.5, 2, True),
        ("aten::eq", 2, 2.0, True),
        ("aten::ne", 1j, 1j, False),
        ("aten::gt", "b", "a", True),
        ("aten::le", "ab", "a", False),
        ("aten::eq", True, False, False),
    ],
)
def test_comparisons(op, a, b, expected):
    assert call(op, a, b) is expected


def test_identity_and_not():
    xs = [1]
    assert kernel("aten::__is__")(xs, xs) is True
    assert kernel("aten::__isnot__")(xs, [1]) is True
    assert kernel("aten::__is__")(None, None) is True
    assert call("aten::__not__", False) is True


def test_comparison_of_devices():
    cpu = ts_ir.Device("cpu")
    assert kernel("aten::eq.device")(cpu, ts_ir.Device("cpu")) is True
    assert kernel("aten::ne.device")(cpu, ts_ir.Device("cuda", 0)) is True


# ---------------------------------------------------------------------------
# min, max, abs


def test_min_max_of_numbers():
    mixed = binary("prim::max", "int", "float", "float")
    got = run(mixed, 3, 2.5)
    assert got == 3.0 and type(got) is float
    assert run(binary("prim::min", "int", "int", "int"), 3, -4) == -4
    # the generic Scalar overload returns the winning argument, as Python's min does
    assert kernel("prim::max")(3, 2.5) == 3 and type(kernel("prim::max")(3, 2.5)) is int


def test_abs():
    assert call("prim::abs", -3) == 3
    got = call("prim::abs", 3 + 4j)
    assert got == 5.0 and type(got) is float


# ---------------------------------------------------------------------------
# conversions


def test_number_conversions():
    assert call("aten::Int", 2.9) == 2
    assert call("aten::Int", -2.9) == -2
    assert call("aten::Int", True) == 1
    assert call("aten::Int", "  42 ") == 42
    assert call("aten::Float", 3) == 3.0 and type(call("aten::Float", 3)) is float
    assert call("aten::Float", "1e3") == 1000.0
    assert call("aten::Bool", 0.0) is False
    assert call("aten::Bool", -2) is True
    assert call("aten::Complex", 1, 2.5) == 1 + 2.5j


@pytest.mark.parametrize(
    ("value", "error"),
    [(math.inf, OverflowError), (math.nan, ValueError), ("3.5", ValueError), ("x", ValueError)],
)
def test_int_of_bad_values_raises_pythons_error(value, error):
    with pytest.raises(error):
        call("aten::Int", value)


def test_tensor_to_number():
    t = ts_runtime.tensor(2.75)
    assert call("aten::Float", t) == 2.75
    assert call("aten::Int", t) == 2
    assert call("aten::Bool", ts_runtime.tensor([0])) is False
    assert call("aten::item", ts_runtime.tensor([7])) == 7
    got = kernel("aten::item")(ts_runtime.tensor(True))
    assert got is True


@pytest.mark.parametrize("op", ["aten::Int", "aten::Float", "aten::Bool", "aten::item"])
def test_tensor_of_several_elements_is_not_a_number(op):
    with pytest.raises(TensorError):
        call(op, ts_runtime.tensor([1.0, 2.0]))


def test_tensor_conversion_in_a_graph():
    ir = """
graph(%t : Tensor):
  %i : int = aten::Int(%t)
  %f : float = aten::Float(%t)
  %b : bool = aten::Bool(%t)
  %r : (int, float, bool) = prim::TupleConstruct(%i, %f, %b)
  return (%r)
"""
    assert run(ir, ts_runtime.tensor([-1.5])) == (-1, -1.5, True)


def test_implicit_conversions_check_the_tensor():
    int_implicit = kernel("aten::IntImplicit")
    float_implicit = kernel("aten::FloatImplicit")
    assert int_implicit(ts_runtime.tensor(3)) == 3
    assert float_implicit(ts_runtime.tensor(2)) == 2.0
    assert kernel("aten::ScalarImplicit")(ts_runtime.tensor(1.5)) == 1.5
    assert kernel("aten::ComplexImplicit")(ts_runtime.tensor(1.5)) == 1.5 + 0j
    with pytest.raises(TensorError, match="integral"):
        int_implicit(ts_runtime.tensor(1.5))
    with pytest.raises(TensorError, match="dimension other than 0"):
        float_implicit(ts_runtime.tensor([1.5]))
    with pytest.raises(TensorError, match="requires grad"):
        float_implicit(ts_runtime.tensor(1.5, requires_grad=True))


def test_tensor_conversions_leave_autograd_history_alone():
    x = ts_runtime.tensor(1.5, requires_grad=True)
    y = x * 2
    fn = y.grad_fn
    assert call("aten::Float", y) == 3.0
    assert y.grad_fn is fn
    assert call("aten::Complex", y, x) == 3.0 + 1.5j


# ---------------------------------------------------------------------------
# inlining


def test_scalar_arithmetic_is_inlined():
    ir = """
graph(%a : int, %b : int):
  %c : int = aten::mul(%a, %b)
  %d : int = aten::floordiv(%c, %b)
  %e : bool = aten::lt(%d, %a)
  return (%e)
"""
    fn = ts_runtime.Function("f", ts_ir.parse_ir(ir), optimize=False)
    assert fn(6, 4) is False
    source = fn.code_for(6, 4).python_source
    assert "(r0 * r1)" in source and "// r1)" in source and "op" not in source


def test_every_overload_of_a_family_is_inlined():
    for key in ("aten::add.int", "aten::remainder.int", "aten::eq.str", "aten::neg.Scalar"):
        assert INLINE.lookup_operator(registry.get(key)) is not None, key


# TorchScript 2.13's prim::min/max of floats is `a < b ? a : b` (checked there): with a NaN
# or signed zeros it differs from Python's min and max, and compiled code must agree with it.
@pytest.mark.parametrize(
    ("op", "a", "b", "expected"),
    [
        ("prim::min", 0.5, math.nan, math.nan),
        ("prim::min", math.nan, 0.5, 0.5),
        ("prim::max", 0.5, math.nan, math.nan),
        ("prim::max", math.nan, 0.5, 0.5),
        ("prim::min", -0.0, 0.0, 0.0),
        ("prim::min", 0.0, -0.0, -0.0),
        ("prim::max", -0.0, 0.0, 0.0),
        ("prim::min", 1, math.nan, math.nan),
        ("prim::max", 2.5, 1, 2.5),
        ("prim::min", 2, 3, 2),
    ],
)
def test_min_and_max_of_numbers_compare_as_torchscript(op, a, b, expected):
    got = call(op, a, b)
    assert type(got) is type(expected)
    assert (math.isnan(got) and math.isnan(expected)) or (
        got == expected and math.copysign(1, got) == math.copysign(1, expected)
    )
    # and the same through the interpreter, which inlines the expression
    t = {int: "int", float: "float"}
    ir = binary(op, t[type(a)], t[type(b)], t[type(expected)])
    again = run(ir, a, b)
    assert (math.isnan(again) and math.isnan(expected)) or again == expected
