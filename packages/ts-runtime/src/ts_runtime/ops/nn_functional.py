"""Neural-network operators: normalization, dropout, embedding, activations, padding, pooling.

`layer_norm` and `batch_norm` compute in one pass over numpy and have
explicit derivatives (recomputing the statistics from the saved input);
`batch_norm` in training updates the running statistics in place, with the
unbiased batch variance, as PyTorch does. `dropout` is composite, as in
PyTorch: it calls `mul`, which records its own history. Losses are in
`ops.losses`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from ts_schema import registry

from ..tensor import DimensionError, Tensor, TensorError, bump_version, normalize_dim, wrap
from .common import check_floating, floating, result, sum_to, sum_to_shape
from .dispatch import derivative, implements
from .random import generator
from .reduction import mean_array
from .shape import impl, lazy_impl, scalar_in, shape_str

ndarray = np.ndarray
NONE, MEAN, SUM = 0, 1, 2


def _existing(*keys: str) -> tuple[str, ...]:
    return tuple(k for k in keys if registry.find(k) is not None)


# ---------------------------------------------------------------------------
# Normalization


def _norm_axes(x: ndarray, normalized_shape: list[int]) -> tuple[int, ...]:
    n = len(normalized_shape)
    if n == 0 or x.shape[x.ndim - n :] != tuple(normalized_shape) or x.ndim < n:
        raise TensorError(
            f"Given normalized_shape={list(normalized_shape)}, expected input with shape "
            f"[*, {', '.join(str(s) for s in normalized_shape)}], but got input of size{list(x.shape)}"
        )
    return tuple(range(x.ndim - n, x.ndim))


@implements("aten::layer_norm")
def layer_norm(
    input: Tensor,
    normalized_shape: list[int],
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    eps: float = 1e-05,
    cudnn_enable: bool = True,
) -> Tensor:
    x = input._data
    if x.dtype.kind not in "fc":
        raise TensorError(f"\"LayerNormKernelImpl\" not implemented for '{x.dtype.name}'")
    axes = _norm_axes(x, normalized_shape)
    for name, p in (("weight", weight), ("bias", bias)):
        if p is not None and p._data.shape != tuple(normalized_shape):
            raise TensorError(
                f"Expected {name} to be of same shape as normalized_shape, but got {name} of shape "
                f"{list(p._data.shape)} and normalized_shape = {list(normalized_shape)}"
            )
    xc = x - mean_array(x, axes, True)
    var = mean_array(xc * xc, axes, True)
    var += x.dtype.type(eps)
    y = xc / np.sqrt(var, out=var)
    if weight is not None:
        y *= weight._data
    if bias is not None:
        y += bias._data
    return result(y)


def _channel_shape(x: ndarray) -> list[int]:
    return [1, x.shape[1]] + [1] * (x.ndim - 2)


@implements("aten::batch_norm")
def batch_norm(
    input: Tensor,
    weight: Tensor | None,
    bias: Tensor | None,
    running_mean: Tensor | None,
    running_var: Tensor | None,
    training: bool,
    momentum: float,
    eps: float,
    cudnn_enabled: bool = True,
) -> Tensor:
    x = input._data
    if x.ndim < 2:
        raise TensorError(f"batch_norm: expected 2D or more input (got {x.ndim}D input)")
    if x.dtype.kind not in "fc":
        raise TensorError(f"\"batch_norm\" not implemented for '{x.dtype.name}'")
    axes = (0, *range(2, x.ndim))
    for name, p in (
        ("weight", weight),
        ("bias", bias),
        ("running_mean", running_mean),
        ("running_var", running_var),
    ):
        if p is not None and p._data.size != x.shape[1]:
            raise TensorError(f"{name} should contain {x.shape[1]} elements not {p._data.size}")
    work = _norm_dtype(x.dtype)
    if training:
        count = x.size // x.shape[1] if x.shape[1] else 0
        if count <= 1:
            raise TensorError(
                f"Expected more than 1 value per channel when training, got input size {shape_str(x.shape)}"
            )
        mean, var_sum = _batch_stats(x, axes, count, work)
        var = var_sum / work.type(count)
        # 1 / sqrt(var + eps) in the accumulation type, then rounded; 0 where both are 0
        with np.errstate(divide="ignore"):
            invstd = (1.0 / np.sqrt(var.astype(_accumulation(work)) + eps)).astype(work)
        if eps == 0:
            invstd[var == 0] = 0
        if running_mean is not None:
            rm = running_mean._data
            rm[...] = (1 - momentum) * rm + momentum * mean
            bump_version(running_mean)
        if running_var is not None:
            rv = running_var._data
            rv[...] = (1 - momentum) * rv + momentum * (var_sum / (count - 1))
            bump_version(running_var)
    else:
        if running_mean is None or running_var is None:
            raise TensorError(
                f"running_{'mean' if running_mean is None else 'var'} must be defined in evaluation mode"
            )
        mean = running_mean._data.astype(work, copy=False)
        var = running_var._data.astype(work, copy=False)
        invstd = work.type(1) / np.sqrt(var + work.type(eps))
    return result(_batch_norm_affine(x, mean, invstd, weight, bias, work))


def _norm_dtype(dt: np.dtype) -> np.dtype:
    """The type normalization computes its per-channel terms in (half precision in float)."""
    return np.dtype(np.float32) if dt.kind == "f" and dt.itemsize < 4 else dt


def _accumulation(work: np.dtype) -> np.dtype:
    """The type per-channel sums accumulate in: double for float, as PyTorch's CPU kernels do."""
    return np.dtype(np.float64) if work == np.float32 else work


