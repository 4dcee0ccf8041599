"""Eager kernels for CUDA tensors, by operator.

    kernel_for(op)   # the CUDA kernel of a registry operator, or None

Explicit kernels (`KERNELS`: transfers, copies, views, reductions, matrix
products) come first; then every operator with a CUDA lowering, as a
one-node fused kernel (`pointwise.py`), with its in-place variant; then
creation operators given `device="cuda"` (`movement.factory_kernel`).
Anything else has no CUDA kernel: dispatch then raises an error that names
the operator and the device, and nothing is copied to the host.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ts_schema import Operator

from . import matmul, movement, reductions
from .pointwise import pointwise_kernel

KERNELS: dict[str, Callable[..., Any]] = {
    **movement.TRANSFERS,
    **movement.COPIES,
    **movement.VIEWS,
    **reductions.KERNELS,
    **matmul.KERNELS,
}


def kernel_for(op: Operator) -> Callable[..., Any] | None:
    kernel = KERNELS.get(op.key)
    if kernel is not None:
        return kernel
    return pointwise_kernel(op) or movement.factory_kernel(op)


__all__ = ["KERNELS", "kernel_for"]
