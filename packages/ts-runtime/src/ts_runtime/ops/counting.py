"""Counting operators: `bincount`.

None of them is differentiable (their results count elements; `bincount`'s
weights sum into bins without a gradient, as in PyTorch).
"""

from __future__ import annotations

import numpy as np

from ..dtypes import scalar_type_of_numpy
from ..tensor import Tensor, TensorError
from .common import result
from .dispatch import implements


@implements("aten::bincount")
def bincount(self: Tensor, weights: Tensor | None = None, minlength: int = 0) -> Tensor:
    """Occurrences of each value of a 1-d non-negative integer tensor (weighted sums with
    `weights`: in their dtype when floating, in float64 otherwise)."""
    a = self._data
    if a.dtype.kind not in "iu":
        raise TensorError(
            f"\"bincount_cpu\" not implemented for '{scalar_type_of_numpy(a.dtype).name}'"
        )
    if minlength < 0:
        raise TensorError("minlength should be >= 0")
    if a.ndim != 1 or (a.size and a.min() < 0):
        raise TensorError("bincount only supports 1-d non-negative integral inputs.")
    if weights is None:
        return result(np.bincount(a, minlength=minlength).astype(np.int64, copy=False))
    w = weights._data
    if w.ndim != 1 or w.shape[0] != a.shape[0]:
        raise TensorError("weights should be 1-d and have the same length as input")
    dt = w.dtype if w.dtype.kind == "f" else np.dtype(np.float64)
    return result(np.bincount(a, weights=w.astype(np.float64), minlength=minlength).astype(dt))
