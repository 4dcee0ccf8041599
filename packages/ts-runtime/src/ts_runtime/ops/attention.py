"""Attention: `scaled_dot_product_attention`, composite as PyTorch's math backend.

    scores = query @ key^T * scale + bias        (..., L, S)
    out    = dropout(softmax(scores, -1), p) @ value

`bias` is the float `attn_mask`, or -inf where a bool `attn_mask` is False,
or -inf above the diagonal when `is_causal`. A query row whose keys are all
masked gives zeros, as PyTorch's CPU kernel does (not the NaN a plain softmax
of -inf would give). With `enable_gqa`, key and value heads (dim -3) are
repeated to the query's head count. Every step is an operator call, so
autograd records each and no derivative formula is needed here.
"""

from __future__ import annotations

import math

import numpy as np

from ..tensor import Tensor, TensorError, wrap
from .dispatch import call, implements


def _repeat_heads(t: Tensor, heads: int) -> Tensor:
    have = t.shape[-3]
    if have == heads:
        return t
    if heads % have:
        raise TensorError(
            f"scaled_dot_product_attention: number of heads in key/value ({have}) must divide "
            f"number of heads in query ({heads})"
        )
    lead = list(t.shape[:-3])
    expanded = call(
        "aten::expand", call("aten::unsqueeze", t, -3), [*lead, have, heads // have, *t.shape[-2:]]
    )
    return call("aten::reshape", expanded, [*lead, heads, *t.shape[-2:]])


@implements("aten::scaled_dot_product_attention", autograd=False)
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
    if query.dim() < 2 or key.dim() < 2 or value.dim() < 2:
        raise TensorError(
            "scaled_dot_product_attention: query, key and value must have at least 2 dimensions"
        )
    if is_causal and attn_mask is not None:
        raise TensorError(
            "_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True"
        )
    if enable_gqa and query.dim() >= 3 and key.dim() >= 3:
        key = _repeat_heads(key, query.shape[-3])
        value = _repeat_heads(value, query.shape[-3])
    length, source = query.shape[-2], key.shape[-2]
    factor = 1.0 / math.sqrt(query.shape[-1]) if scale is None else scale
    scores = call(
        "aten::mul", call("aten::matmul", query, call("aten::transpose", key, -2, -1)), factor
    )
    blocked = None
    if is_causal:
        blocked = wrap(~np.tril(np.ones((length, source), dtype=bool)))
    elif attn_mask is not None:
        if attn_mask.dtype.is_floating_point:
            scores = call("aten::add", scores, attn_mask)
        elif attn_mask._data.dtype.kind == "b":
            blocked = call("aten::logical_not", attn_mask)
        else:
            raise TensorError(
                f"Expected attn_mask dtype to be bool or float or to match query dtype, but got "
                f"attn_mask.dtype: {attn_mask.dtype} and query.dtype: {query.dtype} instead."
            )
    if blocked is not None:
        scores = call("aten::masked_fill", scores, blocked, -math.inf)
    # rows with every key masked attend to nothing: zeros instead of softmax's NaN
    empty = call("aten::all", call("aten::eq", scores, -math.inf), -1, True)
    scores = call("aten::masked_fill", scores, empty, 0.0)
    weights = call("aten::softmax", scores, -1)
    weights = call("aten::masked_fill", weights, empty, 0.0)
    if dropout_p > 0.0:
        weights = call("aten::dropout", weights, dropout_p, True)
    return call("aten::matmul", weights, value)
