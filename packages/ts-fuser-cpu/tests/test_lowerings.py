"""Every CPU lowering against the interpreter, on the same subgraph and inputs.

Arithmetic, comparisons, selections and conversions must agree exactly,
special values included (NaN, infinities, signed zeros, integer extremes).
Transcendental functions agree within a few ulp (the fuser's float32
functions are within an ulp of the exact result, numpy's within ~3.3).
"""

from __future__ import annotations

import numpy as np
import pytest
from fuser_testing import fused, interpreted, ulp_distance
from ts_fuser_cpu import UnsupportedFusionError

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")  # NaNs the interpreter makes

rng = np.random.default_rng(1234)

SPECIALS = np.array([0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0, np.inf, -np.inf, np.nan, 1e-40, 7.0])


def floats(dtype, n=300, scale=4.0):
    a = (rng.standard_normal(n) * scale).astype(dtype)
    a[: len(SPECIALS)] = SPECIALS.astype(dtype)
    return a


def ints(dtype, n=300, low=-50, high=50):
    a = rng.integers(low, high, n).astype(dtype)
    info = np.iinfo(dtype)
    a[:4] = [info.min, info.max, 0, -1]
    return a


def bools(n=300):
    return rng.random(n) < 0.5


def data(kind: str, n=300):
    if kind in ("f4", "f8"):
        return floats(np.dtype(kind), n)
    if kind in ("i4", "i8"):
        return ints(np.dtype(kind), n)
    return bools(n)


def assert_same(got, want, *, ulps=0):
    assert got is not None, "the kernel fell back"
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        assert g.dtype == w.dtype, (g.dtype, w.dtype)
        assert g.shape == w.shape
        if g.dtype.kind == "f":
            d = ulp_distance(g, w)
            if ulps == 0:
                # signed zeros count as equal where numpy itself is not consistent about them
                d = np.where((g == 0) & (w == 0), 0, d)
            bad = d > ulps
            assert not bad.any(), (
                f"{np.count_nonzero(bad)} elements differ: got {g[bad][:5]}, want {w[bad][:5]}"
            )
        else:
            np.testing.assert_array_equal(g, w)


BINARY = [
    ("aten::add", "(%a, %b, %one)"),
    ("aten::sub", "(%a, %b, %one)"),
    ("aten::add", "(%a, %b, %two)"),
    ("aten::rsub", "(%a, %b, %two)"),
    ("aten::mul", "(%a, %b)"),
    ("aten::maximum", "(%a, %b)"),
    ("aten::minimum", "(%a, %b)"),
    ("aten::max", "(%a, %b)"),
    ("aten::min", "(%a, %b)"),
    ("aten::eq", "(%a, %b)"),
    ("aten::ne", "(%a, %b)"),
    ("aten::lt", "(%a, %b)"),
    ("aten::le", "(%a, %b)"),
    ("aten::gt", "(%a, %b)"),
    ("aten::ge", "(%a, %b)"),
]


def binary_graph(op: str, args: str) -> str:
    return (
        "graph(%a : Tensor, %b : Tensor):\n"
        "  %one : int = prim::Constant[value=1]()\n"
        "  %two : int = prim::Constant[value=2]()\n"
        f"  %r : Tensor = {op}{args}\n"
        "  return (%r)\n"
    )


@pytest.mark.parametrize("op,args", BINARY, ids=[f"{o}{a}" for o, a in BINARY])
@pytest.mark.parametrize(
    "kinds", [("f4", "f4"), ("f8", "f8"), ("i8", "i8"), ("i4", "i8"), ("f4", "i4"), ("f8", "f4")]
)
def test_binary_matches_interpreter(op, args, kinds):
    g = binary_graph(op, args)
    a, b = data(kinds[0]), data(kinds[1])
    if kinds[0] != kinds[1] and "%two" in args:
        # the interpreter scales an int32 operand by alpha in int32 (wrapping at the extremes);
        # PyTorch and the fuser scale in the promoted dtype
        a, b = a[4:], b[4:]
    assert_same(fused(g, a, b), interpreted(g, a, b))


@pytest.mark.parametrize("op", ["aten::maximum", "aten::minimum"])
@pytest.mark.parametrize("kind", ["f4", "f8"])
def test_maximum_and_minimum_of_equal_zeros_take_the_second_as_numpy(op, kind):
    # the sign of the zero shows in 1 / result: numpy picks the second of equal operands
    a = np.array([-0.0, 0.0, -0.0, 0.0] * 5, dtype=kind)
    b = np.array([0.0, -0.0, -0.0, 0.0] * 5, dtype=kind)
    g = binary_graph(op, "(%a, %b)")
    (got,) = fused(g, a, b)
    (want,) = interpreted(g, a, b)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))
    np.testing.assert_array_equal(np.signbit(got), np.signbit(b))


