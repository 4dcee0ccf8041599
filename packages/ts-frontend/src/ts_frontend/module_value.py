"""Modules inside compiled code: `self`, submodules, their attributes and methods.

A `ModuleValue` is a first-class value of a module ClassType together with
what the compiler learned from the Python module (its `ModuleInfo`: which
attributes are parameters, buffers, submodules or constants, which methods
exist). `self.fc1` is a `prim::GetAttr`; `self.fc1(x)` a
`prim::CallMethod[name="forward"]`; `self.scale` of a constant is the
constant itself; iterating a `ModuleList` or `Sequential` unrolls over its
children.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from ts_ir import ClassType, SourceRange, Value, value_name_for
from ts_schema import NoMatchingSchemaError, match_schema, match_schemas

from .context import EmitContext
from .conversions import convert_to_type
from .errors import CallError, FrontendTypeError, NotSupportedError
from .kinds import CALL_METHOD
from .sugared_value import (
    ConstantValue,
    Iteration,
    NamedValue,
    SimpleValue,
    StaticIteration,
    StaticListValue,
    SugaredValue,
    TupleOfSugared,
    constant_int,
    constant_str,
    kwarg_values,
    values_of,
)


class ModuleInfo(Protocol):
    """What scripting learned about a module's class (`module_compiler.ConcreteModuleType`)."""

    @property
    def py_class(self) -> type: ...

    @property
    def class_type(self) -> ClassType: ...

    @property
    def constants(self) -> Mapping[str, Any]: ...

    @property
    def submodules(self) -> Mapping[str, ModuleInfo | None]: ...

    @property
    def unusable(self) -> Mapping[str, str]: ...

    @property
    def methods(self) -> set[str]: ...

    @property
    def container(self) -> str | None: ...

    @property
    def functions(self) -> Mapping[str, SugaredValue]: ...

    @property
    def method_aliases(self) -> Mapping[str, str]: ...


class ModuleValue(SugaredValue):
    """A module (`self` or a submodule) as the emitter sees it."""

    kind = "module"

    def __init__(self, value: Value, concrete: ModuleInfo) -> None:
        self.value = value
        self.concrete = concrete

    def describe(self) -> str:
        return f"module '{self.concrete.py_class.__name__}'"

    def as_value(self, ctx: EmitContext, loc: SourceRange) -> Value:
        return self.value

    def get_attr(self, ctx: EmitContext, loc: SourceRange, name: str) -> Value:
        typ = self.concrete.class_type.attributes[name]
        node = ctx.insert(ctx.graph.create_get_attr(self.value, name, typ), loc)
        node.output().set_debug_name(value_name_for(name))
        return node.output()

    def _child(self, ctx: EmitContext, loc: SourceRange, name: str) -> SugaredValue:
        sub = self.concrete.submodules[name]
        v = self.get_attr(ctx, loc, name)
        return ModuleValue(v, sub) if sub is not None else SimpleValue(v)

    def attr(self, ctx: EmitContext, loc: SourceRange, name: str) -> SugaredValue:
        c = self.concrete
        if name in c.constants:
            return ConstantValue(c.constants[name])
        if name in c.submodules:
            return self._child(ctx, loc, name)
        if name in c.class_type.attributes:
            return SimpleValue(self.get_attr(ctx, loc, name))
        if name == "_modules" and c.submodules:
            return ModuleChildren(self)
        if c.container == "dict" and name in ("items", "keys", "values"):
            return _ChildrenMethod(self, name)
        if name in c.methods:
            return MethodValue(self.value, name)
        if name in c.functions:
            return c.functions[name]
        if name in c.method_aliases:
            return MethodValue(self.value, c.method_aliases[name])
        if name in c.unusable:
            raise NotSupportedError(
                f"attribute '{name}' of {self.describe()} cannot be used in compiled code: "
                f"{c.unusable[name]}",
                loc,
                hint="add a type annotation to the class, or compute the value in __init__ "
                "from supported types",
            )
        raise NotSupportedError(f"{self.describe()} has no attribute '{name}'", loc)

    def set_attr(self, ctx: EmitContext, loc: SourceRange, name: str, value: Value) -> None:
        c = self.concrete
        if name in c.constants:
            raise NotSupportedError(f"cannot assign to the constant '{name}'", loc)
        if name in c.submodules:
            raise NotSupportedError(f"cannot assign to the submodule '{name}'", loc)
        set_object_attribute(ctx, loc, self.value, name, value)

    def call(
        self,
        ctx: EmitContext,
        loc: SourceRange,
        args: list[NamedValue],
        kwargs: dict[str, NamedValue],
    ) -> SugaredValue:
        return call_method(ctx, loc, self.value, "forward", args, kwargs)

    def children(self, ctx: EmitContext, loc: SourceRange) -> list[SugaredValue]:
        return [self._child(ctx, loc, name) for name in self.concrete.submodules]

    def iterate(self, ctx: EmitContext, loc: SourceRange) -> Iteration:
        c = self.concrete
        if c.container == "dict":
            return StaticIteration([ConstantValue(k) for k in c.submodules])
        if c.container is None:
            raise NotSupportedError(
                f"{self.describe()} is not iterable (only ModuleList, Sequential and "
                "ModuleDict are)",
                loc,
            )
        return StaticIteration(self.children(ctx, loc))

    def static_items(self) -> list[SugaredValue] | None:
        if self.concrete.container is None:
            return None
        return [ConstantValue(k) for k in self.concrete.submodules]

    def getitem(self, ctx: EmitContext, loc: SourceRange, index: NamedValue) -> SugaredValue:
        c = self.concrete
        names = list(c.submodules)
        if c.container == "dict":
            key = constant_str(index, "a ModuleDict key")
            if key not in c.submodules:
                raise NotSupportedError(f"the ModuleDict has no key '{key}'", index.loc)
            return self.attr(ctx, loc, key)
        if c.container is None:
            raise NotSupportedError(f"{self.describe()} cannot be indexed", loc)
        i = constant_int(index, "an index into a module list")
        if not -len(names) <= i < len(names):
            raise NotSupportedError(
                f"index {i} is out of range for a module list of {len(names)} modules", index.loc
            )
        return self.attr(ctx, loc, names[i])


