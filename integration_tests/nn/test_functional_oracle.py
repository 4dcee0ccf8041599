"""The `nn.functional` forms and the operators added for the layers, against PyTorch.

Each case calls the same function of `tsjit.nn.functional` and `torch.nn.functional` on the
same inputs, eagerly; results and the gradients of a random projection of them with respect to
the floating-point inputs must agree. The layers themselves are compared in
`test_nn_oracle.py`; this file covers the arguments the layers do not pass.
"""

from __future__ import annotations

import numpy as np
import pytest
import tsjit

from .harness import arrays, assert_close

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle


def f32(*shape):
    return ("f", shape)


def idx(high, *shape):
    return ("i", high, shape)


def _make(spec, rng):
    if isinstance(spec, np.ndarray):
        return spec
    if spec[0] == "f":
        return rng.standard_normal(spec[1]).astype(np.float32)
    return rng.randint(0, spec[1], spec[2]).astype(np.int64)


CASES = [
    # resampling
    (
        "interpolate_nearest_scale",
        lambda F, x: F.interpolate(x, scale_factor=1.5),
        [f32(1, 2, 5, 6)],
    ),
    ("interpolate_nearest_1d", lambda F, x: F.interpolate(x, size=7), [f32(2, 3, 4)]),
    (
        "interpolate_nearest_3d",
        lambda F, x: F.interpolate(x, scale_factor=2.0),
        [f32(1, 1, 2, 3, 2)],
    ),
    (
        "interpolate_nearest_exact",
        lambda F, x: F.interpolate(x, scale_factor=0.6, mode="nearest-exact"),
        [f32(1, 2, 7, 9)],
    ),
    (
        "interpolate_bilinear_recompute",
        lambda F, x: F.interpolate(
            x, scale_factor=1.7, mode="bilinear", recompute_scale_factor=True
        ),
        [f32(1, 2, 5, 6)],
    ),
    (
        "interpolate_bilinear_down",
        lambda F, x: F.interpolate(x, size=(3, 2), mode="bilinear"),
        [f32(2, 2, 7, 5)],
    ),
    (
        "interpolate_bilinear_corners",
        lambda F, x: F.interpolate(x, size=(9, 4), mode="bilinear", align_corners=True),
        [f32(1, 3, 4, 6)],
    ),
    (
        "interpolate_linear_scale",
        lambda F, x: F.interpolate(x, scale_factor=2.5, mode="linear"),
        [f32(2, 2, 5)],
    ),
    (
        "interpolate_bicubic_corners",
        lambda F, x: F.interpolate(x, scale_factor=1.6, mode="bicubic", align_corners=True),
        [f32(1, 2, 4, 5)],
    ),
    (
        "interpolate_bicubic_down",
        lambda F, x: F.interpolate(x, size=(3, 4), mode="bicubic"),
        [f32(1, 2, 7, 9)],
    ),
    (
        "interpolate_trilinear",
        lambda F, x: F.interpolate(x, size=(3, 5, 4), mode="trilinear"),
        [f32(1, 2, 2, 3, 3)],
    ),
    (
        "interpolate_area",
        lambda F, x: F.interpolate(x, size=(3, 4), mode="area"),
        [f32(1, 2, 7, 9)],
    ),
    ("pixel_unshuffle", lambda F, x: F.pixel_unshuffle(x, 3), [f32(2, 2, 6, 9)]),
    ("pixel_shuffle_batch_dims", lambda F, x: F.pixel_shuffle(x, 2), [f32(2, 3, 8, 2, 3)]),
    ("channel_shuffle", lambda F, x: F.channel_shuffle(x, 3), [f32(2, 6, 2, 2)]),
    # pooling
    (
        "adaptive_max_pool2d_uneven",
        lambda F, x: F.adaptive_max_pool2d(x, (3, 4)),
        [f32(2, 3, 7, 10)],
    ),
    ("adaptive_avg_pool3d", lambda F, x: F.adaptive_avg_pool3d(x, (2, 3, 1)), [f32(1, 2, 5, 7, 3)]),
    ("max_pool3d_stride", lambda F, x: F.max_pool3d(x, 3, 2, 1), [f32(1, 2, 5, 6, 7)]),
    (
        "avg_pool3d_ceil",
        lambda F, x: F.avg_pool3d(x, 2, ceil_mode=True, count_include_pad=False),
        [f32(1, 2, 5, 5, 5)],
    ),
    (
        "max_pool3d_indices",
        lambda F, x: F.max_pool3d(x, 2, 1, 1, return_indices=True),
        [f32(1, 2, 3, 4, 3)],
    ),
    (
        "max_pool2d_indices_ceil",
        lambda F, x: F.max_pool2d_with_indices(x, 3, 2, ceil_mode=True),
        [f32(2, 2, 6, 7)],
    ),
    (
        "max_unpool2d_output_size",
        lambda F, x: F.max_unpool2d(
            *F.max_pool2d(x, 2, return_indices=True), 2, output_size=[5, 7]
        ),
        [f32(1, 2, 5, 7)],
    ),
    (
        "max_unpool1d",
        lambda F, x: F.max_unpool1d(*F.max_pool1d(x, 3, return_indices=True), 3),
        [f32(2, 2, 9)],
    ),
    (
        "adaptive_max_pool1d_indices",
        lambda F, x: F.adaptive_max_pool1d(x, 4, return_indices=True),
        [f32(2, 3, 9)],
    ),
    ("lp_pool2d_int", lambda F, x: F.lp_pool2d(x.abs() + 0.1, 2.0, 2), [f32(1, 2, 6, 6)]),
    # normalization
    ("instance_norm_stats", lambda F, x: F.instance_norm(x, use_input_stats=True), [f32(2, 3, 5)]),
    ("rms_norm_weight", lambda F, x, w: F.rms_norm(x, [4], w, 1e-6), [f32(3, 4), f32(4)]),
    (
        "local_response_norm_4d",
        lambda F, x: F.local_response_norm(x, 4, alpha=0.1, beta=0.5, k=2.0),
        [f32(2, 6, 3, 3)],
    ),
    ("normalize_p1", lambda F, x: F.normalize(x, p=1.0, dim=0), [f32(4, 3)]),
    # lookup tables
    (
        "embedding_bag_per_sample_weights",
        lambda F, i, w, o, p: F.embedding_bag(i, w, o, mode="sum", per_sample_weights=p),
        [idx(10, 7), f32(10, 3), np.array([0, 2, 2, 5], dtype=np.int64), f32(7)],
    ),
    (
        "embedding_bag_last_offset",
        lambda F, i, w, o: F.embedding_bag(i, w, o, include_last_offset=True),
        [idx(10, 7), f32(10, 3), np.array([0, 3, 7], dtype=np.int64)],
    ),
    (
        "embedding_bag_padding",
        lambda F, i, w: F.embedding_bag(i, w, padding_idx=2),
        [np.array([[2, 1, 2], [2, 2, 2], [0, 3, 4]], dtype=np.int64), f32(6, 3)],
    ),
    (
        "embedding_bag_max",
        lambda F, i, w, o: F.embedding_bag(i, w, o, mode="max"),
        [idx(10, 8), f32(10, 4), np.array([0, 1, 5], dtype=np.int64)],
    ),
    (
        "embedding_max_norm",
        lambda F, i, w: F.embedding(i, w * 3, max_norm=1.0),
        [idx(6, 2, 3), f32(6, 4)],
    ),
    # activations, linear, distances, attention
    ("rrelu_eval", lambda F, x: F.rrelu(x, 0.1, 0.3, training=False), [f32(3, 4)]),
    (
        "bilinear_batched",
        lambda F, a, b, w, c: F.bilinear(a, b, w, c),
        [f32(2, 3, 4), f32(2, 3, 5), f32(6, 4, 5), f32(6)],
    ),
    (
        "cosine_similarity_dim",
        lambda F, a, b: F.cosine_similarity(a, b, dim=0),
        [f32(4, 3), f32(4, 3)],
    ),
    (
        "pairwise_distance_inf",
        lambda F, a, b: F.pairwise_distance(a, b, p=float("inf")),
        [f32(4, 3), f32(4, 3)],
    ),
    ("softmin_implicit", lambda F, x: F.softmin(x, dim=1), [f32(2, 5)]),
    (
        "mha_forward_masks",
        lambda F, q, w, b, ow, ob, m, kpm: F.multi_head_attention_forward(
            q,
            q,
            q,
            8,
            2,
            w,
            b,
            None,
            None,
            False,
            0.0,
            ow,
            ob,
            training=False,
            key_padding_mask=kpm,
            attn_mask=m,
            average_attn_weights=False,
        ),
        [
            f32(5, 2, 8),
            f32(24, 8),
            f32(24),
            f32(8, 8),
            f32(8),
            f32(5, 5),
            np.array([[False, False, False, True, True], [False] * 5]),
        ],
    ),
    # losses, with reductions
    (
        "multilabel_margin_unbatched",
        lambda F, x, t: F.multilabel_margin_loss(x, t),
        [f32(4), np.array([2, -1, 0, 1], dtype=np.int64)],
    ),
    (
        "multi_margin_weight",
        lambda F, x, t, w: F.multi_margin_loss(x, t, weight=w.abs().detach(), reduction="sum"),
        [f32(3, 4), idx(4, 3), f32(4)],
    ),
    (
        "poisson_nll_none",
        lambda F, x, t: F.poisson_nll_loss(x, t.abs(), reduction="none"),
        [f32(3, 4), f32(3, 4)],
    ),
    (
        "gaussian_nll_unsqueezed",
        lambda F, x, t, v: F.gaussian_nll_loss(x, t, v.abs() + 0.1),
        [f32(3, 4), f32(3, 4), f32(3)],
    ),
    (
        "triplet_margin_p1",
        lambda F, a, p, n: F.triplet_margin_loss(a, p, n, p=1.0, reduction="none"),
        [f32(4, 5), f32(4, 5), f32(4, 5)],
    ),
    (
        "kl_div_sum",
        lambda F, x, t: F.kl_div(x, t.softmax(1), reduction="sum"),
        [f32(3, 4), f32(3, 4)],
    ),
]


