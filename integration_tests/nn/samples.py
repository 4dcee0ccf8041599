"""A sample for every layer of `tsjit.nn`: how to build it and what to feed it.

A sample builds the layer from a namespace (`tsjit.nn` or `torch.nn`, so the
same constructor call makes both) and makes its inputs as numpy arrays from a
seeded `RandomState`, so both libraries get the same values. The walk
(`test_nn_walk.py`) fails for a public layer without a sample here: adding a
layer means adding its sample.

`train_deterministic` is False for layers whose training-mode output is
random (dropout with p > 0, RReLU): those are compared in evaluation mode
only. `reference` names a PyTorch class to compare with when the names differ
(none do today).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

Inputs = Callable[[np.random.RandomState], list[Any]]


@dataclass
class Sample:
    cls: str
    make: Callable[[Any], Any]
    inputs: Inputs
    label: str = ""
    train_deterministic: bool = True
    rtol: float = 1e-4
    atol: float = 1e-5
    differentiable: bool = True
    #: the inputs whose gradients are compared (None: every floating-point input)
    grad_inputs: tuple[int, ...] | None = None

    @property
    def id(self) -> str:
        return f"{self.cls}-{self.label}" if self.label else self.cls


def f32(*shape: int) -> Callable[[np.random.RandomState], np.ndarray]:
    return lambda rng: rng.standard_normal(shape).astype(np.float32)


def pos(*shape: int) -> Callable[[np.random.RandomState], np.ndarray]:
    return lambda rng: rng.uniform(0.1, 1.0, shape).astype(np.float32)


def prob(*shape: int) -> Callable[[np.random.RandomState], np.ndarray]:
    return lambda rng: rng.uniform(0.05, 0.95, shape).astype(np.float32)


def ints(high: int, *shape: int) -> Callable[[np.random.RandomState], np.ndarray]:
    return lambda rng: rng.randint(0, high, shape).astype(np.int64)


def signs(*shape: int) -> Callable[[np.random.RandomState], np.ndarray]:
    return lambda rng: np.where(rng.uniform(size=shape) > 0.5, 1.0, -1.0).astype(np.float32)


def of(*makers: Callable[[np.random.RandomState], Any]) -> Inputs:
    return lambda rng: [m(rng) for m in makers]


SAMPLES: list[Sample] = []


def sample(cls: str, make: Callable[[Any], Any], inputs: Inputs, **options: Any) -> None:
    SAMPLES.append(Sample(cls, make, inputs, **options))


def unary(cls: str, *args: Any, shape: tuple[int, ...] = (2, 3, 4), **kwargs: Any) -> None:
    sample(cls, lambda nn: getattr(nn, cls)(*args, **kwargs), of(f32(*shape)))


# -- activations
for _name in (
    "ReLU",
    "ReLU6",
    "Sigmoid",
    "Tanh",
    "SiLU",
    "Mish",
    "Hardswish",
    "Hardsigmoid",
    "ELU",
    "CELU",
    "SELU",
    "GELU",
    "Hardshrink",
    "Softshrink",
    "LeakyReLU",
    "LogSigmoid",
    "Softplus",
    "Softsign",
    "Tanhshrink",
    "Hardtanh",
):
    unary(_name)
unary("GELU", approximate="tanh")
unary("LeakyReLU", 0.2)
unary("ELU", alpha=0.5)
unary("Hardtanh", -0.5, 0.5)
unary("Softplus", beta=2.0, threshold=1.0)
unary("Threshold", 0.1, 20.0)
unary("GLU", shape=(2, 4, 6))
unary("GLU", 1, shape=(2, 4, 6))
unary("Softmax", 1)
unary("Softmax", shape=(2, 3))
unary("Softmin", -1)
unary("LogSoftmax", 2)
unary("Softmax2d", shape=(2, 3, 4, 5))
sample("RReLU", lambda nn: nn.RReLU(), of(f32(2, 3, 4)), train_deterministic=False)
sample("PReLU", lambda nn: nn.PReLU(), of(f32(2, 3, 4)))
sample("PReLU", lambda nn: nn.PReLU(3, 0.1), of(f32(2, 3, 4)), label="channels")
sample(
    "ReLU",
    lambda nn: nn.Sequential(nn.Linear(4, 4), nn.ReLU(inplace=True)),
    of(f32(2, 4)),
    label="inplace",
)

# -- linear, flatten, identity
sample("Identity", lambda nn: nn.Identity(3, unused=True), of(f32(2, 3)))
sample("Linear", lambda nn: nn.Linear(4, 3), of(f32(2, 5, 4)))
sample("Linear", lambda nn: nn.Linear(4, 3, bias=False), of(f32(4)), label="nobias")
sample("Bilinear", lambda nn: nn.Bilinear(3, 4, 5), of(f32(2, 3), f32(2, 4)))
sample("Flatten", lambda nn: nn.Flatten(), of(f32(2, 3, 4, 5)))
sample("Flatten", lambda nn: nn.Flatten(0, 2), of(f32(2, 3, 4, 5)), label="range")
sample("Unflatten", lambda nn: nn.Unflatten(1, (2, 6)), of(f32(2, 12, 3)))

# -- dropout (p = 0 in training, so that both modes are deterministic)
for _name in ("Dropout", "AlphaDropout"):
    sample(_name, lambda nn, n=_name: getattr(nn, n)(0.0), of(f32(2, 3, 4)))
    sample(
        _name,
        lambda nn, n=_name: getattr(nn, n)(0.5),
        of(f32(2, 3, 4)),
        label="p",
        train_deterministic=False,
    )
for _name, _shape in (
    ("Dropout1d", (2, 3, 4)),
    ("Dropout2d", (2, 3, 4, 5)),
    ("Dropout3d", (2, 3, 2, 4, 5)),
    ("FeatureAlphaDropout", (2, 3, 4, 5)),
):
    sample(_name, lambda nn, n=_name: getattr(nn, n)(0.0), of(f32(*_shape)))
    sample(
        _name,
        lambda nn, n=_name: getattr(nn, n)(0.5),
        of(f32(*_shape)),
        label="p",
        train_deterministic=False,
    )

# -- normalization
sample("BatchNorm1d", lambda nn: nn.BatchNorm1d(3), of(f32(4, 3)))
sample("BatchNorm1d", lambda nn: nn.BatchNorm1d(3), of(f32(4, 3, 5)), label="3d")
sample("BatchNorm2d", lambda nn: nn.BatchNorm2d(3), of(f32(4, 3, 5, 5)))
sample(
    "BatchNorm2d",
    lambda nn: nn.BatchNorm2d(3, momentum=None),
    of(f32(4, 3, 2, 2)),
    label="cumulative",
)
sample(
    "BatchNorm2d",
    lambda nn: nn.BatchNorm2d(3, affine=False, track_running_stats=False),
    of(f32(4, 3, 2, 2)),
    label="stateless",
)
sample("BatchNorm3d", lambda nn: nn.BatchNorm3d(2), of(f32(3, 2, 2, 3, 3)))
sample("InstanceNorm1d", lambda nn: nn.InstanceNorm1d(3), of(f32(2, 3, 6)))
sample(
    "InstanceNorm2d",
    lambda nn: nn.InstanceNorm2d(3, affine=True, track_running_stats=True),
    of(f32(2, 3, 4, 4)),
)
sample("InstanceNorm2d", lambda nn: nn.InstanceNorm2d(3), of(f32(3, 4, 4)), label="unbatched")
sample("InstanceNorm3d", lambda nn: nn.InstanceNorm3d(2, affine=True), of(f32(2, 2, 3, 3, 3)))
sample("LayerNorm", lambda nn: nn.LayerNorm(4), of(f32(2, 3, 4)))
sample(
    "LayerNorm",
    lambda nn: nn.LayerNorm([3, 4], elementwise_affine=False),
    of(f32(2, 3, 4)),
    label="2d",
)
sample("GroupNorm", lambda nn: nn.GroupNorm(2, 4), of(f32(2, 4, 3, 3)))
sample("RMSNorm", lambda nn: nn.RMSNorm(4), of(f32(2, 3, 4)))
sample("RMSNorm", lambda nn: nn.RMSNorm([3, 4], eps=1e-3), of(f32(2, 3, 4)), label="eps")
sample("LocalResponseNorm", lambda nn: nn.LocalResponseNorm(3), of(f32(2, 5, 4, 4)))
sample("LocalResponseNorm", lambda nn: nn.LocalResponseNorm(2), of(f32(2, 5, 6)), label="3d")

# -- convolution
sample("Conv1d", lambda nn: nn.Conv1d(3, 4, 3, padding=1), of(f32(2, 3, 8)))
sample("Conv2d", lambda nn: nn.Conv2d(3, 4, 3, stride=2, padding=1), of(f32(2, 3, 7, 7)))
sample(
    "Conv2d",
    lambda nn: nn.Conv2d(4, 4, 3, padding="same", groups=4, bias=False),
    of(f32(1, 4, 5, 5)),
    label="depthwise",
)
sample(
    "Conv2d",
    lambda nn: nn.Conv2d(2, 3, (3, 2), padding=(1, 2), padding_mode="reflect"),
    of(f32(1, 2, 5, 5)),
    label="reflect",
)
sample(
    "Conv2d",
    lambda nn: nn.Conv2d(2, 3, 3, padding=1, padding_mode="circular", dilation=1),
    of(f32(1, 2, 5, 5)),
    label="circular",
)
sample("Conv3d", lambda nn: nn.Conv3d(2, 3, 2), of(f32(1, 2, 4, 4, 4)))
sample("ConvTranspose1d", lambda nn: nn.ConvTranspose1d(3, 2, 3, stride=2), of(f32(2, 3, 5)))
sample(
    "ConvTranspose2d",
    lambda nn: nn.ConvTranspose2d(3, 2, 3, stride=2, padding=1, output_padding=1),
    of(f32(1, 3, 4, 4)),
)
sample("ConvTranspose3d", lambda nn: nn.ConvTranspose3d(2, 2, 2), of(f32(1, 2, 3, 3, 3)))

# -- pooling
sample("MaxPool1d", lambda nn: nn.MaxPool1d(2), of(f32(2, 3, 8)))
sample("MaxPool2d", lambda nn: nn.MaxPool2d(3, 2, 1), of(f32(2, 3, 7, 7)))
sample(
    "MaxPool2d", lambda nn: nn.MaxPool2d((2, 3), ceil_mode=True), of(f32(1, 2, 5, 7)), label="ceil"
)
sample("MaxPool3d", lambda nn: nn.MaxPool3d(2), of(f32(1, 2, 4, 4, 4)))
sample(
    "MaxPool2d",
    lambda nn: nn.MaxPool2d(3, 2, 1, return_indices=True),
    of(f32(2, 3, 7, 6)),
    label="indices",
)
sample(
    "MaxPool1d",
    lambda nn: nn.MaxPool1d(3, 2, dilation=2, return_indices=True),
    of(f32(2, 3, 9)),
    label="indices",
)


def unpool_inputs(shape: tuple[int, ...], kernel: int) -> Inputs:
    """Pooled values and, for each, a flat index inside its (kernel-strided) window."""

    def make(rng: np.random.RandomState) -> list[np.ndarray]:
        nd = len(shape) - 2
        values = rng.standard_normal(shape).astype(np.float32)
        full = [s * kernel for s in shape[2:]]
        grids = np.meshgrid(*[np.arange(s) for s in shape[2:]], indexing="ij")
        coords = [g * kernel + rng.randint(0, kernel, shape) for g in grids]
        index = np.ravel_multi_index(coords, full) if nd > 1 else coords[0]
        return [values, np.ascontiguousarray(index).astype(np.int64)]

    return make


sample("MaxUnpool1d", lambda nn: nn.MaxUnpool1d(2), unpool_inputs((2, 3, 4), 2))
sample("MaxUnpool2d", lambda nn: nn.MaxUnpool2d(2), unpool_inputs((2, 3, 3, 4), 2))
sample("MaxUnpool3d", lambda nn: nn.MaxUnpool3d(2), unpool_inputs((1, 2, 2, 3, 2), 2))
sample("AvgPool1d", lambda nn: nn.AvgPool1d(3, 2, 1), of(f32(2, 3, 8)))
sample("AvgPool2d", lambda nn: nn.AvgPool2d(2), of(f32(2, 3, 6, 6)))
sample(
    "AvgPool2d",
    lambda nn: nn.AvgPool2d(3, 2, 1, count_include_pad=False),
    of(f32(1, 2, 5, 5)),
    label="exclude_pad",
)
sample("AvgPool3d", lambda nn: nn.AvgPool3d(2, divisor_override=3), of(f32(1, 2, 4, 4, 4)))
sample("AdaptiveAvgPool1d", lambda nn: nn.AdaptiveAvgPool1d(3), of(f32(2, 3, 7)))
sample("AdaptiveAvgPool2d", lambda nn: nn.AdaptiveAvgPool2d((2, 3)), of(f32(2, 3, 5, 7)))
sample("AdaptiveAvgPool2d", lambda nn: nn.AdaptiveAvgPool2d(1), of(f32(2, 3, 5, 7)), label="1")
sample("AdaptiveAvgPool3d", lambda nn: nn.AdaptiveAvgPool3d(2), of(f32(1, 2, 3, 4, 5)))
sample("AdaptiveMaxPool1d", lambda nn: nn.AdaptiveMaxPool1d(3), of(f32(2, 3, 7)))
sample("AdaptiveMaxPool2d", lambda nn: nn.AdaptiveMaxPool2d((2, 3)), of(f32(2, 3, 5, 7)))
sample("AdaptiveMaxPool3d", lambda nn: nn.AdaptiveMaxPool3d(2), of(f32(1, 2, 3, 4, 5)))
sample(
    "AdaptiveMaxPool2d",
    lambda nn: nn.AdaptiveMaxPool2d((3, 2), return_indices=True),
    of(f32(2, 3, 7, 5)),
    label="indices",
)
sample("LPPool1d", lambda nn: nn.LPPool1d(2, 3), of(pos(2, 3, 7)))
sample("LPPool2d", lambda nn: nn.LPPool2d(2, (2, 3), stride=1), of(pos(2, 3, 5, 6)))
sample("LPPool3d", lambda nn: nn.LPPool3d(3.0, 2), of(pos(1, 2, 4, 4, 4)))

# -- padding
for _nd, _shape in ((1, (2, 3, 5)), (2, (1, 2, 4, 5)), (3, (1, 2, 3, 4, 5))):
    _pad = tuple(range(1, 2 * _nd + 1))
    sample(
        f"ConstantPad{_nd}d",
        lambda nn, n=_nd, p=_pad: getattr(nn, f"ConstantPad{n}d")(p, 0.5),
        of(f32(*_shape)),
    )
    sample(f"ZeroPad{_nd}d", lambda nn, n=_nd: getattr(nn, f"ZeroPad{n}d")(1), of(f32(*_shape)))
    sample(
        f"ReflectionPad{_nd}d",
        lambda nn, n=_nd: getattr(nn, f"ReflectionPad{n}d")(2),
        of(f32(*_shape)),
    )
    sample(
        f"ReplicationPad{_nd}d",
        lambda nn, n=_nd, p=_pad: getattr(nn, f"ReplicationPad{n}d")(p),
        of(f32(*_shape)),
    )
    sample(
        f"CircularPad{_nd}d", lambda nn, n=_nd: getattr(nn, f"CircularPad{n}d")(1), of(f32(*_shape))
    )

# -- resampling, shuffles, distances
sample("Upsample", lambda nn: nn.Upsample(scale_factor=2), of(f32(1, 2, 3, 4)))
sample(
    "Upsample",
    lambda nn: nn.Upsample(size=(5, 7), mode="bilinear"),
    of(f32(1, 2, 3, 4)),
    label="bilinear",
)
sample(
    "Upsample",
    lambda nn: nn.Upsample(scale_factor=1.7, mode="bilinear", align_corners=True),
    of(f32(1, 2, 3, 4)),
    label="corners",
)
sample("Upsample", lambda nn: nn.Upsample(size=9, mode="linear"), of(f32(2, 3, 4)), label="linear")
sample(
    "Upsample",
    lambda nn: nn.Upsample(scale_factor=(2.0, 1.5, 1.0), mode="trilinear"),
    of(f32(1, 2, 2, 3, 4)),
    label="trilinear",
)
sample(
    "Upsample",
    lambda nn: nn.Upsample(size=(7, 6), mode="bicubic"),
    of(f32(1, 2, 4, 5)),
    label="bicubic",
)
sample(
    "Upsample",
    lambda nn: nn.Upsample(size=(7, 9), mode="nearest-exact"),
    of(f32(1, 2, 4, 5)),
    label="nearest_exact",
)
sample(
    "Upsample",
    lambda nn: nn.Upsample(size=(5, 3), mode="nearest"),
    of(f32(1, 2, 4, 6)),
    label="nearest_down",
)
sample(
    "UpsamplingNearest2d", lambda nn: nn.UpsamplingNearest2d(scale_factor=3), of(f32(1, 2, 2, 3))
)
sample("UpsamplingBilinear2d", lambda nn: nn.UpsamplingBilinear2d(size=(5, 6)), of(f32(1, 2, 3, 4)))
sample("PixelShuffle", lambda nn: nn.PixelShuffle(2), of(f32(2, 8, 3, 4)))
sample("PixelUnshuffle", lambda nn: nn.PixelUnshuffle(2), of(f32(2, 2, 4, 6)))
sample("ChannelShuffle", lambda nn: nn.ChannelShuffle(2), of(f32(2, 6, 3, 3)))
sample("PairwiseDistance", lambda nn: nn.PairwiseDistance(), of(f32(4, 5), f32(4, 5)))
sample(
    "PairwiseDistance",
    lambda nn: nn.PairwiseDistance(1.0, keepdim=True),
    of(f32(4, 5), f32(4, 5)),
    label="l1",
)
sample("CosineSimilarity", lambda nn: nn.CosineSimilarity(), of(f32(4, 5), f32(4, 5)))

# -- lookup tables
sample("Embedding", lambda nn: nn.Embedding(10, 4), of(ints(10, 3, 5)))
sample(
    "Embedding", lambda nn: nn.Embedding(10, 4, padding_idx=0), of(ints(10, 3, 5)), label="padding"
)
sample("EmbeddingBag", lambda nn: nn.EmbeddingBag(10, 4), of(ints(10, 3, 5)))
sample(
    "EmbeddingBag",
    lambda nn: nn.EmbeddingBag(10, 4, mode="sum"),
    lambda rng: [ints(10, 8)(rng), np.array([0, 3, 3, 6], dtype=np.int64)],
    label="offsets",
)
sample(
    "EmbeddingBag", lambda nn: nn.EmbeddingBag(10, 4, mode="max"), of(ints(10, 3, 5)), label="max"
)

# -- recurrent layers
sample("RNN", lambda nn: nn.RNN(4, 5), of(f32(6, 2, 4)))
sample(
    "RNN",
    lambda nn: nn.RNN(4, 5, 2, nonlinearity="relu", batch_first=True, bidirectional=True),
    of(f32(2, 6, 4), f32(4, 2, 5)),
    label="relu_bidirectional",
)
sample("LSTM", lambda nn: nn.LSTM(4, 5), of(f32(6, 2, 4)))
sample(
    "LSTM",
    lambda nn: nn.LSTM(4, 5, num_layers=2, batch_first=True, bidirectional=True),
    of(f32(2, 6, 4)),
    label="bidirectional",
)
sample(
    "LSTM", lambda nn: nn.LSTM(4, 6, proj_size=3, bias=False), of(f32(5, 4)), label="proj_unbatched"
)
sample(
    "LSTM",
    lambda nn: nn.LSTM(4, 5, num_layers=2, dropout=0.5),
    of(f32(6, 2, 4)),
    label="dropout",
    train_deterministic=False,
)
sample("GRU", lambda nn: nn.GRU(4, 5), of(f32(6, 2, 4)))
sample(
    "GRU",
    lambda nn: nn.GRU(4, 5, 2, batch_first=True, bidirectional=True),
    of(f32(2, 6, 4), f32(4, 2, 5)),
    label="bidirectional",
)
sample("RNNCell", lambda nn: nn.RNNCell(4, 5), of(f32(3, 4), f32(3, 5)))
sample("RNNCell", lambda nn: nn.RNNCell(4, 5, nonlinearity="relu"), of(f32(4)), label="relu")
sample("LSTMCell", lambda nn: nn.LSTMCell(4, 5), of(f32(3, 4)))
sample("GRUCell", lambda nn: nn.GRUCell(4, 5, bias=False), of(f32(3, 4), f32(3, 5)))

# -- attention and transformers (dropout 0: deterministic in training too)
sample(
    "MultiheadAttention",
    lambda nn: nn.MultiheadAttention(8, 2),
    of(f32(5, 2, 8), f32(4, 2, 8), f32(4, 2, 8)),
)
sample(
    "MultiheadAttention",
    lambda nn: nn.MultiheadAttention(
        8, 4, kdim=6, vdim=3, add_bias_kv=True, add_zero_attn=True, batch_first=True
    ),
    of(f32(2, 5, 8), f32(2, 4, 6), f32(2, 4, 3)),
    label="kvdim",
)
sample(
    "TransformerEncoderLayer",
    lambda nn: nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0),
    of(f32(5, 2, 8)),
)
sample(
    "TransformerEncoderLayer",
    lambda nn: nn.TransformerEncoderLayer(
        8, 2, 16, dropout=0.0, activation="gelu", batch_first=True, norm_first=True
    ),
    of(f32(2, 5, 8)),
    label="norm_first",
)
sample(
    "TransformerDecoderLayer",
    lambda nn: nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0),
    of(f32(4, 2, 8), f32(5, 2, 8)),
)
sample(
    "TransformerEncoder",
    lambda nn: nn.TransformerEncoder(
        nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0),
        2,
        nn.LayerNorm(8),
        enable_nested_tensor=False,
    ),
    of(f32(5, 2, 8)),
)
sample(
    "TransformerDecoder",
    lambda nn: nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0), 2),
    of(f32(4, 2, 8), f32(5, 2, 8)),
)
sample(
    "Transformer",
    lambda nn: nn.Transformer(8, 2, 1, 1, 16, dropout=0.0),
    of(f32(5, 2, 8), f32(4, 2, 8)),
)

# -- losses
sample("L1Loss", lambda nn: nn.L1Loss(), of(f32(3, 4), f32(3, 4)))
sample("MSELoss", lambda nn: nn.MSELoss(), of(f32(3, 4), f32(3, 4)))
sample("MSELoss", lambda nn: nn.MSELoss(reduction="none"), of(f32(3, 4), f32(3, 4)), label="none")
sample(
    "MSELoss", lambda nn: nn.MSELoss(size_average=False), of(f32(3, 4), f32(3, 4)), label="legacy"
)
sample("SmoothL1Loss", lambda nn: nn.SmoothL1Loss(beta=0.5), of(f32(3, 4), f32(3, 4)))
sample("HuberLoss", lambda nn: nn.HuberLoss(reduction="sum", delta=0.7), of(f32(3, 4), f32(3, 4)))
sample("NLLLoss", lambda nn: nn.NLLLoss(), of(f32(4, 5), ints(5, 4)))
sample("CrossEntropyLoss", lambda nn: nn.CrossEntropyLoss(), of(f32(4, 5), ints(5, 4)))
sample(
    "CrossEntropyLoss",
    lambda nn: nn.CrossEntropyLoss(label_smoothing=0.1, ignore_index=1),
    of(f32(4, 5, 3), ints(5, 4, 3)),
    label="smoothing",
)
sample("BCELoss", lambda nn: nn.BCELoss(), of(prob(3, 4), prob(3, 4)))
sample("BCEWithLogitsLoss", lambda nn: nn.BCEWithLogitsLoss(), of(f32(3, 4), prob(3, 4)))
sample("KLDivLoss", lambda nn: nn.KLDivLoss(reduction="batchmean"), of(f32(3, 4), prob(3, 4)))
sample(
    "KLDivLoss",
    lambda nn: nn.KLDivLoss(log_target=True),
    of(f32(3, 4), f32(3, 4)),
    label="log_target",
)
sample("PoissonNLLLoss", lambda nn: nn.PoissonNLLLoss(), of(f32(3, 4), pos(3, 4)))
sample(
    "PoissonNLLLoss",
    lambda nn: nn.PoissonNLLLoss(log_input=False, full=True),
    lambda rng: [pos(3, 4)(rng), (rng.uniform(0, 4, (3, 4))).astype(np.float32)],
    label="full",
)
sample("GaussianNLLLoss", lambda nn: nn.GaussianNLLLoss(), of(f32(3, 4), f32(3, 4), pos(3, 4)))
sample(
    "GaussianNLLLoss",
    lambda nn: nn.GaussianNLLLoss(full=True, reduction="sum"),
    of(f32(3, 4), f32(3, 4), pos(3, 1)),
    label="full",
)
sample(
    "SoftMarginLoss", lambda nn: nn.SoftMarginLoss(), of(f32(3, 4), signs(3, 4)), grad_inputs=(0,)
)
sample("MarginRankingLoss", lambda nn: nn.MarginRankingLoss(0.2), of(f32(5), f32(5), signs(5)))
sample("HingeEmbeddingLoss", lambda nn: nn.HingeEmbeddingLoss(), of(f32(3, 4), signs(3, 4)))
sample(
    "CosineEmbeddingLoss",
    lambda nn: nn.CosineEmbeddingLoss(0.1),
    of(f32(4, 5), f32(4, 5), signs(4)),
)
sample(
    "MultiLabelSoftMarginLoss",
    lambda nn: nn.MultiLabelSoftMarginLoss(),
    lambda rng: [f32(3, 5)(rng), (rng.uniform(size=(3, 5)) > 0.5).astype(np.float32)],
)
sample("MultiMarginLoss", lambda nn: nn.MultiMarginLoss(), of(f32(4, 5), ints(5, 4)))
sample(
    "MultiMarginLoss",
    lambda nn: nn.MultiMarginLoss(p=2, margin=0.5),
    of(f32(4, 5), ints(5, 4)),
    label="p2",
)
sample(
    "MultiLabelMarginLoss",
    lambda nn: nn.MultiLabelMarginLoss(),
    lambda rng: [f32(2, 4)(rng), np.array([[3, 0, -1, 1], [1, 2, 3, -1]], dtype=np.int64)],
)
sample(
    "TripletMarginLoss",
    lambda nn: nn.TripletMarginLoss(swap=True),
    of(f32(4, 5), f32(4, 5), f32(4, 5)),
)

# -- containers
sample(
    "Sequential",
    lambda nn: nn.Sequential(nn.Linear(4, 5), nn.ReLU(), nn.Linear(5, 2)),
    of(f32(3, 4)),
)
