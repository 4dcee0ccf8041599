"""Types from annotations: `List[int]`, `Optional[Tensor]`, `Dict[str, float]`, `int | None`.

An annotation is read from its tree: names resolve through the program's
resolver to Python objects (`typing.List`, `int`, the Tensor class), so an
aliased import still works; a name the resolver does not know is read by
its spelling, so source strings need no namespace for the usual types.
The same rules turn Python objects (class annotations of modules) into types.
"""

from __future__ import annotations

import enum
import re
import typing
from collections.abc import Callable
from typing import Any

from ts_ir import (
    AnyListType,
    AnyTupleType,
    AnyType,
    BoolType,
    ComplexType,
    Device,
    DeviceType,
    DictType,
    EnumType,
    FloatType,
    FutureType,
    GeneratorType,
    IntType,
    ListType,
    NoneType,
    NumberType,
    OptionalType,
    SourceRange,
    StreamType,
    StringType,
    TensorType,
    TupleType,
    Type,
    UnionType,
)

from . import tree as t
from .errors import FrontendTypeError
from .resolver import MISSING, Resolver

_BY_NAME: dict[str, Type] = {
    "int": IntType.get(),
    "float": FloatType.get(),
    "bool": BoolType.get(),
    "str": StringType.get(),
    "complex": ComplexType.get(),
    "None": NoneType.get(),
    "NoneType": NoneType.get(),
    "Tensor": TensorType.get(),
    "Any": AnyType.get(),
    "device": DeviceType.get(),
    "number": NumberType.get(),
    "dtype": IntType.get(),
    "Generator": GeneratorType.get(),
}
_GENERIC_NAMES = {
    "List": "list",
    "list": "list",
    "Dict": "dict",
    "dict": "dict",
    "Tuple": "tuple",
    "tuple": "tuple",
    "Optional": "optional",
    "Union": "union",
    "Final": "final",
    "Future": "future",
}
_GENERIC_OBJECTS: dict[Any, str] = {
    list: "list",
    dict: "dict",
    tuple: "tuple",
    typing.Optional: "optional",
    typing.Union: "union",
    typing.Final: "final",
}
for _name in ("List", "Dict", "Tuple"):  # the typing aliases of list, dict and tuple
    _GENERIC_OBJECTS[getattr(typing, _name)] = _name.lower()


_BROADCASTING_LIST = re.compile(r"BroadcastingList(\d)")


class FinalType:
    """The marker a `Final[T]` annotation yields: a constant of type T."""

    def __init__(self, inner: Type | None) -> None:
        self.inner = inner


def _generic_of(obj: Any) -> str | None:
    try:
        kind = _GENERIC_OBJECTS.get(obj)
    except TypeError:
        return None
    if kind is not None:
        return kind
    name = getattr(obj, "__name__", "")
    if name == "Future":
        return "future"
    return None


def type_from_python(obj: Any) -> Type | None:
    """The type a Python annotation object denotes, or None if it denotes none."""
    if obj is None or obj is type(None):
        return NoneType.get()
    simple = {int: IntType, float: FloatType, bool: BoolType, str: StringType, complex: ComplexType}
    if isinstance(obj, type) and obj in simple:
        return simple[obj].get()
    if obj is typing.Any:
        return AnyType.get()
    if obj is list:
        return AnyListType.get()
    if obj is tuple:
        return AnyTupleType.get()
    if is_named_tuple_class(obj):
        return named_tuple_type(obj)
    if isinstance(obj, type) and issubclass(obj, enum.Enum):
        return enum_type(obj)
    if isinstance(obj, type):
        if obj.__name__ == "Tensor" or obj.__name__ == "Parameter":
            return TensorType.get()
        if obj is Device or obj.__name__ == "device":
            return DeviceType.get()
    runtime = _runtime_type(obj)
    if runtime is not None:
        return runtime
    if isinstance(obj, str):
        return _BY_NAME.get(obj)
    origin = typing.get_origin(obj)
    if origin is not None:
        args = [type_from_python(a) for a in typing.get_args(obj)]
        if any(a is None for a in args):
            return None
        kind = _generic_of(origin)
        if kind is None and origin is typing.Union:
            kind = "union"
        return _make_generic(kind, args)  # type: ignore[arg-type]
    import types as _types

    if isinstance(obj, _types.UnionType):
        args = [type_from_python(a) for a in obj.__args__]
        if any(a is None for a in args):
            return None
        return UnionType.create(args)  # type: ignore[arg-type]
    return None


