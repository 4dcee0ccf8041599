"""Every public layer of `tsjit.nn` scripts: alone, inside a model, in training and in
evaluation, and traced; and each form computes what the eager layer computes.

The layers are found by walking `tsjit.nn` (every public `Module` subclass that defines a
`forward`), not from a list, so a new layer without a sample in `samples.py`, or one that
does not script, fails here. Comparisons with PyTorch are in `test_nn_oracle.py`.
"""

from __future__ import annotations

import inspect

import numpy as np
import pytest
import tsjit

from .harness import assert_close, held, restore, state_of, to_tsjit
from .samples import SAMPLES


def public_layers() -> list[str]:
    found = []
    for name in dir(tsjit.nn):
        obj = getattr(tsjit.nn, name)
        if (
            not name.startswith("_")
            and inspect.isclass(obj)
            and issubclass(obj, tsjit.nn.Module)
            and obj.forward is not tsjit.nn.Module.forward
        ):
            found.append(name)
    return sorted(found)


def test_every_public_layer_has_a_sample():
    layers = public_layers()
    sampled = {s.cls for s in SAMPLES}
    assert len(layers) >= 120
    missing = [name for name in layers if name not in sampled]
    assert not missing, f"layers without a sample in samples.py: {missing}"
    assert sampled <= set(layers), f"samples of unknown layers: {sampled - set(layers)}"


def _inputs(sample):
    return [to_tsjit(a) for a in sample.inputs(np.random.RandomState(0))]


def _check_mode(eager, compiled, sample, inputs, state, training, what, layer=None):
    """Run the eager and the compiled module from `state` (the layer's); compare results
    and the state after."""
    layer = eager if layer is None else layer
    eager.train(training)
    compiled.train(training)
    restore(layer, state)
    expected = eager(*inputs)
    expected_state = state_of(layer)
    restore(layer, state)
    actual = compiled(*inputs)
    if training and not sample.train_deterministic:
        for a, b in zip(_shapes(actual), _shapes(expected), strict=True):
            assert a == b, f"{what}: shape {a}, expected {b}"
        return
    assert_close(actual, expected, sample.rtol, sample.atol, what)
    after = state_of(layer)
    for key, value in expected_state.items():
        np.testing.assert_allclose(
            after[key], value, rtol=1e-6, atol=1e-6, err_msg=f"{what}: {key}"
        )


def _shapes(value):
    if isinstance(value, (tuple, list)):
        return [s for v in value for s in _shapes(v)]
    return [None if value is None else tuple(value.shape)]


@pytest.mark.parametrize("sample", SAMPLES, ids=[s.id for s in SAMPLES])
def test_layer_scripts_alone_and_in_a_model(sample):
    layer = sample.make(tsjit.nn)
    inputs = _inputs(sample)
    state = state_of(layer)
    scripted = tsjit.jit.script(layer)
    assert scripted.training
    # one compiled module, switched between modes: train() and eval() reach the code
    _check_mode(layer, scripted, sample, inputs, state, True, "scripted, train")
    _check_mode(layer, scripted, sample, inputs, state, False, "scripted, eval")
    _check_mode(layer, scripted, sample, inputs, state, True, "scripted, train again")

    model = held(layer, len(inputs))
    compiled_model = tsjit.jit.script(model)
    _check_mode(model, compiled_model, sample, inputs, state, False, "in a model, eval", layer)


@pytest.mark.parametrize("sample", SAMPLES, ids=[s.id for s in SAMPLES])
def test_layer_traces(sample):
    layer = sample.make(tsjit.nn)
    inputs = _inputs(sample)
    state = state_of(layer)
    for training in (False, True) if sample.train_deterministic else (False,):
        layer.train(training)
        restore(layer, state)
        traced = tsjit.jit.trace(layer, tuple(inputs), check_trace=False)
        _check_mode(layer, traced, sample, inputs, state, training, f"traced, training={training}")
