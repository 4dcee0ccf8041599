"""A long plan compile shows a progress line on a terminal (ts_passes.progress)."""

from __future__ import annotations

import io
import sys
import time

import ts_ir
import ts_runtime
from ts_passes import progress
from ts_runtime import Function

GRAPH = """
graph(%a : Tensor):
  %r : Tensor = aten::neg(%a)
  return (%r)
"""


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def slow_optimizer(graph, *, requires_grad, grad_enabled):
    progress.stage("a slow pass")
    time.sleep(0.25)


def test_a_slow_plan_compile_shows_progress_and_a_cached_plan_nothing(monkeypatch):
    monkeypatch.setattr(progress, "DELAY", 0.05)
    monkeypatch.setattr(progress, "INTERVAL", 0.01)
    monkeypatch.delenv(progress.ENV_PROGRESS, raising=False)
    fn = Function("f", ts_ir.parse_ir(GRAPH), optimizer=slow_optimizer)
    x = ts_runtime.tensor([1.0, -2.0])
    terminal = Terminal()
    saved, sys.stderr = sys.stderr, terminal  # in the test's body: pytest resets it otherwise
    try:
        assert fn(x).tolist() == [-1.0, 2.0]
        first = terminal.getvalue()
        assert fn(x).tolist() == [-1.0, 2.0]
    finally:
        sys.stderr = saved
    frames = [f for f in first.split("\r") if f.strip()]
    # a loaded machine may draw a frame before the pass names its stage
    assert frames and all(f.startswith("compiling execution plan for f") for f in frames)
    assert any(f.startswith("compiling execution plan for f: a slow pass (") for f in frames)
    assert first.rpartition("\r")[2].strip() == ""  # erased when the compile ended
    assert terminal.getvalue() == first  # the second call ran the cached plan
