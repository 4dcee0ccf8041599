"""Python's builtin functions in compiled code: `len`, `range`, `min`, `int`, `print`, ...

Each is a sugared value whose call emits what TorchScript emits for it:
`len(xs)` is `aten::len`, `min(a, b)` is `prim::min`, `int(x)` is
`aten::Int`, `print(...)` is `prim::Print`; `range`, `zip` and `enumerate`
make iterables a `for` loop (or comprehension) walks. `isinstance` and
`list` are special forms of the emitter: the first reads a type from its
second argument, the second may need a loop to collect an iterable.
"""

from __future__ import annotations

import builtins
import collections
from collections.abc import Callable

from ts_ir import (
    BoolType,
    ClassType,
    ComplexType,
    DictType,
    FloatType,
    IntType,
    SourceRange,
    StringType,
    TensorType,
    TupleType,
    Value,
    unify_type_list,
)

from .context import EmitContext
from .conversions import to_bool, to_list
from .errors import CallError, FrontendError, FrontendTypeError, NotSupportedError
from .kinds import LIST_CONSTRUCT, PRINT
from .sugared_value import (
    INT64_MAX,
    ConstantValue,
    Iteration,
    LoopIteration,
    NamedValue,
    RangeIteration,
    SimpleValue,
    SpecialFormValue,
    StaticIteration,
    SugaredValue,
    TupleOfSugared,
    ZipIteration,
    constant_int,
    constant_str,
    expect_args,
    kwarg_values,
    values_of,
)

Args = list[NamedValue]
Kwargs = dict[str, NamedValue]
Handler = Callable[[EmitContext, SourceRange, Args, Kwargs], SugaredValue]


class BuiltinCallable(SugaredValue):
    """A Python builtin function, emitted by a handler of this module."""

    kind = "builtin function"

    def __init__(self, name: str, handler: Handler) -> None:
        self.name = name
        self.handler = handler

    def describe(self) -> str:
        return f"builtin function '{self.name}'"

    def call(self, ctx: EmitContext, loc: SourceRange, args: Args, kwargs: Kwargs) -> SugaredValue:
        return self.handler(ctx, loc, args, kwargs)


def _values(
    ctx: EmitContext, loc: SourceRange, args: Args, kwargs: Kwargs, name: str, lo: int, hi: int
) -> list[Value]:
    expect_args(name, loc, args, kwargs, lo, hi)
    return values_of(ctx, args)


def _len(ctx: EmitContext, loc: SourceRange, args: Args, kwargs: Kwargs) -> SugaredValue:
    expect_args("len", loc, args, kwargs, 1, 1)
    sugared = args[0].sugared
    items = sugared.static_items()
    if items is not None:
        return SimpleValue(ctx.constant(len(items), loc))
    v = args[0].value(ctx)
    if isinstance(v.type, ClassType):  # an object's `__len__`
        return SimpleValue(ctx.compiler.object_value(v, loc).length(ctx, loc))
    if isinstance(v.type, TupleType) and not _homogeneous(v.type):
        return SimpleValue(ctx.constant(len(v.type.elements), loc))
    return SimpleValue(ctx.call_builtin("aten::len", [v], {}, loc))


def _homogeneous(t: TupleType) -> bool:
    return bool(t.elements) and all(e == t.elements[0] for e in t.elements)


class RangeValue(SugaredValue):
    """`range(...)`: iterable by `for`; `list(range(...))` collects it."""

    kind = "range"

    def __init__(self, iteration: RangeIteration) -> None:
        self.iteration = iteration

    def iterate(self, ctx: EmitContext, loc: SourceRange) -> Iteration:
        return self.iteration


def _range(ctx: EmitContext, loc: SourceRange, args: Args, kwargs: Kwargs) -> SugaredValue:
    values = _values(ctx, loc, args, kwargs, "range", 1, 3)
    for i, v in enumerate(values):
        if not isinstance(v.type, IntType):
            raise FrontendTypeError(
                f"all arguments of range() must be ints, found {v.type.annotation_str()} in "
                f"argument {i}",
                args[i].loc,
                hint=ctx.unannotated_hint(v),
            )
    if len(values) == 1:
        return RangeValue(RangeIteration(None, values[0], None, only_end=True))
    step = values[2] if len(values) == 3 else ctx.constant(1, loc)
    return RangeValue(RangeIteration(values[0], values[1], step, only_end=False))


