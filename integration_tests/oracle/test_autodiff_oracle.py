"""Gradients through differentiable graphs against live PyTorch 2.13, and the recording checked.

The corpus programs (`autodiff/harness.py`) and the bug-class programs
(`autodiff/bug_classes.py`) run in tsjit (scripted) and in eager PyTorch on
the same inputs; outputs, gradients and double-backward products must agree
within a relative 1e-7 in float64 on every iteration. `autodiff/recorded.json`,
which the default test run uses, must still be what PyTorch computes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from autodiff import bug_classes, harness  # noqa: E402
from corpus_values import tensor_array  # noqa: E402

pytestmark = pytest.mark.oracle
RECORDED = Path(__file__).parent.parent / "autodiff" / "recorded.json"
TARGETS = {tid: (row, case) for tid, row, case in harness.targets()}


def _decode(values):
    return (
        None
        if values is None
        else [None if v is None else tensor_array(v["tensor"]) for v in values]
    )


@pytest.mark.parametrize("tid", sorted(TARGETS))
def test_corpus_gradients_match_live_pytorch(tid):
    import tsjit

    row, case = TARGETS[tid]
    clone = json.loads(RECORDED.read_text())["corpus"][tid]["clone"]
    ours, theirs = harness.build(tsjit, row), harness.build(torch, row)
    for it in range(1, harness.ITERATIONS + 1):
        arrays = harness.input_arrays(row, case, it)
        expected = harness.run(torch, theirs, row, arrays, (tid, it), clone=clone)
        actual = harness.run(tsjit, ours, row, arrays, (tid, it), clone=clone)
        problems = harness.compare(actual, expected)
        assert not problems, f"iteration {it}: " + "; ".join(problems)
        recorded = json.loads(RECORDED.read_text())["corpus"][tid]["iterations"][it - 1]
        stale = harness.compare(expected, {k: _decode(v) for k, v in recorded["expected"].items()})
        assert not stale, f"recorded.json is out of date at iteration {it}: {stale}"


@pytest.mark.parametrize("name", sorted(bug_classes.CASES))
def test_bug_classes_match_live_pytorch(name):
    import tsjit

    case = bug_classes.CASES[name]
    for it, arrays in enumerate(case.arrays(), start=1):
        expected = bug_classes.run(torch, case, arrays, (name, it))
        actual = bug_classes.run(tsjit, case, arrays, (name, it))
        problems = harness.compare(actual, expected)
        assert not problems, f"iteration {it}: " + "; ".join(problems)
