"""Facts about nodes that several passes need: nondeterminism, constness, equality keys."""

from __future__ import annotations

from typing import Any

from ts_ir import AttributeKind, Graph, Node, TensorLiteral, Value, maybe_constant
from ts_schema import Tag, registry


def is_nondeterministic(node: Node) -> bool:
    """Whether running `node` twice may give different results: tagged `Tag.nondeterministic`
    (rand, dropout...), except where a `train` argument is the constant False, as in
    PyTorch's `Node::isNondeterministic` (dropout in evaluation mode returns its input)."""
    if Tag.nondeterministic not in registry.tags_of(node):
        return False
    schema = registry.schema_for(node)
    if schema is not None:
        i = schema.argument_index_with_name("train")
        if i is not None and i < len(node.inputs) and maybe_constant(node.inputs[i]) is False:
            return False
    return True


def is_true_constant(v: Value) -> bool:
    return maybe_constant(v) is True


def _freeze(value: Any) -> Any:
    """A hashable stand-in for an attribute value; floats and ints stay apart (1 != 1.0)."""
    if isinstance(value, Graph):
        return ("graph", id(value))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(_freeze(x) for x in value))
    if isinstance(value, dict):
        return ("dict", tuple((_freeze(k), _freeze(v)) for k, v in value.items()))
    if isinstance(value, float):
        # -0.0 and 0.0 differ, and nan equals itself here
        return ("float", value.hex())
    try:
        hash(value)
    except TypeError:
        return ("object", id(value))
    if hasattr(value, "numel") and not isinstance(value, TensorLiteral):
        return ("tensor", id(value))  # real tensors: only the same object is equal
    return (type(value).__name__, value)


def attributes_key(node: Node) -> tuple:
    """The node's attributes as a hashable value (kind, name, frozen value)."""
    if not node.has_attributes():
        return ()
    items = []
    for name in sorted(node.attribute_names()):
        kind = node.kind_of(name)
        value = node.attr(name)
        if kind is AttributeKind.t and isinstance(value, TensorLiteral):
            value = ("literal", _freeze(value.key()))
        items.append((name, kind.value, _freeze(value)))
    return tuple(items)


def node_key(node: Node) -> tuple:
    """Two nodes with equal keys compute the same thing from the same inputs (for CSE)."""
    return (
        node.kind,
        tuple(id(v) for v in node.inputs),
        tuple(v.type for v in node.outputs),
        attributes_key(node),
    )


def constant_key(node: Node) -> tuple:
    """Constants with equal keys hold the same value with the same type (for pooling)."""
    return (node.output().type, attributes_key(node))
