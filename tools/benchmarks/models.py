"""The benchmark's models, written once for tsjit and PyTorch, with the same weights.

MLP, ResNet-18 and the Transformer encoder are the model zoo's
(`integration_tests/zoo/models.py`, built from `nn` layers as torchvision and
PyTorch lay them out) at the benchmark's sizes; the CNN and the LSTM are
defined here, the same way: `library(torch)` makes the classes from `torch`
(the `tsjit` facade or PyTorch itself), so both libraries script the same
code. Weights are drawn from a seed with numpy and loaded into both by
state-dict key.

| model | what | input |
|---|---|---|
| mlp | zoo `mlp`: Linear 256→512, ReLU, 512→512, ReLU, 512→10 (dropout 0) | 64×256 |
| cnn | 3 convolutions 3×3 of 32 channels with ReLU, max pooling after the second, global average pooling, Linear 32→10 | 8×3×32×32 |
| resnet18 | zoo `resnet18`: torchvision's ResNet-18, width 64, 1000 classes, batch norm in eval mode | 8×3×64×64 |
| lstm | the LSTM cell of PyTorch's JIT overview unrolled by a loop over 20 steps, batch 64, 512 → 512 | 20×64×512 |
| transformer | zoo `transformer`: token and position embeddings, 2 `nn.TransformerEncoderLayer`s (d_model 256, 4 heads, GELU feed-forward of 1024, causal mask), mean pooling, a classifier | 4×64 tokens |
"""

from __future__ import annotations

import sys
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "integration_tests"))

from zoo import models as zoo


@dataclass(frozen=True)
class Spec:
    name: str
    source: str  # "zoo" or "here"
    zoo_name: str
    args: dict[str, Any]
    input_shape: tuple[int, ...]
    tokens: int = 0  # the vocabulary of a model taking token indices; 0 for float inputs


SPECS = {
    "mlp": Spec("mlp", "zoo", "mlp", {"sizes": [256, 512, 512, 10]}, (64, 256)),
    "cnn": Spec("cnn", "here", "cnn", {"channels": 32}, (8, 3, 32, 32)),
    "resnet18": Spec(
        "resnet18", "zoo", "resnet18", {"width": 64, "num_classes": 1000}, (8, 3, 64, 64)
    ),
    "lstm": Spec("lstm", "here", "lstm", {"input": 512, "hidden": 512}, (20, 64, 512)),
    "transformer": Spec(
        "transformer",
        "zoo",
        "transformer",
        {"vocab": 1000, "d_model": 256, "nhead": 4, "ff": 1024, "max_len": 64, "classes": 10},
        (4, 64),
        tokens=1000,
    ),
}


def library(torch: Any) -> dict[str, Any]:
    """The models defined here, made from `torch` (tsjit or PyTorch)."""
    nn = torch.nn
    F = torch.nn.functional

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

    return {"cnn": CNN, "lstm": LSTM}


def build(torch: Any, name: str) -> Any:
    spec = SPECS[name]
    classes = zoo.library(torch) if spec.source == "zoo" else library(torch)
    return classes[spec.zoo_name](**spec.args).eval()


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
    spec = SPECS[name]
    rng = np.random.RandomState(zlib.crc32(name.encode()))
    if spec.tokens:
        return rng.randint(0, spec.tokens, spec.input_shape).astype(np.int64)
    return rng.standard_normal(spec.input_shape).astype(np.float32)
