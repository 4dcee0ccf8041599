"""Passes by name, the pipelines, and `ts-opt` in-process."""

from __future__ import annotations

import dataclasses

import pytest
import ts_passes
from passes_helpers import parse
from ts_passes import UnknownPassError, get_pass, register_pass, run_passes
from ts_passes.cli import main

TEXT = """
graph(%x : Tensor):
  %a : Tensor = aten::mul(%x, %x)
  %b : Tensor = aten::mul(%x, %x)
  %dead : Tensor = aten::relu(%x)
  %c : Tensor = aten::add(%a, %b, %x)
  return (%c)
""".replace("aten::add(%a, %b, %x)", "aten::mul(%a, %b)")


@pytest.mark.parametrize(
    "name",
    ["dce", "dead_code_elimination", "dead-code-elimination", "Dead-Code-Elimination", " dce "],
)
def test_names_with_underscores_or_dashes(name):
    assert get_pass(name).fn is ts_passes.eliminate_dead_code


def test_run_passes_in_order_and_report_change():
    g = parse(TEXT)
    assert run_passes(g, ["cse", "dce"])
    assert [str(n.kind) for n in g.nodes()] == ["aten::mul", "aten::mul"]
    assert not run_passes(g, ["cse", "dce"])


def test_unknown_pass_is_a_typed_error_before_anything_runs():
    g = parse(TEXT)
    with pytest.raises(UnknownPassError, match="no_such"):
        run_passes(g, ["dce", "no_such"])
    assert len(list(g.nodes())) == 4


def test_register_a_pass_of_ones_own():
    def drop_nothing(graph):
        """A pass that never changes anything."""
        return False

    register_pass("drop-nothing", drop_nothing)
    assert get_pass("drop_nothing").description == "A pass that never changes anything."
    assert not run_passes(parse(TEXT), ["drop-nothing"])


def test_execution_pipeline_names_registered_passes():
    for requires_grad in (True, False):
        for name in ts_passes.execution_pipeline(requires_grad=requires_grad):
            get_pass(name)
    assert "fuse_graph" in ts_passes.execution_pipeline(requires_grad=False)
    assert "fuse_graph" not in ts_passes.execution_pipeline(requires_grad=True)


def test_optimize_for_execution_simplifies():
    g = parse(TEXT)
    ts_passes.optimize_for_execution(g, requires_grad=False, grad_enabled=True)
    g.lint()
    assert [str(n.kind) for n in g.nodes()] == ["aten::mul", "aten::mul"]


def test_cli_in_process(tmp_path, capsys):
    path = tmp_path / "g.ir"
    path.write_text(TEXT)
    assert main([str(path), "-p", "cse,dce"]) == 0
    out = capsys.readouterr().out
    assert out.count("aten::mul") == 2 and "relu" not in out
    assert main([str(path), "-p", "nope"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("ts-opt: error: unknown pass 'nope'")
    assert main([str(tmp_path / "missing.ir")]) == 1
    assert "cannot read" in capsys.readouterr().err


# -- a pass that breaks the graph is named


def _break_the_graph(graph):
    """Make the returned value a use of a value defined later (malformed)."""
    first = next(iter(graph.nodes()))
    last = list(graph.nodes())[-1]
    first.replace_input(0, last.output())
    return True


def _raise(graph):
    """Fail with an untyped error."""
    raise ZeroDivisionError("oops")


def _return_none(graph):
    """Forget to say whether the graph changed."""


register_pass("test-breaks-the-graph", _break_the_graph)
register_pass("test-raises", _raise)
register_pass("test-returns-none", _return_none)


def test_a_failing_pass_is_named():
    with pytest.raises(ts_passes.PassFailedError, match="pass 'test_raises' failed") as info:
        run_passes(parse(TEXT), ["cse", "test-raises", "dce"])
    assert info.value.pass_name == "test_raises"
    assert isinstance(info.value.__cause__, ZeroDivisionError)


def test_a_pass_must_return_a_bool():
    with pytest.raises(ts_passes.PassFailedError, match="'test_returns_none' returned None"):
        run_passes(parse(TEXT), ["test-returns-none"])


def test_verify_each_names_the_pass_that_left_a_malformed_graph():
    g = parse(TEXT)
    assert run_passes(g, ["cse", "test-breaks-the-graph"])  # not verified: unnoticed
    g = parse(TEXT)
    with pytest.raises(ts_passes.PassFailedError, match="'test_breaks_the_graph' left a malformed"):
        run_passes(g, ["cse", "test-breaks-the-graph", "dce"], verify_each=True)


def test_the_execution_pipeline_names_a_failing_pass(monkeypatch):
    calls = []

    def failing_dce(graph):
        calls.append(graph)
        raise ValueError("broken")

    from ts_passes import pass_manager

    info = get_pass("dce")
    monkeypatch.setitem(pass_manager._passes, info.name, dataclasses.replace(info, fn=failing_dce))
    with pytest.raises(ts_passes.PassFailedError, match="'dead_code_elimination' failed"):
        ts_passes.optimize_for_execution(parse(TEXT), requires_grad=False, grad_enabled=True)
    assert calls


def test_cli_verify_each_and_split_input_file(tmp_path, capsys):
    path = tmp_path / "cases.ir"
    path.write_text(f"# PASSES: cse,dce\n# -----\n{TEXT}# -----\n{TEXT.replace('relu', 'tanh')}")
    assert main([str(path), "-p", "cse,dce", "--split-input-file", "--verify-each"]) == 0
    out = capsys.readouterr().out
    assert out.count("# -----\n") == 1
    assert out.count("aten::mul") == 4 and "relu" not in out and "tanh" not in out
    # without --split-input-file, the separators make the text one malformed graph
    assert main([str(path), "-p", "dce"]) == 1
    capsys.readouterr()
    one = tmp_path / "one.ir"
    one.write_text(TEXT)
    assert main([str(one), "-p", "cse,test-breaks-the-graph", "--verify-each"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("ts-opt: error: pass 'test_breaks_the_graph' left a malformed graph")
    assert "\n" not in err.rstrip("\n")


def test_cli_lints_its_input(tmp_path, capsys):
    path = tmp_path / "bad.ir"
    path.write_text(
        "graph(%c : int):\n  %r : int = prim::If(%c)\n    block0():\n      -> (%c)\n  return (%r)\n"
    )
    assert main([str(path), "-p", "dce"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"ts-opt: error: {path}:1: ")
