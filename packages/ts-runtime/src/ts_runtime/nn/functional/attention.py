"""Attention: `scaled_dot_product_attention` and the multi-head attention of `nn.MultiheadAttention`.

`multi_head_attention_forward` follows PyTorch's (its arguments, its masks'
meanings and its return of the head-averaged weights): project the query,
key and value, split the embedding into heads, attend with
softmax(q k^T / sqrt(head_dim) + mask) v, join the heads and project out.
With `need_weights` the weights are computed explicitly (and returned);
without, through `scaled_dot_product_attention`.
"""

from __future__ import annotations

import math

from ...ops.dispatch import call, eager_function
from ...tensor import Tensor
from .dropout import dropout
from .linear import linear

scaled_dot_product_attention = eager_function("aten::scaled_dot_product_attention")


def _float_mask(mask: Tensor | None, like: Tensor) -> Tensor | None:
    """A boolean mask (True = do not attend) as an additive float mask of -inf and 0."""
    if mask is None:
        return None
    if mask.dtype == 11:  # bool
        return call("aten::zeros_like", mask, dtype=like.dtype).masked_fill(mask, -math.inf)
    if not mask.is_floating_point():
        raise AssertionError("only bool and floating types of masks are supported")
    return mask


def _split_bias(bias: Tensor | None, embed_dim: int) -> list[Tensor | None]:
    if bias is None:
        return [None, None, None]
    parts = bias.split([embed_dim, embed_dim, embed_dim])
    return [parts[0], parts[1], parts[2]]


