"""Reductions, scans and sorting: values on hand-checkable inputs, PyTorch's dtype rules, errors."""

from __future__ import annotations

import math

import numpy as np
import pytest
import ts_runtime as ts

X = [[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]]


def x(dtype=ts.float32):
    return ts.tensor(X, dtype=dtype)


def test_sum_and_mean():
    t = x()
    assert t.sum().item() == 21.0 and t.sum().dim() == 0
    assert t.sum(0).tolist() == [5.0, 7.0, 9.0]
    assert t.sum(1, keepdim=True).tolist() == [[9.0], [12.0]]
    assert t.sum((0, 1)).item() == 21.0
    assert t.sum([]).item() == 21.0
    assert t.mean().item() == 3.5
    assert t.mean(1).tolist() == [3.0, 4.0]
    assert t.mean(-1, keepdim=True).shape == ts.Size([2, 1])


@pytest.mark.parametrize(
    ("dtype", "expected"),
    [
        (ts.bool, ts.int64),
        (ts.uint8, ts.int64),
        (ts.int32, ts.int64),
        (ts.float32, ts.float32),
        (ts.float64, ts.float64),
    ],
)
def test_sum_prod_cumsum_dtypes(dtype, expected):
    t = ts.ones(2, 3, dtype=dtype)
    assert t.sum().dtype == expected
    assert t.sum(0).dtype == expected
    assert t.prod().dtype == expected
    assert t.cumsum(1).dtype == expected
    assert t.sum(dtype=ts.float64).dtype == ts.float64


def test_mean_of_integers_needs_a_dtype():
    with pytest.raises(ts.TensorError, match=r"could not infer output dtype.*Got: Long"):
        ts.tensor([1, 2]).mean()
    assert ts.tensor([1, 2]).mean(dtype=ts.float32).item() == 1.5


def test_prod():
    t = x(ts.float64)
    assert t.prod().item() == 720.0
    assert t.prod(1).tolist() == [15.0, 48.0]
    assert ts.tensor([[2, 3]], dtype=ts.int32).prod(1, keepdim=True).tolist() == [[6]]


def test_max_min_and_arg_reductions():
    t = x()
    assert t.max().item() == 6.0 and t.min().item() == 1.0
    values, indices = t.max(1)
    assert (
        values.tolist() == [5.0, 6.0] and indices.tolist() == [1, 2] and indices.dtype == ts.int64
    )
    result = t.min(0, keepdim=True)
    assert result.values.tolist() == [[1.0, 2.0, 3.0]] and result.indices.tolist() == [[0, 1, 0]]
    assert t.argmax().item() == 5 and t.argmin(1).tolist() == [0, 1]
    assert t.argmax(dim=None, keepdim=True).shape == ts.Size([1, 1])
    assert t.amax(0).tolist() == [4.0, 5.0, 6.0] and t.amin((0, 1)).item() == 1.0
    assert ts.max(t, ts.tensor([2.0, 2.0, 10.0])).tolist() == [[2.0, 5.0, 10.0], [4.0, 2.0, 10.0]]
    assert ts.tensor([1.0, math.nan, 3.0]).max().isnan().item()
    assert ts.tensor([True, False]).max().item() is True


def test_reduction_errors():
    with pytest.raises(ts.TensorError, match="Expected reduction dim to be specified"):
        ts.zeros(0).max()
    with pytest.raises(ts.DimensionError, match="Expected reduction dim 1 to have non-zero size"):
        ts.zeros(2, 0).max(1)
    with pytest.raises(ts.DimensionError, match="Dimension out of range"):
        x().sum(2)
    with pytest.raises(ts.TensorError, match="std and var only support floating point"):
        ts.tensor([1, 2]).var()
    with pytest.raises(ts.TensorError, match="Expected a floating point or complex tensor"):
        ts.tensor([1, 2]).norm()
    with pytest.raises(ts.TensorError, match="not implemented for 'Long'"):
        ts.tensor([1, 2]).softmax(0)
    with pytest.raises(ts.TensorError, match="selected index k out of range"):
        x().topk(4)


def test_var_std():
    t = ts.tensor([1.0, 2.0, 3.0, 4.0], dtype=ts.float64)
    assert t.var().item() == pytest.approx(5 / 3)
    assert t.var(unbiased=False).item() == pytest.approx(1.25)
    assert t.var(correction=0).item() == pytest.approx(1.25)
    assert t.std(0).item() == pytest.approx(math.sqrt(5 / 3))
    assert math.isnan(ts.tensor([1.0]).var().item())
    var, mean = ts.var_mean(t)
    assert var.item() == pytest.approx(5 / 3) and mean.item() == 2.5


