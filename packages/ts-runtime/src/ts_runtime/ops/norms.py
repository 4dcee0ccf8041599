"""Matrix and vector norms beyond the vector norm: linalg_norm and frobenius_norm.

Both composite: they call operators that record their own history, so their
gradients need no formula here.
"""

from __future__ import annotations

import math
from typing import Any

from ..tensor import Tensor, TensorError, normalize_dim
from .dispatch import call, implements


def _matrix_norm(self: Tensor, ord: Any, dims: list[int], keepdim: bool) -> Tensor:
    """Induced and entrywise matrix norms over the two dims `dims` (rows, columns)."""
    rows, cols = dims
    a = call("aten::abs", self)
    if ord in ("fro", None):
        return call("aten::linalg_vector_norm", self, 2, dims, keepdim)
    if ord in (1, -1):
        sums = call("aten::sum", a, [rows], True)
        pick = "aten::amax" if ord == 1 else "aten::amin"
        out = call(pick, sums, [cols], True)
    elif ord in (math.inf, -math.inf):
        sums = call("aten::sum", a, [cols], True)
        pick = "aten::amax" if ord == math.inf else "aten::amin"
        out = call(pick, sums, [rows], True)
    elif ord in (2, -2, "nuc"):
        # by the singular values: the largest, the smallest, their sum
        values = call("aten::linalg_svdvals", call("aten::movedim", self, dims, [-2, -1]))
        pick = {2: "aten::amax", -2: "aten::amin", "nuc": "aten::sum"}[ord]
        out = call(pick, values, [-1], False)
        if keepdim:
            for d in sorted(dims):
                out = call("aten::unsqueeze", out, d)
        return out
    else:
        raise TensorError(f"linalg.matrix_norm: Order {ord} not supported.")
    if not keepdim:
        out = call("aten::squeeze", out, sorted(dims, reverse=True)[0])
        out = call("aten::squeeze", out, sorted(dims)[0])
    return out


@implements("aten::linalg_norm", "aten::linalg_norm.ord_str", autograd=False)
def linalg_norm(
    self: Tensor,
    ord: Any = None,
    dim: list[int] | None = None,
    keepdim: bool = False,
    dtype: int | None = None,
) -> Tensor:
    x = self if dtype is None else call("aten::to", self, dtype)
    ndim = x.dim()
    if dim is not None:
        dims = [normalize_dim(d, ndim) for d in dim]
    elif ord is None:
        return call("aten::linalg_vector_norm", x, 2, None, keepdim)
    else:
        if ndim not in (1, 2):
            raise TensorError(
                f"linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. "
                f"Got {ndim}D."
            )
        dims = list(range(ndim))
    if len(dims) == 1:
        if isinstance(ord, str):
            raise TensorError(f"linalg.vector_norm: Order {ord} not supported.")
        return call("aten::linalg_vector_norm", x, 2 if ord is None else ord, dims, keepdim)
    if len(dims) == 2:
        return _matrix_norm(x, ord, dims, keepdim)
    raise TensorError(f"linalg.norm: If dim is specified, it must be of length 1 or 2. Got {dim}")


@implements("aten::frobenius_norm.dim", autograd=False)
def frobenius_norm(self: Tensor, dim: list[int], keepdim: bool = False) -> Tensor:
    return call("aten::linalg_vector_norm", self, 2, dim, keepdim)
