"""Matrix and vector norms beyond the vector norm: linalg_norm, frobenius_norm, and
instance_norm (the per-sample normalization built on batch_norm).

All composite: they call operators that record their own history, so their
gradients need no formula here.
"""

from __future__ import annotations

import math
from typing import Any

from ..autograd.grad_mode import no_grad
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


@implements("aten::instance_norm", autograd=False)
def instance_norm(
    input: Tensor,
    weight: Tensor | None,
    bias: Tensor | None,
    running_mean: Tensor | None,
    running_var: Tensor | None,
    use_input_stats: bool,
    momentum: float,
    eps: float,
    cudnn_enabled: bool,
) -> Tensor:
    """Each (sample, channel) normalized on its own: batch_norm over a batch of one whose
    channels are the input's samples times its channels."""
    shape = list(input.shape)
    if len(shape) < 2:
        raise TensorError(f"instance_norm expects an input of at least 2 dims, got {len(shape)}")
    n, c = shape[0], shape[1]

    def per_sample(t: Tensor | None) -> Tensor | None:
        return None if t is None else call("aten::repeat", t, [n])

    rm, rv = per_sample(running_mean), per_sample(running_var)
    x = call("aten::reshape", input, [1, n * c, *shape[2:]])
    out = call(
        "aten::batch_norm",
        x,
        per_sample(weight),
        per_sample(bias),
        rm,
        rv,
        use_input_stats,
        momentum,
        eps,
        cudnn_enabled,
    )
    if use_input_stats:
        with no_grad():
            for running, updated in ((running_mean, rm), (running_var, rv)):
                if running is not None and updated is not None:
                    call(
                        "aten::copy_",
                        running,
                        call("aten::mean", call("aten::view", updated, [n, c]), [0]),
                    )
    return call("aten::reshape", out, shape)
