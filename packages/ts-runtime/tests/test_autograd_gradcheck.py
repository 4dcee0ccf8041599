"""Gradients of the tensor operators against central finite differences, in float64.

For each case the scalar L = sum(f(inputs) * v), with a fixed random
cotangent v, is differentiated by autograd and numerically, element by
element, with a step of 1e-6; the two must agree. Broadcasting shapes are
included. A few operators are also checked at second order: the gradient
of sum(grad^2) (computed with `create_graph=True`) against finite
differences of the first-order gradient.
"""

from __future__ import annotations

import numpy as np
import pytest
import ts_runtime as ts
from ts_runtime import autograd
from ts_runtime.nn import functional as F

EPS = 1e-6


def _make(rng: np.random.Generator, spec) -> np.ndarray:
    kind, value = spec
    if kind == "n":
        return rng.standard_normal(value)
    if kind == "p":
        return np.abs(rng.standard_normal(value)) + 0.5
    if kind == "u":
        return rng.uniform(0.1, 0.9, value)
    return np.asarray(value, dtype=np.float64 if kind == "v" else None)


def n(*shape):
    return ("n", shape)


def p(*shape):
    return ("p", shape)


def u(*shape):
    return ("u", shape)


def const(value):
    return ("c", value)


def values(value):
    return ("v", value)


def _tensors(arrays, specs, requires_grad):
    out = []
    for a, (kind, _) in zip(arrays, specs, strict=True):
        t = ts.from_numpy(a.copy())
        if requires_grad and kind != "c":
            t.requires_grad_(True)
        out.append(t)
    return out


def _outputs(result):
    items = result if isinstance(result, (tuple, list)) else [result]
    return [o for o in items if o.dtype == ts.float64]


def _loss_value(fn, arrays, specs, cotangents) -> float:
    with ts.no_grad():
        outs = _outputs(fn(*_tensors(arrays, specs, False)))
    return float(sum((o.numpy() * v).sum() for o, v in zip(outs, cotangents, strict=True)))


def gradcheck(name, fn, specs, *, atol=1e-5, rtol=1e-4):
    rng = np.random.default_rng([5, *map(ord, name)])
    arrays = [_make(rng, s) for s in specs]
    inputs = _tensors(arrays, specs, True)
    outs = _outputs(fn(*inputs))
    cotangents = [rng.standard_normal(tuple(o.shape)) for o in outs]
    loss = None
    for o, v in zip(outs, cotangents, strict=True):
        term = (o * ts.from_numpy(v)).sum()
        loss = term if loss is None else loss + term
    wrt = [
        (i, t) for i, (t, (kind, _)) in enumerate(zip(inputs, specs, strict=True)) if kind != "c"
    ]
    grads = autograd.grad(loss, [t for _, t in wrt], allow_unused=True)
    for (i, _), g in zip(wrt, grads, strict=True):
        numeric = np.zeros_like(arrays[i])
        flat = numeric.reshape(-1)
        for k in range(arrays[i].size):
            plus = [a.copy() for a in arrays]
            minus = [a.copy() for a in arrays]
            plus[i].reshape(-1)[k] += EPS
            minus[i].reshape(-1)[k] -= EPS
            flat[k] = (
                _loss_value(fn, plus, specs, cotangents) - _loss_value(fn, minus, specs, cotangents)
            ) / (2 * EPS)
        analytic = np.zeros_like(numeric) if g is None else g.numpy()
        np.testing.assert_allclose(
            analytic, numeric, atol=atol, rtol=rtol, err_msg=f"{name}: input {i}"
        )


def _setitem(x, v):
    y = x * 1
    y[1, 1:3] = v
    y[0] = 2.0
    return y


IDX = np.array([0, 2, 2, 3])