#: classes (and the `Generator` factory) of the torch namespace that name TorchScript types:
#: a dtype, layout or memory format is an int in compiled code, a `Size` a list of ints
_RUNTIME_TYPES: dict[str, Type] = {
    "dtype": IntType.get(),
    "layout": IntType.get(),
    "memory_format": IntType.get(),
    "qscheme": IntType.get(),
    "Size": ListType(IntType.get()),
    "Generator": GeneratorType.get(),
    "Stream": StreamType.get(),
}
_RUNTIME_MODULES = ("ts_runtime", "tsjit", "torch")


def _runtime_type(obj: Any) -> Type | None:
    if not callable(obj):
        return None
    module = (getattr(obj, "__module__", None) or "").partition(".")[0]
    if module not in _RUNTIME_MODULES:
        return None
    return _RUNTIME_TYPES.get(getattr(obj, "__name__", ""))


def _make_generic(kind: str | None, args: list[Type]) -> Type | None:
    if kind == "list" and len(args) == 1:
        return ListType(args[0])
    if kind == "dict" and len(args) == 2:
        return DictType(args[0], args[1])
    if kind == "tuple":
        if len(args) == 2 and args[1] is Ellipsis:
            return None
        return TupleType(args)
    if kind == "optional" and len(args) == 1:
        return OptionalType.create(args[0])
    if kind == "union" and args:
        return UnionType.create(args)
    if kind == "future" and len(args) == 1:
        return FutureType(args[0])
    return None


def qualified_class_name(cls: type) -> str:
    """TorchScript's name of a Python class: `__torch__.<module>.<qualified name>`."""
    module = cls.__module__
    prefix = "__torch__" if module == "__main__" else f"__torch__.{module}"
    return f"{prefix}.{cls.__qualname__.replace('<locals>.', '')}"


def is_named_tuple_class(obj: Any) -> bool:
    return isinstance(obj, type) and issubclass(obj, tuple) and hasattr(obj, "_fields")


def named_tuple_type(cls: type) -> TupleType | None:
    """The type of a `typing.NamedTuple` class: a tuple with its field names, named after it.
    None when a field has no type compiled code knows."""
    try:
        hints = typing.get_type_hints(cls)
    except Exception:  # an annotation Python itself cannot evaluate
        hints = getattr(cls, "__annotations__", {})
    fields = list(cls._fields)  # type: ignore[attr-defined]
    elements = [type_from_python(hints.get(f, Any)) for f in fields]
    if any(e is None for e in elements):
        return None
    qualified = qualified_class_name(cls)
    NAMED_TUPLE_CLASSES[qualified] = cls
    return TupleType(elements, fields, qualified)  # type: ignore[arg-type]


def enum_type(cls: type[enum.Enum]) -> EnumType | None:
    """The type of an `enum.Enum` class whose values are all ints, all floats or all strings."""
    values = [m.value for m in cls]
    for python_type, typ in ((int, IntType), (float, FloatType), (str, StringType)):
        if values and all(type(v) is python_type for v in values):
            return EnumType(qualified_class_name(cls), typ.get(), [m.name for m in cls])
    return None


#: the Python classes of the NamedTuple types made so far, by qualified name (so a compiled
#: function returns instances of them)
NAMED_TUPLE_CLASSES: dict[str, type] = {}