def multi_head_attention_forward(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    embed_dim_to_check: int,
    num_heads: int,
    in_proj_weight: Tensor | None,
    in_proj_bias: Tensor | None,
    bias_k: Tensor | None,
    bias_v: Tensor | None,
    add_zero_attn: bool,
    dropout_p: float,
    out_proj_weight: Tensor,
    out_proj_bias: Tensor | None,
    training: bool = True,
    key_padding_mask: Tensor | None = None,
    need_weights: bool = True,
    attn_mask: Tensor | None = None,
    use_separate_proj_weight: bool = False,
    q_proj_weight: Tensor | None = None,
    k_proj_weight: Tensor | None = None,
    v_proj_weight: Tensor | None = None,
    static_k: Tensor | None = None,
    static_v: Tensor | None = None,
    average_attn_weights: bool = True,
    is_causal: bool = False,
) -> tuple[Tensor, Tensor | None]:
    """Attention of `query` (L, N, E) over `key` (S, N, Ek) and `value` (S, N, Ev); unbatched
    inputs drop the N dim. Returns the output (L, N, E) and, with `need_weights`, the
    attention weights (N, L, S), or (N, heads, L, S) when not averaged."""
    batched = query.dim() == 3
    if not batched:
        query = query.unsqueeze(1)
        key = key.unsqueeze(1)
        value = value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.size(0), query.size(1), query.size(2)
    if embed_dim != embed_dim_to_check:
        raise AssertionError(
            "was expecting embedding dimension of "
            + str(embed_dim_to_check)
            + ", but got "
            + str(embed_dim)
        )
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(
            "embed_dim " + str(embed_dim) + " not divisible by num_heads " + str(num_heads)
        )
    key_padding_mask = _float_mask(key_padding_mask, query)
    attn_mask = _float_mask(attn_mask, query)
    if is_causal and attn_mask is None:
        raise RuntimeError(
            "Need attn_mask if specifying the is_causal hint. You may use the Transformer "
            + "module method `generate_square_subsequent_mask` to create this mask."
        )
    if is_causal and key_padding_mask is None and not need_weights:
        # the mask is implied: scaled_dot_product_attention makes it
        attn_mask = None
    else:
        is_causal = False

    # input projections
    biases = _split_bias(in_proj_bias, embed_dim)
    if not use_separate_proj_weight:
        if in_proj_weight is None:
            raise AssertionError("use_separate_proj_weight is False but in_proj_weight is None")
        weights = in_proj_weight.chunk(3)
        q = linear(query, weights[0], biases[0])
        k = linear(key, weights[1], biases[1])
        v = linear(value, weights[2], biases[2])
    else:
        if q_proj_weight is None or k_proj_weight is None or v_proj_weight is None:
            raise AssertionError("use_separate_proj_weight is True but a projection is None")
        q = linear(query, q_proj_weight, biases[0])
        k = linear(key, k_proj_weight, biases[1])
        v = linear(value, v_proj_weight, biases[2])

    if attn_mask is not None:
        if attn_mask.dim() == 2:
            attn_mask = attn_mask.unsqueeze(0)
        elif attn_mask.dim() != 3:
            raise RuntimeError(
                "attn_mask's dimension " + str(attn_mask.dim()) + " is not supported"
            )

    if bias_k is not None and bias_v is not None:
        if static_k is not None or static_v is not None:
            raise AssertionError("bias cannot be added to static key or value.")
        k = call("aten::cat", [k, bias_k.repeat([1, bsz, 1])], 0)
        v = call("aten::cat", [v, bias_v.repeat([1, bsz, 1])], 0)
        if attn_mask is not None:
            attn_mask = call("aten::pad", attn_mask, [0, 1], "constant", None)
        if key_padding_mask is not None:
            key_padding_mask = call("aten::pad", key_padding_mask, [0, 1], "constant", None)

    # (len, N, E) -> (N * heads, len, head_dim)
    q = q.reshape([tgt_len, bsz * num_heads, head_dim]).transpose(0, 1)
    if static_k is None:
        k = k.reshape([k.size(0), bsz * num_heads, head_dim]).transpose(0, 1)
    else:
        k = static_k
    if static_v is None:
        v = v.reshape([v.size(0), bsz * num_heads, head_dim]).transpose(0, 1)
    else:
        v = static_v

    if add_zero_attn:
        zeros = call("aten::zeros", [bsz * num_heads, 1, head_dim], dtype=k.dtype)
        k = call("aten::cat", [k, zeros], 1)
        v = call("aten::cat", [v, zeros], 1)
        if attn_mask is not None:
            attn_mask = call("aten::pad", attn_mask, [0, 1], "constant", None)
        if key_padding_mask is not None:
            key_padding_mask = call("aten::pad", key_padding_mask, [0, 1], "constant", None)

    src_len = k.size(1)
    if key_padding_mask is not None:
        padding = (
            key_padding_mask.reshape([bsz, 1, 1, src_len])
            .expand([-1, num_heads, -1, -1])
            .reshape([bsz * num_heads, 1, src_len])
        )
        if attn_mask is None:
            attn_mask = padding
        else:
            attn_mask = attn_mask + padding

    if not training:
        dropout_p = 0.0

    if need_weights:
        q_scaled = q * math.sqrt(1.0 / float(head_dim))
        if attn_mask is not None:
            scores = call("aten::baddbmm", attn_mask, q_scaled, k.transpose(-2, -1))
        else:
            scores = call("aten::bmm", q_scaled, k.transpose(-2, -1))
        weights = call("aten::softmax", scores, -1)
        if dropout_p > 0.0:
            weights = dropout(weights, dropout_p)
        out = call("aten::bmm", weights, v)
        out = out.transpose(0, 1).contiguous().reshape([tgt_len * bsz, embed_dim])
        out = linear(out, out_proj_weight, out_proj_bias)
        out = out.reshape([tgt_len, bsz, out.size(1)])
        weights = weights.reshape([bsz, num_heads, tgt_len, src_len])
        if average_attn_weights:
            weights = weights.mean(1)
        if not batched:
            out = out.squeeze(1)
            weights = weights.squeeze(0)
        return out, weights

    if attn_mask is not None:
        if attn_mask.size(0) == 1 and attn_mask.dim() == 3:
            attn_mask = attn_mask.unsqueeze(0)
        else:
            attn_mask = attn_mask.reshape([bsz, num_heads, -1, src_len])
    q = q.reshape([bsz, num_heads, tgt_len, head_dim])
    k = k.reshape([bsz, num_heads, src_len, head_dim])
    v = v.reshape([bsz, num_heads, src_len, head_dim])
    out = call("aten::scaled_dot_product_attention", q, k, v, attn_mask, dropout_p, is_causal)
    out = out.permute([2, 0, 1, 3]).contiguous().reshape([bsz * tgt_len, embed_dim])
    out = linear(out, out_proj_weight, out_proj_bias)
    out = out.reshape([tgt_len, bsz, out.size(1)])
    if not batched:
        out = out.squeeze(1)
    return out, None


__all__ = ["multi_head_attention_forward", "scaled_dot_product_attention"]
