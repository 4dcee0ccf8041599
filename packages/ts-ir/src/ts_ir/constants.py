"""Constants: making `prim::Constant` nodes from Python values and reading them back."""

from __future__ import annotations

import enum
from typing import Any

from .attributes import AttributeKind
from .errors import IRError
from .ir import CONSTANT, Graph, Node, Value
from .types import (
    BoolType,
    ComplexType,
    Device,
    DeviceType,
    DictType,
    FloatType,
    FunctionType,
    IntType,
    ListType,
    NoneType,
    OptionalType,
    StringType,
    TensorType,
    TupleType,
    Type,
)


def make_constant(graph: Graph, value: Any, type: Type | None) -> Node:
    """A new (unlisted) `prim::Constant` node holding `value`."""
    n = graph.create(CONSTANT)
    out = n.output()
    if value is None:
        out.set_type(type or NoneType.get())
    elif isinstance(value, enum.Enum) and type is not None:
        n.ival_("value", value)
        out.set_type(type)
    elif isinstance(value, bool):
        n.i_("value", int(value))
        out.set_type(BoolType.get())
    elif isinstance(value, int):
        n.i_("value", value)
        out.set_type(type or IntType.get())
    elif isinstance(value, float):
        n.f_("value", value)
        out.set_type(FloatType.get())
    elif isinstance(value, complex):
        n.c_("value", value)
        out.set_type(ComplexType.get())
    elif isinstance(value, str):
        n.s_("value", value)
        out.set_type(StringType.get())
    elif isinstance(value, Device):
        n.s_("value", str(value))
        out.set_type(DeviceType.get())
    elif isinstance(value, list):
        if not value and not isinstance(type, ListType):
            raise IRError("an empty list constant needs an explicit list type")
        elem = type.element if isinstance(type, ListType) else _list_element_type(value)
        if not value:  # held as a value, so that it prints `annotate(List[int], [])` as PyTorch
            n.ival_("value", [])
        elif isinstance(elem, IntType):
            n.is_("value", value)
        elif isinstance(elem, FloatType):
            n.fs_("value", value)
        elif isinstance(elem, StringType):
            n.ss_("value", value)
        else:
            n.ival_("value", list(value))
        out.set_type(ListType(elem))
    elif isinstance(value, dict):
        if not isinstance(type, DictType):
            raise IRError("a dict constant needs its dict type")
        n.ival_("value", dict(value))
        out.set_type(type)
    elif isinstance(value, tuple):
        n.ival_("value", value)
        out.set_type(type or TupleType([constant_type_of(x) for x in value]))
    elif isinstance(value, enum.Enum):  # a member of an `EnumType`, held as itself
        if type is None:
            raise IRError(f"an enum constant needs its EnumType: {value!r}")
        n.ival_("value", value)
        out.set_type(type)
    elif hasattr(value, "numel") and hasattr(value, "dim"):
        n.t_("value", value)
        out.set_type(type or TensorType.get())
    elif isinstance(type, FunctionType):
        n.s_("name", type.function_name or "")
        out.set_type(type)
    else:
        raise IRError(f"cannot make a constant of {value!r} ({value.__class__.__name__})")
    return n


def _list_element_type(values: list[Any]) -> Type:
    if all(isinstance(x, bool) for x in values):
        return BoolType.get()
    if all(isinstance(x, int) and not isinstance(x, bool) for x in values):
        return IntType.get()
    if all(isinstance(x, float) for x in values):
        return FloatType.get()
    if all(isinstance(x, str) for x in values):
        return StringType.get()
    if all(hasattr(x, "numel") for x in values):
        return TensorType.get()
    raise IRError(f"cannot make a list constant of mixed or unsupported values: {values!r}")


def constant_type_of(value: Any) -> Type:
    """The IR type of a constant Python value."""
    return make_constant(Graph(), value, None).output().type


def is_constant(v: Value) -> bool:
    return v.node.kind is CONSTANT


class _NotConstant:
    """The type of `NOT_CONSTANT`."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "NOT_CONSTANT"

    def __bool__(self) -> bool:
        raise TypeError("test `maybe_constant(v) is NOT_CONSTANT`, not its truth")


#: What `maybe_constant` returns for a value that is not a constant.
NOT_CONSTANT: Any = _NotConstant()


def maybe_constant(v: Value) -> Any:
    """The Python value `v` holds if it is a `prim::Constant` output with a value (None for
    a None constant), else `NOT_CONSTANT`: the one "constant or sentinel" helper.

    A function constant (`prim::Constant[name="f"]`) has no value to compute with, and a
    malformed constant none to trust: both are `NOT_CONSTANT`. Tensor constants come back
    as their `TensorLiteral`.
    """
    n = v.node
    if n.kind is not CONSTANT:
        return NOT_CONSTANT
    if n.has_attribute("name") and not n.has_attribute("value"):
        return NOT_CONSTANT
    try:
        return constant_value(v)
    except IRError:
        return NOT_CONSTANT


def constant_value(v: Value) -> Any:
    """The Python value of a `prim::Constant` output (IR-level IValue)."""
    n = v.node
    if n.kind is not CONSTANT:
        raise IRError(f"%{v.debug_name} is not a constant")
    if not n.has_attribute("value"):
        return None
    kind, value = n._attr_entry("value")
    t = v.type
    if kind is AttributeKind.i:
        return bool(value) if isinstance(t, BoolType) else value
    if kind is AttributeKind.s and isinstance(t, DeviceType):
        return Device(value)
    if kind is AttributeKind.ival and isinstance(t, ListType) and isinstance(value, tuple):
        return list(value)
    if kind in (AttributeKind.is_, AttributeKind.fs, AttributeKind.ss, AttributeKind.cs):
        if isinstance(t, ListType) and isinstance(t.element, BoolType):
            return [bool(x) for x in value]
        return list(value)
    if kind is AttributeKind.ival and isinstance(t, OptionalType) and value is None:
        return None
    return value
