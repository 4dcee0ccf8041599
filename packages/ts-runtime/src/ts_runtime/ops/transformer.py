"""The fused transformer kernels of `nn.MultiheadAttention` and `nn.TransformerEncoderLayer`'s
fast path (taken in eval mode without grad): `_native_multi_head_attention` and
`_transformer_encoder_layer_fwd`, composite as ATen's CPU kernels compute them.

    _native_multi_head_attention(q, k, v):   (batch first: (B, T, E))
        q, k, v = q W_q^T + b_q, k W_k^T + b_k, v W_v^T + b_v     (rows of qkv_weight/bias)
        heads:  (B, H, T, E / H);  q /= sqrt(E / H)
        weights = masked_softmax(q k^T, mask, mask_type);  out = (weights v) W_o^T + b_o
        -> (out, weights averaged over heads, or per head, when need_weights)

    _transformer_encoder_layer_fwd(src):
        x = src + attention(norm1(src))  if norm_first  else  norm1(src + attention(src))
        x = x + ffn(norm2(x))            if norm_first  else  norm2(x + ffn(x))
        ffn(x) = linear2(gelu(linear1(x)) or relu(...))

The mask, as ATen's masked softmax reads it, is boolean with True for the
scores left out (a float mask counts as True where it is nonzero, as ATen
converts it); `mask_type` 0 is a (T, T) attention mask, 1 a (B, T) key
padding mask, 2 a mask of the scores' own shape (B, H, T, T). A row with
every score left out gives NaN, as ATen's CPU kernel does. Every step is an operator call, so the
kernels are registered with `autograd=False`.
"""

from __future__ import annotations

import math

from ..tensor import Tensor, TensorError
from .dispatch import call, implements


def _scores_mask(mask: Tensor, scores: Tensor, mask_type: int | None) -> Tensor:
    """`mask` as a boolean of the scores' shape (B, H, T, S), True where left out."""
    if mask._data.dtype.kind != "b":
        mask = call("aten::ne", mask, 0)
    shape = list(scores.shape)
    b, _, t, s = shape
    if mask.dim() == 2 and mask_type is None:
        raise TensorError("_native_multi_head_attention: Mask Type should be defined")
    if mask.dim() == 2 and mask_type == 0:
        if list(mask.shape) != [t, s]:
            raise TensorError(
                f"_native_multi_head_attention: for mask_type 0 the mask must have shape "
                f"({t}, {s}), got {list(mask.shape)}"
            )
        return call("aten::expand", call("aten::view", mask, [1, 1, t, s]), shape)
    if mask.dim() == 2 and mask_type == 1:
        if list(mask.shape) != [b, s]:
            raise TensorError(
                f"_native_multi_head_attention: for mask_type 1 (key padding) the mask must "
                f"have shape ({b}, {s}), got {list(mask.shape)}"
            )
        return call("aten::expand", call("aten::view", mask, [b, 1, 1, s]), shape)
    if list(mask.shape) != shape:
        raise TensorError(
            f"_native_multi_head_attention: the mask must have the scores' shape {shape}, "
            f"got {list(mask.shape)}"
        )
    return mask


def _masked_softmax(scores: Tensor, mask: Tensor | None, mask_type: int | None) -> Tensor:
    if mask is None:
        return call("aten::softmax", scores, -1)
    blocked = _scores_mask(mask, scores, mask_type)
    return call("aten::softmax", call("aten::masked_fill", scores, blocked, -math.inf), -1)


