"""The `example` namespace's operators, registered on import.

The registry imports this module through the `ts.operators` entry point
`example` the first time a lookup misses the namespace.
"""

from __future__ import annotations

from typing import Any

from ts_schema import operator


@operator("example::scaled_add_(Tensor(a!) self, Tensor other, float alpha=1.0) -> Tensor(a!)")
def scaled_add_(self: Any, other: Any, alpha: float = 1.0) -> Any:
    """`self += alpha * other`, in place; returns `self`."""
    return self.add_(other.mul(alpha))


@operator("example::axpy(Tensor x, Tensor y, float a=1.0) -> Tensor")
def axpy(x: Any, y: Any, a: float = 1.0) -> Any:
    """`a * x + y`, a new tensor."""
    return x.mul(a).add(y)
