"""`GraphExecutor`: one execution plan per ArgumentSpec, and what it tells about its plans.

Covers what enters the spec (dtype, rank, requires_grad, defined/None, tensors
inside tuples, grad mode, the fuser; not the sizes, not non-tensor values),
plan reuse for equal specs, compile counts and the logged reasons,
`graph_for` (the specialized, optimized graph, with tensor types filled in),
`last_executed_optimized_graph()`, `debug_state()`, and the flags the
optimizer receives.
"""

from __future__ import annotations

import logging

import numpy as np
import pytest
import ts_ir
import ts_runtime
from ts_runtime import ArgumentCountError, ExecutorStats, Function, GraphExecutor
from ts_runtime.executor import describe_spec
from ts_runtime.interpreter.code import Code

MUL_ADD = """
graph(%a : Tensor, %b : Tensor):
  %one : int = prim::Constant[value=1]()
  %s : Tensor = aten::mul(%a, %b)
  %r : Tensor = aten::add(%s, %a, %one)
  return (%r)
"""

TUPLE_AND_OPTIONAL = """
graph(%p : (Tensor, Tensor), %o : Tensor?):
  %a : Tensor, %b : Tensor = prim::TupleUnpack(%p)
  %none : NoneType = prim::Constant()
  %one : int = prim::Constant[value=1]()
  %absent : bool = aten::__is__(%o, %none)
  %r : Tensor = prim::If(%absent)
    block0():
      %s : Tensor = aten::add(%a, %b, %one)
      -> (%s)
    block1():
      %o2 : Tensor = prim::unchecked_cast(%o)
      %m : Tensor = aten::mul(%a, %o2)
      -> (%m)
  return (%r)
"""


def function(ir: str = MUL_ADD, **kwargs) -> Function:
    return Function("f", ts_ir.parse_ir(ir), **kwargs)


def t(values, dtype=None, requires_grad: bool = False) -> ts_runtime.Tensor:
    return ts_runtime.tensor(values, dtype=dtype, requires_grad=requires_grad)


def input_types(graph: ts_ir.Graph) -> list[str]:
    return [str(v.type) for v in graph.inputs]


def mul_add(a, b) -> np.ndarray:
    a, b = np.asarray(a), np.asarray(b)
    return a * b + a


def reasons(fn: Function) -> list[str]:
    return [plan.reason for plan in fn.executor.debug_state()]


F32 = "Float(*, requires_grad=0, device=cpu)"


# ---------------------------------------------------------------------------
# what the spec distinguishes


def test_equal_specs_reuse_one_plan_whatever_the_sizes_and_values():
    fn = function()
    calls = [([1.0, 2.0], [3.0, 4.0]), ([5.0, 6.0, 7.0], [1.0, 0.0, -1.0]), ([0.0], [9.0])]
    for a, b in calls:
        out = fn(t(a), t(b))
        np.testing.assert_array_equal(out.numpy(), mul_add(a, b))
    assert fn.executor.compiles == 1
    (plan,) = fn.executor.debug_state()
    assert plan.runs == len(calls)
    assert plan.reason == "first call"


@pytest.mark.parametrize(
    ("first", "second", "specialized"),
    [
        pytest.param(
            t([1.0, 2.0]),
            t([1.0, 2.0], dtype=ts_runtime.float64),
            "Double(*, requires_grad=0, device=cpu)",
            id="dtype",
        ),
        pytest.param(
            t([1.0, 2.0]),
            t([[1.0, 2.0]]),
            "Float(*, *, requires_grad=0, device=cpu)",
            id="rank",
        ),
        pytest.param(
            t([1.0, 2.0]),
            t([1.0, 2.0], requires_grad=True),
            "Float(*, requires_grad=1, device=cpu)",
            id="requires_grad",
        ),
    ],
)
def test_each_tensor_property_of_the_spec_compiles_a_new_plan(first, second, specialized):
    fn = function()
    b = t([3.0, 4.0])
    fn(first, b)
    fn(second, b)
    fn(first, b)  # back to the first spec: its plan, no compile
    fn(second, b)
    assert fn.executor.compiles == 2
    assert reasons(fn) == ["first call", "new argument spec: input 0 changed"]
    assert [p.runs for p in fn.executor.debug_state()] == [2, 2]
    assert input_types(fn.graph_for(first, b)) == [F32, F32]
    assert input_types(fn.graph_for(second, b)) == [specialized, F32]
    assert fn.executor.compiles == 2  # graph_for found the cached plans


