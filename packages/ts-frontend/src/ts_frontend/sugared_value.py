"""Sugared values: what a name or expression means before it is a graph value.

A `SimpleValue` wraps a first-class IR `Value`. Everything else is sugar the
emitter resolves at compile time: a builtin operator (`BuiltinFunction`,
matched against the registry's overloads), a Python module (`math`, the
`torch` namespace), a script function to call, a module attribute, a class
constructor, a `range`. Each answers the questions the emitter asks of it:
`attr(name)`, `call(args)`, `iterate()`, `as_value()`, each raising a
`FrontendError` that names the construct when the answer is "no".

As TorchScript's `SugaredValue::call`, `call` receives its arguments already
evaluated (`NamedValue`s: a sugared value, where it was written, and its
keyword), and emits through an `EmitContext` (see `context`): the graph, an
insertion, a constant, a builtin call. The few calls that need the syntax of
their arguments (`isinstance(x, T)`, `annotate(T, v)`, `fork(fn, ...)`) are
`SpecialFormValue`s the emitter compiles itself.

Attributes of first-class values follow TorchScript: tensor properties are
prims (`x.dtype` is `prim::dtype`), tensor methods are operators with `self`
bound (`x.mm(w)` is `aten::mm(x, w)`), the dtype shorthands (`x.float()`)
are `aten::to(x, dtype)`, and methods of lists, dicts and strings are
`aten::` operators too (`xs.append(v)` is `aten::append`). Objects of
compiled classes (modules, TorchScript classes) are sugared by the compiler
that made their class (`Compiler.object_value`).
"""

from __future__ import annotations

import enum
from typing import Any

from ts_ir import (
    BoolType,
    ClassType,
    Device,
    DeviceType,
    DictType,
    EnumType,
    FloatType,
    FutureType,
    InterfaceType,
    IntType,
    ListType,
    OptionalType,
    ScalarType,
    SourceRange,
    StringType,
    TensorType,
    TupleType,
    Type,
    UnionType,
    Value,
    constant_value,
)
from ts_schema import registry

from .context import EmitContext
from .conversions import unpack_tuple
from .dtype_names import COMPLEX_CODES, FLOATING_CODES
from .errors import CallError, FrontendError, FrontendTypeError, NotSupportedError
from .kinds import CONSTANT, DTYPE

INT64_MAX = 2**63 - 1
NOT_CONSTANT: Any = object()


class NamedValue:
    """An evaluated argument: its sugared value, its source range, its keyword (or None)."""

    __slots__ = ("_value", "loc", "name", "sugared")

    def __init__(self, loc: SourceRange, sugared: SugaredValue, name: str | None = None) -> None:
        self.loc = loc
        self.sugared = sugared
        self.name = name
        self._value: Value | None = None

    def value(self, ctx: EmitContext) -> Value:
        """The argument as a first-class value (materialized once)."""
        v = self._value
        if v is None:
            v = self._value = self.sugared.as_value(ctx, self.loc)
        return v


def values_of(ctx: EmitContext, args: list[NamedValue]) -> list[Value]:
    out = []
    for a in args:
        sugared = a.sugared
        # most arguments are first-class already: skip the dispatch through as_value
        out.append(sugared.value if type(sugared) is SimpleValue else a.value(ctx))
    return out


def kwarg_values(ctx: EmitContext, kwargs: dict[str, NamedValue]) -> dict[str, Value]:
    if not kwargs:
        return {}
    return {k: a.value(ctx) for k, a in kwargs.items()}


def constant_of(sugared: SugaredValue) -> Any:
    """The compile-time value of a constant (a `ConstantValue` or a constant node), else
    `NOT_CONSTANT`."""
    if isinstance(sugared, ConstantValue):
        return sugared.value
    if isinstance(sugared, SimpleValue) and sugared.value.node.kind is CONSTANT:
        return constant_value(sugared.value)
    return NOT_CONSTANT


