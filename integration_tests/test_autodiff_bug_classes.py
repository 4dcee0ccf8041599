"""The classes of gradients TorchScript got wrong on the second or third call, against PyTorch.

Each case of `autodiff/bug_classes.py` runs its iterations on one scripted
function (broadcast operands whose gradients need sums, kept-dimension
normalization with a broadcast scale, outputs read again inside the graph,
and what changes between calls: broadcasting patterns, ranks, which inputs
require grad); outputs, gradients and double-backward products must equal
eager PyTorch's recorded ones (`autodiff/recorded.json`) within 1e-7.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from autodiff import bug_classes, harness
from corpus_values import tensor_array

RECORDED = Path(__file__).parent / "autodiff" / "recorded.json"


def _decode(values):
    return (
        None
        if values is None
        else [None if v is None else tensor_array(v["tensor"]) for v in values]
    )


@pytest.mark.parametrize("name", sorted(bug_classes.CASES))
def test_every_iteration_equals_pytorch(name):
    import tsjit
    from ts_runtime.autodiff import AutodiffStats

    case = bug_classes.CASES[name]
    entries = json.loads(RECORDED.read_text())["bug_classes"][name]
    assert len(entries) == len(case.shapes)
    before = AutodiffStats.backward_runs
    for it, entry in enumerate(entries, start=1):
        arrays = [tensor_array(x["tensor"]) for x in entry["inputs"]]
        actual = bug_classes.run(tsjit, case, arrays, (name, it))
        expected = {k: _decode(v) for k, v in entry["expected"].items()}
        problems = harness.compare(actual, expected)
        assert not problems, f"iteration {it}: " + "; ".join(problems)
    assert AutodiffStats.backward_runs > before, "the gradients did not come from a backward graph"