def test_norms():
    t = ts.tensor([[3.0, -4.0], [0.0, 0.0]])
    assert t.norm().item() == 5.0
    assert t.norm(1).item() == 7.0
    assert t.norm(float("inf")).item() == 4.0
    assert t.norm(0).item() == 2.0
    assert t.norm(2, 1).tolist() == [5.0, 0.0]
    assert t.norm(3).item() == pytest.approx((27 + 64) ** (1 / 3))


def test_logsumexp_softmax():
    t = ts.tensor([[0.0, math.log(3.0)], [1000.0, 1000.0]], dtype=ts.float64)
    assert t.logsumexp(1).tolist() == pytest.approx([math.log(4.0), 1000.0 + math.log(2.0)])
    np.testing.assert_allclose(t.softmax(1).numpy(), [[0.25, 0.75], [0.5, 0.5]])
    assert t.log_softmax(1).exp().sum(1).tolist() == pytest.approx([1.0, 1.0])
    assert ts.tensor([1, 2]).softmax(0, dtype=ts.float64).dtype == ts.float64
    assert ts.tensor(3.0).softmax(0).item() == 1.0


def test_scans():
    t = ts.tensor([[1, 2, 3], [4, 5, 6]])
    assert t.cumsum(1).tolist() == [[1, 3, 6], [4, 9, 15]]
    assert t.cumprod(0).tolist() == [[1, 2, 3], [4, 10, 18]]
    assert ts.tensor([True, True]).cumsum(0).tolist() == [1, 2]


def test_logical_reductions_and_counting():
    b = ts.tensor([[True, False], [True, True]])
    assert b.all().item() is False and b.any().item() is True
    assert b.all(1).tolist() == [False, True] and b.any(0, keepdim=True).tolist() == [[True, True]]
    assert ts.tensor([1, 2], dtype=ts.uint8).all().dtype == ts.uint8
    assert ts.tensor([0.0, 1.0]).any().dtype == ts.bool
    assert ts.tensor([[0, 1], [2, 0]]).count_nonzero().item() == 2
    assert ts.tensor([[0, 1], [2, 0]]).count_nonzero(0).tolist() == [1, 1]


def test_sorting():
    t = ts.tensor([3.0, 1.0, 2.0, 1.0, math.nan])
    values, indices = t.sort()
    assert values.tolist()[:4] == [1.0, 1.0, 2.0, 3.0] and math.isnan(values.tolist()[4])
    assert indices.tolist() == [1, 3, 2, 0, 4]
    values, indices = t.sort(descending=True)
    assert indices.tolist() == [4, 0, 2, 1, 3]  # NaN first; ties keep their order
    assert t.argsort().tolist() == [1, 3, 2, 0, 4]
    top = ts.tensor([[1.0, 5.0, 3.0]]).topk(2)
    assert top.values.tolist() == [[5.0, 3.0]] and top.indices.tolist() == [[1, 2]]
    assert ts.tensor([1.0, 5.0, 3.0]).topk(1, largest=False).values.tolist() == [1.0]


def test_median_is_the_lower_middle_value():
    assert ts.tensor([4.0, 1.0, 3.0, 2.0]).median().item() == 2.0
    m = ts.tensor([[4.0, 1.0, 3.0], [9.0, 7.0, 8.0]]).median(1)
    assert m.values.tolist() == [3.0, 8.0] and m.indices.tolist() == [2, 2]
    assert math.isnan(ts.tensor([1.0, math.nan]).median().item())


def test_whole_tensor_comparisons():
    a = ts.tensor([1.0, 2.0])
    assert ts.equal(a, ts.tensor([1.0, 2.0])) is True
    assert ts.equal(a, ts.tensor([1.0])) is False
    assert ts.allclose(a, a + 1e-9) is True
    assert ts.allclose(a, a + 1) is False
    assert ts.isclose(a, ts.tensor([1.0, 2.1]), atol=0.05).tolist() == [True, False]
    with pytest.raises(ts.TensorError, match="Float did not match Double"):
        ts.isclose(a, a.double())


def test_reductions_in_the_interpreter():
    from ts_ir import parse_ir

    graph = parse_ir(
        """graph(%x : Tensor):
  %none : NoneType = prim::Constant()
  %f : bool = prim::Constant[value=0]()
  %1 : int = prim::Constant[value=1]()
  %dims : int[] = prim::ListConstruct(%1)
  %s : Tensor = aten::sum(%x, %dims, %f, %none)
  %m : Tensor, %i : Tensor = aten::max(%x, %1, %f)
  %p : Tensor = aten::softmax(%x, %1, %none)
  return (%s, %m, %i, %p)
"""
    )
    s, m, i, p = ts.Function("f", graph)(x())
    assert s.tolist() == [9.0, 12.0] and m.tolist() == [5.0, 6.0] and i.tolist() == [1, 2]
    np.testing.assert_allclose(p.sum(1).numpy(), [1.0, 1.0], rtol=1e-6)
