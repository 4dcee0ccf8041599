"""Autograd through the tensor operators: `grad`, accumulation, hooks, `retain_grad`,
`no_grad`, in-place modification checks, views and in-place writes."""

from __future__ import annotations

import numpy as np
import pytest
import ts_runtime as ts
from ts_runtime import autograd


def leaf(values, dtype=ts.float64):
    return ts.tensor(values, dtype=dtype, requires_grad=True)


def test_grad_returns_gradients_without_touching_leaves():
    x = leaf([1.0, 2.0, 3.0])
    y = (x * x).sum()
    (g,) = autograd.grad(y, [x])
    assert g.tolist() == [2.0, 4.0, 6.0]
    assert x.grad is None


def test_grad_of_unused_input_needs_allow_unused():
    x, z = leaf([1.0]), leaf([2.0])
    y = (x * 3).sum()
    with pytest.raises(ts.TensorError, match="allow_unused"):
        autograd.grad(y, [x, z], retain_graph=True)
    gx, gz = autograd.grad(y, [x, z], allow_unused=True)
    assert gx.tolist() == [3.0] and gz is None


def test_gradients_accumulate_into_leaves():
    x = leaf([[1.0, 2.0], [3.0, 4.0]])
    x.sum().backward()
    (x * x).sum().backward()
    (x.t() @ x).trace().backward()
    # d/dx sum = 1; d/dx sum(x^2) = 2x; d/dx trace(x^T x) = 2x
    assert x.grad.tolist() == [[5.0, 9.0], [13.0, 17.0]]
    x.grad = None
    x.mean().backward()
    assert x.grad.tolist() == [[0.25, 0.25], [0.25, 0.25]]


def test_hooks_see_and_replace_gradients():
    x = leaf([1.0, 2.0])
    seen = []
    y = x * 2
    y.register_hook(lambda g: seen.append(g.tolist()))
    handle = x.register_hook(lambda g: g * 10)
    y.sum().backward()
    assert seen == [[1.0, 1.0]]
    assert x.grad.tolist() == [20.0, 20.0]
    handle.remove()
    x.grad = None
    (x * 2).sum().backward()
    assert x.grad.tolist() == [2.0, 2.0]


def test_retain_grad_keeps_intermediate_gradients():
    x = leaf([1.0, 2.0, 3.0])
    y = x.view(3, 1).expand(3, 2)
    y.retain_grad()
    z = (y * ts.tensor([[1.0, 2.0]], dtype=ts.float64)).sum()
    z.backward()
    assert y.grad.tolist() == [[1.0, 2.0]] * 3
    assert x.grad.tolist() == [3.0, 3.0, 3.0]
    assert not ts.zeros(1).requires_grad
    with pytest.raises(ts.TensorError):
        ts.zeros(1).retain_grad()


def test_no_grad_and_set_grad_enabled():
    x = leaf([1.0, 2.0])
    with ts.no_grad():
        y = x[0] * x.sum()
        z = x.view(2, 1)
    assert not y.requires_grad and y.grad_fn is None
    assert not z.requires_grad
    with ts.set_grad_enabled(False):
        assert not ts.cat([x, x]).requires_grad
    assert ts.cat([x, x]).requires_grad


def test_results_record_named_backward_nodes():
    x = leaf([[1.0, 2.0], [3.0, 4.0]])
    assert x.sum().grad_fn.name == "SumBackward0"
    assert x.view(4).grad_fn.name == "ViewBackward0"
    assert x.t().grad_fn.name == "TBackward0"
    assert x[0].grad_fn.name == "SelectBackward0"
    assert ts.cat([x, x]).grad_fn.name == "CatBackward0"
    assert x.mm(x).grad_fn.name == "MmBackward0"
    values, indices = x.max(1)
    assert values.requires_grad and not indices.requires_grad


def test_modifying_a_saved_tensor_in_place_is_an_error_naming_the_version():
    x = leaf([0.5, -1.0, 2.0])
    y = x.sigmoid()  # saves its result
    y.mul_(2)
    with pytest.raises(
        ts.TensorError, match=r"modified by an inplace operation.*version 1; expected version 0"
    ):
        y.sum().backward()


def test_modifying_a_saved_input_through_a_view_is_an_error():
    x = leaf([[1.0, 2.0], [3.0, 4.0]])
    a = x * 1
    b = a.exp().sum() + (a * a).sum()  # mul saves `a`
    a[0] = 0.0  # writes `a` through a view: its version moves
    with pytest.raises(ts.TensorError, match="version"):
        b.backward()


def test_in_place_on_a_leaf_that_requires_grad_is_an_error():
    x = leaf([1.0, 2.0])
    with pytest.raises(ts.TensorError, match="leaf Variable"):
        x.add_(1.0)
    with pytest.raises(ts.TensorError, match="leaf Variable"):
        x.zero_()


def test_in_place_on_intermediates_is_differentiated():
    x = leaf([1.0, 2.0, 3.0])
    y = x * 1
    y.mul_(2.0)
    y.add_(x)
    y.sub_(1.0)
    y.sum().backward()
    assert x.grad.tolist() == [3.0, 3.0, 3.0]


def test_setitem_records_history_for_target_and_value():
    x = leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    v = leaf([10.0, 20.0])
    y = x * 1
    y[1, 1:] = v * 2
    y[0, 0] = 7.0
    (y * ts.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=ts.float64)).sum().backward()
    assert x.grad.tolist() == [[0.0, 2.0, 3.0], [4.0, 0.0, 0.0]]
    assert v.grad.tolist() == [10.0, 12.0]