@pytest.mark.parametrize(("name", "fn", "specs"), CASES, ids=[c[0] for c in CASES])
def test_functional_matches_pytorch(name, fn, specs):
    rng = np.random.RandomState(0)
    raw = [_make(s, rng) for s in specs]
    ours = [tsjit.tensor(a.copy()) for a in raw]
    theirs = [torch.from_numpy(a.copy()) for a in raw]
    for a, b in zip(ours, theirs, strict=True):
        if b.is_floating_point():
            a.requires_grad_(True)
            b.requires_grad_(True)
    expected = fn(torch.nn.functional, *theirs)
    actual = fn(tsjit.nn.functional, *ours)
    assert_close(actual, expected, 1e-4, 1e-5, name)
    weights = [
        None if e is None else rng.standard_normal(e.shape).astype(e.dtype)
        for e in arrays(expected)
    ]

    def projection(out, lib):
        flat = out if isinstance(out, (tuple, list)) else [out]
        total = None
        for o, w in zip(flat, weights, strict=True):
            if o is None or not o.is_floating_point() or not o.requires_grad:
                continue
            term = (o * lib.tensor(w)).sum()
            total = term if total is None else total + term
        return total

    their_total = projection(expected, torch)
    if their_total is None:
        return
    their_total.backward()
    projection(actual, tsjit).backward()
    for i, (a, b) in enumerate(zip(ours, theirs, strict=True)):
        if b.grad is not None:
            np.testing.assert_allclose(
                a.grad.numpy(), b.grad.numpy(), rtol=1e-3, atol=1e-4, err_msg=f"{name}: grad {i}"
            )
