"""Operators that differentiated graphs use and the library had no kernel for.

- `aten::_grad_sum_to_size(x, size)`: a gradient summed back to the size of
  an operand that was broadcast (`x` itself when `size` is None).
- `prim::MMTreeReduce(lhs..., rhs...)`: Σ lhsᵢ @ rhsᵢ, as one product of the
  concatenated operands; `prim::MMBatchSide[side](shared, others...)`: the
  products of one operand with several, as one product then split. The
  `batch_mm` pass makes them; in backward graphs the gradient of a weight
  shared by the steps of an unrolled loop is such a sum (one product of
  inner dimension 20 × 64 instead of 20 of 64).

All are composite: the operations they run record autograd history
themselves where it is needed, so they are differentiable again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ts_ir import Node

from ..ops.common import sum_to_shape
from ..ops.dispatch import call, implement_factory, implements
from ..tensor import Tensor, TensorError


@implements("aten::_grad_sum_to_size", autograd=False)
def grad_sum_to_size(self: Tensor, size: Sequence[int] | None) -> Tensor:
    """`self` summed to `size` over the dimensions it was broadcast along; `self` if size is None."""
    if size is None:
        return self
    return sum_to_shape(self, tuple(size))


def mm_tree_reduce(lhs: Sequence[Tensor], rhs: Sequence[Tensor]) -> Tensor:
    """Σ lhsᵢ @ rhsᵢ: one product of the lhs concatenated along columns and the rhs along rows."""
    if len(lhs) != len(rhs) or not lhs:
        raise TensorError("prim::MMTreeReduce needs as many left as right operands")
    if len(lhs) == 1:
        return call("aten::mm", lhs[0], rhs[0])
    return call("aten::mm", call("aten::cat", list(lhs), 1), call("aten::cat", list(rhs), 0))


def mm_batch_side(side: int, shared: Tensor, others: Sequence[Tensor]) -> tuple[Tensor, ...]:
    """`shared @ oᵢ` (side 0) or `oᵢ @ shared` (side 1) for every oᵢ, as one product, split."""
    if side == 0:
        product = call("aten::mm", shared, call("aten::cat", list(others), 1))
        sizes = [o.shape[1] for o in others]
        return tuple(call("aten::split_with_sizes", product, sizes, 1))
    product = call("aten::mm", call("aten::cat", list(others), 0), shared)
    sizes = [o.shape[0] for o in others]
    return tuple(call("aten::split_with_sizes", product, sizes, 0))


@implement_factory("prim::MMTreeReduce")
def _tree_reduce(node: Node) -> Callable[..., Any]:
    n = len(node.inputs) // 2

    def run(*operands: Tensor) -> Tensor:
        return mm_tree_reduce(operands[:n], operands[n:])

    return run


@implement_factory("prim::MMBatchSide")
def _batch_side(node: Node) -> Callable[..., Any]:
    side = node.i("side")

    def run(shared: Tensor, *others: Tensor) -> Any:
        out = mm_batch_side(side, shared, others)
        return out[0] if len(out) == 1 else out

    return run
