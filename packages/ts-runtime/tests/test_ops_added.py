"""Operators added for real code, checked against numpy and independent math.

The same operators are checked against PyTorch in
integration_tests/oracle/test_added_ops_oracle.py; their gradients against
finite differences in test_autograd_gradcheck.py.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
import ts_runtime as ts
from ts_runtime.nn import functional as F
from ts_runtime.ops import out_variants
from ts_schema import registry

RNG = np.random.default_rng(11)


def arr(*shape, dtype=np.float64):
    return RNG.standard_normal(shape).astype(dtype)


# ---------------------------------------------------------------------------
# where(cond), bincount


@pytest.mark.parametrize("shape", [(5,), (3, 4), (2, 3, 2), (0, 3)])
def test_where_condition_is_numpy_nonzero(shape):
    a = arr(*shape)
    got = ts.where(ts.from_numpy(a) > 0)  # a tuple, as PyTorch's eager torch.where gives
    assert isinstance(got, tuple) and len(got) == len(shape)
    for g, e in zip(got, np.nonzero(a > 0), strict=True):
        assert g.dtype == ts.int64
        np.testing.assert_array_equal(g.numpy(), e)


def test_where_condition_of_a_zero_dim_tensor_is_one_dimensional():
    (hit,) = ts.where(ts.tensor(2.0))
    (miss,) = ts.where(ts.tensor(0))
    assert hit.tolist() == [0] and miss.tolist() == []


def test_bincount_is_numpy_bincount():
    x = RNG.integers(0, 7, 40)
    w = RNG.standard_normal(40).astype(np.float32)
    np.testing.assert_array_equal(ts.bincount(ts.from_numpy(x)).numpy(), np.bincount(x))
    got = ts.bincount(ts.from_numpy(x), ts.from_numpy(w), 9)
    assert got.dtype == ts.float32 and got.shape == (9,)
    np.testing.assert_allclose(got.numpy(), np.bincount(x, w, 9), rtol=1e-6)
    assert ts.bincount(ts.from_numpy(x), ts.from_numpy(x)).dtype == ts.float64


@pytest.mark.parametrize(
    "bad", [np.array([1, -2]), np.ones((2, 2), np.int64), np.ones(3, np.float32)]
)
def test_bincount_rejects_what_pytorch_rejects(bad):
    with pytest.raises(ts.TensorError):
        ts.bincount(ts.from_numpy(bad))


# ---------------------------------------------------------------------------
# addcmul, addcdiv


def test_addcmul_and_addcdiv_broadcast_and_scale():
    a, b, c = arr(3, 1), arr(4), arr(2, 1, 1)
    ta, tb, tc = (ts.from_numpy(x) for x in (a, b, c))
    np.testing.assert_allclose(ts.addcmul(ta, tb, tc, value=-0.5).numpy(), a - 0.5 * b * c)
    np.testing.assert_allclose(ts.addcdiv(ta, tb, tc, value=3).numpy(), a + 3 * b / c)


def test_addcmul_promotes_and_truncates_a_float_value_on_integers():
    i = ts.tensor([1, 2, 3], dtype=ts.int32)
    assert ts.addcmul(i, i, i, value=2.9).tolist() == [3, 10, 21]
    assert ts.addcmul(i, i, ts.tensor([0.5, 0.5, 0.5])).dtype == ts.float32


def test_addcdiv_of_two_integer_tensors_is_an_error():
    with pytest.raises(ts.TensorError, match="Integer division with addcdiv"):
        ts.addcdiv(ts.ones(2), ts.tensor([1, 2]), ts.tensor([3, 4]))


def test_inplace_addcmul_writes_into_self():
    a = ts.zeros(2, 3)
    out = a.addcmul_(ts.ones(3), ts.full([2, 3], 2.0), value=0.5)
    assert out is a and a.tolist() == [[1.0] * 3] * 2
    with pytest.raises(ts.TensorError, match="doesn't match the broadcast shape"):
        ts.zeros(3).addcmul_(ts.ones(2, 3), ts.ones(3))


# ---------------------------------------------------------------------------
# modified Bessel functions


X = np.array([0.0, 1e-4, -0.7, 2.0, -9.5, 29.0, 30.0, 31.0, -64.0, 300.0])


def test_i0_is_numpy_i0():
    np.testing.assert_allclose(ts.i0(ts.from_numpy(X)).numpy(), np.i0(X), rtol=1e-13)


def test_scaled_forms_are_the_unscaled_times_exp_minus_abs():
    scale = np.exp(-np.abs(X))
    np.testing.assert_allclose(
        ts.special.i0e(ts.from_numpy(X)).numpy(), np.i0(X) * scale, rtol=1e-12
    )
    i1 = ts.special.i1(ts.from_numpy(X)).numpy()
    np.testing.assert_allclose(
        ts.special.i1e(ts.from_numpy(X)).numpy(), i1 * scale, rtol=1e-12, atol=1e-300
    )


def test_i1_is_the_derivative_of_i0():
    h = 1e-5
    x = X[np.abs(X) < 40]
    numeric = (np.i0(x + h) - np.i0(x - h)) / (2 * h)
    np.testing.assert_allclose(
        ts.special.i1(ts.from_numpy(x)).numpy(), numeric, rtol=1e-7, atol=1e-9
    )


def test_bessel_of_integers_is_float32_and_overflows_like_float32():
    got = ts.i0(ts.tensor([0, 1, 100]))
    assert got.dtype == ts.float32 and math.isinf(got.tolist()[2])
    assert math.isfinite(ts.i0(ts.tensor([100.0], dtype=ts.float64)).item())


# ---------------------------------------------------------------------------
# scaled_dot_product_attention


def _attention(q, k, v, bias):
    s = q @ np.swapaxes(k, -1, -2) / math.sqrt(q.shape[-1]) + bias
    s = s - s.max(-1, keepdims=True)
    w = np.exp(s)
    return (w / w.sum(-1, keepdims=True)) @ v


def test_sdpa_matches_softmax_attention_with_masks():
    q, k, v = arr(2, 3, 4), arr(2, 5, 4), arr(2, 5, 6)
    mask = RNG.random((3, 5)) > 0.3
    mask[:, 0] = True
    got = F.scaled_dot_product_attention(*(ts.from_numpy(x) for x in (q, k, v)), ts.tensor(mask))
    np.testing.assert_allclose(got.numpy(), _attention(q, k, v, np.where(mask, 0, -np.inf)))
    bias = arr(3, 5)
    got = F.scaled_dot_product_attention(*(ts.from_numpy(x) for x in (q, k, v, bias)))
    np.testing.assert_allclose(got.numpy(), _attention(q, k, v, bias))


def test_sdpa_causal_and_fully_masked_rows():
    q, k, v = arr(4, 8), arr(4, 8), arr(4, 3)
    got = F.scaled_dot_product_attention(*(ts.from_numpy(x) for x in (q, k, v)), is_causal=True)
    causal = np.where(np.tril(np.ones((4, 4), bool)), 0, -np.inf)
    np.testing.assert_allclose(got.numpy(), _attention(q, k, v, causal))
    none = ts.zeros(4, 4, dtype=ts.bool)
    got = F.scaled_dot_product_attention(*(ts.from_numpy(x) for x in (q, k, v)), none)
    assert got.tolist() == [[0.0] * 3] * 4


# ---------------------------------------------------------------------------
# out= overloads


def test_every_out_overload_with_an_implemented_functional_form_has_a_kernel():
    missing = []
    for name in sorted(ts.ops.dispatch.implemented_names()):
        overloads = registry.lookup(name)
        for op in overloads:
            if out_variants.functional_of(op, overloads) is not None and not op.has_implementation:
                missing.append(op.key)
    assert missing == []
    assert registry.get("aten::add.out").has_implementation
    assert registry.get("aten::max.dim_max").has_implementation


def test_out_writes_resizes_and_returns_the_out_tensor():
    x, y = ts.tensor([1.0, 2.0]), ts.tensor([10.0, 20.0])
    out = ts.empty(0)
    assert ts.add(x, y, alpha=2, out=out) is out and out.tolist() == [21.0, 42.0]
    version = out._version_number
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ts.mul(x, 3.0, out=out)  # same shape: no warning
        big = ts.zeros(5)
        ts.mul(x, 3.0, out=big)
    assert out._version_number > version
    assert big.tolist() == [3.0, 6.0]
    assert [str(w.message).split(".")[0] for w in caught] == [
        "An output with one or more elements was resized since it had shape [5], which does "
        "not match the required output shape [2]"
    ]


def test_out_keeps_its_dtype_and_refuses_unsafe_casts():
    out = ts.empty(2, dtype=ts.float64)
    ts.add(ts.tensor([1, 2]), ts.tensor([3, 4]), out=out)
    assert out.dtype == ts.float64 and out.tolist() == [4.0, 6.0]
    with pytest.raises(ts.TensorError, match="can't be cast to the desired output type Long"):
        ts.div(ts.tensor([1, 2]), ts.tensor([3, 4]), out=ts.empty(2, dtype=ts.int64))


def test_factory_out_takes_the_dtype_of_out():
    out = ts.empty(0, dtype=ts.float64)
    ts.arange(0, 3, out=out)
    assert out.dtype == ts.float64 and out.tolist() == [0.0, 1.0, 2.0]
    with pytest.warns(UserWarning, match="was resized"):
        ts.zeros([2, 2], out=out)
    assert out.shape == (2, 2) and out.dtype == ts.float64


def test_out_refuses_autograd():
    x = ts.ones(2, requires_grad=True)
    with pytest.raises(ts.TensorError, match="don't support automatic differentiation"):
        ts.exp(x, out=ts.empty(2))
    with ts.no_grad():
        ts.exp(x, out=ts.empty(2))


# ---------------------------------------------------------------------------
# requests from real code


def test_a_gradient_arrives_in_its_outputs_dtype_after_promotion():
    x = ts.from_numpy(np.ones((2, 3), np.float32)).requires_grad_(True)
    y = ts.matmul(x, ts.from_numpy(np.ones((3, 2), np.float32)))
    (y * ts.from_numpy(np.ones((2, 2)))).sum().backward()  # float32 * float64 is float64
    assert x.grad.dtype == ts.float32
    np.testing.assert_array_equal(x.grad.numpy(), np.full((2, 3), 2.0, np.float32))


def test_python_ints_out_of_an_integer_dtypes_range_wrap_around():
    x = ts.tensor([255, 37], dtype=ts.uint8)
    assert (x & -32).tolist() == [224, 32]
    assert (x + -1).tolist() == [254, 36]
    assert (ts.tensor([1], dtype=ts.int8) * 200).tolist() == [-56]
