"""Gradients of ts-runtime's operators against real PyTorch's, in float64.

Every case is a function of the library and of input tensors made from the
same numpy arrays; float inputs require grad in both libraries, the output
is contracted with the same random cotangent, and the gradients reaching
each input must agree. Broadcasting shapes are covered, so are the
double-backward results (`create_graph=True`) of a selection of operators.
"""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")
import ts_runtime as ts  # noqa: E402

pytestmark = pytest.mark.oracle


def _make(rng: np.random.Generator, spec):
    kind, value = spec
    if kind == "n":
        return rng.standard_normal(value)
    if kind == "p":
        return np.abs(rng.standard_normal(value)) + 0.5
    if kind == "u":
        return rng.uniform(0.05, 0.95, value)
    return np.asarray(value, dtype=np.float64 if kind == "v" else None)  # "v" values, "c" constants


def _inputs(lib, arrays, specs):
    out = []
    for arr, (kind, _) in zip(arrays, specs, strict=True):
        t = torch.from_numpy(arr.copy()) if lib is torch else ts.from_numpy(arr.copy())
        if kind != "c":
            t.requires_grad_(True)
        out.append(t)
    return out


def _float_outputs(out):
    items = out if isinstance(out, (tuple, list)) else [out]
    return [o for o in items if o.dtype in (torch.float64, ts.float64, torch.float32, ts.float32)]


def _grads(lib, fn, arrays, specs, cotangent_seed):
    ins = _inputs(lib, arrays, specs)
    outs = _float_outputs(fn(lib, *ins))
    rng = np.random.default_rng(cotangent_seed)
    loss = None
    for o in outs:
        g = rng.standard_normal(tuple(o.shape))
        gt = torch.from_numpy(g) if lib is torch else ts.from_numpy(g)
        term = (o * gt.to(o.dtype)).sum()
        loss = term if loss is None else loss + term
    differentiable = [t for t, (kind, _) in zip(ins, specs, strict=True) if kind != "c"]
    grads = (torch.autograd.grad if lib is torch else ts.autograd.grad)(
        loss, differentiable, allow_unused=True
    )
    return [None if g is None else g.detach().numpy() for g in grads]


def check(name, fn, specs, rtol=1e-6, atol=1e-8):
    seed = [7, *map(ord, name)]
    rng = np.random.default_rng(seed)
    arrays = [_make(rng, s) for s in specs]
    expected = _grads(torch, fn, arrays, specs, seed)
    actual = _grads(ts, fn, arrays, specs, seed)
    for i, (a, e) in enumerate(zip(actual, expected, strict=True)):
        if e is None:
            assert a is None or not np.any(a), f"input {i}: expected no gradient"
            continue
        assert a is not None, f"input {i}: no gradient"
        np.testing.assert_allclose(a, e, rtol=rtol, atol=atol, err_msg=f"gradient of input {i}")


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


def F(t):
    return t.nn.functional


def _setitem(t, x, v):
    y = x * 1
    y[1, 1:3] = v
    y[0] = 2.0
    return y


