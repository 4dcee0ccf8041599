"""Gradients of the corpus programs through differentiable graphs, against PyTorch's recorded ones.

For every corpus case with floating tensor inputs, the scripted program runs
five iterations in float64 (`autodiff/harness.py`): outputs, gradients
(`create_graph=True`) and double-backward products must equal what eager
PyTorch 2.13 computed (`autodiff/recorded.json`, written by
`tools/record_autodiff.py`) within a relative 1e-7. Where PyTorch's own
(ArgumentSpec) executor made differentiable graphs of a program
(`corpus/optimized_graphs.jsonl`), tsjit must make some too; one program is
an exception, `tensor_shapes`, whose group PyTorch builds around
`aten::cat` of a list of tensors: tsjit differentiates tensor lists eagerly
(see docs/features.md).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from autodiff import harness
from conftest import load_jsonl
from corpus_values import tensor_array

RECORDED = Path(__file__).parent / "autodiff" / "recorded.json"
TARGETS = {tid: (row, case) for tid, row, case in harness.targets()}


@cache
def recorded() -> dict:
    return json.loads(RECORDED.read_text())


def _decode_result(encoded: dict) -> dict:
    out = {}
    for key, values in encoded.items():
        out[key] = (
            None
            if values is None
            else [None if v is None else tensor_array(v["tensor"]) for v in values]
        )
    return out


def _decode_inputs(encoded: list) -> list:
    return [
        ("value", x[1])
        if isinstance(x, list) and x and x[0] == "value"
        else tensor_array(x["tensor"])
        for x in encoded
    ]


#: PyTorch groups these around tensor lists, which tsjit leaves to eager autograd
TENSOR_LISTS = {"tensor_shapes"}


def _pytorch_differentiated() -> set[str]:
    return {
        row["name"]
        for row in load_jsonl("optimized_graphs")
        if row.get("executor") == "legacy"
        and row["requires_grad"]
        and "prim::DifferentiableGraph" in row.get("graph", "")
    }


def test_recording_covers_every_case():
    assert sorted(recorded()["corpus"]) == sorted(TARGETS)
    assert len(TARGETS) >= 40


@pytest.mark.parametrize("tid", sorted(TARGETS))
def test_gradients_equal_pytorch_on_five_iterations(tid):
    import tsjit

    row, _ = TARGETS[tid]
    entry = recorded()["corpus"][tid]
    program = harness.build(tsjit, row)
    for it, iteration in enumerate(entry["iterations"], start=1):
        arrays = _decode_inputs(iteration["inputs"])
        actual = harness.run(tsjit, program, row, arrays, (tid, it), clone=entry["clone"])
        problems = harness.compare(actual, _decode_result(iteration["expected"]))
        assert not problems, f"iteration {it}: " + "; ".join(problems)
    if row["name"] in _pytorch_differentiated() - TENSOR_LISTS:
        graph = harness.last_plan_graph(program)
        assert any(n.kind == "prim::DifferentiableGraph" for n in graph.all_nodes()), graph


def test_differentiable_graphs_run_forward_and_backward():
    """Over the corpus, differentiable graphs run their forward and their backward graphs."""
    import tsjit
    from ts_runtime.autodiff import AutodiffStats

    before = (AutodiffStats.forward_runs, AutodiffStats.backward_runs)
    row, case = TARGETS["lstm_cell-case0"]
    program = harness.build(tsjit, row)
    harness.run(tsjit, program, row, harness.input_arrays(row, case, 1), ("lstm", 1), clone=False)
    assert AutodiffStats.forward_runs > before[0]
    assert AutodiffStats.backward_runs > before[1]


def test_recorded_inputs_are_the_harness_inputs():
    """The recording was made from the inputs the harness generates (so the oracle and the
    recorded test check the same thing)."""
    for tid, entry in recorded()["corpus"].items():
        row, case = TARGETS[tid]
        for it, iteration in enumerate(entry["iterations"], start=1):
            for got, want in zip(
                harness.input_arrays(row, case, it),
                _decode_inputs(iteration["inputs"]),
                strict=True,
            ):
                if isinstance(want, np.ndarray):
                    np.testing.assert_array_equal(got, want)


def test_the_overviews_lstm_cell_is_one_differentiable_graph_with_a_fusion_group():
    """`graph_for` of the LSTM cell with inputs that require grad: one
    `prim::DifferentiableGraph` holds all of the cell's tensor work, and its forward graph
    (the plan's subgraph) runs the pointwise part as one `prim::FusionGroup`."""
    import tsjit
    from ts_runtime.fusion import fusion_enabled

    if not fusion_enabled():
        pytest.skip("no CPU fusion backend installed")
    row, _ = TARGETS["lstm_cell-case0"]
    program = harness.build(tsjit, row)
    rng = np.random.default_rng(0)
    shapes = [(3, 10), (3, 20), (3, 20), (80, 10), (80, 20), (80,), (80,)]
    args = [tsjit.from_numpy(rng.standard_normal(s)).requires_grad_(True) for s in shapes]
    for _ in range(3):  # past profiling, into the specialized plan
        hy, cy = program(*args)
        (hy.sum() + cy.sum()).backward()
    graph = program.graph_for(*args)
    top = [n.kind for n in graph.nodes() if n.kind != "prim::Constant"]
    assert top == ["prim::DifferentiableGraph", "prim::TupleConstruct"], graph
    (group,) = [n for n in graph.nodes() if n.kind == "prim::DifferentiableGraph"]
    forward = group.g("Subgraph")
    fusions = [n for n in forward.nodes() if n.kind == "prim::FusionGroup"]
    assert len(fusions) == 1, forward
    fused = {n.kind for n in fusions[0].g("Subgraph").nodes()}
    assert {"aten::sigmoid", "aten::tanh", "aten::mul", "aten::add"} <= fused, forward
    assert [n.kind for n in forward.nodes() if n.kind == "aten::mm"] == ["aten::mm"] * 2
