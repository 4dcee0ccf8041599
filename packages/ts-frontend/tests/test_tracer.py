"""Tracing functions and modules: the recorded graph, constants, warnings and checks."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import ts_runtime as torch
from ts_frontend import (
    ScriptModule,
    TracerWarning,
    TracingCheckError,
    TracingError,
    script,
    script_method,
    trace,
)
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


def test_sizes_are_traced_not_baked():
    traced = trace(uses_a_size, (torch.ones((2, 3)),))
    kinds = [str(n.kind) for n in traced.graph.nodes()]
    assert kinds.count("aten::size") == 2 and "prim::NumToTensor" in kinds
    assert "aten::Int" in kinds and "aten::mul" in kinds
    assert traced(torch.ones((4, 5))).shape == (20,)


def zeros_by_batch(x):
    return torch.zeros(x.size(0), 3) + x.sum()


def test_a_size_passed_as_an_int_follows_the_input():
    """The issue's example: the trace made at batch 4 gives [6, 3] at batch 6."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing is baked in, so nothing warns
        traced = trace(zeros_by_batch, (torch.randn(4, 2),))
    x = torch.randn(6, 2)
    assert traced(x).shape == (6, 3)
    assert np.allclose(traced(x).numpy(), zeros_by_batch(x).numpy())
    graph = str(traced.graph)
    assert "aten::size(%x" in graph and "prim::NumToTensor" in graph and "aten::Int" in graph


def size_forms(x):
    b, c = x.shape
    flat = x.reshape(b * c)
    half = x[:, : x.size(1) // 2]
    count = torch.arange(x.size(0)).float() / x.numel()
    last = x[x.size(0) - 1]
    return flat, half, x.new_zeros(x.shape[0], 2), count, last, x.expand(x.size(0), c)


@pytest.mark.parametrize("batch", [1, 3, 7])
def test_every_way_of_reading_a_size_generalizes(batch):
    traced = trace(size_forms, (torch.randn(4, 6),))
    x = torch.randn(batch, 6)
    for got, want in zip(traced(x), size_forms(x), strict=True):
        assert got.shape == want.shape
        assert np.allclose(got.numpy(), want.numpy())


def test_size_tensors_are_0_dim_integers_while_tracing():
    seen = []

    def f(x):
        seen.extend([x.size(0), x.shape[1], x.numel(), x.size(), x.dim()])
        return x * 2

    trace(f, (torch.ones((2, 3)),))
    n, m, numel, sizes, dim = seen[:5]  # the check that follows the trace runs f again
    assert [t.dim() for t in (n, m, numel)] == [0, 0, 0]
    assert [int(t) for t in (n, m, numel)] == [2, 3, 6]
    assert isinstance(sizes, torch.Size) and [int(t) for t in sizes] == [2, 3]
    assert dim == 2  # not traced, as in PyTorch
    assert torch.ones(2).size(0) == 2  # outside a trace sizes are ints again


def ellipsis_index(x):
    return x[..., 0, :] * 2


def test_ellipsis_dims_are_recorded_by_position():
    traced = trace(ellipsis_index, (torch.randn(2, 3, 4, 5),))
    x = torch.randn(5, 3, 4, 5)
    assert np.allclose(traced(x).numpy(), ellipsis_index(x).numpy())


_BAKED = (
    "Converting a tensor to a {} might cause the trace to be incorrect. We can't record the "
    "data flow of Python values, so this value will be treated as a constant in the future. "
    "This means that the trace might not generalize to other inputs!"
)


def _traced_warnings(fn, *inputs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        trace(fn, inputs)
    return [str(w.message) for w in caught if issubclass(w.category, TracerWarning)]


@pytest.mark.parametrize(
    "fn, what",
    [
        (lambda x: x * 2 if bool(x.sum() > 0) else x, "Python boolean"),
        (lambda x: x * int(x.sum()), "Python integer"),
        (lambda x: x * float(x.mean()), "Python float"),
        (lambda x: x + x.max().item(), "Python number"),
        (lambda x: x + len(x.tolist()), "Python list"),
        (lambda x: x + 1 if x.shape[0] == 3 else x, "Python boolean"),
    ],
)
def test_baked_values_warn_with_pytorchs_message(fn, what):
    assert _BAKED.format(what) in _traced_warnings(fn, torch.ones(3))


def test_len_iteration_and_tensor_constants_warn():
    def f(x):
        rows = [r * 2 for r in x]
        return torch.stack(rows) * len(x) + torch.tensor([1.0, 2.0])

    messages = _traced_warnings(f, torch.ones((3, 2)))
    assert any(m.startswith("Using len to get tensor shape might cause") for m in messages)
    assert any(m.startswith("Iterating over a tensor might cause") for m in messages)
    assert any(m.startswith("torch.tensor results are registered as constants") for m in messages)


def test_a_size_used_as_an_index_is_baked_silently_as_in_pytorch():
    def f(x):
        return torch.stack([x[i] for i in range(x.size(0))])

    assert _traced_warnings(f, torch.ones((3, 2))) == []


def test_library_conversions_do_not_warn():
    """A size tensor converted to an int by dispatch is recorded (aten::Int), not warned."""

    def f(x):
        return x.view(x.size(0), -1).sum(x.dim() - 2)

    assert _traced_warnings(f, torch.ones((3, 2, 2))) == []


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


class Repeat(ScriptModule):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 3)

    @script_method
    def forward(self, x):
        for _ in range(x.size(0)):
            x = torch.tanh(self.fc(x))
        return x


class Scale(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.full([3], 0.5))

    def forward(self, x):
        return x * self.scale


class CallsScriptedSubmodules(nn.Module):
    def __init__(self):
        super().__init__()
        self.repeat = Repeat()
        self.scale = Scale()

    def forward(self, x):
        return self.scale(self.repeat.forward(x)) + self.repeat(x)


def test_methods_of_scripted_submodules_are_recorded_with_their_control_flow():
    """A traced module calling its `@script_method` submodule (as `m.forward(x)` or `m(x)`)
    records the call through the submodule, loop included: a trace made with two rows runs
    the loop once per row of a later input."""
    model = CallsScriptedSubmodules()
    traced = trace(model, (torch.randn(2, 3),))
    text = str(traced.graph)
    assert "prim::Loop" in text and 'prim::GetAttr[name="repeat"]' in text
    for rows in (1, 4):
        x = torch.randn(rows, 3)
        assert np.allclose(traced(x).detach().numpy(), model(x).detach().numpy())
    with torch.no_grad():
        model.repeat.fc.bias.fill_(2.0)  # the trace reads the submodule's state, not a copy
    x = torch.randn(3, 3)
    assert np.allclose(traced(x).detach().numpy(), model(x).detach().numpy())


outside = Repeat()


class CallsAModuleOutsideItself(nn.Module):
    def forward(self, x):
        return outside(x)


def test_a_scripted_module_outside_the_traced_one_is_a_typed_error():
    with pytest.raises(TracingError, match="not part of the trace"):
        trace(CallsAModuleOutsideItself(), (torch.randn(2, 3),))
