"""`tsjit.optim`: ts-runtime's optimizers (`SGD`, `Adam`, `AdamW`), as `torch.optim`."""

from __future__ import annotations

from ts_runtime.optim import SGD, Adam, AdamW, Optimizer

__all__ = ["SGD", "Adam", "AdamW", "Optimizer"]
