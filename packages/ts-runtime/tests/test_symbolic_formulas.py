"""Derivative formulas that run symbolically: each writes a backward graph that computes the
right gradient.

For each operator below, a two-node program (`op`, then `tanh` of its result)
runs with inputs requiring grad in float64; the plan must differentiate the
operator in a `prim::DifferentiableGraph` (its formula ran on symbolic
tensors), and the gradients must equal central finite differences. Shapes
include broadcasting, so the sums a backward graph specializes away or keeps
are both exercised.
"""

from __future__ import annotations

import numpy as np
import pytest
import ts_ir
import ts_runtime
from ts_passes import PassFailedError

T = "Tensor"

# name: (op line with %a.. inputs and constants, input shapes)
CASES: dict[str, tuple[str, list[tuple[int, ...]]]] = {
    "add": ("aten::add(%a, %b, %one)", [(3, 4), (4,)]),
    "sub": ("aten::sub(%a, %b, %one)", [(3, 1), (3, 4)]),
    "mul": ("aten::mul(%a, %b)", [(2, 3), (2, 1)]),
    "div": ("aten::div(%a, %b)", [(2, 3), (2, 3)]),
    "pow": ("aten::pow(%a, %two)", [(2, 3)]),
    "sigmoid": ("aten::sigmoid(%a)", [(2, 3)]),
    "exp": ("aten::exp(%a)", [(2, 3)]),
    "relu": ("aten::relu(%a)", [(3, 3)]),
    "gelu": ("aten::gelu(%a, %none_s)", [(2, 3)]),
    "mm": ("aten::mm(%a, %b)", [(2, 3), (3, 4)]),
    "matmul_batched": ("aten::matmul(%a, %b)", [(2, 3, 4), (4, 5)]),
    "linear": ("aten::linear(%a, %b, %c)", [(2, 3, 4), (5, 4), (5,)]),
    "t": ("aten::t(%a)", [(2, 3)]),
    "transpose": ("aten::transpose(%a, %zero, %one)", [(2, 3, 4)]),
    "reshape": ("aten::reshape(%a, %shape)", [(2, 6)]),
    "expand": ("aten::expand(%a, %eshape, %false)", [(3, 1)]),
    "select": ("aten::select(%a, %one, %one)", [(2, 3)]),
    "sum_dim": ("aten::sum(%a, %dims, %false, %none)", [(2, 3, 4)]),
    "mean": ("aten::mean(%a, %none)", [(2, 3)]),
    "mean_dim": ("aten::mean(%a, %dims, %true, %none)", [(2, 3, 4)]),
    "softmax": ("aten::softmax(%a, %one, %none)", [(2, 3)]),
    "layer_norm": ("aten::layer_norm(%a, %norm, %b, %c, %eps, %true)", [(2, 3, 4), (4,), (4,)]),
    "addcmul": ("aten::addcmul(%a, %b, %c, %half)", [(2, 3), (3,), (2, 1)]),
    "where": ("aten::where(%m, %a, %b)", [(2, 3), (2, 3)]),
}

CONSTANTS = """
  %zero : int = prim::Constant[value=0]()
  %one : int = prim::Constant[value=1]()
  %two : int = prim::Constant[value=2]()
  %half : float = prim::Constant[value=0.5]()
  %eps : float = prim::Constant[value=1.0000000000000001e-05]()
  %true : bool = prim::Constant[value=1]()
  %false : bool = prim::Constant[value=0]()
  %none : NoneType = prim::Constant()
  %none_s : str = prim::Constant[value="none"]()
  %shape : int[] = prim::Constant[value=[3, 4]]()
  %eshape : int[] = prim::Constant[value=[3, 5]]()
  %dims : int[] = prim::Constant[value=[0, 2]]()
  %norm : int[] = prim::Constant[value=[4]]()
"""


def _program(op: str, n: int) -> str:
    names = ["a", "b", "c"][:n]
    params = ", ".join(f"%{k} : {T}" for k in names)
    mask = "  %m : Tensor = aten::gt(%a, %zero)\n" if "%m" in op else ""
    return (
        f"graph({params}):{CONSTANTS}{mask}"
        f"  %y : Tensor = {op}\n"
        f"  %z : Tensor = aten::tanh(%y)\n"
        f"  return (%z)\n"
    )


