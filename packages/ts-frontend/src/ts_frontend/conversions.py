"""Conversions and calls every part of the frontend emits the same way.

`convert_to_type` applies the implicit conversions TorchScript (and Python)
allow when a value meets a declared type: a tuple where a list is expected,
an `int` where a `float` is, a one-element tensor where a number is (as
`aten::FloatImplicit`), a string where a device is. `to_bool` is a
condition's truth (`aten::Bool`, or a length test for containers);
`unpack_value` splits a tuple, list or tensor for `a, b = v`; and
`emit_function_call` calls a compiled function through `prim::CallFunction`
of a function constant. Each works on an `EmitContext` only.
"""

from __future__ import annotations

from typing import Any

from ts_ir import (
    BoolType,
    ComplexType,
    DeviceType,
    DictType,
    FloatType,
    FunctionType,
    IntType,
    ListType,
    NoneType,
    NumberType,
    OptionalType,
    SourceRange,
    StringType,
    TensorType,
    TupleType,
    Type,
    Value,
    constant_value,
    unify_type_list,
)
from ts_schema import NoMatchingSchemaError, match_schema

from .context import EmitContext
from .errors import CallError, FrontendTypeError
from .kinds import CALL_FUNCTION, CONSTANT, DICT_CONSTRUCT, LIST_CONSTRUCT, RAISE_EXCEPTION

_FROM_TENSOR = {
    FloatType: "aten::FloatImplicit",
    IntType: "aten::IntImplicit",
    ComplexType: "aten::ComplexImplicit",
    NumberType: "aten::ScalarImplicit",
}
_FROM_NUMBER = {FloatType: "aten::Float", IntType: "aten::Int", ComplexType: "aten::Complex"}


def convert_to_type(ctx: EmitContext, value: Value, typ: Type, loc: SourceRange) -> Value:
    """`value` implicitly converted towards `typ` where TorchScript (or Python) allows."""
    actual = value.type
    if actual.is_subtype_of(typ):
        return value
    if isinstance(typ, OptionalType) and not isinstance(actual, (OptionalType, NoneType)):
        return convert_to_type(ctx, value, typ.element, loc)
    g = ctx.graph
    if isinstance(actual, TupleType):
        if isinstance(typ, ListType) and all(e.is_subtype_of(typ.element) for e in actual.elements):
            items = unpack_tuple(ctx, value, loc)
            return ctx.insert(g.create_list(typ.element, items), loc).output()
        if isinstance(typ, TupleType) and len(typ.elements) == len(actual.elements):
            items = unpack_tuple(ctx, value, loc)
            converted = [
                convert_to_type(ctx, v, et, loc) for v, et in zip(items, typ.elements, strict=True)
            ]
            return ctx.insert(g.create_tuple(converted), loc).output()
    if isinstance(actual, ListType) and isinstance(typ, ListType):
        node = value.node
        if node.kind is LIST_CONSTRUCT:
            if not node.inputs:
                if not value.uses:
                    return value.set_type(typ)
            elif all(i.type.is_subtype_of(typ.element) for i in node.inputs):
                return ctx.insert(g.create_list(typ.element, list(node.inputs)), loc).output()
    if isinstance(actual, DictType) and isinstance(typ, DictType):
        node = value.node
        if node.kind is DICT_CONSTRUCT and not node.inputs and not value.uses:
            return value.set_type(typ)
    if isinstance(actual, TensorType):
        symbol = _FROM_TENSOR.get(type(typ))
        if symbol:
            return ctx.call_builtin(symbol, [value], {}, loc)
    elif isinstance(actual, NumberType):
        symbol = _FROM_NUMBER.get(type(typ))
        if symbol:
            return ctx.call_builtin(symbol, [value], {}, loc)
    elif isinstance(actual, BoolType):
        if isinstance(typ, FloatType):
            return ctx.call_builtin("aten::Float", [value], {}, loc)
        if isinstance(typ, (IntType, NumberType)):
            return ctx.call_builtin("aten::Int", [value], {}, loc)
    elif isinstance(actual, IntType) and isinstance(typ, FloatType):
        if value.node.kind is CONSTANT:
            return ctx.constant(float(constant_value(value)), loc)
        return ctx.call_builtin("aten::Float", [value], {}, loc)
    if isinstance(actual, StringType) and isinstance(typ, DeviceType):
        return ctx.call_builtin("aten::device", [value], {}, loc)
    return value