def test_setitem_with_a_mask_and_index_tensors_under_autograd():
    x = leaf([1.0, -2.0, 3.0, -4.0])
    y = x * 1
    y[y < 0] = 0.0
    y[ts.tensor([0])] = y[ts.tensor([0])] * 5
    y.sum().backward()
    assert x.grad.tolist() == [5.0, 0.0, 1.0, 0.0]


def test_detach_and_factories_like_do_not_require_grad():
    x = leaf([1.0, 2.0])
    d = x.detach()
    assert not d.requires_grad and d.grad_fn is None
    d[0] = 9.0  # shares memory
    assert x.tolist()[0] == 9.0
    for t in (
        ts.zeros_like(x),
        ts.ones_like(x),
        ts.full_like(x, 2.0),
        ts.rand_like(x),
        ts.empty_like(x),
    ):
        assert not t.requires_grad
    assert ts.zeros(2, requires_grad=True).requires_grad


def test_contiguous_and_to_of_a_leaf_return_the_leaf_itself():
    x = leaf([1.0, 2.0])
    assert x.contiguous() is x and x.is_leaf
    assert x.to(ts.float64) is x and x.is_leaf
    y = x.to(ts.float32)
    assert y.dtype == ts.float32 and y.grad_fn is not None
    y.sum().backward()
    assert x.grad.dtype == ts.float64 and x.grad.tolist() == [1.0, 1.0]


def test_backward_twice_needs_retain_graph():
    x = leaf([1.0, 2.0])
    y = (x.exp() * x).sum()
    y.backward(retain_graph=True)
    y.backward()
    with pytest.raises(ts.TensorError, match="second time"):
        y.backward()


def test_unused_split_pieces_get_zero_gradient():
    x = leaf([1.0, 2.0, 3.0, 4.0, 5.0])
    _, b, _ = x.split([2, 2, 1])
    (b * 3).sum().backward()
    assert x.grad.tolist() == [0.0, 0.0, 3.0, 3.0, 0.0]


def test_dropout_gradient_is_the_kept_mask_scaled():
    ts.manual_seed(0)
    x = leaf(np.ones((50, 4)).tolist())
    y = ts.dropout(x, 0.25, True)
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), y.detach().numpy())
    kept = y.detach().numpy() != 0
    np.testing.assert_allclose(y.detach().numpy()[kept], 1 / 0.75)
    assert 0.6 < kept.mean() < 0.9


def test_batch_norm_training_updates_running_stats_without_grad():
    x = leaf(np.arange(12.0).reshape(4, 3).tolist())
    mean, var = ts.zeros(3, dtype=ts.float64), ts.ones(3, dtype=ts.float64)
    y = ts.nn.functional.batch_norm(x, mean, var, training=True, momentum=0.5)
    # batch mean is [4.5, 5.5, 6.5]; unbiased batch variance is 15
    assert mean.tolist() == [2.25, 2.75, 3.25]
    assert var.tolist() == [8.0, 8.0, 8.0]
    assert not mean.requires_grad and mean._version_number == 1
    y.pow(2).sum().backward()
    assert x.grad is not None and tuple(x.grad.shape) == (4, 3)


def test_interpreted_composites_keep_gradients():
    """`to`, `contiguous` and `dropout` register no derivative of their own: the
    operators they call record it."""
    x = leaf([[1.0, 2.0], [3.0, 4.0]])
    y = ts.dropout(x.t().contiguous().to(ts.float32), 0.0, True)
    y.sum().backward()
    assert x.grad.tolist() == [[1.0, 1.0], [1.0, 1.0]]


# A second backward through released nodes: refused only where a node needs a tensor it
# saved (as PyTorch's SavedVariable is freed), so a buffer that keeps accumulating a value
# which requires grad can be backpropagated on every iteration.
def _buffer_accumulates(lib, make_term, iterations=3):
    x = lib.tensor([1.0, 2.0, 3.0], dtype=lib.float64, requires_grad=True)
    buf = lib.zeros(2, 3, dtype=lib.float64)
    grads = []
    for _ in range(iterations):
        buf.add_(make_term(lib, x), alpha=2)
        (buf * 1.5).sum().backward()
        grads.append(x.grad.tolist())
    return grads


RETRAVERSALS = {
    "add_ of a leaf": lambda lib, x: x,
    "add_ of a view": lambda lib, x: x.view(3, 1).t().reshape(3),
    "add_ of cat and neg": lambda lib, x: -lib.cat([x[:1], x[1:]]),
    "add_ of exp (saves its result)": lambda lib, x: x.exp(),
    "add_ of x * x (saves both)": lambda lib, x: x * x,
    "add_ of tanh of a slice": lambda lib, x: x[:2].tanh().sum() * x,
}


@pytest.mark.oracle
@pytest.mark.parametrize("name", list(RETRAVERSALS))
def test_retraversing_released_nodes_fails_where_pytorchs_does(name):
    torch = pytest.importorskip("torch")
    make = RETRAVERSALS[name]

    def outcome(lib):
        try:
            return _buffer_accumulates(lib, make)
        except Exception as exc:  # the error's class differs; its message is PyTorch's
            assert "backward through the graph a second time" in str(exc), exc
            return "refused"

    expected = outcome(torch)
    assert outcome(ts) == expected


def test_a_node_that_saved_no_tensor_runs_again_after_release():
    x = leaf([[1.0, 2.0, 3.0]])
    b = leaf([1.0, 1.0, 1.0])
    y = (x + b).sum()
    y.backward()
    y.backward()  # AddBackward and SumBackward keep only sizes
    assert x.grad.tolist() == [[2.0, 2.0, 2.0]] and b.grad.tolist() == [2.0, 2.0, 2.0]
    z = (x * b).sum()
    z.backward()
    with pytest.raises(ts.TensorError, match="second time"):
        z.backward()
