"""More added operators, against independent math: naive loops, the standard library, and
identities. (Against PyTorch: integration_tests/oracle/test_added_ops_oracle.py.)"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import ts_runtime as ts
from ts_runtime.nn import functional as F

RNG = np.random.default_rng(21)


def t(a):
    return ts.from_numpy(np.asarray(a))


# ---------------------------------------------------------------------------
# special functions


X = np.array([-3.7, -0.5, 0.25, 1.0, 2.5, 10.0, 42.0])


def test_lgamma_is_math_lgamma_and_digamma_its_derivative():
    np.testing.assert_allclose(ts.lgamma(t(X)).numpy(), [math.lgamma(v) for v in X], rtol=1e-13)
    h = 1e-6
    numeric = [(math.lgamma(v + h) - math.lgamma(v - h)) / (2 * h) for v in X]
    np.testing.assert_allclose(ts.digamma(t(X)).numpy(), numeric, rtol=1e-6, atol=1e-7)


def test_polygamma_is_the_series_of_inverse_powers():
    x = np.array([0.5, 1.0, 3.25])
    for n in (1, 2, 3):
        series = (
            np.array([sum(1.0 / (v + k) ** (n + 1) for k in range(200000)) for v in x])
            * (-1) ** (n + 1)
            * math.factorial(n)
        )
        np.testing.assert_allclose(ts.polygamma(n, t(x)).numpy(), series, rtol=2e-5)


def test_erfinv_inverts_erf():
    y = np.linspace(-0.999, 0.999, 41)
    x = ts.erfinv(t(y)).numpy()
    np.testing.assert_allclose([math.erf(v) for v in x], y, rtol=0, atol=1e-14)
    assert ts.erfinv(t([1.0, -1.0, 1.5])).tolist()[:2] == [math.inf, -math.inf]


def test_sinc_logit_xlogy_entr():
    x = np.array([-1.5, 0.0, 0.3, 2.0])
    want = [1.0 if v == 0 else math.sin(math.pi * v) / (math.pi * v) for v in x]
    np.testing.assert_allclose(ts.sinc(t(x)).numpy(), want, rtol=1e-14, atol=1e-16)
    p = np.array([0.1, 0.5, 0.8])
    np.testing.assert_allclose(ts.logit(t(p)).numpy(), np.log(p / (1 - p)))
    assert ts.xlogy(t([0.0, 2.0]), t([0.0, math.e])).tolist() == [0.0, 2.0]
    assert ts.special.entr(t([0.0, 1.0, -1.0])).tolist() == [0.0, -0.0, -math.inf]


# ---------------------------------------------------------------------------
# order statistics and scans


def test_kthvalue_mode_cummax_logcumsumexp():
    a = RNG.integers(0, 4, (3, 7)).astype(np.float64)
    values, _ = ts.kthvalue(t(a), 3, 1)
    np.testing.assert_array_equal(values.numpy(), np.sort(a, 1)[:, 2])
    mv, _ = ts.mode(t(a), 1)
    want = [min(k for k, c in Counter(r).items() if c == max(Counter(r).values())) for r in a]
    np.testing.assert_array_equal(mv.numpy(), want)
    cv, ci = ts.cummax(t(a), 1)
    np.testing.assert_array_equal(cv.numpy(), np.maximum.accumulate(a, 1))
    assert np.all(np.take_along_axis(a, ci.numpy(), 1) == cv.numpy())
    b = RNG.standard_normal((2, 5))
    np.testing.assert_allclose(
        ts.logcumsumexp(t(b), 1).numpy(), np.log(np.cumsum(np.exp(b), 1)), rtol=1e-12
    )


def test_scatter_reduce_matches_a_loop():
    x = RNG.standard_normal((2, 4))
    idx = np.array([[0, 1, 0], [2, 2, 3]])
    src = RNG.standard_normal((2, 3))
    reducers = {"sum": sum, "prod": math.prod, "amax": max, "amin": min}
    for name, fn in reducers.items():
        for include_self in (True, False):
            want = x.copy()
            for i in range(2):
                for j in range(4):
                    hits = [src[i, k] for k in range(3) if idx[i, k] == j]
                    if hits:
                        want[i, j] = fn(([x[i, j]] if include_self else []) + hits)
            got = ts.scatter_reduce(t(x), 1, t(idx), t(src), name, include_self=include_self)
            np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, err_msg=name)


# ---------------------------------------------------------------------------
# rearranging, distances


def test_unfold_and_repeat_interleave():
    a = np.arange(12.0).reshape(3, 4)
    got = t(a).unfold(1, 2, 1).numpy()
    want = np.stack([a[:, i : i + 2] for i in range(3)], 1)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(
        t(a).repeat_interleave(t([1, 0, 2]), dim=0).numpy(), np.repeat(a, [1, 0, 2], 0)
    )


def test_cross_cdist_cosine_similarity():
    a, b = RNG.standard_normal((5, 3)), RNG.standard_normal((5, 3))
    np.testing.assert_allclose(ts.linalg.cross(t(a), t(b)).numpy(), np.cross(a, b))
    c = RNG.standard_normal((4, 3))
    want = np.array([[np.linalg.norm(x - y) for y in c] for x in a])
    np.testing.assert_allclose(ts.cdist(t(a), t(c)).numpy(), want, rtol=1e-12)
    cos = (a * b).sum(1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))
    np.testing.assert_allclose(F.cosine_similarity(t(a), t(b)).numpy(), cos, rtol=1e-12)
