"""`tensor[index]` and `tensor[index] = value`, and the indexing operators."""

from __future__ import annotations

import numpy as np
import pytest
import ts_runtime as ts


def grid(*shape):
    return ts.arange(int(np.prod(shape))).view(*shape)


def test_basic_indexing_gives_views():
    x = grid(3, 4)
    assert x[1].tolist() == [4, 5, 6, 7]
    assert x[-1, -2].item() == 10
    assert x[:, 1].tolist() == [1, 5, 9]
    assert x[1:, ::2].tolist() == [[4, 6], [8, 10]]
    assert x[..., 0].tolist() == [0, 4, 8]
    assert tuple(x[None].shape) == (1, 3, 4)
    assert tuple(x[:, None, 1].shape) == (3, 1)
    assert tuple(x[..., None].shape) == (3, 4, 1)
    v = x[1:, 2]
    v[0] = -1
    assert x[1, 2].item() == -1
    assert np.shares_memory(x[...].numpy(), x.numpy()) and x[...] is not x


def test_advanced_indexing_gives_copies():
    x = grid(3, 4)
    i = ts.tensor([2, 0, 2])
    assert x[i].tolist() == [[8, 9, 10, 11], [0, 1, 2, 3], [8, 9, 10, 11]]
    assert x[:, i].tolist() == [[2, 0, 2], [6, 4, 6], [10, 8, 10]]
    assert x[i, ts.tensor([0, 1, 3])].tolist() == [8, 1, 11]
    assert x[[0, 2]].tolist() == [[0, 1, 2, 3], [8, 9, 10, 11]]
    assert x[x > 8].tolist() == [9, 10, 11]
    assert x[ts.tensor([True, False, True])].tolist() == [[0, 1, 2, 3], [8, 9, 10, 11]]
    assert x[[True, False, True], 1].tolist() == [1, 9]
    assert tuple(x[1:, i, None].shape) == (2, 3, 1)
    assert tuple(grid(2, 3, 4)[ts.tensor([1, 0]), :, ts.tensor([0, 1])].shape) == (2, 3)
    assert tuple(x[True].shape) == (1, 3, 4) and tuple(x[False].shape) == (0, 3, 4)
    y = x[i]
    y[0, 0] = 100
    assert x[2, 0].item() == 8


@pytest.mark.parametrize(
    ("index", "error", "match"),
    [
        (5, ts.DimensionError, "out of range"),
        ((0, 1, 2), ts.DimensionError, "too many indices for tensor of dimension 2"),
        (1.5, ts.DimensionError, "only integers, slices"),
        ("a", ts.DimensionError, "only integers, slices"),
        (ts.tensor([1.0]), ts.DimensionError, "must be long, int, byte or bool"),
        (ts.tensor([5]), ts.DimensionError, "index 5 is out of bounds for dimension 0 with size 3"),
        (
            ts.tensor([True, False]),
            ts.DimensionError,
            r"The shape of the mask \[2\] at index 0 does not match",
        ),
        ((ts.tensor([0, 1]), ts.tensor([0, 1, 2])), ts.DimensionError, "could not be broadcast"),
    ],
)
def test_indexing_errors(index, error, match):
    with pytest.raises(error, match=match):
        grid(3, 4)[index]


def test_slice_step_must_be_positive():
    with pytest.raises(ts.TensorError, match="step must be greater than zero"):
        grid(3)[::-1]


def test_setitem_forms():
    x = ts.zeros(3, 4)
    x[0] = 1.0
    x[1, 1:3] = ts.tensor([2.0, 3.0])
    x[2] = ts.tensor([4.0, 5.0, 6.0, 7.0])
    x[:, -1] = 9.0
    assert x.tolist() == [[1, 1, 1, 9], [0, 2, 3, 9], [4, 5, 6, 9]]
    x[x > 5] = 0.0
    assert x.tolist() == [[1, 1, 1, 0], [0, 2, 3, 0], [4, 5, 0, 0]]
    x[ts.tensor([0, 2]), ts.tensor([3, 3])] = ts.tensor([7.0, 8.0])
    assert x[:, 3].tolist() == [7.0, 0.0, 8.0]
    x[..., 0] = ts.tensor([1, 2, 3])  # an int tensor into a float tensor: cast
    assert x[:, 0].tolist() == [1.0, 2.0, 3.0]
    assert x._version_number == 7