@pytest.mark.parametrize(
    "op",
    ["aten::add", "aten::mul", "aten::maximum", "aten::eq", "aten::logical_xor", "aten::__and__"],
)
def test_bool_operands(op):
    args = "(%a, %b, %one)" if op == "aten::add" else "(%a, %b)"
    g = binary_graph(op, args)
    a, b = bools(), bools()
    assert_same(fused(g, a, b), interpreted(g, a, b))


@pytest.mark.parametrize("kinds", [("f4", "f4"), ("f8", "f8"), ("i8", "i8"), ("i4", "f4")])
def test_division(kinds):
    g = binary_graph("aten::div", "(%a, %b)")
    a, b = data(kinds[0]), data(kinds[1])
    if kinds[1].startswith("i"):
        b[b == 0] = 3
    assert_same(fused(g, a, b), interpreted(g, a, b))


@pytest.mark.parametrize("mode", ["trunc", "floor"])
@pytest.mark.parametrize("kind", ["f4", "f8", "i4", "i8"])
def test_rounding_division(mode, kind):
    g = (
        "graph(%a : Tensor, %b : Tensor):\n"
        f'  %m : str = prim::Constant[value="{mode}"]()\n'
        "  %r : Tensor = aten::div(%a, %b, %m)\n"
        "  return (%r)\n"
    )
    a, b = data(kind), data(kind)
    if kind.startswith("i"):
        b[b == 0] = 7
        b[5] = -1  # the minimum over -1 wraps instead of trapping
    assert_same(fused(g, a, b), interpreted(g, a, b))


@pytest.mark.parametrize("kind", ["f4", "f8", "i4", "i8"])
def test_remainder(kind):
    g = binary_graph("aten::remainder", "(%a, %b)")
    a, b = data(kind), data(kind)
    if kind.startswith("i"):
        b[b == 0] = -3
    assert_same(fused(g, a, b), interpreted(g, a, b))


def test_integer_division_by_zero_asks_for_the_interpreter():
    g = binary_graph("aten::remainder", "(%a, %b)")
    a = np.arange(40, dtype=np.int64)
    b = np.ones(40, dtype=np.int64)
    b[33] = 0
    assert fused(g, a, b) is None


@pytest.mark.parametrize("kinds", [("f4", "f4"), ("f8", "f8"), ("i8", "i8"), ("f4", "i8")])
def test_pow(kinds):
    g = binary_graph("aten::pow", "(%a, %b)")
    a = data(kinds[0])
    b = data(kinds[1])
    if kinds[1].startswith("i"):
        b = np.abs(b) % 5
    a = np.clip(a, -30, 30) if a.dtype.kind == "i" else a
    assert_same(fused(g, a, b), interpreted(g, a, b), ulps=0 if a.dtype.kind == "i" else 1)


@pytest.mark.parametrize("exponent", ["2", "0.5", "3", "-1.5"])
def test_pow_constant_exponent(exponent):
    g = (
        "graph(%a : Tensor):\n"
        f"  %e : float = prim::Constant[value={exponent}]()\n"
        "  %r : Tensor = aten::pow(%a, %e)\n"
        "  return (%r)\n"
    )
    a = np.abs(floats(np.float32))
    assert_same(fused(g, a), interpreted(g, a), ulps=1)


UNARY_EXACT = [
    "neg",
    "abs",
    "relu",
    "floor",
    "ceil",
    "trunc",
    "round",
    "sqrt",
    "rsqrt",
    "reciprocal",
    "sign",
    "square",
    "frac",
]
UNARY_MATH = ["exp", "expm1", "log", "log1p", "sin", "cos", "tan", "tanh", "sigmoid", "erf", "silu"]


def unary_graph(op: str) -> str:
    return f"graph(%a : Tensor):\n  %r : Tensor = aten::{op}(%a)\n  return (%r)\n"


