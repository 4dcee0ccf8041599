"""Factories: dtype inference, ranges, `tensor`, devices, `requires_grad`, random sampling."""

from __future__ import annotations

import numpy as np
import pytest
import ts_runtime as ts


def test_zeros_ones_full_empty():
    assert ts.zeros(2, 3).tolist() == [[0.0] * 3] * 2 and ts.zeros(2, 3).dtype == ts.float32
    assert ts.ones([2], dtype=ts.int32).tolist() == [1, 1]
    assert ts.zeros((0, 3)).shape == ts.Size([0, 3])
    assert ts.empty(2, 2).tolist() == [[0.0, 0.0], [0.0, 0.0]]
    assert ts.full([2], 3).dtype == ts.int64
    assert ts.full([2], 2.5).dtype == ts.float32
    assert ts.full([1], True).dtype == ts.bool
    assert ts.full([2], 2.5, dtype=ts.int64).tolist() == [2, 2]
    with pytest.raises(ts.TensorError, match="Dimension size must be non-negative"):
        ts.zeros(-1)


def test_like_and_new_factories():
    x = ts.ones(2, 3, dtype=ts.float64)
    assert ts.zeros_like(x).dtype == ts.float64 and ts.zeros_like(x).shape == x.shape
    assert ts.ones_like(x, dtype=ts.int32).dtype == ts.int32
    assert ts.full_like(x, 7).tolist() == [[7.0] * 3] * 2
    assert ts.empty_like(x).shape == x.shape
    assert x.new_zeros(4).dtype == ts.float64
    assert x.new_full((2,), 5).tolist() == [5.0, 5.0]
    assert x.new_tensor([1, 2]).dtype == ts.float64


def test_arange_dtype_inference_and_values():
    assert ts.arange(5).tolist() == [0, 1, 2, 3, 4] and ts.arange(5).dtype == ts.int64
    assert ts.arange(2, 5).tolist() == [2, 3, 4]
    assert ts.arange(10, 0, -3).tolist() == [10, 7, 4, 1]
    assert ts.arange(5.0).dtype == ts.float32
    assert ts.arange(0, 1, 0.25).tolist() == [0.0, 0.25, 0.5, 0.75]
    assert ts.arange(0, 3, dtype=ts.float64).dtype == ts.float64
    assert len(ts.arange(0.0, 1.0, 0.1)) == 10
    with pytest.raises(ts.TensorError, match="step must be nonzero"):
        ts.arange(0, 5, 0)
    with pytest.raises(ts.TensorError, match="inconsistent with step sign"):
        ts.arange(5, 0, 1)


def test_linspace_and_eye():
    assert ts.linspace(0, 1, 5).tolist() == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert ts.linspace(0, 10, 5, dtype=ts.int64).tolist() == [0, 2, 5, 7, 10]
    assert ts.linspace(3, 3, 1).tolist() == [3.0] and ts.linspace(0, 1, 0).tolist() == []
    assert ts.linspace(-1, 1, 3).dtype == ts.float32
    with pytest.raises(ts.TensorError, match="non-negative"):
        ts.linspace(0, 1, -1)
    assert ts.eye(2).tolist() == [[1.0, 0.0], [0.0, 1.0]]
    assert ts.eye(2, 3, dtype=ts.int64).tolist() == [[1, 0, 0], [0, 1, 0]]


def test_tensor_and_scalar_tensor():
    assert ts.tensor(3).dtype == ts.int64 and ts.tensor(3).dim() == 0
    assert ts.tensor(2.5).dtype == ts.float32
    assert ts.tensor(True).dtype == ts.bool
    assert ts.tensor([1, 2.0]).dtype == ts.float32
    assert ts.tensor([[1, 2]], dtype=ts.float64).dtype == ts.float64
    assert ts.scalar_tensor(3).dtype == ts.float32
    t = ts.tensor([1.0, 2.0], requires_grad=True)
    assert t.requires_grad and t.is_leaf
    with pytest.raises(ts.TensorError, match="floating point"):
        ts.tensor([1, 2], requires_grad=True)
    x = ts.ones(2)
    assert ts.as_tensor(x) is x
    assert ts.as_tensor(x, dtype=ts.int64).dtype == ts.int64


def test_devices_and_requires_grad_keywords():
    assert ts.zeros(2, device="cpu").device == ts.device("cpu")
    with pytest.raises(ts.TensorError, match="cuda"):
        ts.ones(2, device="cuda")
    with pytest.raises(ts.TensorError, match="cuda"):
        ts.tensor([1.0], device="cuda:0")
    z = ts.zeros(2, 2, requires_grad=True)
    assert z.requires_grad and z.is_leaf
    assert ts.arange(3.0, requires_grad=True).requires_grad
    assert ts.randn(2, requires_grad=True).requires_grad