def python_constant(obj: Any) -> Any:
    """A Python value as a constant of compiled code (a parameter's default), or
    `NOT_CONSTANT`: numbers, strings, None, devices, dtypes (ints), and tuples and lists
    of them."""
    if obj is None or isinstance(obj, (Device, enum.Enum)):
        return obj  # an enum member is a constant of its enum's type
    if isinstance(obj, bool):
        return bool(obj)
    if isinstance(obj, int):
        return int(obj)  # a dtype is an int subclass
    if isinstance(obj, float):
        return float(obj)
    if isinstance(obj, str):
        return str(obj)
    if isinstance(obj, complex):
        return complex(obj)
    if isinstance(obj, (tuple, list)):
        items = [python_constant(x) for x in obj]
        if any(x is NOT_CONSTANT for x in items):
            return NOT_CONSTANT
        return tuple(items) if isinstance(obj, tuple) else items
    return NOT_CONSTANT


def constant_int(arg: NamedValue, what: str) -> int:
    value = constant_of(arg.sugared)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise FrontendTypeError(f"{what} must be an integer constant", arg.loc)


def constant_str(arg: NamedValue, what: str) -> str:
    value = constant_of(arg.sugared)
    if isinstance(value, str):
        return value
    raise FrontendTypeError(f"{what} must be a string literal", arg.loc)


def expect_args(
    name: str,
    loc: SourceRange,
    args: list[NamedValue],
    kwargs: dict[str, NamedValue],
    lo: int,
    hi: int,
) -> None:
    """Check a builtin of `lo` to `hi` positional arguments and no keywords."""
    if kwargs:
        raise CallError(f"{name}() takes no keyword arguments", loc)
    if not lo <= len(args) <= hi:
        expected = str(lo) if lo == hi else f"{lo} to {hi}"
        raise CallError(
            f"{name}() expects {expected} argument{'s' if hi != 1 else ''}, got {len(args)}", loc
        )


class SugaredValue:
    """Base class: a compile-time meaning for a name or an expression."""

    kind = "value"

    def describe(self) -> str:
        return self.kind

    def as_value(self, ctx: EmitContext, loc: SourceRange) -> Value:
        raise FrontendTypeError(f"{self.describe()} cannot be used as a value", loc)

    def attr(self, ctx: EmitContext, loc: SourceRange, name: str) -> SugaredValue:
        raise NotSupportedError(
            f"attribute lookup is not defined on {self.describe()}",
            loc,
            hint="only tensors, containers, strings, modules and a few Python modules "
            "(math, torch) have attributes in compiled code",
        )

    def set_attr(self, ctx: EmitContext, loc: SourceRange, name: str, value: Value) -> None:
        raise NotSupportedError(f"cannot set attribute '{name}' on {self.describe()}", loc)

    def call(
        self,
        ctx: EmitContext,
        loc: SourceRange,
        args: list[NamedValue],
        kwargs: dict[str, NamedValue],
    ) -> SugaredValue:
        raise NotSupportedError(f"{self.describe()} cannot be called", loc)

    def iterate(self, ctx: EmitContext, loc: SourceRange) -> Iteration:
        raise NotSupportedError(f"{self.describe()} is not iterable", loc)

    def getitem(self, ctx: EmitContext, loc: SourceRange, index: NamedValue) -> SugaredValue:
        raise NotSupportedError(f"{self.describe()} cannot be indexed", loc)

    def length(self, ctx: EmitContext, loc: SourceRange) -> Value:
        """`len(value)`, for values whose length is neither static nor `aten::len`'s."""
        items = self.static_items()
        if items is not None:
            return ctx.constant(len(items), loc)
        raise NotSupportedError(f"{self.describe()} has no len()", loc)

    def static_items(self) -> list[SugaredValue] | None:
        """The items of a value known element by element at compile time (for unpacking)."""
        return None


