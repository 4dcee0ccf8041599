"""Reductions over the innermost dimension, and the operators built from them.

    %m = aten::amax(%x, [-1], True)          # one value per row of the innermost dimension
    %e = aten::exp(aten::sub(%x, %m))
    %s = aten::sum(%e, [-1], True, None)
    %y = aten::div(%e, %s)                   # softmax(%x, -1)

A group may hold `sum`, `mean`, `amax` and `amin` over the innermost dimension
with `keepdim=True` (ts-passes' `fuse_graph` rewrites `keepdim=False` into a
keepdim reduction and a `squeeze` outside the group), and `softmax`,
`log_softmax` and `layer_norm` over the innermost dimension, which are
rewritten into those reductions and pointwise operations before the
analysis (`decompose`), as PyTorch's TensorExpr fuser lowers them. The
kernel then runs row by row (`Path.ROWS` in `specialization`): one loop
over the row per round of reductions (a reduction reading another's result
waits for it), then one loop for the outputs; what depends only on reduced
values is computed once per row. Sums accumulate in the input dtype with
reassociation allowed (vector lanes of partial sums, as PyTorch's
vectorized kernels do), so they differ from numpy's pairwise sums in the
last bits; maxima propagate NaN as numpy's.

Operators fuse only in floating point: integer sums promote to int64,
which the interpreter does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ts_ir import Graph, Node, TensorType, Value, constant_value, prim
from ts_schema import RuleTable

from .errors import UnsupportedFusionError
from .llvm_types import is_float
from .lowerings import CPU_LOWERINGS, Lowering, node_constant, register
from .operands import NO_CONST, Operand

REDUCTIONS = ("sum", "mean", "amax", "amin")


@dataclass(frozen=True, slots=True)
class ShapeRequirement:
    """What a decomposed operator checked of its operands' shapes (layer_norm's weight must be
    as long as the row): `value`'s trailing dimensions must be `trailing`, or with `exact`, its
    whole shape."""

    value: Value
    trailing: tuple[int, ...]
    exact: bool
    message: str

    def check(self, shape: tuple[int, ...]) -> None:
        ok = (
            shape == self.trailing
            if self.exact
            else len(shape) >= len(self.trailing)
            and shape[len(shape) - len(self.trailing) :] == self.trailing
        )
        if not ok:
            raise UnsupportedFusionError(f"{self.message} (got shape {list(shape)})")


# ---------------------------------------------------------------------------
# fusibility


def _innermost(node: Node, dim: object) -> str | None:
    """None when `dim` may name the innermost dimension of the node's first input, as far as
    its type tells (with the rank unknown, the analysis checks it on the real shapes)."""
    if not isinstance(dim, int) or isinstance(dim, bool):
        return f"{node.kind} over a dimension that is not a constant int"
    t = node.inputs[0].type
    rank = t.dim() if isinstance(t, TensorType) else None
    if dim == -1 or rank is None or (rank > 0 and dim == rank - 1):
        return None
    return f"{node.kind} over dimension {dim} of a {rank}-d tensor, not the innermost"


def _reduction_check(*, dtype_index: int | None) -> Callable[[Node], str | None]:
    def check(node: Node) -> str | None:
        dims = node_constant(node, 1)
        if not isinstance(dims, list) or len(dims) != 1:
            return f"{node.kind} over dimensions {dims!r} (the fuser reduces over one)"
        keepdim = node_constant(node, 2)
        if keepdim is not True:
            return f"{node.kind} with keepdim={keepdim!r} (fused reductions keep the dimension)"
        if dtype_index is not None and node_constant(node, dtype_index) is not None:
            return f"{node.kind} with a dtype argument"
        return _innermost(node, dims[0])

    return check


def _softmax_check(node: Node) -> str | None:
    if node_constant(node, 2) is not None:
        return f"{node.kind} with a dtype argument"
    return _innermost(node, node_constant(node, 1))


def _layer_norm_check(node: Node) -> str | None:
    shape = node_constant(node, 1)
    if not isinstance(shape, list) or len(shape) != 1 or not isinstance(shape[0], int):
        return f"layer_norm over normalized_shape {shape!r} (the fuser normalizes one dimension)"
    for i in (2, 3):
        v = node.inputs[i]
        if not isinstance(v.type, TensorType) and node_constant(node, i) is not None:
            return "layer_norm with a weight or bias that may be None"
    return None


def _float_input(node: Node, args: list[Operand]) -> object:
    d = args[0].dtype
    if d is None or not is_float(d):
        name = "unknown" if d is None else d.python_name
        raise UnsupportedFusionError(
            f"{node.kind} of a {name} tensor is computed in the interpreter"
        )
    return d


def _not_emitted(*args: object) -> object:
    raise AssertionError("reductions and decomposed operators are not emitted element by element")


# ---------------------------------------------------------------------------
# decompositions


def _insert(graph: Graph, kind: str, args: Sequence[object]) -> Value:
    return graph.insert(kind, list(args))


def _softmax(node: Node, *, log: bool) -> list[ShapeRequirement]:
    graph = node.graph
    x = node.inputs[0]
    dims = [constant_value(node.inputs[1])]
    with graph.inserting_before(node):
        m = _insert(graph, "aten::amax", [x, dims, True])
        shifted = _insert(graph, "aten::sub", [x, m])
        e = _insert(graph, "aten::exp", [shifted])
        s = _insert(graph, "aten::sum", [e, dims, True])
        if log:
            out = _insert(graph, "aten::sub", [shifted, _insert(graph, "aten::log", [s])])
        else:
            out = _insert(graph, "aten::div", [e, s])
    node.output().replace_all_uses_with(out)
    node.destroy()
    return []


def _layer_norm(node: Node) -> list[ShapeRequirement]:
    """As the interpreter's kernel: xc = x - mean(x); y = xc / sqrt(mean(xc²) + eps) * w + b."""
    graph = node.graph
    x, _shape, weight, bias, eps = node.inputs[:5]
    (n,) = constant_value(node.inputs[1])
    message = f"layer_norm over [{n}]"
    requirements = [ShapeRequirement(x, (n,), False, f"{message}: the input must end in {n}")]
    with graph.inserting_before(node):
        mean = _insert(graph, "aten::mean", [x, [-1], True])
        xc = _insert(graph, "aten::sub", [x, mean])
        var = _insert(graph, "aten::mean", [_insert(graph, "aten::mul", [xc, xc]), [-1], True])
        std = _insert(graph, "aten::sqrt", [_insert(graph, "aten::add", [var, eps])])
        y = _insert(graph, "aten::div", [xc, std])
        for name, p, op in (("weight", weight, "aten::mul"), ("bias", bias, "aten::add")):
            if p.node.kind is prim.Constant and constant_value(p) is None:
                continue
            requirements.append(
                ShapeRequirement(p, (n,), True, f"{message}: the {name} must be [{n}]")
            )
            y = _insert(graph, op, [y, p])
    node.output().replace_all_uses_with(y)
    node.destroy()
    return requirements


