"""Normalization: batch, instance, layer, group, RMS and local response normalization."""

from __future__ import annotations

from ...ops.dispatch import call
from ...tensor import Tensor


def batch_norm(
    input: Tensor,
    running_mean: Tensor | None,
    running_var: Tensor | None,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    training: bool = False,
    momentum: float = 0.1,
    eps: float = 1e-5,
) -> Tensor:
    return call(
        "aten::batch_norm",
        input,
        weight,
        bias,
        running_mean,
        running_var,
        training,
        momentum,
        eps,
        False,
    )


def instance_norm(
    input: Tensor,
    running_mean: Tensor | None = None,
    running_var: Tensor | None = None,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    use_input_stats: bool = True,
    momentum: float = 0.1,
    eps: float = 1e-5,
) -> Tensor:
    return call(
        "aten::instance_norm",
        input,
        weight,
        bias,
        running_mean,
        running_var,
        use_input_stats,
        momentum,
        eps,
        False,
    )


def layer_norm(
    input: Tensor,
    normalized_shape: list[int],
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    eps: float = 1e-5,
) -> Tensor:
    return call("aten::layer_norm", input, normalized_shape, weight, bias, eps, False)


def rms_norm(
    input: Tensor,
    normalized_shape: list[int],
    weight: Tensor | None = None,
    eps: float | None = None,
) -> Tensor:
    return call("aten::rms_norm", input, normalized_shape, weight, eps)


def group_norm(
    input: Tensor,
    num_groups: int,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    eps: float = 1e-5,
) -> Tensor:
    if input.dim() < 2:
        raise RuntimeError(
            "Expected at least 2 dimensions for input tensor but received " + str(input.dim())
        )
    return call("aten::group_norm", input, num_groups, weight, bias, eps, False)


def local_response_norm(
    input: Tensor, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0
) -> Tensor:
    """Each element divided by (k + alpha * mean of squares over `size` nearby channels)^beta."""
    dim = input.dim()
    if dim < 3:
        raise ValueError(
            "Expected 3D or higher dimensionality input (got " + str(dim) + " dimensions)"
        )
    if input.numel() == 0:
        return input
    div = input * input
    if dim == 3:
        div = div.unsqueeze(1)
        div = call("aten::pad", div, [0, 0, size // 2, (size - 1) // 2], "constant", 0.0)
        div = call("aten::avg_pool2d", div, [size, 1], [1, 1]).squeeze(1)
    else:
        sizes = input.size()
        div = div.reshape([sizes[0], 1, sizes[1], sizes[2], -1])
        div = call("aten::pad", div, [0, 0, 0, 0, size // 2, (size - 1) // 2], "constant", 0.0)
        div = call("aten::avg_pool3d", div, [size, 1, 1], [1, 1, 1]).squeeze(1)
        div = div.reshape(sizes)
    div = (div * alpha + k).pow(beta)
    return input / div


def normalize(input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12) -> Tensor:
    """`input` divided by its p-norm over `dim` (at least `eps`)."""
    denom = call("aten::norm", input, p, [dim], True).clamp_min(eps).expand_as(input)
    return input / denom


__all__ = [
    "batch_norm",
    "group_norm",
    "instance_norm",
    "layer_norm",
    "local_response_norm",
    "normalize",
    "rms_norm",
]