def _batch_stats(
    x: ndarray, axes: tuple[int, ...], count: int, work: np.dtype
) -> tuple[ndarray, ndarray]:
    """Per-channel mean and sum of squared deviations, as PyTorch's CPU batch norm computes them:
    both sums accumulate in double for float input; the mean is rounded to the input's type
    before the deviations (x - mean)^2 are taken in that type."""
    acc = _accumulation(work)
    xw = x.astype(work, copy=False)
    mean = (np.add.reduce(xw, axis=axes, dtype=acc) / count).astype(work)
    dev = xw - mean.reshape(_channel_shape(x))
    dev *= dev
    return mean, np.add.reduce(dev, axis=axes, dtype=acc).astype(work)


def _batch_norm_affine(
    x: ndarray,
    mean: ndarray,
    invstd: ndarray,
    weight: Tensor | None,
    bias: Tensor | None,
    work: np.dtype,
) -> ndarray:
    """x * alpha + beta per channel, alpha = invstd * weight, beta = bias - mean * alpha: the
    form PyTorch's CPU kernel evaluates, with its fused multiply-adds (a float product is exact
    in double, so one double multiply-add rounded to float is the fused result)."""
    shape = _channel_shape(x)
    alpha = invstd * weight._data.astype(work, copy=False) if weight is not None else invstd
    b = bias._data.astype(work, copy=False) if bias is not None else work.type(0)
    if work == np.float32:
        wide = np.float64
        beta = (b.astype(wide) - mean.astype(wide) * alpha.astype(wide)).astype(work)
        y = x.astype(wide) * alpha.astype(wide).reshape(shape)
        y += beta.astype(wide).reshape(shape)
    else:
        beta = b - mean * alpha
        y = x.astype(work, copy=False) * alpha.reshape(shape)
        y += beta.reshape(shape)
    return y.astype(x.dtype, copy=False)


@implements("aten::group_norm")
def group_norm(
    input: Tensor,
    num_groups: int,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    eps: float = 1e-05,
    cudnn_enabled: bool = True,
) -> Tensor:
    x = input._data
    if x.ndim < 2:
        raise TensorError(f"Expected at least 2 dimensions for input tensor but received {x.ndim}")
    if x.dtype.kind not in "fc":
        raise TensorError(f"\"GroupNormKernelImpl\" not implemented for '{x.dtype.name}'")
    n, c = x.shape[0], x.shape[1]
    if num_groups <= 0:
        raise TensorError(f"Expected num groups to be greater than 0, got {num_groups}")
    for name, p in (("weight", weight), ("bias", bias)):
        if p is not None and p._data.shape != (c,):
            raise TensorError(
                f"Expected {name} to be a vector of size equal to the number of channels in input, but "
                f"got {name} of shape {list(p._data.shape)} and input of shape {list(x.shape)}"
            )
    if c % num_groups:
        raise TensorError(
            f"Expected number of channels in input to be divisible by num_groups, but got input of "
            f"shape {shape_str(x.shape)} and num_groups={num_groups}"
        )
    g = x.reshape(n, num_groups, -1)
    mean = g.mean(axis=2, keepdims=True)
    gc = g - mean
    var = (gc * gc).mean(axis=2, keepdims=True)
    y = (gc / np.sqrt(var + x.dtype.type(eps))).reshape(x.shape)
    shape = _channel_shape(x)
    if weight is not None:
        y = y * weight._data.reshape(shape)
    if bias is not None:
        y = y + bias._data.reshape(shape)
    return result(y.astype(x.dtype, copy=False))


# ---------------------------------------------------------------------------
# Dropout (composite: the mask is a constant, the multiply records history)


def _check_p(p: float) -> None:
    if not 0.0 <= p <= 1.0:
        raise TensorError(f"dropout probability has to be between 0 and 1, but got {p}")


def _keep_mask(shape: tuple[int, ...], p: float, dt: np.dtype) -> Tensor:
    dt = floating(dt)
    if p == 1.0:
        return result(np.zeros(shape, dtype=dt))
    keep = generator().random(shape) >= p
    return result((keep / (1.0 - p)).astype(dt))


@implements("aten::dropout", autograd=False)
def dropout(input: Tensor, p: float, train: bool) -> Tensor:
    _check_p(p)
    if not train or p == 0.0 or input._data.size == 0:
        return input
    return _mul(input, _keep_mask(input._data.shape, p, input._data.dtype))


def _feature_shape(x: ndarray) -> tuple[int, ...]:
    if x.ndim < 2:
        raise TensorError(
            f"Feature dropout requires at least 2 dimensions in the input, got {x.ndim}"
        )
    return x.shape[:2] + (1,) * (x.ndim - 2)