def test_values_of_the_same_dtype_and_rank_but_other_contents_share_a_plan():
    fn = function()
    fn(t([1, 2]), t([3, 4]))
    fn(t([[1.0]]), t([[2.0]]))
    fn(t([-7, 8]), t([0, 1]))  # int64 rank 1 again
    fn(t([[5.0, 6.0], [7.0, 8.0]]), t([[1.0, 1.0], [1.0, 1.0]]))  # float32 rank 2 again
    assert fn.executor.compiles == 2


def test_non_tensor_inputs_do_not_enter_the_spec():
    fn = function(
        """
graph(%x : Tensor, %n : int, %s : float):
  %a : Tensor = aten::mul(%x, %n)
  %r : Tensor = aten::mul(%a, %s)
  return (%r)
"""
    )
    x = t([1.0, 2.0])
    for n, s in ((2, 0.5), (3, 1.5), (-1, 4.0)):
        np.testing.assert_allclose(fn(x, n, s).numpy(), np.array([1.0, 2.0]) * n * s)
    assert fn.executor.compiles == 1


def test_a_missing_optional_tensor_is_its_own_spec_typed_none():
    fn = function(TUPLE_AND_OPTIONAL)
    pair = (t([1.0, 2.0]), t([3.0, 4.0]))
    np.testing.assert_array_equal(fn(pair, None).numpy(), [4.0, 6.0])
    np.testing.assert_array_equal(fn(pair, t([2.0, -1.0])).numpy(), [2.0, -2.0])
    np.testing.assert_array_equal(fn(pair, None).numpy(), [4.0, 6.0])
    assert fn.executor.compiles == 2
    assert reasons(fn) == ["first call", "new argument spec: input 1 changed"]
    without, with_ = (p.graph for p in fn.executor.debug_state())
    assert input_types(without)[1] == "NoneType"
    assert input_types(with_)[1] == F32
    # knowing the optional's state, the optimizer keeps only the branch that runs
    assert [n.kind for n in without.nodes() if n.kind in ("aten::add", "aten::mul")] == [
        "aten::add"
    ]
    assert [n.kind for n in with_.nodes() if n.kind in ("aten::add", "aten::mul")] == ["aten::mul"]
    assert not any(n.kind == "prim::If" for n in without.nodes())


def test_tensors_inside_tuples_are_specialized():
    fn = function(TUPLE_AND_OPTIONAL)
    x = t([1.0, 2.0])
    fn((x, t([3.0, 4.0])), None)
    fn((x, t([5.0, 6.0])), None)  # same spec
    out = fn((x, t([[3.0, 4.0]])), None)  # rank of the second element
    np.testing.assert_array_equal(out.numpy(), [[4.0, 6.0]])
    out = fn((x, t([3, 4])), None)  # dtype of the second element
    np.testing.assert_array_equal(out.numpy(), [4.0, 6.0])
    assert fn.executor.compiles == 3
    assert reasons(fn)[1:] == ["new argument spec: input 0 changed"] * 2
    tuple_types = [input_types(p.graph)[0] for p in fn.executor.debug_state()]
    assert tuple_types == [
        f"({F32}, {F32})",
        f"({F32}, Float(*, *, requires_grad=0, device=cpu))",
        f"({F32}, Long(*, requires_grad=0, device=cpu))",
    ]


