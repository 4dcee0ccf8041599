"""Checking Python values against IR types: `isinstance` in programs, and argument checks.

`matches(value, type)` is exact membership; `coerce(value, type)` also applies
the conversions TorchScript makes when Python values enter a program (an int
where a float is expected, a number where a bool is, a one-element tensor where
a number is, inside lists, tuples and dicts too; a tuple where a list is
expected).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ts_ir import (
    AnyClassType,
    AnyListType,
    AnyTupleType,
    AnyType,
    BoolType,
    ClassType,
    ComplexType,
    Device,
    DeviceType,
    DictType,
    EnumType,
    FloatType,
    FutureType,
    InterfaceType,
    IntType,
    ListType,
    NoneType,
    NumberType,
    OptionalType,
    StringType,
    TensorType,
    TupleType,
    Type,
    UnionType,
)

from ..tensor import Tensor
from .fork import Future

_NOT_CONVERTIBLE = object()


def matches(value: Any, t: Type) -> bool:
    """Whether `value` is a value of type `t`."""
    if isinstance(t, TensorType):
        return isinstance(value, Tensor)
    if isinstance(t, IntType):
        return isinstance(value, int) and not isinstance(value, bool)
    if isinstance(t, FloatType):
        return isinstance(value, float)
    if isinstance(t, BoolType):
        return isinstance(value, bool)
    if isinstance(t, StringType):
        return isinstance(value, str)
    if isinstance(t, NoneType):
        return value is None
    if isinstance(t, OptionalType):
        return value is None or matches(value, t.element)
    if isinstance(t, ListType):
        return isinstance(value, list) and all(matches(v, t.element) for v in value)
    if isinstance(t, TupleType):
        return (
            isinstance(value, tuple)
            and len(value) == len(t.elements)
            and all(matches(v, e) for v, e in zip(value, t.elements, strict=True))
        )
    if isinstance(t, DictType):
        return isinstance(value, dict) and all(
            matches(k, t.key) and matches(v, t.value) for k, v in value.items()
        )
    if isinstance(t, UnionType):
        return any(matches(value, m) for m in t.types)
    if isinstance(t, NumberType):
        return isinstance(value, (int, float, complex))
    if isinstance(t, ComplexType):
        return isinstance(value, complex)
    if isinstance(t, DeviceType):
        return isinstance(value, Device)
    if isinstance(t, FutureType):
        return isinstance(value, Future)
    if isinstance(t, ClassType):
        vt = getattr(value, "_type", None)
        return isinstance(vt, ClassType) and vt.qualified_name == t.qualified_name
    if isinstance(t, AnyType):
        return True
    if isinstance(t, AnyListType):  # `isinstance(x, list)`
        return isinstance(value, list)
    if isinstance(t, AnyTupleType):
        return isinstance(value, tuple)
    if isinstance(t, AnyClassType):
        return isinstance(getattr(value, "_type", None), ClassType)
    if isinstance(t, EnumType):  # a member of the Python enum the type was made from
        return (
            isinstance(value, enum.Enum)
            and value.name in t.names
            and (t.qualified_name.rpartition(".")[2] == type(value).__name__)
        )
    if isinstance(t, InterfaceType):  # an object whose class has the interface's methods
        vt = getattr(value, "_type", None)
        return isinstance(vt, ClassType) and t.is_implemented_by(vt)
    return False


def coerce(value: Any, t: Type) -> Any:
    """`value` converted to type `t` as values entering a program are, or `_NOT_CONVERTIBLE`."""
    if matches(value, t):
        return value
    if isinstance(t, OptionalType):
        return coerce(value, t.element)
    if isinstance(t, FloatType) and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if isinstance(t, BoolType) and isinstance(value, (int, float)):
        return bool(value)  # as PyTorch's argument conversion takes a number for a bool
    if isinstance(t, (IntType, FloatType, BoolType)) and isinstance(value, Tensor):
        # a one-element tensor enters as its number, as PyTorch's argument conversion takes it
        if value._data.size != 1 or value._data.dtype.kind == "c":
            return _NOT_CONVERTIBLE
        number = value._data.reshape(()).item()
        return int(number) if isinstance(t, IntType) else coerce(float(number), t)
    if isinstance(t, ListType) and isinstance(value, (list, tuple)):
        out = [coerce(v, t.element) for v in value]
        return _NOT_CONVERTIBLE if any(v is _NOT_CONVERTIBLE for v in out) else out
    if (
        isinstance(t, TupleType)
        and isinstance(value, (list, tuple))
        and len(value) == len(t.elements)
    ):
        out = [coerce(v, e) for v, e in zip(value, t.elements, strict=True)]
        return _NOT_CONVERTIBLE if any(v is _NOT_CONVERTIBLE for v in out) else tuple(out)
    if isinstance(t, DictType) and isinstance(value, dict):
        pairs = [(coerce(k, t.key), coerce(v, t.value)) for k, v in value.items()]
        if any(k is _NOT_CONVERTIBLE or v is _NOT_CONVERTIBLE for k, v in pairs):
            return _NOT_CONVERTIBLE
        return dict(pairs)
    if isinstance(t, DeviceType) and isinstance(value, str):
        try:
            return Device(value)
        except ValueError:
            return _NOT_CONVERTIBLE
    return _NOT_CONVERTIBLE


def is_convertible(value: Any) -> bool:
    return value is not _NOT_CONVERTIBLE


def describe(value: Any) -> str:
    """The type of a Python value, spelled as TorchScript types are."""
    if isinstance(value, Tensor):
        return "Tensor"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float, str, complex)):
        return type(value).__name__
    if value is None:
        return "NoneType"
    if isinstance(value, list):
        return f"List[{_describe_all(value)}]"
    if isinstance(value, tuple):
        return "Tuple[" + ", ".join(describe(v) for v in value) + "]"
    if isinstance(value, dict):
        return f"Dict[{_describe_all(value.keys())}, {_describe_all(value.values())}]"
    return type(value).__name__


def _describe_all(values: Iterable[Any]) -> str:
    """The element type of a container's values: one type, a Union of several, `?` if none."""
    kinds = list(dict.fromkeys(describe(v) for v in values))
    if not kinds:
        return "?"
    return kinds[0] if len(kinds) == 1 else "Union[" + ", ".join(kinds) + "]"


def instance_checker(types: Sequence[Type]) -> Callable[[Any], bool]:
    """The test of a `prim::isinstance` node."""
    types = list(types)
    return lambda value: any(matches(value, t) for t in types)
