"""Shape operators: views share memory and version counters and report PyTorch's strides;
joins, splits, copies and conversions; their errors."""

from __future__ import annotations

import numpy as np
import pytest
import ts_runtime as ts


def grid(*shape):
    return ts.arange(int(np.prod(shape)), dtype=ts.float32).view(*shape)


def test_view_shares_memory_and_version_counter():
    x = grid(2, 3)
    v = x.view(3, 2)
    v[0, 0] = 100.0
    assert x[0, 0].item() == 100.0
    assert x._version_number == v._version_number == 1
    x.add_(1)
    assert v._version_number == 2
    assert v.tolist() == [[101.0, 2.0], [3.0, 4.0], [5.0, 6.0]]


@pytest.mark.parametrize(
    ("make", "shape", "stride", "offset"),
    [
        (lambda x: x.t(), (4, 3), (1, 4), 0),
        (lambda x: x.transpose(0, 1)[1:], (3, 3), (1, 4), 1),
        (lambda x: x.permute(1, 0).unsqueeze(2), (4, 3, 1), (1, 4, 1), 0),
        (lambda x: x.unsqueeze(0), (1, 3, 4), (12, 4, 1), 0),
        (lambda x: x.unsqueeze(1), (3, 1, 4), (4, 4, 1), 0),
        (lambda x: x.t().unsqueeze(1), (4, 1, 3), (1, 12, 4), 0),
        (lambda x: x[1], (4,), (1,), 4),
        (lambda x: x[:, 2], (3,), (4,), 2),
        (lambda x: x[::2, 1::2], (2, 2), (8, 2), 1),
        (lambda x: x.narrow(1, 1, 2), (3, 2), (4, 1), 1),
        (lambda x: x[:1].expand(5, 4), (5, 4), (0, 1), 0),
        (lambda x: x[0].expand(2, 3, 4), (2, 3, 4), (0, 0, 1), 0),
        (lambda x: x.diagonal(), (3,), (5,), 0),
        (lambda x: x.diagonal(1), (3,), (5,), 1),
        (lambda x: x.diagonal(-1), (2,), (5,), 4),
        (lambda x: x.as_strided((2, 2), (1, 4), 2), (2, 2), (1, 4), 2),
        (lambda x: x.view(2, 6), (2, 6), (6, 1), 0),
        (lambda x: x.t().reshape(2, 2, 3), (2, 2, 3), (2, 1, 4), 0),
        (lambda x: x[:, :2].reshape(3, 2), (3, 2), (4, 1), 0),
        (lambda x: x.unbind(1)[3], (3,), (4,), 3),
        (lambda x: x.chunk(2, 1)[1], (3, 2), (4, 1), 2),
        (lambda x: x.split(1)[2], (1, 4), (4, 1), 8),
        (lambda x: x[None, :, None, 0], (1, 3, 1), (12, 4, 4), 0),
    ],
)
def test_views_report_torch_strides(make, shape, stride, offset):
    x = grid(3, 4)
    v = make(x)
    assert tuple(v.shape) == shape
    assert v.stride() == stride
    assert v.storage_offset() == offset
    assert np.shares_memory(v.numpy(), x.numpy())


def test_view_of_transposed_tensor_is_refused():
    x = grid(2, 3).t()
    with pytest.raises(ts.TensorError, match="view size is not compatible"):
        x.view(6)
    assert x.reshape(6).tolist() == [0.0, 3.0, 1.0, 4.0, 2.0, 5.0]
    assert not np.shares_memory(x.reshape(6).numpy(), x.numpy())
    assert x.view(3, 1, 2).stride() == (1, 6, 3)


