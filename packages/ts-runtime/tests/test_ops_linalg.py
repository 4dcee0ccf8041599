"""Matrix products: values, every rank combination of matmul, dtypes kept, errors."""

from __future__ import annotations

import numpy as np
import pytest
import ts_runtime as ts

A = [[1.0, 2.0], [3.0, 4.0]]
B = [[5.0, 6.0], [7.0, 8.0]]


def test_mm_bmm_values_and_float32_stays_float32():
    a, b = ts.tensor(A), ts.tensor(B)
    assert a.mm(b).tolist() == [[19.0, 22.0], [43.0, 50.0]]
    assert a.mm(b).dtype == ts.float32
    assert ts.stack([a, b]).bmm(ts.stack([b, a])).tolist() == [
        [[19.0, 22.0], [43.0, 50.0]],
        [[23.0, 34.0], [31.0, 46.0]],
    ]
    assert ts.tensor([[1, 2]]).mm(ts.tensor([[3], [4]])).tolist() == [[11]]


@pytest.mark.parametrize(
    ("a_shape", "b_shape", "out_shape"),
    [
        ((3,), (3,), ()),
        ((2, 3), (3,), (2,)),
        ((3,), (3, 4), (4,)),
        ((2, 3), (3, 4), (2, 4)),
        ((5, 2, 3), (3,), (5, 2)),
        ((3,), (5, 3, 4), (5, 4)),
        ((5, 2, 3), (3, 4), (5, 2, 4)),
        ((2, 3), (5, 3, 4), (5, 2, 4)),
        ((2, 1, 2, 3), (5, 3, 4), (2, 5, 2, 4)),
    ],
)
def test_matmul_rank_combinations(a_shape, b_shape, out_shape):
    rng = np.random.default_rng(0)
    a = rng.standard_normal(a_shape).astype(np.float32)
    b = rng.standard_normal(b_shape).astype(np.float32)
    out = ts.from_numpy(a) @ ts.from_numpy(b)
    assert tuple(out.shape) == out_shape and out.dtype == ts.float32
    # the sum over the contracted dim, written out
    a2 = a if a.ndim > 1 else a[None]
    b2 = b if b.ndim > 1 else b[:, None]
    expected = (a2[..., :, :, None] * b2[..., None, :, :]).sum(-2).reshape(out_shape)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-5, atol=1e-6)


def test_addmm_addmv_mv_dot_outer_baddbmm():
    a, b = ts.tensor(A), ts.tensor(B)
    c = ts.tensor([1.0, -1.0])
    assert ts.addmm(c, a, b).tolist() == [[20.0, 21.0], [44.0, 49.0]]
    assert ts.addmm(c, a, b, beta=0, alpha=2).tolist() == [[38.0, 44.0], [86.0, 100.0]]
    assert ts.mv(a, c).tolist() == [-1.0, -1.0]
    assert ts.addmv(c, a, c, beta=2).tolist() == [1.0, -3.0]
    assert ts.dot(c, c).item() == 2.0 and ts.dot(c, c).dim() == 0
    assert ts.outer(c, ts.tensor([1.0, 2.0, 3.0])).tolist() == [[1.0, 2.0, 3.0], [-1.0, -2.0, -3.0]]
    assert ts.outer(ts.tensor([1, 2]), ts.tensor([0.5])).dtype == ts.float32
    out = ts.baddbmm(ts.ones(1, 2, 2), ts.stack([a]), ts.stack([b]), beta=2)
    assert out.tolist() == [[[21.0, 24.0], [45.0, 52.0]]]
    assert ts.trace(a).item() == 5.0 and ts.diag(c).tolist() == [[1.0, 0.0], [0.0, -1.0]]


def test_linear():
    x = ts.tensor([[1.0, 2.0]])
    w = ts.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    b = ts.tensor([0.5, 0.5, 0.5])
    assert ts.nn.functional.linear(x, w, b).tolist() == [[1.5, 2.5, 3.5]]
    assert ts.nn.functional.linear(ts.tensor([1.0, 2.0]), w).tolist() == [1.0, 2.0, 3.0]
    assert tuple(ts.nn.functional.linear(ts.ones(4, 5, 2), w).shape) == (4, 5, 3)