def test_grad_mode_is_part_of_the_spec():
    fn = function()
    a, b = t([1.0, 2.0], requires_grad=True), t([3.0, 4.0])
    with_grad = fn(a, b)
    with ts_runtime.no_grad():
        without = fn(a, b)
    assert with_grad.requires_grad and not without.requires_grad
    np.testing.assert_array_equal(without.numpy(), mul_add([1.0, 2.0], [3.0, 4.0]))
    assert reasons(fn) == ["first call", "new argument spec: grad mode off"]
    grad_plan, no_grad_plan = fn.executor.debug_state()
    assert grad_plan.code.grad_enabled and not no_grad_plan.code.grad_enabled
    with_grad.sum().backward()
    np.testing.assert_array_equal(a.grad.numpy(), [4.0, 5.0])  # d(a*b + a)/da = b + 1


def run_with_each_fuser(fn):
    """Call `fn` with the CPU fuser chosen, then with fusion off: (graphs, results)."""
    a, b = t([1.0, 2.0]), t([3.0, 4.0])
    graphs, results = [], []
    for name in ("cpu", "none"):
        with ts_runtime.fuser(name):
            results.append(fn(a, b))
            graphs.append(fn.last_executed_optimized_graph())
    return graphs, results


def test_the_fuser_in_use_is_part_of_the_spec():
    fn = function()
    _, (fused, unfused) = run_with_each_fuser(fn)
    np.testing.assert_array_equal(fused.numpy(), unfused.numpy())
    assert reasons(fn) == ["first call", "new argument spec: fuser none"]


def test_the_fuser_in_use_decides_the_fusion_groups():
    pytest.importorskip("ts_fuser_cpu")  # the CPU backend is a package of its own
    (fused_graph, unfused_graph), _ = run_with_each_fuser(function())
    assert any(n.kind == "prim::FusionGroup" for n in fused_graph.nodes())
    assert not any(n.kind == "prim::FusionGroup" for n in unfused_graph.nodes())


def test_under_no_grad_requires_grad_does_not_enter_the_spec():
    fn = function()
    b = t([3.0, 4.0])
    with ts_runtime.no_grad():
        out = fn(t([1.0, 2.0], requires_grad=True), b)
        graph = fn.last_executed_optimized_graph()
        fn(t([1.0, 2.0]), b)
    assert not out.requires_grad
    assert not graph.outputs[0].type.requires_grad
    assert fn.executor.compiles == 1


# ---------------------------------------------------------------------------
# counts, reasons, logs


def test_the_reason_names_every_input_that_changed_since_the_last_compile():
    fn = function()
    fn(t([1.0]), t([2.0]))
    fn(t([[1.0]]), t([[2.0]]))
    fn(t([[1.0]]), t([[2.0]], dtype=ts_runtime.float64))
    assert reasons(fn) == [
        "first call",
        "new argument spec: input 0 changed, input 1 changed",
        "new argument spec: input 1 changed",
    ]


def test_every_compile_is_logged_and_counted(caplog):
    fn = function()
    before = ExecutorStats.compiles
    a, b = t([1.0, 2.0]), t([3.0, 4.0])
    with caplog.at_level(logging.INFO, logger="ts_runtime.executor"):
        fn(a, b)
        fn(a, b)
        fn(t([1.0, 2.0], dtype=ts_runtime.float64), b)
        with ts_runtime.no_grad():
            fn(a, b)
    messages = [r.getMessage() for r in caplog.records if r.name == "ts_runtime.executor"]
    assert messages == [
        "compiled plan 1 of f (grad=on (float32[1d], float32[1d])): first call",
        "compiled plan 2 of f (grad=on (float64[1d], float32[1d])): "
        "new argument spec: input 0 changed",
        "compiled plan 3 of f (grad=off (float32[1d], float32[1d])): "
        "new argument spec: grad mode off, input 0 changed",
    ]
    assert fn.executor.compiles == 3
    assert ExecutorStats.compiles - before == 3


def test_describe_spec_spells_tensors_tuples_and_none():
    fn = function(TUPLE_AND_OPTIONAL)
    pair = (t([1.0, 2.0], requires_grad=True), t([[1, 2]]))
    fn.graph_for(pair, None)
    (plan,) = fn.executor.debug_state()
    assert describe_spec(plan.spec) == "grad=on ((float32[1d, grad], int64[2d]), undefined)"


