"""Scripted modules behave as PyTorch's: modes reach compiled code, dtype conversions,
parameters and buffers by name, state dicts, requires_grad_ and zero_grad."""

from __future__ import annotations

import numpy as np
import pytest
import tsjit
from tsjit import nn
from tsjit.nn import StateDictError


class Gated(nn.Module):
    """Reads self.training in its own code, and holds layers that read theirs."""

    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.bn = nn.BatchNorm1d(4)
        self.drop = nn.Dropout(0.5)
        self.register_buffer("calls", tsjit.zeros(1))
        self.register_buffer("scratch", tsjit.zeros(2), persistent=False)

    def forward(self, x):
        y = self.drop(self.bn(self.fc(x)))
        if self.training:
            self.calls.add_(1)
            return y * 2
        return y


def _x(*shape: int) -> tsjit.Tensor:
    return tsjit.tensor(np.random.RandomState(0).standard_normal(shape).astype(np.float32))


def test_train_and_eval_reach_the_compiled_code():
    model = Gated()
    scripted = tsjit.jit.script(model)
    x = _x(8, 4)
    assert scripted.training and scripted.drop.training
    train_out = scripted(x)
    assert (train_out.detach().numpy() == 0).mean() > 0.2  # dropout is active
    assert scripted.calls.item() == 1.0
    scripted.eval()
    assert not scripted.training and not scripted.bn.training and not scripted.drop.training
    model.eval()
    np.testing.assert_allclose(scripted(x).detach().numpy(), model(x).detach().numpy(), rtol=1e-6)
    assert scripted.calls.item() == 1.0  # the eval branch does not count
    scripted.train()
    assert scripted.bn.training
    scripted(x)
    assert scripted.calls.item() == 2.0
    with pytest.raises(ValueError, match="boolean"):
        scripted.train("yes")


def test_to_double_float_and_half():
    model = nn.Sequential(nn.Linear(3, 4), nn.LayerNorm(4), nn.Tanh())
    scripted = tsjit.jit.script(model)
    x = _x(2, 3)
    expected = model(x).detach().numpy()
    assert scripted.double() is scripted
    assert all(p.dtype == tsjit.float64 for p in scripted.parameters())
    out = scripted(x.double())
    assert out.dtype == tsjit.float64
    np.testing.assert_allclose(out.detach().numpy(), expected, rtol=1e-5, atol=1e-6)
    scripted.float()
    assert all(p.dtype == tsjit.float32 for p in scripted.parameters())
    assert scripted(x).dtype == tsjit.float32
    scripted.half()
    assert all(p.dtype == tsjit.float16 for p in scripted.parameters())
    assert scripted(x.half()).dtype == tsjit.float16
    scripted.to(tsjit.float32)
    with pytest.raises(TypeError, match="floating point"):
        scripted.to(tsjit.int64)


def test_to_double_reaches_the_weights_an_lstm_lists():
    lstm = nn.LSTM(3, 4, num_layers=2)
    scripted = tsjit.jit.script(lstm)
    x = _x(5, 2, 3)
    expected = lstm(x)[0].detach().numpy()
    scripted.double()
    out, (h, c) = scripted(x.double())
    assert out.dtype == h.dtype == c.dtype == tsjit.float64
    np.testing.assert_allclose(out.detach().numpy(), expected, rtol=1e-5, atol=1e-6)


def test_buffers_convert_and_integer_buffers_stay():
    scripted = tsjit.jit.script(nn.BatchNorm1d(3))
    scripted.double()
    assert scripted.running_mean.dtype == tsjit.float64
    assert scripted.num_batches_tracked.dtype == tsjit.int64


def test_named_parameters_buffers_and_state_dict_match_the_eager_module():
    model = Gated()
    scripted = tsjit.jit.script(model)
    assert [n for n, _ in scripted.named_parameters()] == [n for n, _ in model.named_parameters()]
    assert [n for n, _ in scripted.named_buffers()] == [n for n, _ in model.named_buffers()]
    assert list(scripted.state_dict()) == list(model.state_dict())
    assert "scratch" not in scripted.state_dict()
    for (n, a), (_, b) in zip(scripted.named_parameters(), model.named_parameters(), strict=True):
        assert a is b, n


def test_shared_parameters_are_listed_once():
    lin = nn.Linear(2, 2)
    scripted = tsjit.jit.script(nn.Sequential(lin, lin))
    assert len(list(scripted.parameters())) == 2
    assert len(list(scripted.named_parameters(remove_duplicate=False))) == 4


def test_load_state_dict_copies_checks_and_assigns():
    source = tsjit.jit.script(Gated())
    target = tsjit.jit.script(Gated())
    result = target.load_state_dict(source.state_dict())
    assert result.missing_keys == [] and result.unexpected_keys == []
    for (n, a), (_, b) in zip(
        target.state_dict().items(), source.state_dict().items(), strict=True
    ):
        np.testing.assert_array_equal(a.numpy(), b.numpy(), err_msg=n)
    state = source.state_dict()
    del state["fc.bias"]
    state["extra"] = tsjit.zeros(1)
    with pytest.raises(StateDictError, match=r'Missing key\(s\) in state_dict: "fc.bias"') as err:
        target.load_state_dict(state)
    assert 'Unexpected key(s) in state_dict: "extra"' in str(err.value)
    result = target.load_state_dict(state, strict=False)
    assert result.missing_keys == ["fc.bias"] and result.unexpected_keys == ["extra"]
    bad = source.state_dict()
    bad["fc.weight"] = tsjit.zeros(3, 3)
    with pytest.raises(StateDictError, match=r"size mismatch for fc\.weight"):
        target.load_state_dict(bad)
    fresh = tsjit.ones(4)
    target.load_state_dict({**source.state_dict(), "fc.bias": fresh}, assign=True)
    assert target.fc.bias.requires_grad
    np.testing.assert_array_equal(target.fc.bias.detach().numpy(), np.ones(4))


def test_requires_grad_and_zero_grad():
    scripted = tsjit.jit.script(nn.Sequential(nn.Linear(3, 2), nn.ReLU(), nn.Linear(2, 1)))
    x = _x(4, 3)
    scripted(x).sum().backward()
    assert all(p.grad is not None for p in scripted.parameters())
    scripted.zero_grad(set_to_none=False)
    assert all(not p.grad.numpy().any() for p in scripted.parameters())
    scripted.zero_grad()
    assert all(p.grad is None for p in scripted.parameters())
    assert scripted.requires_grad_(False) is scripted
    assert not any(p.requires_grad for p in scripted.parameters())
    assert not scripted(x).requires_grad
    scripted.requires_grad_()
    assert scripted(x).requires_grad


def test_isinstance_of_bare_list_and_tuple_in_compiled_code():
    def expand(size: int | list[int]) -> list[int]:
        if isinstance(size, list):
            return size
        return [size, size]

    f = tsjit.jit.script(expand)
    assert f([5, 7]) == [5, 7]
    assert f(3) == [3, 3]
