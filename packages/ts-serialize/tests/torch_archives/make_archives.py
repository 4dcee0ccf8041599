# ruff: noqa: UP006, UP035, UP045  (the typing names, which every PyTorch version scripts)
"""TorchScript archives written by real PyTorch, with the outputs `torch.jit.load` gives.

    python make_archives.py OUT_DIR [--large]

Run it with any PyTorch; it writes, for each model, `NAME.pt` (from
`torch.jit.save`) and `NAME.npz` (inputs and `torch.jit.load(NAME.pt)`'s
outputs, read back with numpy, never pickle). `--large` adds ResNet-18
(11.7M parameters, 45 MB), which is generated on the fly by the oracle tests
rather than committed. The committed archives under `torch-<version>/` were
made with this script (see README.md).

The models (defined here, small enough to commit): an MLP and a CNN, each
scripted and traced; a `torch.jit.ScriptModule` with `script_method`s; a
module holding a TorchScript class instance; one saved with extra files; a
module whose attributes are lists, dicts, tuples, Optionals and a device;
and, where this PyTorch's ops allow, an LSTM language model and a
Transformer encoder.
"""

import sys
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import numpy as np
import torch
from torch import nn


class MLP(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.fc2 = nn.Linear(16, 4)
        self.drop = nn.Dropout(0.1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(self.drop(torch.relu(self.fc1(x))))


class CNN(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1),
            nn.BatchNorm2d(8),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(8, 8, 3, padding=1, stride=2),
            nn.ReLU(),
            nn.AdaptiveAvgPool2d(1),
        )
        self.head = nn.Linear(8, 5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(torch.flatten(self.features(x), 1))


class WithMethods(torch.jit.ScriptModule):
    def __init__(self) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.randn(4, 4))
        self.scale = 2.0

    @torch.jit.script_method
    def project(self, x: torch.Tensor) -> torch.Tensor:
        return x.mm(self.weight)

    @torch.jit.script_method
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.project(x)
        if bool(y.sum() > 0):
            y = y * self.scale
        return y


@torch.jit.script
class RunningMean:
    def __init__(self, n: int) -> None:
        self.count = 0
        self.total = torch.zeros(n)

    def update(self, x: torch.Tensor) -> torch.Tensor:
        self.count += 1
        self.total = self.total + x
        return self.total / self.count


class HoldsClass(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.mean = RunningMean(3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.mean.update(x) + self.mean.update(x * 2)


class Attributes(nn.Module):
    names: List[str]
    table: Dict[str, float]
    maybe: Optional[torch.Tensor]

    def __init__(self) -> None:
        super().__init__()
        self.names = ["a", "bb"]
        self.sizes: List[int] = [2, 3]
        self.table = {"x": 1.5, "y": -2.0}
        self.pair: Tuple[int, str] = (7, "seven")
        self.maybe = None
        self.flag = True
        self.register_buffer("steps", torch.arange(6).reshape(2, 3))

    def forward(self, x: torch.Tensor) -> Tuple[torch.Tensor, int]:
        total = 0.0
        for k in self.names:
            total += self.table.get(k, 0.25) * len(k)
        y = x * total + self.steps.float().sum()
        maybe = self.maybe
        if maybe is not None:
            y = y + maybe
        return y, self.sizes[1] + self.pair[0]


class LSTMLanguageModel(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.embed = nn.Embedding(20, 8)
        self.lstm = nn.LSTM(8, 12, num_layers=2, batch_first=True)
        self.out = nn.Linear(12, 20)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        h, _ = self.lstm(self.embed(tokens))
        return self.out(h)


class TransformerEncoder(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        layer = nn.TransformerEncoderLayer(16, 2, dim_feedforward=32, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.encoder(x)


def basic_block(cin: int, cout: int, stride: int) -> nn.Module:
    return _Block(cin, cout, stride)


class _Block(nn.Module):
    def __init__(self, cin: int, cout: int, stride: int) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.down: Optional[nn.Module] = None
        if stride != 1 or cin != cout:
            self.down = nn.Sequential(
                nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout)
            )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        skip = x if self.down is None else self.down(x)
        return torch.relu(y + skip)


class ResNet18(nn.Module):
    """torchvision's ResNet-18 layout (11.7M parameters), written out to need no torchvision."""

    def __init__(self, classes: int = 1000) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(3, 64, 7, 2, 3, bias=False)
        self.bn1 = nn.BatchNorm2d(64)
        self.pool = nn.MaxPool2d(3, 2, 1)
        blocks = []
        cin = 64
        for cout, stride in ((64, 1), (128, 2), (256, 2), (512, 2)):
            blocks += [basic_block(cin, cout, stride), basic_block(cout, cout, 1)]
            cin = cout
        self.layers = nn.Sequential(*blocks)
        self.fc = nn.Linear(512, classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.pool(torch.relu(self.bn1(self.conv1(x))))
        x = self.layers(x)
        return self.fc(torch.flatten(torch.mean(x, [2, 3]), 1))


def models(large: bool) -> dict[str, tuple[object, tuple[torch.Tensor, ...], dict[str, str]]]:
    """name -> (scripted or traced module, example inputs, extra files)."""
    torch.manual_seed(0)
    mlp, cnn = MLP().eval(), CNN().eval()
    x8, img = torch.randn(3, 8), torch.randn(2, 3, 16, 16)
    out = {
        "mlp_scripted": (torch.jit.script(mlp), (x8,), {}),
        "mlp_traced": (torch.jit.trace(mlp, (x8,)), (x8,), {}),
        "cnn_scripted": (torch.jit.script(cnn), (img,), {}),
        "cnn_traced": (torch.jit.trace(cnn, (img,)), (img,), {}),
        "script_methods": (WithMethods(), (torch.randn(2, 4),), {}),
        "holds_class": (torch.jit.script(HoldsClass()), (torch.randn(3),), {}),
        "attributes": (torch.jit.script(Attributes().eval()), (torch.randn(2, 3),), {}),
        "extra_files": (
            torch.jit.script(MLP().eval()),
            (x8,),
            {"config.json": '{"classes": 4}', "notes/readme.txt": "saved with extra files"},
        ),
    }
    tokens = torch.randint(0, 20, (2, 5))
    lstm = LSTMLanguageModel().eval()
    out["lstm_scripted"] = (torch.jit.script(lstm), (tokens,), {})
    out["lstm_traced"] = (torch.jit.trace(lstm, (tokens,)), (tokens,), {})
    enc = TransformerEncoder().eval()
    seq = torch.randn(2, 4, 16)
    out["transformer_scripted"] = (torch.jit.script(enc), (seq,), {})
    with torch.no_grad():
        out["transformer_traced"] = (torch.jit.trace(enc, (seq,), check_trace=False), (seq,), {})
    if large:
        resnet = ResNet18().eval()
        batch = torch.randn(1, 3, 64, 64)
        out["resnet18_scripted"] = (torch.jit.script(resnet), (batch,), {})
        with torch.no_grad():
            out["resnet18_traced"] = (torch.jit.trace(resnet, (batch,)), (batch,), {})
    return out


def _flatten(value: object, prefix: str, arrays: dict[str, np.ndarray]) -> None:
    if isinstance(value, torch.Tensor):
        arrays[prefix] = value.detach().numpy()
    elif isinstance(value, (tuple, list)):
        for i, v in enumerate(value):
            _flatten(v, f"{prefix}.{i}", arrays)
    else:
        arrays[prefix] = np.asarray(value)


def write_archives(out: Path, *, large: bool = False) -> list[str]:
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, (module, inputs, extra) in models(large).items():
        path = out / f"{name}.pt"
        torch.jit.save(module, str(path), _extra_files=extra)
        loaded = torch.jit.load(str(path))
        with torch.no_grad():
            result = loaded(*inputs)
        arrays: dict[str, np.ndarray] = {}
        _flatten(list(inputs), "input", arrays)
        _flatten(result, "output", arrays)
        np.savez(out / f"{name}.npz", **arrays)
        written.append(name)
    (out / "TORCH_VERSION").write_text(torch.__version__ + "\n")
    return written


if __name__ == "__main__":
    names = write_archives(Path(sys.argv[1]), large="--large" in sys.argv)
    print(f"torch {torch.__version__}: wrote {len(names)} archives to {sys.argv[1]}")
