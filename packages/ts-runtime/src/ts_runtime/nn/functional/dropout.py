"""Dropout functions: zero elements (or whole channels) in training, scaling the rest."""

from __future__ import annotations

from ...ops.dispatch import call
from ...tensor import Tensor


def _check_p(p: float) -> None:
    if p < 0.0 or p > 1.0:
        raise ValueError("dropout probability has to be between 0 and 1, but got " + str(p))


def dropout(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    _check_p(p)
    return call("aten::dropout_" if inplace else "aten::dropout", input, p, training)


def alpha_dropout(
    input: Tensor, p: float = 0.5, training: bool = False, inplace: bool = False
) -> Tensor:
    _check_p(p)
    return call("aten::alpha_dropout", input, p, training)


def feature_alpha_dropout(
    input: Tensor, p: float = 0.5, training: bool = False, inplace: bool = False
) -> Tensor:
    _check_p(p)
    return call("aten::feature_alpha_dropout", input, p, training)


def _feature_dropout(
    input: Tensor, p: float, training: bool, inplace: bool, batched: bool
) -> Tensor:
    """Channel dropout over (N, C, *) input, or unbatched (C, *) input: one draw per channel."""
    _check_p(p)
    if not batched:
        input = input.unsqueeze(0)
    if inplace:
        out = call("aten::feature_dropout_", input, p, training)
    else:
        out = call("aten::feature_dropout", input, p, training)
    if not batched:
        out = out.squeeze(0)
    return out


def dropout1d(
    input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False
) -> Tensor:
    if input.dim() != 2 and input.dim() != 3:
        raise RuntimeError(
            "dropout1d: Expected 2D or 3D input, but received a " + str(input.dim()) + "D input"
        )
    return _feature_dropout(input, p, training, inplace, input.dim() == 3)


def dropout2d(
    input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False
) -> Tensor:
    # a 3-D input is read as (N, C, L), as PyTorch still does
    return _feature_dropout(input, p, training, inplace, input.dim() == 3 or input.dim() == 4)


def dropout3d(
    input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False
) -> Tensor:
    return _feature_dropout(input, p, training, inplace, input.dim() == 5)


__all__ = [
    "alpha_dropout",
    "dropout",
    "dropout1d",
    "dropout2d",
    "dropout3d",
    "feature_alpha_dropout",
]
