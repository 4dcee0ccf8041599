"""Composite operators of the nn layers: recurrent cells, instance and RMS
normalization, embedding bags and renormalization, feature alpha dropout, and the
in-place forms of a few activations.

The composites are registered with `autograd=False`: they are written with
other operators (`linear`, `sigmoid`, `batch_norm`, `index_add`, ...), whose
calls record their own history, as PyTorch's CompositeImplicitAutograd
kernels are. The cells compute what ATen's do:

    lstm_cell:  gates = linear(x, w_ih, b_ih) + linear(h, w_hh, b_hh);  i, f, g, o = chunks
                c' = sigmoid(f) c + sigmoid(i) tanh(g);  h' = sigmoid(o) tanh(c')
    gru_cell:   r = sigmoid(x_r + h_r);  z = sigmoid(x_z + h_z);  n = tanh(x_n + r h_n)
                h' = (h - n) z + n
    rnn_*_cell: h' = act(linear(x, w_ih, b_ih) + linear(h, w_hh, b_hh))
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from ts_schema import registry

from ..dtypes import finfo, scalar_type_of_numpy
from ..tensor import DimensionError, Tensor, TensorError, bump_version, wrap
from .dispatch import call, implements
from .nn_functional import _inplace_of
from .random import generator

ndarray = np.ndarray


# ---------------------------------------------------------------------------
# In-place activations (their gradient is the functional form's)

_FLOAT_ONLY = {
    "aten::elu": "elu_cpu",
    "aten::leaky_relu": "leaky_relu_cpu",
    "aten::gelu": "GeluKernelImpl",
}


def _checked(key: str, kernel: Any) -> Any:
    """`kernel` refusing the dtypes PyTorch's in-place form refuses, with its messages."""

    def run(self: Tensor, *args: Any) -> Tensor:
        dt = self._data.dtype
        if key in _FLOAT_ONLY and dt.kind not in "fc":
            raise TensorError(
                f"\"{_FLOAT_ONLY[key]}\" not implemented for '{scalar_type_of_numpy(dt).name}'"
            )
        if key == "aten::hardtanh" and dt.kind in "ub":
            limits = args if args else (-1, 1)
            if any(v < 0 for v in limits):
                raise TensorError("cannot do hardtanh on an unsigned type with negative limits")
        return kernel(self, *args)

    run.__name__ = getattr(kernel, "__name__", key.partition("::")[2])
    return run


for _key in ("aten::elu", "aten::leaky_relu", "aten::hardtanh", "aten::gelu"):
    _functional = registry.get(_key).impl
    _inplace_of(_checked(_key, getattr(_functional, "__wrapped__", _functional)), _key + "_")


# ---------------------------------------------------------------------------
# Recurrent cells


def _gates(
    input: Tensor, hx: Tensor, w_ih: Tensor, w_hh: Tensor, b_ih: Tensor | None, b_hh: Tensor | None
) -> tuple[Tensor, Tensor]:
    _check_cell(input, hx, w_ih, w_hh)
    return call("aten::linear", input, w_ih, b_ih), call("aten::linear", hx, w_hh, b_hh)


def _check_cell(input: Tensor, hx: Tensor, w_ih: Tensor, w_hh: Tensor) -> None:
    # as ATen's check_rnn_cell_forward_input/hidden: a batch of inputs, one hidden per row
    for t in (input, hx):
        if t._data.ndim < 2:
            raise DimensionError(
                "Dimension out of range (expected to be in range of [-1, 0], but got 1)"
            )
    if input._data.shape[0] != hx._data.shape[0]:
        raise TensorError(
            f"Input batch size {input._data.shape[0]} doesn't match hidden0 batch size "
            f"{hx._data.shape[0]}"
        )
    if input._data.shape[-1] != w_ih._data.shape[-1]:
        raise TensorError(
            f"input has inconsistent input_size: got {input._data.shape[-1]} expected "
            f"{w_ih._data.shape[-1]}"
        )
    if hx._data.shape[-1] != w_hh._data.shape[-1]:
        raise TensorError(
            f"hidden state has inconsistent hidden_size: got {hx._data.shape[-1]}, expected "
            f"{w_hh._data.shape[-1]}"
        )


