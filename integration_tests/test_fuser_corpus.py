"""Every corpus program gives the same outputs fused and unfused.

Each function's recorded `inlined_graph` runs through `ts_runtime.Function`
with the executor's whole pipeline twice: with the CPU fuser on (the
default) and with `ts_runtime.fuser("none")`. On every recorded case the two
must agree: exactly, unless the program computes a transcendental function
(the fuser's float32 ones are within an ulp or two of exact, numpy's within
~3.3), in which case within a few float32 ulps relative; the fused results
must also match what PyTorch recorded. A case that fails unfused is a
problem of the runtime or the passes, not of fusion: it is reported as an
expected failure with the error, and the fused run must fail the same way.
`fork_wait_fn`, which `fork_wait` forks but the corpus does not record, is
written here from `corpus/programs.py`; omitted trailing `Optional`
arguments are passed as None, as a bare graph cannot carry their default.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import ts_ir
import ts_runtime
from corpus_values import decode, mismatch
from ts_ir import OptionalType

CORPUS = Path(__file__).resolve().parent / "corpus"


def load_jsonl(name: str) -> list[dict]:
    with open(CORPUS / f"{name}.jsonl", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


PROGRAMS = [
    row for row in load_jsonl("programs") if row["kind"] == "function" and row.get("inlined_graph")
]
TRANSCENDENTAL = {
    "aten::exp", "aten::expm1", "aten::log", "aten::log1p", "aten::sin", "aten::cos", "aten::tan",
    "aten::tanh", "aten::sigmoid", "aten::erf", "aten::pow", "aten::gelu", "aten::silu",
    "aten::elu", "aten::softplus",
}  # fmt: skip
# float32: 8 ulps relative; float64: 64 ulps
RTOL = {np.dtype(np.float32): 8 * 2.0**-23, np.dtype(np.float64): 64 * 2.0**-52}


# corpus/programs.py: def fork_wait_fn(x): return torch.tanh(x) * 2 (forked by `fork_wait`,
# not recorded by the corpus)
FORK_WAIT_FN = """graph(%x : Tensor):
  %two : int = prim::Constant[value=2]()
  %t : Tensor = aten::tanh(%x)
  %y : Tensor = aten::mul(%t, %two)
  return (%y)
"""


def _unit():
    unit = ts_runtime.CompilationUnit()
    for row in PROGRAMS:
        unit.create_function(row["name"], ts_ir.parse_ir(row["inlined_graph"]))
    unit.create_function("fork_wait_fn", ts_ir.parse_ir(FORK_WAIT_FN))
    return unit


@pytest.fixture(scope="module")
def units():
    return _unit(), _unit()


def fusion_groups(graph) -> list:
    return [n for n in graph.all_nodes() if n.kind == "prim::FusionGroup"]


def uses_transcendental(program: dict) -> bool:
    """Whether the program (or a function it forks) computes a transcendental function."""
    text = program["inlined_graph"] + (
        FORK_WAIT_FN if "prim::fork" in program["inlined_graph"] else ""
    )
    return any(f"{op}(" in text for op in TRANSCENDENTAL)


def difference(fused, unfused, exact: bool, path: str = "output") -> str | None:
    if isinstance(unfused, ts_runtime.Tensor):
        if not isinstance(fused, ts_runtime.Tensor):
            return f"{path}: {type(fused).__name__}, not a tensor"
        a, b = fused.detach().numpy(), unfused.detach().numpy()
        if a.dtype != b.dtype or a.shape != b.shape:
            return f"{path}: {a.dtype}{list(a.shape)} != {b.dtype}{list(b.shape)}"
        if exact or a.dtype.kind != "f":
            same = np.array_equal(a, b, equal_nan=a.dtype.kind in "fc")
        else:
            same = np.allclose(a, b, rtol=RTOL[a.dtype], atol=RTOL[a.dtype] * 1e-3, equal_nan=True)
        return None if same else f"{path}: values differ\n fused   {a}\n unfused {b}"
    if isinstance(unfused, (tuple, list)):
        if type(fused) is not type(unfused) or len(fused) != len(unfused):
            return f"{path}: {fused!r} != {unfused!r}"
        for i, (x, y) in enumerate(zip(fused, unfused, strict=True)):
            problem = difference(x, y, exact, f"{path}[{i}]")
            if problem:
                return problem
        return None
    if isinstance(unfused, dict):
        if not isinstance(fused, dict) or fused.keys() != unfused.keys():
            return f"{path}: {fused!r} != {unfused!r}"
        for k in unfused:
            problem = difference(fused[k], unfused[k], exact, f"{path}[{k!r}]")
            if problem:
                return problem
        return None
    if isinstance(unfused, float) and np.isnan(unfused):
        return None if isinstance(fused, float) and np.isnan(fused) else f"{path}: {fused!r} != nan"
    return (
        None
        if fused == unfused and type(fused) is type(unfused)
        else f"{path}: {fused!r} != {unfused!r}"
    )


def _inputs(fn, case: dict) -> list:
    """The recorded inputs, with omitted trailing `Optional` arguments passed as None (a bare
    graph cannot carry their default)."""
    inputs = [decode(x) for x in case["inputs"]]
    for value in fn.graph.inputs[len(inputs) :]:
        assert isinstance(value.type, OptionalType), "only Optional arguments may be omitted"
        inputs.append(None)
    return inputs


def _call(fn, inputs, fuser: str):
    with ts_runtime.fuser(fuser):
        try:
            return fn(*inputs), None
        except Exception as exc:
            return None, exc


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda row: row["name"])
def test_fused_equals_unfused(program, units):
    fused_unit, unfused_unit = units
    fused_fn = fused_unit.find_function(program["name"])
    unfused_fn = unfused_unit.find_function(program["name"])
    problems: list[str] = []
    unfused_failures: list[str] = []
    for i, case in enumerate(program["cases"]):
        want, want_error = _call(unfused_fn, _inputs(unfused_fn, case), "none")
        got, got_error = _call(fused_fn, _inputs(fused_fn, case), "cpu")
        if want_error is not None:
            if "error" not in case:
                unfused_failures.append(f"case {i}: {type(want_error).__name__}: {want_error}")
            if got_error is None or type(got_error) is not type(want_error):
                problems.append(f"case {i}: unfused raised {want_error!r}, fused {got_error!r}")
            continue
        if got_error is not None:
            problems.append(f"case {i}: fused raised {got_error!r}, unfused returned {want!r}")
            continue
        exact = not uses_transcendental(program)
        problem = difference(got, want, exact)
        if problem:
            problems.append(f"case {i}: {problem}")
        if "outputs" in case:
            recorded = mismatch(got, case["outputs"])
            if recorded:
                problems.append(f"case {i}: fused result differs from PyTorch's: {recorded}")
    assert not problems, "\n".join(problems)
    assert not unfused_failures, "the unfused pipeline fails: " + "; ".join(unfused_failures)


@pytest.mark.parametrize("name", ["lstm_cell", "ratio_iou"])
def test_pointwise_programs_run_fused_kernels(name, units):
    fused_unit, _ = units
    fn = fused_unit.find_function(name)
    (program,) = [row for row in PROGRAMS if row["name"] == name]
    inputs = [decode(x) for x in program["cases"][0]["inputs"]]
    fn(*inputs)
    graph = fn.executor.last_executed_optimized_graph()
    (group,) = fusion_groups(graph)
    assert group.g("Subgraph") is not None
