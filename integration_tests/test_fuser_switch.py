"""The fuser switch: `ts_runtime.set_fuser`, the `fuser(...)` context manager, `TS_JIT_FUSER`.

The switch is read when the executor compiles a plan; plans compiled while
it says "none" have no fusion groups.
"""

from __future__ import annotations

import numpy as np
import pytest
import ts_fuser_cpu  # noqa: F401
import ts_ir
import ts_runtime

GRAPH = """graph(%a : Tensor, %b : Tensor):
  %one : int = prim::Constant[value=1]()
  %x : Tensor = aten::mul(%a, %b)
  %y : Tensor = aten::add(%x, %a, %one)
  %z : Tensor = aten::sigmoid(%y)
  return (%z)
"""


def fused_groups(**env) -> int:
    fn = ts_runtime.Function("f", ts_ir.parse_ir(GRAPH))
    a = ts_runtime.from_numpy(np.linspace(-1, 1, 8, dtype=np.float32))
    out = fn(a, a)
    np.testing.assert_allclose(
        out.numpy(), 1 / (1 + np.exp(-(a.numpy() ** 2 + a.numpy()))), rtol=1e-6
    )
    graph = fn.executor.last_executed_optimized_graph()
    return sum(1 for n in graph.all_nodes() if n.kind == "prim::FusionGroup")


@pytest.fixture(autouse=True)
def _restore(monkeypatch):
    monkeypatch.delenv("TS_JIT_FUSER", raising=False)
    before = list(ts_runtime.fusion._override)
    yield
    ts_runtime.fusion._override[:] = before


def test_fusion_is_on_by_default():
    assert ts_runtime.get_fuser() == "cpu"
    assert fused_groups() == 1


def test_context_manager():
    with ts_runtime.fuser("none"):
        assert ts_runtime.get_fuser() == "none"
        assert fused_groups() == 0
        with ts_runtime.fuser("cpu"):
            assert fused_groups() == 1
        assert ts_runtime.get_fuser() == "none"
    assert fused_groups() == 1


def test_set_fuser():
    ts_runtime.set_fuser("none")
    assert fused_groups() == 0
    ts_runtime.set_fuser("cpu")
    assert fused_groups() == 1


def test_environment_variable(monkeypatch):
    monkeypatch.setenv("TS_JIT_FUSER", "none")
    assert fused_groups() == 0
    monkeypatch.setenv("TS_JIT_FUSER", "cpu")
    assert fused_groups() == 1


def test_an_explicit_choice_wins_over_the_environment(monkeypatch):
    monkeypatch.setenv("TS_JIT_FUSER", "none")
    with ts_runtime.fuser("cpu"):
        assert fused_groups() == 1


def test_unknown_fusers_are_rejected():
    with pytest.raises(ValueError, match="unknown fuser 'nnc'"):
        ts_runtime.set_fuser("nnc")
    with pytest.raises(ValueError):
        with ts_runtime.fuser("fuser1"):
            pass


def test_plans_needing_gradients_are_not_fused():
    fn = ts_runtime.Function("f", ts_ir.parse_ir(GRAPH))
    a = ts_runtime.from_numpy(np.ones(4, np.float32)).requires_grad_(True)
    fn(a, a)
    graph = fn.executor.last_executed_optimized_graph()
    assert not [n for n in graph.all_nodes() if n.kind == "prim::FusionGroup"]
