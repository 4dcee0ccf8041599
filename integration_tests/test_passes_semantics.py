"""Passes preserve results: every corpus program, before and after each pass, on its recorded cases.

Each function program's `inlined_graph` runs in the interpreter (ts_runtime,
unoptimized) on every recorded case, untouched and after each registered
pass alone; and through the graph executor, which specializes the input
types from the actual inputs and runs `ts_passes.optimize_for_execution`
(with and without grad mode). Outputs must match the recorded ones;
recorded errors must still raise.

A missing operator or an unresolved function fails the test like any other
difference. Module programs need a module instance the corpus
does not carry (only ctor args and a state dict), so they are checked for
structure: every pass runs, lints and prints back identically.
"""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import ts_ir
import ts_passes
from passes.harness import check_cases, make_unit, round_trip, rows

FUNCTIONS = [r for r in rows("programs") if r["kind"] == "function" and r.get("inlined_graph")]
MODULES = [r for r in rows("programs") if r["kind"] == "module" and r.get("inlined_graph")]
# every registered pass, alone; fusion needs a backend and the runtime's FusionGroup operator
SINGLE_PASSES = [p for p in ts_passes.pass_names() if p not in ("fuse_graph",)]
PIPELINES = ["optimize_for_execution", "optimize_for_execution-no_grad", "optimize-requires_grad"]


def _apply(pass_name: str):
    def transform(name: str, g: ts_ir.Graph) -> ts_ir.Graph:
        if pass_name == "optimize-requires_grad":
            ts_passes.optimize_for_execution(g, requires_grad=True, grad_enabled=True)
        else:
            ts_passes.run_pass(g, pass_name)
        g.lint()
        round_trip(g)  # the text survives; the graph that runs is the transformed one itself
        return g

    return transform


@cache
def _unit(kind: str):
    if kind == "untouched":
        return make_unit(None, optimize=False)
    if kind.startswith("optimize_for_execution"):
        return make_unit(None, optimize=True)
    return make_unit(_apply(kind), optimize=False)


def _input_types(row: dict) -> list:
    return [v.type for v in ts_ir.parse_ir(row["inlined_graph"]).inputs]


def _run(kind: str, row: dict) -> None:
    fn = _unit(kind).find_function(row["name"])
    flattened = kind == "lower_all_tuples"
    if kind.endswith("no_grad"):
        import ts_runtime

        with ts_runtime.no_grad():
            check_cases(fn, row, _input_types(row), flattened=flattened)
    else:
        check_cases(fn, row, _input_types(row), flattened=flattened)


@pytest.mark.parametrize("row", FUNCTIONS, ids=[r["name"] for r in FUNCTIONS])
def test_untouched_graph_reproduces_cases(row):
    _run("untouched", row)


@pytest.mark.parametrize("pass_name", SINGLE_PASSES + PIPELINES)
@pytest.mark.parametrize("row", FUNCTIONS, ids=[r["name"] for r in FUNCTIONS])
def test_pass_preserves_results(row, pass_name):
    _run(pass_name, row)


@pytest.mark.parametrize("pass_name", SINGLE_PASSES)
@pytest.mark.parametrize("row", MODULES, ids=[r["name"] for r in MODULES])
def test_module_graphs_survive_every_pass(row, pass_name):
    g = ts_ir.parse_ir(row["inlined_graph"])
    _apply(pass_name)(row["name"], g)


@pytest.mark.parametrize("row", MODULES, ids=[r["name"] for r in MODULES])
def test_module_graphs_survive_optimize_for_execution(row):
    g = ts_ir.parse_ir(row["inlined_graph"])
    ts_passes.optimize_for_execution(g, requires_grad=False, grad_enabled=False)
    g.lint()
    round_trip(g)
