"""`tsjit.optim` against `torch.optim`: the same parameters and the same gradients give
the same parameters after every step, for each optimizer and option."""

from __future__ import annotations

import numpy as np
import pytest
import tsjit

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

CONFIGS = [
    ("SGD", {"lr": 0.1}),
    ("SGD", {"lr": 0.05, "momentum": 0.9}),
    ("SGD", {"lr": 0.05, "momentum": 0.9, "dampening": 0.3, "weight_decay": 0.01}),
    ("SGD", {"lr": 0.05, "momentum": 0.8, "nesterov": True, "weight_decay": 0.1}),
    ("SGD", {"lr": 0.05, "momentum": 0.5, "maximize": True}),
    ("Adam", {}),
    ("Adam", {"lr": 0.01, "betas": (0.8, 0.99), "eps": 1e-6, "weight_decay": 0.1}),
    ("Adam", {"lr": 0.01, "amsgrad": True}),
    ("Adam", {"lr": 0.01, "maximize": True}),
    ("AdamW", {}),
    ("AdamW", {"lr": 0.02, "weight_decay": 0.1, "amsgrad": True}),
]


@pytest.mark.parametrize(
    ("name", "options"), CONFIGS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(CONFIGS)]
)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_steps_match_pytorch(name, options, dtype):
    rng = np.random.RandomState(0)
    shapes = [(4, 3), (3,), (2, 2, 2)]
    start = [rng.standard_normal(s).astype(dtype) for s in shapes]
    ours = [tsjit.nn.Parameter(tsjit.tensor(a.copy())) for a in start]
    theirs = [torch.nn.Parameter(torch.from_numpy(a.copy())) for a in start]
    # two groups, the second with its own learning rate
    lr = options.get("lr", 1e-3)
    opt_ours = getattr(tsjit.optim, name)(
        [{"params": ours[:2]}, {"params": ours[2:], "lr": lr / 2}], **options
    )
    opt_theirs = getattr(torch.optim, name)(
        [{"params": theirs[:2]}, {"params": theirs[2:], "lr": lr / 2}], **options
    )
    for step in range(12):
        grads = [rng.standard_normal(s).astype(dtype) for s in shapes]
        for p, q, g in zip(ours, theirs, grads, strict=True):
            p.grad = tsjit.tensor(g.copy())
            q.grad = torch.from_numpy(g.copy())
        if step == 5:  # a parameter without a gradient is left alone
            ours[1].grad = None
            theirs[1].grad = None
        opt_ours.step()
        opt_theirs.step()
        rtol = 1e-5 if dtype == "float32" else 1e-12
        for i, (p, q) in enumerate(zip(ours, theirs, strict=True)):
            np.testing.assert_allclose(
                p.detach().numpy(),
                q.detach().numpy(),
                rtol=rtol,
                atol=rtol,
                err_msg=f"{name} {options}: parameter {i} after step {step}",
            )
