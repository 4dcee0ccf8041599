"""Differentiable graphs at run time: gradients through `f` and `df`, and the autograd node.

Programs are IR text run by `ts_runtime.Function`, whose executor makes
differentiable graphs when inputs require grad. Gradients are checked
against finite differences and closed forms computed with numpy (never
against the runtime's own eager autograd alone), in float64.
"""

from __future__ import annotations

import numpy as np
import pytest
import ts_ir
import ts_runtime
from ts_runtime import Function, TensorError
from ts_runtime.autodiff import AutodiffStats, DifferentiableGraphOp, ops_for

D = "Double(*, *, device=cpu)"

TANH_MM = f"""
graph(%x : {D}, %w : {D}, %b : Double(*, device=cpu)):
  %one : int = prim::Constant[value=1]()
  %t : Tensor = aten::t(%w)
  %h : Tensor = aten::mm(%x, %t)
  %a : Tensor = aten::add(%h, %b, %one)
  %y : Tensor = aten::tanh(%a)
  %z : Tensor = aten::mul(%y, %y)
  return (%y, %z)
"""


def _f(text: str = TANH_MM) -> Function:
    return Function("f", ts_ir.parse_ir(text))


def _inputs(rng, *shapes, requires_grad=True):
    return [
        ts_runtime.from_numpy(rng.standard_normal(s)).requires_grad_(requires_grad) for s in shapes
    ]


def _numpy_tanh_mm(x, w, b):
    y = np.tanh(x @ w.T + b)
    return y, y * y


def _loss_np(arrays, cy, cz):
    y, z = _numpy_tanh_mm(*arrays)
    return float((y * cy).sum() + (z * cz).sum())


def _finite_differences(fn, arrays, eps=1e-6):
    grads = []
    for k, a in enumerate(arrays):
        g = np.zeros_like(a)
        for idx in np.ndindex(a.shape):
            plus = [x.copy() for x in arrays]
            minus = [x.copy() for x in arrays]
            plus[k][idx] += eps
            minus[k][idx] -= eps
            g[idx] = (fn(plus) - fn(minus)) / (2 * eps)
        grads.append(g)
    return grads


def test_the_plan_holds_a_differentiable_graph_and_its_gradients_are_right():
    rng = np.random.default_rng(0)
    fn = _f()
    x, w, b = _inputs(rng, (3, 4), (5, 4), (5,))
    cy, cz = rng.standard_normal((3, 5)), rng.standard_normal((3, 5))
    graph = fn.graph_for(x, w, b)
    nodes = [n for n in graph.all_nodes() if n.kind == "prim::DifferentiableGraph"]
    assert len(nodes) == 1
    before = AutodiffStats.backward_runs
    y, z = fn(x, w, b)
    loss = (y * ts_runtime.from_numpy(cy)).sum() + (z * ts_runtime.from_numpy(cz)).sum()
    loss.backward()
    assert AutodiffStats.backward_runs == before + 1
    arrays = [x.detach().numpy(), w.detach().numpy(), b.detach().numpy()]
    expected = _finite_differences(lambda a: _loss_np(a, cy, cz), arrays)
    for t, e in zip((x, w, b), expected, strict=True):
        np.testing.assert_allclose(t.grad.numpy(), e, rtol=1e-6, atol=1e-8)


def test_an_output_nothing_flows_into_gets_a_zero_gradient():
    rng = np.random.default_rng(1)
    fn = _f()
    x, w, b = _inputs(rng, (2, 3), (4, 3), (4,))
    y, _ = fn(x, w, b)
    y.sum().backward()
    # d/dx sum(tanh(x w^T + b)) = (1 - y^2) w
    yv = y.detach().numpy()
    np.testing.assert_allclose(x.grad.numpy(), (1 - yv * yv) @ w.detach().numpy(), rtol=1e-12)
    np.testing.assert_allclose(b.grad.numpy(), (1 - yv * yv).sum(0), rtol=1e-12)