class SpecialFormValue(SugaredValue):
    """A callable the emitter compiles from the syntax of its call (`isinstance`, `annotate`).

    `form` names the entry of the emitter's table of special forms.
    """

    kind = "special form"

    def __init__(self, form: str, name: str | None = None) -> None:
        self.form = form
        self.name = name or form

    def describe(self) -> str:
        return f"builtin function '{self.name}'"


class SimpleValue(SugaredValue):
    """A first-class value of the graph."""

    kind = "value"

    def __init__(self, value: Value) -> None:
        self.value = value

    def describe(self) -> str:
        return f"a value of type '{self.value.type.annotation_str()}'"

    def as_value(self, ctx: EmitContext, loc: SourceRange) -> Value:
        return self.value

    def attr(self, ctx: EmitContext, loc: SourceRange, name: str) -> SugaredValue:
        v = self.value
        typ = v.type
        if isinstance(typ, TensorType):
            return _tensor_attribute(ctx, loc, v, name)
        if isinstance(typ, (ClassType, InterfaceType)):
            return ctx.compiler.object_value(v, loc).attr(ctx, loc, name)
        if isinstance(typ, TupleType) and typ.names is not None and name in typ.names:
            i = typ.names.index(name)
            index = ctx.constant(i, loc)
            node = ctx.insert(ctx.graph.create_tuple_index(v, index, typ.elements[i]), loc)
            return SimpleValue(node.output())
        if isinstance(typ, FutureType) and name == "wait":
            return BuiltinFunction("aten::wait", v, name="wait")
        if isinstance(typ, EnumType) and name in ("name", "value"):
            return SimpleValue(_enum_property(ctx, loc, v, typ, name))
        if isinstance(typ, DeviceType) and name in _DEVICE_PROPERTIES:
            return SimpleValue(ctx.call_builtin(_DEVICE_PROPERTIES[name], [v], {}, loc))
        if isinstance(typ, IntType) and name in _DTYPE_QUERIES:
            return _dtype_query(ctx, loc, v, name)
        if isinstance(typ, (OptionalType, UnionType)):
            raise FrontendTypeError(
                f"cannot look up attribute '{name}' on a value of type '{typ.annotation_str()}'",
                loc,
                hint="refine the value first: `if x is not None:` or `isinstance(x, T)`",
            )
        if isinstance(
            typ, (ListType, DictType, StringType, IntType, FloatType, BoolType, DeviceType)
        ):
            symbol = f"aten::{name}"
            if registry.has(symbol):
                return BuiltinFunction(symbol, v, name=name)
        raise NotSupportedError(
            f"'{typ.annotation_str()}' object has no attribute or method '{name}'", loc
        )

    def set_attr(self, ctx: EmitContext, loc: SourceRange, name: str, value: Value) -> None:
        typ = self.value.type
        if isinstance(typ, ClassType):
            ctx.compiler.object_value(self.value, loc).set_attr(ctx, loc, name, value)
            return
        if isinstance(typ, TensorType) and name in ("requires_grad", "data", "grad"):
            raise NotSupportedError(f"setting '{name}' of a tensor is not supported", loc)
        raise NotSupportedError(
            f"cannot set attribute '{name}' on a value of type '{typ.annotation_str()}'", loc
        )

    def iterate(self, ctx: EmitContext, loc: SourceRange) -> Iteration:
        v = self.value
        typ = v.type
        if isinstance(typ, TupleType):
            return StaticIteration([SimpleValue(x) for x in unpack_tuple(ctx, v, loc)])
        if isinstance(typ, (ListType, StringType, TensorType)):
            return SequenceIteration(v)
        if isinstance(typ, DictType):
            return SequenceIteration(ctx.call_builtin("aten::keys", [v], {}, loc))
        if isinstance(typ, ClassType):
            return ctx.compiler.object_value(v, loc).iterate(ctx, loc)
        raise NotSupportedError(f"a value of type '{typ.annotation_str()}' is not iterable", loc)

    def call(
        self,
        ctx: EmitContext,
        loc: SourceRange,
        args: list[NamedValue],
        kwargs: dict[str, NamedValue],
    ) -> SugaredValue:
        if isinstance(self.value.type, (ClassType, InterfaceType)):
            return ctx.compiler.object_value(self.value, loc).call(ctx, loc, args, kwargs)
        return super().call(ctx, loc, args, kwargs)