@implements("aten::lstm_cell", autograd=False)
def lstm_cell(
    input: Tensor,
    hx: list[Tensor],
    w_ih: Tensor,
    w_hh: Tensor,
    b_ih: Tensor | None = None,
    b_hh: Tensor | None = None,
) -> tuple[Tensor, Tensor]:
    if len(hx) != 2:
        raise TensorError("lstm_cell expects two hidden states")
    h, c = hx
    xg, hg = _gates(input, h, w_ih, w_hh, b_ih, b_hh)
    i, f, g, o = call("aten::add", xg, hg).chunk(4, 1)
    cy = call("aten::sigmoid", f) * c + call("aten::sigmoid", i) * call("aten::tanh", g)
    hy = call("aten::sigmoid", o) * call("aten::tanh", cy)
    return hy, cy


@implements("aten::gru_cell", autograd=False)
def gru_cell(
    input: Tensor,
    hx: Tensor,
    w_ih: Tensor,
    w_hh: Tensor,
    b_ih: Tensor | None = None,
    b_hh: Tensor | None = None,
) -> Tensor:
    xg, hg = _gates(input, hx, w_ih, w_hh, b_ih, b_hh)
    x_r, x_z, x_n = xg.chunk(3, 1)
    h_r, h_z, h_n = hg.chunk(3, 1)
    r = call("aten::sigmoid", x_r + h_r)
    z = call("aten::sigmoid", x_z + h_z)
    n = call("aten::tanh", x_n + r * h_n)
    return (hx - n) * z + n


def _simple_cell(activation: str) -> Any:
    def cell(
        input: Tensor,
        hx: Tensor,
        w_ih: Tensor,
        w_hh: Tensor,
        b_ih: Tensor | None = None,
        b_hh: Tensor | None = None,
    ) -> Tensor:
        xg, hg = _gates(input, hx, w_ih, w_hh, b_ih, b_hh)
        return call(activation, call("aten::add", xg, hg))

    cell.__name__ = f"rnn_{activation.partition('::')[2]}_cell"
    return cell


implements("aten::rnn_tanh_cell", autograd=False)(_simple_cell("aten::tanh"))
implements("aten::rnn_relu_cell", autograd=False)(_simple_cell("aten::relu"))


# ---------------------------------------------------------------------------
# Normalization


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
    """Batch normalization of the (1, N * C, *) reshaped input: each sample's channels are
    normalized alone; the running statistics are updated with the mean over the batch."""
    if not use_input_stats and (running_mean is None or running_var is None):
        raise TensorError(
            "Expected running_mean and running_var to be defined when use_input_stats is false"
        )
    shape = list(input._data.shape)
    if len(shape) < 2:
        raise TensorError(f"instance_norm: expected 2D or more input (got {len(shape)}D input)")
    b, c = shape[0], shape[1]
    reshaped = input.contiguous().reshape([1, b * c, *shape[2:]])
    weight_ = weight.repeat([b]) if weight is not None else None
    bias_ = bias.repeat([b]) if bias is not None else None
    mean_ = wrap(np.tile(running_mean._data, b)) if running_mean is not None else None
    var_ = wrap(np.tile(running_var._data, b)) if running_var is not None else None
    out = call(
        "aten::batch_norm",
        reshaped,
        weight_,
        bias_,
        mean_,
        var_,
        use_input_stats,
        momentum,
        eps,
        cudnn_enabled,
    )
    for running, tiled in ((running_mean, mean_), (running_var, var_)):
        if running is not None and tiled is not None:
            running._data[...] = tiled._data.reshape(b, c).mean(axis=0)
            bump_version(running)
    return out.reshape(shape)


