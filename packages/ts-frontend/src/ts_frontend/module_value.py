"""Modules inside compiled code: `self`, submodules, their attributes and methods.

A `ModuleValue` is a first-class value of a module ClassType together with
its `ConcreteModuleType` (what the compiler learned from the Python module:
which attributes are parameters, buffers, submodules or constants, which
methods exist). `self.fc1` is a `prim::GetAttr`; `self.fc1(x)` a
`prim::CallMethod[name="forward"]`; `self.scale` of a constant is the
constant itself; iterating a `ModuleList` or `Sequential` unrolls over its
children.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ts_ir import ClassType, SourceRange, Value
from ts_schema import NoMatchingSchemaError, match_schema

from . import tree as t
from .errors import CallError, FrontendTypeError, NotSupportedError
from .kinds import CALL_METHOD
from .sugared_value import (
    ConstantValue,
    Iteration,
    SimpleValue,
    StaticIteration,
    StaticListValue,
    SugaredValue,
)

if TYPE_CHECKING:
    from .calls import CallEmitter as FunctionEmitter
    from .module_compiler import ConcreteModuleType


def _value_name(attr: str) -> str:
    return f"_{attr}" if attr[:1].isdigit() else attr


class ModuleValue(SugaredValue):
    """A module (`self` or a submodule) as the emitter sees it."""

    kind = "module"

    def __init__(self, value: Value, concrete: ConcreteModuleType) -> None:
        self.value = value
        self.concrete = concrete

    def describe(self) -> str:
        return f"module '{self.concrete.py_class.__name__}'"

    def as_value(self, em: FunctionEmitter, loc: SourceRange) -> Value:
        return self.value

    def get_attr(self, em: FunctionEmitter, loc: SourceRange, name: str) -> Value:
        typ = self.concrete.class_type.attributes[name]
        node = em.insert(em.graph.create_get_attr(self.value, name, typ), loc)
        node.output().set_debug_name(_value_name(name))
        return node.output()

    def attr(self, em: FunctionEmitter, loc: SourceRange, name: str) -> SugaredValue:
        c = self.concrete
        if name in c.constants:
            return ConstantValue(c.constants[name])
        if name in c.submodules:
            sub = c.submodules[name]
            v = self.get_attr(em, loc, name)
            return ModuleValue(v, sub) if sub is not None else SimpleValue(v)
        if name in c.class_type.attributes:
            return SimpleValue(self.get_attr(em, loc, name))
        if name == "_modules" and c.submodules:
            return ModuleChildren(self)
        if c.container == "dict" and name in ("items", "keys", "values"):
            return _ChildrenMethod(self, name)
        if name in c.methods:
            return MethodValue(self.value, c, name)
        if name in c.unusable:
            raise NotSupportedError(
                f"attribute '{name}' of {self.describe()} cannot be used in compiled code: "
                f"{c.unusable[name]}",
                loc,
                hint="add a type annotation to the class, or compute the value in __init__ "
                "from supported types",
            )
        raise NotSupportedError(f"{self.describe()} has no attribute '{name}'", loc)

    def set_attr(self, em: FunctionEmitter, loc: SourceRange, name: str, value: Value) -> None:
        set_class_attribute(em, loc, self.value, name, value, self.concrete)

    def call(self, em: FunctionEmitter, call: t.Call) -> SugaredValue:
        return call_module_method(em, call, self.value, "forward", self.concrete)

    def children(self, em: FunctionEmitter, loc: SourceRange) -> list[SugaredValue]:
        out: list[SugaredValue] = []
        for name, sub in self.concrete.submodules.items():
            v = self.get_attr(em, loc, name)
            out.append(ModuleValue(v, sub) if sub is not None else SimpleValue(v))
        return out

    def iterate(self, em: FunctionEmitter, loc: SourceRange) -> Iteration:
        c = self.concrete
        if c.container == "dict":
            return StaticIteration([ConstantValue(k) for k in c.submodules])
        if c.container is None:
            raise NotSupportedError(
                f"{self.describe()} is not iterable (only ModuleList, Sequential and "
                "ModuleDict are)",
                loc,
            )
        return StaticIteration(self.children(em, loc))

    def static_items(self) -> list[SugaredValue] | None:
        if self.concrete.container is None:
            return None
        return [ConstantValue(k) for k in self.concrete.submodules]

    def getitem(self, em: FunctionEmitter, loc: SourceRange, index: t.Expr) -> SugaredValue:
        c = self.concrete
        names = list(c.submodules)
        if c.container == "dict":
            key = em.constant_str(index, "a ModuleDict key")
            if key not in c.submodules:
                raise NotSupportedError(f"the ModuleDict has no key '{key}'", index.range)
            return self.attr(em, loc, key)
        if c.container is None:
            raise NotSupportedError(f"{self.describe()} cannot be indexed", loc)
        i = em.constant_int(index, "an index into a module list")
        if not -len(names) <= i < len(names):
            raise NotSupportedError(
                f"index {i} is out of range for a module list of {len(names)} modules", index.range
            )
        return self.attr(em, loc, names[i])


class ModuleChildren(SugaredValue):
    """`self._modules` of a container: `.values()`, `.items()`, `.keys()` unroll."""

    kind = "module children"

    def __init__(self, module: ModuleValue) -> None:
        self.module = module

    def attr(self, em: FunctionEmitter, loc: SourceRange, name: str) -> SugaredValue:
        if name not in ("values", "items", "keys"):
            raise NotSupportedError(f"_modules.{name} is not supported in compiled code", loc)
        return _ChildrenMethod(self.module, name)

    def iterate(self, em: FunctionEmitter, loc: SourceRange) -> Iteration:
        return StaticIteration([ConstantValue(k) for k in self.module.concrete.submodules])


class _ChildrenMethod(SugaredValue):
    kind = "method of a module's children"

    def __init__(self, module: ModuleValue, which: str) -> None:
        self.module = module
        self.which = which

    def call(self, em: FunctionEmitter, call: t.Call) -> SugaredValue:
        from .sugared_value import TupleOfSugared

        names = list(self.module.concrete.submodules)
        if self.which == "keys":
            return StaticListValue([ConstantValue(k) for k in names], "module names")
        children = self.module.children(em, call.range)
        if self.which == "values":
            return StaticListValue(children)
        return StaticListValue(
            [TupleOfSugared([ConstantValue(k), c]) for k, c in zip(names, children, strict=True)]
        )


class MethodValue(SugaredValue):
    """A method of a module: `self.helper(x)` is `prim::CallMethod[name="helper"]`."""

    kind = "method"

    def __init__(self, self_value: Value, concrete: ConcreteModuleType, name: str) -> None:
        self.self_value = self_value
        self.concrete = concrete
        self.name = name

    def describe(self) -> str:
        return f"method '{self.name}'"

    def call(self, em: FunctionEmitter, call: t.Call) -> SugaredValue:
        return call_module_method(em, call, self.self_value, self.name, self.concrete)


def concrete_of(em: FunctionEmitter, typ: ClassType, loc: SourceRange) -> ConcreteModuleType:
    concrete = em.compiler_modules().concrete_by_name.get(typ.qualified_name)
    if concrete is None:
        raise NotSupportedError(f"no compiled class '{typ.qualified_name}' is known here", loc)
    return concrete


def class_attribute(em: FunctionEmitter, loc: SourceRange, v: Value, name: str) -> SugaredValue:
    typ = v.type
    assert isinstance(typ, ClassType)
    return ModuleValue(v, concrete_of(em, typ, loc)).attr(em, loc, name)


def call_module_method(
    em: FunctionEmitter,
    call: t.Call,
    self_value: Value,
    name: str,
    concrete: ConcreteModuleType | None = None,
) -> SugaredValue:
    typ = self_value.type
    assert isinstance(typ, ClassType)
    if concrete is None:
        concrete = concrete_of(em, typ, call.range)
    method = em.compiler_modules().method(concrete, name, call.range, em.name)
    args, kwargs = em.emit_call_args(call)
    try:
        matched = match_schema(
            method.schema, em.graph, [self_value, *args], kwargs, source_range=call.range
        )
    except NoMatchingSchemaError as exc:
        raise CallError(exc.message, call.range) from None
    node = em.graph.create(CALL_METHOD, matched.inputs)
    node.s_("name", name)
    node.output().set_type(matched.return_types[0])
    return SimpleValue(em.insert(node, call.range).output())


def set_class_attribute(
    em: FunctionEmitter,
    loc: SourceRange,
    obj: Value,
    name: str,
    value: Value,
    concrete: ConcreteModuleType | None = None,
) -> None:
    typ = obj.type
    assert isinstance(typ, ClassType)
    if concrete is None:
        concrete = concrete_of(em, typ, loc)
    if name in concrete.constants:
        raise NotSupportedError(f"cannot assign to the constant '{name}'", loc)
    if name in concrete.submodules:
        raise NotSupportedError(f"cannot assign to the submodule '{name}'", loc)
    if name not in typ.attributes:
        raise NotSupportedError(
            f"cannot assign to '{name}': {typ.name} has no such attribute (attributes must be "
            "set in __init__)",
            loc,
        )
    expected = typ.attributes[name]
    value = em.convert_to_type(value, expected, loc)
    if not value.type.is_subtype_of(expected):
        raise FrontendTypeError(
            f"attribute '{name}' has type '{expected.annotation_str()}' but is being assigned a "
            f"value of type '{value.type.annotation_str()}'",
            loc,
        )
    em.insert(em.graph.create_set_attr(obj, name, value), loc)