# tensor properties that are operators of one argument
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
    "H": "aten::matrix_H",
    "mH": "aten::mH",
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


# `x.device.type`, `x.device.index`
_DEVICE_PROPERTIES = {"type": "prim::type", "index": "prim::index"}

# a dtype is an int in compiled code: `x.dtype.is_floating_point` asks the tensor itself
_DTYPE_QUERIES = {
    "is_floating_point": ("aten::is_floating_point", FLOATING_CODES),
    "is_complex": ("aten::is_complex", COMPLEX_CODES),
}


def _dtype_query(ctx: EmitContext, loc: SourceRange, v: Value, name: str) -> SugaredValue:
    """`dtype.is_floating_point` of a tensor's dtype (`prim::dtype(x)`) or of a dtype constant."""
    symbol, codes = _DTYPE_QUERIES[name]
    node = v.node
    if node.kind is DTYPE:
        return SimpleValue(ctx.call_builtin(symbol, [node.inputs[0]], {}, loc))
    if node.kind is CONSTANT:
        return SimpleValue(ctx.constant(constant_value(v) in codes, loc))
    raise NotSupportedError(
        f"'{name}' of a dtype is known only for a tensor's dtype or a dtype constant",
        loc,
        hint=f"call `x.{name}()` on the tensor instead",
    )


def _enum_property(ctx: EmitContext, loc: SourceRange, v: Value, typ: EnumType, name: str) -> Value:
    """`color.name` (`prim::EnumName`), `color.value` (`prim::EnumValue` of the value type)."""
    if name == "name":
        return ctx.call_builtin("prim::EnumName", [v], {}, loc)
    overload = {IntType: "int", FloatType: "float", StringType: "str"}[type(typ.value_type)]
    op = registry.find(f"prim::EnumValue.{overload}")
    assert op is not None
    node = ctx.insert(ctx.graph.create(op.schema.name, [v], 1), loc)
    node.output().set_type(typ.value_type)
    return node.output()


def _tensor_attribute(ctx: EmitContext, loc: SourceRange, v: Value, name: str) -> SugaredValue:
    prop = _TENSOR_PROPERTIES.get(name)
    if prop is not None:
        return SimpleValue(ctx.call_builtin(prop, [v], {}, loc))
    cast = TENSOR_CASTS.get(name)
    if cast is not None:
        return TensorCastValue(v, cast, name)
    symbol = f"aten::{name}"
    if registry.has(symbol):
        return BuiltinFunction(symbol, v, name=name)
    raise NotSupportedError(f"'Tensor' object has no attribute or method '{name}'", loc)


class TensorCastValue(SugaredValue):
    """`x.float()`: converts to a dtype with `aten::to(x, dtype, False, False, None)`."""

    kind = "tensor cast"

    def __init__(self, value: Value, dtype: ScalarType, name: str) -> None:
        self.value = value
        self.dtype = dtype
        self.name = name

    def describe(self) -> str:
        return f"method '{self.name}' of a Tensor"

    def call(
        self,
        ctx: EmitContext,
        loc: SourceRange,
        args: list[NamedValue],
        kwargs: dict[str, NamedValue],
    ) -> SugaredValue:
        rest = {k: a for k, a in kwargs.items() if k != "memory_format"}
        if args or rest:
            raise FrontendTypeError(f"{self.name}() takes no arguments", loc)
        dtype = ctx.constant(int(self.dtype), loc)
        return SimpleValue(ctx.call_builtin("aten::to", [self.value, dtype], {}, loc))


