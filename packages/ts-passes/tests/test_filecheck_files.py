"""The `.ir` files under tests/filecheck: several cases per file, separated by `# -----` lines.

A file's first part (comments only) is every case's header; a case names its passes
(`# PASSES: a,b`, usually in the header), carries `# CHECK:` directives for the result,
and may say whether the passes change the graph (`# CHANGED: yes|no`). Every case runs
through the pass manager with the graph linted after each pass; every input and output
prints back identically after parsing. `ts-opt --split-input-file` runs a whole file.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import ts_ir
from passes_helpers import round_trip
from ts_ir import run_checks_from_comments, split_cases
from ts_passes import run_passes
from ts_passes.cli import main

FILES = sorted((Path(__file__).parent / "filecheck").glob("*.ir"))


def _cases():
    for path in FILES:
        for i, case in enumerate(split_cases(path.read_text())):
            name = case.directive("CASE") or case.directive("RULE") or str(i)
            yield pytest.param(path, case, id=f"{path.stem}:{case.line}:{name}")


@pytest.mark.parametrize(("path", "case"), list(_cases()))
def test_ir_case(path, case):
    passes = case.directive("PASSES")
    assert passes, f"{path.name}:{case.line}: a case names its passes with '# PASSES: a,b'"
    graph = ts_ir.parse_ir(case.text)
    round_trip(graph)
    changed = run_passes(graph, passes.split(","), verify_each=True)
    expected = case.directive("CHANGED")
    if expected is not None:
        assert changed is (expected == "yes"), f"the passes returned {changed}"
    if "CHECK" in case.text:
        run_checks_from_comments(case.text, graph)
    round_trip(graph)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_ts_opt_runs_a_whole_file(path, capsys):
    passes = split_cases(path.read_text())[0].directive("PASSES")
    if any(c.directive("PASSES") != passes for c in split_cases(path.read_text())):
        pytest.skip("cases with different passes")
    assert main([str(path), "-p", passes, "--split-input-file", "--verify-each"]) == 0
    out = capsys.readouterr().out
    assert len(split_cases(out)) == len(split_cases(path.read_text()))


def test_every_peephole_rule_has_a_case_and_is_documented():
    from ts_passes import peephole

    text = (Path(__file__).parent / "filecheck" / "peephole.ir").read_text()
    tested = {case.directive("RULE") for case in split_cases(text)}
    names = [rule.name for rule in peephole.PEEPHOLE_RULES]
    assert len(set(names)) == len(names)
    assert set(names) - tested == set(), "rules without a case in peephole.ir"
    assert tested - set(names) == set(), "cases naming no rule"
    undocumented = [n for n in names if f"\n    {n} " not in peephole.__doc__]
    assert undocumented == []


def _peephole_cases():
    text = (Path(__file__).parent / "filecheck" / "peephole.ir").read_text()
    for case in split_cases(text):
        name = case.directive("CASE") or ""
        yield pytest.param(case, id=f"{case.directive('RULE')}:{name}")


@pytest.mark.parametrize("case", list(_peephole_cases()))
def test_each_peephole_rule_alone(case):
    """The case's rule on its own changes the graph exactly when the whole pass does."""
    from ts_passes import peephole_optimize

    *before, last = case.directive("PASSES").split(",")
    assert last == "peephole"
    graph = ts_ir.parse_ir(case.text)
    run_passes(graph, before)
    changed = peephole_optimize(graph, only=[case.directive("RULE")])
    assert changed is (case.directive("CHANGED") == "yes")
    graph.lint()