@pytest.mark.parametrize(
    ("fn", "error", "match"),
    [
        (
            lambda x: x.view(4, 2),
            ts.TensorError,
            r"shape '\[4, 2\]' is invalid for input of size 6",
        ),
        (lambda x: x.view(-1, -1), ts.TensorError, "only one dimension can be inferred"),
        (lambda x: x.expand(3, 3), ts.TensorError, "must match the existing size"),
        (lambda x: x.expand(3), ts.TensorError, "number of sizes provided"),
        (lambda x: x.select(0, 2), ts.DimensionError, r"index 2 out of range"),
        (lambda x: x.transpose(0, 2), ts.DimensionError, "Dimension out of range"),
        (lambda x: x.permute(1), ts.TensorError, "number of dimensions"),
        (lambda x: x.narrow(1, 2, 2), ts.TensorError, "exceeds dimension size"),
        (lambda x: x.unflatten(1, (2, 2)), ts.TensorError, "don't multiply up"),
        (lambda x: x.chunk(0), ts.TensorError, "greater than 0"),
        (lambda x: x.split([1, 2]), ts.TensorError, "sum exactly to 2"),
        (lambda x: x.repeat(2), ts.TensorError, "repeat dims can not be smaller"),
        (lambda x: x.flatten(1, 0), ts.TensorError, "start_dim cannot come after end_dim"),
        (
            lambda x: ts.ones(2, 2, 2).t(),
            ts.TensorError,
            r"t\(\) expects a tensor with <= 2 dimensions",
        ),
        (
            lambda x: ts.cat([x, x.t()]),
            ts.TensorError,
            "Sizes of tensors must match except in dimension 0",
        ),
        (
            lambda x: ts.stack([x, x.t()]),
            ts.TensorError,
            "stack expects each tensor to be equal size",
        ),
        (lambda x: ts.cat([]), ts.TensorError, "non-empty"),
        (lambda x: x.as_strided((3, 3), (3, 1)), ts.TensorError, "out of bounds for storage"),
        (
            lambda x: x.tril() if x.dim() < 2 else ts.ones(3).tril(),
            ts.TensorError,
            "at least 2 dimensions",
        ),
        (lambda x: ts.tensor(1.0).size(0), ts.DimensionError, "no dimensions"),
        (lambda x: x.to("cuda"), ts.TensorError, "cuda"),
    ],
)
def test_shape_errors(fn, error, match):
    with pytest.raises(error, match=match):
        fn(grid(2, 3))


def test_squeeze_and_unsqueeze_forms():
    x = ts.zeros(1, 3, 1, 2)
    assert tuple(x.squeeze().shape) == (3, 2)
    assert tuple(x.squeeze(0).shape) == (3, 1, 2)
    assert tuple(x.squeeze(1).shape) == (1, 3, 1, 2)
    assert tuple(x.squeeze((0, 2)).shape) == (3, 2)
    assert tuple(x.unsqueeze(-1).shape) == (1, 3, 1, 2, 1)
    assert tuple(ts.tensor(5.0).unsqueeze(0).shape) == (1,)


def test_flatten_unflatten_movedim():
    x = grid(2, 3, 4)
    assert tuple(x.flatten().shape) == (24,)
    assert tuple(x.flatten(1).shape) == (2, 12)
    assert tuple(ts.tensor(3.0).flatten().shape) == (1,)
    assert tuple(x.unflatten(2, (2, -1)).shape) == (2, 3, 2, 2)
    assert tuple(x.movedim(0, -1).shape) == (3, 4, 2)
    assert tuple(x.movedim((0, 1), (2, 0)).shape) == (3, 4, 2)


def test_cat_stack_promote_and_skip_empty_vectors():
    a = ts.tensor([1, 2])
    b = ts.tensor([0.5])
    assert ts.cat([a, b]).tolist() == [1.0, 2.0, 0.5] and ts.cat([a, b]).dtype == ts.float32
    assert ts.cat([ts.zeros(0), ts.ones(2, 2)]).shape == ts.Size([2, 2])
    s = ts.stack([a, a * 2], 1)
    assert s.tolist() == [[1, 2], [2, 4]] and s.dtype == ts.int64
    assert ts.hstack([ts.ones(2), ts.zeros(1)]).tolist() == [1.0, 1.0, 0.0]
    assert tuple(ts.vstack([ts.ones(3), ts.zeros(3)]).shape) == (2, 3)


def test_split_forms():
    x = ts.arange(7)
    assert [p.tolist() for p in x.chunk(3)] == [[0, 1, 2], [3, 4, 5], [6]]
    assert [p.tolist() for p in ts.arange(6).chunk(4)] == [[0, 1], [2, 3], [4, 5]]
    assert [p.tolist() for p in x.split(3)] == [[0, 1, 2], [3, 4, 5], [6]]
    assert [p.tolist() for p in x.split([2, 5])] == [[0, 1], [2, 3, 4, 5, 6]]
    assert [p.tolist() for p in grid(2, 2).unbind(1)] == [[0.0, 2.0], [1.0, 3.0]]
    assert [t.tolist() for t in grid(2, 2)] == [[0.0, 1.0], [2.0, 3.0]]


def test_repeat_flip_roll_triangles():
    x = ts.tensor([[1, 2], [3, 4]])
    assert x.repeat(1, 2).tolist() == [[1, 2, 1, 2], [3, 4, 3, 4]]
    assert tuple(x.repeat(2, 1, 1).shape) == (2, 2, 2)
    assert x.flip(0).tolist() == [[3, 4], [1, 2]]
    assert x.flip(0).stride() == (2, 1)
    assert x.roll(1).tolist() == [[4, 1], [2, 3]]
    assert x.roll(1, 1).tolist() == [[2, 1], [4, 3]]
    assert x.tril().tolist() == [[1, 0], [3, 4]]
    assert x.triu(1).tolist() == [[0, 2], [0, 0]]