@implements("aten::rms_norm", autograd=False)
def rms_norm(
    input: Tensor,
    normalized_shape: list[int],
    weight: Tensor | None = None,
    eps: float | None = None,
) -> Tensor:
    """input / sqrt(mean(input^2 over the normalized dims) + eps) * weight."""
    shape = input._data.shape
    n = len(normalized_shape)
    if n == 0 or len(shape) < n or list(shape[len(shape) - n :]) != list(normalized_shape):
        raise TensorError(
            f"Given normalized_shape={list(normalized_shape)}, expected input with shape "
            f"[*, {', '.join(str(s) for s in normalized_shape)}], but got input of size"
            f"{list(shape)}"
        )
    if input._data.dtype.kind not in "fc":
        raise TensorError(f"\"rms_norm\" not implemented for '{input._data.dtype.name}'")
    if eps is None:
        eps = float(finfo(input.dtype).eps)
    dims = list(range(len(shape) - n, len(shape)))
    scale = call("aten::rsqrt", (input * input).mean(dims, True) + eps)
    out = input * scale
    if weight is not None:
        out = out * weight
    return out


# ---------------------------------------------------------------------------
# Embedding bags


def _index_array(indices: Tensor, name: str) -> ndarray:
    idx = indices._data
    if idx.dtype.kind not in "iu":
        raise TensorError(
            f"Expected tensor for argument #1 'indices' to have one of the following scalar types: "
            f"Long, Int; but got {indices.dtype} instead (while checking arguments for {name})"
        )
    return idx.astype(np.int64, copy=False)


@implements("aten::embedding_renorm_", autograd=False)
def embedding_renorm_(self: Tensor, indices: Tensor, max_norm: float, norm_type: float) -> Tensor:
    """Rescale the rows of `self` named by `indices` to norm at most `max_norm` (in place,
    without recording history, as PyTorch does under no_grad)."""
    w = self._data
    rows = np.unique(_index_array(indices, "embedding_renorm_").reshape(-1))
    if rows.size and (rows[0] < 0 or rows[-1] >= w.shape[0]):
        raise TensorError("index out of range in self")
    for row in rows:
        norm = np.linalg.norm(w[row].astype(np.float64), ord=norm_type)
        if norm > max_norm:
            w[row] *= w.dtype.type(max_norm / (norm + 1e-7))
    bump_version(self)
    return self


def _embedding_bag(
    weight: Tensor,
    indices: Tensor,
    offsets: Tensor,
    scale_grad_by_freq: bool = False,
    mode: int = 0,
    sparse: bool = False,
    per_sample_weights: Tensor | None = None,
    include_last_offset: bool = False,
    padding_idx: int | None = -1,
) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """Sum (mode 0), mean (1) or maximum (2) of the embeddings of each bag; bag b holds
    indices[offsets[b]:offsets[b + 1]]. Entries equal to `padding_idx` are left out; an empty
    bag gives zeros. Returns (output, offset2bag, bag_size, max_indices)."""
    idx = _index_array(indices, "embedding_bag")
    off = _index_array(offsets, "embedding_bag")
    if idx.ndim != 1 or off.ndim != 1:
        raise TensorError("embedding_bag: input and offsets have to be 1D tensors")
    if weight._data.ndim != 2:
        raise TensorError("embedding_bag: weight has to be a 2D Tensor")
    if mode not in (0, 1, 2):
        raise TensorError(f"embedding_bag: unknown mode {mode}")
    n, dim = idx.size, weight._data.shape[1]
    if off.size and off[0] != 0:
        raise TensorError(
            "offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from "
            "position 0. However, got " + str(int(off[0]))
        )
    if include_last_offset:
        if off.size < 1:
            raise TensorError("include_last_offset: number of offset should be at least 1")
        starts, ends = off[:-1], off[1:]
    else:
        starts, ends = off, np.append(off[1:], n)
    if np.any(ends < starts) or (starts.size and ends[-1] > n):
        raise TensorError("embedding_bag: offsets must be non-decreasing and within the input")
    num_bags = starts.size
    covered = int(ends[-1]) if ends.size else 0
    offset2bag = np.zeros(n, dtype=np.int64)
    offset2bag[:covered] = np.repeat(np.arange(num_bags, dtype=np.int64), ends - starts)
    keep = np.arange(n) < covered
    if padding_idx is not None and padding_idx >= 0:
        keep &= idx != padding_idx
    bag_size = np.bincount(offset2bag[keep], minlength=num_bags).astype(np.int64)
    kept = wrap(np.flatnonzero(keep).astype(np.int64))
    rows = call("aten::embedding", weight, wrap(idx), -1, scale_grad_by_freq, sparse)
    if mode == 2:
        out, max_indices = _bag_maxima(weight, rows, idx, starts, ends, keep, dim)
        return out, wrap(offset2bag), wrap(bag_size), max_indices
    if per_sample_weights is not None:
        if mode != 0:
            raise TensorError("embedding_bag: per_sample_weights are only supported in sum mode")
        rows = rows * per_sample_weights.unsqueeze(1)
    target = wrap(offset2bag[kept._data])
    zeros = wrap(np.zeros((num_bags, dim), dtype=weight._data.dtype))
    out = call("aten::index_add", zeros, 0, target, call("aten::index_select", rows, 0, kept))
    if mode == 1:
        counts = np.maximum(bag_size, 1).astype(weight._data.dtype).reshape(-1, 1)
        out = out / wrap(counts)
    return out, wrap(offset2bag), wrap(bag_size), wrap(np.zeros(num_bags, dtype=np.int64))


