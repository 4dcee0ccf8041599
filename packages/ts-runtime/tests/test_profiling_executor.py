"""The profiling executor: profiled runs, plans behind guards, bailouts that resume the rest of
the computation, fallbacks of type-checked fusion groups, re-profiling, and the switches.

Results are checked against numpy (or the function's definition computed by hand), never
against the executor itself; counts come from the executor's own counters and log.
"""

from __future__ import annotations

import logging

import numpy as np
import pytest
import ts_ir
import ts_runtime
from ts_runtime import Function, ProfilingGraphExecutor, ProfilingStats
from ts_runtime.guards import GuardFailedError, type_check
from ts_runtime.interpreter.code import Code
from ts_runtime.profiling_executor import SETTINGS, set_reprofile_after


@pytest.fixture(autouse=True)
def profiling():
    """The profiling executor with its default settings, restored afterwards."""
    saved = (
        SETTINGS.enabled,
        SETTINGS.num_profiled_runs,
        SETTINGS.bailout_depth,
        SETTINGS.reprofile_after,
    )
    ts_runtime.set_profiling_executor(True)
    yield
    (
        SETTINGS.enabled,
        SETTINGS.num_profiled_runs,
        SETTINGS.bailout_depth,
        SETTINGS.reprofile_after,
    ) = saved


def function(ir: str, name: str = "f") -> Function:
    fn = Function(name, ts_ir.parse_ir(ir))
    assert isinstance(fn.executor, ProfilingGraphExecutor)
    return fn


def t(values, dtype=np.float32, requires_grad: bool = False) -> ts_runtime.Tensor:
    x = ts_runtime.from_numpy(np.asarray(values, dtype=dtype))
    if requires_grad:
        x.requires_grad_(True)
    return x


def kinds(graph: ts_ir.Graph) -> list[str]:
    return [str(n.kind) for n in graph.all_nodes()]


MUL_ADD = """graph(%a : Tensor, %b : Tensor):
  %one : int = prim::Constant[value=1]()
  %s : Tensor = aten::mul(%a, %b)
  %r : Tensor = aten::add(%s, %a, %one)
  return (%r)
"""


# -- profiling, then the plan


def test_the_plan_is_optimized_after_the_profiled_runs():
    ts_runtime.set_num_profiled_runs(2)
    fn = function(MUL_ADD)
    a, b = t([1, 2]), t([3, 4])
    with ts_runtime.fuser("none"):
        for plans_after in (0, 0, 1):  # two profiled runs; the third call optimizes
            np.testing.assert_array_equal(fn(a, b).numpy(), [4, 10])
            assert len(fn.executor.debug_state().plans) == plans_after
        state = fn.executor.debug_state()
    assert state.profiled_runs == 2
    (plan,) = state.plans
    assert plan.runs == 1
    assert "2 profiled runs" in plan.reason
    text = str(plan.graph)
    assert "prim::BailOut[index=0]" in text
    assert "Float(2, strides=[1], requires_grad=0, device=cpu)" in text
    assert "with prim::BailoutTemplate_0 = graph(" in text


def test_graph_for_profiles_with_the_inputs_it_is_given():
    fn = function(MUL_ADD)
    a, b = t([[1, 2, 3]]), t([[1, 1, 1]])
    with ts_runtime.fuser("none"):
        graph = fn.graph_for(a, b)
    assert "Float(1, 3, strides=[3, 1], requires_grad=0, device=cpu)" in str(graph)
    assert fn.executor.profiled_runs == 1


def test_a_wrong_number_of_inputs_is_a_typed_error():
    executor = ProfilingGraphExecutor(ts_ir.parse_ir(MUL_ADD), "mul_add")
    with pytest.raises(ts_runtime.ArgumentCountError, match="takes 2 inputs but 1 were given"):
        executor.run(t([1.0]))


# -- bailouts


NONZERO_LOOP = """graph(%x : Tensor, %n : int):
  %one : int = prim::Constant[value=1]()
  %zero : int = prim::Constant[value=0]()
  %true : bool = prim::Constant[value=1]()
  %acc0 : Tensor = aten::mul(%x, %zero)
  %acc : Tensor = prim::Loop(%n, %true, %acc0)
    block0(%i : int, %a : Tensor):
      %m : Tensor = aten::gt(%x, %i)
      %nz : Tensor = aten::nonzero(%m)
      %k : int = aten::size(%nz, %zero)
      %ik : int = aten::mul(%i, %k)
      %step : Tensor = aten::mul(%x, %ik)
      %a2 : Tensor = aten::add(%a, %step, %one)
      -> (%true, %a2)
  return (%acc)
"""


