"""Shape rules of neural-network operators: convolution, pooling, normalization, embedding,
padding, losses, attention, dropout and activations with parameters.

Output sizes follow PyTorch's formulas where the sizes and the constant
arguments are known, for each spatial dim of kernel k, stride s, padding p,
dilation d:

    convolution     (in + 2p - d(k-1) - 1) // s + 1
    transposed      (in - 1)s - 2p + d(k-1) + output_padding + 1
    pooling         as convolution, rounded up with ceil_mode (a last window
                    that starts in the right padding is dropped)

and the rank otherwise. The dtype is the input's (a convolution's weight must
share it).
"""

from __future__ import annotations

from typing import Any

from ts_ir import ScalarType, TensorType, Type

from .core import (
    ShapeArgs,
    agreed_dtype,
    broadcast_shapes,
    complete_sizes,
    device_of,
    dims_of,
    int_const,
    int_list_const,
    like_input,
    make_tensor,
    promoted_dtype,
    shape_rules,
    size_list,
    to_float,
)


def _spatial_params(args: ShapeArgs, n: int, names: tuple[str, ...]) -> list[list[int]] | None:
    out = []
    for name in names:
        values = int_list_const(args, name, n)
        if values is None:
            return None
        if len(values) == 1:
            values = values * n
        if len(values) != n:
            return None
        out.append(values)
    return out


def _conv_out(size: int, k: int, s: int, p: int, d: int) -> int:
    return (size + 2 * p - d * (k - 1) - 1) // s + 1


def _result(args: ShapeArgs, x: TensorType, sizes: Any, *operands: TensorType | None) -> Type:
    ins = args.tensors()
    known = [x, *(t for t in operands if t is not None)]
    return make_tensor(agreed_dtype(known), device_of(ins), sizes, ins, contiguous=True)


def convolution_rule(spatial: int | None, *, transposed: bool | None = False) -> Any:
    """conv1d/2d/3d (`spatial` dims), conv_transpose*, convolution (both, by its argument)."""

    def rule(args: ShapeArgs) -> Type | None:
        x, w = args.tensor("input"), args.tensor("weight")
        if x is None:
            return None
        rank = x.dim()
        n = (
            spatial
            if spatial is not None
            else (None if w is None or w.dim() is None else w.dim() - 2)
        )
        is_transposed = transposed
        if is_transposed is None:
            flag = args.const("transposed")
            is_transposed = flag if isinstance(flag, bool) else None
        sx, sw = complete_sizes(x), complete_sizes(w)
        groups = int_const(args, "groups")
        if n is None or is_transposed is None or sx is None or sw is None or groups is None:
            return _result(args, x, rank, w)
        batched = len(sx) == n + 2
        if len(sx) not in (n + 1, n + 2) or len(sw) != n + 2:
            return _result(args, x, rank, w)
        channels = sw[1] * groups if is_transposed else sw[0]
        padding = args.const("padding")
        if isinstance(padding, str):
            params = _spatial_params(args, n, ("stride", "dilation"))
            if params is None:
                return _result(args, x, rank, w)
            stride, dilation = params
            spatial_in = sx[-n:]
            if padding == "same":
                out = list(spatial_in)
            else:
                out = [
                    _conv_out(i, k, s, 0, d)
                    for i, k, s, d in zip(spatial_in, sw[2:], stride, dilation, strict=True)
                ]
        elif is_transposed:
            params = _spatial_params(args, n, ("stride", "padding", "dilation", "output_padding"))
            if params is None:
                return _result(args, x, rank, w)
            stride, pad, dilation, extra = params
            out = [
                (i - 1) * s - 2 * p + d * (k - 1) + e + 1
                for i, k, s, p, d, e in zip(
                    sx[-n:], sw[2:], stride, pad, dilation, extra, strict=True
                )
            ]
        else:
            params = _spatial_params(args, n, ("stride", "padding", "dilation"))
            if params is None:
                return _result(args, x, rank, w)
            stride, pad, dilation = params
            out = [
                _conv_out(i, k, s, p, d)
                for i, k, s, p, d in zip(sx[-n:], sw[2:], stride, pad, dilation, strict=True)
            ]
        lead = (sx[0], channels) if batched else (channels,)
        return _result(args, x, (*lead, *out), w)

    return rule


