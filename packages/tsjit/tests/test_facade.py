"""The facade: `import tsjit as torch` behaves like the parts of torch it stands for."""

from __future__ import annotations

import numpy as np
import tsjit as torch


def test_eager_namespace_is_forwarded():
    x = torch.tensor([1.0, -2.0])
    assert torch.relu(x).tolist() == [1.0, 0.0]
    assert torch.float64 is not None and torch.zeros(2).dtype == torch.float32
    assert isinstance(x, torch.Tensor)


def test_jit_api():
    for name in (
        "script",
        "trace",
        "fork",
        "wait",
        "annotate",
        "Final",
        "export",
        "ignore",
        "unused",
        "is_scripting",
        "ScriptModule",
        "ScriptFunction",
        "CompilationUnit",
    ):
        assert hasattr(torch.jit, name), name


@torch.jit.script
def scaled(x, n: int):
    for _ in range(n):
        x = torch.tanh(x) * 2
    return x


def test_script_through_the_facade():
    x = torch.tensor([0.5, -0.5])
    want = x
    for _ in range(3):
        want = torch.tanh(want) * 2
    assert np.allclose(scaled(x, 3).numpy(), want.numpy())
    assert isinstance(scaled, torch.jit.ScriptFunction)


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.body = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU())

    def forward(self, x):
        return torch.nn.functional.relu(self.body(x)) + 1


def test_nn_modules_script_and_trace():
    net = Net()
    x = torch.ones((2, 3))
    scripted = torch.jit.script(net)
    traced = torch.jit.trace(net, (x,))
    assert isinstance(scripted, torch.jit.ScriptModule)
    want = net(x).detach().numpy()
    assert np.allclose(scripted(x).detach().numpy(), want)
    assert np.allclose(traced(x).detach().numpy(), want)


def test_compilation_unit_from_source():
    cu = torch.jit.CompilationUnit("def f(a: int, b: int) -> int:\n    return a * b + 1\n")
    assert cu.f(3, 4) == 13


def test_torch_ops_reaches_registered_operators():
    import tsjit as torch

    assert torch.ops.aten.relu(torch.tensor([-1.0, 2.0])).tolist() == [0.0, 2.0]


def test_the_math_constants_are_in_the_namespace():
    import math

    import tsjit

    assert (tsjit.pi, tsjit.e, tsjit.inf) == (math.pi, math.e, math.inf)
    assert math.isnan(tsjit.nan)


def test_returned_container_constants_are_fresh_each_call():
    """A list or dict the optimizer folded into a constant is the caller's to change: the
    next call returns it as it was."""
    cu = torch.jit.CompilationUnit(
        "def f(x: int):\n    d = {'a': 1}\n    return d, [1, 2], ([3], x)\n"
    )
    for _ in range(3):  # the first calls profile, later ones run the optimized graph
        d, lst, (inner, _x) = cu.f(1)
        assert (d, lst, inner) == ({"a": 1}, [1, 2], [3])
        d["b"] = 2
        lst.append(3)
        inner.append(4)