class IterableValue(SugaredValue):
    """`zip(...)` or `enumerate(...)`: a loop iteration, or static items when unrolled."""

    kind = "iterable"

    def __init__(self, iteration: Iteration, name: str) -> None:
        self.iteration = iteration
        self.name = name

    def describe(self) -> str:
        return f"the result of {self.name}()"

    def iterate(self, ctx: EmitContext, loc: SourceRange) -> Iteration:
        return self.iteration


def _zip(ctx: EmitContext, loc: SourceRange, args: Args, kwargs: Kwargs) -> SugaredValue:
    # `strict=` is accepted; iteration stops at the shortest input either way
    if any(k != "strict" for k in kwargs) or not args:
        raise CallError("zip() expects at least one positional argument", loc)
    iterations = [a.sugared.iterate(ctx, a.loc) for a in args]
    return IterableValue(_combine(iterations, loc), "zip")


def _combine(iterations: list[Iteration], loc: SourceRange) -> Iteration:
    statics = [i for i in iterations if isinstance(i, StaticIteration)]
    if len(statics) == len(iterations):
        n = min(len(i.items) for i in statics)
        return StaticIteration([TupleOfSugared([i.items[k] for i in statics]) for k in range(n)])
    if statics:
        raise NotSupportedError(
            "zip() and enumerate() cannot mix tuples or module lists with other iterables", loc
        )
    return ZipIteration([i for i in iterations if isinstance(i, LoopIteration)])


def _enumerate(ctx: EmitContext, loc: SourceRange, args: Args, kwargs: Kwargs) -> SugaredValue:
    if not args or not 1 <= len(args) + len(kwargs) <= 2:
        raise CallError("enumerate() expects an iterable and an optional start", loc)
    inner = args[0].sugared.iterate(ctx, args[0].loc)
    start = args[1] if len(args) > 1 else None
    for name, kw in kwargs.items():
        if name != "start":
            raise CallError(f"enumerate() got an unexpected keyword argument '{name}'", kw.loc)
        start = kw
    if isinstance(inner, StaticIteration):
        first = 0 if start is None else constant_int(start, "enumerate's start")
        items: list[SugaredValue] = [
            TupleOfSugared([SimpleValue(ctx.constant(first + k, loc)), item])
            for k, item in enumerate(inner.items)
        ]
        return IterableValue(StaticIteration(items), "enumerate")
    end = ctx.constant(INT64_MAX, loc)
    if start is None:
        counter = RangeIteration(None, end, None, only_end=True)
    else:
        counter = RangeIteration(
            start.value(ctx), end, ctx.constant(1, loc), only_end=False, unbounded=True
        )
    assert isinstance(inner, LoopIteration)
    return IterableValue(ZipIteration([counter, inner]), "enumerate")


def _min_max(name: str) -> Handler:
    def handler(ctx: EmitContext, loc: SourceRange, args: Args, kwargs: Kwargs) -> SugaredValue:
        if kwargs:
            raise CallError(f"{name}() takes no keyword arguments in compiled code", loc)
        if not args:
            raise CallError(f"{name}() expects at least one argument", loc)
        values = values_of(ctx, args)
        if len(values) > 2:
            # min(a, b, c) is min([a, b, c])
            values = [ctx.insert(ctx.graph.create_list(values[0].type, values), loc).output()]
        if any(isinstance(v.type, TensorType) for v in values):
            return SimpleValue(ctx.call_builtin(f"aten::{name}", values, {}, loc))
        return SimpleValue(ctx.call_builtin(f"prim::{name}", values, {}, loc))

    return handler


def _abs(ctx: EmitContext, loc: SourceRange, args: Args, kwargs: Kwargs) -> SugaredValue:
    (x,) = _values(ctx, loc, args, kwargs, "abs", 1, 1)
    symbol = "aten::abs" if isinstance(x.type, TensorType) else "prim::abs"
    return SimpleValue(ctx.call_builtin(symbol, [x], {}, loc))


def _cast(name: str, symbol: str, target: type) -> Handler:
    result = {int: IntType, float: FloatType, bool: BoolType, complex: ComplexType}.get(target)

    def handler(ctx: EmitContext, loc: SourceRange, args: Args, kwargs: Kwargs) -> SugaredValue:
        if not args and not kwargs:
            return SimpleValue(ctx.constant(target(), loc))
        values = _values(ctx, loc, args, kwargs, name, 1, 2)
        x = values[0]
        if len(values) == 1 and result is not None and isinstance(x.type, result):
            return SimpleValue(x)
        if target is bool and not isinstance(x.type, (TensorType, IntType, FloatType, BoolType)):
            return SimpleValue(to_bool(ctx, x, loc))
        return SimpleValue(ctx.call_builtin(symbol, values, {}, loc))

    return handler