def test_contiguous_clone_and_conversions():
    x = grid(2, 3)
    assert x.contiguous() is x
    c = x.t().contiguous()
    assert c.is_contiguous() and c.stride() == (2, 1)
    assert x.t().clone().stride() == (1, 3)  # preserve_format keeps the layout
    assert x.t().clone(memory_format=0).stride() == (2, 1)
    assert x.to(ts.float32) is x
    assert x.to(ts.float32, copy=True) is not x
    assert x.to(ts.int64).dtype == ts.int64
    assert x.to(ts.ones(1, dtype=ts.float64)).dtype == ts.float64
    assert x.to("cpu") is x
    assert x.to("cpu", ts.int32).dtype == ts.int32
    assert x.type_as(ts.tensor([True])).dtype == ts.bool
    assert ts.tensor([1.7, -1.7]).long().tolist() == [1, -1]


def test_metadata_operators():
    x = grid(2, 3)
    assert x.size() == ts.Size([2, 3]) and x.size(-1) == 3
    assert x.dim() == 2 and x.numel() == 6 and len(x) == 2
    assert x.stride() == (3, 1) and x.t().stride(0) == 1
    assert ts.call("aten::size", x) == [2, 3]
    assert ts.call("aten::stride", x.t()) == [1, 3]
    assert ts.call("aten::is_contiguous", x.t()) is False


def test_select_scatter_and_slice_scatter_are_copies():
    x = ts.zeros(2, 3)
    y = ts.select_scatter(x, ts.ones(3), 0, 1)
    assert y.tolist() == [[0.0] * 3, [1.0] * 3] and x.sum().item() == 0.0
    z = ts.slice_scatter(x, ts.ones(2, 2), 1, 0, 3, 2)
    assert z.tolist() == [[1.0, 0.0, 1.0], [1.0, 0.0, 1.0]]
    w = ts.diagonal_scatter(ts.zeros(2, 2), ts.tensor([3.0, 4.0]))
    assert w.tolist() == [[3.0, 0.0], [0.0, 4.0]]


def test_shape_operators_in_the_interpreter():
    from ts_ir import parse_ir

    graph = parse_ir(
        """graph(%x : Tensor):
  %0 : int = prim::Constant[value=0]()
  %1 : int = prim::Constant[value=1]()
  %none : NoneType = prim::Constant()
  %f : bool = prim::Constant[value=0]()
  %d : int = prim::Constant[value=4]()
  %t : Tensor = aten::t(%x)
  %c : Tensor = aten::contiguous(%t, %0)
  %l : Tensor = aten::to(%c, %d, %f, %f, %none)
  %s : int[] = aten::size(%l)
  %n : int = aten::size(%l, %1)
  return (%l, %s, %n)
"""
    )
    fn = ts.Function("f", graph)
    out, sizes, n = fn(grid(2, 3))
    assert out.tolist() == [[0, 3], [1, 4], [2, 5]] and out.dtype == ts.int64
    assert sizes == [3, 2] and n == 2


def test_resize_keeps_storage_order_and_shares_memory():
    # as PyTorch: shrinking reuses the storage (a view of it sees writes), growing keeps
    # the elements the storage still holds
    x = ts.arange(6, dtype=ts.float32)
    v = x.view(2, 3)
    r = x.resize_([2, 2])
    assert r is x and x.shape == (2, 2)
    assert x.tolist() == [[0.0, 1.0], [2.0, 3.0]]
    x[0, 0] = 100.0
    assert v[0, 0].item() == 100.0
    x.resize_([3, 2])
    assert x.tolist() == [[100.0, 1.0], [2.0, 3.0], [4.0, 5.0]]
    v.resize_([5])  # a view may grow within its storage
    assert v.tolist() == [100.0, 1.0, 2.0, 3.0, 4.0]
    x.resize_([7])
    assert x.shape == (7,) and x.tolist()[:6] == [100.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    assert x.resize_([0]).shape == (0,)


def test_resize_errors():
    with pytest.raises(ts.TensorError, match="negative"):
        grid(2, 3).resize_([-1])
    with pytest.raises(ts.TensorError, match="contiguous"):
        grid(2, 3).t().resize_([2])
    with pytest.raises(ts.TensorError, match="grow a view beyond"):
        grid(2, 3)[0].resize_([9])


def test_functional_resize_copies_in_layout_order():
    # values as PyTorch 2.13 gives them: a copy laid out as the input, then resized
    from ts_runtime import call

    x = grid(2, 3)
    assert call("aten::resize", x.t(), [2, 2]).tolist() == [[0.0, 1.0], [2.0, 3.0]]
    assert call("aten::resize", x[:, 1:], [3]).tolist() == [1.0, 2.0, 4.0]
    y = call("aten::resize", x, [4])
    y[0] = 9.0
    assert x.shape == (2, 3) and x[0, 0].item() == 0.0