def test_setitem_casts_like_copy():
    x = ts.zeros(3, dtype=ts.int64)
    x[0] = 2.7
    x[1:] = ts.tensor([1.9, -1.9])
    assert x.tolist() == [2, 1, -1]
    with pytest.raises(ts.TensorError, match="must match the size"):
        x[:2] = ts.tensor([1, 2, 3])


def test_index_operators():
    x = ts.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    i = ts.tensor([2, 0])
    assert x.index_select(1, i).tolist() == [[3.0, 1.0], [6.0, 4.0]]
    assert x.gather(1, ts.tensor([[0, 0], [2, 1]])).tolist() == [[1.0, 1.0], [6.0, 5.0]]
    assert ts.zeros(2, 3).scatter(1, ts.tensor([[2], [0]]), ts.tensor([[7.0], [8.0]])).tolist() == [
        [0.0, 0.0, 7.0],
        [8.0, 0.0, 0.0],
    ]
    assert ts.zeros(3).scatter_add(
        0, ts.tensor([0, 0, 2]), ts.tensor([1.0, 2.0, 3.0])
    ).tolist() == [3.0, 0.0, 3.0]
    assert ts.ones(3).scatter(0, ts.tensor([1]), 5.0).tolist() == [1.0, 5.0, 1.0]
    assert x.masked_select(ts.tensor([True, False, True])).tolist() == [1.0, 3.0, 4.0, 6.0]
    assert ts.zeros(4).masked_scatter(
        ts.tensor([True, False, True, False]), ts.tensor([7.0, 8.0, 9.0])
    ).tolist() == [
        7.0,
        0.0,
        8.0,
        0.0,
    ]
    assert ts.tensor([[0, 1], [2, 0]]).nonzero().tolist() == [[0, 1], [1, 0]]
    assert ts.zeros(3).index_put(
        (ts.tensor([0, 0]),), ts.tensor(1.0), accumulate=True
    ).tolist() == [2.0, 0.0, 0.0]
    assert ts.zeros(3).index_add(0, ts.tensor([2, 2]), ts.tensor([1.0, 2.0])).tolist() == [
        0.0,
        0.0,
        3.0,
    ]
    assert x.index_fill(1, ts.tensor([1]), 0.0).tolist() == [[1.0, 0.0, 3.0], [4.0, 0.0, 6.0]]
    assert x.take(ts.tensor([0, -1])).tolist() == [1.0, 6.0]


def test_index_operator_errors():
    x = ts.zeros(2, 3)
    with pytest.raises(ts.DimensionError, match="index out of range in self"):
        x.index_select(0, ts.tensor([2]))
    with pytest.raises(ts.TensorError, match="out of bounds for dimension 1 with size 3"):
        x.gather(1, ts.tensor([[3]]))
    with pytest.raises(ts.TensorError, match="same number of dimensions"):
        x.gather(1, ts.tensor([0]))
    with pytest.raises(ts.TensorError, match="expected BoolTensor"):
        x.masked_select(ts.tensor([1, 0, 1]))
    with pytest.raises(ts.TensorError, match="source and destination dtypes match"):
        x.index_put_((ts.tensor([0]),), ts.tensor(1.0, dtype=ts.float64))
    with pytest.raises(ts.TensorError, match="Number of elements of source"):
        ts.zeros(3).masked_scatter(ts.tensor([True, True, True]), ts.ones(2))


def test_copy_fill_zero():
    x = ts.zeros(2, 3)
    x.copy_(ts.tensor([1, 2, 3]))
    assert x.tolist() == [[1.0, 2.0, 3.0]] * 2
    x.fill_(ts.tensor(4.0))
    assert x.tolist() == [[4.0] * 3] * 2
    x[0].zero_()
    assert x.tolist() == [[0.0] * 3, [4.0] * 3]
    with pytest.raises(ts.TensorError, match="0-dimension value tensor"):
        x.fill_(ts.ones(2))
    with pytest.raises(ts.TensorError, match="must match the size"):
        x.copy_(ts.ones(4))
    y = ts.arange(4.0)
    # a source that overlaps the destination in part is refused, as in PyTorch (the result
    # would depend on the order elements are copied in); a clone is fine
    with pytest.raises(ts.TensorError, match="refer to a single memory location"):
        y[1:].copy_(y[:3])
    with pytest.raises(ts.TensorError, match="refer to a single memory location"):
        y[1:] = y[:3]
    y[1:].copy_(y[:3].clone())
    assert y.tolist() == [0.0, 0.0, 1.0, 2.0]
