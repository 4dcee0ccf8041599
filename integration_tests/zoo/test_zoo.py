"""The zoo against PyTorch's recorded results (no PyTorch needed).

For each model (small configuration), with the seeded weights and batch:
the scripted and the traced model give PyTorch's evaluation-mode output
(rtol 1e-4); one training step (training mode, scripted) gives PyTorch's loss
and gradients (compared by fingerprint, rtol 1e-3); five training steps in
float64 give PyTorch's losses and gradient fingerprints to a relative 1e-7;
and ten SGD and ten
Adam steps on the CNN and the LSTM language model give PyTorch's losses
(rtol 1e-4). `test_zoo_oracle.py` compares with PyTorch itself.
"""

from __future__ import annotations

import json
from functools import cache

import numpy as np
import pytest
import tsjit

from .harness import (
    Library,
    fingerprint,
    float64_steps,
    make_batch,
    make_weights,
    numpy_of,
    template,
    train,
    training_step,
)
from .models import SPECS
from .record import RECORDED, TRAINED

LIB = Library(tsjit)


@cache
def recorded() -> dict:
    return json.loads(RECORDED.read_text())["models"]


def _setup(name: str):
    weights = make_weights(template(name, "small"), name)
    x, target = make_batch(name, "small")
    return weights, LIB.tensor(x), LIB.tensor(target)


@pytest.mark.parametrize("name", list(SPECS))
def test_scripted_and_traced_give_pytorchs_output(name):
    weights, x, _ = _setup(name)
    want = recorded()[name]
    expected = np.array(want["output"], dtype=np.float32).reshape(want["output_shape"])
    model = LIB.model(name, "small", weights).eval()
    scripted = tsjit.jit.script(model)
    traced = tsjit.jit.trace(model, (x,), check_trace=False)
    for what, m in (("scripted", scripted), ("traced", traced)):
        np.testing.assert_allclose(
            numpy_of(m(x)), expected, rtol=1e-4, atol=1e-5, err_msg=f"{name}, {what}"
        )


@pytest.mark.parametrize("name", list(SPECS))
def test_training_step_gives_pytorchs_gradients(name):
    weights, x, target = _setup(name)
    want = recorded()[name]
    scripted = tsjit.jit.script(LIB.model(name, "small", weights))
    loss, grads = training_step(LIB, scripted, name, x, target)
    np.testing.assert_allclose(float(loss.item()), want["loss"], rtol=1e-5)
    assert sorted(grads) == sorted(want["grads"])
    # a gradient that is zero in exact arithmetic (a bias followed by batch normalization)
    # is rounding noise in both libraries: the tolerance scales with the largest gradient
    largest = max(norm for _, norm in want["grads"].values())
    for key, grad in grads.items():
        got = fingerprint(name, key, grad)
        norm = want["grads"][key][1]
        np.testing.assert_allclose(
            got,
            want["grads"][key],
            rtol=1e-3,
            atol=1e-4 * norm + 1e-6 * largest,
            err_msg=f"{name}: {key}",
        )


@pytest.mark.parametrize("name", list(SPECS))
def test_five_float64_training_steps_give_pytorchs_gradients(name):
    """Iterations 1 to 5 through the scripted model's plans (profiling, then specialized with
    differentiable graphs), SGD between them, in float64: each loss and each gradient's
    fingerprint (a projection and the norm) is PyTorch's to a relative 1e-7."""
    want = recorded()[name]["float64_steps"]
    weights = make_weights(template(name, "small"), name)
    x, target = make_batch(name, "small")
    scripted = tsjit.jit.script(LIB.model(name, "small", weights).double())
    steps = list(float64_steps(LIB, scripted, name, x, target))
    for iteration, ((loss, grads), expected) in enumerate(zip(steps, want, strict=True), start=1):
        where = f"{name}, iteration {iteration}"
        np.testing.assert_allclose(loss, expected["loss"], rtol=1e-7, err_msg=where)
        assert sorted(grads) == sorted(expected["grads"]), where
        # a gradient zero in exact arithmetic (a bias before batch normalization) is rounding
        # noise in both libraries: the tolerance has a part scaled by the largest gradient
        largest = max(norm for _, norm in expected["grads"].values())
        for key, grad in grads.items():
            projection, norm = expected["grads"][key]
            np.testing.assert_allclose(
                fingerprint(name, key, grad),
                [projection, norm],
                rtol=1e-7,
                atol=1e-7 * norm + 1e-10 * largest,
                err_msg=f"{where}: gradient of {key}",
            )


@pytest.mark.parametrize("kind", ["sgd", "adam"])
@pytest.mark.parametrize("name", TRAINED)
def test_ten_steps_give_pytorchs_losses(name, kind):
    weights, x, target = _setup(name)
    scripted = tsjit.jit.script(LIB.model(name, "small", weights))
    losses = train(LIB, scripted, name, kind, x, target)
    expected = recorded()[name]["train"][kind]
    np.testing.assert_allclose(losses, expected, rtol=1e-4, err_msg=f"{name}, {kind}")
    assert losses[-1] < losses[0]  # it learns