def test_a_failed_compile_caches_nothing_and_counts_nothing():
    fn = function(
        """
graph(%x : Tensor):
  %y : Tensor = foo::bar(%x)
  return (%y)
"""
    )
    for _ in range(2):
        with pytest.raises(ts_ir.IRError, match="foo::bar"):
            fn(t([1.0]))
    assert fn.executor.compiles == 0
    assert fn.executor.debug_state() == []
    assert fn.last_executed_optimized_graph() is None


# ---------------------------------------------------------------------------
# graph_for, last_executed_optimized_graph, debug_state


def test_graph_for_is_the_specialized_optimized_graph_and_runs_nothing():
    fn = function(
        """
graph(%a : Tensor, %b : Tensor):
  %c : Tensor = aten::mm(%a, %b)
  %one : int = prim::Constant[value=1]()
  %two : int = prim::Constant[value=2]()
  %three : int = aten::add(%one, %two)
  %r : Tensor = aten::mul(%c, %three)
  return (%r)
"""
    )
    a, b = t(np.ones((2, 3))), t(np.ones((3, 4)))  # float64
    graph = fn.graph_for(a, b)
    double2d = "Double(*, *, requires_grad=0, device=cpu)"
    assert input_types(graph) == [double2d, double2d]
    assert str(graph.outputs[0].type) == double2d  # propagated through mm and mul
    mm = next(n for n in graph.nodes() if n.kind == "aten::mm")
    assert str(mm.output().type) == double2d
    # 1 + 2 is folded into a constant
    assert not any(n.kind == "aten::add" for n in graph.all_nodes())
    # the function's own graph is left as written
    assert input_types(fn.graph) == ["Tensor", "Tensor"]
    assert any(n.kind == "aten::add" for n in fn.graph.nodes())
    # graph_for compiles, but runs nothing
    (plan,) = fn.executor.debug_state()
    assert plan.runs == 0 and fn.last_executed_optimized_graph() is None
    np.testing.assert_array_equal(fn(a, b).numpy(), np.full((2, 4), 9.0))
    assert fn.last_executed_optimized_graph() is graph


def test_last_executed_optimized_graph_follows_the_last_call():
    fn = function()
    assert fn.last_executed_optimized_graph() is None
    f32, f64 = t([1.0]), t([1.0], dtype=ts_runtime.float64)
    fn(f32, f32)
    first = fn.last_executed_optimized_graph()
    fn(f64, f64)
    second = fn.last_executed_optimized_graph()
    fn.graph_for(t([[1.0]]), t([[1.0]]))  # compiling a third plan is not executing it
    assert fn.last_executed_optimized_graph() is second
    fn(f32, f32)
    assert fn.last_executed_optimized_graph() is first
    assert input_types(first) == [F32, F32]
    assert input_types(second)[0] == "Double(*, requires_grad=0, device=cpu)"


def test_debug_state_lists_every_plan_in_compile_order():
    fn = function()
    specs = [
        (t([1.0]), t([2.0])),
        (t([[1.0]]), t([[2.0]])),
        (t([1]), t([2])),
    ]
    for args in specs:
        fn(*args)
    fn(*specs[0])
    plans = fn.executor.debug_state()
    assert [describe_spec(p.spec) for p in plans] == [
        "grad=on (float32[1d], float32[1d])",
        "grad=on (float32[2d], float32[2d])",
        "grad=on (int64[1d], int64[1d])",
    ]
    assert [p.runs for p in plans] == [2, 1, 1]
    assert all(isinstance(p.code, Code) for p in plans)
    assert [p.code for p in plans] == [fn.code_for(*args) for args in specs]
    assert [p.graph for p in plans] == [fn.graph_for(*args) for args in specs]
    plans.clear()  # a copy: callers cannot edit the cache
    assert len(fn.executor.debug_state()) == 3


