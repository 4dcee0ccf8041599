"""`ts_runtime.nn`: Module registration and traversal, state dicts, modes, containers, layers."""

from __future__ import annotations

import copy
import math
import pickle

import numpy as np
import pytest
import ts_runtime as ts
from ts_runtime import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 3)
        self.act = nn.ReLU()
        self.scale = nn.Parameter(ts.ones(3))
        self.register_buffer("steps", ts.zeros(1))
        self.register_buffer("cache", ts.zeros(2), persistent=False)
        self.head = nn.Sequential(nn.Linear(3, 2), nn.Tanh())

    def forward(self, x):
        return self.head(self.act(self.fc1(x)) * self.scale)


def test_registration_and_traversal_order():
    net = Net()
    assert [n for n, _ in net.named_parameters()] == [
        "scale",
        "fc1.weight",
        "fc1.bias",
        "head.0.weight",
        "head.0.bias",
    ]
    assert [n for n, _ in net.named_buffers()] == ["steps", "cache"]
    assert [n for n, _ in net.named_children()] == ["fc1", "act", "head"]
    assert [n for n, _ in net.named_modules()] == ["", "fc1", "act", "head", "head.0", "head.1"]
    assert len(list(net.parameters())) == 5 and len(list(net.modules())) == 6
    assert list(net.state_dict()) == [
        "scale",
        "steps",
        "fc1.weight",
        "fc1.bias",
        "head.0.weight",
        "head.0.bias",
    ]
    assert all(isinstance(p, nn.Parameter) and p.requires_grad for p in net.parameters())
    assert not net.state_dict()["scale"].requires_grad
    assert (
        net.get_submodule("head.0") is net.head[0] and net.get_parameter("fc1.bias") is net.fc1.bias
    )


def test_shared_parameters_are_listed_once():
    lin = nn.Linear(2, 2)
    seq = nn.Sequential(lin, lin)
    assert len(list(seq.parameters())) == 2


def test_assignment_rules():
    net = Net()
    with pytest.raises(TypeError, match="cannot assign 'Tensor' as parameter 'scale'"):
        net.scale = ts.ones(3)
    net.scale = None
    assert "scale" not in dict(net.named_parameters())
    with pytest.raises(TypeError, match="as child module"):
        net.fc1 = 3
    net.steps = ts.ones(1)
    assert net.state_dict()["steps"].tolist() == [1.0]
    with pytest.raises(AttributeError, match="no attribute 'missing'"):
        _ = net.missing
    del net.act
    assert "act" not in dict(net.named_children())
    with pytest.raises(AttributeError, match=r"before Module\.__init__"):

        class Broken(nn.Module):
            def __init__(self):
                self.w = nn.Parameter(ts.ones(1))

        Broken()


def test_state_dict_round_trip():
    ts.manual_seed(0)
    a, b = Net(), Net()
    b.load_state_dict(a.state_dict())
    x = ts.randn(5, 4)
    assert ts.equal(a(x), b(x))
    # load copies: later changes to the source do not leak
    with ts.no_grad():
        a.fc1.weight.add_(1.0)
    assert not ts.equal(a.fc1.weight, b.fc1.weight)


def test_load_state_dict_strict_errors_list_every_key():
    net = Net()
    state = net.state_dict()
    del state["fc1.bias"]
    state["extra"] = ts.ones(1)
    with pytest.raises(nn.StateDictError) as info:
        net.load_state_dict(state)
    message = str(info.value)
    assert "Error(s) in loading state_dict for Net" in message
    assert 'Missing key(s) in state_dict: "fc1.bias".' in message
    assert 'Unexpected key(s) in state_dict: "extra".' in message
    result = net.load_state_dict(state, strict=False)
    assert result.missing_keys == ["fc1.bias"] and result.unexpected_keys == ["extra"]
    bad = net.state_dict()
    bad["fc1.weight"] = ts.ones(3, 5)
    with pytest.raises(
        nn.StateDictError,
        match=r"size mismatch for fc1.weight: copying a param with shape torch.Size\(\[3, 5\]\)",
    ):
        net.load_state_dict(bad)
    assert isinstance(info.value, RuntimeError)


