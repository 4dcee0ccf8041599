"""Linear maps: `linear` (y = x W^T + b) and `bilinear` (y = x1^T W x2 + b)."""

from __future__ import annotations

from ...ops.dispatch import call
from ...tensor import Tensor


def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    return call("aten::linear", input, weight, bias)


def bilinear(input1: Tensor, input2: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """y[..., o] = sum_ij input1[..., i] weight[o, i, j] input2[..., j] + bias[o]."""
    if input1.dim() != input2.dim():
        raise RuntimeError("bilinear(): input dimensions do not match")
    out_features, in1, in2 = weight.size(0), weight.size(1), weight.size(2)
    if input1.size(-1) != in1 or input2.size(-1) != in2:
        raise RuntimeError("bilinear(): input sizes do not match the weight's")
    # (..., in2) @ (in2, out*in1) -> (..., out, in1), then contract with input1
    mixed = call("aten::matmul", input2, weight.permute([2, 0, 1]).reshape([in2, -1]))
    shape = list(input1.shape[:-1])
    shape.append(out_features)
    shape.append(in1)
    out = (mixed.reshape(shape) * input1.unsqueeze(-2)).sum(-1)
    if bias is not None:
        out = out + bias
    return out


__all__ = ["bilinear", "linear"]