CASES = [
    # views and shape operators
    ("view_reshape", lambda a: a.view(6, 2).reshape(3, 4) * a.reshape(3, 4), [n(2, 6)]),
    ("t", lambda a: a.t() * 2, [n(2, 3)]),
    ("transpose_permute", lambda a: a.permute(2, 0, 1).transpose(1, 2), [n(2, 3, 4)]),
    ("select", lambda a: a.select(1, -1), [n(3, 4)]),
    ("slice", lambda a: a[1:, ::2], [n(3, 4)]),
    ("narrow", lambda a: a.narrow(1, 1, 2), [n(3, 4)]),
    ("expand", lambda a: a.expand(2, 3, 4), [n(3, 1)]),
    ("squeeze_unsqueeze", lambda a: a.squeeze(1).unsqueeze(0) * 3, [n(4, 1)]),
    ("flatten_unflatten", lambda a: a.flatten().unflatten(0, (4, 3)), [n(2, 6)]),
    ("cat", lambda a, b: ts.cat([a, b, a], 1), [n(2, 3), n(2, 1)]),
    ("stack", lambda a, b: ts.stack([a, b], 1), [n(2, 3), n(2, 3)]),
    ("chunk", lambda a: a.chunk(2, 1)[1], [n(3, 5)]),
    ("split", lambda a: a.split([1, 2], 0), [n(3, 5)]),
    ("unbind", lambda a: a.unbind(1)[2], [n(3, 4)]),
    ("repeat", lambda a: a.repeat(2, 1, 3), [n(2, 3)]),
    ("flip", lambda a: a.flip(0), [n(3, 2)]),
    ("roll", lambda a: a.roll(1, 1), [n(3, 4)]),
    ("tril_triu", lambda a: a.tril() + 2 * a.triu(1), [n(3, 3)]),
    ("diagonal", lambda a: a.diagonal(-1), [n(3, 4)]),
    ("movedim", lambda a: a.movedim(0, 2), [n(2, 3, 4)]),
    ("as_strided", lambda a: a.as_strided((2, 2), (1, 3), 1), [n(3, 4)]),
    ("clone_contiguous", lambda a: a.t().contiguous().clone(), [n(2, 3)]),
    ("to_copy", lambda a: a.to(ts.float64, copy=True) * a.type_as(a), [n(2, 3)]),
    # indexing
    ("getitem_advanced", lambda a, i: a[i], [n(4, 3), const(IDX)]),
    ("getitem_mask", lambda a: a[a > 0.1], [n(3, 4)]),
    ("getitem_none_ellipsis", lambda a: a[None, ..., 1], [n(3, 4)]),
    ("setitem", _setitem, [n(3, 4), n(2)]),
    ("index_select", lambda a, i: a.index_select(1, i), [n(3, 4), const(IDX)]),
    ("gather", lambda a, i: a.gather(1, i), [n(3, 4), const(np.array([[0, 0], [3, 1], [2, 2]]))]),
    (
        "scatter",
        lambda a, s, i: a.scatter(1, i, s),
        [n(3, 4), n(3, 2), const(np.array([[0, 3], [1, 2], [2, 0]]))],
    ),
    (
        "scatter_add",
        lambda a, s, i: a.scatter_add(1, i, s),
        [n(3, 4), n(3, 2), const(np.array([[0, 0], [1, 2], [2, 0]]))],
    ),
    (
        "masked_select",
        lambda a, m: a.masked_select(m),
        [n(3, 4), const(np.array([True, False, True, True]))],
    ),
    (
        "masked_scatter",
        lambda a, s, m: a.masked_scatter(m, s),
        [n(3, 4), n(12), const(np.array([True, False, True, True]))],
    ),
    (
        "index_put_accumulate",
        lambda a, v, i: a.index_put((i,), v, accumulate=True),
        [n(5, 3), n(4, 3), const(IDX)],
    ),
    ("take", lambda a, i: a.take(i), [n(3, 4), const(np.array([[0, 11], [5, 5]]))]),
    # reductions
    ("sum", lambda a: (a.sum(), a.sum(1), a.sum((0, 1), keepdim=True)), [n(2, 3, 4)]),
    ("mean", lambda a: (a.mean(), a.mean(0)), [n(3, 4)]),
    ("prod", lambda a: (a.prod(), a.prod(1)), [n(3, 4)]),
    ("prod_zero", lambda a: a.prod(0), [values([[0.0, 2.0], [3.0, 0.0], [4.0, 5.0]])]),
    ("max_min", lambda a: (a.max(), a.min(1)[0], a.max(0, keepdim=True).values), [n(3, 4)]),
    ("amax", lambda a: a.amax(1), [n(3, 4)]),
    ("var_std", lambda a: (a.var(), a.std(1), a.var(0, correction=0)), [n(3, 4)]),
    ("norm", lambda a: (a.norm(), a.norm(1), a.norm(3, 1), a.norm(float("inf"))), [n(3, 4)]),
    ("logsumexp", lambda a: a.logsumexp(1), [n(3, 4)]),
    ("softmax", lambda a: a.softmax(1), [n(3, 4)]),
    ("log_softmax", lambda a: a.log_softmax(0), [n(3, 4)]),
    ("cumsum", lambda a: a.cumsum(1), [n(3, 4)]),
    ("cumprod", lambda a: a.cumprod(1), [n(3, 4)]),
    ("cumprod_zero", lambda a: a.cumprod(0), [values([1.5, 0.0, 2.0, -1.0])]),
    ("sort_topk", lambda a: (a.sort(1)[0], a.topk(2, 0)[0]), [n(3, 4)]),
    ("median", lambda a: (a.median(), a.median(1)[0]), [n(3, 5)]),
    # linear algebra
    ("mm", lambda a, b: a.mm(b), [n(2, 3), n(3, 4)]),
    ("bmm", lambda a, b: a.bmm(b), [n(2, 2, 3), n(2, 3, 2)]),
    ("matmul_1_1", lambda a, b: a @ b, [n(3), n(3)]),
    ("matmul_2_1", lambda a, b: a @ b, [n(2, 3), n(3)]),
    ("matmul_1_3", lambda a, b: a @ b, [n(3), n(2, 3, 2)]),
    ("matmul_broadcast", lambda a, b: a @ b, [n(2, 1, 2, 3), n(3, 3, 2)]),
    ("addmm", lambda c, a, b: ts.addmm(c, a, b, beta=0.5, alpha=2.0), [n(2), n(2, 3), n(3, 2)]),
    ("addmv", lambda c, a, v: ts.addmv(c, a, v), [n(2), n(2, 3), n(3)]),
    ("baddbmm", lambda c, a, b: ts.baddbmm(c, a, b), [n(1, 2, 2), n(2, 2, 3), n(2, 3, 2)]),
    ("dot_outer", lambda a, b: (ts.dot(a, b), ts.outer(a, b)), [n(3), n(3)]),
    ("linear", lambda x, w, b: F.linear(x, w, b), [n(2, 3), n(4, 3), n(4)]),
    ("einsum", lambda a, b: ts.einsum("bij,jk->bik", a, b), [n(2, 2, 3), n(3, 2)]),
    ("einsum_sum_out", lambda a, b: ts.einsum("ij,kj->k", a, b), [n(2, 3), n(4, 3)]),
    ("trace", lambda a: ts.trace(a), [n(3, 3)]),
    # neural-network functions
    ("layer_norm", lambda x, w, b: F.layer_norm(x, (4,), w, b), [n(2, 4), n(4), n(4)]),
    (
        "batch_norm_train",
        lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True),
        [n(4, 3), n(3), n(3)],
    ),
    ("group_norm", lambda x: F.group_norm(x, 2), [n(2, 4, 2)]),
    ("embedding", lambda w, i: F.embedding(i, w), [n(4, 2), const(np.array([0, 3, 3]))]),
    ("relu6_hardswish", lambda x: F.relu6(x * 4) + F.hardswish(x * 3), [n(3, 4)]),
    ("hardsigmoid_mish", lambda x: F.hardsigmoid(x * 2) + F.mish(x), [n(3, 4)]),
    ("logsigmoid_selu_celu", lambda x: F.logsigmoid(x) + F.selu(x) + F.celu(x, 0.5), [n(3, 4)]),
    ("glu", lambda x: F.glu(x, 1), [n(2, 4)]),
    ("mse_loss", lambda x, y: F.mse_loss(x, y), [n(3, 4), n(3, 4)]),
    (
        "l1_smooth_huber",
        lambda x, y: (F.l1_loss(x, y), F.smooth_l1_loss(x, y, beta=0.5), F.huber_loss(x, y)),
        [n(3, 4), n(3, 4)],
    ),
    ("nll_loss", lambda x, y: F.nll_loss(x, y), [n(4, 3), const(np.array([0, 2, 1, 1]))]),
    (
        "cross_entropy",
        lambda x, y: F.cross_entropy(x, y, label_smoothing=0.1),
        [n(4, 3), const(np.array([0, 2, 1, 1]))],
    ),
    ("bce", lambda x, y: F.binary_cross_entropy(x, y), [u(3, 4), u(3, 4)]),
    ("bce_with_logits", lambda x, y: F.binary_cross_entropy_with_logits(x, y), [n(3, 4), u(3, 4)]),
    (
        "conv1d",
        lambda x, w, b: F.conv1d(x, w, b, stride=2, padding=1, dilation=2),
        [n(2, 2, 7), n(3, 2, 2), n(3)],
    ),
    (
        "conv2d_groups",
        lambda x, w: F.conv2d(x, w, groups=2, padding=(1, 0)),
        [n(1, 2, 4, 3), n(2, 1, 2, 2)],
    ),
    (
        "conv_transpose1d",
        lambda x, w: F.conv_transpose1d(x, w, stride=2, output_padding=1),
        [n(1, 2, 3), n(2, 2, 3)],
    ),
    ("max_pool", lambda x: F.max_pool2d(x, 2, 1, 1), [n(1, 1, 3, 3)]),
    ("avg_pool", lambda x: F.avg_pool1d(x, 3, 2, 1, count_include_pad=False), [n(2, 5)]),
    ("adaptive_avg_pool", lambda x: F.adaptive_avg_pool2d(x, (2, 3)), [n(1, 3, 4)]),
    ("pad", lambda x: F.pad(x, (1, 2, -1, 0)), [n(3, 4)]),
    # ternary pointwise, special functions, attention
    ("addcmul", lambda a, b, c: ts.addcmul(a, b, c, value=-0.5), [n(3, 1), n(4), n(3, 4)]),
    ("addcdiv", lambda a, b, c: ts.addcdiv(a, b, c, value=2.0), [n(3, 4), n(1, 4), p(3, 1)]),
    ("i0", lambda x: ts.i0(x * 4), [n(6)]),
    ("i0e", lambda x: ts.special.i0e(x * 20), [n(6)]),
    ("i1", lambda x: ts.special.i1(x * 4), [n(6)]),
    ("i1e", lambda x: ts.special.i1e(x * 20), [n(6)]),
    (
        "sdpa_causal",
        lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True),
        [n(2, 3, 4), n(2, 3, 4), n(2, 3, 2)],
    ),
    (
        "sdpa_mask_gqa",
        lambda q, k, v, m: F.scaled_dot_product_attention(q, k, v, m, enable_gqa=True),
        [n(1, 4, 2, 3), n(1, 2, 3, 3), n(1, 2, 3, 2), n(2, 3)],
    ),
]