def _heads(x: Tensor, heads: int) -> Tensor:
    b, t, e = x.shape
    return call("aten::transpose", call("aten::reshape", x, [b, t, heads, e // heads]), 1, 2)


@implements("aten::_native_multi_head_attention", autograd=False)
def native_multi_head_attention(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    embed_dim: int,
    num_head: int,
    qkv_weight: Tensor,
    qkv_bias: Tensor,
    proj_weight: Tensor,
    proj_bias: Tensor,
    mask: Tensor | None = None,
    need_weights: bool = True,
    average_attn_weights: bool = True,
    mask_type: int | None = None,
) -> tuple[Tensor, Tensor | None]:
    for what, t in (("query", query), ("key", key), ("value", value)):
        if t.dim() != 3:
            raise TensorError(f"expected 3-D `{what}`, got {t.dim()}-D tensor")
    if query.shape[2] != embed_dim:
        raise TensorError(
            f"passed-in embed_dim {embed_dim} didn't match last dim of query {query.shape[2]}"
        )
    if num_head < 1 or embed_dim % num_head:
        raise TensorError("`embed_dim` must divide evenly by `num_heads`")
    if list(qkv_weight.shape) != [3 * embed_dim, embed_dim]:
        raise TensorError(
            f"expected qkv_weight of shape [{3 * embed_dim}, {embed_dim}], "
            f"got {list(qkv_weight.shape)}"
        )
    if not list(query.shape) == list(key.shape) == list(value.shape):
        raise TensorError(
            f"expected `query`/`key`/`value` shapes to match, got {list(query.shape)}, "
            f"{list(key.shape)} and {list(value.shape)}"
        )
    w_q, w_k, w_v = call("aten::chunk", qkv_weight, 3, 0)
    b_q, b_k, b_v = call("aten::chunk", qkv_bias, 3, 0)
    scale = math.sqrt(embed_dim // num_head)
    q = call("aten::div", _heads(call("aten::linear", query, w_q, b_q), num_head), scale)
    k = _heads(call("aten::linear", key, w_k, b_k), num_head)
    v = _heads(call("aten::linear", value, w_v, b_v), num_head)
    scores = call("aten::matmul", q, call("aten::transpose", k, -2, -1))
    weights = _masked_softmax(scores, mask, mask_type)
    context = call("aten::transpose", call("aten::matmul", weights, v), 1, 2)
    b, t = query.shape[0], query.shape[1]
    out = call(
        "aten::linear",
        call("aten::reshape", context, [b, t, embed_dim]),
        proj_weight,
        proj_bias,
    )
    if not need_weights:
        return out, None
    if average_attn_weights:
        weights = call("aten::div", call("aten::sum", weights, [1]), num_head)
    return out, weights


@implements("aten::_transformer_encoder_layer_fwd", autograd=False)
def transformer_encoder_layer_fwd(
    src: Tensor,
    embed_dim: int,
    num_heads: int,
    qkv_weight: Tensor,
    qkv_bias: Tensor,
    proj_weight: Tensor,
    proj_bias: Tensor,
    use_gelu: bool,
    norm_first: bool,
    eps: float,
    norm_weight_1: Tensor,
    norm_bias_1: Tensor,
    norm_weight_2: Tensor,
    norm_bias_2: Tensor,
    ffn_weight_1: Tensor,
    ffn_bias_1: Tensor,
    ffn_weight_2: Tensor,
    ffn_bias_2: Tensor,
    mask: Tensor | None = None,
    mask_type: int | None = None,
) -> Tensor:
    def norm(x: Tensor, weight: Tensor, bias: Tensor) -> Tensor:
        return call("aten::layer_norm", x, [embed_dim], weight, bias, eps, True)

    x = norm(src, norm_weight_1, norm_bias_1) if norm_first else src
    x, _ = native_multi_head_attention(
        x, x, x, embed_dim, num_heads, qkv_weight, qkv_bias, proj_weight, proj_bias,
        mask, False, True, mask_type,
    )  # fmt: skip
    x = call("aten::add", x, src)
    if not norm_first:
        x = norm(x, norm_weight_1, norm_bias_1)
    residual = x
    if norm_first:
        x = norm(x, norm_weight_2, norm_bias_2)
    hidden = call("aten::linear", x, ffn_weight_1, ffn_bias_1)
    hidden = call("aten::gelu", hidden) if use_gelu else call("aten::relu", hidden)
    x = call("aten::add", call("aten::linear", hidden, ffn_weight_2, ffn_bias_2), residual)
    if not norm_first:
        x = norm(x, norm_weight_2, norm_bias_2)
    return x
