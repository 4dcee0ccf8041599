"""Published modules (see README.md) script, and compute what they compute eagerly and in
PyTorch with the same weights, in training (dropout is random: compared for shape only) and in
evaluation."""

from __future__ import annotations

import numpy as np
import pytest
import tsjit

from .harness import assert_close, restore, state_of, to_tsjit
from .published import library

MODELS = library(tsjit)
FUNCTION_ATTRIBUTE = "a module attribute holding a Python function (frontend-requests.md, nn 3)"


def _cases():
    for name in MODELS:
        marks = []
        if name == "detectron2_conv2d_relu":
            marks.append(pytest.mark.xfail(reason=FUNCTION_ATTRIBUTE, strict=True))
        yield pytest.param(name, marks=marks, id=name)


@pytest.mark.parametrize("name", list(_cases()))
def test_published_module_scripts(name):
    make, shape = MODELS[name]
    model = make()
    x = to_tsjit(np.random.RandomState(0).standard_normal(shape).astype(np.float32))
    state = state_of(model)
    scripted = tsjit.jit.script(model)
    for training in (False, True):
        model.train(training)
        scripted.train(training)
        restore(model, state)
        expected = model(x)
        restore(model, state)
        actual = scripted(x)
        if training:
            assert tuple(actual.shape) == tuple(expected.shape)
        else:
            assert_close(actual, expected, 1e-5, 1e-6, f"{name}, eval")


@pytest.mark.oracle
@pytest.mark.parametrize("name", [n for n in MODELS if n != "detectron2_conv2d_relu"])
def test_published_module_matches_pytorch(name):
    torch = pytest.importorskip("torch")
    make, shape = MODELS[name]
    model = make()
    theirs = library(torch)[name][0]()
    state = state_of(model)
    theirs.load_state_dict({k: torch.from_numpy(v.copy()) for k, v in state.items()})
    model.eval()
    theirs.eval()
    raw = np.random.RandomState(0).standard_normal(shape).astype(np.float32)
    with torch.no_grad():
        expected = theirs(torch.from_numpy(raw.copy()))
    assert_close(tsjit.jit.script(model)(to_tsjit(raw)), expected, 1e-4, 1e-5, name)