CASES = [
    # pointwise, with broadcasting
    ("add_broadcast", lambda t, a, b: a + b, [n(3, 4), n(4)]),
    ("sub_broadcast", lambda t, a, b: a - b * 2, [n(2, 1, 4), n(3, 1)]),
    ("mul_broadcast", lambda t, a, b: a * b, [n(3, 1), n(1, 4)]),
    ("div_broadcast", lambda t, a, b: a / b, [n(2, 3), p(3)]),
    ("pow", lambda t, a, b: a.pow(b), [p(3, 2), n(2)]),
    ("exp_log_tanh_sigmoid", lambda t, a: a.exp() + a.abs().log() + a.tanh() * a.sigmoid(), [n(5)]),
    (
        "gelu_silu_softplus_elu",
        lambda t, a: F(t).gelu(a) + F(t).silu(a) + F(t).softplus(a) + F(t).elu(a),
        [n(6)],
    ),
    ("where_clamp", lambda t, a, b: t.where(a > 0, a, b).clamp(-0.5, 0.7), [n(3, 4), n(4)]),
    # views and shape operators
    ("view_reshape", lambda t, a: a.view(6, 2).reshape(3, 4) * a.reshape(3, 4), [n(2, 6)]),
    (
        "t_transpose_permute",
        lambda t, a: a.permute(2, 0, 1).transpose(1, 2).reshape(4, 6).t(),
        [n(2, 3, 4)],
    ),
    (
        "select_slice_narrow",
        lambda t, a: a.select(0, 1) + a[2, ::2].sum() + a.narrow(1, 1, 2).sum(1).sum(),
        [n(3, 4)],
    ),
    ("getitem_basic", lambda t, a: a[1:, None, ..., -1] * 3, [n(3, 4, 2)]),
    (
        "getitem_advanced",
        lambda t, a, i: a[i] + a[:, i[:3]].sum(),
        [n(4, 4), const(np.array([0, 2, 2, 3]))],
    ),
    ("getitem_mask", lambda t, a: a[a > 0], [n(3, 4)]),
    ("setitem", lambda t, a, v: _setitem(t, a, v), [n(3, 4), n(2)]),
    (
        "expand_squeeze_unsqueeze",
        lambda t, a: a.unsqueeze(0).expand(3, 4, 1).squeeze(-1) * a.squeeze(),
        [n(4, 1)],
    ),
    ("flatten_unflatten", lambda t, a: a.flatten(1).unflatten(1, (4, 3)), [n(2, 3, 4)]),
    (
        "cat_stack",
        lambda t, a, b: t.cat([a, b, a], 1) * 2 + t.stack([a, a], 2).sum(2).sum(),
        [n(2, 3), n(2, 1)],
    ),
    (
        "chunk_split_unbind",
        lambda t, a: (a.chunk(3, 1)[0] * 2, a.split([1, 2], 0)[1], a.unbind(1)[4]),
        [n(3, 5)],
    ),
    ("repeat_flip_roll", lambda t, a: a.repeat(2, 1, 2).flip(0, 2).roll(1, 1), [n(2, 3)]),
    (
        "tril_triu_diagonal",
        lambda t, a: a.tril(-1) + a.triu(1) * 2 + a.diagonal(1).sum(),
        [n(4, 4)],
    ),
    (
        "movedim_as_strided",
        lambda t, a: a.movedim(0, 1).sum() + a.as_strided((2, 2), (1, 3), 1),
        [n(3, 4)],
    ),
    (
        "clone_contiguous_to",
        lambda t, a: a.t().contiguous().clone() * a.t().to(t.float32).to(t.float64),
        [n(2, 3)],
    ),
    # indexing operators
    (
        "index_select_gather",
        lambda t, a, i, j: a.index_select(1, i) + a.gather(1, j).sum(),
        [n(3, 4), const(np.array([3, 0, 3])), const(np.array([[0, 1, 1], [2, 2, 3], [0, 0, 0]]))],
    ),
    (
        "scatter_scatter_add",
        lambda t, a, s, i: a.scatter(1, i, s) + a.scatter_add(1, i, s),
        [n(3, 4), n(3, 2), const(np.array([[0, 3], [1, 2], [2, 0]]))],
    ),
    (
        "masked_select_scatter",
        lambda t, a, s, m: a.masked_select(m).sum() + a.masked_scatter(m, s),
        [n(3, 4), n(12), const(np.array([True, False, True, True]))],
    ),
    (
        "index_put_take",
        lambda t, a, v, i: a.index_put((i,), v, accumulate=True) + a.take(i.unsqueeze(1)).sum(),
        [n(5, 3), n(3, 3), const(np.array([4, 0, 4]))],
    ),
    (
        "index_add_fill",
        lambda t, a, v, i: a.index_add(0, i, v).index_fill(1, t.tensor([0]), 1.5),
        [n(4, 3), n(2, 3), const(np.array([1, 1]))],
    ),
    # reductions
    (
        "sum_mean",
        lambda t, a: a.sum(1) + a.mean(1) + a.sum() + a.mean((0, 1), True).squeeze(),
        [n(3, 4)],
    ),
    ("prod", lambda t, a: a.prod(1) + a.prod(), [n(3, 4)]),
    ("prod_with_zero", lambda t, a: a.prod(0), [values([[0.0, 2.0], [3.0, 0.0], [4.0, 5.0]])]),
    (
        "max_min",
        lambda t, a: a.max() + a.min() + a.max(1)[0].sum() + a.min(0, keepdim=True)[0].sum(),
        [n(3, 4)],
    ),
    ("amax_amin", lambda t, a: a.amax(1) + a.amin(1), [n(3, 4)]),
    (
        "var_std",
        lambda t, a: a.var(1) + a.std(1) + a.var() + a.std(0, correction=0).sum(),
        [n(3, 4)],
    ),
    (
        "norm",
        lambda t, a: a.norm() + a.norm(1) + a.norm(3, 1).sum() + a.norm(float("inf")),
        [n(3, 4)],
    ),
    ("logsumexp", lambda t, a: a.logsumexp(1), [n(3, 4)]),
    ("softmax_log_softmax", lambda t, a: a.softmax(1) * 2 + a.log_softmax(0), [n(3, 4)]),
    ("cumsum_cumprod", lambda t, a: a.cumsum(1) + a.cumprod(0), [n(3, 4)]),
    (
        "sort_topk_median",
        lambda t, a: a.sort(1)[0] * 2 + a.topk(4, 1)[0] + a.median(1, keepdim=True)[0] + a.median(),
        [n(3, 4)],
    ),
    # linear algebra
    (
        "mm_bmm",
        lambda t, a, b, c, d: a.mm(b).sum() + c.bmm(d),
        [n(2, 3), n(3, 4), n(2, 2, 3), n(2, 3, 2)],
    ),
    (
        "matmul_ranks",
        lambda t, a, b, c: (a @ b) + (c @ a).sum() + (c @ a @ b),
        [n(3, 4), n(4), n(3)],
    ),
    ("matmul_batched_broadcast", lambda t, a, b: t.matmul(a, b), [n(2, 1, 3, 4), n(5, 4, 2)]),
    (
        "addmm_addmv_baddbmm",
        lambda t, c, a, b, v, e: (
            t.addmm(c, a, b, beta=0.5, alpha=2.0).sum()
            + t.addmv(v, a, b[:, 0]).sum()
            + t.baddbmm(c, e, e.transpose(1, 2)[:, :, :2].transpose(1, 2).transpose(1, 2))
        ),
        [n(2), n(2, 3), n(3, 2), n(2), n(2, 2, 2)],
    ),
    (
        "dot_outer_mv",
        lambda t, a, b, m: t.dot(a, b) + t.outer(a, b).sum() + t.mv(m, a).sum(),
        [n(3), n(3), n(4, 3)],
    ),
    ("linear", lambda t, x, w, b: F(t).linear(x, w, b), [n(2, 5, 3), n(4, 3), n(4)]),
    (
        "einsum",
        lambda t, a, b: t.einsum("bij,jk->bik", a, b) + t.einsum("bij->j", a).sum(),
        [n(2, 3, 4), n(4, 5)],
    ),
    ("trace_diag", lambda t, a, v: t.trace(a) + t.diag(v).sum() * t.diag(a).sum(), [n(3, 3), n(3)]),
    # neural-network functions
    ("layer_norm", lambda t, x, w, b: F(t).layer_norm(x, (4,), w, b), [n(2, 3, 4), n(4), n(4)]),
    (
        "batch_norm_train",
        lambda t, x, w, b: F(t).batch_norm(x, None, None, w, b, training=True),
        [n(4, 3, 2), n(3), n(3)],
    ),
    (
        "batch_norm_eval",
        lambda t, x, w, b, m, v: F(t).batch_norm(x, m, v, w, b, training=False),
        [n(4, 3), n(3), n(3), const(np.zeros(3) + 0.2), const(np.ones(3) * 1.5)],
    ),
    ("group_norm", lambda t, x, w, b: F(t).group_norm(x, 2, w, b), [n(2, 4, 3), n(4), n(4)]),
    (
        "embedding",
        lambda t, w, i: F(t).embedding(i, w, padding_idx=1) * 2,
        [n(5, 3), const(np.array([[0, 1], [4, 0]]))],
    ),
    (
        "activations",
        lambda t, x: (
            F(t).relu6(x * 4)
            + F(t).hardswish(x * 3)
            + F(t).hardsigmoid(x * 3)
            + F(t).mish(x)
            + F(t).logsigmoid(x)
            + F(t).selu(x)
            + F(t).celu(x, 0.7)
        ),
        [n(3, 4)],
    ),
    ("glu_prelu", lambda t, x, w: F(t).glu(x, 1).sum() + F(t).prelu(x, w), [n(2, 4), n(4)]),
    (
        "mse_l1_smooth_huber",
        lambda t, x, y: (
            F(t).mse_loss(x, y)
            + F(t).l1_loss(x, y, reduction="sum")
            + F(t).smooth_l1_loss(x, y, beta=0.5)
            + F(t).huber_loss(x, y, reduction="none", delta=0.8).sum()
        ),
        [n(3, 4), n(3, 4)],
    ),
    (
        "nll_loss",
        lambda t, x, w, y: (
            F(t).nll_loss(x, y) + F(t).nll_loss(x, y, w, ignore_index=2, reduction="sum")
        ),
        [n(4, 3), const(np.array([0.5, 2.0, 1.5])), const(np.array([0, 2, 1, 1]))],
    ),
    (
        "cross_entropy",
        lambda t, x, y: (
            F(t).cross_entropy(x, y)
            + F(t).cross_entropy(x, y, label_smoothing=0.2, reduction="sum")
        ),
        [n(4, 3), const(np.array([0, 2, 1, 1]))],
    ),
    (
        "cross_entropy_probs",
        lambda t, x, q: F(t).cross_entropy(x, q.softmax(1)),
        [n(4, 3), n(4, 3)],
    ),
    ("bce", lambda t, x, y: F(t).binary_cross_entropy(x, y), [u(3, 4), u(3, 4)]),
    (
        "bce_with_logits",
        lambda t, x, y, pw: F(t).binary_cross_entropy_with_logits(x, y, pos_weight=pw),
        [n(3, 4), u(3, 4), const(np.array([0.5, 2.0, 1.0, 3.0]))],
    ),
    (
        "kl_div",
        lambda t, x, y: F(t).kl_div(x.log_softmax(1), y.softmax(1), reduction="batchmean"),
        [n(3, 4), n(3, 4)],
    ),
    (
        "conv2d",
        lambda t, x, w, b: F(t).conv2d(x, w, b, stride=(2, 1), padding=1, dilation=(1, 2)),
        [n(2, 4, 7, 8), n(6, 4, 3, 2), n(6)],
    ),
    (
        "conv2d_groups_same",
        lambda t, x, w: F(t).conv2d(x, w, groups=2, padding="same"),
        [n(1, 4, 5, 5), n(4, 2, 3, 3)],
    ),
    ("conv1d", lambda t, x, w: F(t).conv1d(x, w, stride=3, padding=2), [n(2, 3, 10), n(4, 3, 4)]),
    (
        "conv_transpose2d",
        lambda t, x, w, b: F(t).conv_transpose2d(
            x, w, b, stride=2, padding=1, output_padding=1, groups=2
        ),
        [n(2, 4, 4, 3), n(4, 3, 3, 3), n(6)],
    ),
    (
        "pooling",
        lambda t, x: (
            F(t).max_pool2d(x, 3, 2, 1).sum()
            + F(t).avg_pool2d(x, 2, ceil_mode=True, count_include_pad=False).sum()
            + F(t).adaptive_avg_pool2d(x, (2, 3))
        ),
        [n(2, 3, 7, 6)],
    ),
    (
        "pad",
        lambda t, x: (
            F(t).pad(x, (1, 2, -1, 1), value=0.5).sum(0)
            + F(t).pad(x[None], (2, 1), mode="reflect").sum()
        ),
        [n(3, 4)],
    ),
]


