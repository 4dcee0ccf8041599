"""Neural-network functions: normalization, dropout, embedding, activations, losses, padding."""

from __future__ import annotations

import math

import numpy as np
import pytest
import ts_runtime as ts
from ts_runtime.nn import functional as F


def test_layer_norm_normalizes_the_last_dims():
    rng = np.random.default_rng(0)
    x = ts.from_numpy(rng.standard_normal((3, 2, 5)).astype(np.float32) * 4 + 2)
    y = F.layer_norm(x, (5,))
    np.testing.assert_allclose(y.mean(-1).numpy(), 0, atol=1e-6)
    np.testing.assert_allclose(y.var(-1, unbiased=False).numpy(), 1, atol=1e-3)
    assert y.dtype == ts.float32
    w, b = ts.full([5], 2.0), ts.full([5], 1.0)
    np.testing.assert_allclose(
        F.layer_norm(x, [5], w, b).numpy(), y.numpy() * 2 + 1, rtol=1e-5, atol=1e-6
    )
    z = F.layer_norm(x, (2, 5))
    np.testing.assert_allclose(z.mean((1, 2)).numpy(), 0, atol=1e-6)
    with pytest.raises(ts.TensorError, match="expected input with shape"):
        F.layer_norm(x, [4])


def test_batch_norm_eval_and_training():
    x = ts.tensor([[1.0, 2.0], [3.0, 6.0]])
    mean, var = ts.tensor([1.0, 2.0]), ts.tensor([4.0, 16.0])
    y = F.batch_norm(x, mean, var, eps=0.0)
    assert y.tolist() == [[0.0, 0.0], [1.0, 1.0]]
    y = F.batch_norm(x, mean, var, ts.tensor([2.0, 1.0]), ts.tensor([0.0, 1.0]), eps=0.0)
    assert y.tolist() == [[0.0, 1.0], [2.0, 2.0]]
    rm, rv = ts.zeros(2), ts.ones(2)
    y = F.batch_norm(x, rm, rv, training=True, momentum=0.1, eps=0.0)
    assert y.tolist() == [[-1.0, -1.0], [1.0, 1.0]]
    np.testing.assert_allclose(rm.numpy(), [0.2, 0.4])
    np.testing.assert_allclose(rv.numpy(), [0.9 + 0.1 * 2.0, 0.9 + 0.1 * 8.0])
    with pytest.raises(ts.TensorError, match="more than 1 value per channel"):
        F.batch_norm(ts.ones(1, 2), None, None, training=True)
    with pytest.raises(ts.TensorError, match="running_mean must be defined"):
        F.batch_norm(x, None, None, training=False)


def test_dropout():
    x = ts.ones(1000)
    assert F.dropout(x, 0.5, training=False) is x
    assert ts.dropout(x, 0.0, True) is x
    ts.manual_seed(1)
    y = F.dropout(x, 0.4)
    kept = y.numpy() != 0
    np.testing.assert_allclose(y.numpy()[kept], 1 / 0.6, rtol=1e-6)
    assert 0.5 < kept.mean() < 0.7
    assert F.dropout(x, 1.0).sum().item() == 0.0
    with pytest.raises(ValueError, match="between 0 and 1"):
        F.dropout(x, 1.5)
    with pytest.raises(ts.TensorError, match="between 0 and 1"):
        ts.dropout(x, -0.1, True)
    f = ts.feature_dropout(ts.ones(20, 10, 3), 0.5, True).numpy()
    assert ((f == 0).all(-1) | (f != 0).all(-1)).all()


def test_embedding():
    w = ts.tensor([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]])
    assert F.embedding(ts.tensor([[2, 0]]), w).tolist() == [[[4.0, 5.0], [0.0, 1.0]]]
    with pytest.raises(ts.DimensionError, match="index out of range in self"):
        F.embedding(ts.tensor([3]), w)
    with pytest.raises(ts.TensorError, match="'indices'"):
        F.embedding(ts.tensor([1.0]), w)
    wg = w.clone().requires_grad_()
    F.embedding(ts.tensor([1, 1, 2]), wg, padding_idx=2).sum().backward()
    assert wg.grad.tolist() == [[0.0, 0.0], [2.0, 2.0], [0.0, 0.0]]
    assert F.one_hot(ts.tensor([0, 2])).tolist() == [[1, 0, 0], [0, 0, 1]]


def test_activations():
    x = ts.tensor([-4.0, -1.0, 0.0, 1.0, 7.0])
    assert F.relu6(x).tolist() == [0.0, 0.0, 0.0, 1.0, 6.0]
    assert F.hardsigmoid(x).tolist() == pytest.approx([0.0, 1 / 3, 0.5, 2 / 3, 1.0])
    assert F.hardswish(x).tolist() == pytest.approx([0.0, -1 / 3, 0.0, 2 / 3, 7.0])
    assert F.logsigmoid(ts.tensor([0.0, -1000.0])).tolist() == pytest.approx(
        [-math.log(2.0), -1000.0]
    )
    assert F.mish(ts.tensor([0.0])).item() == 0.0
    assert F.threshold(x, 0.5, -9.0).tolist() == [-9.0, -9.0, -9.0, 1.0, 7.0]
    assert F.glu(ts.tensor([[1.0, 0.0]])).tolist() == [[0.5]]
    assert F.selu(ts.tensor([1.0])).item() == pytest.approx(1.0507009873554805)


