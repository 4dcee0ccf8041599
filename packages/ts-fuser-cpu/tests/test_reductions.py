"""Reductions over the innermost dimension and the operators built from them (softmax,
log_softmax, layer_norm), fused with pointwise work before and after, against the interpreter's
kernels: hypothesis draws shapes (rank 1 to 4, rows of 1 to 70 elements: vector tails included),
layouts (contiguous, transposed, strided along the row, sliced) and broadcasts of a second
operand (whole, per element of the row, per row). Sums reassociate (vector lanes of partial
sums), so results agree to rounding: a few ulp of float32, 1e-12 in float64. NaN and infinities
propagate as in the interpreter.
"""

from __future__ import annotations

import numpy as np
import pytest
from fuser_testing import fused, interpreted
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ts_fuser_cpu import UnsupportedFusionError

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

HEADER = """graph(%x : Tensor, %y : Tensor, %w : Tensor, %b : Tensor):
  %last : int = prim::Constant[value=-1]()
  %dims : int[] = prim::Constant[value=[-1]]()
  %true : bool = prim::Constant[value=1]()
  %none : NoneType = prim::Constant()
  %one : int = prim::Constant[value=1]()
  %eps : float = prim::Constant[value=1e-05]()
  %n : int[] = prim::Constant[value=[N]]()
"""

PROGRAMS = {
    "softmax": """
  %a : Tensor = aten::mul(%x, %y)
  %c : Tensor = aten::add(%a, %y, %one)
  %s : Tensor = aten::softmax(%c, %last, %none)
  return (%s)
""",
    "log_softmax_and_input": """
  %s : Tensor = aten::log_softmax(%x, %last, %none)
  %d : Tensor = aten::mul(%x, %y)
  return (%s, %d)
""",
    "layer_norm_relu": """
  %a : Tensor = aten::add(%x, %y, %one)
  %l : Tensor = aten::layer_norm(%a, %n, %w, %b, %eps, %true)
  %r : Tensor = aten::relu(%l)
  return (%r)
""",
    "layer_norm_bare": """
  %l : Tensor = aten::layer_norm(%x, %n, %none, %none, %eps, %true)
  return (%l)
""",
    "sums_per_row": """
  %p : Tensor = aten::mul(%x, %y)
  %s : Tensor = aten::sum(%p, %dims, %true, %none)
  %m : Tensor = aten::mean(%x, %dims, %true, %none)
  %t : Tensor = aten::add(%x, %s, %one)
  return (%s, %m, %t)
""",
    "max_min": """
  %hi : Tensor = aten::amax(%x, %dims, %true)
  %lo : Tensor = aten::amin(%y, %dims, %true)
  %d : Tensor = aten::sub(%x, %hi, %one)
  %e : Tensor = aten::exp(%d)
  %f : Tensor = aten::mul(%e, %lo)
  return (%f, %lo)
""",
    "reduction_of_a_reduction": """
  %m : Tensor = aten::mean(%x, %dims, %true, %none)
  %c : Tensor = aten::sub(%x, %m, %one)
  %q : Tensor = aten::mul(%c, %c)
  %v : Tensor = aten::sum(%q, %dims, %true, %none)
  %r : Tensor = aten::div(%c, %v)
  return (%r)
""",
}


def program(name: str, n: int) -> str:
    return HEADER.replace("[N]", f"[{n}]") + PROGRAMS[name].lstrip("\n")


def layout(draw, a: np.ndarray) -> np.ndarray:
    """`a`'s values in a drawn memory layout."""
    kind = draw(st.sampled_from(["contiguous", "transposed", "row_stride", "sliced"]))
    if kind == "transposed" and a.ndim >= 2:
        return np.ascontiguousarray(np.swapaxes(a, 0, -1)).swapaxes(0, -1)
    if kind == "row_stride" and a.ndim >= 1:
        wide = np.zeros((*a.shape[:-1], 2 * a.shape[-1]), a.dtype)
        wide[..., ::2] = a
        return wide[..., ::2]
    if kind == "sliced" and a.ndim >= 2:
        tall = np.zeros((a.shape[0] + 2, *a.shape[1:]), a.dtype)
        tall[1:-1] = a
        return tall[1:-1]
    return a


@st.composite
def cases(draw):
    name = draw(st.sampled_from(sorted(PROGRAMS)))
    dtype = draw(st.sampled_from([np.float32, np.float64]))
    rank = draw(st.integers(1, 4))
    n = draw(st.integers(1, 70))
    shape = (*(draw(st.integers(1, 5)) for _ in range(rank - 1)), n)
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    x = rng.standard_normal(shape).astype(dtype) * 3
    broadcast = draw(st.sampled_from(["whole", "row_elements", "per_row"]))
    y_shape = {"whole": shape, "row_elements": (n,), "per_row": (*shape[:-1], 1)}[broadcast]
    if name in ("max_min", "sums_per_row"):
        y_shape = shape  # a reduction's input spans the group's rows
    y = rng.standard_normal(y_shape).astype(dtype)
    w = rng.standard_normal((n,)).astype(dtype)
    b = rng.standard_normal((n,)).astype(dtype)
    return name, n, [layout(draw, x), layout(draw, y), w, b]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=cases())
def test_reductions_match_the_interpreter(case):
    name, n, values = case
    g = program(name, n)
    got = fused(g, *values)
    want = interpreted(g, *values)
    assert got is not None
    tol = 2e-5 if values[0].dtype == np.float32 else 1e-11
    for a, b in zip(got, want, strict=True):
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_allclose(a, b, rtol=tol, atol=tol)


def test_special_values_propagate_as_in_the_interpreter():
    x = np.array(
        [[1.0, np.nan, 2.0, 3.0], [np.inf, 1.0, 2.0, 3.0], [-np.inf] * 4, [0.0, -0.0, 5.0, 1e30]],
        dtype=np.float32,
    )
    y = np.ones_like(x)
    for name in ("softmax", "log_softmax_and_input", "max_min", "sums_per_row"):
        g = program(name, 4)
        got = fused(g, x, y, y[0], y[0])
        want = interpreted(g, x, y, y[0], y[0])
        for a, b in zip(got, want, strict=True):
            np.testing.assert_allclose(a, b, rtol=1e-6, equal_nan=True)


@pytest.mark.parametrize(
    ("name", "shapes", "reason"),
    [
        ("layer_norm_relu", [(3, 5), (3, 5), (1,), (5,)], "weight must be"),
        ("layer_norm_relu", [(3, 4), (3, 4), (1,), (1,)], "must end in 5"),
        ("sums_per_row", [(3, 0), (3, 0), (1,), (1,)], "empty"),
    ],
)
def test_shapes_the_interpreter_rejects_are_not_compiled(name, shapes, reason):
    values = [np.ones(s, np.float32) for s in shapes]
    n = 5 if name.startswith("layer_norm") else 1
    with pytest.raises(UnsupportedFusionError, match=reason):
        fused(program(name, n), *values)


def test_a_reduction_over_another_dimension_is_not_compiled():
    g = HEADER.replace("[N]", "[3]") + (
        "  %d : int[] = prim::Constant[value=[0]]()\n"
        "  %s : Tensor = aten::sum(%x, %d, %true, %none)\n"
        "  return (%s)\n"
    )
    x = np.ones((2, 3), np.float32)
    with pytest.raises(UnsupportedFusionError, match="not the innermost"):
        fused(g, x, x, x, x)