def test_einsum():
    a, b = ts.tensor(A), ts.tensor(B)
    assert ts.einsum("ij,jk->ik", a, b).tolist() == [[19.0, 22.0], [43.0, 50.0]]
    assert ts.einsum("ij,jk", [a, b]).tolist() == [[19.0, 22.0], [43.0, 50.0]]
    assert ts.einsum("ii", a).item() == 5.0
    assert ts.einsum("ij->j", a).tolist() == [4.0, 6.0]
    assert ts.einsum("...ij->...ji", ts.stack([a, b])).tolist() == [
        [[1.0, 3.0], [2.0, 4.0]],
        [[5.0, 7.0], [6.0, 8.0]],
    ]
    with pytest.raises(ts.TensorError, match="more operands"):
        ts.einsum("ij->i", a, b)


@pytest.mark.parametrize(
    ("fn", "match"),
    [
        (lambda: ts.ones(2, 3).mm(ts.ones(2, 3)), r"cannot be multiplied \(2x3 and 2x3\)"),
        (lambda: ts.ones(3).mm(ts.ones(3, 2)), "self must be a matrix"),
        (lambda: ts.ones(2, 2).mm(ts.ones(2, 2, dtype=ts.float64)), "same dtype"),
        (lambda: ts.ones(2, 2, 2).bmm(ts.ones(3, 2, 2)), "same number of batches"),
        (lambda: ts.matmul(ts.tensor(1.0), ts.ones(2)), "at least 1D"),
        (lambda: ts.dot(ts.ones(2), ts.ones(3)), "inconsistent tensor size"),
        (lambda: ts.dot(ts.ones(2), ts.ones(2, dtype=ts.int64)), "same dtype"),
        (lambda: ts.outer(ts.ones(2, 2), ts.ones(2)), "Expected 1-D argument self"),
        (lambda: ts.mv(ts.ones(2, 3), ts.ones(2)), "size mismatch"),
        (
            lambda: ts.ones(2, 2, dtype=ts.bool).mm(ts.ones(2, 2, dtype=ts.bool)),
            "not implemented for 'Bool'",
        ),
    ],
)
def test_linalg_errors(fn, match):
    with pytest.raises(ts.TensorError, match=match):
        fn()


@pytest.mark.parametrize(
    ("m", "k", "n", "dtype"),
    [
        (64, 512, 2048, np.float32),  # wide: computed as the transposed product
        (16, 256, 1024, np.float64),
        (2048, 512, 64, np.float32),  # tall: straight to matmul
        (4, 3, 5, np.float32),  # small
        (64, 512, 2048, np.int64),  # integers: not BLAS
    ],
)
def test_matrix_products_are_row_ordered_and_equal_numpys(m, k, n, dtype):
    rng = np.random.default_rng(5)
    a = (rng.standard_normal((m, k)) * 4).astype(dtype)
    w = (rng.standard_normal((n, k)) * 4).astype(dtype)
    bias = (rng.standard_normal(n) * 4).astype(dtype)
    want = a @ w.T
    tol = {"rtol": 1e-4, "atol": 1e-3} if dtype == np.float32 else {"rtol": 1e-10, "atol": 1e-9}
    ta, tw, tb = ts.from_numpy(a), ts.from_numpy(w), ts.from_numpy(bias)
    products = {
        "mm": ta.mm(tw.t()),
        "matmul": ta.matmul(tw.t()),
        "linear": ts.nn.functional.linear(ta, tw),
        "addmm": ts.addmm(tb, ta, tw.t()) - tb,
    }
    for name, got in products.items():
        assert got.shape == (m, n) and got.dtype == ts.from_numpy(want).dtype, name
        assert got.is_contiguous() and got.stride() == (n, 1), name  # as PyTorch reports
        if dtype == np.int64:
            np.testing.assert_array_equal(got.numpy(), want, err_msg=name)
        else:
            np.testing.assert_allclose(got.numpy(), want, err_msg=name, **tol)
