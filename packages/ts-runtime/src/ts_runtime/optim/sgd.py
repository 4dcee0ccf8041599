"""`SGD`: stochastic gradient descent with momentum, dampening, Nesterov momentum and
weight decay, updating as `torch.optim.SGD` does (its single-tensor path):

    g = grad + weight_decay * p
    b = g                                   (first step)
    b = momentum * b + (1 - dampening) * g  (later steps)
    g = g + momentum * b  (nesterov)   or   g = b
    p = p - lr * g

Arithmetic is in the parameter's dtype, with the hyperparameters rounded to it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..tensor import bump_version, wrap
from .optimizer import Optimizer, _grad_array


class SGD(Optimizer):
    def __init__(
        self,
        params: Iterable[Any],
        lr: float = 1e-3,
        momentum: float = 0.0,
        dampening: float = 0.0,
        weight_decay: float = 0.0,
        nesterov: bool = False,
        *,
        maximize: bool = False,
        foreach: bool | None = None,
        differentiable: bool = False,
        fused: bool | None = None,
    ) -> None:
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        if differentiable:
            raise ValueError("differentiable optimizer steps are not supported")
        defaults = {
            "lr": lr,
            "momentum": momentum,
            "dampening": dampening,
            "weight_decay": weight_decay,
            "nesterov": nesterov,
            "maximize": maximize,
            "foreach": foreach,
            "differentiable": differentiable,
            "fused": fused,
        }
        super().__init__(params, defaults)

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """One update of every parameter that has a gradient; returns the closure's loss."""
        loss = self._evaluate(closure)
        for group in self.param_groups:
            momentum = group["momentum"]
            for p in group["params"]:
                g = _grad_array(p, group["maximize"])
                if g is None:
                    continue
                x = p._data
                one = x.dtype.type
                if group["weight_decay"] != 0:
                    g = g + one(group["weight_decay"]) * x
                if momentum != 0:
                    state = self.state[p]
                    buf = state.get("momentum_buffer")
                    if buf is None:
                        buf = wrap(g.copy())
                        state["momentum_buffer"] = buf
                    else:
                        b = buf._data
                        b *= one(momentum)
                        b += one(1 - group["dampening"]) * g
                    g = g + one(momentum) * buf._data if group["nesterov"] else buf._data
                x -= one(group["lr"]) * g
                bump_version(p)
        return loss


__all__ = ["SGD"]
