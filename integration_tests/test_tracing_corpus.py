"""Tracing: every corpus function whose inputs are all tensors traces and reproduces its cases.

Each case is traced on its own inputs (a fresh copy, since some functions
write to their inputs) and the trace is run on another fresh copy; outputs
must match the recorded ones. A case recorded as an error must raise the
same class while tracing (the Python function runs). Data-dependent Python
values warn with `TracerWarning`. A scripted function called from traced
code keeps its control flow in the trace.
"""

from __future__ import annotations

import builtins
import warnings

import pytest
import ts_runtime
from conftest import load_jsonl
from corpus_values import decode, eager_error_class, mismatch
from test_frontend_corpus import corpus_modules, corpus_programs
from ts_frontend import script


@script
def scripted_step(x, n: int):
    if bool(x.sum() > 0):
        x = x * 2
    for _ in range(n):
        x = x - 1
    return x


def scripted_caller(x):
    return scripted_step(ts_runtime.relu(x), 2) + 1


def data_dependent(x):
    if bool(x.sum() > 0):
        return x * 2
    return x - 1


def bakes_a_count(x):
    return ts_runtime.zeros(3) + int(x.sum())


def _all_tensor_inputs(row: dict) -> bool:
    return all(
        all(isinstance(x, dict) and "tensor" in x for x in case["inputs"]) for case in row["cases"]
    )


TRACEABLE = [
    row for row in load_jsonl("programs") if row["kind"] == "function" and _all_tensor_inputs(row)
]
WARNS = {"assert_positive", "dtype_conversion", "inplace_alias", "while_tensor"}
# Returns `u.size()` and `x.numel()`: traced, as PyTorch's tracer records them, these are
# 0-dim tensors computed from the input's sizes (PyTorch's torch.jit.trace refuses the
# function, which also returns an int); scripted, they are an int list and an int.
SIZES_AS_TENSORS = {"tensor_shapes"}


def _sizes_as_numbers(value):
    if isinstance(value, ts_runtime.Tensor) and value.dim() == 0:
        return value.item()
    if isinstance(value, tuple) and value and all(isinstance(v, ts_runtime.Tensor) for v in value):
        return [_sizes_as_numbers(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_sizes_as_numbers(v) for v in value)
    return value


def test_traceable_count():
    assert len(TRACEABLE) == 25


@pytest.mark.parametrize("program", TRACEABLE, ids=lambda row: row["name"])
def test_trace_reproduces_cases(program):
    from ts_frontend import ScriptFunction, TracerWarning, trace

    fn = getattr(corpus_programs(), program["name"])
    for case in program["cases"]:
        inputs = tuple(decode(x) for x in case["inputs"])
        if "error" in case:
            expected = eager_error_class(program)
            with (
                warnings.catch_warnings(),
                pytest.raises(getattr(builtins, expected) if expected else Exception),
            ):
                warnings.simplefilter("ignore")
                trace(fn, inputs)
            continue
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            traced = trace(fn, inputs)
        assert isinstance(traced, ScriptFunction)
        traced.graph.lint()
        warned = any(issubclass(w.category, TracerWarning) for w in caught)
        assert warned == (program["name"] in WARNS)
        out = traced(*[decode(x) for x in case["inputs"]])
        if program["name"] in SIZES_AS_TENSORS:
            out = _sizes_as_numbers(out)
        problem = mismatch(out, case["outputs"])
        assert problem is None, problem


def test_scripted_call_keeps_control_flow():
    from ts_frontend import trace

    x = ts_runtime.tensor([[1.0, -2.0], [3.0, 4.0]])
    traced = trace(scripted_caller, (x,))
    kinds = [str(n.kind) for n in traced.graph.all_nodes()]
    assert "prim::If" in kinds and "prim::Loop" in kinds
    for n in (1, 3):
        y = ts_runtime.tensor([[float(n), 2.0], [0.5, -1.0]])
        assert mismatch_tensors(traced(y), scripted_caller(y))


def mismatch_tensors(a, b) -> bool:
    import numpy as np

    return np.allclose(a.detach().numpy(), b.detach().numpy())


def test_trace_module_reads_parameters_with_getattr():
    from ts_frontend import trace

    model = corpus_modules().MLP()
    x = ts_runtime.tensor([[0.5, -1.0, 2.0, 0.0]])
    traced = trace(model, (x,))
    assert isinstance(traced, ts_runtime.ScriptModule)
    attrs = [n.s("name") for n in traced.graph.all_nodes() if n.kind == "prim::GetAttr"]
    assert {"fc1", "fc2", "weight", "bias"} <= set(attrs)
    assert mismatch_tensors(traced(x), model(x))
    assert sorted(traced.state_dict()) == sorted(dict(model.named_parameters()))


def test_check_inputs_detects_data_dependent_control_flow():
    from ts_frontend import TracingCheckError, trace

    x = ts_runtime.tensor([1.0, 2.0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(TracingCheckError):
            trace(data_dependent, (x,), check_inputs=[(ts_runtime.tensor([-1.0, -2.0]),)])
        traced = trace(data_dependent, (x,), check_inputs=[(ts_runtime.tensor([3.0, 4.0]),)])
    assert mismatch_tensors(traced(x), data_dependent(x))


def test_int_of_tensor_warns():
    from ts_frontend import TracerWarning, trace

    with pytest.warns(TracerWarning, match="constant"):
        traced = trace(bakes_a_count, (ts_runtime.tensor([1.0, 2.0, 3.0]),))
    # the count was baked in: 6, whatever the input
    assert traced(ts_runtime.tensor([0.0, 0.0, 0.0])).tolist() == [6.0, 6.0, 6.0]