@pytest.mark.parametrize(("name", "fn", "specs"), CASES, ids=[c[0] for c in CASES])
def test_gradient_matches_torch(name, fn, specs):
    check(name, fn, specs)


# ---------------------------------------------------------------------------
# Double backward

DOUBLE = [
    ("tanh_mul", lambda t, a, b: (a.tanh() * b).sum(), [n(3), n(3)]),
    ("softmax", lambda t, a: (a.softmax(0) * t.arange(3.0, dtype=t.float64)).sum(), [n(3)]),
    ("matmul", lambda t, a, b: (a @ b).pow(2).sum(), [n(2, 3), n(3, 2)]),
    ("layer_norm", lambda t, x: F(t).layer_norm(x, (4,)).pow(3).sum(), [n(2, 4)]),
    ("index_cat", lambda t, a: t.cat([a[1:], a[:2] * a[:2]]).exp().sum(), [n(4)]),
    ("logsumexp_var", lambda t, a: a.logsumexp(0) * a.var(), [n(5)]),
    ("mse", lambda t, a, b: F(t).mse_loss(a * a, b), [n(4), n(4)]),
]


def _double(lib, fn, arrays, specs):
    ins = _inputs(lib, arrays, specs)
    y = fn(lib, *ins)
    grads = lib.autograd.grad(y, ins, create_graph=True)
    total = sum((g * g).sum() for g in grads)
    return [g.detach().numpy() for g in lib.autograd.grad(total, ins)]


@pytest.mark.parametrize(("name", "fn", "specs"), DOUBLE, ids=[c[0] for c in DOUBLE])
def test_double_backward_matches_torch(name, fn, specs):
    rng = np.random.default_rng([11, *map(ord, name)])
    arrays = [_make(rng, s) for s in specs]
    expected = _double(torch, fn, arrays, specs)
    actual = _double(ts, fn, arrays, specs)
    for a, e in zip(actual, expected, strict=True):
        np.testing.assert_allclose(a, e, rtol=1e-6, atol=1e-8)


def test_gradient_accumulates_into_leaves_like_torch():
    rng = np.random.default_rng(3)
    arr = rng.standard_normal((2, 3))
    results = []
    for lib in (torch, ts):
        x = (
            torch.from_numpy(arr.copy()) if lib is torch else ts.from_numpy(arr.copy())
        ).requires_grad_()
        (x * 2).sum().backward()
        (x.exp()).sum().backward()
        y = x.t() @ x
        y.sum().backward()
        results.append(x.grad.numpy().copy())
    np.testing.assert_allclose(results[1], results[0], rtol=1e-12)
