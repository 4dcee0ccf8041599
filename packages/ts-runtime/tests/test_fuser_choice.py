"""What `get_fuser()` answers, and the one log line when no fusion backend is installed."""

from __future__ import annotations

import logging

import pytest
import ts_ir
import ts_passes
import ts_runtime
from ts_passes import fusion_backend
from ts_runtime import Function

MUL_ADD = """
graph(%a : Tensor, %b : Tensor):
  %one : int = prim::Constant[value=1]()
  %s : Tensor = aten::mul(%a, %b)
  %r : Tensor = aten::add(%s, %a, %one)
  return (%r)
"""

INTS_ONLY = """
graph(%a : int, %b : int):
  %r : int = aten::mul(%a, %b)
  return (%r)
"""


class RecordingBackend:
    """A CPU backend that fuses nothing (enough for `get_fuser` to find one)."""

    device = "cpu"

    def can_fuse(self, node) -> bool:
        return False

    def compile(self, subgraph, input_specs):
        raise AssertionError("never asked: it fuses nothing")


@pytest.fixture
def no_backend(monkeypatch):
    """No fusion backend registered, and the once-per-process report not yet made."""
    removed = [b for b in ts_passes.fusion_backends()]  # loads the entry points first
    for b in removed:
        ts_passes.unregister_fusion_backend(b.device)
    monkeypatch.setattr(fusion_backend, "_missing_reported", False)
    monkeypatch.delenv("TS_JIT_FUSER", raising=False)
    yield
    for b in ts_passes.fusion_backends():
        ts_passes.unregister_fusion_backend(b.device)
    for b in removed:
        ts_passes.register_fusion_backend(b)


def run(ir: str, *args):
    with ts_runtime.no_grad():
        return Function("f", ts_ir.parse_ir(ir))(*args)


def reports(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "ts_passes.fusion_backend"]


def test_get_fuser_says_none_when_no_backend_is_installed(no_backend, monkeypatch):
    assert ts_runtime.get_fuser() == "none"
    with ts_runtime.fuser("cpu"):
        assert ts_runtime.get_fuser() == "none"  # asked for, but nothing can fuse
    monkeypatch.setenv("TS_JIT_FUSER", "cpu")
    assert ts_runtime.get_fuser() == "none"
    ts_passes.register_fusion_backend(RecordingBackend())
    assert ts_runtime.get_fuser() == "cpu"
    with ts_runtime.fuser("none"):
        assert ts_runtime.get_fuser() == "none"


def test_the_first_plan_that_would_have_fused_logs_once_which_package_provides_one(
    no_backend, caplog
):
    caplog.set_level(logging.WARNING, logger="ts_passes.fusion_backend")
    a = ts_runtime.tensor([1.0, 2.0])
    assert run(INTS_ONLY, 6, 7) == 42
    assert reports(caplog) == []  # nothing to fuse: nothing to say
    with ts_runtime.fuser("none"):
        run(MUL_ADD, a, a)
    assert reports(caplog) == []  # fusion switched off on purpose: nothing to say
    result = run(MUL_ADD, a, a)
    assert result.tolist() == [2.0, 6.0]
    (message,) = reports(caplog)
    assert "no fusion backend is installed" in message
    assert "ts-fuser-cpu provides the one for cpu tensors" in message
    run(MUL_ADD, ts_runtime.tensor([[1.0]]), ts_runtime.tensor([[2.0]]))  # a second plan
    assert len(reports(caplog)) == 1