@implements("aten::feature_dropout", autograd=False)
def feature_dropout(input: Tensor, p: float, train: bool) -> Tensor:
    _check_p(p)
    if not train or p == 0.0 or input._data.size == 0:
        return input
    return _mul(input, _keep_mask(_feature_shape(input._data), p, input._data.dtype))


@implements("aten::alpha_dropout", autograd=False)
def alpha_dropout(input: Tensor, p: float, train: bool) -> Tensor:
    _check_p(p)
    if not train or p == 0.0 or input._data.size == 0:
        return input
    if p == 1.0:
        return _mul(input, wrap(np.zeros((), input._data.dtype)))
    alpha_p = -1.7580993408473766
    keep = (generator().random(input._data.shape) >= p).astype(input._data.dtype)
    a = 1.0 / math.sqrt((alpha_p * alpha_p * p + 1) * (1 - p))
    b = -a * alpha_p * p
    noise = wrap(keep)
    dropped = wrap(((1 - keep) * alpha_p).astype(input._data.dtype))
    return _add_s(_mul_s(_add(_mul(input, noise), dropped, 1), a), b, 1)


@implements("aten::dropout_", "aten::feature_dropout_", autograd=False)
def dropout_(self: Tensor, p: float, train: bool) -> Tensor:
    _check_p(p)
    if not train or p == 0.0:
        return self
    return _mul_(self, _keep_mask(self._data.shape, p, self._data.dtype))


# ---------------------------------------------------------------------------
# Embedding


def _indices_of(indices: Tensor, name: str) -> ndarray:
    idx = indices._data
    if idx.dtype.kind not in "iu":
        raise TensorError(
            f"Expected tensor for argument #1 'indices' to have one of the following scalar types: "
            f"Long, Int; but got {indices.dtype} instead (while checking arguments for {name})"
        )
    return idx


@implements("aten::embedding")
def embedding(
    weight: Tensor,
    indices: Tensor,
    padding_idx: int = -1,
    scale_grad_by_freq: bool = False,
    sparse: bool = False,
) -> Tensor:
    w = weight._data
    if w.ndim != 2:
        raise TensorError("'weight' must be 2-D")
    idx = _indices_of(indices, "embedding")
    n = w.shape[0]
    if idx.size and (idx.min() < 0 or idx.max() >= n):
        raise DimensionError("index out of range in self")
    return result(np.take(w, idx, axis=0))


@implements("aten::one_hot")
def one_hot(self: Tensor, num_classes: int = -1) -> Tensor:
    idx = self._data
    if idx.dtype != np.int64:
        raise TensorError("one_hot is only applicable to index tensor of type LongTensor.")
    if idx.size and idx.min() < 0:
        raise TensorError("Class values must be non-negative.")
    if num_classes == -1:
        num_classes = int(idx.max()) + 1 if idx.size else 0
    elif idx.size and idx.max() >= num_classes:
        raise TensorError("Class values must be smaller than num_classes.")
    return result((idx[..., None] == np.arange(num_classes)).astype(np.int64))


# ---------------------------------------------------------------------------
# Activations


def _float_input(x: ndarray, kernel: str) -> ndarray:
    check_floating(x.dtype, kernel)
    return x


@implements("aten::relu6")
def relu6(self: Tensor) -> Tensor:
    if self._data.dtype.kind == "b":
        raise TensorError("Bool inputs not supported for hardtanh")
    return result(np.clip(self._data, 0, 6))


@implements("aten::hardswish")
def hardswish(self: Tensor) -> Tensor:
    x = _float_input(self._data, "hardswish_cpu")
    return result((x * np.clip(x + 3, 0, 6) / 6).astype(x.dtype, copy=False))


@implements("aten::hardsigmoid")
def hardsigmoid(self: Tensor) -> Tensor:
    x = _float_input(self._data, "hardsigmoid_cpu")
    return result((np.clip(x + 3, 0, 6) / 6).astype(x.dtype, copy=False))


def softplus_array(x: ndarray) -> ndarray:
    """log(1 + exp(x)) without overflow (also used by the losses)."""
    return np.maximum(x, 0) + np.log1p(np.exp(-np.abs(x)))


@implements("aten::mish")
def mish(self: Tensor) -> Tensor:
    x = _float_input(self._data, "mish_cpu")
    return result((x * np.tanh(softplus_array(x))).astype(x.dtype, copy=False))


@implements("aten::log_sigmoid")
def log_sigmoid(self: Tensor) -> Tensor:
    x = _float_input(self._data, "log_sigmoid_forward")
    return result((-softplus_array(-x)).astype(x.dtype, copy=False))


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


@implements("aten::selu")
def selu(self: Tensor) -> Tensor:
    x = _float_input(self._data, "elu_cpu")
    return result(
        (_SELU_SCALE * np.where(x > 0, x, _SELU_ALPHA * np.expm1(x))).astype(x.dtype, copy=False)
    )


@implements("aten::celu")
def celu(self: Tensor, alpha: Any = 1.0) -> Tensor:
    x = _float_input(self._data, "elu_cpu")
    return result(np.where(x > 0, x, alpha * np.expm1(x / alpha)).astype(x.dtype, copy=False))