@pytest.mark.parametrize(("name", "fn", "specs"), CASES, ids=[c[0] for c in CASES])
def test_gradient_matches_finite_differences(name, fn, specs):
    gradcheck(name, fn, specs)


def test_the_cases_cover_at_least_forty_operators():
    assert len(CASES) >= 60


# ---------------------------------------------------------------------------
# Second order


SECOND_ORDER = [
    (
        "softmax",
        lambda a: (a.softmax(0) * ts.tensor([1.0, 2.0, 3.0], dtype=ts.float64)).sum(),
        [n(3)],
    ),
    ("matmul", lambda a: (a @ a.t()).pow(2).sum(), [n(2, 3)]),
    ("layer_norm", lambda x: F.layer_norm(x, (3,)).pow(3).sum(), [n(2, 3)]),
    ("logsumexp", lambda a: a.logsumexp(0) * a.sum(), [n(4)]),
    ("cat_index", lambda a: ts.cat([a[1:], a[:2] * a[:2]]).exp().sum(), [n(4)]),
    ("var", lambda a: a.var() * a.mean(), [n(4)]),
]


def _grad_norm(fn, arr):
    x = ts.from_numpy(arr.copy()).requires_grad_()
    (g,) = autograd.grad(fn(x), [x], create_graph=True)
    return (g * g).sum(), x


@pytest.mark.parametrize(("name", "fn", "specs"), SECOND_ORDER, ids=[c[0] for c in SECOND_ORDER])
def test_second_order_matches_finite_differences(name, fn, specs):
    rng = np.random.default_rng([9, *map(ord, name)])
    arr = _make(rng, specs[0])
    total, x = _grad_norm(fn, arr)
    (analytic,) = autograd.grad(total, [x])
    numeric = np.zeros_like(arr)
    for k in range(arr.size):
        plus, minus = arr.copy(), arr.copy()
        plus.reshape(-1)[k] += EPS
        minus.reshape(-1)[k] -= EPS
        numeric.reshape(-1)[k] = (
            float(_grad_norm(fn, plus)[0].item()) - float(_grad_norm(fn, minus)[0].item())
        ) / (2 * EPS)
    np.testing.assert_allclose(analytic.numpy(), numeric, atol=1e-5, rtol=1e-4)