def test_double_backward_matches_the_analytic_second_derivative():
    text = f"""
graph(%x : {D}):
  %y : Tensor = aten::tanh(%x)
  %z : Tensor = aten::mul(%y, %x)
  return (%z)
"""
    rng = np.random.default_rng(2)
    (x,) = _inputs(rng, (3, 2))
    fn = _f(text)
    (g,) = ts_runtime.autograd.grad(fn(x).sum(), [x], create_graph=True)
    (h,) = ts_runtime.autograd.grad(g.sum(), [x])
    xv = x.detach().numpy()
    t = np.tanh(xv)
    s = 1 - t * t  # tanh'
    np.testing.assert_allclose(g.detach().numpy(), t + xv * s, rtol=1e-12)
    # d/dx (t + x s) = s + s + x * (-2 t s)
    np.testing.assert_allclose(h.numpy(), 2 * s - 2 * xv * t * s, rtol=1e-10)


def test_no_autograd_node_when_no_input_takes_part_in_autograd():
    rng = np.random.default_rng(3)
    fn = _f()
    x, w, b = _inputs(rng, (2, 3), (4, 3), (4,))
    fn(x, w, b)  # plan with differentiable graphs
    y, z = fn(*(t.detach() for t in (x, w, b)))
    assert not y.requires_grad and not z.requires_grad
    with ts_runtime.no_grad():
        y, _ = fn(x, w, b)
    assert not y.requires_grad


def test_saved_inputs_modified_in_place_are_refused_at_backward():
    text = f"""
graph(%x : {D}, %w : {D}):
  %h : Tensor = aten::mul(%x, %w)
  %y : Tensor = aten::tanh(%h)
  return (%y)
"""
    rng = np.random.default_rng(4)
    a, w = _inputs(rng, (2, 2), (2, 2))
    x = a * 1.0  # not a leaf: in-place writes are allowed
    y = _f(text)(x, w)
    x.add_(1.0)
    with pytest.raises(TensorError, match="modified by an inplace operation"):
        y.sum().backward()


def test_a_second_backward_without_retain_graph_is_refused():
    rng = np.random.default_rng(5)
    x, w, b = _inputs(rng, (2, 3), (4, 3), (4,))
    y, _ = _f()(x, w, b)
    loss = y.sum()
    loss.backward(retain_graph=True)
    loss.backward()
    with pytest.raises(TensorError, match="backward through the graph a second time"):
        loss.backward()


def test_debug_state_shows_forward_and_backward_executors():
    rng = np.random.default_rng(6)
    fn = _f()
    x, w, b = _inputs(rng, (2, 3), (4, 3), (4,))
    y, z = fn(x, w, b)
    (z.sum() + y.sum()).backward()
    plans = fn.executor.debug_state()
    (op,) = [op for plan in plans for op in ops_for(plan.graph)]
    assert isinstance(op, DifferentiableGraphOp)
    assert op.gradient.df_output_vjps == [0, 1, 2]
    assert op.forward_executor.debug_state(), "f ran through its own executor"
    (df_plan,) = op.backward_executor.debug_state()
    assert df_plan.graph is not op.gradient.df  # a specialized, optimized copy
    assert op.runs == 1 and op.backward_runs == 1


def test_undifferentiated_groups_run_as_they_are():
    # create_autodiff_subgraphs alone leaves groups to run with eager autograd inside
    import ts_passes

    g = ts_ir.parse_ir(TANH_MM)
    for v in g.inputs:
        v.set_type(v.type.with_requires_grad(True))
    ts_passes.run_passes(g, ["propagate_shapes", "create_autodiff_subgraphs"])
    assert any(n.kind == "prim::DifferentiableGraph" for n in g.nodes())
    rng = np.random.default_rng(7)
    x, w, b = _inputs(rng, (2, 3), (4, 3), (4,))
    fn = Function("g", g, optimize=False)
    y, _ = fn(x, w, b)
    y.sum().backward()
    yv = y.detach().numpy()
    np.testing.assert_allclose(x.grad.numpy(), (1 - yv * yv) @ w.detach().numpy(), rtol=1e-12)