@implements("aten::threshold")
def threshold(self: Tensor, threshold: Any, value: Any) -> Tensor:
    x = self._data
    if x.dtype.kind == "b":
        raise TensorError("\"threshold_cpu\" not implemented for 'Bool'")
    return result(np.where(x > threshold, x, scalar_in(value, x.dtype)))


@implements("aten::softshrink")
def softshrink(self: Tensor, lambd: Any = 0.5) -> Tensor:
    x = _shrink_input(self, "softshrink")
    return result(
        np.where(x > lambd, x - lambd, np.where(x < -lambd, x + lambd, 0)).astype(x.dtype)
    )


def _shrink_input(self: Tensor, name: str) -> ndarray:
    x = self._data
    if x.dtype.kind not in "fc":
        raise TensorError(f"\"{name}_cpu\" not implemented for '{x.dtype.name}'")
    return x


@implements("aten::hardshrink")
def hardshrink(self: Tensor, lambd: Any = 0.5) -> Tensor:
    x = _shrink_input(self, "hardshrink")
    return result(np.where((x > lambd) | (x < -lambd), x, 0).astype(x.dtype))


@implements("aten::glu")
def glu(self: Tensor, dim: int = -1) -> Tensor:
    x = self._data
    if x.ndim == 0:
        raise TensorError("glu does not support scalars because halving size must be even")
    if x.dtype.kind not in "fc":
        raise TensorError(f"\"glu\" not implemented for '{x.dtype.name}'")
    d = normalize_dim(dim, x.ndim)
    if x.shape[d] % 2:
        raise TensorError(f"Halving dimension must be even, but dimension {d} is size {x.shape[d]}")
    a, b = np.split(x, 2, axis=d)
    return result(a / (1 + np.exp(-b)))


@implements("aten::prelu")
def prelu(self: Tensor, weight: Tensor) -> Tensor:
    x, w = self._data, weight._data
    if w.size != 1 and (x.ndim < 2 or w.size != x.shape[1]):
        raise TensorError(
            f"Mismatch of parameter numbers and input channel size. Found parameter numbers = {w.size} "
            f"and channel size = {x.shape[1] if x.ndim > 1 else 1}."
        )
    wb = w.reshape(_channel_shape(x)) if w.size != 1 and x.ndim >= 2 else w.reshape(())
    return result(np.where(x > 0, x, wb * x).astype(x.dtype))


def _inplace_of(functional: Any, key: str) -> None:
    def kernel(self: Tensor, *args: Any) -> Tensor:
        self._data[...] = functional(self, *args)._data
        bump_version(self)
        return self

    kernel.__name__ = functional.__name__ + "_"
    implements(key)(kernel)


for _fn, _key in (
    (relu6, "aten::relu6_"),
    (hardswish, "aten::hardswish_"),
    (hardsigmoid, "aten::hardsigmoid_"),
    (mish, "aten::mish_"),
    (selu, "aten::selu_"),
    (celu, "aten::celu_"),
    (threshold, "aten::threshold_"),
):
    if registry.find(_key) is not None:
        _inplace_of(_fn, _key)


# ---------------------------------------------------------------------------
# Padding


