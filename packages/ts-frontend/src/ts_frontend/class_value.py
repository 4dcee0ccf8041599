"""TorchScript classes and NamedTuples in compiled code.

A class (`@torch.jit.script class Boxes`, or any Python class compiled code
uses) is compiled by the driver into a `ClassType` and methods; here it is
sugar. Calling the class makes an object, as TorchScript emits it:

    b = Boxes(t)          %b : __torch__.Boxes = prim::CreateObject()
                          = prim::CallMethod[name="__init__"](%b, %t)

An object's attributes are `prim::GetAttr`/`prim::SetAttr`; inside
`__init__`, assigning an attribute defines it, with the type of its first
value (or of the class's annotation). A method call is `prim::CallMethod`;
a property reads through its getter method (`__device_getter`); `len(b)`,
`b[i]` and `b(x)` call `__len__`, `__getitem__` and `__call__`.

A NamedTuple class is a tuple type with field names; calling it is a
`prim::TupleConstruct` of that type, its missing fields taking their
defaults.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from ts_ir import ClassType, SourceRange, TupleType, Type, Value, unshaped_type

from .context import EmitContext
from .conversions import convert_to_type
from .errors import CallError, FrontendTypeError, NotSupportedError
from .kinds import CREATE_OBJECT
from .module_value import MethodValue, call_method, emit_call_method, set_object_attribute
from .sugared_value import (
    NOT_CONSTANT,
    ConstantValue,
    NamedValue,
    SimpleValue,
    SugaredValue,
    python_constant,
    values_of,
)


class ClassInfo(Protocol):
    """What the driver compiled of a class (`class_compiler.CompiledClass`)."""

    @property
    def py_class(self) -> type: ...

    @property
    def class_type(self) -> ClassType: ...

    @property
    def methods(self) -> set[str]: ...

    @property
    def properties(self) -> Mapping[str, str]: ...

    @property
    def constants(self) -> Mapping[str, Any]: ...

    @property
    def declared(self) -> Mapping[str, Type]: ...


class ObjectValue(SugaredValue):
    """An object of a TorchScript class; `defining` inside its `__init__`."""

    kind = "object"

    def __init__(self, value: Value, info: ClassInfo, *, defining: bool = False) -> None:
        self.value = value
        self.info = info
        self.defining = defining

    def describe(self) -> str:
        return f"an object of class '{self.info.py_class.__name__}'"

    def as_value(self, ctx: EmitContext, loc: SourceRange) -> Value:
        return self.value

    def attr(self, ctx: EmitContext, loc: SourceRange, name: str) -> SugaredValue:
        info = self.info
        typ = info.class_type.attributes.get(name)
        if typ is not None:
            node = ctx.insert(ctx.graph.create_get_attr(self.value, name, typ), loc)
            return SimpleValue(node.output())
        getter = info.properties.get(name)
        if getter is not None:
            return call_method(ctx, loc, self.value, getter, [], {})
        if name in info.methods:
            return MethodValue(self.value, name)
        if name in info.constants:
            return ConstantValue(info.constants[name])
        raise NotSupportedError(
            f"'{info.class_type.name}' object has no attribute or method '{name}'",
            loc,
            hint="attributes of a class must be assigned in its __init__"
            if not self.defining
            else None,
        )

    def set_attr(self, ctx: EmitContext, loc: SourceRange, name: str, value: Value) -> None:
        class_type = self.info.class_type
        if name not in class_type.attributes:
            if not self.defining:
                raise NotSupportedError(
                    f"cannot assign to '{name}': class '{class_type.name}' has no such "
                    "attribute (attributes are defined by assignments in __init__)",
                    loc,
                )
            declared = self.info.declared.get(name)
            if declared is not None:
                value = convert_to_type(ctx, value, declared, loc)
                if not value.type.is_subtype_of(declared):
                    raise FrontendTypeError(
                        f"attribute '{name}' is annotated '{declared.annotation_str()}' but "
                        f"is assigned a value of type '{value.type.annotation_str()}'",
                        loc,
                    )
            class_type.add_attribute(name, declared or unshaped_type(value.type))
        set_object_attribute(ctx, loc, self.value, name, value)

    def call(
        self,
        ctx: EmitContext,
        loc: SourceRange,
        args: list[NamedValue],
        kwargs: dict[str, NamedValue],
    ) -> SugaredValue:
        return self._dunder(ctx, loc, "__call__", "called").call(ctx, loc, args, kwargs)

    def getitem(self, ctx: EmitContext, loc: SourceRange, index: NamedValue) -> SugaredValue:
        return self._dunder(ctx, loc, "__getitem__", "indexed").call(ctx, loc, [index], {})

    def delitem(self, ctx: EmitContext, loc: SourceRange, index: NamedValue) -> None:
        """`del obj[k]`: its `__delitem__`."""
        self._dunder(ctx, loc, "__delitem__", "deleted from").call(ctx, loc, [index], {})

    def length(self, ctx: EmitContext, loc: SourceRange) -> Value:
        """`len(obj)`: its `__len__`."""
        return (
            self._dunder(ctx, loc, "__len__", "measured").call(ctx, loc, [], {}).as_value(ctx, loc)
        )

    def _dunder(self, ctx: EmitContext, loc: SourceRange, name: str, what: str) -> SugaredValue:
        if name not in self.info.methods:
            raise NotSupportedError(
                f"{self.describe()} cannot be {what}: its class defines no {name}", loc
            )
        return MethodValue(self.value, name)


class ClassValue(SugaredValue):
    """A compiled class as a value: calling it constructs an object."""

    kind = "class"

    def __init__(self, info: ClassInfo) -> None:
        self.info = info

    def describe(self) -> str:
        return f"class '{self.info.py_class.__name__}'"

    def call(
        self,
        ctx: EmitContext,
        loc: SourceRange,
        args: list[NamedValue],
        kwargs: dict[str, NamedValue],
    ) -> SugaredValue:
        class_type = self.info.class_type
        node = ctx.insert(ctx.graph.create(CREATE_OBJECT, [], 1), loc)
        obj = node.output().set_type(class_type)
        if "__init__" in self.info.methods:
            call_method(ctx, loc, obj, "__init__", args, kwargs)
        elif args or kwargs:
            raise CallError(f"{self.describe()} takes no arguments", loc)
        return SimpleValue(obj)

    def attr(self, ctx: EmitContext, loc: SourceRange, name: str) -> SugaredValue:
        if name in self.info.constants:
            return ConstantValue(self.info.constants[name])
        raise NotSupportedError(f"{self.describe()} has no class attribute '{name}'", loc)


class PythonClassValue(SugaredValue):
    """A Python class a program names: compiled as a TorchScript class when first used."""

    kind = "class"

    def __init__(self, cls: type) -> None:
        self.cls = cls

    def describe(self) -> str:
        return f"class '{self.cls.__qualname__}'"

    def _compiled(self, ctx: EmitContext, loc: SourceRange) -> SugaredValue:
        return ctx.compiler.class_value(self.cls, loc)

    def call(
        self,
        ctx: EmitContext,
        loc: SourceRange,
        args: list[NamedValue],
        kwargs: dict[str, NamedValue],
    ) -> SugaredValue:
        return self._compiled(ctx, loc).call(ctx, loc, args, kwargs)

    def attr(self, ctx: EmitContext, loc: SourceRange, name: str) -> SugaredValue:
        value = python_constant(getattr(self.cls, name, None))
        if value is not NOT_CONSTANT and hasattr(self.cls, name):
            return ConstantValue(value)
        return self._compiled(ctx, loc).attr(ctx, loc, name)


class NamedTupleClassValue(SugaredValue):
    """A NamedTuple class: calling it builds a tuple of its type."""

    kind = "NamedTuple class"

    def __init__(self, cls: type, typ: TupleType) -> None:
        self.cls = cls
        self.type = typ

    def describe(self) -> str:
        return f"NamedTuple '{self.cls.__name__}'"

    def call(
        self,
        ctx: EmitContext,
        loc: SourceRange,
        args: list[NamedValue],
        kwargs: dict[str, NamedValue],
    ) -> SugaredValue:
        typ = self.type
        names = list(typ.names or ())
        if len(args) > len(names):
            raise CallError(
                f"{self.describe()} takes {len(names)} fields, got {len(args)} arguments", loc
            )
        given: dict[str, Value] = dict(zip(names, values_of(ctx, args), strict=False))
        for name, arg in kwargs.items():
            if name not in names or name in given:
                raise CallError(f"{self.describe()} got an unexpected field '{name}'", arg.loc)
            given[name] = arg.value(ctx)
        defaults = getattr(self.cls, "_field_defaults", {})
        items = []
        for name, element in zip(names, typ.elements, strict=True):
            if name in given:
                v = convert_to_type(ctx, given[name], element, loc)
            elif name in defaults and python_constant(defaults[name]) is not NOT_CONSTANT:
                v = ctx.constant(python_constant(defaults[name]), loc)
                v = convert_to_type(ctx, v, element, loc)
            else:
                raise CallError(f"{self.describe()} is missing the field '{name}'", loc)
            if not v.type.is_subtype_of(element):
                raise FrontendTypeError(
                    f"field '{name}' of {self.describe()} has type '{element.annotation_str()}' "
                    f"but is given a value of type '{v.type.annotation_str()}'",
                    loc,
                )
            items.append(v)
        node = ctx.insert(ctx.graph.create_tuple(items), loc)
        return SimpleValue(node.output().set_type(typ))


class InterfaceValue(SugaredValue):
    """A value of an interface type: its methods are called by name on whatever object it is."""

    kind = "interface"

    def __init__(self, value: Value, schemas: Mapping[str, Any]) -> None:
        self.value = value
        self.schemas = schemas

    def describe(self) -> str:
        return f"a value of interface '{self.value.type}'"

    def as_value(self, ctx: EmitContext, loc: SourceRange) -> Value:
        return self.value

    def attr(self, ctx: EmitContext, loc: SourceRange, name: str) -> SugaredValue:
        if name not in self.schemas:
            raise NotSupportedError(f"{self.describe()} has no method '{name}'", loc)
        return InterfaceMethod(self.value, name, self.schemas[name])

    def call(
        self,
        ctx: EmitContext,
        loc: SourceRange,
        args: list[NamedValue],
        kwargs: dict[str, NamedValue],
    ) -> SugaredValue:
        return self.attr(ctx, loc, "forward").call(ctx, loc, args, kwargs)


class InterfaceMethod(SugaredValue):
    kind = "interface method"

    def __init__(self, self_value: Value, name: str, schema: Any) -> None:
        self.self_value = self_value
        self.name = name
        self.schema = schema

    def call(
        self,
        ctx: EmitContext,
        loc: SourceRange,
        args: list[NamedValue],
        kwargs: dict[str, NamedValue],
    ) -> SugaredValue:
        return emit_call_method(ctx, loc, self.self_value, self.name, self.schema, args, kwargs)


class EnumClassValue(SugaredValue):
    """An `enum.Enum` class: its members are constants of its type."""

    kind = "enum class"

    def __init__(self, cls: type, typ: Type) -> None:
        self.cls = cls
        self.type = typ

    def describe(self) -> str:
        return f"enum '{self.cls.__name__}'"

    def attr(self, ctx: EmitContext, loc: SourceRange, name: str) -> SugaredValue:
        member = self.cls.__members__.get(name)  # type: ignore[attr-defined]
        if member is None:
            raise NotSupportedError(f"{self.describe()} has no member '{name}'", loc)
        return ConstantValue(member, self.type)