@pytest.mark.parametrize("op", UNARY_EXACT)
@pytest.mark.parametrize("kind", ["f4", "f8", "i4", "i8"])
def test_unary_exact(op, kind):
    if op == "frac" and kind.startswith("i"):
        pytest.skip("frac of integers is computed in the interpreter")
    g = unary_graph(op)
    a = data(kind)
    if op in ("sqrt", "rsqrt", "reciprocal") and kind.startswith("i"):
        a = np.abs(a[4:]) + 1
    assert_same(fused(g, a), interpreted(g, a))


@pytest.mark.parametrize("op", UNARY_MATH)
@pytest.mark.parametrize("kind", ["f4", "f8", "i8"])
def test_unary_math(op, kind):
    g = unary_graph(op)
    a = data(kind, 2000)
    if op in ("log", "log1p") and kind.startswith("i"):
        a = np.abs(a[4:])
    # float32: both within an ulp or so of exact; float64: both libm-accurate
    assert_same(fused(g, a), interpreted(g, a), ulps=4)


ACTIVATIONS = [
    ("aten::gelu(%a, %none_str)", '  %none_str : str = prim::Constant[value="none"]()\n'),
    ("aten::gelu(%a, %tanh_str)", '  %tanh_str : str = prim::Constant[value="tanh"]()\n'),
    ("aten::leaky_relu(%a, %s)", "  %s : float = prim::Constant[value=0.2]()\n"),
    (
        "aten::hardtanh(%a, %lo, %hi)",
        "  %lo : float = prim::Constant[value=-0.5]()\n  %hi : float = prim::Constant[value=2.]()\n",
    ),
    (
        "aten::elu(%a, %alpha, %one, %one)",
        "  %alpha : float = prim::Constant[value=1.5]()\n  %one : int = prim::Constant[value=1]()\n",
    ),
    (
        "aten::softplus(%a, %beta, %th)",
        "  %beta : int = prim::Constant[value=2]()\n  %th : int = prim::Constant[value=5]()\n",
    ),
    (
        "aten::clamp(%a, %lo, %none)",
        "  %lo : float = prim::Constant[value=-0.5]()\n  %none : NoneType = prim::Constant()\n",
    ),
    (
        "aten::clamp(%a, %none, %hi)",
        "  %hi : int = prim::Constant[value=2]()\n  %none : NoneType = prim::Constant()\n",
    ),
    ("aten::clamp_min(%a, %lo)", "  %lo : float = prim::Constant[value=-0.5]()\n"),
    ("aten::clamp_max(%a, %hi)", "  %hi : float = prim::Constant[value=0.5]()\n"),
]


@pytest.mark.parametrize("call,consts", ACTIVATIONS, ids=[c for c, _ in ACTIVATIONS])
@pytest.mark.parametrize("kind", ["f4", "f8"])
def test_activations(call, consts, kind):
    g = f"graph(%a : Tensor):\n{consts}  %r : Tensor = {call}\n  return (%r)\n"
    a = data(kind, 1000)
    got, want = fused(g, a), interpreted(g, a)
    if "tanh" in call:
        # 1 + tanh(x) cancels for negative x: a one-ulp difference in tanh is a large relative
        # one in the result, but stays within an ulp of 1 times |x| / 2
        eps = np.finfo(a.dtype).eps
        with np.errstate(invalid="ignore"):
            close = np.abs(got[0] - want[0]) <= 4 * eps * np.abs(a)
        assert (close | (got[0] == want[0]) | (np.isnan(got[0]) & np.isnan(want[0]))).all()
        return
    assert_same(got, want, ulps=4)


@pytest.mark.parametrize("kind", ["i4", "i8"])
def test_clamp_of_integers(kind):
    g = (
        "graph(%a : Tensor):\n  %lo : int = prim::Constant[value=-5]()\n  %hi : int = prim::Constant[value=9]()\n"
        "  %r : Tensor = aten::clamp(%a, %lo, %hi)\n  return (%r)\n"
    )
    a = data(kind)
    assert_same(fused(g, a), interpreted(g, a))


def test_clamp_with_tensor_bounds():
    g = "graph(%a : Tensor, %lo : Tensor, %hi : Tensor):\n  %r : Tensor = aten::clamp(%a, %lo, %hi)\n  return (%r)\n"
    a, lo, hi = floats(np.float32), floats(np.float32), floats(np.float32)
    assert_same(fused(g, a, lo, hi), interpreted(g, a, lo, hi))