def test_train_eval_zero_grad_apply_requires_grad():
    net = Net()
    assert net.training and net.head[1].training
    net.eval()
    assert not net.training and not net.head[0].training
    net.train()
    assert net.head[0].training
    net(ts.ones(2, 4)).sum().backward()
    assert net.fc1.weight.grad is not None
    net.zero_grad()
    assert all(p.grad is None for p in net.parameters())
    net(ts.ones(2, 4)).sum().backward()
    net.zero_grad(set_to_none=False)
    assert all(p.grad.abs().sum().item() == 0 for p in net.parameters())
    seen = []
    net.apply(lambda m: seen.append(type(m).__name__))
    assert seen == ["Linear", "ReLU", "Linear", "Tanh", "Sequential", "Net"]
    net.requires_grad_(False)
    assert not any(p.requires_grad for p in net.parameters())


def test_to_converts_floating_point_state():
    net = Net()
    net.register_buffer("count", ts.zeros(1, dtype=ts.int64))
    weight = net.fc1.weight
    net.to(ts.float64)
    assert net.fc1.weight is weight and weight.dtype == ts.float64
    assert net.steps.dtype == ts.float64 and net.count.dtype == ts.int64
    assert net(ts.ones(1, 4, dtype=ts.float64)).dtype == ts.float64
    net.float()
    assert net.fc1.bias.dtype == ts.float32
    with pytest.raises(ts.TensorError, match="cuda"):
        net.to("cuda")


def test_repr_matches_torch_layout():
    net = Net()
    assert repr(net) == (
        "Net(\n"
        "  (fc1): Linear(in_features=4, out_features=3, bias=True)\n"
        "  (act): ReLU()\n"
        "  (head): Sequential(\n"
        "    (0): Linear(in_features=3, out_features=2, bias=True)\n"
        "    (1): Tanh()\n"
        "  )\n"
        ")"
    )
    assert repr(nn.Dropout(0.1)) == "Dropout(p=0.1, inplace=False)"
    assert repr(nn.LayerNorm(4)) == "LayerNorm((4,), eps=1e-05, elementwise_affine=True)"
    assert (
        repr(nn.BatchNorm1d(3))
        == "BatchNorm1d(3, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True)"
    )
    assert repr(nn.Embedding(10, 3, padding_idx=0)) == "Embedding(10, 3, padding_idx=0)"
    assert repr(nn.GELU()) == "GELU(approximate='none')"
    assert repr(nn.Softmax(dim=1)) == "Softmax(dim=1)"
    assert repr(nn.Flatten()) == "Flatten(start_dim=1, end_dim=-1)"
    assert (
        repr(nn.Parameter(ts.tensor([1.0])))
        == "Parameter containing:\ntensor([1.], requires_grad=True)"
    )


def test_sequential_and_module_list_and_module_dict():
    seq = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1))
    assert len(seq) == 3 and isinstance(seq[-1], nn.Linear)
    assert isinstance(seq[:2], nn.Sequential) and len(seq[:2]) == 2
    assert [type(m).__name__ for m in seq] == ["Linear", "ReLU", "Linear"]
    with pytest.raises(IndexError, match="out of range"):
        seq[3]
    seq.append(nn.Sigmoid())
    assert tuple(seq(ts.ones(5, 2)).shape) == (5, 1)
    del seq[0]
    assert list(dict(seq.named_children())) == ["0", "1", "2"]
    layers = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)])
    layers.append(nn.Tanh())
    assert len(layers) == 4 and len(list(layers.parameters())) == 6
    assert isinstance(layers[1:3], nn.ModuleList)
    blocks = nn.ModuleDict({"a": nn.ReLU(), "b": nn.Tanh()})
    blocks["c"] = nn.Identity()
    assert list(blocks) == ["a", "b", "c"] and "b" in blocks and len(blocks) == 3
    assert isinstance(blocks.pop("a"), nn.ReLU) and list(blocks.keys()) == ["b", "c"]


def test_linear_default_initialization_bounds():
    ts.manual_seed(3)
    lin = nn.Linear(25, 40)
    bound = 1 / math.sqrt(25)
    w, b = lin.weight.detach().numpy(), lin.bias.detach().numpy()
    assert w.shape == (40, 25) and np.abs(w).max() <= bound and np.abs(w).max() > 0.9 * bound
    assert np.abs(b).max() <= bound
    assert abs(w.std() - bound / math.sqrt(3)) < 0.01  # U(-bound, bound)
    ts.manual_seed(3)
    assert ts.equal(nn.Linear(25, 40).weight, lin.weight)
    assert nn.Linear(3, 2, bias=False).bias is None