class BuiltinFunction(SugaredValue):
    """An operator of the registry (`aten::tanh`), matched against its overloads when called.

    `self_value` is the receiver of a method call (`x.mm(w)` is `aten::mm` with
    `self=x`).
    """

    kind = "builtin function"

    def __init__(self, symbol: str, self_value: Value | None = None, *, name: str | None = None):
        self.symbol = symbol
        self.self_value = self_value
        self.name = name or symbol.partition("::")[2]

    def describe(self) -> str:
        if self.self_value is not None:
            return f"method '{self.name}' of a '{self.self_value.type.annotation_str()}'"
        return f"builtin function '{self.name}'"

    def call(
        self,
        ctx: EmitContext,
        loc: SourceRange,
        args: list[NamedValue],
        kwargs: dict[str, NamedValue],
    ) -> SugaredValue:
        values = values_of(ctx, args)
        if self.self_value is not None:
            at = _self_position(self.symbol)
            values = [*values[:at], self.self_value, *values[at:]]
        return SimpleValue(ctx.call_builtin(self.symbol, values, kwarg_values(ctx, kwargs), loc))


_SELF_POSITIONS: dict[str, int] = {}


def _self_position(symbol: str) -> int:
    """Where a method's receiver goes among an operator's positional arguments: at the one
    named `self` (`x.where(c, y)` is `where(c, x, y)`), as TorchScript matches methods;
    first where the overloads do not agree on one place."""
    at = _SELF_POSITIONS.get(symbol)
    if at is None:
        places = set()
        ops = registry.lookup(symbol) if registry.has(symbol) else []
        for op in ops:
            positional = [a.name for a in op.schema.arguments if not a.kwarg_only]
            if "self" in positional:
                places.add(positional.index("self"))
        at = _SELF_POSITIONS[symbol] = places.pop() if len(places) == 1 else 0
    return at


class ConstantValue(SugaredValue):
    """A Python constant (a module-level int, a dtype, `math.pi`) that becomes a graph constant."""

    kind = "constant"

    def __init__(self, value: Any, type: Type | None = None) -> None:
        self.value = value
        self.type = type

    def as_value(self, ctx: EmitContext, loc: SourceRange) -> Value:
        return ctx.constant(self.value, loc, self.type)

    def attr(self, ctx: EmitContext, loc: SourceRange, name: str) -> SugaredValue:
        return SimpleValue(self.as_value(ctx, loc)).attr(ctx, loc, name)

    def iterate(self, ctx: EmitContext, loc: SourceRange) -> Iteration:
        if isinstance(self.value, tuple):
            return StaticIteration([ConstantValue(v) for v in self.value])
        return SimpleValue(self.as_value(ctx, loc)).iterate(ctx, loc)

    def static_items(self) -> list[SugaredValue] | None:
        if isinstance(self.value, tuple):
            return [ConstantValue(v) for v in self.value]
        return None

    def call(
        self,
        ctx: EmitContext,
        loc: SourceRange,
        args: list[NamedValue],
        kwargs: dict[str, NamedValue],
    ) -> SugaredValue:
        raise NotSupportedError(f"the constant {self.value!r} cannot be called", loc)


class TupleOfSugared(SugaredValue):
    """A tuple of sugared values (zip items) unpacked by assignment without materializing."""

    kind = "tuple"

    def __init__(self, items: list[SugaredValue]) -> None:
        self.items = items

    def static_items(self) -> list[SugaredValue] | None:
        return self.items

    def as_value(self, ctx: EmitContext, loc: SourceRange) -> Value:
        values = [i.as_value(ctx, loc) for i in self.items]
        return ctx.insert(ctx.graph.create_tuple(values), loc).output()

    def iterate(self, ctx: EmitContext, loc: SourceRange) -> Iteration:
        return StaticIteration(self.items)