@pytest.mark.parametrize("kinds", [("f4", "f4"), ("f4", "f8"), ("i4", "i8"), ("b1", "f4")])
def test_where(kinds):
    g = "graph(%c : Tensor, %a : Tensor, %b : Tensor):\n  %r : Tensor = aten::where(%c, %a, %b)\n  return (%r)\n"
    c, a, b = bools(), data(kinds[0]), data(kinds[1])
    assert_same(fused(g, c, a, b), interpreted(g, c, a, b))


def test_where_with_scalars():
    g = (
        "graph(%c : Tensor, %a : Tensor):\n  %z : float = prim::Constant[value=0.25]()\n"
        "  %r : Tensor = aten::where(%c, %a, %z)\n  return (%r)\n"
    )
    c, a = bools(), floats(np.float32)
    assert_same(fused(g, c, a), interpreted(g, c, a))


@pytest.mark.parametrize("op", ["logical_and", "logical_or", "logical_xor"])
@pytest.mark.parametrize("kind", ["f4", "i8", "b1"])
def test_logical(op, kind):
    g = binary_graph(f"aten::{op}", "(%a, %b)")
    a, b = data(kind), data(kind)
    assert_same(fused(g, a, b), interpreted(g, a, b))


@pytest.mark.parametrize("kind", ["f4", "i4", "b1"])
def test_logical_not(kind):
    g = unary_graph("logical_not")
    a = data(kind)
    assert_same(fused(g, a), interpreted(g, a))


@pytest.mark.parametrize("op", ["bitwise_and", "bitwise_or", "bitwise_xor", "__or__", "__xor__"])
@pytest.mark.parametrize("kind", ["i4", "i8", "b1"])
def test_bitwise(op, kind):
    g = binary_graph(f"aten::{op}", "(%a, %b)")
    a, b = data(kind), data(kind)
    assert_same(fused(g, a, b), interpreted(g, a, b))


@pytest.mark.parametrize("target", [3, 4, 6, 7, 11])
@pytest.mark.parametrize("kind", ["f4", "f8", "i4", "i8", "b1"])
def test_conversions(target, kind):
    g = (
        "graph(%a : Tensor):\n"
        f"  %d : int = prim::Constant[value={target}]()\n"
        "  %f : bool = prim::Constant[value=0]()\n  %none : NoneType = prim::Constant()\n"
        "  %r : Tensor = aten::to(%a, %d, %f, %f, %none)\n  return (%r)\n"
    )
    a = data(kind)
    if kind.startswith("f") and target in (3, 4):
        a = a[np.isfinite(a) & (np.abs(a) < 1e9)]  # out-of-range conversions are undefined in C
    assert_same(fused(g, a), interpreted(g, a))


def test_type_as():
    g = "graph(%a : Tensor, %b : Tensor):\n  %r : Tensor = aten::type_as(%a, %b)\n  return (%r)\n"
    a, b = floats(np.float32), np.zeros(3, np.int64)  # b's shape does not matter
    a = a[np.isfinite(a)]
    assert_same(fused(g, a, b), interpreted(g, a, b))


@pytest.mark.parametrize(
    "scalar",
    [2, -3, 0.5, True, 1e30],
    ids=["int", "negative-int", "float", "bool", "huge-float"],
)
@pytest.mark.parametrize("kind", ["f4", "f8", "i4", "i8"])
def test_runtime_scalars(scalar, kind):
    """Numbers passed at run time promote as Python numbers do (weakly)."""
    t = {int: "int", float: "float", bool: "bool"}[type(scalar)]
    g = (
        f"graph(%a : Tensor, %s : {t}):\n  %one : int = prim::Constant[value=1]()\n"
        "  %x : Tensor = aten::mul(%a, %s)\n  %r : Tensor = aten::add(%x, %s, %one)\n  return (%r)\n"
    )
    a = data(kind)
    if kind.startswith("i") and isinstance(scalar, float):
        a = a[4:]  # the interpreter's int -> float promotion, without the extremes' rounding
    assert_same(fused(g, a, scalar), interpreted(g, a, scalar))


def test_a_float_alpha_with_int_operands_is_not_lowered():
    # PyTorch refuses a float alpha for integral tensors; the lowering must refuse the node
    # with its own error (the interpreter then raises PyTorch's), not fail on a TypeError
    g = binary_graph("aten::add", "(%a, %b, %half)").replace(
        "  %r :", "  %half : float = prim::Constant[value=0.5]()\n  %r :"
    )
    a, b = ints(np.dtype("i8")), ints(np.dtype("i8"))
    with pytest.raises(UnsupportedFusionError, match="alpha of dtype float64 with Long"):
        fused(g, a, b)
