"""Programs of the classes of gradients TorchScript got wrong on later iterations.

PyTorch's JIT compiled a program's differentiable graphs only after profiling
runs, so its gradients could be right on the first call and wrong on the
second or third (see README.md): a broadcast operand whose gradient must be
summed back to its shape (`(x + y) ** z`, PyTorch issue #84510), normalization
over a kept dimension with a broadcast scale (PyTorch issue #108670), an output
of a differentiable graph that later code also reads (PyTorch issue #66883).
tsjit specializes when a plan is first compiled, then again for the backward
graph's inputs (which gradients are None, which operands need a sum), so the
risk moves to what changes between calls: broadcasting patterns with the same
ranks, ranks, which inputs require grad. Each case runs several iterations
on one scripted function, as a training loop does.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Case:
    source: str
    name: str
    #: per iteration, the shapes of the inputs
    shapes: tuple[tuple[tuple[int, ...], ...], ...]
    #: per iteration, which inputs require grad (default: all)
    requires_grad: tuple[tuple[bool, ...], ...] | None = None
    positive: bool = False
    double: bool = True
    extra: dict[str, Any] = field(default_factory=dict)

    def arrays(self) -> list[list[np.ndarray]]:
        out = []
        for it, shapes in enumerate(self.shapes, start=1):
            rng = np.random.default_rng(zlib.crc32(repr((self.name, it)).encode()))
            arrays = []
            for shape in shapes:
                a = rng.standard_normal(shape)
                if self.positive:
                    a = np.abs(a) * 0.5 + 0.25
                arrays.append(a)
            out.append(arrays)
        return out

    def grad_mask(self, iteration: int, n: int) -> tuple[bool, ...]:
        if self.requires_grad is None:
            return (True,) * n
        return self.requires_grad[iteration - 1]


POW_BROADCAST = Case(
    name="pow_broadcast",
    source="""
def f(x, y, z):
    return (x + y) ** z
""",
    # PyTorch issue #84510: x [300, 1, 1, 1, 1] requiring grad, y [1, 1, 1, 4], z [1, 1, 1, 1]
    shapes=(((30, 1, 1, 1, 1), (1, 1, 1, 4), (1, 1, 1, 1)),) * 6,
    requires_grad=((True, False, False),) * 6,
    positive=True,
)

POW_BROADCAST_ALL = Case(
    name="pow_broadcast_all_inputs",
    source=POW_BROADCAST.source,
    shapes=(((30, 1, 1, 1, 1), (1, 1, 1, 4), (1, 1, 1, 1)),) * 5,
    positive=True,
)

LAYER_NORM_KEEPDIM = Case(
    name="layer_norm_keepdim",
    # PyTorch issue #108670: normalization over dim 1 of (B, C, L), scale of shape (1, C, 1)
    source="""
def f(x, gamma):
    mean = x.mean(dim=1, keepdim=True)
    var = x.var(dim=1, keepdim=True, unbiased=False)
    x = (x - mean) / torch.sqrt(var + 1e-5)
    return gamma * x
""",
    shapes=(((4, 16, 24), (1, 16, 1)),) * 5,
)

OUTPUT_READ_LATER = Case(
    name="output_read_later",
    # PyTorch issue #66883: an output of a differentiable graph is also used inside it
    source="""
def f(x, w, b):
    y = torch.tanh(x.mm(w) + b)
    z = torch.sigmoid(y) * y
    return y, z
""",
    shapes=(((5, 4), (4, 3), (3,)),) * 5,
)

BROADCAST_PATTERN_CHANGES = Case(
    name="broadcast_pattern_changes",
    # same ranks every call (one plan), different broadcasting: sums needed or not
    source="""
def f(x, y, z):
    a = x * y + z
    return torch.tanh(a) * x
""",
    shapes=(
        ((4, 3), (4, 3), (4, 3)),
        ((4, 1), (4, 3), (1, 3)),
        ((4, 3), (1, 1), (4, 3)),
        ((1, 3), (4, 1), (1, 1)),
        ((4, 3), (4, 3), (4, 3)),
        ((4, 1), (4, 3), (1, 3)),
    ),
)

RANK_CHANGES = Case(
    name="rank_changes",
    source="""
def f(x, y):
    return torch.sigmoid(x * y) + x
""",
    shapes=(
        ((2, 3), (3,)),
        ((2, 3), (2, 3)),
        ((3,), (2, 3)),
        ((2, 3), (3,)),
        ((2, 1, 3), (4, 3)),
    ),
)

REQUIRES_GRAD_CHANGES = Case(
    name="requires_grad_changes",
    source="""
def f(x, y):
    h = torch.tanh(x * y)
    return h * h + y
""",
    shapes=(((3, 4), (3, 4)),) * 5,
    requires_grad=(
        (True, False),
        (False, True),
        (True, True),
        (True, False),
        (True, True),
    ),
)

CASES = {
    c.name: c
    for c in (
        POW_BROADCAST,
        POW_BROADCAST_ALL,
        LAYER_NORM_KEEPDIM,
        OUTPUT_READ_LATER,
        BROADCAST_PATTERN_CHANGES,
        RANK_CHANGES,
        REQUIRES_GRAD_CHANGES,
    )
}


@cache
def program(lib_name: str, name: str) -> Any:
    """The case's function: scripted by tsjit, eager for PyTorch."""
    import importlib

    lib = importlib.import_module(lib_name)
    source = CASES[name].source
    if lib_name == "tsjit":
        from ts_frontend import script_source

        return script_source(source, namespace={"torch": lib})
    namespace: dict[str, Any] = {"torch": lib}
    exec(compile(source, f"<{name}>", "exec"), namespace)
    return namespace["f"]


def run(lib: Any, case: Case, arrays: list[np.ndarray], seed: Any) -> dict[str, Any]:
    """One iteration: outputs, gradients of the inputs that require grad, double backward."""
    iteration = seed[1]
    mask = case.grad_mask(iteration, len(arrays))
    inputs = [lib.from_numpy(a.copy()).requires_grad_(m) for a, m in zip(arrays, mask, strict=True)]
    leaves = [t for t, m in zip(inputs, mask, strict=True) if m]
    out = program(lib.__name__, case.name)(*inputs)
    outs = list(out) if isinstance(out, tuple) else [out]
    rng = np.random.default_rng(zlib.crc32(repr((seed, "cotangents")).encode()))
    loss = None
    for o in outs:
        term = (o * lib.from_numpy(rng.standard_normal(tuple(o.shape)))).sum()
        loss = term if loss is None else loss + term
    grads = lib.autograd.grad(loss, leaves, create_graph=case.double, allow_unused=True)
    result: dict[str, Any] = {
        "outputs": [o.detach().numpy().copy() for o in outs],
        "grads": [None if g is None else g.detach().numpy().copy() for g in grads],
        "hvp": None,
    }
    second = [g for g in grads if g is not None and g.requires_grad]
    if case.double and second:
        rng = np.random.default_rng(zlib.crc32(repr((seed, "vectors")).encode()))
        s = None
        for g in second:
            term = (g * lib.from_numpy(rng.standard_normal(tuple(g.shape)))).sum()
            s = term if s is None else s + term
        hvp = lib.autograd.grad(s, leaves, allow_unused=True)
        result["hvp"] = [None if h is None else h.detach().numpy().copy() for h in hvp]
    return result
