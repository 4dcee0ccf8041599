"""TS_JIT_LOG_LEVEL (per pass file, `>` for more detail) and TS_JIT_OPT_LIMIT (rewrites per pass)."""

from __future__ import annotations

import logging

import pytest
import ts_passes
from passes_helpers import parse
from ts_passes import LogLevel, is_enabled, parse_log_levels, parse_opt_limits

DEAD = """
graph(%x : Tensor):
  %a : Tensor = aten::relu(%x)
  %b : Tensor = aten::tanh(%x)
  %c : Tensor = aten::sigmoid(%x)
  return (%x)
"""


def test_log_level_syntax():
    assert parse_log_levels(">>dead_code_elimination:constant_propagation.py: >peephole") == {
        "dead_code_elimination": LogLevel.GRAPH_DEBUG,
        "constant_propagation": LogLevel.GRAPH_DUMP,
        "peephole": LogLevel.GRAPH_UPDATE,
    }


def test_levels_are_read_when_asked(monkeypatch):
    monkeypatch.delenv("TS_JIT_LOG_LEVEL", raising=False)
    assert not is_enabled("peephole", LogLevel.GRAPH_DUMP)
    monkeypatch.setenv("TS_JIT_LOG_LEVEL", ">peephole")
    assert is_enabled("peephole", LogLevel.GRAPH_DUMP)
    assert is_enabled("peephole", LogLevel.GRAPH_UPDATE)
    assert not is_enabled("peephole", LogLevel.GRAPH_DEBUG)
    assert not is_enabled("dead_code_elimination", LogLevel.GRAPH_DUMP)


def test_a_pass_logs_its_rewrites_at_the_requested_level(monkeypatch, caplog):
    monkeypatch.setenv("TS_JIT_LOG_LEVEL", ">dead_code_elimination")
    caplog.set_level(logging.DEBUG, logger="ts_passes")
    ts_passes.eliminate_dead_code(parse(DEAD))
    messages = [r.getMessage() for r in caplog.records if r.name.startswith("ts_passes.")]
    assert any(
        m.startswith("[DUMP dead_code_elimination] before dead code elimination") for m in messages
    )
    assert sum("[UPDATE dead_code_elimination] removing dead node" in m for m in messages) == 3


def test_dump_only_without_the_prefix(monkeypatch, caplog):
    monkeypatch.setenv("TS_JIT_LOG_LEVEL", "dead_code_elimination")
    caplog.set_level(logging.DEBUG, logger="ts_passes")
    ts_passes.eliminate_dead_code(parse(DEAD))
    messages = [r.getMessage() for r in caplog.records]
    assert any("[DUMP" in m for m in messages)
    assert not any("[UPDATE" in m for m in messages)


def test_nothing_is_logged_when_not_asked(monkeypatch, caplog):
    monkeypatch.delenv("TS_JIT_LOG_LEVEL", raising=False)
    caplog.set_level(logging.DEBUG, logger="ts_passes")
    ts_passes.eliminate_dead_code(parse(DEAD))
    assert not [r for r in caplog.records if r.name.startswith("ts_passes.")]


def test_opt_limit_syntax():
    assert parse_opt_limits("constant_propagation=3:dead_code_elimination=5:bad:x=y") == {
        "constant_propagation": 3,
        "dead_code_elimination": 5,
    }


@pytest.mark.parametrize("limit", [0, 1, 2, 3])
def test_opt_limit_caps_the_rewrites_of_a_pass(monkeypatch, limit):
    monkeypatch.setenv("TS_JIT_OPT_LIMIT", f"dead_code_elimination={limit}")
    ts_passes.reset_opt_limit_counters()
    g = parse(DEAD)
    changed = ts_passes.eliminate_dead_code(g)
    assert changed is (limit > 0)
    assert len(list(g.nodes())) == 3 - limit


def test_opt_limit_counts_across_runs_until_reset(monkeypatch):
    monkeypatch.setenv("TS_JIT_OPT_LIMIT", "dead_code_elimination=2")
    ts_passes.reset_opt_limit_counters()
    g = parse(DEAD)
    ts_passes.eliminate_dead_code(g)
    assert not ts_passes.eliminate_dead_code(g)
    assert len(list(g.nodes())) == 1
    ts_passes.reset_opt_limit_counters()
    assert ts_passes.eliminate_dead_code(g)


def test_other_passes_are_not_limited(monkeypatch):
    monkeypatch.setenv("TS_JIT_OPT_LIMIT", "constant_propagation=0")
    ts_passes.reset_opt_limit_counters()
    g = parse(DEAD)
    assert ts_passes.eliminate_dead_code(g)
    assert not list(g.nodes())