def _loss(fn, arrays, cot):
    inputs = [ts_runtime.from_numpy(a.copy()) for a in arrays]
    return float((fn(*inputs).numpy() * cot).sum())


@pytest.mark.parametrize("name", sorted(CASES))
def test_formula_runs_symbolically_and_gives_the_right_gradient(name):
    op, shapes = CASES[name]
    fn = ts_runtime.Function(name, ts_ir.parse_ir(_program(op, len(shapes))))
    rng = np.random.default_rng(sum(map(ord, name)))
    arrays = [rng.uniform(0.5, 1.5, s) * rng.choice([-1, 1], s) for s in shapes]
    if name in ("div",):
        arrays[1] = np.abs(arrays[1]) + 0.5
    leaves = [ts_runtime.from_numpy(a.copy()).requires_grad_(True) for a in arrays]
    graph = fn.graph_for(*leaves)
    groups = [n for n in graph.all_nodes() if n.kind == "prim::DifferentiableGraph"]
    assert groups, f"{op} was not differentiated symbolically:\n{graph}"
    out = fn(*leaves)
    cot = rng.standard_normal(tuple(out.shape))
    (out * ts_runtime.from_numpy(cot)).sum().backward()
    eps = 1e-6
    for k, a in enumerate(arrays):
        expected = np.zeros_like(a)
        for idx in np.ndindex(a.shape):
            plus = [x.copy() for x in arrays]
            minus = [x.copy() for x in arrays]
            plus[k][idx] += eps
            minus[k][idx] -= eps
            expected[idx] = (_loss(fn, plus, cot) - _loss(fn, minus, cot)) / (2 * eps)
        np.testing.assert_allclose(
            leaves[k].grad.numpy(), expected, rtol=1e-6, atol=1e-8, err_msg=f"input {k}"
        )


# What a formula may fail with: a typed refusal (it reads data a graph does not have) leaves
# the operator to eager autograd; anything else is a bug and reaches the caller.
TANH_AFTER_MUL = "graph(%a : Tensor, %b : Tensor):\n  %y : Tensor = aten::mul(%a, %b)\n  %z : Tensor = aten::tanh(%y)\n  return (%z)\n"


def _with_tanh_formula(monkeypatch, formula):
    from ts_runtime.ops.dispatch import DERIVATIVES

    original = DERIVATIVES.lookup_operator

    def lookup(op):
        return formula if op.key == "aten::tanh" else original(op)

    monkeypatch.setattr(DERIVATIVES, "lookup_operator", lookup)


def _leaves():
    rng = np.random.default_rng(3)
    return [ts_runtime.from_numpy(rng.standard_normal((2, 3))).requires_grad_(True) for _ in "ab"]


def test_a_formula_reading_data_leaves_its_operator_to_eager_autograd(monkeypatch):
    def reads_data(grad, self, *, result):
        return (grad * ts_runtime.from_numpy(1.0 - np.asarray(result._data) ** 2),)

    reads_data.saves = ("result",)
    _with_tanh_formula(monkeypatch, reads_data)
    fn = ts_runtime.Function("f", ts_ir.parse_ir(TANH_AFTER_MUL))
    a, b = _leaves()
    graph = fn.graph_for(a, b)
    for group in [n for n in graph.all_nodes() if n.kind == "prim::DifferentiableGraph"]:
        assert "aten::tanh" not in str(group.g("Subgraph"))
    fn(a, b).sum().backward()
    y = np.tanh(a.detach().numpy() * b.detach().numpy())
    np.testing.assert_allclose(a.grad.numpy(), (1 - y**2) * b.detach().numpy(), rtol=1e-12)


def test_a_bug_in_a_formula_is_not_taken_for_a_refusal(monkeypatch):
    def buggy(grad, self, *, result):
        return (grad * result.no_such_method(),)

    buggy.saves = ("result",)
    _with_tanh_formula(monkeypatch, buggy)
    fn = ts_runtime.Function("f", ts_ir.parse_ir(TANH_AFTER_MUL))
    a, b = _leaves()
    with pytest.raises(PassFailedError, match=r"AttributeError: .*no_such_method"):
        fn.graph_for(a, b)