def test_regression_losses():
    a, b = ts.tensor([1.0, 2.0, 4.0]), ts.tensor([1.0, 0.0, 3.5])
    assert F.mse_loss(a, b).item() == pytest.approx((0 + 4 + 0.25) / 3)
    assert F.mse_loss(a, b, reduction="sum").item() == pytest.approx(4.25)
    assert F.l1_loss(a, b, reduction="none").tolist() == [0.0, 2.0, 0.5]
    assert F.smooth_l1_loss(a, b, reduction="none").tolist() == [0.0, 1.5, 0.125]
    assert F.huber_loss(a, b, reduction="none", delta=0.5).tolist() == [0.0, 0.875, 0.125]
    with pytest.raises(ValueError, match="not a valid value for reduction"):
        F.mse_loss(a, b, reduction="avg")


def test_classification_losses():
    logp = ts.tensor([[-1.0, -2.0, -3.0], [-0.5, -1.5, -2.5]])
    y = ts.tensor([2, 0])
    assert F.nll_loss(logp, y).item() == pytest.approx(1.75)
    assert F.nll_loss(logp, y, reduction="none").tolist() == [3.0, 0.5]
    w = ts.tensor([1.0, 1.0, 3.0])
    assert F.nll_loss(logp, y, w).item() == pytest.approx((9.0 + 0.5) / 4.0)
    assert F.nll_loss(logp, y, ignore_index=2).item() == pytest.approx(0.5)
    with pytest.raises(ts.DimensionError, match="Target 3 is out of bounds"):
        F.nll_loss(logp, ts.tensor([3, 0]))
    with pytest.raises(ts.TensorError, match="batch_size"):
        F.nll_loss(logp, ts.tensor([0]))
    x = ts.tensor([[1.0, 2.0, 0.5], [0.0, 0.0, 0.0]])
    manual = F.nll_loss(x.log_softmax(1), y)
    assert F.cross_entropy(x, y).item() == pytest.approx(manual.item())
    smoothed = F.cross_entropy(x, y, label_smoothing=0.3)
    uniform = -(x.log_softmax(1)).mean(1).mean()
    assert smoothed.item() == pytest.approx(0.7 * manual.item() + 0.3 * uniform.item(), rel=1e-6)
    probs = ts.tensor([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]])
    assert F.cross_entropy(x, probs).item() == pytest.approx(manual.item(), rel=1e-6)


def test_binary_losses():
    p, t = ts.tensor([0.5, 0.9]), ts.tensor([1.0, 0.0])
    assert F.binary_cross_entropy(p, t, reduction="none").tolist() == pytest.approx(
        [math.log(2), -math.log(0.1)]
    )
    assert F.binary_cross_entropy(ts.tensor([0.0]), ts.tensor([1.0])).item() == 100.0
    with pytest.raises(ts.TensorError, match="between 0 and 1"):
        F.binary_cross_entropy(ts.tensor([1.5]), ts.tensor([1.0]))
    z = ts.tensor([0.0, 2.0])
    expected = F.binary_cross_entropy(z.sigmoid(), t, reduction="none")
    np.testing.assert_allclose(
        F.binary_cross_entropy_with_logits(z, t, reduction="none").numpy(),
        expected.numpy(),
        rtol=1e-6,
    )
    pw = ts.tensor([3.0, 3.0])
    assert F.binary_cross_entropy_with_logits(
        z, t, pos_weight=pw, reduction="none"
    ).tolist() == pytest.approx([3 * math.log(2), math.log(1 + math.exp(2.0))])


def test_padding():
    x = ts.tensor([[1.0, 2.0, 3.0]])
    assert F.pad(x, (1, 2)).tolist() == [[0.0, 1.0, 2.0, 3.0, 0.0, 0.0]]
    assert F.pad(x, (0, 0, 1, 0), value=9.0).tolist() == [[9.0, 9.0, 9.0], [1.0, 2.0, 3.0]]
    assert F.pad(x, (-1, 0)).tolist() == [[2.0, 3.0]]
    assert F.pad(x, (2, 1), mode="reflect").tolist() == [[3.0, 2.0, 1.0, 2.0, 3.0, 2.0]]
    assert F.pad(x, (2, 1), mode="replicate").tolist() == [[1.0, 1.0, 1.0, 2.0, 3.0, 3.0]]
    assert F.pad(x, (1, 1), mode="circular").tolist() == [[3.0, 1.0, 2.0, 3.0, 1.0]]
    with pytest.raises(ts.TensorError, match="must be even"):
        F.pad(x, (1,))
    with pytest.raises(ts.TensorError, match="negative output size"):
        F.pad(x, (-2, -2))


def test_losses_in_the_interpreter():
    from ts_ir import parse_ir

    graph = parse_ir(
        """graph(%x : Tensor, %y : Tensor):
  %none : NoneType = prim::Constant()
  %1 : int = prim::Constant[value=1]()
  %ig : int = prim::Constant[value=-100]()
  %ls : float = prim::Constant[value=0.]()
  %l : Tensor = aten::cross_entropy_loss(%x, %y, %none, %1, %ig, %ls)
  return (%l)
"""
    )
    x, y = ts.tensor([[2.0, 0.0], [0.0, 2.0]]), ts.tensor([0, 1])
    assert ts.Function("f", graph)(x, y).item() == pytest.approx(F.cross_entropy(x, y).item())
