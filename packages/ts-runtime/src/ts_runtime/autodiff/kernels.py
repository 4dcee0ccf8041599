"""Operators that differentiated graphs use and the library had no kernel for."""

from __future__ import annotations

from collections.abc import Sequence

from ..ops.common import sum_to_shape
from ..ops.dispatch import implements
from ..tensor import Tensor


# composite: the sum it makes records its own history, so it is differentiable again
@implements("aten::_grad_sum_to_size", autograd=False)
def grad_sum_to_size(self: Tensor, size: Sequence[int] | None) -> Tensor:
    """`self` summed to `size` over the dimensions it was broadcast along; `self` if size is None."""
    if size is None:
        return self
    return sum_to_shape(self, tuple(size))
