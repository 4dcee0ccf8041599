"""Tracing functions and modules: the recorded graph, constants, warnings and checks."""

from __future__ import annotations

import numpy as np
import pytest
import ts_runtime as torch
from ts_frontend import TracerWarning, TracingCheckError, script, trace
from ts_runtime import nn


def affine(x, w):
    return torch.tanh(x @ w) * 2 + 1


def test_trace_records_operators():
    x, w = torch.ones((2, 3)), torch.ones((3, 4))
    traced = trace(affine, (x, w))
    kinds = [str(n.kind) for n in traced.graph.nodes() if n.kind != "prim::Constant"]
    assert kinds == ["aten::matmul", "aten::tanh", "aten::mul", "aten::add"]
    y = torch.from_numpy(np.arange(6, dtype=np.float32).reshape(2, 3))
    assert np.allclose(traced(y, w).numpy(), affine(y, w).numpy())
    assert [a.name for a in traced.schema.arguments] == ["x", "w"]


def uses_a_size(x):
    return x.view(x.size(0) * x.size(1))


def test_python_values_are_constants():
    traced = trace(uses_a_size, (torch.ones((2, 3)),))
    assert "6" in str(traced.graph)


def takes_a_branch(x):
    if bool(x.sum() > 0):
        return x + 1
    return x - 1


def test_data_dependent_branch_warns_and_check_inputs_catches_it():
    with pytest.warns(TracerWarning):
        traced = trace(takes_a_branch, (torch.ones(2),))
    assert traced(-torch.ones(2)).tolist() == [0.0, 0.0]  # the branch taken while tracing
    with pytest.warns(TracerWarning), pytest.raises(TracingCheckError):
        trace(takes_a_branch, (torch.ones(2),), check_inputs=[(-torch.ones(2),)])


@script
def clamp_loop(x, n: int):
    for _ in range(n):
        x = torch.relu(x - 1)
    return x


def calls_script(x):
    return clamp_loop(x * 2, 3)


def test_scripted_functions_keep_their_loops():
    traced = trace(calls_script, (torch.ones(2),))
    assert "prim::Loop" in str(traced.graph)
    x = torch.tensor([3.0, 5.0])
    assert traced(x).tolist() == calls_script(x).tolist()


class Small(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)
        self.register_buffer("offset", torch.ones(2))

    def forward(self, x):
        return self.fc(x) + self.offset


def test_trace_module():
    model = Small()
    x = torch.ones((4, 3))
    traced = trace(model, (x,))
    text = str(traced.graph)
    assert 'prim::GetAttr[name="fc"]' in text and 'prim::GetAttr[name="offset"]' in text
    assert np.allclose(traced(x).detach().numpy(), model(x).detach().numpy())


def mutates_input(x):
    x[0] = 5.0
    y = x[1:]
    y += 1
    return x


def test_indexing_and_assignment_are_recorded():
    x = torch.zeros(3)
    traced = trace(mutates_input, (x.clone(),))
    z = torch.zeros(3)
    assert traced(z).tolist() == [5.0, 1.0, 1.0]
