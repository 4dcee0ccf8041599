"""Activation functions, written as `torch.nn.functional`'s so that they script.

An `inplace=True` call uses the operator's in-place form (`aten::relu_`).
"""

from __future__ import annotations

from ...ops.dispatch import call
from ...tensor import Tensor


def relu(input: Tensor, inplace: bool = False) -> Tensor:
    return call("aten::relu_" if inplace else "aten::relu", input)


def relu_(input: Tensor) -> Tensor:
    return call("aten::relu_", input)


def relu6(input: Tensor, inplace: bool = False) -> Tensor:
    return call("aten::relu6_" if inplace else "aten::relu6", input)


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    return call("aten::elu_" if inplace else "aten::elu", input, alpha)


def elu_(input: Tensor, alpha: float = 1.0) -> Tensor:
    return call("aten::elu_", input, alpha)


def selu(input: Tensor, inplace: bool = False) -> Tensor:
    return call("aten::selu_" if inplace else "aten::selu", input)


def celu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    return call("aten::celu_" if inplace else "aten::celu", input, alpha)


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    return call("aten::leaky_relu_" if inplace else "aten::leaky_relu", input, negative_slope)


def leaky_relu_(input: Tensor, negative_slope: float = 0.01) -> Tensor:
    return call("aten::leaky_relu_", input, negative_slope)


def rrelu(
    input: Tensor,
    lower: float = 0.125,
    upper: float = 0.3333333333333333,
    training: bool = False,
    inplace: bool = False,
) -> Tensor:
    """Leaky ReLU whose negative slope is drawn from U(lower, upper) per element in training,
    and is (lower + upper) / 2 otherwise."""
    if not training:
        return leaky_relu(input, (lower + upper) / 2, inplace)
    slopes = call("aten::empty_like", input).uniform_(lower, upper)
    out = call("aten::where", input >= 0, input, input * slopes)
    if inplace:
        return input.copy_(out)
    return out


def gelu(input: Tensor, approximate: str = "none") -> Tensor:
    return call("aten::gelu", input, approximate=approximate)


def silu(input: Tensor, inplace: bool = False) -> Tensor:
    return call("aten::silu_" if inplace else "aten::silu", input)


def mish(input: Tensor, inplace: bool = False) -> Tensor:
    return call("aten::mish_" if inplace else "aten::mish", input)


def hardswish(input: Tensor, inplace: bool = False) -> Tensor:
    return call("aten::hardswish_" if inplace else "aten::hardswish", input)


def hardsigmoid(input: Tensor, inplace: bool = False) -> Tensor:
    return call("aten::hardsigmoid_" if inplace else "aten::hardsigmoid", input)


def hardtanh(
    input: Tensor, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False
) -> Tensor:
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    return call("aten::hardtanh_" if inplace else "aten::hardtanh", input, min_val, max_val)


def hardtanh_(input: Tensor, min_val: float = -1.0, max_val: float = 1.0) -> Tensor:
    return call("aten::hardtanh_", input, min_val, max_val)


def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    return call("aten::softplus", input, beta, threshold)


def logsigmoid(input: Tensor) -> Tensor:
    return call("aten::log_sigmoid", input)


def softsign(input: Tensor) -> Tensor:
    return input / (input.abs() + 1)


def tanhshrink(input: Tensor) -> Tensor:
    return input - input.tanh()


def threshold(input: Tensor, threshold: float, value: float, inplace: bool = False) -> Tensor:
    return call("aten::threshold_" if inplace else "aten::threshold", input, threshold, value)


def hardshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    return call("aten::hardshrink", input, lambd)


def softshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    return call("aten::softshrink", input, lambd)


def glu(input: Tensor, dim: int = -1) -> Tensor:
    if input.dim() == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    return call("aten::glu", input, dim)


def prelu(input: Tensor, weight: Tensor) -> Tensor:
    return call("aten::prelu", input, weight)


def sigmoid(input: Tensor) -> Tensor:
    return call("aten::sigmoid", input)


def tanh(input: Tensor) -> Tensor:
    return call("aten::tanh", input)


def _softmax_dim(ndim: int) -> int:
    # the implicit choice of the deprecated dim=None form
    if ndim == 0 or ndim == 1 or ndim == 3:
        return 0
    return 1


def softmax(
    input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype: int | None = None
) -> Tensor:
    if dim is None:
        dim = _softmax_dim(input.dim())
    return call("aten::softmax", input, dim, dtype)


def log_softmax(
    input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype: int | None = None
) -> Tensor:
    if dim is None:
        dim = _softmax_dim(input.dim())
    return call("aten::log_softmax", input, dim, dtype)


def softmin(
    input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype: int | None = None
) -> Tensor:
    if dim is None:
        dim = _softmax_dim(input.dim())
    return call("aten::softmax", -input, dim, dtype)


__all__ = [
    "celu",
    "elu",
    "elu_",
    "gelu",
    "glu",
    "hardshrink",
    "hardsigmoid",
    "hardswish",
    "hardtanh",
    "hardtanh_",
    "leaky_relu",
    "leaky_relu_",
    "log_softmax",
    "logsigmoid",
    "mish",
    "prelu",
    "relu",
    "relu6",
    "relu_",
    "rrelu",
    "selu",
    "sigmoid",
    "silu",
    "softmax",
    "softmin",
    "softplus",
    "softshrink",
    "softsign",
    "tanh",
    "tanhshrink",
    "threshold",
]
