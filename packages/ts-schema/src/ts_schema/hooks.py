"""Connects ts-ir's operator hooks to the registry (done when ts_schema is imported).

After this, `node.schema()`, `node.maybe_schema()`, `node.matches(text)`,
`node.has_side_effects()` and `graph.insert(...)` work on every graph.
"""

from __future__ import annotations

from ts_ir import HOOKS, Node

from .function_schema import FunctionSchema
from .insert import _inserter
from .node_matching import schema_accepts
from .registry import AliasAnalysisKind, registry
from .schema_parser import parse_schema
from .tags import Tag


def schema_of(node: Node) -> FunctionSchema | None:
    op = registry.operator_for(node)
    return None if op is None else op.schema


def node_matches(node: Node, schema_text: str) -> bool:
    """Whether the node is a call of this schema: same name, inputs of fitting types."""
    schema = parse_schema(schema_text)
    if schema.name is not node.kind:
        return False
    op = registry.find(schema.key)
    if op is not None and op.schema == schema:
        return op.signature.accepts(node.inputs)
    return schema_accepts(schema, node.inputs)


def has_side_effects(node: Node) -> bool:
    """Tagged `Tag.side_effect` (by kind), or a CONSERVATIVE operator."""
    if Tag.side_effect in registry.tags_of(node):
        return True
    op = registry.operator_for(node)
    return op is not None and op.alias_analysis is AliasAnalysisKind.CONSERVATIVE


def install() -> None:
    HOOKS.schema_of = schema_of
    HOOKS.matches = node_matches
    HOOKS.has_side_effects = has_side_effects
    HOOKS.inserter = _inserter