def _bag_maxima(
    weight: Tensor,
    rows: Tensor,
    idx: ndarray,
    starts: ndarray,
    ends: ndarray,
    keep: ndarray,
    dim: int,
) -> tuple[Tensor, Tensor]:
    parts: list[Tensor] = []
    max_indices = np.full((starts.size, dim), -1, dtype=np.int64)
    w = weight._data
    for b, (lo, hi) in enumerate(zip(starts, ends, strict=True)):
        members = np.arange(lo, hi)[keep[lo:hi]]
        if members.size == 0:
            parts.append(wrap(np.zeros((dim,), dtype=w.dtype)))
            continue
        chosen = call("aten::index_select", rows, 0, wrap(members.astype(np.int64)))
        parts.append(call("aten::amax", chosen, [0], False))
        max_indices[b] = idx[members][np.argmax(w[idx[members]], axis=0)]
    if not parts:
        return wrap(np.zeros((0, dim), dtype=w.dtype)), wrap(max_indices)
    return call("aten::stack", parts, 0), wrap(max_indices)


implements("aten::embedding_bag.padding_idx", autograd=False)(_embedding_bag)
implements("aten::_embedding_bag", autograd=False)(_embedding_bag)


@implements("aten::embedding_bag", autograd=False)
def embedding_bag(
    weight: Tensor,
    indices: Tensor,
    offsets: Tensor,
    scale_grad_by_freq: bool = False,
    mode: int = 0,
    sparse: bool = False,
    per_sample_weights: Tensor | None = None,
    include_last_offset: bool = False,
) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    return _embedding_bag(
        weight,
        indices,
        offsets,
        scale_grad_by_freq,
        mode,
        sparse,
        per_sample_weights,
        include_last_offset,
        -1,
    )


# ---------------------------------------------------------------------------
# Feature alpha dropout


_ALPHA = 1.7580993408473766


@implements("aten::feature_alpha_dropout", autograd=False)
def feature_alpha_dropout(input: Tensor, p: float, train: bool) -> Tensor:
    """Alpha dropout with one draw per channel of (N, C, *) input: dropped channels are set to
    SELU's negative saturation, then all is scaled and shifted to keep mean and variance."""
    if not 0.0 <= p <= 1.0:
        raise TensorError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not train or p == 0.0 or input._data.size == 0:
        return input
    x = input._data
    if x.ndim < 2:
        raise TensorError(
            f"Feature dropout requires at least 2 dimensions in the input, got {x.ndim}"
        )
    shape = x.shape[:2] + (1,) * (x.ndim - 2)
    keep = (generator().random(shape) >= p).astype(x.dtype)
    if p == 1.0:
        return input * wrap(np.zeros((), dtype=x.dtype))
    a = 1.0 / math.sqrt((_ALPHA * _ALPHA * p + 1) * (1 - p))
    shift = wrap(((keep - 1) * (_ALPHA * a) + _ALPHA * a * p).astype(x.dtype))
    return input * wrap((keep * a).astype(x.dtype)) + shift


__all__ = [
    "embedding_bag",
    "embedding_renorm_",
    "feature_alpha_dropout",
    "gru_cell",
    "instance_norm",
    "lstm_cell",
    "rms_norm",
]