class ModuleChildren(SugaredValue):
    """`self._modules` of a container: `.values()`, `.items()`, `.keys()` unroll."""

    kind = "module children"

    def __init__(self, module: ModuleValue) -> None:
        self.module = module

    def attr(self, ctx: EmitContext, loc: SourceRange, name: str) -> SugaredValue:
        if name not in ("values", "items", "keys"):
            raise NotSupportedError(f"_modules.{name} is not supported in compiled code", loc)
        return _ChildrenMethod(self.module, name)

    def iterate(self, ctx: EmitContext, loc: SourceRange) -> Iteration:
        return StaticIteration([ConstantValue(k) for k in self.module.concrete.submodules])


class _ChildrenMethod(SugaredValue):
    kind = "method of a module's children"

    def __init__(self, module: ModuleValue, which: str) -> None:
        self.module = module
        self.which = which

    def call(
        self,
        ctx: EmitContext,
        loc: SourceRange,
        args: list[NamedValue],
        kwargs: dict[str, NamedValue],
    ) -> SugaredValue:
        names = list(self.module.concrete.submodules)
        if self.which == "keys":
            return StaticListValue([ConstantValue(k) for k in names], "module names")
        children = self.module.children(ctx, loc)
        if self.which == "values":
            return StaticListValue(children)
        return StaticListValue(
            [TupleOfSugared([ConstantValue(k), c]) for k, c in zip(names, children, strict=True)]
        )


class MethodValue(SugaredValue):
    """A method of an object: `self.helper(x)` is `prim::CallMethod[name="helper"]`."""

    kind = "method"

    def __init__(self, self_value: Value, name: str) -> None:
        self.self_value = self_value
        self.name = name

    def describe(self) -> str:
        return f"method '{self.name}'"

    def call(
        self,
        ctx: EmitContext,
        loc: SourceRange,
        args: list[NamedValue],
        kwargs: dict[str, NamedValue],
    ) -> SugaredValue:
        return call_method(ctx, loc, self.self_value, self.name, args, kwargs)


def call_method(
    ctx: EmitContext,
    loc: SourceRange,
    self_value: Value,
    name: str,
    args: list[NamedValue],
    kwargs: dict[str, NamedValue],
) -> SugaredValue:
    """`prim::CallMethod[name=...]` of a compiled class's method, compiled on first use; of a
    method with overloads, the first overload whose signature the arguments match."""
    overloads = ctx.compiler.method_overloads(self_value.type, name, loc, ctx.function_name)
    if overloads is not None:
        values = [self_value, *values_of(ctx, args)]
        try:
            chosen, matched = match_schemas(
                [fn.schema for fn in overloads],
                ctx.graph,
                values,
                kwarg_values(ctx, kwargs),
                source_range=loc,
            )
        except NoMatchingSchemaError as exc:
            raise CallError(exc.message, loc) from None
        return _insert_call_method(ctx, loc, chosen.name, matched)
    method = ctx.compiler.method(self_value.type, name, loc, ctx.function_name)
    return emit_call_method(ctx, loc, self_value, name, method.schema, args, kwargs)


def emit_call_method(
    ctx: EmitContext,
    loc: SourceRange,
    self_value: Value,
    name: str,
    schema: Any,
    args: list[NamedValue],
    kwargs: dict[str, NamedValue],
) -> SugaredValue:
    """`prim::CallMethod[name=...]`, the arguments matched to the method's `schema`."""
    values = [self_value, *values_of(ctx, args)]
    try:
        matched = match_schema(
            schema, ctx.graph, values, kwarg_values(ctx, kwargs), source_range=loc
        )
    except NoMatchingSchemaError as exc:
        raise CallError(exc.message, loc) from None
    return _insert_call_method(ctx, loc, name, matched)


def _insert_call_method(
    ctx: EmitContext, loc: SourceRange, name: str, matched: Any
) -> SugaredValue:
    node = ctx.graph.create(CALL_METHOD, matched.inputs)
    node.s_("name", name)
    node.output().set_type(matched.return_types[0])
    return SimpleValue(ctx.insert(node, loc).output())


def set_object_attribute(
    ctx: EmitContext, loc: SourceRange, obj: Value, name: str, value: Value
) -> None:
    """`obj.name = value` for an attribute of a compiled class (`prim::SetAttr`)."""
    typ = obj.type
    assert isinstance(typ, ClassType)
    if name not in typ.attributes:
        raise NotSupportedError(
            f"cannot assign to '{name}': {typ.name} has no such attribute (attributes must be "
            "set in __init__)",
            loc,
        )
    expected = typ.attributes[name]
    value = convert_to_type(ctx, value, expected, loc)
    if not value.type.is_subtype_of(expected):
        raise FrontendTypeError(
            f"attribute '{name}' has type '{expected.annotation_str()}' but is being assigned a "
            f"value of type '{value.type.annotation_str()}'",
            loc,
        )
    ctx.insert(ctx.graph.create_set_attr(obj, name, value), loc)
