"""Every layer of `tsjit.nn` against PyTorch's layer of the same name (the oracle).

For each sample: both libraries build the layer with the same arguments; PyTorch's
takes our `state_dict` (strictly: the same keys, in the same order, of the same shapes);
then, in training (where the result is deterministic) and in evaluation, our scripted
layer's outputs and state afterwards (batch norm's running statistics) equal PyTorch's,
and in training the gradients of a random projection of the outputs with respect to
every parameter and every floating-point input equal PyTorch's.
"""

from __future__ import annotations

import numpy as np
import pytest
import tsjit

from .harness import arrays, assert_close, load_into_torch, restore, state_of, to_torch, to_tsjit
from .samples import SAMPLES

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle


def _weights(outputs, rng):
    return [
        None if a is None else rng.standard_normal(a.shape).astype(a.dtype) for a in arrays(outputs)
    ]


def _projection(outputs, weights, lib):
    total = None
    flat = _flat(outputs)
    for out, w in zip(flat, weights, strict=True):
        if out is None or w is None or not out.is_floating_point():
            continue
        term = (out * lib.tensor(w)).sum()
        total = term if total is None else total + term
    return total


def _flat(value):
    if isinstance(value, (tuple, list)):
        return [x for v in value for x in _flat(v)]
    return [value]


@pytest.mark.parametrize("sample", SAMPLES, ids=[s.id for s in SAMPLES])
def test_layer_matches_pytorch(sample):
    torch.manual_seed(0)
    ours = sample.make(tsjit.nn)
    theirs = sample.make(torch.nn)
    state = state_of(ours)
    assert list(state) == list(theirs.state_dict()), "state_dict keys differ from PyTorch's"
    scripted = tsjit.jit.script(ours)
    raw = sample.inputs(np.random.RandomState(0))
    modes = (True, False) if sample.train_deterministic else (False,)
    for training in modes:
        what = "train" if training else "eval"
        restore(ours, state)
        load_into_torch(theirs, state)
        theirs.train(training)
        scripted.train(training)
        ours_in = [to_tsjit(a) for a in raw]
        their_in = [to_torch(a) for a in raw]
        grads = training and sample.differentiable
        for i, pair in enumerate(zip(ours_in, their_in, strict=True)):
            wanted = sample.grad_inputs is None or i in sample.grad_inputs
            for t in pair:
                if grads and wanted and t.is_floating_point():
                    t.requires_grad_(True)
        expected = theirs(*their_in)
        actual = scripted(*ours_in)
        assert_close(actual, expected, sample.rtol, sample.atol, f"{sample.id}, {what}")
        after = {k: v.detach().numpy() for k, v in theirs.state_dict().items()}
        for key, value in state_of(ours).items():
            np.testing.assert_allclose(
                value, after[key], rtol=1e-5, atol=1e-6, err_msg=f"{sample.id}, {what}: {key}"
            )
        if not grads:
            continue
        weights = _weights(expected, np.random.RandomState(1))
        their_loss = _projection(expected, weights, torch)
        our_loss = _projection(actual, weights, tsjit)
        if their_loss is None or not their_loss.requires_grad:
            continue
        their_loss.backward()
        our_loss.backward()
        named = dict(ours.named_parameters())
        compared = 0
        for name, p in theirs.named_parameters():
            g_ours = named[name].grad
            if p.grad is None:
                assert g_ours is None or not np.any(g_ours.numpy()), f"{name}: unexpected grad"
                continue
            assert g_ours is not None, f"{sample.id}: no gradient for {name}"
            np.testing.assert_allclose(
                g_ours.numpy(),
                p.grad.numpy(),
                rtol=1e-3,
                atol=1e-4,
                err_msg=f"{sample.id}: grad of {name}",
            )
            compared += 1
        for i, (a, b) in enumerate(zip(ours_in, their_in, strict=True)):
            if b.grad is not None:
                compared += 1
                np.testing.assert_allclose(
                    a.grad.numpy(),
                    b.grad.numpy(),
                    rtol=1e-3,
                    atol=1e-4,
                    err_msg=f"{sample.id}: grad of input {i}",
                )
        assert compared, f"{sample.id}: no gradient was compared"