class TypeReader:
    """Reads annotation trees with a resolver.

    `classes`, when given, gives the type of a Python class compiled as a TorchScript
    class (the driver compiles it); without it such a class is an unknown annotation.
    """

    def __init__(
        self, resolver: Resolver, classes: Callable[[type], Type | None] | None = None
    ) -> None:
        self.resolver = resolver
        self.classes = classes

    def read(self, expr: t.Expr, *, allow_final: bool = False) -> Type:
        result = self._read(expr)
        if isinstance(result, FinalType):
            if not allow_final:
                raise FrontendTypeError("Final is only allowed on module attributes", expr.range)
            if result.inner is None:
                raise FrontendTypeError("Final needs a type: Final[int]", expr.range)
            return result.inner
        return result

    def read_final(self, expr: t.Expr) -> tuple[Type | None, bool]:
        """(type, is_final) of an annotation that may be `Final[T]` (or bare `Final`)."""
        result = self._read(expr)
        if isinstance(result, FinalType):
            return result.inner, True
        return result, False

    def broadcast_size(self, expr: t.Expr) -> int | None:
        """N of a parameter annotated `BroadcastingListN[T]` (or `Optional` of one): its schema
        type is `T[N]`, which also accepts a single `T`, as TorchScript reads `nn.functional`'s
        `kernel_size: BroadcastingList2[int]`."""
        if isinstance(expr, t.Str):
            from .parser import parse_expression

            expr = parse_expression(expr.range.source, expr.range.start + 1, expr.range.end - 1)
        if isinstance(expr, t.BinOp) and expr.op == "|":
            return self.broadcast_size(expr.left) or self.broadcast_size(expr.right)
        if not isinstance(expr, t.Subscript):
            return None
        size = self._broadcast_size(expr)
        if size is not None:
            return size
        kind = _GENERIC_NAMES.get(self._spelling(expr.value) or "")
        obj = self._lookup(expr.value)
        if obj is not MISSING:
            kind = _generic_of(obj) or kind
        if kind in ("optional", "union"):
            for index in expr.indices:
                size = self.broadcast_size(index)
                if size is not None:
                    return size
        return None

    def _broadcast_size(self, expr: t.Subscript) -> int | None:
        obj = self._lookup(expr.value)
        names = [self._spelling(expr.value) or ""]
        if obj is not MISSING:
            names.append(getattr(obj, "__name__", "") or type(obj).__name__)
        for name in names:
            match = _BROADCASTING_LIST.fullmatch(name or "")
            if match:
                return int(match.group(1))
        return None

    def _error(self, expr: t.Expr, what: str | None = None) -> FrontendTypeError:
        text = expr.range.text()
        return FrontendTypeError(
            what or f"unknown type annotation '{text}'",
            expr.range,
            hint="annotations may use int, float, bool, str, Tensor, List, Dict, Tuple, "
            "Optional, Union and Future",
        )

    def _lookup(self, expr: t.Expr) -> Any:
        if isinstance(expr, t.Name):
            return self.resolver.lookup(expr.id)
        if isinstance(expr, t.Attribute):
            base = self._lookup(expr.value)
            if base is MISSING:
                return MISSING
            return getattr(base, expr.name, MISSING)
        return MISSING

    def _spelling(self, expr: t.Expr) -> str | None:
        if isinstance(expr, t.Name):
            return expr.id
        if isinstance(expr, t.Attribute):
            return expr.name
        return None

    def _read(self, expr: t.Expr) -> Any:
        if isinstance(expr, t.Const) and expr.value is None:
            return NoneType.get()
        if isinstance(expr, t.Str):
            from .parser import parse_expression

            inner = parse_expression(expr.range.source, expr.range.start + 1, expr.range.end - 1)
            return self._read(inner)
        if isinstance(expr, t.BinOp) and expr.op == "|":
            return UnionType.create([self.read(expr.left), self.read(expr.right)])
        if isinstance(expr, (t.Name, t.Attribute)):
            obj = self._lookup(expr)
            if obj is not MISSING:
                if obj is typing.Final:
                    return FinalType(None)
                typ = type_from_python(obj)
                if typ is not None:
                    return typ
                if isinstance(obj, type) and self.classes is not None:
                    typ = self.classes(obj)
                    if typ is not None:
                        return typ
            spelled = self._spelling(expr)
            if spelled == "Final":
                return FinalType(None)
            if spelled in _BY_NAME and (obj is MISSING or spelled in ("Tensor", "device")):
                return _BY_NAME[spelled]
            raise self._error(expr)
        if isinstance(expr, t.Subscript):
            obj = self._lookup(expr.value)
            if self._broadcast_size(expr) is not None:
                # `BroadcastingList2[int]`: a list of ints (a single int is broadcast to it)
                if len(expr.indices) != 1:
                    raise self._error(expr, "a broadcasting list takes one element type")
                return ListType(self.read(expr.indices[0]))
            kind = _generic_of(obj) if obj is not MISSING else None
            if kind is None:
                kind = _GENERIC_NAMES.get(self._spelling(expr.value) or "")
            if kind is None:
                raise self._error(expr.value)
            if kind == "final":
                if len(expr.indices) != 1:
                    raise self._error(expr, "Final takes one type")
                return FinalType(self.read(expr.indices[0]))
            if (
                kind == "tuple"
                and len(expr.indices) == 1
                and isinstance(expr.indices[0], t.TupleLiteral)
            ):
                if not expr.indices[0].elts:
                    return TupleType([])
            args = [self.read(i) for i in expr.indices]
            made = _make_generic(kind, args)
            if made is None:
                raise self._error(expr, f"wrong number of type arguments in '{expr.range.text()}'")
            return made
        raise self._error(expr)


def describe_range(loc: SourceRange) -> str:
    return loc.text()
