"""The runtime without any frontend: every corpus function's recorded graph runs and reproduces its cases.

Each program's `inlined_graph` (as PyTorch printed it) is parsed with
`ts_ir.parse_ir`, wrapped in a `ts_runtime.Function` and called on every
recorded input. Outputs must match (float32 within 1e-5 relative); recorded
errors must raise, with the exception class eager Python raises (TorchScript
itself reports them all as `torch.jit.Error`; tsjit keeps the class).
Function constants resolve through a compilation unit holding every corpus
graph, plus `fork_wait_fn`, which `fork_wait` forks but the corpus does not
record (`corpus_values.HELPER_GRAPHS`). A case that
omits trailing `Optional` arguments relies on their `None` default, which a
bare graph cannot carry; those are passed explicitly.
"""

from __future__ import annotations

import builtins

import pytest
import ts_ir
from conftest import load_jsonl
from corpus_values import HELPER_GRAPHS, decode, eager_error_class, mismatch
from ts_ir import OptionalType

PROGRAMS = [
    row for row in load_jsonl("programs") if row["kind"] == "function" and row.get("inlined_graph")
]


def _unit(optimize: bool):
    import ts_runtime

    unit = ts_runtime.CompilationUnit()
    for row in PROGRAMS:
        unit.create_function(row["name"], ts_ir.parse_ir(row["inlined_graph"]), optimize=optimize)
    for name, text in HELPER_GRAPHS.items():
        unit.create_function(name, ts_ir.parse_ir(text), optimize=optimize)
    return unit


def _inputs(fn, case: dict) -> list:
    inputs = [decode(x) for x in case["inputs"]]
    for value in fn.graph.inputs[len(inputs) :]:
        assert isinstance(value.type, OptionalType), "only Optional arguments may be omitted"
        inputs.append(None)
    return inputs


@pytest.fixture(scope="module")
def unoptimized():
    return _unit(optimize=False)


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda row: row["name"])
def test_recorded_graph_reproduces_cases(program, unoptimized):
    fn = unoptimized.find_function(program["name"])
    for i, case in enumerate(program["cases"]):
        inputs = _inputs(fn, case)
        if "error" in case:
            expected = eager_error_class(program)
            with pytest.raises(getattr(builtins, expected) if expected else Exception):
                fn(*inputs)
            continue
        problem = mismatch(fn(*inputs), case["outputs"])
        assert problem is None, f"case {i}: {problem}"
