"""`Optimizer`: parameter groups, per-parameter state, `zero_grad`, and state dicts.

As `torch.optim.Optimizer`: a parameter group is a dict holding `params` and
the group's hyperparameters (missing ones taken from `defaults`); `state`
maps each parameter to its optimizer state (momentum buffers, moment
estimates, step counts). Subclasses implement `step`, which updates the
parameters in place from their `.grad`, without recording history.
"""

from __future__ import annotations

import copy
from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from ..tensor import Tensor, wrap


class Optimizer:
    """Base class of the optimizers."""

    def __init__(self, params: Iterable[Any], defaults: dict[str, Any]) -> None:
        self.defaults = defaults
        self.state: defaultdict[Tensor, dict[str, Any]] = defaultdict(dict)
        self.param_groups: list[dict[str, Any]] = []
        if isinstance(params, Tensor):
            raise TypeError(
                "params argument given to the optimizer should be an iterable of Tensors or "
                f"dicts, but got {type(params).__name__}"
            )
        groups = list(params)
        if not groups:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    def add_param_group(self, param_group: dict[str, Any]) -> None:
        """Add a group: its `params` and any hyperparameters that differ from the defaults."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group).__name__}")
        group = dict(param_group)
        params = group["params"]
        group["params"] = [params] if isinstance(params, Tensor) else list(params)
        for p in group["params"]:
            if not isinstance(p, Tensor):
                raise TypeError(
                    f"optimizer can only optimize Tensors, but one of the params is "
                    f"{type(p).__name__}"
                )
            if p.grad_fn is not None:
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            group.setdefault(name, default)
        seen = {id(p) for g in self.param_groups for p in g["params"]}
        if any(id(p) in seen for p in group["params"]):
            raise ValueError("some parameters appear in more than one parameter group")
        if len({id(p) for p in group["params"]}) != len(group["params"]):
            raise ValueError("a parameter group holds the same parameter twice")
        self.param_groups.append(group)

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Clear the gradients of every parameter (set them to None, or to zeros)."""
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                if set_to_none:
                    p.grad = None
                else:
                    p.grad._data[...] = 0

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        raise NotImplementedError

    def _evaluate(self, closure: Callable[[], Any] | None) -> Any:
        if closure is None:
            return None
        from ..autograd.grad_mode import enable_grad

        with enable_grad():
            return closure()

    # -- state dicts

    def state_dict(self) -> dict[str, Any]:
        """{"state": {index: state}, "param_groups": [group with parameter indices]}."""
        index: dict[int, int] = {}
        groups = []
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            for p in group["params"]:
                index.setdefault(id(p), len(index))
            packed["params"] = [index[id(p)] for p in group["params"]]
            groups.append(packed)
        state = {
            index[id(p)]: {k: _copy(v) for k, v in s.items()}
            for p, s in self.state.items()
            if id(p) in index
        }
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore the hyperparameters and the per-parameter state saved by `state_dict`."""
        groups = state_dict["param_groups"]
        if len(groups) != len(self.param_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        for saved, group in zip(groups, self.param_groups, strict=True):
            if len(saved["params"]) != len(group["params"]):
                raise ValueError(
                    "loaded state dict contains a parameter group that doesn't match the size "
                    "of optimizer's group"
                )
        params = {
            i: p
            for saved, group in zip(groups, self.param_groups, strict=True)
            for i, p in zip(saved["params"], group["params"], strict=True)
        }
        self.state = defaultdict(dict)
        for i, s in state_dict["state"].items():
            p = params[int(i)]
            self.state[p] = {k: _copy(v, like=p) for k, v in s.items()}
        for saved, group in zip(groups, self.param_groups, strict=True):
            for k, v in saved.items():
                if k != "params":
                    group[k] = copy.deepcopy(v)

    def __repr__(self) -> str:
        lines = [f"{type(self).__name__} ("]
        for i, group in enumerate(self.param_groups):
            lines.append(f"Parameter Group {i}")
            for key in sorted(group):
                if key != "params":
                    lines.append(f"    {key}: {group[key]}")
        lines.append(")")
        return "\n".join(lines)


def _copy(value: Any, like: Tensor | None = None) -> Any:
    if isinstance(value, Tensor):
        data = value._data.copy()
        if like is not None and data.dtype.kind == "f" and data.ndim:
            data = data.astype(like._data.dtype)
        return wrap(data)
    return copy.deepcopy(value)


def _grad_array(p: Tensor, maximize: bool) -> np.ndarray | None:
    """The gradient of `p` as an array of `p`'s dtype (negated to maximize), or None."""
    if p.grad is None:
        return None
    g = p.grad._data
    if g.dtype != p._data.dtype:
        g = g.astype(p._data.dtype)
    return -g if maximize else g


__all__ = ["Optimizer"]
