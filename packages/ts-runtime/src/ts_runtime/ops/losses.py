"""Loss functions: mse, l1, smooth l1, huber, binary cross entropy (with logits), nll, cross entropy, kl_div.

Each computes in one pass over numpy with an explicit derivative, except
`cross_entropy_loss` and `kl_div`, which are composite as in PyTorch (they
call `log_softmax`, `nll_loss` and pointwise operators, which record their
own history). `reduction` is PyTorch's enum: 0 none, 1 mean, 2 sum.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from ts_schema import registry

from ..tensor import DimensionError, Tensor, TensorError, wrap
from .common import check_floating, floating, grad_like, operand, promote, result, sum_to_shape
from .dispatch import derivative, implements
from .nn_functional import softplus_array
from .shape import impl, lazy_impl, shape_str

ndarray = np.ndarray
NONE, MEAN, SUM = 0, 1, 2


def _existing(*keys: str) -> tuple[str, ...]:
    return tuple(k for k in keys if registry.find(k) is not None)


# ---------------------------------------------------------------------------
# Losses


def _reduce(loss: ndarray, reduction: int) -> Tensor:
    if reduction == NONE:
        return result(loss)
    if reduction == MEAN:
        return result(np.mean(loss))
    if reduction == SUM:
        return result(np.add.reduce(loss, axis=None))
    raise TensorError(f"{reduction} is not a valid value for reduction")


def _pair(self: Tensor, target: Tensor, kernel: str | None = None) -> tuple[ndarray, ndarray]:
    dt = promote(self, target)
    if kernel is not None:
        check_floating(dt, kernel)
    dt = floating(dt)
    a, b = operand(self, dt), operand(target, dt)
    try:
        np.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        raise TensorError(
            f"The size of tensor a ({a.shape[-1]}) must match the size of tensor b ({b.shape[-1]}) at "
            "non-singleton dimension"
        ) from None
    return a, b


@implements("aten::mse_loss")
def mse_loss(self: Tensor, target: Tensor, reduction: int = MEAN) -> Tensor:
    a, b = _pair(self, target, "mse_cpu")
    d = a - b
    return _reduce(d * d, reduction)


@implements("aten::l1_loss")
def l1_loss(self: Tensor, target: Tensor, reduction: int = MEAN) -> Tensor:
    a, b = _pair(self, target, "l1_loss")
    return _reduce(np.abs(a - b), reduction)


@implements("aten::smooth_l1_loss")
def smooth_l1_loss(
    self: Tensor, target: Tensor, reduction: int = MEAN, beta: float = 1.0
) -> Tensor:
    if beta < 0:
        raise TensorError("smooth_l1_loss does not support negative values for beta.")
    a, b = _pair(self, target, "smooth_l1_cpu")
    d = np.abs(a - b)
    if beta == 0:
        return _reduce(d, reduction)
    return _reduce(
        np.where(d < beta, 0.5 * d * d / beta, d - 0.5 * beta).astype(d.dtype), reduction
    )


@implements("aten::huber_loss")
def huber_loss(self: Tensor, target: Tensor, reduction: int = MEAN, delta: float = 1.0) -> Tensor:
    if delta <= 0:
        raise TensorError("huber_loss does not support non-positive values for delta.")
    a, b = _pair(self, target, "huber_cpu")
    d = np.abs(a - b)
    return _reduce(
        np.where(d <= delta, 0.5 * d * d, delta * (d - 0.5 * delta)).astype(d.dtype), reduction
    )


def _float_pair(self: Tensor, target: Tensor, name: str) -> tuple[ndarray, ndarray]:
    x = self._data
    if x.dtype.kind not in "fc":
        raise TensorError(f"\"{name}\" not implemented for '{x.dtype.name}'")
    return x, target._data.astype(x.dtype, copy=False)


def _check_weight(weight: Tensor | None, shape: tuple[int, ...], name: str) -> None:
    if weight is None:
        return
    try:
        np.broadcast_to(np.empty(weight._data.shape, dtype=np.bool_), shape)
    except ValueError:
        raise TensorError(
            f"{name} of size {shape_str(weight._data.shape)} cannot be broadcast to the input size "
            f"{shape_str(shape)}"
        ) from None


def _log_clamped(x: ndarray) -> ndarray:
    with np.errstate(divide="ignore"):
        return np.maximum(np.log(x), x.dtype.type(-100))


@implements("aten::binary_cross_entropy")
def binary_cross_entropy(
    self: Tensor, target: Tensor, weight: Tensor | None = None, reduction: int = MEAN
) -> Tensor:
    x, t = _float_pair(self, target, "binary_cross_entropy")
    if x.shape != t.shape:
        raise TensorError(
            f"Using a target size ({shape_str(t.shape)}) that is different to the input size "
            f"({shape_str(x.shape)}) is deprecated. Please ensure they have the same size."
        )
    if x.size and (x.min() < 0 or x.max() > 1):
        raise TensorError("all elements of input should be between 0 and 1")
    _check_weight(weight, x.shape, "weight")
    loss = -(t * _log_clamped(x) + (1 - t) * _log_clamped(1 - x))
    if weight is not None:
        loss = loss * weight._data
    return _reduce(loss.astype(x.dtype, copy=False), reduction)


@implements("aten::binary_cross_entropy_with_logits")
def binary_cross_entropy_with_logits(
    self: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    pos_weight: Tensor | None = None,
    reduction: int = MEAN,
) -> Tensor:
    x, t = _float_pair(self, target, "binary_cross_entropy_with_logits")
    if x.shape != t.shape:
        raise TensorError(
            f"Target size ({shape_str(t.shape)}) must be the same as input size ({shape_str(x.shape)})"
        )
    _check_weight(weight, x.shape, "weight")
    _check_weight(pos_weight, x.shape, "pos_weight")
    sp = softplus_array(-x)
    if pos_weight is not None:
        loss = (1 - t) * x + (1 + (pos_weight._data - 1) * t) * sp
    else:
        loss = (1 - t) * x + sp
    if weight is not None:
        loss = loss * weight._data
    return _reduce(loss.astype(x.dtype, copy=False), reduction)


def _nll_parts(
    self: Tensor, target: Tensor, weight: Tensor | None, ignore_index: int
) -> tuple[ndarray, ndarray, ndarray, int]:
    """Per-element (picked log-probability, weight, safe target) and the class dim."""
    x, t = self._data, target._data
    if x.dtype.kind not in "fc":
        raise TensorError(f"\"nll_loss\" not implemented for '{x.dtype.name}'")
    if t.dtype.kind not in "iu":
        raise TensorError(
            f"expected target dtype to be Long or Byte, but got {target.dtype.scalar_type.name}"
        )
    if x.ndim == 0 or (x.ndim > 1 and t.ndim != x.ndim - 1) or (x.ndim == 1 and t.ndim != 0):
        raise TensorError(
            f"Expected input of {x.ndim}D to have a target of {max(x.ndim - 1, 0)}D, but got target of "
            f"{t.ndim}D"
            if x.ndim
            else "input tensor should be 1D or 2D"
        )
    class_dim = 1 if x.ndim > 1 else 0
    if x.ndim > 1 and x.shape[0] != t.shape[0]:
        raise TensorError(
            f"Expected input batch_size ({x.shape[0]}) to match target batch_size ({t.shape[0]})."
        )
    if x.ndim > 2 and x.shape[2:] != t.shape[1:]:
        raise TensorError(
            f"size mismatch (got input: {shape_str(x.shape)}, target: {shape_str(t.shape)})"
        )
    c = x.shape[class_dim]
    if c == 0:
        raise TensorError("nll_loss: the input has no classes")
    ignored = t == ignore_index
    bad = (~ignored) & ((t < 0) | (t >= c))
    if bad.any():
        raise DimensionError(f"Target {t[bad].flat[0]} is out of bounds.")
    safe = np.where(ignored, 0, t).astype(np.int64)
    picked = np.take_along_axis(x, np.expand_dims(safe, class_dim), axis=class_dim).squeeze(
        class_dim
    )
    if weight is not None:
        w = weight._data
        if w.shape != (c,):
            raise TensorError(
                f"weight tensor should be defined either for all {c} classes or no classes but got "
                f"weight tensor of shape: {shape_str(w.shape)}"
            )
        wt = w[safe].astype(x.dtype, copy=False)
    else:
        wt = np.ones(safe.shape, dtype=x.dtype)
    wt = np.where(ignored, x.dtype.type(0), wt)
    return picked, wt, safe, class_dim


@implements("aten::nll_loss", "aten::nll_loss_nd", *_existing("aten::nll_loss2d"))
def nll_loss(
    self: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    reduction: int = MEAN,
    ignore_index: int = -100,
) -> Tensor:
    picked, wt, _, _ = _nll_parts(self, target, weight, ignore_index)
    loss = -(picked * wt)
    if reduction == MEAN:
        total = np.add.reduce(wt, axis=None)
        return result(np.true_divide(np.add.reduce(loss, axis=None), total).astype(loss.dtype))
    return _reduce(loss, reduction)


@implements("aten::cross_entropy_loss", autograd=False)
def cross_entropy_loss(
    self: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    reduction: int = MEAN,
    ignore_index: int = -100,
    label_smoothing: float = 0.0,
) -> Tensor:
    x = self._data
    class_dim = 1 if x.ndim > 1 else 0
    if x.ndim == 0:
        raise TensorError("cross_entropy: input tensor should be 1D or more")
    c = x.shape[class_dim]
    if not 0.0 <= label_smoothing <= 1.0:
        raise TensorError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    logp = _log_softmax(self, class_dim, None)
    w_b = None
    if weight is not None:
        shape = [1] * x.ndim
        shape[class_dim] = c
        w_b = _reshape(weight, shape)
    if target._data.dtype.kind == "f":
        if target._data.shape != x.shape:
            raise TensorError(
                f"Expected target size {shape_str(x.shape)}, got {shape_str(target._data.shape)}"
            )
        probs = target
        if label_smoothing > 0:
            probs = _add_s(_mul_s(target, 1 - label_smoothing), label_smoothing / c, 1)
        terms = _mul(logp, probs)
        if w_b is not None:
            terms = _mul(terms, w_b)
        loss = _neg(_sum_dim(terms, [class_dim], False, None))
        if reduction == MEAN:
            n = x.size // c if c else 0
            return _div_s(_sum(loss, None), n) if x.ndim > 1 else loss
        return loss if reduction == NONE else _sum(loss, None)
    nll = _nll_loss(logp, target, weight, reduction, ignore_index)
    if label_smoothing <= 0:
        return nll
    terms = logp if w_b is None else _mul(logp, w_b)
    smooth = _neg(_sum_dim(terms, [class_dim], False, None))
    ignored = wrap(np.asarray(target._data == ignore_index))
    smooth = _masked_fill(smooth, ignored, 0.0)
    if reduction == SUM:
        smooth = _sum(smooth, None)
    elif reduction == MEAN:
        _, wt, _, _ = _nll_parts(logp, target, weight, ignore_index)
        smooth = _div_s(_sum(smooth, None), float(np.add.reduce(wt, axis=None)))
    return _add(_mul_s(nll, 1 - label_smoothing), _mul_s(smooth, label_smoothing / c), 1)


@implements("aten::kl_div", autograd=False)
def kl_div(self: Tensor, target: Tensor, reduction: int = MEAN, log_target: bool = False) -> Tensor:
    if self._data.dtype.kind not in "fc" or target._data.dtype.kind not in "fc":
        raise TensorError("kl_div: Integral inputs not supported.")
    _pair(self, target)
    if log_target:
        loss = _mul(_exp(target), _sub(target, self, 1))
    else:
        t = target
        safe_log = _log(_clamp_min(t, 1e-38)) if t._data.dtype.kind == "f" else _log(t)
        loss = _sub(_masked_fill(_mul(t, safe_log), _eq(t, 0), 0.0), _mul(t, self), 1)
    if reduction == NONE:
        return loss
    total = _sum(loss, None)
    return _div_s(total, max(self._data.size, 1)) if reduction == MEAN else total


# ---------------------------------------------------------------------------
# Derivatives


def _scale(grad: Tensor, reduction: int, n: int) -> Tensor:
    return grad / n if reduction == MEAN else grad


def _loss_grads(
    grad: Tensor, self: Tensor, target: Tensor, reduction: int, d_self: Tensor
) -> tuple[Any, Any]:
    n = max(d_self._data.size, 1)
    g = _scale(grad, reduction, n) * d_self
    g_self = grad_like(sum_to_shape(g, self._data.shape), self)
    g_target = grad_like(sum_to_shape(-g, target._data.shape), target)
    return g_self, g_target


@derivative("aten::mse_loss")
def _d_mse_loss(grad, self, target, reduction=MEAN, *, result):
    return _loss_grads(grad, self, target, reduction, 2 * (self - target))


@derivative("aten::l1_loss")
def _d_l1_loss(grad, self, target, reduction=MEAN, *, result):
    return _loss_grads(grad, self, target, reduction, (self - target).sign())


@derivative("aten::smooth_l1_loss")
def _d_smooth_l1_loss(grad, self, target, reduction=MEAN, beta=1.0, *, result):
    d = self - target
    if beta == 0:
        return _loss_grads(grad, self, target, reduction, d.sign())
    inside = (d.abs() < beta).to(d.dtype)
    return _loss_grads(grad, self, target, reduction, inside * d / beta + (1 - inside) * d.sign())


@derivative("aten::huber_loss")
def _d_huber_loss(grad, self, target, reduction=MEAN, delta=1.0, *, result):
    d = self - target
    inside = (d.abs() <= delta).to(d.dtype)
    return _loss_grads(grad, self, target, reduction, inside * d + (1 - inside) * d.sign() * delta)


@derivative(
    "aten::binary_cross_entropy",
    saves=("self", "target", "weight"),
    not_differentiable=("weight",),
)
def _d_bce(grad, self, target, weight=None, reduction=MEAN, *, result):
    n = max(self._data.size, 1)
    g = _scale(grad, reduction, n)
    if weight is not None:
        g = g * weight
    t = target.to(self.dtype)
    denom = ((1 - self) * self).clamp_min(1e-12)
    g_self = g * (self - t) / denom
    log_x = self.log().clamp_min(-100)
    log_1mx = (1 - self).log().clamp_min(-100)
    g_target = grad_like(g * (log_1mx - log_x), target)
    return g_self, g_target, None


@derivative(
    "aten::binary_cross_entropy_with_logits",
    saves=("self", "target", "weight", "pos_weight"),
    not_differentiable=("weight", "pos_weight"),
)
def _d_bce_logits(grad, self, target, weight=None, pos_weight=None, reduction=MEAN, *, result):
    n = max(self._data.size, 1)
    g = _scale(grad, reduction, n)
    if weight is not None:
        g = g * weight
    t = target.to(self.dtype)
    s = self.sigmoid()
    sp = (-self).softplus()
    if pos_weight is not None:
        lw = 1 + (pos_weight - 1) * t
        g_self = g * (lw * s - pos_weight * t)
        g_target = g * (-self + (pos_weight - 1) * sp)
        g_pos = sum_to_shape(g * t * sp, pos_weight._data.shape)
    else:
        g_self = g * (s - t)
        g_target = g * -self
        g_pos = None
    return g_self, grad_like(g_target, target), None, g_pos


@derivative(
    "aten::nll_loss",
    "aten::nll_loss_nd",
    *_existing("aten::nll_loss2d"),
    saves=("target", "weight"),
    not_differentiable=("weight",),
)
def _d_nll_loss(grad, self, target, weight=None, reduction=MEAN, ignore_index=-100, *, result):
    _, wt, safe, class_dim = _nll_parts(self, target, weight, ignore_index)
    coef = wrap(np.asarray(-wt))
    if reduction == MEAN:
        total = float(np.add.reduce(wt, axis=None))
        coef = coef / total if total else coef * math.nan
    g = grad * coef if reduction == NONE else coef * grad
    zeros = wrap(np.zeros(self._data.shape, dtype=grad._data.dtype))
    idx = wrap(np.expand_dims(safe, class_dim))
    return (_scatter(zeros, class_dim, idx, g.unsqueeze(class_dim)),)


_mul = lazy_impl("aten::mul.Tensor")
_mul_s = lazy_impl("aten::mul.Scalar")
_add = lazy_impl("aten::add.Tensor")
_add_s = lazy_impl("aten::add.Scalar")
_sub = lazy_impl("aten::sub.Tensor")
_div_s = lazy_impl("aten::div.Scalar")
_neg = lazy_impl("aten::neg")
_exp = lazy_impl("aten::exp")
_log = lazy_impl("aten::log")
_eq = lazy_impl("aten::eq.Scalar")
_clamp_min = lazy_impl("aten::clamp_min")
_masked_fill = lazy_impl("aten::masked_fill.Scalar")
_reshape = impl("aten::reshape")
_sum = lazy_impl("aten::sum")
_sum_dim = lazy_impl("aten::sum.dim_IntList")
_log_softmax = lazy_impl("aten::log_softmax.int")
_nll_loss = impl("aten::nll_loss_nd")
_scatter = lazy_impl("aten::scatter.src")
