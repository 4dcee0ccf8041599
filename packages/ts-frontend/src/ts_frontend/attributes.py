"""Attributes and methods of first-class values: `x.shape`, `x.mm(w)`, `xs.append(v)`.

Tensor properties become prims (`x.dtype` is `prim::dtype`), tensor methods
become operators with `self` bound (`x.mm(w)` is `aten::mm(x, w)`), and the
dtype shorthands (`x.float()`) become `aten::to(x, dtype)`, as TorchScript
emits them. Methods of lists, dicts and strings are `aten::` operators too
(`xs.append(v)` is `aten::append`). Attributes of modules and classes are in
`module_value`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ts_ir import (
    BoolType,
    ClassType,
    DeviceType,
    DictType,
    FloatType,
    FutureType,
    IntType,
    ListType,
    OptionalType,
    ScalarType,
    SourceRange,
    StringType,
    TensorType,
    TupleType,
    UnionType,
    Value,
)
from ts_schema import registry

from .errors import FrontendTypeError, NotSupportedError
from .sugared_value import BuiltinFunction, SimpleValue, SugaredValue

if TYPE_CHECKING:
    from . import tree as t
    from .calls import CallEmitter as FunctionEmitter

# tensor properties that are prims of one argument
_TENSOR_PROPERTIES = {
    "dtype": "prim::dtype",
    "device": "prim::device",
    "is_cuda": "prim::is_cuda",
    "requires_grad": "prim::requires_grad",
    "data": "prim::data",
    "grad": "prim::grad",
    "layout": "prim::layout",
    "shape": "aten::size",
    "ndim": "aten::dim",
    "T": "aten::numpy_T",
    "mT": "aten::mT",
    "real": "aten::real",
    "imag": "aten::imag",
    "is_leaf": "aten::is_leaf",
}

# `x.float()` and friends: `aten::to(x, dtype)`
TENSOR_CASTS = {
    "float": ScalarType.Float,
    "double": ScalarType.Double,
    "half": ScalarType.Half,
    "int": ScalarType.Int,
    "long": ScalarType.Long,
    "short": ScalarType.Short,
    "char": ScalarType.Char,
    "byte": ScalarType.Byte,
    "bool": ScalarType.Bool,
    "bfloat16": ScalarType.BFloat16,
}

# method names that are spelled differently as operators
_METHOD_ALIASES = {"__contains__": "__contains__"}


class TensorCastValue(SugaredValue):
    """`x.float()`: converts to a dtype with `aten::to(x, dtype, False, False, None)`."""

    kind = "tensor cast"

    def __init__(self, value: Value, dtype: ScalarType, name: str) -> None:
        self.value = value
        self.dtype = dtype
        self.name = name

    def describe(self) -> str:
        return f"method '{self.name}' of a Tensor"

    def call(self, em: FunctionEmitter, call: t.Call) -> SugaredValue:
        args, kwargs = em.emit_call_args(call)
        kwargs.pop("memory_format", None)
        if args or kwargs:
            raise FrontendTypeError(f"{self.name}() takes no arguments", call.range)
        dtype = em.constant(int(self.dtype), call.range)
        return SimpleValue(em.call_builtin("aten::to", [self.value, dtype], {}, call.range))


class FutureWaitValue(SugaredValue):
    kind = "method 'wait' of a Future"

    def __init__(self, value: Value) -> None:
        self.value = value

    def call(self, em: FunctionEmitter, call: t.Call) -> SugaredValue:
        return SimpleValue(em.call_builtin("aten::wait", [self.value], {}, call.range))


def value_attribute(em: FunctionEmitter, loc: SourceRange, v: Value, name: str) -> SugaredValue:
    """`v.name` for a first-class value `v`."""
    typ = v.type
    if isinstance(typ, TensorType):
        return _tensor_attribute(em, loc, v, name)
    if isinstance(typ, ClassType):
        from .module_value import class_attribute

        return class_attribute(em, loc, v, name)
    if isinstance(typ, TupleType) and typ.names is not None and name in typ.names:
        i = typ.names.index(name)
        index = em.constant(i, loc)
        node = em.insert(em.graph.create_tuple_index(v, index, typ.elements[i]), loc)
        return SimpleValue(node.output())
    if isinstance(typ, FutureType) and name == "wait":
        return FutureWaitValue(v)
    if isinstance(typ, (OptionalType, UnionType)):
        raise FrontendTypeError(
            f"cannot look up attribute '{name}' on a value of type '{typ.annotation_str()}'",
            loc,
            hint="refine the value first: `if x is not None:` or `isinstance(x, T)`",
        )
    if isinstance(typ, (ListType, DictType, StringType, IntType, FloatType, BoolType, DeviceType)):
        symbol = f"aten::{_METHOD_ALIASES.get(name, name)}"
        if registry.has(symbol):
            return BuiltinFunction(symbol, v, name=name)
    raise NotSupportedError(
        f"'{typ.annotation_str()}' object has no attribute or method '{name}'", loc
    )


def _tensor_attribute(em: FunctionEmitter, loc: SourceRange, v: Value, name: str) -> SugaredValue:
    prop = _TENSOR_PROPERTIES.get(name)
    if prop is not None:
        return SimpleValue(em.call_builtin(prop, [v], {}, loc))
    cast = TENSOR_CASTS.get(name)
    if cast is not None:
        return TensorCastValue(v, cast, name)
    symbol = f"aten::{name}"
    if registry.has(symbol):
        return BuiltinFunction(symbol, v, name=name)
    raise NotSupportedError(f"'Tensor' object has no attribute or method '{name}'", loc)


def set_value_attribute(
    em: FunctionEmitter, loc: SourceRange, obj: Value, name: str, value: Value
) -> None:
    typ = obj.type
    if isinstance(typ, ClassType):
        from .module_value import set_class_attribute

        set_class_attribute(em, loc, obj, name, value)
        return
    if isinstance(typ, TensorType) and name in ("requires_grad", "data", "grad"):
        raise NotSupportedError(f"setting '{name}' of a tensor is not supported", loc)
    raise NotSupportedError(
        f"cannot set attribute '{name}' on a value of type '{typ.annotation_str()}'", loc
    )
