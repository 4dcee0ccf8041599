"""`ts_runtime.nn.functional`: the functional forms of the layers, with PyTorch's signatures.

Each function calls operators through eager dispatch, so autograd (and the
tracer) see them; losses take `reduction` as "none", "mean" or "sum".
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any

from ..ops.dispatch import call
from ..tensor import Tensor, TensorError

_REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}


def _reduction(reduction: str, size_average: Any = None, reduce: Any = None) -> int:
    if size_average is not None or reduce is not None:
        size_average = True if size_average is None else size_average
        reduce = True if reduce is None else reduce
        reduction = ("mean" if size_average else "sum") if reduce else "none"
    try:
        return _REDUCTIONS[reduction]
    except KeyError:
        raise ValueError(f"{reduction} is not a valid value for reduction") from None


# ---------------------------------------------------------------------------
# Activations


def relu(input: Tensor, inplace: bool = False) -> Tensor:
    return call("aten::relu_" if inplace else "aten::relu", input)


def relu6(input: Tensor, inplace: bool = False) -> Tensor:
    return call("aten::relu6_" if inplace else "aten::relu6", input)


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    return call("aten::elu", input, alpha)


def selu(input: Tensor, inplace: bool = False) -> Tensor:
    return call("aten::selu", input)


def celu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    return call("aten::celu", input, alpha)


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    return call("aten::leaky_relu", input, negative_slope)


def gelu(input: Tensor, approximate: str = "none") -> Tensor:
    return call("aten::gelu", input, approximate=approximate)


def silu(input: Tensor, inplace: bool = False) -> Tensor:
    return call("aten::silu", input)


def mish(input: Tensor, inplace: bool = False) -> Tensor:
    return call("aten::mish", input)


def hardswish(input: Tensor, inplace: bool = False) -> Tensor:
    return call("aten::hardswish", input)


def hardsigmoid(input: Tensor, inplace: bool = False) -> Tensor:
    return call("aten::hardsigmoid", input)


def hardtanh(
    input: Tensor, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False
) -> Tensor:
    return call("aten::hardtanh", input, min_val, max_val)


def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    return call("aten::softplus", input, beta, threshold)


def logsigmoid(input: Tensor) -> Tensor:
    return call("aten::log_sigmoid", input)


def softsign(input: Tensor) -> Tensor:
    return input / (input.abs() + 1)


def tanhshrink(input: Tensor) -> Tensor:
    return input - input.tanh()


def threshold(input: Tensor, threshold: float, value: float, inplace: bool = False) -> Tensor:
    return call("aten::threshold", input, threshold, value)


def hardshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    return call("aten::hardshrink", input, lambd)


def softshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    return call("aten::softshrink", input, lambd)


def glu(input: Tensor, dim: int = -1) -> Tensor:
    return call("aten::glu", input, dim)


def prelu(input: Tensor, weight: Tensor) -> Tensor:
    return call("aten::prelu", input, weight)


def sigmoid(input: Tensor) -> Tensor:
    return call("aten::sigmoid", input)


def tanh(input: Tensor) -> Tensor:
    return call("aten::tanh", input)


def _softmax_dim(ndim: int, name: str) -> int:
    warnings.warn(
        f"Implicit dimension choice for {name} has been deprecated. Change the call to include dim=X as an argument.",
        stacklevel=3,
    )
    return 0 if ndim in (0, 1, 3) else 1


def softmax(
    input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype: Any = None
) -> Tensor:
    if dim is None:
        dim = _softmax_dim(input.dim(), "softmax")
    return call("aten::softmax", input, dim, dtype)


def log_softmax(
    input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype: Any = None
) -> Tensor:
    if dim is None:
        dim = _softmax_dim(input.dim(), "log_softmax")
    return call("aten::log_softmax", input, dim, dtype)


def softmin(
    input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype: Any = None
) -> Tensor:
    if dim is None:
        dim = _softmax_dim(input.dim(), "softmin")
    return call("aten::softmax", -input, dim, dtype)


# ---------------------------------------------------------------------------
# Linear, normalization, dropout, embedding


def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    return call("aten::linear", input, weight, bias)


def layer_norm(
    input: Tensor,
    normalized_shape: Any,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    eps: float = 1e-5,
) -> Tensor:
    if isinstance(normalized_shape, int):
        normalized_shape = [normalized_shape]
    return call("aten::layer_norm", input, list(normalized_shape), weight, bias, eps, False)


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


def group_norm(
    input: Tensor,
    num_groups: int,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    eps: float = 1e-5,
) -> Tensor:
    return call("aten::group_norm", input, num_groups, weight, bias, eps, False)


def normalize(input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12) -> Tensor:
    denom = call("aten::norm", input, p, [dim], True).clamp_min(eps).expand_as(input)
    return input / denom


def _check_p(p: float) -> None:
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def dropout(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    _check_p(p)
    return call("aten::dropout_" if inplace else "aten::dropout", input, p, training)


def dropout1d(
    input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False
) -> Tensor:
    _check_p(p)
    return call("aten::feature_dropout", input, p, training)


dropout2d = dropout3d = dropout1d


def alpha_dropout(
    input: Tensor, p: float = 0.5, training: bool = False, inplace: bool = False
) -> Tensor:
    _check_p(p)
    return call("aten::alpha_dropout", input, p, training)


def embedding(
    input: Tensor,
    weight: Tensor,
    padding_idx: int | None = None,
    max_norm: float | None = None,
    norm_type: float = 2.0,
    scale_grad_by_freq: bool = False,
    sparse: bool = False,
) -> Tensor:
    if padding_idx is not None:
        n = weight.size(0)
        if not -n <= padding_idx < n:
            raise AssertionError("Padding_idx must be within num_embeddings")
        if padding_idx < 0:
            padding_idx += n
    else:
        padding_idx = -1
    if max_norm is not None:
        raise TensorError("embedding with max_norm is not supported by this runtime")
    return call("aten::embedding", weight, input, padding_idx, scale_grad_by_freq, sparse)


def one_hot(tensor: Tensor, num_classes: int = -1) -> Tensor:
    return call("aten::one_hot", tensor, num_classes)


def pad(input: Tensor, pad: Any, mode: str = "constant", value: float | None = None) -> Tensor:
    return call("aten::pad", input, list(pad), mode, value)


def _convolution(op: str) -> Callable[..., Tensor]:
    """`conv1d`/`conv2d`/`conv3d`: the same arguments, one operator per dimension count."""

    def conv(
        input: Tensor,
        weight: Tensor,
        bias: Tensor | None = None,
        stride: Any = 1,
        padding: Any = 0,
        dilation: Any = 1,
        groups: int = 1,
    ) -> Tensor:
        return call(
            op,
            input,
            weight,
            bias,
            _tuple(stride),
            padding if isinstance(padding, str) else _tuple(padding),
            _tuple(dilation),
            groups,
        )

    return _named(conv, op)


def _transposed_convolution(op: str) -> Callable[..., Tensor]:
    """`conv_transpose1d`/`conv_transpose2d`."""

    def conv_transpose(
        input: Tensor,
        weight: Tensor,
        bias: Tensor | None = None,
        stride: Any = 1,
        padding: Any = 0,
        output_padding: Any = 0,
        groups: int = 1,
        dilation: Any = 1,
    ) -> Tensor:
        return call(
            op,
            input,
            weight,
            bias,
            _tuple(stride),
            _tuple(padding),
            _tuple(output_padding),
            groups,
            _tuple(dilation),
        )

    return _named(conv_transpose, op)


def _max_pooling(op: str) -> Callable[..., Tensor]:
    """`max_pool1d`/`max_pool2d`."""

    def max_pool(
        input: Tensor,
        kernel_size: Any,
        stride: Any = None,
        padding: Any = 0,
        dilation: Any = 1,
        ceil_mode: bool = False,
        return_indices: bool = False,
    ) -> Tensor:
        _no_indices(return_indices)
        return call(
            op,
            input,
            _tuple(kernel_size),
            _tuple(stride or []),
            _tuple(padding),
            _tuple(dilation),
            ceil_mode,
        )

    return _named(max_pool, op)


def _named(fn: Callable[..., Tensor], op: str) -> Callable[..., Tensor]:
    """`fn` named after its operator (`aten::conv2d` gives `conv2d`), as if defined by that name."""
    fn.__name__ = fn.__qualname__ = op.partition("::")[2]
    return fn


conv1d = _convolution("aten::conv1d")
conv2d = _convolution("aten::conv2d")
conv3d = _convolution("aten::conv3d")
conv_transpose1d = _transposed_convolution("aten::conv_transpose1d")
conv_transpose2d = _transposed_convolution("aten::conv_transpose2d")
max_pool1d = _max_pooling("aten::max_pool1d")
max_pool2d = _max_pooling("aten::max_pool2d")


def avg_pool1d(
    input: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
) -> Tensor:
    return call(
        "aten::avg_pool1d",
        input,
        _tuple(kernel_size),
        _tuple(stride or []),
        _tuple(padding),
        ceil_mode,
        count_include_pad,
    )


def avg_pool2d(
    input: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
    divisor_override: int | None = None,
) -> Tensor:
    return call(
        "aten::avg_pool2d",
        input,
        _tuple(kernel_size),
        _tuple(stride or []),
        _tuple(padding),
        ceil_mode,
        count_include_pad,
        divisor_override,
    )


def adaptive_avg_pool1d(input: Tensor, output_size: Any) -> Tensor:
    return call("aten::adaptive_avg_pool1d", input, _tuple(output_size))


def adaptive_avg_pool2d(input: Tensor, output_size: Any) -> Tensor:
    size = _tuple(output_size)
    if len(size) == 2:
        size = [input.shape[-2 + i] if s is None else s for i, s in enumerate(size)]
    return call("aten::adaptive_avg_pool2d", input, size)


def _no_indices(return_indices: bool) -> None:
    if return_indices:
        raise TensorError("max pooling with return_indices=True is not supported by this runtime")


def _tuple(value: Any) -> list[int]:
    return [value] if isinstance(value, int) else list(value)


# ---------------------------------------------------------------------------
# Losses


def mse_loss(
    input: Tensor,
    target: Tensor,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
) -> Tensor:
    return call("aten::mse_loss", input, target, _reduction(reduction, size_average, reduce))


def l1_loss(
    input: Tensor,
    target: Tensor,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
) -> Tensor:
    return call("aten::l1_loss", input, target, _reduction(reduction, size_average, reduce))


def smooth_l1_loss(
    input: Tensor,
    target: Tensor,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
    beta: float = 1.0,
) -> Tensor:
    return call(
        "aten::smooth_l1_loss", input, target, _reduction(reduction, size_average, reduce), beta
    )


def huber_loss(
    input: Tensor, target: Tensor, reduction: str = "mean", delta: float = 1.0
) -> Tensor:
    return call("aten::huber_loss", input, target, _reduction(reduction), delta)


def nll_loss(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: Any = None,
    ignore_index: int = -100,
    reduce: Any = None,
    reduction: str = "mean",
) -> Tensor:
    return call(
        "aten::nll_loss_nd",
        input,
        target,
        weight,
        _reduction(reduction, size_average, reduce),
        ignore_index,
    )


def cross_entropy(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: Any = None,
    ignore_index: int = -100,
    reduce: Any = None,
    reduction: str = "mean",
    label_smoothing: float = 0.0,
) -> Tensor:
    return call(
        "aten::cross_entropy_loss",
        input,
        target,
        weight,
        _reduction(reduction, size_average, reduce),
        ignore_index,
        label_smoothing,
    )


def binary_cross_entropy(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
) -> Tensor:
    if weight is not None and tuple(weight.shape) != tuple(input.shape):
        weight = weight.expand_as(input)
    return call(
        "aten::binary_cross_entropy",
        input,
        target,
        weight,
        _reduction(reduction, size_average, reduce),
    )


def binary_cross_entropy_with_logits(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
    pos_weight: Tensor | None = None,
) -> Tensor:
    return call(
        "aten::binary_cross_entropy_with_logits",
        input,
        target,
        weight,
        pos_weight,
        _reduction(reduction, size_average, reduce),
    )


def kl_div(
    input: Tensor,
    target: Tensor,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
    log_target: bool = False,
) -> Tensor:
    if reduction == "batchmean":
        total = call("aten::kl_div", input, target, 2, log_target=log_target)
        return total / input.size(0) if input.dim() else total
    return call(
        "aten::kl_div",
        input,
        target,
        _reduction(reduction, size_average, reduce),
        log_target=log_target,
    )


def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    n1 = x1.norm(2, [dim], True).clamp_min(math.sqrt(eps))
    n2 = x2.norm(2, [dim], True).clamp_min(math.sqrt(eps))
    return ((x1 / n1) * (x2 / n2)).sum(dim)


__all__ = [
    "adaptive_avg_pool1d",
    "adaptive_avg_pool2d",
    "alpha_dropout",
    "avg_pool1d",
    "avg_pool2d",
    "batch_norm",
    "binary_cross_entropy",
    "binary_cross_entropy_with_logits",
    "celu",
    "conv1d",
    "conv2d",
    "conv3d",
    "conv_transpose1d",
    "conv_transpose2d",
    "cosine_similarity",
    "cross_entropy",
    "dropout",
    "dropout1d",
    "dropout2d",
    "dropout3d",
    "elu",
    "embedding",
    "gelu",
    "glu",
    "group_norm",
    "hardshrink",
    "hardsigmoid",
    "hardswish",
    "hardtanh",
    "huber_loss",
    "kl_div",
    "l1_loss",
    "layer_norm",
    "leaky_relu",
    "linear",
    "log_softmax",
    "logsigmoid",
    "max_pool1d",
    "max_pool2d",
    "mish",
    "mse_loss",
    "nll_loss",
    "normalize",
    "one_hot",
    "pad",
    "prelu",
    "relu",
    "relu6",
    "selu",
    "sigmoid",
    "silu",
    "smooth_l1_loss",
    "softmax",
    "softmin",
    "softplus",
    "softshrink",
    "softsign",
    "tanh",
    "tanhshrink",
    "threshold",
]


def scaled_dot_product_attention(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    attn_mask: Tensor | None = None,
    dropout_p: float = 0.0,
    is_causal: bool = False,
    scale: float | None = None,
    enable_gqa: bool = False,
) -> Tensor:
    return call(
        "aten::scaled_dot_product_attention",
        query,
        key,
        value,
        attn_mask,
        dropout_p,
        is_causal,
        scale=scale,
        enable_gqa=enable_gqa,
    )