def unpack_tuple(ctx: EmitContext, v: Value, loc: SourceRange | None) -> list[Value]:
    """The items of a tuple value (`prim::TupleUnpack`)."""
    node = ctx.insert(ctx.graph.create_tuple_unpack(v), loc)
    return list(node.outputs)


def unpack_value(ctx: EmitContext, v: Value, n: int, loc: SourceRange) -> list[Value]:
    """`a, b = v` for a tuple, a list or a tensor of `n` items."""
    typ = v.type
    g = ctx.graph
    if isinstance(typ, TupleType):
        if len(typ.elements) != n:
            raise FrontendTypeError(
                f"cannot unpack a tuple of {len(typ.elements)} values into {n} targets", loc
            )
        return unpack_tuple(ctx, v, loc)
    if isinstance(typ, ListType):
        return list(ctx.insert(g.create_list_unpack(v, n), loc).outputs)
    if isinstance(typ, TensorType):
        values = ctx.call_builtin("aten::unbind", [v], {}, loc)
        return list(ctx.insert(g.create_list_unpack(values, n), loc).outputs)
    raise FrontendTypeError(f"cannot unpack a value of type '{typ.annotation_str()}'", loc)


def to_list(ctx: EmitContext, v: Value, loc: SourceRange) -> Value:
    """A tuple as a list of its unified element type; any other value unchanged."""
    if isinstance(v.type, TupleType):
        element = unify_type_list(v.type.elements) if v.type.elements else TensorType.get()
        if element is None:
            raise FrontendTypeError(
                f"a tuple of {v.type.annotation_str()} cannot be used as a list", loc
            )
        items = unpack_tuple(ctx, v, loc)
        return ctx.insert(ctx.graph.create_list(element, items), loc).output()
    return v


def to_bool(ctx: EmitContext, v: Value, loc: SourceRange) -> Value:
    """The truth of `v`: `aten::Bool` of a number or tensor, `len != 0` of a container."""
    typ = v.type
    if isinstance(typ, BoolType):
        return v
    if isinstance(typ, (TensorType, IntType, FloatType, NumberType)):
        return ctx.call_builtin("aten::Bool", [v], {}, loc)
    if isinstance(typ, (ListType, DictType, StringType, TupleType)):
        seq = to_list(ctx, v, loc) if isinstance(typ, TupleType) else v
        length = ctx.call_builtin("aten::len", [seq], {}, loc)
        return ctx.call_builtin("aten::ne", [length, ctx.constant(0, loc)], {}, loc)
    raise FrontendTypeError(
        f"a value of type '{typ.annotation_str()}' cannot be used as a condition",
        loc,
        hint="compare it explicitly (e.g. `x is not None`)"
        if isinstance(typ, (OptionalType, NoneType))
        else None,
    )


def function_constant(ctx: EmitContext, callee: Any, loc: SourceRange | None) -> Value:
    """The `prim::Constant[name=...]` of a compiled function, typed by its FunctionType."""
    n = ctx.graph.create(CONSTANT)
    n.s_("name", callee.name)
    n.output().set_type(FunctionType(callee, callee.name))
    return ctx.insert(n, loc).output()


def emit_function_call(
    ctx: EmitContext, callee: Any, args: list[Value], kwargs: dict[str, Value], loc: SourceRange
) -> Value:
    """`prim::CallFunction` of a compiled function, its arguments matched to its schema."""
    try:
        matched = match_schema(callee.schema, ctx.graph, args, kwargs, source_range=loc)
    except NoMatchingSchemaError as exc:
        raise CallError(exc.message, loc) from None
    fn = function_constant(ctx, callee, None)
    node = ctx.insert(ctx.graph.create(CALL_FUNCTION, [fn, *matched.inputs]), loc)
    node.output().set_type(matched.return_types[0])
    return node.output()


def emit_raise(ctx: EmitContext, message: Value, cls: Value, loc: SourceRange) -> None:
    """`prim::RaiseException(message, class name)`."""
    ctx.insert(ctx.graph.create(RAISE_EXCEPTION, [message, cls], 0), loc)
