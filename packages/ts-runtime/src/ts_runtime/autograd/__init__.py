"""Reverse-mode automatic differentiation: `backward`, `grad`, and the grad-mode switches."""

from .engine import backward, grad
from .grad_mode import (
    GRAD_MODE,
    enable_grad,
    inference_mode,
    is_grad_enabled,
    no_grad,
    set_grad_enabled,
)
from .graph import AccumulateGrad, Node, NotDifferentiable, OpBackward

__all__ = [
    "GRAD_MODE",
    "AccumulateGrad",
    "Node",
    "NotDifferentiable",
    "OpBackward",
    "backward",
    "enable_grad",
    "grad",
    "inference_mode",
    "is_grad_enabled",
    "no_grad",
    "set_grad_enabled",
]