def _pad_geometry(shape: tuple[int, ...], pad: list[int]) -> list[tuple[int, int]]:
    if len(pad) % 2:
        raise TensorError(f"Length of pad must be even but instead it equals {len(pad)}")
    if len(pad) // 2 > len(shape):
        raise TensorError(
            f"Length of pad should be no more than twice the number of dimensions of the input. Pad "
            f"length is {len(pad)} while the input has {len(shape)} dimensions."
        )
    pairs = [(0, 0)] * len(shape)
    for i in range(len(pad) // 2):
        d = len(shape) - 1 - i
        lo, hi = pad[2 * i], pad[2 * i + 1]
        if shape[d] + lo + hi < 0:
            raise TensorError(
                f"The input size {shape[d]}, plus negative padding {lo} and {hi} resulted in a negative "
                f"output size, which is invalid. Check dimension {d} of your input."
            )
        pairs[d] = (lo, hi)
    return pairs


@implements("aten::constant_pad_nd")
def constant_pad_nd(self: Tensor, pad: list[int], value: Any = 0) -> Tensor:
    x = self._data
    pairs = _pad_geometry(x.shape, pad)
    out_shape = tuple(s + lo + hi for s, (lo, hi) in zip(x.shape, pairs, strict=True))
    out = np.full(out_shape, scalar_in(value, x.dtype))
    src, dst = [], []
    for s, (lo, hi) in zip(x.shape, pairs, strict=True):
        start = max(-lo, 0)
        length = max(s - max(-hi, 0) - start, 0)
        src.append(slice(start, start + length))
        dst.append(slice(max(lo, 0), max(lo, 0) + length))
    out[tuple(dst)] = x[tuple(src)]
    return result(out)


def _pad_indices(size: int, lo: int, hi: int, mode: str) -> ndarray:
    i = np.arange(-lo, size + hi)
    if mode == "reflect":
        if lo >= size or hi >= size:
            raise TensorError(
                f"Argument #4: Padding size should be less than the corresponding input dimension, but "
                f"got: padding ({lo}, {hi}) at dimension of input {size}"
            )
        period = 2 * (size - 1) if size > 1 else 1
        i = np.abs(i) % period
        return np.where(i >= size, period - i, i)
    if mode == "replicate":
        return np.clip(i, 0, size - 1)
    if mode == "circular":
        if lo > size or hi > size:
            raise TensorError("Padding value causes wrapping around more than once.")
        return i % size
    raise TensorError(f"Unrecognised padding mode {mode}")


@implements("aten::pad", autograd=False)
def pad(self: Tensor, pad: list[int], mode: str = "constant", value: float | None = None) -> Tensor:
    if mode == "constant":
        return _constant_pad_nd(self, pad, 0 if value is None else value)
    if value is not None and value != 0:
        raise TensorError(f'Padding mode "{mode}" doesn\'t take in value argument')
    x = self._data
    pairs = _pad_geometry(x.shape, pad)
    out = self
    for d, (lo, hi) in enumerate(pairs):
        if lo or hi:
            idx = _pad_indices(x.shape[d], lo, hi, mode)
            out = _index_select(out, d, wrap(idx.astype(np.int64)))
    return out


# ---------------------------------------------------------------------------
# Pooling (composite: a strided window view of the padded input, then a reduction)


def _pool_params(
    value: list[int],
    nd: int,
    name: str,
    default: list[int] | None = None,
    *,
    positive: bool = False,
) -> list[int]:
    if not value and default is not None:
        return list(default)
    if len(value) == 1:
        value = list(value) * nd
    if len(value) != nd:
        raise TensorError(f"{name} must either be a single int, or a tuple of {nd} ints")
    if positive and any(v <= 0 for v in value):
        raise TensorError(f"{name} should be greater than zero, but got {name}: {list(value)}")
    return list(value)


def _pool_geometry(
    shape: tuple[int, ...],
    nd: int,
    kernel: list[int],
    stride: list[int],
    padding: list[int],
    dilation: list[int],
    ceil_mode: bool,
) -> tuple[list[tuple[int, int]], list[int]]:
    """(padding before and after each spatial dimension, ceil_mode's extra included; the output
    sizes), with PyTorch's checks."""
    if len(shape) not in (nd + 1, nd + 2):
        raise TensorError(
            f"Expected {nd + 1}D or {nd + 2}D input, but got input of size: {list(shape)}"
        )
    spatial = shape[-nd:]
    pairs = []
    out = []
    for i in range(nd):
        if padding[i] > kernel[i] // 2:
            raise TensorError(
                f"pad should be at most half of effective kernel size, but got pad={padding[i]}, "
                f"kernel_size={kernel[i]} and dilation={dilation[i]}"
            )
        span = dilation[i] * (kernel[i] - 1) + 1
        room = spatial[i] + 2 * padding[i] - span
        n = (-(-room // stride[i]) if ceil_mode else room // stride[i]) + 1
        if ceil_mode and (n - 1) * stride[i] >= spatial[i] + padding[i]:
            n -= 1
        if n <= 0:
            raise TensorError(
                f"Given input size: {list(shape)}. Calculated output size is too small"
            )
        extra = max(0, (n - 1) * stride[i] + span - (spatial[i] + 2 * padding[i]))
        pairs.append((padding[i], padding[i] + extra))
        out.append(n)
    return pairs, out


def _windows(
    x: Tensor,
    nd: int,
    kernel: list[int],
    stride: list[int],
    padding: list[int],
    dilation: list[int],
    ceil_mode: bool,
    fill: float,
) -> tuple[Tensor, list[tuple[int, int]]]:
    """A view of `x` padded with `fill`: (*leading, *out, *kernel), and the padding used per dim."""
    pairs, out = _pool_geometry(x._data.shape, nd, kernel, stride, padding, dilation, ceil_mode)
    pads: list[int] = []
    for lo, hi in reversed(pairs):
        pads += [lo, hi]
    padded = _constant_pad_nd(x, pads, fill) if any(pads) else _clone(x, 0)
    strides = padded.stride()
    lead = padded._data.ndim - nd
    view = _as_strided(
        padded,
        [*padded._data.shape[:lead], *out, *kernel],
        [
            *strides[:lead],
            *(strides[lead + i] * stride[i] for i in range(nd)),
            *(strides[lead + i] * dilation[i] for i in range(nd)),
        ],
        0,
    )
    return view, pairs


def _tracks_grad(t: Tensor) -> bool:
    from ..autograd.grad_mode import GRAD_MODE

    return GRAD_MODE.enabled and t.requires_grad


def _pool_taps(
    x: ndarray,
    nd: int,
    kernel: list[int],
    stride: list[int],
    padding: list[int],
    dilation: list[int],
    ceil_mode: bool,
    fill: float,
) -> Any:
    """For the array fast paths of pooling: each kernel tap's strided view of `x` padded with
    `fill` (one view per tap, each of the output's shape)."""
    pairs, out = _pool_geometry(x.shape, nd, kernel, stride, padding, dilation, ceil_mode)
    lead = x.ndim - nd
    if any(lo or hi for lo, hi in pairs):
        shape = (
            *x.shape[:lead],
            *(x.shape[lead + i] + lo + hi for i, (lo, hi) in enumerate(pairs)),
        )
        xp = np.full(shape, fill, dtype=x.dtype)
        inner = tuple(slice(lo, lo + x.shape[lead + i]) for i, (lo, _) in enumerate(pairs))
        xp[(Ellipsis, *inner)] = x
    else:
        xp = x
    for tap in np.ndindex(*kernel):
        yield xp[
            (
                Ellipsis,
                *(
                    slice(
                        tap[i] * dilation[i],
                        tap[i] * dilation[i] + (out[i] - 1) * stride[i] + 1,
                        stride[i],
                    )
                    for i in range(nd)
                ),
            )
        ]


def _window_dims(view: Tensor, nd: int) -> list[int]:
    n = view._data.ndim
    return list(range(n - nd, n))


def _max_pool(nd: int) -> Any:
    def kernel(
        self: Tensor,
        kernel_size: list[int],
        stride: list[int] = (),  # type: ignore[assignment]
        padding: list[int] = (0,),  # type: ignore[assignment]
        dilation: list[int] = (1,),  # type: ignore[assignment]
        ceil_mode: bool = False,
    ) -> Tensor:
        k = _pool_params(kernel_size, nd, "kernel_size", positive=True)
        params = (
            k,
            _pool_params(stride, nd, "stride", k, positive=True),
            _pool_params(padding, nd, "padding"),
            _pool_params(dilation, nd, "dilation", positive=True),
            ceil_mode,
        )
        if self._data.dtype.kind == "f" and not _tracks_grad(self):
            # the maximum of the taps' strided views: one elementwise pass per tap, where a
            # reduction over the small window axes costs numpy a loop setup per window
            acc = None
            for view in _pool_taps(self._data, nd, *params, -math.inf):
                if acc is None:
                    acc = np.array(view)
                else:
                    np.maximum(acc, view, out=acc)
            return result(acc)
        view, _ = _windows(self, nd, *params, -math.inf)
        return _amax(view, _window_dims(view, nd), False)

    kernel.__name__ = f"max_pool{nd}d"
    return kernel


implements("aten::max_pool1d", autograd=False)(_max_pool(1))
implements("aten::max_pool2d", autograd=False)(_max_pool(2))


def _avg_pool(nd: int) -> Any:
    def kernel(
        self: Tensor,
        kernel_size: list[int],
        stride: list[int] = (),  # type: ignore[assignment]
        padding: list[int] = (0,),  # type: ignore[assignment]
        ceil_mode: bool = False,
        count_include_pad: bool = True,
        divisor_override: int | None = None,
    ) -> Tensor:
        if self._data.dtype.kind not in "fc":
            raise TensorError(f"\"avg_pool{nd}d\" not implemented for '{self._data.dtype.name}'")
        k = _pool_params(kernel_size, nd, "kernel_size", positive=True)
        st = _pool_params(stride, nd, "stride", k, positive=True)
        pad = _pool_params(padding, nd, "padding")
        ones = [1] * nd
        simple = divisor_override is not None or (not ceil_mode and count_include_pad)
        if simple and self._data.dtype.kind == "f" and not _tracks_grad(self):
            acc = None
            for view in _pool_taps(self._data, nd, k, st, pad, ones, ceil_mode, 0.0):
                if acc is None:
                    acc = np.array(view)
                else:
                    acc += view
            divisor = divisor_override if divisor_override is not None else math.prod(k)
            acc /= acc.dtype.type(divisor)
            return result(acc)
        view, pairs = _windows(self, nd, k, st, pad, ones, ceil_mode, 0.0)
        total = _sum_dim(view, _window_dims(view, nd), False, None)
        if divisor_override is not None:
            return _div_s(total, divisor_override)
        if not ceil_mode and count_include_pad:
            return _div_s(total, math.prod(k))
        # the divisor counts the window's elements inside the input (and the padding, if asked)
        spatial = self._data.shape[-nd:]
        count = np.ones(spatial, dtype=self._data.dtype)
        count = np.pad(
            count,
            [(lo, hi) for lo, hi in pairs],
            constant_values=0,
        )
        if count_include_pad:
            inside = [slice(0, s + 2 * p) for s, p in zip(spatial, pad, strict=True)]
            count[tuple(inside)] = 1
        counts = np.lib.stride_tricks.sliding_window_view(count, k)[
            tuple(slice(None, None, s) for s in st)
        ]
        counts = counts.sum(axis=tuple(range(nd, 2 * nd)))
        out_shape = view._data.shape[view._data.ndim - 2 * nd : view._data.ndim - nd]
        divisor = wrap(np.ascontiguousarray(counts[tuple(slice(0, o) for o in out_shape)]))
        return _div(total, divisor)

    kernel.__name__ = f"avg_pool{nd}d"
    return kernel


implements("aten::avg_pool1d", autograd=False)(_avg_pool(1))
implements("aten::avg_pool2d", autograd=False)(_avg_pool(2))


def _adaptive_matrix(size: int, out: int, dt: np.dtype) -> Tensor:
    m = np.zeros((out, size), dtype=dt)
    for i in range(out):
        start = (i * size) // out
        end = -((-(i + 1) * size) // out)
        m[i, start:end] = 1.0 / (end - start)
    return result(m)


def _adaptive_avg_pool(nd: int) -> Any:
    def kernel(self: Tensor, output_size: list[int]) -> Tensor:
        x = self._data
        if x.ndim not in (nd + 1, nd + 2):
            raise TensorError(
                f"adaptive_avg_pool{nd}d(): Expected {nd + 1}D or {nd + 2}D tensor, but got {list(x.shape)}"
            )
        if x.dtype.kind not in "fc":
            raise TensorError(f"\"adaptive_avg_pool{nd}d\" not implemented for '{x.dtype.name}'")
        sizes = _pool_params(output_size, nd, "output_size")
        if any(s == 0 for s in x.shape[x.ndim - nd :]):
            raise TensorError(
                f"adaptive_avg_pool{nd}d(): Expected input to have non-zero size for non-batch dimensions, "
                f"but input has sizes {list(x.shape)} with dimension {x.ndim - nd} being empty"
            )
        if any(s < 0 for s in sizes):
            raise TensorError(
                f"adaptive_avg_pool{nd}d: elements of output_size must be greater than or equal to 0 but "
                f"received {list(output_size)}"
            )
        if all(s == 1 for s in sizes) and not _tracks_grad(self):
            # a mean over the spatial dimensions (the head of most classifiers)
            return result(mean_array(x, tuple(range(x.ndim - nd, x.ndim)), True))
        out = self
        for i in range(nd):
            d = x.ndim - nd + i
            m = _adaptive_matrix(x.shape[d], sizes[i], x.dtype)
            out = _transpose(_matmul(_transpose(out, d, -1), _transpose(m, 0, 1)), d, -1)
        return out

    kernel.__name__ = f"adaptive_avg_pool{nd}d"
    return kernel


implements("aten::adaptive_avg_pool1d", autograd=False)(_adaptive_avg_pool(1))
implements("aten::adaptive_avg_pool2d", autograd=False)(_adaptive_avg_pool(2))


# ---------------------------------------------------------------------------
# Derivatives


@derivative("aten::layer_norm", saves=("input", "weight"))
def _d_layer_norm(
    grad, input, normalized_shape, weight=None, bias=None, eps=1e-05, cudnn_enable=True, *, result
):
    n = len(normalized_shape)
    axes = list(range(input.dim() - n, input.dim()))
    mean = input.mean(axes, True)
    xc = input - mean
    rstd = ((xc * xc).mean(axes, True) + eps).rsqrt()
    xhat = xc * rstd
    gy = grad * weight if weight is not None else grad
    g_input = rstd * (gy - gy.mean(axes, True) - xhat * (gy * xhat).mean(axes, True))
    g_weight = sum_to(grad * xhat, weight) if weight is not None else None
    g_bias = sum_to(grad, bias) if bias is not None else None
    return g_input, None, g_weight, g_bias


@derivative(
    "aten::batch_norm",
    saves=("input", "weight"),
    not_differentiable=("running_mean", "running_var"),
)
def _d_batch_norm(
    grad,
    input,
    weight,
    bias,
    running_mean,
    running_var,
    training,
    momentum,
    eps,
    cudnn_enabled=True,
    *,
    result,
):
    x = input._data
    axes = [0, *range(2, x.ndim)]
    shape = _channel_shape(x)
    if training:
        mean = input.mean(axes, True)
        xc = input - mean
        rstd = ((xc * xc).mean(axes, True) + eps).rsqrt()
    else:
        mean = wrap(running_mean._data.reshape(shape).astype(x.dtype))
        xc = input - mean
        rstd = wrap((1.0 / np.sqrt(running_var._data.reshape(shape) + eps)).astype(x.dtype))
    xhat = xc * rstd
    gy = grad * weight.reshape(shape) if weight is not None else grad
    if training:
        g_input = rstd * (gy - gy.mean(axes, True) - xhat * (gy * xhat).mean(axes, True))
    else:
        g_input = gy * rstd
    g_weight = (grad * xhat).sum(axes) if weight is not None else None
    g_bias = grad.sum(axes) if bias is not None else None
    return g_input, g_weight, g_bias


@derivative("aten::group_norm", saves=("input", "weight"))
def _d_group_norm(
    grad, input, num_groups, weight=None, bias=None, eps=1e-05, cudnn_enabled=True, *, result
):
    x = input._data
    n = x.shape[0]
    g = input.reshape([n, num_groups, -1])
    mean = g.mean([2], True)
    gc = g - mean
    rstd = ((gc * gc).mean([2], True) + eps).rsqrt()
    xhat = gc * rstd
    shape = _channel_shape(x)
    gy = grad * weight.reshape(shape) if weight is not None else grad
    gy = gy.reshape([n, num_groups, -1])
    g_input = (rstd * (gy - gy.mean([2], True) - xhat * (gy * xhat).mean([2], True))).reshape(
        list(x.shape)
    )
    axes = [0, *range(2, x.ndim)]
    xh = xhat.reshape(list(x.shape))
    g_weight = (grad * xh).sum(axes) if weight is not None else None
    g_bias = grad.sum(axes) if bias is not None else None
    return g_input, None, g_weight, g_bias


@derivative("aten::embedding", saves=("indices",))
def _d_embedding(
    grad, weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False, *, result
):
    idx = indices._data
    dim = weight._data.shape[1]
    g = grad.reshape([-1, dim])
    flat = idx.reshape(-1)
    if scale_grad_by_freq:
        counts = np.bincount(flat, minlength=weight._data.shape[0])[flat]
        g = g / wrap(counts.astype(grad._data.dtype).reshape(-1, 1))
    if padding_idx >= 0:
        g = g.masked_fill(wrap((flat == padding_idx).reshape(-1, 1)), 0)
    zeros = wrap(np.zeros(weight._data.shape, dtype=grad._data.dtype))
    return (_index_put(zeros, [wrap(flat.astype(np.int64))], g, True),)


def _unary(key: str, saves: tuple[str, ...], fn: Any) -> None:
    def formula(grad, self, *rest, result):
        return (fn(grad, self, result, *rest),)

    derivative(key, saves=saves)(formula)


_unary("aten::relu6", ("self",), lambda g, x, r: g * ((x > 0) & (x < 6)).to(g.dtype))
_unary(
    "aten::hardswish",
    ("self",),
    lambda g, x, r: g * _where(x < -3, 0.0, _where(x <= 3, x / 3 + 0.5, 1.0)),
)
_unary("aten::hardsigmoid", ("self",), lambda g, x, r: g * ((x > -3) & (x < 3)).to(g.dtype) / 6)


def _d_mish(g: Tensor, x: Tensor, r: Tensor) -> Tensor:
    tsp = x.softplus().tanh()
    return g * (tsp + x * x.sigmoid() * (1 - tsp * tsp))


_unary("aten::mish", ("self",), _d_mish)
_unary("aten::log_sigmoid", ("self",), lambda g, x, r: g * (-x).sigmoid())
_unary(
    "aten::selu",
    ("self",),
    lambda g, x, r: g * _where(x > 0, _SELU_SCALE, _SELU_SCALE * _SELU_ALPHA * x.exp()),
)
_unary(
    "aten::celu",
    ("self",),
    lambda g, x, r, alpha=1.0: g * _where(x > 0, 1.0, (x / alpha).exp()),
)
_unary(
    "aten::threshold", ("self",), lambda g, x, r, threshold, value: g * (x > threshold).to(g.dtype)
)
_unary(
    "aten::softshrink",
    ("self",),
    lambda g, x, r, lambd=0.5: g * ((x > lambd) | (x < -lambd)).to(g.dtype),
)
_unary(
    "aten::hardshrink",
    ("self",),
    lambda g, x, r, lambd=0.5: g * ((x > lambd) | (x < -lambd)).to(g.dtype),
)


def _where(cond: Tensor, a: Any, b: Any) -> Tensor:
    return _where_self(cond, _as_tensor(a, cond), _as_tensor(b, cond))


def _as_tensor(v: Any, like: Tensor) -> Tensor:
    if isinstance(v, Tensor):
        return v
    return result(np.asarray(v, dtype=np.float32))


@derivative("aten::glu", saves=("self",))
def _d_glu(grad, self, dim=-1, *, result):
    d = normalize_dim(dim, self._data.ndim)
    a, b = self.chunk(2, d)
    sb = b.sigmoid()
    return (_cat([grad * sb, grad * a * sb * (1 - sb)], d),)


@derivative("aten::prelu", saves=("self", "weight"))
def _d_prelu(grad, self, weight, *, result):
    x = self._data
    shape = _channel_shape(x) if weight._data.size != 1 and x.ndim >= 2 else []
    w = weight.reshape(shape)
    pos = (self > 0).to(grad.dtype)
    g_self = grad * (pos + (1 - pos) * w)
    g_w = sum_to_shape(grad * self * (1 - pos), tuple(shape) if shape else ()).reshape(
        list(weight._data.shape)
    )
    return g_self, g_w


@derivative("aten::constant_pad_nd", saves=())
def _d_constant_pad_nd(grad, self, pad, value=0, *, result):
    return (_constant_pad_nd(grad, [-p for p in pad], 0),)


_mul = lazy_impl("aten::mul.Tensor")
_mul_s = lazy_impl("aten::mul.Scalar")
_mul_ = lazy_impl("aten::mul_.Tensor")
_add = lazy_impl("aten::add.Tensor")
_add_s = lazy_impl("aten::add.Scalar")
_div_s = lazy_impl("aten::div.Scalar")
_cat = lazy_impl("aten::cat")  # registered by ops.joins
_sum_dim = lazy_impl("aten::sum.dim_IntList")
_constant_pad_nd = impl("aten::constant_pad_nd")
_index_select = lazy_impl("aten::index_select")
_index_put = lazy_impl("aten::index_put")
_where_self = lazy_impl("aten::where.self")
_amax = lazy_impl("aten::amax")
_as_strided = impl("aten::as_strided")
_clone = impl("aten::clone")
_transpose = impl("aten::transpose.int")
_matmul = lazy_impl("aten::matmul")
_div = lazy_impl("aten::div.Tensor")
