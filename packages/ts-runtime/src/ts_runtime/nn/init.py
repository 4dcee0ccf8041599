"""`ts_runtime.nn.init`: in-place initializers, drawing from the global generator."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..autograd.grad_mode import no_grad
from ..ops.dispatch import call
from ..tensor import Tensor, TensorError, bump_version


def calculate_gain(nonlinearity: str, param: Any = None) -> float:
    """The recommended gain for an activation, as `torch.nn.init.calculate_gain`."""
    linear = (
        "linear",
        "conv1d",
        "conv2d",
        "conv3d",
        "conv_transpose1d",
        "conv_transpose2d",
        "conv_transpose3d",
        "sigmoid",
    )
    if nonlinearity in linear:
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else param
        if isinstance(slope, bool) or not isinstance(slope, (int, float)):
            raise ValueError(f"negative_slope {slope} not a valid number")
        return math.sqrt(2.0 / (1 + slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _fans(tensor: Tensor) -> tuple[int, int]:
    if tensor.dim() < 2:
        raise ValueError(
            "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions"
        )
    receptive = 1
    for s in tensor.shape[2:]:
        receptive *= s
    return tensor.shape[1] * receptive, tensor.shape[0] * receptive


def uniform_(tensor: Tensor, a: float = 0.0, b: float = 1.0) -> Tensor:
    with no_grad():
        return call("aten::uniform_", tensor, a, b)


def normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0) -> Tensor:
    with no_grad():
        return call("aten::normal_", tensor, mean, std)


def constant_(tensor: Tensor, val: float) -> Tensor:
    with no_grad():
        return call("aten::fill_", tensor, val)


def zeros_(tensor: Tensor) -> Tensor:
    with no_grad():
        return call("aten::zero_", tensor)


def ones_(tensor: Tensor) -> Tensor:
    return constant_(tensor, 1.0)


def eye_(tensor: Tensor) -> Tensor:
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    with no_grad():
        return call(
            "aten::copy_",
            tensor,
            call("aten::eye", tensor.shape[0], tensor.shape[1], dtype=tensor.dtype),
        )


def xavier_uniform_(tensor: Tensor, gain: float = 1.0) -> Tensor:
    fan_in, fan_out = _fans(tensor)
    bound = gain * math.sqrt(6.0 / float(fan_in + fan_out))
    return uniform_(tensor, -bound, bound)


def xavier_normal_(tensor: Tensor, gain: float = 1.0) -> Tensor:
    fan_in, fan_out = _fans(tensor)
    return normal_(tensor, 0.0, gain * math.sqrt(2.0 / float(fan_in + fan_out)))


def _fan(tensor: Tensor, mode: str) -> int:
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of fan_in, fan_out")
    fan_in, fan_out = _fans(tensor)
    return fan_in if mode == "fan_in" else fan_out


def kaiming_uniform_(
    tensor: Tensor, a: float = 0.0, mode: str = "fan_in", nonlinearity: str = "leaky_relu"
) -> Tensor:
    fan = _fan(tensor, mode)
    if fan == 0:
        return tensor
    bound = math.sqrt(3.0) * calculate_gain(nonlinearity, a) / math.sqrt(fan)
    return uniform_(tensor, -bound, bound)


def kaiming_normal_(
    tensor: Tensor, a: float = 0.0, mode: str = "fan_in", nonlinearity: str = "leaky_relu"
) -> Tensor:
    fan = _fan(tensor, mode)
    if fan == 0:
        return tensor
    return normal_(tensor, 0.0, calculate_gain(nonlinearity, a) / math.sqrt(fan))


def trunc_normal_(
    tensor: Tensor, mean: float = 0.0, std: float = 1.0, a: float = -2.0, b: float = 2.0
) -> Tensor:
    if a >= b:
        raise TensorError(f"trunc_normal_: a ({a}) must be less than b ({b})")
    with no_grad():
        normal_(tensor, mean, std)
        data = tensor.numpy(force=True)
        bad = (data < a) | (data > b)
        while bad.any():
            data[bad] = call("aten::normal", mean, std, [int(bad.sum())]).numpy()
            bad = (data < a) | (data > b)
    return tensor


def orthogonal_(tensor: Tensor, gain: float = 1.0) -> Tensor:
    """A (semi-)orthogonal matrix (of the tensor flattened to rows x rest): the Q of a QR
    decomposition of a normal sample, its signs fixed by R's diagonal, times `gain`."""
    if tensor.dim() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    rows = tensor.shape[0]
    cols = tensor.numel() // rows
    with no_grad():
        sample = call("aten::normal", 0.0, 1.0, [rows, cols]).numpy().astype(np.float64)
        if rows < cols:
            sample = sample.T
        q, r = np.linalg.qr(sample)
        q *= np.sign(np.diag(r))
        if rows < cols:
            q = q.T
        data = tensor.numpy(force=True)
        data[...] = (q * gain).reshape(data.shape).astype(data.dtype)
        bump_version(tensor)
    return tensor


def sparse_(tensor: Tensor, sparsity: float, std: float = 0.01) -> Tensor:
    """A 2-D matrix drawn from N(0, std), with the fraction `sparsity` of each column zero."""
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    rows, cols = tensor.shape
    zeros = math.ceil(sparsity * rows)
    with no_grad():
        normal_(tensor, 0.0, std)
        data = tensor.numpy(force=True)
        for col in range(cols):
            order = call("aten::randperm", rows).numpy()
            data[order[:zeros], col] = 0
        bump_version(tensor)
    return tensor


def dirac_(tensor: Tensor, groups: int = 1) -> Tensor:
    """A convolution kernel (3-, 4- or 5-D) that passes its input through: a one at the
    centre of each (output channel, same input channel) kernel, per group."""
    dims = tensor.dim()
    if dims not in (3, 4, 5):
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    sizes = tensor.shape
    if sizes[0] % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")
    out_per_group = sizes[0] // groups
    smallest = min(out_per_group, sizes[1])
    with no_grad():
        zeros_(tensor)
        data = tensor.numpy(force=True)
        centre = tuple(s // 2 for s in sizes[2:])
        for g in range(groups):
            for d in range(smallest):
                data[(g * out_per_group + d, d, *centre)] = 1
        bump_version(tensor)
    return tensor


__all__ = [
    "calculate_gain",
    "constant_",
    "dirac_",
    "eye_",
    "kaiming_normal_",
    "kaiming_uniform_",
    "normal_",
    "ones_",
    "orthogonal_",
    "sparse_",
    "trunc_normal_",
    "uniform_",
    "xavier_normal_",
    "xavier_uniform_",
    "zeros_",
]