class StaticListValue(SugaredValue):
    """A list of sugared values (module containers); iterating unrolls."""

    kind = "list of modules"

    def __init__(self, items: list[SugaredValue], describe: str = "a module list") -> None:
        self.items = items
        self._describe = describe

    def describe(self) -> str:
        return self._describe

    def static_items(self) -> list[SugaredValue] | None:
        return self.items

    def iterate(self, ctx: EmitContext, loc: SourceRange) -> Iteration:
        return StaticIteration(self.items)

    def getitem(self, ctx: EmitContext, loc: SourceRange, index: NamedValue) -> SugaredValue:
        i = constant_int(index, "an index into a module list")
        try:
            return self.items[i]
        except IndexError:
            raise FrontendError(
                f"index {i} is out of range for {self.describe()} of {len(self.items)} items", loc
            ) from None


# -- iteration


class Iteration:
    """How a `for` loop walks a value."""


class StaticIteration(Iteration):
    """A loop the emitter unrolls: the items are known at compile time (tuples, module lists)."""

    def __init__(self, items: list[SugaredValue]) -> None:
        self.items = items


class LoopIteration(Iteration):
    """A loop over a first-class sequence: a trip count and an item per index."""

    def length(self, ctx: EmitContext, loc: SourceRange) -> Value:
        raise NotImplementedError

    def leaf_lengths(self, ctx: EmitContext, loc: SourceRange) -> list[Value]:
        return [self.length(ctx, loc)]

    def item(self, ctx: EmitContext, loc: SourceRange, index: Value) -> SugaredValue:
        raise NotImplementedError


class SequenceIteration(LoopIteration):
    """A list, string or tensor: `len(xs)` trips, item `xs[i]`."""

    def __init__(self, seq: Value) -> None:
        self.seq = seq

    def length(self, ctx: EmitContext, loc: SourceRange) -> Value:
        return ctx.call_builtin("aten::len", [self.seq], {}, loc)

    def item(self, ctx: EmitContext, loc: SourceRange, index: Value) -> SugaredValue:
        if isinstance(self.seq.type, TensorType):
            zero = ctx.constant(0, loc)
            return SimpleValue(ctx.call_builtin("aten::select", [self.seq, zero, index], {}, loc))
        return SimpleValue(ctx.call_builtin("aten::__getitem__", [self.seq, index], {}, loc))


class RangeIteration(LoopIteration):
    """`range(...)`: `range(n)` loops `n` times with the counter as the item."""

    def __init__(
        self,
        start: Value | None,
        end: Value,
        step: Value | None,
        *,
        only_end: bool,
        unbounded: bool = False,
    ) -> None:
        self.start = start
        self.end = end
        self.step = step
        self.only_end = only_end
        self.unbounded = unbounded  # enumerate's counter: `end` is the trip count

    def length(self, ctx: EmitContext, loc: SourceRange) -> Value:
        if self.only_end or self.unbounded:
            return self.end
        assert self.start is not None and self.step is not None
        return ctx.call_builtin("aten::__range_length", [self.start, self.end, self.step], {}, loc)

    def item(self, ctx: EmitContext, loc: SourceRange, index: Value) -> SugaredValue:
        if self.only_end:
            return SimpleValue(index)
        assert self.start is not None and self.step is not None
        return SimpleValue(
            ctx.call_builtin("aten::__derive_index", [index, self.start, self.step], {}, loc)
        )


class ZipIteration(LoopIteration):
    """`zip(...)` and `enumerate(...)`: the shortest of the children; items are tuples."""

    def __init__(self, children: list[LoopIteration]) -> None:
        self.children = children

    def leaf_lengths(self, ctx: EmitContext, loc: SourceRange) -> list[Value]:
        out = []
        for c in self.children:
            out.extend(c.leaf_lengths(ctx, loc))
        return out

    def length(self, ctx: EmitContext, loc: SourceRange) -> Value:
        lengths = self.leaf_lengths(ctx, loc)
        lst = ctx.insert(ctx.graph.create_list(IntType.get(), lengths), loc)
        return ctx.call_builtin("prim::min", [lst.output()], {}, loc)

    def item(self, ctx: EmitContext, loc: SourceRange, index: Value) -> SugaredValue:
        return TupleOfSugared([c.item(ctx, loc, index) for c in self.children])
