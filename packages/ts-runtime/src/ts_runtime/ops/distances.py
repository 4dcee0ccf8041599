"""Vector products and distances: cross, linalg_cross, cosine_similarity, pairwise_distance,
cdist, dist. Composite: each is a few operator calls, so autograd needs no formula here.

    cross(a, b)              a[1]b[2] - a[2]b[1], ... along a dim of size 3
    cosine_similarity(a, b)  sum(a/|a| * b/|b|) along dim, each norm at least eps
    pairwise_distance(a, b)  ||a - b + eps||_p over the last dim
    cdist(a, b)              ||a_i - b_j||_p for every pair of rows
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..autograd.grad_mode import no_grad
from ..tensor import Tensor, TensorError, normalize_dim, wrap
from .dispatch import call, implements

_NEXT = wrap(np.array([1, 2, 0]))
_PREVIOUS = wrap(np.array([2, 0, 1]))


def _cross(a: Tensor, b: Tensor, dim: int) -> Tensor:
    shape = np.broadcast_shapes(tuple(a.shape), tuple(b.shape))
    a = call("aten::expand", a, list(shape))
    b = call("aten::expand", b, list(shape))
    d = normalize_dim(dim, len(shape))
    if shape[d] != 3:
        raise TensorError(
            f"linalg.cross: inputs dimension {dim} must have length 3. Got {a.shape[d]} and "
            f"{b.shape[d]}"
        )

    def rolled(t: Tensor, order: Tensor) -> Tensor:
        return call("aten::index_select", t, d, order)

    return rolled(a, _NEXT) * rolled(b, _PREVIOUS) - rolled(a, _PREVIOUS) * rolled(b, _NEXT)


@implements("aten::linalg_cross", autograd=False)
def linalg_cross(self: Tensor, other: Tensor, dim: int = -1) -> Tensor:
    if self.dim() != other.dim():
        raise TensorError(
            f"linalg.cross: inputs must have the same number of dimensions. Got {self.dim()} "
            f"and {other.dim()}"
        )
    return _cross(self, other, dim)


@implements("aten::cross", autograd=False)
def cross(self: Tensor, other: Tensor, dim: int | None = None) -> Tensor:
    if dim is None:
        # the first dim of length 3, as PyTorch's deprecated default
        shape = np.broadcast_shapes(tuple(self.shape), tuple(other.shape))
        found = [i for i, n in enumerate(shape) if n == 3]
        if not found:
            raise TensorError("no dimension of size 3 in input")
        dim = found[0]
    return linalg_cross(self, other, dim)


@implements("aten::cosine_similarity", autograd=False)
def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    if x1._data.dtype.kind not in "fc" and x2._data.dtype.kind not in "fc":
        raise TensorError("expected common dtype to be floating point, yet common dtype is Long")

    def normalized(x: Tensor) -> Tensor:
        if x._data.dtype.kind not in "fc":
            x = call("aten::to", x, ts_float())
        norm = call("aten::linalg_vector_norm", x, 2, [dim], True)
        # clamped below at eps as PyTorch does in place under no_grad: the values change,
        # the gradient still flows through the norm
        with no_grad():
            lift = call("aten::clamp_min", norm, eps) - norm
        return x / (norm + lift)

    return call("aten::sum", normalized(x1) * normalized(x2), [dim], False)


def ts_float() -> Any:
    from ..dtypes import get_default_dtype

    return get_default_dtype()


@implements("aten::pairwise_distance", autograd=False)
def pairwise_distance(
    x1: Tensor, x2: Tensor, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False
) -> Tensor:
    rank = max(x1.dim(), x2.dim())
    dim = -1 if rank else 0
    diff = x1 - x2 + eps
    if rank == 0:
        return call("aten::abs", diff)
    return call("aten::linalg_vector_norm", diff, p, [dim], keepdim)


@implements("aten::cdist", "aten::_cdist_forward", autograd=False)
def cdist(x1: Tensor, x2: Tensor, p: float = 2.0, compute_mode: int | None = None) -> Tensor:
    if x1.dim() < 2 or x2.dim() < 2:
        raise TensorError(
            f"cdist only supports at least 2D tensors, X1 got: {x1.dim()}D and X2 got: {x2.dim()}D"
        )
    if x1.shape[-1] != x2.shape[-1]:
        raise TensorError(
            f"X1 and X2 must have the same number of columns. X1: {x1.shape[-1]} X2: {x2.shape[-1]}"
        )
    if p < 0:
        raise TensorError("cdist only supports non-negative p values")
    diff = call("aten::unsqueeze", x1, -2) - call("aten::unsqueeze", x2, -3)
    return call("aten::linalg_vector_norm", diff, p, [-1], False)


@implements("aten::dist", autograd=False)
def dist(self: Tensor, other: Tensor, p: Any = 2) -> Tensor:
    return call("aten::linalg_vector_norm", self - other, p, None, False)
