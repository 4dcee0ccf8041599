"""Shape, dtype and device rules per operator: the `RuleTable("shape")` of `propagate_shapes`.

A rule is `rule(args: ShapeArgs) -> list[Type | None] | Type | None`: the
output types it can tell from the node's input types and constant inputs
(None where it cannot; a list for several outputs; for a `Tensor[]` result,
a `ListType` of the element type). Tensor results carry dtype, device,
requires_grad and rank; sizes too when the inputs' sizes (and the constant
arguments that decide them) are known. Rules are registered per family, one
module each:

    pointwise    unary, binary with promotion, comparisons, where, clamp
    reductions   sum, mean, max, var, softmax, cumsum, sort, topk
    views        view, transpose, select, expand, flatten, cat, split
    linalg       mm, bmm, matmul, linear, einsum
    nn           convolution, pooling, normalization, embedding, losses
    creation     zeros, full, arange, tensor, *_like, new_*, random
    indexing     gather, scatter, index, nonzero, bincount
    signal       complex parts, Fourier transforms, resampling, distances
    containers   dict and list plumbing: declared types only

In-place forms (`add_`, `relu_`) and out= forms (`add.out`) need no entry:
`rule_for_operator` gives every operator that writes an argument and returns
it the rule "the result is that argument" (for out=, the functional form's
sizes in the out tensor's dtype).
"""

from __future__ import annotations

from typing import Any

from ts_ir import Node, TensorType, Type
from ts_schema import Operator, registry

from . import (  # noqa: F401
    containers,
    creation,
    indexing,
    linalg,
    nn,
    pointwise,
    reductions,
    signal,
    views,
)
from .core import (
    CPU,
    Rule,
    ShapeArgs,
    broadcast_shapes,
    declared_types,
    make_tensor,
    promoted_dtype,
    shape_rules,
)


def _written_return(op: Operator) -> int | None:
    """The index of the argument the operator writes and returns as its first result."""
    returns = op.schema.returns
    if not returns or returns[0].alias_info is None or not returns[0].alias_info.is_write:
        return None
    sets = returns[0].alias_info.before_set
    for i, a in enumerate(op.schema.arguments):
        if a.alias_info is not None and a.alias_info.is_write and a.alias_info.before_set == sets:
            return i
    return None


def _inplace_rule(index: int) -> Rule:
    def rule(args: ShapeArgs) -> Any:
        v = args.value(index)
        if v is None or not isinstance(v.type, TensorType):
            return None
        return v.type

    rule.__name__ = f"inplace_result_is_input_{index}"
    return rule


def _out_rule(op: Operator, functional_rule: Rule | None) -> Rule:
    """Results written into out tensors: their dtype and device, the functional form's sizes."""
    outs = [i for i, a in enumerate(op.schema.arguments) if a.is_out]

    def rule(args: ShapeArgs) -> Any:
        computed = None
        if functional_rule is not None:
            try:
                computed = functional_rule(args)
            except (ValueError, TypeError, IndexError, KeyError):
                computed = None
        computed_list = computed if isinstance(computed, list) else [computed]
        results: list[Type | None] = []
        for k, i in enumerate(outs):
            v = args.value(i)
            out_t = v.type if v is not None and isinstance(v.type, TensorType) else None
            if out_t is None:
                results.append(None)
                continue
            c = computed_list[k] if k < len(computed_list) else None
            sizes: Any = None
            if isinstance(c, TensorType) and c.sizes is not None:
                sizes = c.sizes if None not in c.sizes else len(c.sizes)
            results.append(make_tensor(out_t.scalar_type, out_t.device, sizes, requires_grad=False))
        return results

    rule.__name__ = "out_result"
    return rule


#: in-place operators that change the shape of the tensor they write: their own rules
_RESHAPING_IN_PLACE = frozenset({"aten::resize_"})

_WRITTEN: dict[str, int | None] = {}
_DERIVED: dict[tuple[str, Rule | None], Rule] = {}


def rule_for_operator(op: Operator) -> Rule | None:
    """The shape rule of an operator: "the written argument" for in-place forms, the out
    tensors' rule for out= forms, else the table's entry (by overload, then by name)."""
    key = op.key
    written = _WRITTEN.get(key, -1)
    if written == -1:
        written = _WRITTEN[key] = _written_return(op)
    if written is None or str(op.schema.name) in _RESHAPING_IN_PLACE:
        return shape_rules.lookup_operator(op)
    functional = shape_rules.lookup_operator(op) if op.schema.arguments[written].is_out else None
    rule = _DERIVED.get((key, functional))
    if rule is None:
        if op.schema.arguments[written].is_out:
            rule = _out_rule(op, functional)
        else:
            rule = _inplace_rule(written)
        _DERIVED[(key, functional)] = rule
    return rule


def rule_for(node: Node) -> Rule | None:
    """The shape rule of a node's operator (see `rule_for_operator`)."""
    op = registry.operator_for(node)
    if op is None:
        return shape_rules.lookup(node)
    return rule_for_operator(op)


__all__ = [
    "CPU",
    "ShapeArgs",
    "broadcast_shapes",
    "declared_types",
    "make_tensor",
    "promoted_dtype",
    "rule_for",
    "rule_for_operator",
    "shape_rules",
]
