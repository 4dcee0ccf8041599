"""`Adam` and `AdamW`, updating as `torch.optim.Adam`/`AdamW` do (their single-tensor path):

    t = t + 1
    g = grad + weight_decay * p             (Adam: L2 penalty in the gradient)
    p = p * (1 - lr * weight_decay)         (AdamW: decoupled weight decay)
    m = lerp(m, g, 1 - beta1)
    v = beta2 * v + (1 - beta2) * g * g
    v_max = max(v_max, v)                   (amsgrad; v_max replaces v below)
    p = p - lr / (1 - beta1^t) * m / (sqrt(v) / sqrt(1 - beta2^t) + eps)

Arithmetic is in the parameter's dtype, with the hyperparameters rounded to
it, and `lerp` computed as ATen computes it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from ..tensor import bump_version, wrap
from .optimizer import Optimizer, _grad_array


def _lerp_(start: np.ndarray, end: np.ndarray, weight: float) -> None:
    """start += weight * (end - start), in ATen's two forms (exact at both ends)."""
    w = start.dtype.type(weight)
    if abs(weight) < 0.5:
        start += w * (end - start)
    else:
        start[...] = end - (end - start) * (start.dtype.type(1) - w)


class Adam(Optimizer):
    _decoupled = False

    def __init__(
        self,
        params: Iterable[Any],
        lr: float = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0.0,
        amsgrad: bool = False,
        *,
        foreach: bool | None = None,
        maximize: bool = False,
        capturable: bool = False,
        differentiable: bool = False,
        fused: bool | None = None,
        decoupled_weight_decay: bool = False,
    ) -> None:
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if eps < 0.0:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if differentiable:
            raise ValueError("differentiable optimizer steps are not supported")
        defaults = {
            "lr": lr,
            "betas": tuple(betas),
            "eps": eps,
            "weight_decay": weight_decay,
            "amsgrad": amsgrad,
            "maximize": maximize,
            "foreach": foreach,
            "capturable": capturable,
            "differentiable": differentiable,
            "fused": fused,
            "decoupled_weight_decay": decoupled_weight_decay or self._decoupled,
        }
        super().__init__(params, defaults)

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """One update of every parameter that has a gradient; returns the closure's loss."""
        loss = self._evaluate(closure)
        for group in self.param_groups:
            beta1, beta2 = group["betas"]
            lr, eps, decay = group["lr"], group["eps"], group["weight_decay"]
            for p in group["params"]:
                g = _grad_array(p, group["maximize"])
                if g is None:
                    continue
                x = p._data
                one = x.dtype.type
                state = self.state[p]
                if not state:
                    state["step"] = wrap(np.zeros((), dtype=np.float32))
                    state["exp_avg"] = wrap(np.zeros_like(x))
                    state["exp_avg_sq"] = wrap(np.zeros_like(x))
                    if group["amsgrad"]:
                        state["max_exp_avg_sq"] = wrap(np.zeros_like(x))
                step_t = state["step"]._data
                step_t += np.float32(1)
                step = float(step_t)
                if decay != 0:
                    if group["decoupled_weight_decay"]:
                        x *= one(1 - lr * decay)
                    else:
                        g = g + one(decay) * x
                m = state["exp_avg"]._data
                v = state["exp_avg_sq"]._data
                _lerp_(m, g, 1 - beta1)
                v *= one(beta2)
                v += one(1 - beta2) * g * g
                if group["amsgrad"]:
                    v_max = state["max_exp_avg_sq"]._data
                    np.maximum(v_max, v, out=v_max)
                    v = v_max
                bias_correction1 = 1 - beta1**step
                bias_correction2 = 1 - beta2**step
                step_size = lr / bias_correction1
                denom = np.sqrt(v) / one(math.sqrt(bias_correction2)) + one(eps)
                x += (one(-step_size) * m) / denom
                bump_version(p)
        return loss


class AdamW(Adam):
    """Adam with decoupled weight decay (by default 1e-2)."""

    _decoupled = True

    def __init__(
        self,
        params: Iterable[Any],
        lr: float = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 1e-2,
        amsgrad: bool = False,
        *,
        maximize: bool = False,
        foreach: bool | None = None,
        capturable: bool = False,
        differentiable: bool = False,
        fused: bool | None = None,
    ) -> None:
        super().__init__(
            params,
            lr,
            betas,
            eps,
            weight_decay,
            amsgrad,
            foreach=foreach,
            maximize=maximize,
            capturable=capturable,
            differentiable=differentiable,
            fused=fused,
            decoupled_weight_decay=True,
        )


__all__ = ["Adam", "AdamW"]