# the same as a while loop: not unrolled, so its body reads the loop's own counter
NONZERO_WHILE = """graph(%x : Tensor, %n : int):
  %one : int = prim::Constant[value=1]()
  %zero : int = prim::Constant[value=0]()
  %true : bool = prim::Constant[value=1]()
  %max : int = prim::Constant[value=9223372036854775807]()
  %acc0 : Tensor = aten::mul(%x, %zero)
  %acc : Tensor = prim::Loop(%max, %true, %acc0)
    block0(%i : int, %a : Tensor):
      %m : Tensor = aten::gt(%x, %i)
      %nz : Tensor = aten::nonzero(%m)
      %k : int = aten::size(%nz, %zero)
      %ik : int = aten::mul(%i, %k)
      %step : Tensor = aten::mul(%x, %ik)
      %a2 : Tensor = aten::add(%a, %step, %one)
      %next : int = aten::add(%i, %one)
      %go : bool = aten::lt(%next, %n)
      -> (%go, %a2)
  return (%acc)
"""


def nonzero_loop(x: np.ndarray, n: int) -> np.ndarray:
    acc = x * 0
    for i in range(n):
        acc = acc + x * (i * int(np.count_nonzero(x > i)))
    return acc


@pytest.mark.parametrize("program", [NONZERO_LOOP, NONZERO_WHILE], ids=["for", "while"])
def test_a_bailout_in_a_loop_resumes_in_the_same_iteration(program):
    set_reprofile_after(100)
    fn = function(program)
    n = 12  # more than the unroll factor: the body runs in the unrolled loop and the epilogue
    profiled = np.full(4, 20.0, np.float32)
    for _ in range(2):
        np.testing.assert_allclose(fn(t(profiled), n).numpy(), nonzero_loop(profiled, n))
    assert fn.executor.bailouts == 0
    # the number of elements above i now changes in iteration 6: the guard of the nonzero
    # fails there, and its bailout graph finishes iteration 6 and runs 7..11
    changed = np.array([20.0, 20.0, 5.5, 20.0], np.float32)
    for calls in (1, 2, 3):
        np.testing.assert_allclose(fn(t(changed), n).numpy(), nonzero_loop(changed, n))
        assert fn.executor.bailouts == calls
    (plan,) = fn.executor.debug_state().plans
    (index,) = plan.bailout_executors
    (bailout,) = [
        n for n in plan.graph.all_nodes() if n.kind == "prim::BailOut" and n.i("index") == index
    ]
    assert bailout.owning_block.owning_node.kind == "prim::Loop"
    np.testing.assert_allclose(fn(t(profiled), n).numpy(), nonzero_loop(profiled, n))
    assert fn.executor.bailouts == 3


APPEND_THEN_GUARD = """graph(%xs : int[], %x : Tensor):
  %one : int = prim::Constant[value=1]()
  %a : int[] = aten::append(%xs, %one)
  %m : Tensor = aten::nonzero(%x)
  %k : int = aten::len(%xs)
  %r : Tensor = aten::add(%m, %k, %one)
  return (%xs, %r)
"""


def test_a_bailout_does_not_repeat_what_ran_before_it():
    fn = function(APPEND_THEN_GUARD)
    for _ in range(2):
        xs, r = fn([7], t([1.0, 0.0]))
        assert xs == [7, 1]
    xs, r = fn([7], t([1.0, 2.0, 3.0]))  # three nonzeros: the guard of nonzero fails
    assert fn.executor.bailouts == 1
    assert xs == [7, 1]  # appended once
    np.testing.assert_array_equal(r.numpy(), [[2], [3], [4]])


def test_a_dtype_change_bails_out_then_re_profiles():
    fn = function(MUL_ADD)
    a, b = np.array([1.5, 2.0]), np.array([3.0, 4.0])
    with ts_runtime.fuser("none"):
        for _ in range(2):
            out = fn(t(a), t(b))
        assert out.dtype == ts_runtime.float32
        before = ProfilingStats.bailouts
        for _ in range(4):
            out = fn(t(a, np.float64), t(b, np.float64))
            assert out.dtype == ts_runtime.float64
            np.testing.assert_array_equal(out.numpy(), a * b + a)
        # two bailouts, then the profile merges both dtypes and the plan checks none
        assert fn.executor.bailouts == 2 == ProfilingStats.bailouts - before
        assert fn.executor.reprofiles == 1
        for dtype in (np.float32, np.float64, np.float32):
            np.testing.assert_allclose(fn(t(a, dtype), t(b, dtype)).numpy(), a * b + a)
        assert fn.executor.bailouts == 2
        state = fn.executor.debug_state()
    assert [e.kind for e in state.events] == [
        "optimized",
        "bailout",
        "bailout",
        "reprofile",
        "optimized",
    ]
    (plan,) = state.plans
    assert "Float(" not in str(plan.graph).split("with prim::BailoutTemplate")[0]