# ---------------------------------------------------------------------------
# GraphExecutor on its own, and the optimizer it calls


def test_graph_executor_runs_a_graph_and_checks_the_input_count():
    executor = GraphExecutor(ts_ir.parse_ir(MUL_ADD), "mul_add")
    np.testing.assert_array_equal(executor(t([2.0]), t([5.0])).numpy(), [12.0])
    with pytest.raises(ArgumentCountError, match="mul_add takes 2 inputs but 1 were given"):
        executor(t([2.0]))
    assert executor.compiles == 1


def test_without_optimization_only_the_input_types_change():
    executor = GraphExecutor(ts_ir.parse_ir(MUL_ADD), optimize=False)
    graph = executor.graph_for(t([1.0]), t([[1.0]]))
    assert input_types(graph) == [F32, "Float(*, *, requires_grad=0, device=cpu)"]
    assert [n.kind for n in graph.nodes()] == ["prim::Constant", "aten::mul", "aten::add"]
    assert str(graph.outputs[0].type) == "Tensor"  # no propagation ran


def recording_optimizer(calls: list[dict]):
    def optimizer(graph, **flags):
        calls.append(flags)

    return optimizer


def test_the_optimizer_is_told_whether_gradients_can_arise():
    calls: list[dict] = []
    fn = function(TUPLE_AND_OPTIONAL, optimizer=recording_optimizer(calls))
    plain = (t([1.0]), t([2.0]))
    fn(plain, None)
    fn((t([1.0]), t([2.0], requires_grad=True)), None)  # inside the tuple
    fn(plain, t([3.0], requires_grad=True))
    with ts_runtime.no_grad():
        fn(plain, t([3.0], requires_grad=True))
    assert calls == [
        {"requires_grad": False, "grad_enabled": True},
        {"requires_grad": True, "grad_enabled": True},
        {"requires_grad": True, "grad_enabled": True},
        {"requires_grad": False, "grad_enabled": False},
    ]


SCALE_BY_NEW_LEAF = """
graph(%x : Tensor):
  %n : NoneType = prim::Constant()
  %v : float = prim::Constant[value=3.0]()
  %grad : bool = prim::Constant[value=REQUIRES_GRAD]()
  %w : Tensor = aten::tensor(%v, %n, %n, %grad)
  %r : Tensor = aten::mul(%x, %w)
  return (%r)
"""


@pytest.mark.parametrize("requires_grad", [0, 1])
def test_a_graph_creating_tensors_that_may_require_grad_compiles_for_autograd(requires_grad):
    calls: list[dict] = []
    ir = SCALE_BY_NEW_LEAF.replace("REQUIRES_GRAD", str(requires_grad))
    fn = function(ir, optimizer=recording_optimizer(calls))
    out = fn(t([1.0, 2.0]))  # an input that does not require grad
    np.testing.assert_array_equal(out.detach().numpy(), [3.0, 6.0])
    # any `aten::tensor(..., requires_grad)` may create one, whatever the constant says
    assert calls == [{"requires_grad": True, "grad_enabled": True}]
    assert out.requires_grad is bool(requires_grad)


def test_a_graph_that_reads_object_attributes_compiles_for_autograd():
    calls: list[dict] = []
    holder = ts_ir.ClassType("__torch__.Holder")
    holder.add_attribute("w", ts_ir.TensorType.get())
    graph = ts_ir.parse_ir(
        """
graph(%self : __torch__.Holder, %x : Tensor):
  %w : Tensor = prim::GetAttr[name="w"](%self)
  %r : Tensor = aten::mul(%x, %w)
  return (%r)
"""
    )
    fn = Function("f", graph, optimizer=recording_optimizer(calls))
    obj = ts_runtime.ScriptModule(holder, {"w": t([2.0], requires_grad=True)})
    out = fn(obj, t([5.0]))
    assert calls == [{"requires_grad": True, "grad_enabled": True}]
    out.backward()
    np.testing.assert_array_equal(obj.w.grad.numpy(), [5.0])
