"""Per-concern tables of operator rules: shape rules, gradient formulas, fuser lowerings.

Each concern owns its table and fills it by explicit registration:

    shape_rules = RuleTable("shape", default=None)
    shape_rules.register("aten::add.Tensor", broadcast_rule)       # one overload
    shape_rules.register("aten::relu", unary_rule)                  # every overload of a name
    shape_rules.register("aten::mul.Scalar(Tensor self, Scalar other) -> Tensor", unary_rule)

    @shape_rules.rule("aten::sigmoid(Tensor self) -> Tensor")
    def sigmoid_shape(node): ...

    rule = shape_rules.lookup(node)   # the overload's rule, else the name's, else the default

A rule is whatever the concern wants (a function, a template, a flag); the
table only finds it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

from ts_ir import Node

from .errors import SchemaError
from .registry import Operator, OperatorRegistry, registry
from .schema_parser import parse_schema

R = TypeVar("R")


class RuleTable(Generic[R]):
    """Rules keyed by operator overload (`aten::add.Tensor`) or name (`aten::add`), with a default."""

    def __init__(
        self, name: str, default: R | None = None, *, registry: OperatorRegistry = registry
    ) -> None:
        self.name = name
        self.default = default
        self.registry = registry
        self._by_key: dict[str, R] = {}
        self._by_name: dict[str, R] = {}

    def register(self, key_or_schema: str, rule: R, *, replace: bool = False) -> R:
        """Add a rule for one overload (key or full schema text) or for every overload of a name.

        A full schema must agree with the registered schema of its key, when
        there is one. Registering a key twice is an error unless `replace=True`.
        """
        text = key_or_schema.strip()
        if "(" in text:
            schema = parse_schema(text)
            known = self.registry.find(schema.key)
            if known is not None and known.schema != schema:
                raise SchemaError(
                    f"{self.name} rule for {schema.key}: the schema does not match the "
                    f"registered one:\n  registered: {known.schema}\n  rule:       {schema}"
                )
            table, key = self._by_key, schema.key
        else:
            if "::" not in text:
                raise SchemaError(
                    f"{self.name} rule key {text!r} is not an operator name like 'aten::add'"
                )
            overload = text.partition("::")[2].partition(".")[2]
            table, key = (self._by_key, text) if overload else (self._by_name, text)
        if key in table and not replace and table[key] is not rule:
            raise SchemaError(f"{self.name} rule for {key} is already registered")
        table[key] = rule
        return rule

    def rule(self, key_or_schema: str, *, replace: bool = False) -> Callable[[R], R]:
        """Decorator form of `register`."""

        def decorate(rule: R) -> R:
            return self.register(key_or_schema, rule, replace=replace)

        return decorate

    def lookup(self, node: Node) -> R | None:
        """The rule for the node's operator overload, else for its name, else the default."""
        op = self.registry.operator_for(node)
        if op is not None:
            return self.lookup_operator(op)
        rule = self._by_name.get(node.kind)
        return self.default if rule is None else rule

    def lookup_operator(self, op: Operator) -> R | None:
        rule = self._by_key.get(op.key)
        if rule is None:
            rule = self._by_name.get(op.qualified_name)
            if rule is None:
                return self.default
        return rule

    def has_rule(self, node: Node) -> bool:
        """Whether a rule of its own (not the default) covers the node."""
        op = self.registry.operator_for(node)
        if op is not None:
            return op.key in self._by_key or op.qualified_name in self._by_name
        return node.kind in self._by_name

    def keys(self) -> Iterator[str]:
        yield from self._by_key
        yield from self._by_name

    def overload_keys(self) -> Iterator[str]:
        """The keys of rules registered for one overload (`aten::add.Tensor`, or `aten::relu`
        registered by its full schema)."""
        yield from self._by_key

    def name_keys(self) -> Iterator[str]:
        """The names of rules registered for every overload of a name (`aten::add`)."""
        yield from self._by_name

    def __contains__(self, key: str) -> bool:
        return key in self._by_key or key in self._by_name

    def __len__(self) -> int:
        return len(self._by_key) + len(self._by_name)

    def __repr__(self) -> str:
        return f"<RuleTable {self.name!r}: {len(self)} rules>"