def test_factories_in_the_interpreter():
    from ts_ir import parse_ir

    graph = parse_ir(
        """graph(%n : int):
  %none : NoneType = prim::Constant()
  %2 : int = prim::Constant[value=2]()
  %7 : int = prim::Constant[value=7]()
  %0 : int = prim::Constant[value=0]()
  %size : int[] = prim::ListConstruct(%2, %n)
  %a : Tensor = aten::ones(%size, %7, %none, %none, %none)
  %b : Tensor = aten::arange(%0, %n, %2, %none, %none, %none, %none)
  %c : Tensor = aten::zeros_like(%a, %none, %none, %none, %none, %none)
  return (%a, %b, %c)
"""
    )
    a, b, c = ts.Function("f", graph)(5)
    assert a.dtype == ts.float64 and a.shape == ts.Size([2, 5])
    assert b.tolist() == [0, 2, 4] and c.sum().item() == 0.0


def test_random_is_reproducible_under_manual_seed():
    ts.manual_seed(123)
    a = (ts.rand(3), ts.randn(2, 2), ts.randint(0, 10, (4,)), ts.randperm(5))
    ts.manual_seed(123)
    b = (ts.rand(3), ts.randn(2, 2), ts.randint(0, 10, (4,)), ts.randperm(5))
    for x, y in zip(a, b, strict=True):
        assert x.tolist() == y.tolist()
    ts.manual_seed(124)
    assert ts.rand(3).tolist() != a[0].tolist()


def test_random_distributions_and_dtypes():
    ts.manual_seed(0)
    u = ts.rand(10000)
    assert u.dtype == ts.float32 and 0.0 <= u.min().item() and u.max().item() < 1.0
    assert abs(u.mean().item() - 0.5) < 0.02
    n = ts.randn(10000, dtype=ts.float64)
    assert n.dtype == ts.float64 and abs(n.mean().item()) < 0.05 and abs(n.std().item() - 1) < 0.05
    r = ts.randint(3, 6, (1000,))
    assert r.dtype == ts.int64 and set(r.tolist()) == {3, 4, 5}
    assert sorted(ts.randperm(6).tolist()) == list(range(6))
    assert ts.rand_like(ts.zeros(2, dtype=ts.float64)).dtype == ts.float64
    assert ts.randint_like(ts.zeros(3), 4).dtype == ts.float32
    b = ts.bernoulli(ts.full([2000], 0.3))
    assert set(np.unique(b.numpy()).tolist()) <= {0.0, 1.0}
    assert abs(b.mean().item() - 0.3) < 0.05
    x = ts.zeros(1000)
    x.uniform_(2.0, 3.0)
    assert 2.0 <= x.min().item() and x.max().item() < 3.0
    x.normal_(5.0, 0.1)
    assert abs(x.mean().item() - 5.0) < 0.05
    with pytest.raises(ts.TensorError, match="not implemented for 'int64'"):
        ts.rand(2, dtype=ts.int64)
    with pytest.raises(ts.TensorError, match="from=5 >= to=5"):
        ts.randint(5, 5, (2,))


@pytest.mark.parametrize(
    ("make", "sizes"),
    [
        (lambda: ts.ones(2, -1), r"\[2, -1\]"),
        (lambda: ts.empty(-1), r"\[-1\]"),
        (lambda: ts.full((2, -1), 1.0), r"\[2, -1\]"),
        (lambda: ts.rand(2, -1), r"\[2, -1\]"),
        (lambda: ts.ones(2).new_ones(2, -1), r"\[2, -1\]"),
    ],
)
def test_negative_sizes_are_refused_with_pytorchs_message(make, sizes):
    with pytest.raises(
        ts.TensorError, match=r"^Trying to create tensor with negative dimension -1: " + sizes
    ):
        make()


def _triangle(row, col, offset, upper):
    """The coordinates of a triangle by the definition, row by row."""
    pairs = [
        (i, j)
        for i in range(row)
        for j in range(col)
        if (j - i >= offset if upper else j - i <= offset)
    ]
    return [[i for i, _ in pairs], [j for _, j in pairs]]


@pytest.mark.parametrize(
    ("row", "col", "offset"), [(3, 3, 0), (4, 3, 1), (3, 5, -1), (0, 3, 0), (3, 4, -5), (2, 6, 3)]
)
def test_triu_and_tril_indices_list_the_triangle_row_by_row(row, col, offset):
    upper = ts.triu_indices(row, col, offset)
    lower = ts.tril_indices(row, col, offset)
    assert upper.dtype == ts.int64 and lower.dtype == ts.int64
    assert upper.shape == (2, len(_triangle(row, col, offset, True)[0]))
    assert upper.tolist() == _triangle(row, col, offset, True)
    assert lower.tolist() == _triangle(row, col, offset, False)
    assert ts.triu_indices(row, col, offset, dtype=ts.int32).dtype == ts.int32
    with pytest.raises(ts.TensorError, match="integer dtypes"):
        ts.tril_indices(row, col, dtype=ts.float32)
    with pytest.raises(ts.TensorError, match="row must be non-negative"):
        ts.triu_indices(-1, col)
