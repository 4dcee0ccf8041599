"""PyTorch's operator aliases: another name for an operator, with its kernel, gradient and rule.

    aten::absolute(Tensor self) -> Tensor        is  aten::abs
    aten::clip.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor
                                                 is  aten::clamp.Tensor

`ALIASES` maps each alias name to its operator's name, as PyTorch's
`normalize_ops` pass does; in-place forms follow (`absolute_` is `abs_`).
Each overload of an alias is paired with the overload of its operator that
takes the same argument types in the same order, and gets that overload's
implementation (so autograd records the operator's own gradient) and shape
rule. `register_all` runs once every kernel is registered, before the out=
forms are made.
"""

from __future__ import annotations

from typing import Any

from ts_passes.shape_rules import rule_for_operator, shape_rules
from ts_schema import Operator, registry

from .dispatch import DERIVATIVES, implements

#: alias name -> the operator it names (both without namespace).
ALIASES = {
    "absolute": "abs",
    "arccos": "acos",
    "arcsin": "asin",
    "arctan": "atan",
    "arccosh": "acosh",
    "arcsinh": "asinh",
    "arctanh": "atanh",
    "arctan2": "atan2",
    "negative": "neg",
    "fix": "trunc",
    "subtract": "sub",
    "multiply": "mul",
    "divide": "div",
    "true_divide": "div",
    "greater": "gt",
    "greater_equal": "ge",
    "less": "lt",
    "less_equal": "le",
    "not_equal": "ne",
    "clip": "clamp",
    "concat": "cat",
    "concatenate": "cat",
    "moveaxis": "movedim",
    "special_expit": "sigmoid",
    "special_exp2": "exp2",
    "special_expm1": "expm1",
    "special_log1p": "log1p",
    "special_erf": "erf",
    "special_erfc": "erfc",
    "special_softmax": "softmax",
    "special_log_softmax": "log_softmax",
    "special_round": "round",
    "_unsafe_view": "view",
}


def _argument_types(op: Operator) -> tuple[str, ...]:
    return tuple(str(a.real_type) for a in op.schema.arguments)


def _target_of(op: Operator, targets: list[Operator]) -> Operator | None:
    wanted = _argument_types(op)
    for t in targets:
        if t.has_implementation and _argument_types(t) == wanted:
            return t
    return None


def _overloads(name: str) -> list[Operator]:
    return registry.lookup(name) if registry.has(name) else []


def register_all() -> int:
    """Give every overload of every alias its operator's kernel and shape rule."""
    added = 0
    for alias, target in ALIASES.items():
        for suffix in ("", "_"):
            targets = _overloads(f"aten::{target}{suffix}")
            for op in _overloads(f"aten::{alias}{suffix}"):
                if op.has_implementation or any(a.is_out for a in op.schema.arguments):
                    continue
                found = _target_of(op, targets)
                if found is None:
                    continue
                impl: Any = found.impl
                # the operator's own autograd wrapper: history records its gradient
                implements(op.key, autograd=False)(impl)
                formula = DERIVATIVES.lookup_operator(found)
                if formula is not None and DERIVATIVES.lookup_operator(op) is None:
                    DERIVATIVES.register(op.key, formula)
                rule = rule_for_operator(found)
                if rule is not None and op.key not in shape_rules and rule_for_operator(op) is None:
                    shape_rules.register(op.key, rule)
                added += 1
    return added