def _str(ctx: EmitContext, loc: SourceRange, args: Args, kwargs: Kwargs) -> SugaredValue:
    (x,) = _values(ctx, loc, args, kwargs, "str", 1, 1)
    if isinstance(x.type, StringType):
        return SimpleValue(x)
    return SimpleValue(ctx.call_builtin("aten::str", [x], {}, loc))


def _simple(name: str, symbol: str, lo: int = 1, hi: int = 1) -> Handler:
    def handler(ctx: EmitContext, loc: SourceRange, args: Args, kwargs: Kwargs) -> SugaredValue:
        if not lo <= len(args) + len(kwargs) <= hi:
            raise CallError(f"{name}() expects {lo} to {hi} arguments", loc)
        values, kw = values_of(ctx, args), kwarg_values(ctx, kwargs)
        return SimpleValue(ctx.call_builtin(symbol, values, kw, loc))

    return handler


def _sorted(ctx: EmitContext, loc: SourceRange, args: Args, kwargs: Kwargs) -> SugaredValue:
    if len(args) != 1:
        raise CallError("sorted() expects one positional argument", loc)
    lst = to_list(ctx, args[0].value(ctx), args[0].loc)
    kw = kwarg_values(ctx, kwargs)
    if not kw:
        return SimpleValue(ctx.call_builtin("aten::sorted", [lst], {}, loc))
    copy = ctx.call_builtin("aten::list", [lst], {}, loc)
    ctx.call_builtin("aten::sort", [copy], kw, loc)
    return SimpleValue(copy)


def _sum(ctx: EmitContext, loc: SourceRange, args: Args, kwargs: Kwargs) -> SugaredValue:
    values = _values(ctx, loc, args, kwargs, "sum", 1, 2)
    lst = to_list(ctx, values[0], args[0].loc)
    total = ctx.call_builtin("aten::sum", [lst], {}, loc)
    if len(values) == 2:
        total = ctx.call_builtin("aten::add", [values[1], total], {}, loc)
    return SimpleValue(total)


def _print(ctx: EmitContext, loc: SourceRange, args: Args, kwargs: Kwargs) -> SugaredValue:
    if kwargs:
        raise NotSupportedError("print() keyword arguments are not supported", loc)
    ctx.insert(ctx.graph.create(PRINT, values_of(ctx, args), 0), loc)
    return SimpleValue(ctx.constant(None, loc))


def _tuple(ctx: EmitContext, loc: SourceRange, args: Args, kwargs: Kwargs) -> SugaredValue:
    expect_args("tuple", loc, args, kwargs, 0, 1)
    if not args:
        return SimpleValue(ctx.insert(ctx.graph.create_tuple([]), loc).output())
    items = args[0].sugared.static_items()
    if items is not None:
        values = [i.as_value(ctx, loc) for i in items]
        return SimpleValue(ctx.insert(ctx.graph.create_tuple(values), loc).output())
    v = args[0].value(ctx)
    if isinstance(v.type, TupleType):
        return SimpleValue(v)
    raise NotSupportedError(
        "tuple() of a value whose length is not known at compile time is not supported", loc
    )


def _dict(ctx: EmitContext, loc: SourceRange, args: Args, kwargs: Kwargs) -> SugaredValue:
    """`dict()`, `dict(pairs)`, `dict(mapping)`, `dict(k=v, ...)`, `dict(mapping, k=v, ...)`."""
    if len(args) > 1:
        raise CallError("dict() expects at most one positional argument", loc)
    if not args and not kwargs:
        return SimpleValue(empty_dict(ctx, loc, None))
    kw = kwarg_values(ctx, kwargs)
    if not args:
        value_type = unify_type_list(v.type for v in kw.values())
        if value_type is None:
            raise FrontendTypeError("the values of dict(k=v, ...) must have one type", loc)
        keys = [ctx.constant(k, kwargs[k].loc) for k in kw]
        node = ctx.graph.create_dict(StringType.get(), value_type, keys, list(kw.values()))
        return SimpleValue(ctx.insert(node, loc).output())
    (pairs,) = values_of(ctx, args)
    made = pairs.node
    if made.kind == LIST_CONSTRUCT and not made.inputs and not kw:
        # `dict([])`: an empty literal has no pairs to type the dict by, so it is
        # TorchScript's default empty dict
        return SimpleValue(empty_dict(ctx, loc, None))
    out = ctx.call_builtin("aten::dict", [pairs], {}, loc)
    for k, v in kw.items():  # `dict(mapping, k=v)`: a copy, then each keyword set
        ctx.call_builtin("aten::_set_item", [out, ctx.constant(k, kwargs[k].loc), v], {}, loc)
    return SimpleValue(out)


