"""Running a layer eagerly, scripted, traced and inside a scripted model, and comparing.

Inputs are numpy arrays (from `samples.py`); `to_tsjit`/`to_torch` make the same
values in either library. `state_of` and `restore` snapshot a layer's state so that
runs which update it (batch norm in training) start from the same point.
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import tsjit


def to_tsjit(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return tsjit.tensor(value.copy())
    return value


def to_torch(value: Any) -> Any:
    import torch

    if isinstance(value, np.ndarray):
        return torch.from_numpy(value.copy())
    return value


def arrays(value: Any) -> list[np.ndarray | None]:
    """The tensors of a (nested) result as numpy arrays, in order; None stays None."""
    if value is None:
        return [None]
    if isinstance(value, (tuple, list)):
        return [a for v in value for a in arrays(v)]
    if hasattr(value, "detach"):
        return [np.asarray(value.detach().numpy())]
    raise TypeError(f"unexpected result of type {type(value).__name__}")


def assert_close(actual: Any, expected: Any, rtol: float, atol: float, what: str) -> None:
    got, want = arrays(actual), arrays(expected)
    assert len(got) == len(want), f"{what}: {len(got)} results, expected {len(want)}"
    for i, (a, b) in enumerate(zip(got, want, strict=True)):
        if a is None or b is None:
            assert a is None and b is None, f"{what}: result {i} is None on one side only"
            continue
        assert a.shape == b.shape, f"{what}: result {i} has shape {a.shape}, expected {b.shape}"
        np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, err_msg=f"{what}: result {i}")


def state_of(module: Any) -> dict[str, np.ndarray]:
    return {k: np.array(v.detach().numpy()) for k, v in module.state_dict().items()}


def restore(module: Any, state: dict[str, np.ndarray]) -> None:
    module.load_state_dict({k: tsjit.tensor(v.copy()) for k, v in state.items()})


def load_into_torch(torch_module: Any, state: dict[str, np.ndarray]) -> None:
    import torch

    torch_module.load_state_dict({k: torch.from_numpy(v.copy()) for k, v in state.items()})


class Holder1(tsjit.nn.Module):
    """A model holding the layer under test (one input)."""

    def __init__(self, inner: Any) -> None:
        super().__init__()
        self.inner = inner

    def forward(self, a):
        return self.inner(a)


class Holder2(tsjit.nn.Module):
    def __init__(self, inner: Any) -> None:
        super().__init__()
        self.inner = inner

    def forward(self, a, b):
        return self.inner(a, b)


class Holder3(tsjit.nn.Module):
    def __init__(self, inner: Any) -> None:
        super().__init__()
        self.inner = inner

    def forward(self, a, b, c):
        return self.inner(a, b, c)


HOLDERS = {1: Holder1, 2: Holder2, 3: Holder3}


def held(module: Any, arity: int) -> Any:
    return HOLDERS[arity](module)


def clone(module: Any) -> Any:
    return copy.deepcopy(module)