def decompose(
    subgraph: Graph, lowerings: RuleTable[Any] = CPU_LOWERINGS
) -> tuple[Graph, list[ShapeRequirement]]:
    """`subgraph`, or a copy with every decomposable operator rewritten (see the module
    docstring), and the shape requirements the rewritten operators carried."""

    def rewrite_of(node: Node) -> Any:
        if node.kind is prim.Constant or node.kind is prim.ConstantChunk:
            return None
        return getattr(lowerings.lookup(node), "decompose", None)

    if not any(rewrite_of(n) is not None for n in subgraph.nodes()):
        return subgraph, []
    graph = subgraph.copy()
    requirements: list[ShapeRequirement] = []
    for node in list(graph.nodes()):
        rewrite = rewrite_of(node)
        if rewrite is None:
            continue
        check = lowerings.lookup(node).check
        problem = check(node) if check is not None else None
        if problem is not None:  # a group built by hand, not by the fuser, may hold one
            raise UnsupportedFusionError(f"{node.kind}: {problem}")
        requirements += rewrite(node)
    return graph, requirements


# ---------------------------------------------------------------------------
# the table


def _reduction(kind: str, *, dtype_index: int | None) -> Lowering:
    return Lowering(
        _not_emitted,  # type: ignore[arg-type]
        _float_input,  # type: ignore[arg-type]
        check=_reduction_check(dtype_index=dtype_index),
        broadcast=(0,),
        reduction=kind,
    )


register(["aten::sum.dim_IntList"], _reduction("sum", dtype_index=3))
register(["aten::mean.dim"], _reduction("mean", dtype_index=3))
register(["aten::amax"], _reduction("amax", dtype_index=None))
register(["aten::amin"], _reduction("amin", dtype_index=None))
register(
    ["aten::softmax.int"],
    Lowering(
        _not_emitted,  # type: ignore[arg-type]
        _float_input,  # type: ignore[arg-type]
        check=_softmax_check,
        decompose=lambda node: _softmax(node, log=False),  # type: ignore[arg-type,return-value]
    ),
)
register(
    ["aten::log_softmax.int"],
    Lowering(
        _not_emitted,  # type: ignore[arg-type]
        _float_input,  # type: ignore[arg-type]
        check=_softmax_check,
        decompose=lambda node: _softmax(node, log=True),  # type: ignore[arg-type,return-value]
    ),
)
register(
    ["aten::layer_norm"],
    Lowering(
        _not_emitted,  # type: ignore[arg-type]
        _float_input,  # type: ignore[arg-type]
        check=_layer_norm_check,
        decompose=_layer_norm,  # type: ignore[arg-type]
    ),
)

__all__ = ["NO_CONST", "REDUCTIONS", "ShapeRequirement", "decompose"]
