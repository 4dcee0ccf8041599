"""Which nodes the CPU fuser can take into a fusion group (`can_fuse`).

A node is fusible when its operator has a CPU lowering, it writes none of
its inputs (no in-place or `out=` variants), it produces one tensor, and its
other inputs are tensors, numbers, or the constants its lowering needs
(a rounding mode, a target dtype). `prim::ConstantChunk` is fusible: the
kernel reads each chunk in place. Dtypes are not looked at here: a group
whose inputs turn out to have a dtype the kernels do not compute in runs in
the interpreter, with the reason logged.
"""

from __future__ import annotations

from typing import Any

from ts_ir import (
    BoolType,
    FloatType,
    IntType,
    ListType,
    Node,
    NoneType,
    NumberType,
    OptionalType,
    StringType,
    TensorType,
    Type,
    Value,
    constant_value,
    prim,
)
from ts_schema import RuleTable

from .lowerings import CPU_LOWERINGS

_VALUE_TYPES = (TensorType, IntType, FloatType, BoolType, NumberType, NoneType, StringType)


def _acceptable_input(t: Type) -> bool:
    if isinstance(t, OptionalType):
        t = t.element
    return isinstance(t, _VALUE_TYPES)


def _int_list_constant(v: Value) -> bool:
    """A constant list of ints (a reduction's dimensions, layer_norm's normalized_shape)."""
    if v.node.kind is not prim.Constant or not isinstance(v.type, ListType):
        return False
    value = constant_value(v)
    return isinstance(value, list) and all(type(x) is int for x in value)


def why_not_fusible(
    node: Node, *, lowerings: RuleTable[Any] = CPU_LOWERINGS, device: str = "cpu"
) -> str | None:
    """The reason `node` cannot be fused by the CPU fuser, or None when it can (another
    device's fuser passes its own lowering table and device type)."""
    if node.kind is prim.ConstantChunk:
        return None
    if node.blocks:
        return f"{node.kind} has blocks"
    lowering = lowerings.lookup(node)
    if lowering is None:
        return f"{node.kind} has no {device.upper()} lowering"
    schema = node.maybe_schema()
    if schema is None or schema.is_mutable:
        return f"{node.kind} writes its inputs"
    if len(node.outputs) != 1 or not isinstance(node.output().type, TensorType):
        return f"{node.kind} does not produce one tensor"
    for v in node.inputs:
        if not _acceptable_input(v.type) and not _int_list_constant(v):
            return f"{node.kind} takes a {v.type}"
    if lowering.check is not None:
        return lowering.check(node)
    return None


def can_fuse(node: Node) -> bool:
    return why_not_fusible(node) is None