def test_a_requires_grad_change_bails_out_and_gradients_flow():
    fn = function(MUL_ADD)
    with ts_runtime.fuser("none"):
        for _ in range(2):
            fn(t([1, 2]), t([3, 4]))
        a, b = t([1, 2], requires_grad=True), t([3, 4], requires_grad=True)
        out = fn(a, b)
        assert fn.executor.bailouts == 1
        out.sum().backward()
    np.testing.assert_array_equal(a.grad.numpy(), [4, 5])  # d(a*b + a)/da = b + 1
    np.testing.assert_array_equal(b.grad.numpy(), [1, 2])


IF_UNPROFILED = """graph(%x : Tensor, %y : Tensor, %c : bool):
  %two : int = prim::Constant[value=2]()
  %r : Tensor = prim::If(%c)
    block0():
      %z : Tensor = aten::mul(%y, %two)
      -> (%z)
    block1():
      %w : Tensor = aten::neg(%x)
      -> (%w)
  return (%r)
"""


def test_an_input_the_profiled_runs_never_read_still_gets_gradients():
    fn = function(IF_UNPROFILED)
    for _ in range(2):
        fn(t([1.0]), t([1.0]), False)
    y = t([3.0, 4.0], requires_grad=True)
    fn(t([1.0]), y, True).sum().backward()
    np.testing.assert_array_equal(y.grad.numpy(), [2.0, 2.0])


def test_grad_mode_and_no_grad_keep_plans_of_their_own():
    fn = function(MUL_ADD)
    a, b = t([1, 2]), t([3, 4])
    for _ in range(3):
        fn(a, b)
        with ts_runtime.no_grad():
            fn(a, b)
    state = fn.executor.debug_state()
    assert len(state.plans) == 2
    assert state.bailouts == 0


def test_with_no_bailout_depth_left_the_argument_spec_executor_takes_over():
    ts_runtime.set_bailout_depth(1)
    set_reprofile_after(1)
    fn = function(MUL_ADD)
    a, b = np.array([1.0, 2.0]), np.array([3.0, 4.0])
    with ts_runtime.fuser("none"):
        for _ in range(2):
            fn(t(a), t(b))
        for dtype in (np.float64, np.float64, np.float32):
            np.testing.assert_allclose(fn(t(a, dtype), t(b, dtype)).numpy(), a * b + a)
    state = fn.executor.debug_state()
    assert state.events[-1].kind == "argument spec executor"
    assert fn.executor.bailouts == 1


def test_bailouts_are_logged_with_their_reason(caplog):
    fn = function(MUL_ADD)
    with ts_runtime.fuser("none"), caplog.at_level(logging.INFO, "ts_runtime.profiling_executor"):
        fn(t([1, 2]), t([3, 4]))
        fn(t([1, 2]), t([3, 4]))
        fn(t([1, 2, 3]), t([3, 4, 5]))
    messages = [r.getMessage() for r in caplog.records]
    assert any("optimized: 1 profiled run" in m for m in messages)
    assert any(
        "bailout: guard 0 expected Float(2, strides=[1], requires_grad=0, device=cpu) but got "
        "Float(3, strides=[1], requires_grad=0, device=cpu)" in m
        for m in messages
    ), messages


# -- fusion behind type checks


CHAIN = """graph(%x : Tensor, %y : Tensor):
  %one : int = prim::Constant[value=1]()
  %a : Tensor = aten::mul(%x, %y)
  %b : Tensor = aten::sigmoid(%a)
  %c : Tensor = aten::add(%b, %x, %one)
  return (%c)
"""


def chain(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-(x * y))) + x


