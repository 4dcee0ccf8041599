"""A zoo of published model architectures, written once for tsjit and PyTorch.

`build(torch, name, size)` makes a model from `torch` (the `tsjit` facade or
PyTorch itself), so the tsjit model and its PyTorch twin are the same code:
the classes are defined inside `library(torch)`, and their methods read
`torch`, `nn` and `F` from the closure, as compiled code may.

The architectures follow the published ones, with their parameter names:
ResNet-18 and MobileNetV2 as torchvision lays them out (`layer1.0.conv1`,
`features.1.conv.0.0`), LeNet-5 as LeCun et al. (1998), with ReLU and max
pooling as commonly written. Dropout probabilities are 0 so that a training
step is deterministic (batch normalization uses batch statistics in
training, as in PyTorch). `size` is "small" (the default test session) or
"full" (the published widths and depths, for the oracle session).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Spec:
    """A model of the zoo: its constructor arguments and its inputs, per size."""

    name: str
    task: str  # "classify": cross entropy on logits; "language": cross entropy per token
    args: dict[str, dict[str, Any]]
    inputs: dict[str, dict[str, Any]]


SPECS = {
    "mlp": Spec(
        "mlp",
        "classify",
        {"small": {"sizes": [32, 64, 64, 10]}, "full": {"sizes": [784, 512, 256, 10]}},
        {"small": {"image": (8, 32)}, "full": {"image": (32, 784)}},
    ),
    "lenet": Spec(
        "lenet",
        "classify",
        {"small": {}, "full": {}},
        {"small": {"image": (4, 1, 28, 28)}, "full": {"image": (32, 1, 28, 28)}},
    ),
    "resnet18": Spec(
        "resnet18",
        "classify",
        {"small": {"width": 8, "num_classes": 10}, "full": {"width": 64, "num_classes": 1000}},
        {"small": {"image": (4, 3, 64, 64)}, "full": {"image": (4, 3, 112, 112)}},
    ),
    "mobilenet_v2": Spec(
        "mobilenet_v2",
        "classify",
        {
            "small": {"width_mult": 0.25, "num_classes": 10, "depth": 3, "last_channel": 64},
            "full": {"width_mult": 1.0, "num_classes": 1000, "depth": 7, "last_channel": 1280},
        },
        {"small": {"image": (2, 3, 32, 32)}, "full": {"image": (2, 3, 96, 96)}},
    ),
    "lstm_lm": Spec(
        "lstm_lm",
        "language",
        {
            "small": {"vocab": 50, "embed": 16, "hidden": 24},
            "full": {"vocab": 1000, "embed": 128, "hidden": 256},
        },
        {"small": {"tokens": (12, 4)}, "full": {"tokens": (35, 16)}},
    ),
    "transformer": Spec(
        "transformer",
        "classify",
        {
            "small": {
                "vocab": 50,
                "d_model": 16,
                "nhead": 2,
                "ff": 32,
                "max_len": 16,
                "classes": 5,
            },
            "full": {
                "vocab": 1000,
                "d_model": 128,
                "nhead": 4,
                "ff": 512,
                "max_len": 64,
                "classes": 10,
            },
        },
        {"small": {"tokens": (3, 10)}, "full": {"tokens": (8, 64)}},
    ),
    "gru_encoder": Spec(
        "gru_encoder",
        "classify",
        {
            "small": {"vocab": 50, "embed": 12, "hidden": 16, "classes": 5},
            "full": {"vocab": 1000, "embed": 128, "hidden": 256, "classes": 10},
        },
        {"small": {"tokens": (3, 9)}, "full": {"tokens": (16, 40)}},
    ),
}


def library(torch: Any) -> dict[str, Any]:
    """The zoo's model classes, made from `torch` (tsjit or PyTorch)."""
    nn = torch.nn
    F = torch.nn.functional

    class MLP(nn.Module):
        def __init__(self, sizes: list[int]) -> None:
            super().__init__()
            layers: list[Any] = []
            for i in range(len(sizes) - 1):
                layers.append(nn.Linear(sizes[i], sizes[i + 1]))
                if i < len(sizes) - 2:
                    layers.append(nn.ReLU())
                    layers.append(nn.Dropout(0.0))
            self.net = nn.Sequential(*layers)

        def forward(self, x):
            return self.net(torch.flatten(x, 1))

    class LeNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.conv1 = nn.Conv2d(1, 6, 5, padding=2)
            self.conv2 = nn.Conv2d(6, 16, 5)
            self.fc1 = nn.Linear(16 * 5 * 5, 120)
            self.fc2 = nn.Linear(120, 84)
            self.fc3 = nn.Linear(84, 10)

        def forward(self, x):
            x = F.max_pool2d(F.relu(self.conv1(x)), 2)
            x = F.max_pool2d(F.relu(self.conv2(x)), 2)
            x = torch.flatten(x, 1)
            x = F.relu(self.fc1(x))
            x = F.relu(self.fc2(x))
            return self.fc3(x)

    class BasicBlock(nn.Module):
        expansion = 1

        def __init__(self, inplanes: int, planes: int, stride: int = 1, downsample=None) -> None:
            super().__init__()
            self.conv1 = nn.Conv2d(inplanes, planes, 3, stride, 1, bias=False)
            self.bn1 = nn.BatchNorm2d(planes)
            self.relu = nn.ReLU(inplace=True)
            self.conv2 = nn.Conv2d(planes, planes, 3, 1, 1, bias=False)
            self.bn2 = nn.BatchNorm2d(planes)
            self.downsample = downsample
            self.stride = stride

        def forward(self, x):
            identity = x
            out = self.conv1(x)
            out = self.bn1(out)
            out = self.relu(out)
            out = self.conv2(out)
            out = self.bn2(out)
            if self.downsample is not None:
                identity = self.downsample(x)
            out += identity
            out = self.relu(out)
            return out

    class ResNet(nn.Module):
        """torchvision's ResNet with BasicBlock; layers=[2, 2, 2, 2] is ResNet-18."""

        def __init__(self, layers: list[int], num_classes: int = 1000, width: int = 64) -> None:
            super().__init__()
            self.inplanes = width
            self.conv1 = nn.Conv2d(3, width, kernel_size=7, stride=2, padding=3, bias=False)
            self.bn1 = nn.BatchNorm2d(width)
            self.relu = nn.ReLU(inplace=True)
            self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, padding=1)
            self.layer1 = self._make_layer(width, layers[0])
            self.layer2 = self._make_layer(width * 2, layers[1], stride=2)
            self.layer3 = self._make_layer(width * 4, layers[2], stride=2)
            self.layer4 = self._make_layer(width * 8, layers[3], stride=2)
            self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
            self.fc = nn.Linear(width * 8, num_classes)

        def _make_layer(self, planes: int, blocks: int, stride: int = 1):
            downsample = None
            if stride != 1 or self.inplanes != planes:
                downsample = nn.Sequential(
                    nn.Conv2d(self.inplanes, planes, 1, stride, bias=False),
                    nn.BatchNorm2d(planes),
                )
            layers = [BasicBlock(self.inplanes, planes, stride, downsample)]
            self.inplanes = planes
            for _ in range(1, blocks):
                layers.append(BasicBlock(self.inplanes, planes))
            return nn.Sequential(*layers)

        def forward(self, x):
            x = self.conv1(x)
            x = self.bn1(x)
            x = self.relu(x)
            x = self.maxpool(x)
            x = self.layer1(x)
            x = self.layer2(x)
            x = self.layer3(x)
            x = self.layer4(x)
            x = self.avgpool(x)
            x = torch.flatten(x, 1)
            x = self.fc(x)
            return x

    def make_divisible(v: float, divisor: int = 8) -> int:
        new_v = max(divisor, int(v + divisor / 2) // divisor * divisor)
        if new_v < 0.9 * v:
            new_v += divisor
        return new_v

    class ConvBNReLU6(nn.Sequential):
        """torchvision's Conv2dNormActivation with ReLU6: conv, batch norm, activation."""

        def __init__(self, inp: int, oup: int, kernel: int = 3, stride: int = 1, groups: int = 1):
            super().__init__(
                nn.Conv2d(inp, oup, kernel, stride, (kernel - 1) // 2, groups=groups, bias=False),
                nn.BatchNorm2d(oup),
                nn.ReLU6(inplace=True),
            )

    class InvertedResidual(nn.Module):
        def __init__(self, inp: int, oup: int, stride: int, expand_ratio: int) -> None:
            super().__init__()
            self.stride = stride
            hidden = round(inp * expand_ratio)
            self.use_res_connect = stride == 1 and inp == oup
            layers: list[Any] = []
            if expand_ratio != 1:
                layers.append(ConvBNReLU6(inp, hidden, kernel=1))
            layers += [
                ConvBNReLU6(hidden, hidden, stride=stride, groups=hidden),  # depthwise
                nn.Conv2d(hidden, oup, 1, 1, 0, bias=False),
                nn.BatchNorm2d(oup),
            ]
            self.conv = nn.Sequential(*layers)
            self.out_channels = oup

        def forward(self, x):
            if self.use_res_connect:
                return x + self.conv(x)
            return self.conv(x)

    class MobileNetV2(nn.Module):
        """torchvision's MobileNetV2; `depth` keeps the first rows of the block settings."""

        def __init__(
            self,
            num_classes: int = 1000,
            width_mult: float = 1.0,
            depth: int = 7,
            last_channel: int = 1280,
        ) -> None:
            super().__init__()
            settings = [
                [1, 16, 1, 1],
                [6, 24, 2, 2],
                [6, 32, 3, 2],
                [6, 64, 4, 2],
                [6, 96, 3, 1],
                [6, 160, 3, 2],
                [6, 320, 1, 1],
            ][:depth]
            input_channel = make_divisible(32 * width_mult)
            self.last_channel = make_divisible(last_channel * max(1.0, width_mult))
            features: list[Any] = [ConvBNReLU6(3, input_channel, stride=2)]
            for t, c, n, s in settings:
                output_channel = make_divisible(c * width_mult)
                for i in range(n):
                    stride = s if i == 0 else 1
                    features.append(InvertedResidual(input_channel, output_channel, stride, t))
                    input_channel = output_channel
            features.append(ConvBNReLU6(input_channel, self.last_channel, kernel=1))
            self.features = nn.Sequential(*features)
            self.classifier = nn.Sequential(
                nn.Dropout(0.0), nn.Linear(self.last_channel, num_classes)
            )

        def forward(self, x):
            x = self.features(x)
            x = F.adaptive_avg_pool2d(x, (1, 1))
            x = torch.flatten(x, 1)
            x = self.classifier(x)
            return x

    class LSTMLanguageModel(nn.Module):
        """Embedding, a 2-layer LSTM, and a linear decoder to the vocabulary (per token)."""

        def __init__(self, vocab: int, embed: int, hidden: int) -> None:
            super().__init__()
            self.encoder = nn.Embedding(vocab, embed)
            self.rnn = nn.LSTM(embed, hidden, num_layers=2, dropout=0.0)
            self.decoder = nn.Linear(hidden, vocab)

        def forward(self, tokens):
            emb = self.encoder(tokens)
            output, _hidden = self.rnn(emb)
            return self.decoder(output)

    class TransformerClassifier(nn.Module):
        """Token and learned position embeddings, a 2-layer Transformer encoder (causal
        mask), mean pooling and a linear classifier."""

        def __init__(
            self, vocab: int, d_model: int, nhead: int, ff: int, max_len: int, classes: int
        ) -> None:
            super().__init__()
            self.embed = nn.Embedding(vocab, d_model)
            self.position = nn.Parameter(torch.zeros(1, max_len, d_model))
            layer = nn.TransformerEncoderLayer(
                d_model, nhead, ff, dropout=0.0, activation="gelu", batch_first=True
            )
            self.encoder = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
            self.norm = nn.LayerNorm(d_model)
            self.head = nn.Linear(d_model, classes)

        def forward(self, tokens):
            length = tokens.size(1)
            x = self.embed(tokens) + self.position[:, :length]
            mask = torch.triu(torch.full((length, length), float("-inf")), 1)
            x = self.encoder(x, mask=mask)
            return self.head(self.norm(x).mean(1))

    class GRUEncoder(nn.Module):
        """Embedding, a bidirectional GRU, and a classifier of the final hidden states."""

        def __init__(self, vocab: int, embed: int, hidden: int, classes: int) -> None:
            super().__init__()
            self.embed = nn.Embedding(vocab, embed)
            self.gru = nn.GRU(embed, hidden, batch_first=True, bidirectional=True)
            self.head = nn.Linear(2 * hidden, classes)

        def forward(self, tokens):
            _output, h_n = self.gru(self.embed(tokens))
            return self.head(torch.cat([h_n[0], h_n[1]], 1))

    return {
        "mlp": MLP,
        "lenet": LeNet,
        "resnet18": lambda **kw: ResNet([2, 2, 2, 2], **kw),
        "mobilenet_v2": MobileNetV2,
        "lstm_lm": LSTMLanguageModel,
        "transformer": TransformerClassifier,
        "gru_encoder": GRUEncoder,
    }


def build(torch: Any, name: str, size: str) -> Any:
    return library(torch)[name](**SPECS[name].args[size])