def test_layers_forward():
    x = ts.tensor([[-1.0, 0.0, 2.0]])
    assert nn.ReLU()(x).tolist() == [[0.0, 0.0, 2.0]]
    assert nn.Identity()(x) is x
    assert tuple(nn.Flatten()(ts.ones(2, 3, 4)).shape) == (2, 12)
    assert nn.Softmax(dim=1)(x).sum().item() == pytest.approx(1.0)
    assert nn.LogSoftmax(dim=1)(x).exp().sum().item() == pytest.approx(1.0)
    assert nn.MSELoss()(x, ts.zeros(1, 3)).item() == pytest.approx(5 / 3)
    assert nn.CrossEntropyLoss()(ts.tensor([[0.0, 0.0]]), ts.tensor([1])).item() == pytest.approx(
        math.log(2)
    )
    norm = nn.LayerNorm(3)
    assert abs(norm(x).mean().item()) < 1e-6
    emb = nn.Embedding(5, 2, padding_idx=1)
    assert emb.weight[1].tolist() == [0.0, 0.0] and tuple(emb(ts.tensor([[1, 4]])).shape) == (
        1,
        2,
        2,
    )
    drop = nn.Dropout(0.5)
    drop.eval()
    assert drop(x) is x


def test_batch_norm_module_tracks_running_stats():
    bn = nn.BatchNorm1d(2, momentum=0.5)
    x = ts.tensor([[1.0, 2.0], [3.0, 6.0]])
    bn(x)
    assert bn.num_batches_tracked.item() == 1 and bn.num_batches_tracked.dtype == ts.int64
    np.testing.assert_allclose(bn.running_mean.numpy(), [1.0, 2.0])
    np.testing.assert_allclose(bn.running_var.numpy(), [0.5 + 0.5 * 2.0, 0.5 + 0.5 * 8.0])
    bn.eval()
    out = bn(x)
    np.testing.assert_allclose(
        out.detach().numpy(),
        ((x - bn.running_mean) / (bn.running_var + 1e-5).sqrt()).numpy(),
        rtol=1e-6,
    )
    assert bn.num_batches_tracked.item() == 1
    assert list(bn.state_dict()) == [
        "weight",
        "bias",
        "running_mean",
        "running_var",
        "num_batches_tracked",
    ]
    with pytest.raises(ValueError, match="expected 2D or 3D input"):
        bn(ts.ones(2, 2, 2, 2))


def test_forward_hooks():
    lin = nn.Linear(2, 2)
    calls = []
    handle = lin.register_forward_hook(
        lambda m, args, out: calls.append(tuple(out.shape)) or out * 0
    )
    assert lin(ts.ones(3, 2)).abs().sum().item() == 0.0
    handle.remove()
    assert lin(ts.ones(3, 2)).abs().sum().item() > 0
    assert calls == [(3, 2)]


def test_parameters_copy_and_pickle():
    net = Net()
    clone = copy.deepcopy(net)
    assert isinstance(clone.fc1.weight, nn.Parameter) and clone.fc1.weight is not net.fc1.weight
    assert ts.equal(clone.fc1.weight, net.fc1.weight)
    restored = pickle.loads(pickle.dumps(net))
    assert ts.equal(restored.head[0].bias, net.head[0].bias) and restored.head[0].bias.requires_grad
    frozen = nn.Parameter(ts.ones(2), requires_grad=False)
    assert not copy.deepcopy(frozen).requires_grad


def test_init_functions():
    ts.manual_seed(0)
    w = ts.empty(200, 100)
    nn.init.xavier_uniform_(w)
    bound = math.sqrt(6 / 300)
    assert w.abs().max().item() <= bound
    nn.init.kaiming_normal_(w, nonlinearity="relu")
    assert abs(w.std().item() - math.sqrt(2 / 100)) < 0.01
    nn.init.constant_(w, 0.5)
    assert w.min().item() == w.max().item() == 0.5
    nn.init.zeros_(w)
    assert w.abs().sum().item() == 0
    assert nn.init.calculate_gain("tanh") == pytest.approx(5 / 3)