def test_a_fusion_group_sits_behind_a_type_check_with_a_fallback():
    pytest.importorskip("ts_fuser_cpu")
    fn = function(CHAIN)
    rng = np.random.default_rng(0)
    x, y = rng.random((3, 4), np.float32), rng.random((3, 4), np.float32)
    with ts_runtime.fuser("cpu"), ts_runtime.no_grad():
        for _ in range(2):
            np.testing.assert_allclose(fn(t(x), t(y)).numpy(), chain(x, y), rtol=1e-6)
        graph = fn.executor.last_executed_optimized_graph()
        text = str(graph)
        for part in (
            "prim::TypeCheck[types=[Float(3, 4, strides=[4, 1], requires_grad=0, device=cpu)",
            "prim::If(",
            "prim::FusionGroup_0(",
            'prim::Constant[name="fallback_function_0", fallback=1]()',
            "prim::CallFunction(",
        ):
            assert part in text, text
        assert "prim::BailOut" not in text
        # another shape: the check fails and the fallback function runs (profiled, optimized)
        x2, y2 = rng.random((5, 2), np.float32), rng.random((5, 2), np.float32)
        np.testing.assert_allclose(fn(t(x2), t(y2)).numpy(), chain(x2, y2), rtol=1e-6)
        assert fn.executor.fallbacks == 1
        (plan,) = fn.executor.debug_state().plans
        assert list(plan.fallback_executors) == ["fallback_function_0"]
        # a transposed input has other strides: the check fails too
        np.testing.assert_allclose(
            fn(t(np.asfortranarray(x)), t(y)).numpy(), chain(x, y), rtol=1e-6
        )
        assert fn.executor.fallbacks == 2 and fn.executor.reprofiles == 1
        # the plan is profiled again: its fallback ran unoptimized, nothing was wasted on it
        fallback = plan.fallback_executors["fallback_function_0"].debug_state()
        assert fallback.plans == [] and fallback.profiled_runs == 2


def test_a_type_checked_group_calls_one_kernel_for_the_checked_types():
    fuser = pytest.importorskip("ts_fuser_cpu")
    fn = function(CHAIN)
    x, y = np.arange(6, dtype=np.float32).reshape(2, 3), np.ones((2, 3), np.float32)
    with ts_runtime.fuser("cpu"), ts_runtime.no_grad():
        for _ in range(2):
            fn(t(x), t(y))
        before = fuser.backend.stats.specializations
        for _ in range(3):
            np.testing.assert_allclose(fn(t(x), t(y)).numpy(), chain(x, y), rtol=1e-6)
    assert fuser.backend.stats.specializations == before


# -- the checks themselves


def test_a_type_check_compares_every_field_the_type_knows():
    check = type_check(ts_ir.parse_type("Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu)"))
    x = np.zeros((2, 3), np.float32)
    assert check(ts_runtime.from_numpy(x))
    assert not check(ts_runtime.from_numpy(x.astype(np.float64)))
    assert not check(ts_runtime.from_numpy(np.zeros((3, 2), np.float32)))
    assert not check(ts_runtime.from_numpy(np.asfortranarray(x)))
    assert not check(t(x, requires_grad=True))
    assert not check(3.0)
    loose = type_check(ts_ir.parse_type("Float(*, 3, device=cpu)"))
    assert loose(ts_runtime.from_numpy(np.zeros((5, 3), np.float32)))
    assert not loose(ts_runtime.from_numpy(np.zeros((5, 4), np.float32)))


def test_a_failing_guard_without_bailouts_is_a_typed_error():
    graph = ts_ir.parse_ir(
        """graph(%x : Tensor):
  %y : Float(2, strides=[1], requires_grad=0, device=cpu) = prim::Guard(%x)
  return (%y)
"""
    )
    code = Code(graph, grad_enabled=False)
    code(t([1.0, 2.0]))
    with pytest.raises(GuardFailedError, match="expected Float"):
        code(t([1.0, 2.0, 3.0]))


# -- choosing the executor


def test_the_choice_is_made_when_a_function_first_runs(monkeypatch):
    ts_runtime.set_profiling_executor(False)
    fn = Function("f", ts_ir.parse_ir(MUL_ADD))
    assert ts_runtime.set_profiling_executor(True) is False
    assert isinstance(fn.executor, ProfilingGraphExecutor)
    SETTINGS.enabled = None
    monkeypatch.setenv("TS_JIT_PROFILING_EXECUTOR", "0")
    assert not ts_runtime.profiling_executor_enabled()
    assert isinstance(Function("g", ts_ir.parse_ir(MUL_ADD)).executor, ts_runtime.GraphExecutor)
    monkeypatch.setenv("TS_JIT_PROFILING_EXECUTOR", "1")
    assert ts_runtime.profiling_executor_enabled()


def test_a_custom_optimizer_keeps_the_argument_spec_executor():
    fn = Function("f", ts_ir.parse_ir(MUL_ADD), optimizer=lambda g, **kw: None)
    assert isinstance(fn.executor, ts_runtime.GraphExecutor)


@pytest.mark.parametrize(
    ("setter", "value"),
    [
        (ts_runtime.set_num_profiled_runs, 0),
        (ts_runtime.set_bailout_depth, -1),
        (set_reprofile_after, 0),
    ],
)
def test_settings_refuse_values_that_make_no_sense(setter, value):
    with pytest.raises(ValueError):
        setter(value)
