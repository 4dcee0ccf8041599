"""Lookup tables: `embedding`, `embedding_bag` and `one_hot`."""

from __future__ import annotations

from ...ops.dispatch import call
from ...tensor import Tensor


def _padding_index(padding_idx: int | None, num_embeddings: int) -> int:
    """`padding_idx` as the operators take it: non-negative, or -1 for none."""
    if padding_idx is None:
        return -1
    if padding_idx >= num_embeddings or padding_idx < -num_embeddings:
        raise ValueError("Padding_idx must be within num_embeddings")
    if padding_idx < 0:
        return num_embeddings + padding_idx
    return padding_idx


def embedding(
    input: Tensor,
    weight: Tensor,
    padding_idx: int | None = None,
    max_norm: float | None = None,
    norm_type: float = 2.0,
    scale_grad_by_freq: bool = False,
    sparse: bool = False,
) -> Tensor:
    """Rows of `weight` at `input`'s indices; with `max_norm`, the rows used are first
    rescaled in place (without recording gradients) to norm at most `max_norm`."""
    index = _padding_index(padding_idx, weight.size(0))
    if max_norm is not None:
        call("aten::embedding_renorm_", weight, input.contiguous(), max_norm, norm_type)
    return call("aten::embedding", weight, input, index, scale_grad_by_freq, sparse)


def embedding_bag(
    input: Tensor,
    weight: Tensor,
    offsets: Tensor | None = None,
    max_norm: float | None = None,
    norm_type: float = 2,
    scale_grad_by_freq: bool = False,
    mode: str = "mean",
    sparse: bool = False,
    per_sample_weights: Tensor | None = None,
    include_last_offset: bool = False,
    padding_idx: int | None = None,
) -> Tensor:
    """Sums, means or maxima of bags of embeddings: a 2-D `input` holds one bag per row; a
    1-D `input` is cut into bags at `offsets`."""
    if per_sample_weights is not None and input.size() != per_sample_weights.size():
        raise ValueError(
            "embedding_bag: If per_sample_weights is passed, it must have the same shape as "
            + "the input"
        )
    if weight.dim() != 2:
        raise ValueError(
            "weight has to be a 2D Tensor, but got Tensor of dimension " + str(weight.dim())
        )
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError(
                "if input is 2D, then offsets has to be None, as input is treated is a "
                + "mini-batch of fixed length sequences."
            )
        offsets = call("aten::arange", 0, input.numel(), input.size(1), dtype=input.dtype)
        input = input.reshape([-1])
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape([-1])
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
    else:
        raise ValueError(
            "input has to be 1D or 2D Tensor, but got Tensor of dimension " + str(input.dim())
        )
    if mode == "sum":
        mode_enum = 0
    elif mode == "mean":
        mode_enum = 1
    elif mode == "max":
        mode_enum = 2
        if scale_grad_by_freq:
            raise ValueError("max mode does not support scaling the gradient by the frequency")
        if sparse:
            raise ValueError("max mode does not support sparse weights")
    else:
        raise ValueError("mode has to be one of sum, mean or max")
    if max_norm is not None:
        call("aten::embedding_renorm_", weight, input, max_norm, norm_type)
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(
            "embedding_bag: per_sample_weights was not None. per_sample_weights is only "
            + "supported for mode='sum' (got mode='"
            + mode
            + "'). Please open a feature request "
            + "on GitHub."
        )
    result = call(
        "aten::embedding_bag",
        weight,
        input,
        offsets,
        scale_grad_by_freq,
        mode_enum,
        sparse,
        per_sample_weights,
        include_last_offset,
        padding_idx,
    )
    return result[0]


def one_hot(tensor: Tensor, num_classes: int = -1) -> Tensor:
    return call("aten::one_hot", tensor, num_classes)


__all__ = ["embedding", "embedding_bag", "one_hot"]
