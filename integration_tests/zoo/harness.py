"""Weights, data, losses and training runs for the zoo, the same in tsjit and PyTorch.

Weights are generated from a seed with numpy's `RandomState` (reproducible
without torch) and loaded into both libraries by state-dict key, so nothing
large is committed: `recorded.json` holds PyTorch's results for the small
models (outputs, gradient fingerprints, training losses), written by
`python -m zoo.record` from `integration_tests/`.
"""

from __future__ import annotations

import zlib
from typing import Any

import numpy as np

from .models import SPECS, build

SEED = 1234
LR = {"sgd": 0.05, "adam": 0.01}


def _rng(*parts: Any) -> np.random.RandomState:
    return np.random.RandomState(zlib.crc32(repr((SEED, *parts)).encode()))


def make_weights(template: dict[str, Any], name: str) -> dict[str, np.ndarray]:
    """A state dict of the template's keys and shapes, drawn from the seed.

    Matrices and kernels are U(-sqrt(3/fan_in), sqrt(3/fan_in)) (unit-variance
    preserving); norm scales U(0.8, 1.2); biases U(-0.1, 0.1); running means
    U(-0.1, 0.1) and variances U(0.8, 1.2); integer buffers zero.
    """
    out = {}
    for key, tensor in template.items():
        shape = tuple(tensor.shape)
        rng = _rng(name, key)
        dtype = str(tensor.dtype).replace("torch.", "").replace("tsjit.", "")
        if "int" in dtype:
            out[key] = np.zeros(shape, dtype=np.int64)
            continue
        leaf = key.rsplit(".", 1)[-1]
        if leaf == "running_var" or (len(shape) == 1 and leaf == "weight"):
            value = rng.uniform(0.8, 1.2, shape)
        elif len(shape) <= 1:
            value = rng.uniform(-0.1, 0.1, shape)
        else:
            fan_in = int(np.prod(shape[1:]))
            bound = np.sqrt(3.0 / fan_in)
            value = rng.uniform(-bound, bound, shape)
        out[key] = value.astype(np.float32)
    return out


def make_batch(name: str, size: str) -> tuple[np.ndarray, np.ndarray]:
    """(input, target) for the model: images or tokens, and class or next-token targets."""
    spec = SPECS[name]
    shapes = spec.inputs[size]
    args = spec.args[size]
    rng = _rng(name, size, "batch")
    if "image" in shapes:
        x = rng.standard_normal(shapes["image"]).astype(np.float32)
    else:
        x = rng.randint(0, args["vocab"], shapes["tokens"]).astype(np.int64)
    if spec.task == "language":
        target = rng.randint(0, args["vocab"], shapes["tokens"]).astype(np.int64)
    else:
        classes = args.get("num_classes", args.get("classes", 10))
        if name == "mlp":
            classes = args["sizes"][-1]
        target = rng.randint(0, classes, (x.shape[0],)).astype(np.int64)
    return x, target


class Library:
    """What a run needs from one library: tensors in, arrays out, the loss."""

    def __init__(self, torch: Any) -> None:
        self.torch = torch

    def tensor(self, a: np.ndarray) -> Any:
        if hasattr(self.torch, "from_numpy"):
            return self.torch.from_numpy(a.copy())
        return self.torch.tensor(a.copy())

    def model(self, name: str, size: str, weights: dict[str, np.ndarray]) -> Any:
        m = build(self.torch, name, size)
        m.load_state_dict({k: self.tensor(v) for k, v in weights.items()})
        return m

    def loss(self, name: str, logits: Any, target: Any) -> Any:
        F = self.torch.nn.functional
        if SPECS[name].task == "language":
            return F.cross_entropy(logits.reshape(-1, logits.size(-1)), target.reshape(-1))
        return F.cross_entropy(logits, target)

    def optimizer(self, kind: str, params: Any) -> Any:
        if kind == "sgd":
            return self.torch.optim.SGD(params, lr=LR["sgd"], momentum=0.9)
        return self.torch.optim.Adam(params, lr=LR["adam"])


def numpy_of(t: Any) -> np.ndarray:
    return np.asarray(t.detach().numpy())


def fingerprint(name: str, key: str, grad: np.ndarray) -> list[float]:
    """Two numbers that move with every element of a gradient: its projection on a fixed
    random direction, and its norm."""
    direction = _rng("fingerprint", name, key).standard_normal(grad.shape)
    g = grad.astype(np.float64)
    return [float((g * direction).sum()), float(np.sqrt((g * g).sum()))]


def template(name: str, size: str) -> dict[str, Any]:
    """The state-dict keys and shapes of a model, from a tsjit build."""
    import tsjit

    return build(tsjit, name, size).state_dict()


def training_step(lib: Library, model: Any, name: str, x: Any, target: Any) -> tuple[Any, dict]:
    """One forward and backward in training mode: the loss and the parameters' gradients."""
    model.train()
    loss = lib.loss(name, model(x), target)
    loss.backward()
    grads = {k: numpy_of(p.grad) for k, p in model.named_parameters() if p.grad is not None}
    return loss, grads


def float64_steps(lib: Library, model: Any, name: str, x: np.ndarray, target: np.ndarray):
    """Iterations 1 to `FLOAT64_STEPS` of the training step in float64, with an SGD update
    (lr 0.1, no momentum) between them: yields each iteration's loss and gradients.

    `model` holds float64 parameters already (converted before it was scripted); with a
    scripted model the first iterations run the executor's profiling plans and the later
    ones its specialized plans with their differentiable graphs, so each iteration
    exercises another path.
    """
    x = x.astype(np.float64) if x.dtype == np.float32 else x
    opt = lib.torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(FLOAT64_STEPS):
        opt.zero_grad(set_to_none=True)
        loss, grads = training_step(lib, model, name, lib.tensor(x), lib.tensor(target))
        yield float(loss.item()), grads
        opt.step()


#: iterations of `float64_steps`
FLOAT64_STEPS = 5


def train(lib: Library, model: Any, name: str, kind: str, x: Any, target: Any, steps: int = 10):
    """`steps` optimizer steps on one batch; the loss before each step."""
    model.train()
    opt = lib.optimizer(kind, model.parameters())
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = lib.loss(name, model(x), target)
        loss.backward()
        opt.step()
        losses.append(float(loss.item()))
    return losses
