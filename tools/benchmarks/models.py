"""The benchmark's models, written once for tsjit and PyTorch.

`library(torch)` defines the classes from `torch` (the `tsjit` facade or
PyTorch itself), so the tsjit model and its PyTorch twin are the same code,
scripted by each library. Weights are drawn from a seed with numpy and loaded
into both by state-dict key (`weights`), so both compute the same function.

| model | what | input |
|---|---|---|
| mlp | Linear 256→512, ReLU, 512→512, ReLU, 512→10 | 64×256 |
| cnn | 3 convolutions 3×3 of 32 channels with ReLU, max pooling after the second, global average pooling, Linear 32→10 | 8×3×32×32 |
| resnet18 | ResNet-18 as torchvision lays it out (BasicBlocks; batch norm, in eval mode, written as `F.batch_norm` with nn.BatchNorm2d's parameters) | 8×3×64×64 |
| lstm | an LSTM cell unrolled by a loop over 20 steps, batch 64, 512 → 512 | 20×64×512 |
| transformer | 2 post-norm Transformer encoder layers: 4 heads, GELU feed-forward of 1024 | 4×64×256 |
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Spec:
    name: str
    args: dict[str, Any]
    input_shape: tuple[int, ...]
    what: str


SPECS = {
    "mlp": Spec("mlp", {"sizes": [256, 512, 512, 10]}, (64, 256), "MLP 256-512-512-10, batch 64"),
    "cnn": Spec("cnn", {"channels": 32}, (8, 3, 32, 32), "CNN, 3 convs of 32 channels, 8×3×32×32"),
    "resnet18": Spec(
        "resnet18", {"num_classes": 1000}, (8, 3, 64, 64), "ResNet-18, batch 8, 3×64×64"
    ),
    "lstm": Spec("lstm", {"input": 512, "hidden": 512}, (20, 64, 512), "LSTM, 20 steps, 64×512"),
    "transformer": Spec(
        "transformer",
        {"d_model": 256, "nhead": 4, "ff": 1024, "layers": 2},
        (4, 64, 256),
        "Transformer encoder, 2 layers, 4×64×256",
    ),
}


def library(torch: Any) -> dict[str, Any]:
    """The model classes, made from `torch` (tsjit or PyTorch)."""
    nn = torch.nn
    F = torch.nn.functional

    class MLP(nn.Module):
        def __init__(self, sizes: list[int]) -> None:
            super().__init__()
            self.fc1 = nn.Linear(sizes[0], sizes[1])
            self.fc2 = nn.Linear(sizes[1], sizes[2])
            self.fc3 = nn.Linear(sizes[2], sizes[3])

        def forward(self, x):
            x = F.relu(self.fc1(x))
            x = F.relu(self.fc2(x))
            return self.fc3(x)

    class CNN(nn.Module):
        def __init__(self, channels: int) -> None:
            super().__init__()
            self.conv1 = nn.Conv2d(3, channels, 3, padding=1)
            self.conv2 = nn.Conv2d(channels, channels, 3, padding=1)
            self.conv3 = nn.Conv2d(channels, channels, 3, padding=1)
            self.fc = nn.Linear(channels, 10)

        def forward(self, x):
            x = F.relu(self.conv1(x))
            x = F.max_pool2d(F.relu(self.conv2(x)), 2)
            x = F.relu(self.conv3(x))
            x = F.adaptive_avg_pool2d(x, (1, 1))
            return self.fc(torch.flatten(x, 1))

    class BatchNorm2d(nn.Module):
        """nn.BatchNorm2d's parameters and buffers, and its computation through F.batch_norm."""

        def __init__(self, channels: int, eps: float = 1e-5, momentum: float = 0.1) -> None:
            super().__init__()
            self.eps = eps
            self.momentum = momentum
            self.weight = nn.Parameter(torch.ones(channels))
            self.bias = nn.Parameter(torch.zeros(channels))
            self.register_buffer("running_mean", torch.zeros(channels))
            self.register_buffer("running_var", torch.ones(channels))

        def forward(self, x):
            return F.batch_norm(
                x,
                self.running_mean,
                self.running_var,
                self.weight,
                self.bias,
                self.training,
                self.momentum,
                self.eps,
            )

    class BasicBlock(nn.Module):
        def __init__(self, inplanes: int, planes: int, stride: int = 1, downsample=None) -> None:
            super().__init__()
            self.conv1 = nn.Conv2d(inplanes, planes, 3, stride, 1, bias=False)
            self.bn1 = BatchNorm2d(planes)
            self.relu = nn.ReLU(inplace=True)
            self.conv2 = nn.Conv2d(planes, planes, 3, 1, 1, bias=False)
            self.bn2 = BatchNorm2d(planes)
            self.downsample = downsample

        def forward(self, x):
            identity = x
            out = self.relu(self.bn1(self.conv1(x)))
            out = self.bn2(self.conv2(out))
            if self.downsample is not None:
                identity = self.downsample(x)
            out += identity
            return self.relu(out)

    class ResNet18(nn.Module):
        def __init__(self, num_classes: int = 1000, width: int = 64) -> None:
            super().__init__()
            self.inplanes = width
            self.conv1 = nn.Conv2d(3, width, kernel_size=7, stride=2, padding=3, bias=False)
            self.bn1 = BatchNorm2d(width)
            self.relu = nn.ReLU(inplace=True)
            self.layer1 = self._make_layer(width, 1)
            self.layer2 = self._make_layer(width * 2, 2)
            self.layer3 = self._make_layer(width * 4, 2)
            self.layer4 = self._make_layer(width * 8, 2)
            self.fc = nn.Linear(width * 8, num_classes)

        def _make_layer(self, planes: int, stride: int):
            downsample = None
            if stride != 1 or self.inplanes != planes:
                downsample = nn.Sequential(
                    nn.Conv2d(self.inplanes, planes, 1, stride, bias=False),
                    BatchNorm2d(planes),
                )
            first = BasicBlock(self.inplanes, planes, stride, downsample)
            self.inplanes = planes
            return nn.Sequential(first, BasicBlock(planes, planes))

        def forward(self, x):
            x = F.max_pool2d(self.relu(self.bn1(self.conv1(x))), 3, 2, 1)
            x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
            x = F.adaptive_avg_pool2d(x, (1, 1))
            return self.fc(torch.flatten(x, 1))

    class LSTM(nn.Module):
        """One LSTM layer as the JIT overview writes its cell, over the first dimension."""

        def __init__(self, input: int, hidden: int) -> None:
            super().__init__()
            self.hidden = hidden
            self.w_ih = nn.Parameter(torch.zeros(4 * hidden, input))
            self.w_hh = nn.Parameter(torch.zeros(4 * hidden, hidden))
            self.b_ih = nn.Parameter(torch.zeros(4 * hidden))
            self.b_hh = nn.Parameter(torch.zeros(4 * hidden))

        def forward(self, xs):
            hx = torch.zeros(xs.size(1), self.hidden)
            cx = torch.zeros(xs.size(1), self.hidden)
            for t in range(xs.size(0)):
                gates = xs[t].mm(self.w_ih.t()) + hx.mm(self.w_hh.t()) + self.b_ih + self.b_hh
                ingate, forgetgate, cellgate, outgate = gates.chunk(4, 1)
                ingate = torch.sigmoid(ingate)
                forgetgate = torch.sigmoid(forgetgate)
                cellgate = torch.tanh(cellgate)
                outgate = torch.sigmoid(outgate)
                cx = (forgetgate * cx) + (ingate * cellgate)
                hx = outgate * torch.tanh(cx)
            return hx

    class EncoderLayer(nn.Module):
        """A post-norm Transformer encoder layer (as `nn.TransformerEncoderLayer` with
        batch_first=True, activation="gelu", dropout 0), written out."""

        def __init__(self, d_model: int, nhead: int, ff: int) -> None:
            super().__init__()
            self.nhead = nhead
            self.in_proj = nn.Linear(d_model, 3 * d_model)
            self.out_proj = nn.Linear(d_model, d_model)
            self.linear1 = nn.Linear(d_model, ff)
            self.linear2 = nn.Linear(ff, d_model)
            self.norm1 = nn.LayerNorm(d_model)
            self.norm2 = nn.LayerNorm(d_model)

        def forward(self, x):
            b, n, d = x.size(0), x.size(1), x.size(2)
            h = self.nhead
            q, k, v = self.in_proj(x).chunk(3, -1)
            q = q.reshape(b, n, h, d // h).transpose(1, 2)
            k = k.reshape(b, n, h, d // h).transpose(1, 2)
            v = v.reshape(b, n, h, d // h).transpose(1, 2)
            scores = torch.matmul(q, k.transpose(-2, -1)) / ((d // h) ** 0.5)
            attn = torch.matmul(F.softmax(scores, -1), v)
            attn = attn.transpose(1, 2).reshape(b, n, d)
            x = self.norm1(x + self.out_proj(attn))
            return self.norm2(x + self.linear2(F.gelu(self.linear1(x))))

    class Transformer(nn.Module):
        def __init__(self, d_model: int, nhead: int, ff: int, layers: int) -> None:
            super().__init__()
            self.layers = nn.ModuleList([EncoderLayer(d_model, nhead, ff) for _ in range(layers)])

        def forward(self, x):
            for layer in self.layers:
                x = layer(x)
            return x

    return {
        "mlp": MLP,
        "cnn": CNN,
        "resnet18": ResNet18,
        "lstm": LSTM,
        "transformer": Transformer,
    }


def build(torch: Any, name: str) -> Any:
    return library(torch)[name](**SPECS[name].args).eval()


def weights(template: dict[str, Any], name: str) -> dict[str, np.ndarray]:
    """A state dict for the template's keys and shapes, drawn from a seed: matrices and kernels
    U(-sqrt(3/fan_in), sqrt(3/fan_in)), norm scales and running variances U(0.8, 1.2), biases
    and running means U(-0.1, 0.1), integer buffers zero."""
    out = {}
    for key, tensor in template.items():
        shape = tuple(tensor.shape)
        rng = np.random.RandomState(zlib.crc32(repr((name, key)).encode()))
        if "int" in str(tensor.dtype):
            out[key] = np.zeros(shape, dtype=np.int64)
            continue
        leaf = key.rsplit(".", 1)[-1]
        if leaf == "running_var" or (len(shape) == 1 and leaf == "weight"):
            value = rng.uniform(0.8, 1.2, shape)
        elif len(shape) <= 1:
            value = rng.uniform(-0.1, 0.1, shape)
        else:
            bound = np.sqrt(3.0 / int(np.prod(shape[1:])))
            value = rng.uniform(-bound, bound, shape)
        out[key] = value.astype(np.float32)
    return out


def example_input(name: str) -> np.ndarray:
    rng = np.random.RandomState(zlib.crc32(name.encode()))
    return rng.standard_normal(SPECS[name].input_shape).astype(np.float32)
