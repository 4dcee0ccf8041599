"""Autodiff of graphs: differentiable graphs run as one autograd node, from symbolic formulas.

- `symbolic`: the eager derivative formulas, evaluated on symbolic tensors,
  are the symbolic gradients ts-passes' `differentiate` writes (one source);
- `differentiable_graph`: the operation of a `prim::DifferentiableGraph`
  node (PyTorch's `DifferentiableGraphOp`) and its autograd node;
- `kernels`: the operators differentiated graphs use (`aten::_grad_sum_to_size`).
"""

from . import kernels
from .differentiable_graph import (
    AutodiffStats,
    DifferentiableGraphBackward,
    DifferentiableGraphOp,
    ops_for,
)
from .symbolic import NotSymbolicError, SymbolicTensor, formula_rule, install

install()

__all__ = [
    "AutodiffStats",
    "DifferentiableGraphBackward",
    "DifferentiableGraphOp",
    "NotSymbolicError",
    "SymbolicTensor",
    "formula_rule",
    "kernels",
    "ops_for",
]
