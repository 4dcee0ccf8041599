"""Fusion reaches module code: scripted modules (linear layers, convolutions with batch norm,
attention with softmax and layer norm) get their parameters' types from the executor, so the
pointwise work after each layer fuses, with the bias adds, inference batch norm, softmax and
layer_norm inside the groups; results match the same modules run with fusion off."""

from __future__ import annotations

import numpy as np
import pytest
import tsjit as torch

nn = torch.nn
F = torch.nn.functional


class Norm(nn.Module):
    """Batch norm over channels, written out (as nn.BatchNorm2d computes it)."""

    def __init__(self, channels: int) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.rand(channels) + 0.5)
        self.bias = nn.Parameter(torch.rand(channels))
        self.register_buffer("running_mean", torch.rand(channels))
        self.register_buffer("running_var", torch.rand(channels) + 0.5)

    def forward(self, x):
        return F.batch_norm(
            x, self.running_mean, self.running_var, self.weight, self.bias, self.training, 0.1, 1e-5
        )


class Block(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.bn = Norm(8)
        self.fc = nn.Linear(8, 5)

    def forward(self, x):
        y = F.relu(self.bn(self.conv(x)))
        y = F.max_pool2d(y, 2)
        y = F.adaptive_avg_pool2d(y, (1, 1))
        return F.gelu(self.fc(torch.flatten(y, 1)))


class Attention(nn.Module):
    def __init__(self, d: int = 16, heads: int = 2) -> None:
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)
        self.norm = nn.LayerNorm(d)
        self.ff = nn.Linear(d, d)

    def forward(self, x):
        b, n, d = x.size(0), x.size(1), x.size(2)
        q, k, v = self.qkv(x).chunk(3, -1)
        q = q.reshape(b, n, self.heads, d // self.heads).transpose(1, 2)
        k = k.reshape(b, n, self.heads, d // self.heads).transpose(1, 2)
        v = v.reshape(b, n, self.heads, d // self.heads).transpose(1, 2)
        a = torch.matmul(F.softmax(torch.matmul(q, k.transpose(-2, -1)) * 0.25, -1), v)
        x = self.norm(x + self.out(a.transpose(1, 2).reshape(b, n, d)))
        return F.log_softmax(x + F.gelu(self.ff(x)), -1)


def _group_kinds(graph) -> set[str]:
    kinds = set()
    for node in graph.all_nodes():
        if node.kind == "prim::FusionGroup":
            kinds |= {str(n.kind) for n in node.g("Subgraph").nodes()}
    return kinds


@pytest.mark.parametrize(
    ("module", "shape", "expected"),
    [
        (Block, (2, 3, 8, 8), {"aten::add", "aten::mul", "aten::relu", "aten::gelu"}),
        (
            Attention,
            (2, 6, 16),
            {"aten::softmax", "aten::layer_norm", "aten::log_softmax", "aten::gelu", "aten::add"},
        ),
    ],
)
def test_module_code_fuses_and_matches_unfused(module, shape, expected):
    m = torch.jit.script(module().eval())
    x = torch.from_numpy(np.random.default_rng(0).standard_normal(shape).astype(np.float32))
    with torch.no_grad():
        fused = m(x).numpy()
        graph = m.forward.graph_for(x)
        with torch.jit.fuser("none"):
            unfused = m(x).numpy()
    assert expected <= _group_kinds(graph), _group_kinds(graph)
    assert "aten::batch_norm" not in str(graph)
    np.testing.assert_allclose(fused, unfused, rtol=1e-5, atol=1e-5)


def test_changing_a_parameter_dtype_recompiles_rather_than_misreading():
    m = torch.jit.script(Block().eval())
    x = torch.from_numpy(np.random.default_rng(1).standard_normal((1, 3, 4, 4)).astype(np.float32))
    with torch.no_grad():
        first = m(x).numpy()
        for sub in (m.conv, m.bn, m.fc):
            for name in ("weight", "bias", "running_mean", "running_var"):
                if hasattr(sub, name):
                    setattr(sub, name, getattr(sub, name).double())
        second = m(x.double())
    assert second.dtype == torch.float64
    np.testing.assert_allclose(second.numpy(), first, rtol=1e-5, atol=1e-6)
