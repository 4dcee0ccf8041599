"""More added operators, against independent math: naive loops, the standard library, and
identities. (Against PyTorch: integration_tests/oracle/test_added_ops_oracle.py.)"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest
import ts_runtime as ts
from ts_runtime.nn import functional as F
from ts_runtime.ops.dispatch import call

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


# ---------------------------------------------------------------------------
# linear algebra, sets, windows


def test_inverse_solve_and_det_satisfy_their_definitions():
    a = RNG.standard_normal((2, 3, 3)) + 3 * np.eye(3)
    b = RNG.standard_normal((2, 3, 2))
    np.testing.assert_allclose(
        ts.inverse(t(a)).numpy() @ a, np.broadcast_to(np.eye(3), a.shape), atol=1e-12
    )
    np.testing.assert_allclose(a @ ts.linalg.solve(t(a), t(b)).numpy(), b, atol=1e-12)
    m = a[0]
    cofactor = (
        m[0, 0] * (m[1, 1] * m[2, 2] - m[1, 2] * m[2, 1])
        - m[0, 1] * (m[1, 0] * m[2, 2] - m[1, 2] * m[2, 0])
        + m[0, 2] * (m[1, 0] * m[2, 1] - m[1, 1] * m[2, 0])
    )
    assert math.isclose(ts.det(t(m)).item(), cofactor, rel_tol=1e-12)
    with pytest.raises(ts.TensorError, match="singular"):
        ts.inverse(t(np.zeros((2, 2))))


def test_cholesky_and_eigh_reconstruct_the_matrix():
    x = RNG.standard_normal((4, 4))
    spd = x @ x.T + 4 * np.eye(4)
    low = ts.linalg.cholesky(t(spd)).numpy()
    np.testing.assert_allclose(low @ low.T, spd, atol=1e-12)
    assert np.allclose(np.triu(low, 1), 0)
    w, v = ts.linalg.eigh(t(spd))
    np.testing.assert_allclose(v.numpy() @ np.diag(w.numpy()) @ v.numpy().T, spd, atol=1e-10)


def test_unique_searchsorted_histc_match_plain_python():
    x = RNG.integers(0, 5, 20)
    values, inverse, counts = ts._unique2(t(x), True, True, True)
    assert values.tolist() == sorted(set(x.tolist()))
    assert [values.tolist()[i] for i in inverse.tolist()] == x.tolist()
    assert counts.tolist() == [int((x == v).sum()) for v in values.tolist()]
    import bisect

    b = [0.0, 1.0, 2.5, 4.0]
    v = [-1.0, 1.0, 3.0, 5.0]
    assert ts.searchsorted(t(b), t(v)).tolist() == [bisect.bisect_left(b, q) for q in v]
    assert ts.searchsorted(t(b), t(v), right=True).tolist() == [
        bisect.bisect_right(b, q) for q in v
    ]
    h = np.array([0.0, 0.1, 0.5, 0.99, 1.0, 2.0])
    assert ts.histc(t(h), 2, 0, 1).tolist() == [2.0, 3.0]


def test_windows_follow_their_formulas():
    n = 6
    k = np.arange(n)
    np.testing.assert_allclose(
        ts.hann_window(n, False, dtype=ts.float64).numpy(),
        0.5 - 0.5 * np.cos(2 * np.pi * k / (n - 1)),
        atol=1e-15,
    )
    periodic = ts.hamming_window(n, dtype=ts.float64).numpy()
    np.testing.assert_allclose(periodic, 0.54 - 0.46 * np.cos(2 * np.pi * k / n), atol=1e-15)


# ---------------------------------------------------------------------------
# shifts, conjugate transposes, narrow_copy


@pytest.mark.parametrize("dtype", ["int64", "int32", "int16", "int8", "uint8"])
def test_shifts_are_integer_shifts_and_saturate_outside_the_width(dtype):
    bits = np.dtype(dtype).itemsize * 8
    signed = np.dtype(dtype).kind == "i"
    values = [5, -5, 1, 0, 100, -128, 127] if signed else [5, 200, 1, 0, 255, 128, 7]
    x = t(np.array(values, dtype=dtype))

    def wrap(v):  # two's complement in `bits`
        v &= (1 << bits) - 1
        return v - (1 << bits) if signed and v >> (bits - 1) else v

    for count in (0, 1, 3, bits - 1, bits, bits + 5, -1):
        inside = 0 <= count < bits
        left = [wrap(v << count) if inside else 0 for v in values]
        right = [v >> count if inside else (-1 if v < 0 else 0) for v in values]
        assert (x << count).tolist() == left, count
        assert (x >> count).tolist() == right, count
        assert (x << count).dtype == x.dtype
    counts = t(np.array([1, 2, 3, bits + 2, 0, 0, 1], dtype=dtype))
    assert ts.bitwise_left_shift(x, counts).tolist() == [
        wrap(v << c) if c < bits else 0 for v, c in zip(values, counts.tolist(), strict=True)
    ]
    with pytest.raises(ts.TensorError, match="lshift_cpu"):
        t(np.array([1.5])) << 1


def test_conjugate_transposes():
    a = np.arange(6.0).reshape(2, 3)
    z = a + 1j * a[::-1]
    for arr in (a, z):
        x = t(arr)
        np.testing.assert_array_equal(call("aten::mH", x).numpy(), arr.T.conj())
        np.testing.assert_array_equal(call("aten::matrix_H", x).numpy(), arr.T.conj())
        np.testing.assert_array_equal(ts.adjoint(x).numpy(), arr.T.conj())
        np.testing.assert_array_equal(call("aten::mT", x).numpy(), arr.T)
    batch = RNG.normal(size=(2, 3, 4)) + 1j * RNG.normal(size=(2, 3, 4))
    np.testing.assert_array_equal(
        call("aten::mH", t(batch)).numpy(), np.swapaxes(batch, -1, -2).conj()
    )
    with pytest.raises(ts.TensorError, match="2-D"):
        call("aten::matrix_H", t(batch))


def test_narrow_copy_is_a_copy_of_the_narrowed_part():
    x = t(np.arange(12.0).reshape(3, 4))
    y = ts.narrow_copy(x, 1, 1, 2)
    assert y.tolist() == [[1.0, 2.0], [5.0, 6.0], [9.0, 10.0]]
    y.fill_(0.0)
    assert x.tolist()[0] == [0.0, 1.0, 2.0, 3.0]