def pool_rule(spatial: int, *, dilated: bool) -> Any:
    """max_pool*d (`dilated`), avg_pool*d: windows of `kernel_size` over the last dims."""

    def rule(args: ShapeArgs) -> Type | None:
        x = args.tensor(0)
        if x is None:
            return None
        sx = complete_sizes(x)
        kernel = int_list_const(args, "kernel_size", spatial)
        stride = int_list_const(args, "stride", spatial)
        pad = int_list_const(args, "padding", spatial)
        dilation = int_list_const(args, "dilation", spatial) if dilated else [1] * spatial
        ceil = args.const("ceil_mode")
        if sx is None or None in (kernel, stride, pad, dilation) or not isinstance(ceil, bool):
            return _keep_rank(x)
        kernel, pad, dilation = (_n(v, spatial) for v in (kernel, pad, dilation))  # type: ignore[arg-type]
        stride = _n(stride, spatial) if stride else kernel  # type: ignore[arg-type]
        if None in (kernel, stride, pad, dilation) or len(sx) < spatial:
            return _keep_rank(x)
        out = []
        for i, k, s, p, d in zip(sx[-spatial:], kernel, stride, pad, dilation, strict=True):  # type: ignore[arg-type]
            span = i + 2 * p - d * (k - 1) - 1
            size = (-(-span // s) if ceil else span // s) + 1
            if ceil and (size - 1) * s >= i + p:
                size -= 1
            out.append(size)
        return make_tensor(x.scalar_type, x.device, (*sx[:-spatial], *out), [x], contiguous=True)

    return rule


def _n(values: list[int] | None, n: int) -> list[int] | None:
    if values is None:
        return None
    if len(values) == 1:
        return values * n
    return values if len(values) == n else None


def _keep_rank(x: TensorType) -> TensorType:
    return make_tensor(x.scalar_type, x.device, x.dim(), [x], contiguous=True)


def adaptive_pool_rule(spatial: int) -> Any:
    def rule(args: ShapeArgs) -> Type | None:
        x = args.tensor(0)
        if x is None:
            return None
        size = size_list(args, "output_size")
        sx = x.sizes
        if size is not None and len(size) == 1:
            size = size * spatial
        if size is None or sx is None or len(size) != spatial or len(sx) < spatial:
            return _keep_rank(x)
        out = (*sx[:-spatial], *size)
        return make_tensor(
            x.scalar_type, x.device, out if None not in out else len(out), [x], contiguous=True
        )

    return rule


def embedding_rule(args: ShapeArgs) -> Type | None:
    """embedding(weight, indices): one row of `weight` per index."""
    w, idx = args.tensor("weight"), args.tensor("indices")
    if w is None or idx is None:
        return None
    rank = idx.dim()
    si, sw = complete_sizes(idx), complete_sizes(w)
    if si is not None and sw is not None and len(sw) == 2:
        sizes: Any = (*si, sw[1])
    else:
        sizes = None if rank is None else rank + 1
    return make_tensor(w.scalar_type, device_of([w, idx]), sizes, [w], contiguous=True)


def one_hot_rule(args: ShapeArgs) -> Type | None:
    t = args.tensor(0)
    if t is None:
        return None
    n = int_const(args, "num_classes")
    sizes = complete_sizes(t)
    rank = t.dim()
    shape: Any = None if rank is None else rank + 1
    if sizes is not None and n is not None and n >= 0:
        shape = (*sizes, n)
    return make_tensor(ScalarType.Long, t.device, shape, contiguous=True, requires_grad=False)


def glu_rule(args: ShapeArgs) -> Type | None:
    t = args.tensor(0)
    if t is None:
        return None
    sizes = complete_sizes(t)
    dims = dims_of(args.const("dim"), t.dim())
    if sizes is None or dims is None:
        return _keep_rank(t)
    out = list(sizes)
    out[dims[0]] //= 2
    return make_tensor(t.scalar_type, t.device, tuple(out), [t], contiguous=True)


def pad_rule(args: ShapeArgs) -> Type | None:
    """pad, constant_pad_nd: the last dims grown (or cut) by the (left, right) pairs."""
    t = args.tensor(0)
    if t is None:
        return None
    pad = int_list_const(args, "pad")
    sizes = complete_sizes(t)
    if pad is None or sizes is None or len(pad) % 2 or len(pad) // 2 > len(sizes):
        return _keep_rank(t)
    out = list(sizes)
    for i in range(len(pad) // 2):
        out[-1 - i] += pad[2 * i] + pad[2 * i + 1]
    return make_tensor(t.scalar_type, t.device, tuple(out), [t], contiguous=True)


def pointwise_loss_rule(args: ShapeArgs) -> Type | None:
    """mse, l1, smooth_l1, huber, bce, bce_with_logits, kl_div: the broadcast shape with
    reduction "none" (0), else a zero-dim result."""
    x, target = args.tensor(0), args.tensor(1)
    if x is None:
        return None
    dtype = promoted_dtype([v for v in args.inputs[:2] if isinstance(v.type, TensorType)])
    reduction = int_const(args, "reduction")
    if reduction is None:
        return make_tensor(dtype, x.device, None, [x])
    if reduction != 0:
        return make_tensor(dtype, x.device, (), [x])
    both = [x] if target is None else [x, target]
    return make_tensor(dtype, x.device, broadcast_shapes(both), [x], contiguous=True)


def class_loss_rule(args: ShapeArgs) -> Type | None:
    """nll_loss, cross_entropy_loss: with reduction "none", one loss per target (class
    indices) or per sample (class probabilities: the input without its class dim)."""
    x, target = args.tensor(0), args.tensor(1)
    if x is None:
        return None
    reduction = int_const(args, "reduction")
    if reduction is None:
        return make_tensor(x.scalar_type, x.device, None, [x])
    if reduction != 0:
        return make_tensor(x.scalar_type, x.device, (), [x])
    if (
        target is not None
        and target.scalar_type is not None
        and not target.scalar_type.is_floating_point
    ):
        return make_tensor(x.scalar_type, x.device, complete_sizes(target) or target.dim(), [x])
    sizes = complete_sizes(x)
    if sizes is not None and len(sizes) >= 2:
        return make_tensor(x.scalar_type, x.device, (sizes[0], *sizes[2:]), [x])
    rank = x.dim()
    return make_tensor(x.scalar_type, x.device, None if rank is None else max(rank - 1, 0), [x])


def attention_rule(args: ShapeArgs) -> Type | None:
    """scaled_dot_product_attention: (..., L, Ev) of query's batch dims and value's last."""
    q, v = args.tensor("query"), args.tensor("value")
    if q is None or v is None:
        return None
    sq, sv = complete_sizes(q), complete_sizes(v)
    if sq is not None and sv is not None:
        sizes: Any = (*sq[:-1], sv[-1])
    else:
        sizes = q.dim()
    return make_tensor(agreed_dtype([q]), device_of([q, v]), sizes, [q, v], contiguous=True)


def with_indices(rule: Any) -> Any:
    """(values, int64 indices) of a pooling rule's shape: max_pool*d_with_indices,
    adaptive_max_pool*d."""

    def pair(args: ShapeArgs) -> Any:
        values = rule(args)
        if not isinstance(values, TensorType):
            return None
        return [values, values.with_scalar_type(ScalarType.Long).with_requires_grad(False)]

    return pair


def unpool_rule(args: ShapeArgs) -> Type | None:
    """max_unpool2d/3d: the input's (N, C), then output_size."""
    x = args.tensor(0)
    if x is None:
        return None
    out = size_list(args, "output_size")
    sizes = complete_sizes(x)
    if out is None or None in out or sizes is None or len(sizes) < len(out):
        return _keep_rank(x)
    return make_tensor(
        x.scalar_type, x.device, (*sizes[: len(sizes) - len(out)], *out), [x], contiguous=True
    )


def pixel_shuffle_rule(args: ShapeArgs) -> Type | None:
    """pixel_shuffle (r = upscale_factor): (..., C r^2, H, W) -> (..., C, H r, W r);
    pixel_unshuffle the inverse."""
    x = args.tensor(0)
    if x is None:
        return None
    sizes = complete_sizes(x)
    shuffle = args.node.kind == "aten::pixel_shuffle"
    r = int_const(args, "upscale_factor" if shuffle else "downscale_factor")
    if sizes is None or r is None or r <= 0 or len(sizes) < 3:
        return _keep_rank(x)
    *lead, c, h, w = sizes
    if shuffle:
        out = (*lead, c // (r * r), h * r, w * r)
    else:
        out = (*lead, c * r * r, h // r, w // r)
    return make_tensor(x.scalar_type, x.device, out, [x], contiguous=True)


_GATES = {
    "aten::lstm_cell": 4,
    "aten::gru_cell": 3,
    "aten::rnn_tanh_cell": 1,
    "aten::rnn_relu_cell": 1,
}


def rnn_cell_rule(args: ShapeArgs) -> Any:
    """lstm_cell: (h, c); gru_cell, rnn_*_cell: h. Each (batch, hidden): the input's batch,
    w_ih's rows over the gate count; the dtype and device of the input."""
    x, w = args.tensor("input"), args.tensor("w_ih")
    if x is None:
        return None
    sx, sw = complete_sizes(x), complete_sizes(w)
    gates = _GATES.get(args.node.kind, 1)
    shape: Any = x.dim()
    if sx is not None and sw is not None and len(sw) == 2:
        hidden = sw[0] // gates
        shape = (sx[0], hidden) if len(sx) == 2 else (hidden,)
        # the gates add the hidden state's product: its shape broadcasts in
        hx = args.value("hx")
        h = hx.type if hx is not None else None
        if hx is not None and hx.node.kind == "prim::ListConstruct" and hx.node.inputs:
            h = hx.node.inputs[0].type
        if isinstance(h, TensorType):
            shape = broadcast_shapes([TensorType(sizes=shape), h]) if h.sizes else shape
    dtype = agreed_dtype([x, w])
    if args.node.kind != "aten::rnn_relu_cell":
        dtype = to_float(dtype)  # sigmoid and tanh compute in floating point
    one = make_tensor(dtype, x.device, shape, args.tensors(), contiguous=True)
    return [one, one] if gates == 4 else one


def fused_rnn_rule(args: ShapeArgs) -> Any:
    """lstm, gru (.input padded, .data packed): (output, h_n[, c_n]) of the input's dtype and
    device; the output has the input's rank, the final states are (layers * directions,
    batch, hidden)."""
    x = args.tensor(0)
    if x is None:
        return None
    output = make_tensor(x.scalar_type, x.device, x.dim(), [x])
    state = make_tensor(x.scalar_type, x.device, 3, [x])
    return [output, state, state] if args.node.kind == "aten::lstm" else [output, state]


def multi_head_attention_rule(args: ShapeArgs) -> Any:
    """_native_multi_head_attention: (the query's shape, attention weights of unknown rank:
    absent, averaged over heads or per head)."""
    q = args.tensor("query")
    if q is None:
        return None
    sizes = complete_sizes(q)
    out = make_tensor(q.scalar_type, q.device, sizes or q.dim(), [q], contiguous=True)
    return [out, make_tensor(q.scalar_type, q.device, None, [q])]


def encoder_layer_rule(args: ShapeArgs) -> Any:
    """_transformer_encoder_layer_fwd: the shape, dtype and device of src, laid out anew."""
    src = args.tensor("src")
    if src is None:
        return None
    sizes = complete_sizes(src)
    return make_tensor(src.scalar_type, src.device, sizes or src.dim(), [src], contiguous=True)


def embedding_bag_rule(args: ShapeArgs) -> Any:
    """embedding_bag: (one row per bag of weight's dtype, and three int64 bookkeeping
    vectors)."""
    w = args.tensor("weight")
    if w is None:
        return None
    sw = complete_sizes(w)
    rows = make_tensor(w.scalar_type, w.device, (None, sw[1]) if sw and len(sw) == 2 else 2, [w])
    index = make_tensor(ScalarType.Long, w.device, 1, requires_grad=False)
    return [rows, index, index, index]


def _register() -> None:
    r = shape_rules.register
    for n in (1, 2, 3):
        r(f"aten::conv{n}d", convolution_rule(n))
        r(f"aten::conv_transpose{n}d", convolution_rule(n, transposed=True))
    for name in ("convolution", "_convolution"):
        r(f"aten::{name}", convolution_rule(None, transposed=None))
    for n in (1, 2, 3):
        r(f"aten::max_pool{n}d", pool_rule(n, dilated=True))
        r(f"aten::max_pool{n}d_with_indices", with_indices(pool_rule(n, dilated=True)))
        r(f"aten::avg_pool{n}d", pool_rule(n, dilated=False))
        r(f"aten::adaptive_avg_pool{n}d", adaptive_pool_rule(n))
        r(f"aten::adaptive_max_pool{n}d", with_indices(adaptive_pool_rule(n)))
    for name in ("max_unpool2d", "max_unpool3d"):
        r(f"aten::{name}", unpool_rule)
    for name in ("pixel_shuffle", "pixel_unshuffle"):
        r(f"aten::{name}", pixel_shuffle_rule)
    for name in ("lstm_cell", "gru_cell", "rnn_tanh_cell", "rnn_relu_cell"):
        r(f"aten::{name}", rnn_cell_rule)
    for name in ("lstm", "gru"):
        r(f"aten::{name}", fused_rnn_rule)
    r("aten::_native_multi_head_attention", multi_head_attention_rule)
    r("aten::_transformer_encoder_layer_fwd", encoder_layer_rule)
    for name in ("embedding_bag", "_embedding_bag"):
        r(f"aten::{name}", embedding_bag_rule)
    for name in (
        "layer_norm",
        "batch_norm",
        "group_norm",
        "instance_norm",
        "dropout",
        "feature_dropout",
        "alpha_dropout",
        "feature_alpha_dropout",
        "prelu",
        "rms_norm",
        "channel_shuffle",
        "native_channel_shuffle",
    ):
        r(f"aten::{name}", like_input(0))
    r("aten::embedding", embedding_rule)
    r("aten::one_hot", one_hot_rule)
    r("aten::glu", glu_rule)
    for name in ("pad", "constant_pad_nd"):
        r(f"aten::{name}", pad_rule)
    for name in (
        "mse_loss",
        "l1_loss",
        "smooth_l1_loss",
        "huber_loss",
        "binary_cross_entropy",
        "binary_cross_entropy_with_logits",
        "kl_div",
    ):
        r(f"aten::{name}", pointwise_loss_rule)
    for name in ("nll_loss", "nll_loss2d", "nll_loss_nd", "cross_entropy_loss"):
        r(f"aten::{name}", class_loss_rule)
    r("aten::scaled_dot_product_attention", attention_rule)


_register()
