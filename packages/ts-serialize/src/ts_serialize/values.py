"""Values in archives: TorchScript's IValues as tagged msgpack.

Numbers, strings, booleans and None are msgpack's own; every msgpack array
is a tagged value whose first item says what it is:

    ["list", v0, v1, ...]        ["tuple", v0, v1, ...]
    ["dict", k0, v0, k1, v1, ...]
    ["tensor", i]                tensor i of the tensor table
    ["object", i]                object i of the object table (a module or class instance)
    ["device", "cpu"]

Decoding is bounded (`max_depth` levels of nesting) and checks each tag's
shape; a value that does not fit the type its slot declares is refused by
`check_type`, so a loaded module never holds a value its code does not expect.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ts_ir import (
    AnyType,
    BoolType,
    ClassType,
    ComplexType,
    Device,
    DeviceType,
    DictType,
    FloatType,
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

from .errors import ArchiveError, SaveError

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1


class ValueWriter:
    """Encodes values; tensors and objects go to their tables through the callbacks."""

    def __init__(
        self,
        tensor_index: Callable[[Any], int],
        object_index: Callable[[Any, str], int],
        is_tensor: Callable[[Any], bool],
        is_object: Callable[[Any], bool],
    ) -> None:
        self.tensor_index = tensor_index
        self.object_index = object_index
        self.is_tensor = is_tensor
        self.is_object = is_object

    def encode(self, value: Any, where: str) -> Any:
        if value is None or isinstance(value, (bool, str)):
            return value
        if isinstance(value, int):
            if not INT64_MIN <= value <= INT64_MAX:
                raise SaveError(f"{where}: the integer {value} does not fit in 64 bits")
            return int(value)
        if isinstance(value, float):
            return float(value)
        if self.is_tensor(value):
            return ["tensor", self.tensor_index(value)]
        if isinstance(value, list):
            return ["list", *(self.encode(v, f"{where}[{i}]") for i, v in enumerate(value))]
        if isinstance(value, tuple):
            return ["tuple", *(self.encode(v, f"{where}[{i}]") for i, v in enumerate(value))]
        if isinstance(value, dict):
            out: list[Any] = ["dict"]
            for k, v in value.items():
                out.append(self.encode(k, f"{where} key {k!r}"))
                out.append(self.encode(v, f"{where}[{k!r}]"))
            return out
        if isinstance(value, Device):
            return ["device", str(value)]
        if self.is_object(value):
            return ["object", self.object_index(value, where)]
        raise SaveError(f"{where}: a value of type {type(value).__name__} cannot be saved")


class ValueReader:
    """Decodes tagged values; `tensor(i, where)` and `object(i, where)` resolve references."""

    def __init__(
        self,
        tensor: Callable[[Any, str], Any],
        obj: Callable[[Any, str], Any],
        *,
        max_depth: int,
    ) -> None:
        self.tensor = tensor
        self.obj = obj
        self.max_depth = max_depth

    def decode(self, enc: Any, where: str, depth: int = 0) -> Any:
        if enc is None or isinstance(enc, (bool, int, float, str)):
            return enc
        if not isinstance(enc, list) or not enc or not isinstance(enc[0], str):
            raise ArchiveError(f"a value is not a tagged array ({type(enc).__name__})", where)
        if depth >= self.max_depth:
            raise ArchiveError(f"values are nested deeper than {self.max_depth} levels", where)
        tag = enc[0]
        items = enc[1:]
        if tag == "list":
            return [self.decode(v, f"{where}[{i}]", depth + 1) for i, v in enumerate(items)]
        if tag == "tuple":
            return tuple(self.decode(v, f"{where}[{i}]", depth + 1) for i, v in enumerate(items))
        if tag == "dict":
            if len(items) % 2:
                raise ArchiveError("a dict has an odd number of keys and values", where)
            out: dict[Any, Any] = {}
            for i in range(0, len(items), 2):
                key = self.decode(items[i], f"{where} key {i // 2}", depth + 1)
                try:
                    out[key] = self.decode(items[i + 1], f"{where}[{key!r}]", depth + 1)
                except TypeError:
                    raise ArchiveError(
                        f"a dict key of type {type(key).__name__} is not hashable", where
                    ) from None
            return out
        if tag in ("tensor", "object"):
            if len(items) != 1:
                raise ArchiveError(f"a {tag} reference is not [{tag!r}, index]", where)
            return (self.tensor if tag == "tensor" else self.obj)(items[0], where)
        if tag == "device":
            if len(items) != 1 or not isinstance(items[0], str):
                raise ArchiveError("a device is not ['device', name]", where)
            try:
                return Device(items[0])
            except (ValueError, TypeError) as exc:
                raise ArchiveError(f"bad device {items[0]!r}: {exc}", where) from None
        raise ArchiveError(f"unknown value tag {tag!r}", where)


def check_type(value: Any, t: Type, where: str, is_tensor: Callable[[Any], bool]) -> None:
    """Raise `ArchiveError` unless `value` is a value of type `t` (depth is bounded by decode)."""
    if not _matches(value, t, is_tensor):
        raise ArchiveError(
            f"the value {_short(value)} does not have the declared type {t.annotation_str()}",
            where,
        )


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _matches(value: Any, t: Type, is_tensor: Callable[[Any], bool]) -> bool:
    if isinstance(t, TensorType):
        return is_tensor(value)
    if isinstance(t, BoolType):
        return isinstance(value, bool)
    if isinstance(t, IntType):
        return isinstance(value, int) and not isinstance(value, bool)
    if isinstance(t, FloatType):
        return isinstance(value, float)
    if isinstance(t, StringType):
        return isinstance(value, str)
    if isinstance(t, NoneType):
        return value is None
    if isinstance(t, OptionalType):
        return value is None or _matches(value, t.element, is_tensor)
    if isinstance(t, ListType):
        return isinstance(value, list) and all(_matches(v, t.element, is_tensor) for v in value)
    if isinstance(t, TupleType):
        return (
            isinstance(value, tuple)
            and len(value) == len(t.elements)
            and all(_matches(v, e, is_tensor) for v, e in zip(value, t.elements, strict=True))
        )
    if isinstance(t, DictType):
        return isinstance(value, dict) and all(
            _matches(k, t.key, is_tensor) and _matches(v, t.value, is_tensor)
            for k, v in value.items()
        )
    if isinstance(t, UnionType):
        return any(_matches(value, m, is_tensor) for m in t.types)
    if isinstance(t, NumberType):
        return isinstance(value, (int, float, complex)) and not isinstance(value, bool)
    if isinstance(t, ComplexType):
        return isinstance(value, complex)
    if isinstance(t, DeviceType):
        return isinstance(value, Device)
    if isinstance(t, ClassType):
        vt = getattr(value, "_type", None)
        return isinstance(vt, ClassType) and vt.qualified_name == t.qualified_name
    return isinstance(t, AnyType)
