"""Passes by name, the pipelines, and `ts-opt` in-process."""

from __future__ import annotations

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