def empty_dict(ctx: EmitContext, loc: SourceRange, typ: DictType | None) -> Value:
    """`{}`: of `typ`, or of `Dict[str, Tensor]` as TorchScript types an empty dict."""
    key, value = (typ.key, typ.value) if typ else (StringType.get(), TensorType.get())
    return ctx.insert(ctx.graph.create_dict(key, value, [], []), loc).output()


def _hasattr(ctx: EmitContext, loc: SourceRange, args: Args, kwargs: Kwargs) -> SugaredValue:
    if len(args) != 2 or kwargs:
        raise CallError("hasattr() expects an object and a constant attribute name", loc)
    name = constant_str(args[1], "the attribute name of hasattr()")
    try:
        args[0].sugared.attr(ctx, loc, name)
    except FrontendError:
        return ConstantValue(False)
    return ConstantValue(True)


def _getattr(ctx: EmitContext, loc: SourceRange, args: Args, kwargs: Kwargs) -> SugaredValue:
    if len(args) != 2 or kwargs:
        raise CallError("getattr() expects an object and a constant attribute name", loc)
    name = constant_str(args[1], "the attribute name of getattr()")
    return args[0].sugared.attr(ctx, loc, name)


def _any_all(name: str) -> Handler:
    def handler(ctx: EmitContext, loc: SourceRange, args: Args, kwargs: Kwargs) -> SugaredValue:
        (x,) = _values(ctx, loc, args, kwargs, name, 1, 1)
        lst = to_list(ctx, x, loc)
        return SimpleValue(ctx.call_builtin(f"aten::{name}", [lst], {}, loc))

    return handler


def _type(ctx: EmitContext, loc: SourceRange, args: Args, kwargs: Kwargs) -> SugaredValue:
    raise NotSupportedError("type() is not supported in compiled code", loc)


_HANDLERS: dict[str, Handler] = {
    "len": _len,
    "range": _range,
    "zip": _zip,
    "enumerate": _enumerate,
    "min": _min_max("min"),
    "max": _min_max("max"),
    "abs": _abs,
    "int": _cast("int", "aten::Int", int),
    "float": _cast("float", "aten::Float", float),
    "bool": _cast("bool", "aten::Bool", bool),
    "complex": _cast("complex", "aten::Complex", complex),
    "str": _str,
    "sorted": _sorted,
    "sum": _sum,
    "print": _print,
    "tuple": _tuple,
    "dict": _dict,
    "hasattr": _hasattr,
    "getattr": _getattr,
    "divmod": _simple("divmod", "aten::divmod", 2, 2),
    "round": _simple("round", "aten::round", 1, 2),
    "pow": _simple("pow", "aten::pow", 2, 2),
    "ord": _simple("ord", "aten::ord"),
    "chr": _simple("chr", "aten::chr"),
    "hex": _simple("hex", "aten::hex"),
    "oct": _simple("oct", "aten::oct"),
    "bin": _simple("bin", "aten::bin"),
    "hash": _simple("hash", "aten::hash"),
    "any": _any_all("any"),
    "all": _any_all("all"),
    "type": _type,
}

#: builtins the emitter compiles from the syntax of the call (see `special_forms`)
_SPECIAL_FORMS = ("isinstance", "list")

#: Python's builtin objects (by identity) to their names
BUILTIN_OBJECTS: dict[int, str] = {
    id(getattr(builtins, name)): name
    for name in (*_HANDLERS, *_SPECIAL_FORMS)
    if hasattr(builtins, name)
}


def builtin_value(name: str) -> SugaredValue | None:
    if name in _SPECIAL_FORMS:
        return SpecialFormValue(name)
    handler = _HANDLERS.get(name)
    return None if handler is None else BuiltinCallable(name, handler)


def builtin_for_object(obj: object) -> SugaredValue | None:
    """The sugared value of a Python builtin function object (`len`), if it has one;
    `collections.OrderedDict` is compiled as `dict`, as TorchScript does (dicts keep their
    insertion order)."""
    if obj is collections.OrderedDict:
        return BuiltinCallable("OrderedDict", _dict)
    name = BUILTIN_OBJECTS.get(id(obj))
    if name is None or getattr(builtins, name) is not obj:
        return None
    return builtin_value(name)
