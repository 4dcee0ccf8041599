"""Python's builtin functions in compiled code: `len`, `range`, `min`, `int`, `print`, ...

Each is a sugared value whose call emits what TorchScript emits for it:
`len(xs)` is `aten::len`, `min(a, b)` is `prim::min`, `int(x)` is
`aten::Int`, `print(...)` is `prim::Print`; `range`, `zip` and `enumerate`
make iterables a `for` loop (or comprehension) walks.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable
from typing import TYPE_CHECKING

from ts_ir import (
    BoolType,
    ComplexType,
    FloatType,
    IntType,
    ListType,
    SourceRange,
    StringType,
    TensorType,
    TupleType,
    Value,
)

from .errors import CallError, FrontendTypeError, NotSupportedError
from .kinds import PRINT
from .sugared_value import (
    INT64_MAX,
    Iteration,
    LoopIteration,
    RangeIteration,
    SimpleValue,
    StaticIteration,
    SugaredValue,
    TupleOfSugared,
    ZipIteration,
)

if TYPE_CHECKING:
    from . import tree as t
    from .calls import CallEmitter as FunctionEmitter


class BuiltinCallable(SugaredValue):
    """A Python builtin function, emitted by a handler of this module."""

    kind = "builtin function"

    def __init__(self, name: str, handler: Callable[..., SugaredValue]) -> None:
        self.name = name
        self.handler = handler

    def describe(self) -> str:
        return f"builtin function '{self.name}'"

    def call(self, em: FunctionEmitter, call: t.Call) -> SugaredValue:
        return self.handler(em, call)


def _values(em: FunctionEmitter, call: t.Call, name: str, lo: int, hi: int) -> list[Value]:
    args, kwargs = em.emit_call_args(call)
    if kwargs:
        raise CallError(f"{name}() takes no keyword arguments", call.range)
    if not lo <= len(args) <= hi:
        expected = str(lo) if lo == hi else f"{lo} to {hi}"
        raise CallError(
            f"{name}() expects {expected} argument{'s' if hi != 1 else ''}, got {len(args)}",
            call.range,
        )
    return args


def _len(em: FunctionEmitter, call: t.Call) -> SugaredValue:
    if len(call.args) == 1 and not call.keywords:
        sugared = em.emit_sugared(call.args[0])
        items = sugared.static_items()
        if items is not None:
            return SimpleValue(em.constant(len(items), call.range))
        v = sugared.as_value(em, call.args[0].range)
        if isinstance(v.type, TupleType) and not _homogeneous(v.type):
            return SimpleValue(em.constant(len(v.type.elements), call.range))
        return SimpleValue(em.call_builtin("aten::len", [v], {}, call.range, call=call))
    _values(em, call, "len", 1, 1)
    raise AssertionError


def _homogeneous(t: TupleType) -> bool:
    return bool(t.elements) and all(e == t.elements[0] for e in t.elements)


class RangeValue(SugaredValue):
    """`range(...)`: iterable by `for`, and materializable as a list."""

    kind = "range"

    def __init__(self, iteration: RangeIteration) -> None:
        self.iteration = iteration

    def iterate(self, em: FunctionEmitter, loc: SourceRange) -> Iteration:
        return self.iteration

    def as_value(self, em: FunctionEmitter, loc: SourceRange) -> Value:
        return em.materialize_iteration(self.iteration, loc)


def _range(em: FunctionEmitter, call: t.Call) -> SugaredValue:
    args = _values(em, call, "range", 1, 3)
    for i, a in enumerate(args):
        if not isinstance(a.type, IntType):
            raise FrontendTypeError(
                f"all arguments of range() must be ints, found {a.type.annotation_str()} in "
                f"argument {i}",
                call.args[i].range,
                hint=em.unannotated_hint(call.args[i]),
            )
    if len(args) == 1:
        return RangeValue(RangeIteration(None, args[0], None, only_end=True))
    step = args[2] if len(args) == 3 else em.constant(1, call.range)
    return RangeValue(RangeIteration(args[0], args[1], step, only_end=False))


class IterableValue(SugaredValue):
    """`zip(...)` or `enumerate(...)`: a loop iteration, or static items when unrolled."""

    kind = "iterable"

    def __init__(self, iteration: Iteration, name: str) -> None:
        self.iteration = iteration
        self.name = name

    def describe(self) -> str:
        return f"the result of {self.name}()"

    def iterate(self, em: FunctionEmitter, loc: SourceRange) -> Iteration:
        return self.iteration

    def as_value(self, em: FunctionEmitter, loc: SourceRange) -> Value:
        return em.materialize_iteration(self.iteration, loc)


def _zip(em: FunctionEmitter, call: t.Call) -> SugaredValue:
    # `strict=` is accepted; iteration stops at the shortest input either way
    keywords = [kw for kw in call.keywords if kw.name != "strict"]
    if keywords or not call.args:
        raise CallError("zip() expects at least one positional argument", call.range)
    iterations = [em.emit_sugared(a).iterate(em, a.range) for a in call.args]
    return IterableValue(_combine(em, iterations, call.range), "zip")


def _combine(em: FunctionEmitter, iterations: list[Iteration], loc: SourceRange) -> Iteration:
    if all(isinstance(i, StaticIteration) for i in iterations):
        n = min(len(i.items) for i in iterations)  # type: ignore[attr-defined]
        return StaticIteration(
            [TupleOfSugared([i.items[k] for i in iterations]) for k in range(n)]  # type: ignore[attr-defined]
        )
    if any(isinstance(i, StaticIteration) for i in iterations):
        raise NotSupportedError(
            "zip() and enumerate() cannot mix tuples or module lists with other iterables", loc
        )
    return ZipIteration(iterations)  # type: ignore[arg-type]


def _enumerate(em: FunctionEmitter, call: t.Call) -> SugaredValue:
    if not 1 <= len(call.args) + len(call.keywords) <= 2:
        raise CallError("enumerate() expects an iterable and an optional start", call.range)
    inner = em.emit_sugared(call.args[0]).iterate(em, call.args[0].range)
    start_tree = call.args[1] if len(call.args) > 1 else None
    for kw in call.keywords:
        if kw.name != "start":
            raise CallError(f"enumerate() got an unexpected keyword argument '{kw.name}'", kw.range)
        start_tree = kw.value
    if isinstance(inner, StaticIteration):
        first = 0 if start_tree is None else em.constant_int(start_tree, "enumerate's start")
        items: list[SugaredValue] = [
            TupleOfSugared([SimpleValue(em.constant(first + k, call.range)), item])
            for k, item in enumerate(inner.items)
        ]
        return IterableValue(StaticIteration(items), "enumerate")
    if start_tree is None:
        counter = RangeIteration(None, em.constant(INT64_MAX, call.range), None, only_end=True)
    else:
        start = em.emit_expr(start_tree)
        counter = RangeIteration(
            start,
            em.constant(INT64_MAX, call.range),
            em.constant(1, call.range),
            only_end=False,
            unbounded=True,
        )
    assert isinstance(inner, LoopIteration)
    return IterableValue(ZipIteration([counter, inner]), "enumerate")


def _min_max(name: str) -> Callable[..., SugaredValue]:
    def handler(em: FunctionEmitter, call: t.Call) -> SugaredValue:
        args, kwargs = em.emit_call_args(call)
        if kwargs:
            raise CallError(f"{name}() takes no keyword arguments in compiled code", call.range)
        if not args:
            raise CallError(f"{name}() expects at least one argument", call.range)
        if len(args) > 2:
            # min(a, b, c) is min([a, b, c])
            element = args[0].type
            lst = em.insert(em.graph.create_list(element, args), call.range).output()
            args = [lst]
        if any(isinstance(a.type, TensorType) for a in args):
            return SimpleValue(em.call_builtin(f"aten::{name}", args, {}, call.range, call=call))
        return SimpleValue(em.call_builtin(f"prim::{name}", args, {}, call.range, call=call))

    return handler


def _abs(em: FunctionEmitter, call: t.Call) -> SugaredValue:
    (x,) = _values(em, call, "abs", 1, 1)
    symbol = "aten::abs" if isinstance(x.type, TensorType) else "prim::abs"
    return SimpleValue(em.call_builtin(symbol, [x], {}, call.range, call=call))


def _cast(name: str, symbol: str, target: type) -> Callable[..., SugaredValue]:
    result = {int: IntType, float: FloatType, bool: BoolType, complex: ComplexType}.get(target)

    def handler(em: FunctionEmitter, call: t.Call) -> SugaredValue:
        if not call.args and not call.keywords:
            return SimpleValue(em.constant(target(), call.range))
        args = _values(em, call, name, 1, 2)
        x = args[0]
        if len(args) == 1 and result is not None and isinstance(x.type, result):
            return SimpleValue(x)
        if target is bool and not isinstance(x.type, (TensorType, IntType, FloatType, BoolType)):
            return SimpleValue(em.to_bool(x, call.range))
        return SimpleValue(em.call_builtin(symbol, args, {}, call.range, call=call))

    return handler


def _str(em: FunctionEmitter, call: t.Call) -> SugaredValue:
    (x,) = _values(em, call, "str", 1, 1)
    if isinstance(x.type, StringType):
        return SimpleValue(x)
    return SimpleValue(em.call_builtin("aten::str", [x], {}, call.range, call=call))


def _simple(name: str, symbol: str, lo: int = 1, hi: int = 1) -> Callable[..., SugaredValue]:
    def handler(em: FunctionEmitter, call: t.Call) -> SugaredValue:
        args, kwargs = em.emit_call_args(call)
        if not lo <= len(args) + len(kwargs) <= hi:
            raise CallError(f"{name}() expects {lo} to {hi} arguments", call.range)
        return SimpleValue(em.call_builtin(symbol, args, kwargs, call.range, call=call))

    return handler


def _sorted(em: FunctionEmitter, call: t.Call) -> SugaredValue:
    args, kwargs = em.emit_call_args(call)
    if len(args) != 1:
        raise CallError("sorted() expects one positional argument", call.range)
    lst = em.to_list(args[0], call.args[0].range)
    if not kwargs:
        return SimpleValue(em.call_builtin("aten::sorted", [lst], {}, call.range, call=call))
    copy = em.call_builtin("aten::list", [lst], {}, call.range)
    em.call_builtin("aten::sort", [copy], kwargs, call.range, call=call)
    return SimpleValue(copy)


def _sum(em: FunctionEmitter, call: t.Call) -> SugaredValue:
    args = _values(em, call, "sum", 1, 2)
    lst = em.to_list(args[0], call.args[0].range)
    total = em.call_builtin("aten::sum", [lst], {}, call.range, call=call)
    if len(args) == 2:
        total = em.binary_op("+", args[1], total, call.range)
    return SimpleValue(total)


def _print(em: FunctionEmitter, call: t.Call) -> SugaredValue:
    args, kwargs = em.emit_call_args(call)
    if kwargs:
        raise NotSupportedError("print() keyword arguments are not supported", call.range)
    node = em.insert(em.graph.create(PRINT, args, 0), call.range)
    del node
    return SimpleValue(em.constant(None, call.range))


def _list(em: FunctionEmitter, call: t.Call) -> SugaredValue:
    if not call.args:
        return SimpleValue(em.empty_list(call.range, None))
    sugared = em.emit_sugared(call.args[0])
    if isinstance(sugared, (RangeValue, IterableValue)):
        return SimpleValue(sugared.as_value(em, call.range))
    v = sugared.as_value(em, call.args[0].range)
    if isinstance(v.type, TupleType):
        return SimpleValue(em.to_list(v, call.range))
    if isinstance(v.type, TensorType):
        return SimpleValue(em.call_builtin("aten::unbind", [v], {}, call.range))
    if isinstance(v.type, (ListType, StringType)):
        return SimpleValue(em.call_builtin("aten::list", [v], {}, call.range, call=call))
    return SimpleValue(em.materialize_iteration(sugared.iterate(em, call.range), call.range))


def _tuple(em: FunctionEmitter, call: t.Call) -> SugaredValue:
    if not call.args:
        return SimpleValue(em.insert(em.graph.create_tuple([]), call.range).output())
    sugared = em.emit_sugared(call.args[0])
    items = sugared.static_items()
    if items is not None:
        values = [i.as_value(em, call.range) for i in items]
        return SimpleValue(em.insert(em.graph.create_tuple(values), call.range).output())
    v = sugared.as_value(em, call.range)
    if isinstance(v.type, TupleType):
        return SimpleValue(v)
    raise NotSupportedError(
        "tuple() of a value whose length is not known at compile time is not supported",
        call.range,
    )


def _dict(em: FunctionEmitter, call: t.Call) -> SugaredValue:
    args, kwargs = em.emit_call_args(call)
    if not args and not kwargs:
        return SimpleValue(em.empty_dict(call.range, None))
    return SimpleValue(em.call_builtin("aten::dict", args, kwargs, call.range, call=call))


def _isinstance(em: FunctionEmitter, call: t.Call) -> SugaredValue:
    cond = em.emit_isinstance(call)
    return SimpleValue(em.cond_as_value(cond, call.range))


def _hasattr(em: FunctionEmitter, call: t.Call) -> SugaredValue:
    cond = em.emit_hasattr(call)
    return SimpleValue(em.cond_as_value(cond, call.range))


def _getattr(em: FunctionEmitter, call: t.Call) -> SugaredValue:
    if len(call.args) != 2 or call.keywords:
        raise CallError("getattr() expects an object and a constant attribute name", call.range)
    obj = em.emit_sugared(call.args[0])
    name = em.constant_str(call.args[1], "the attribute name of getattr()")
    return obj.attr(em, call.range, name)


def _divmod(em: FunctionEmitter, call: t.Call) -> SugaredValue:
    args = _values(em, call, "divmod", 2, 2)
    return SimpleValue(em.call_builtin("aten::divmod", args, {}, call.range, call=call))


def _round(em: FunctionEmitter, call: t.Call) -> SugaredValue:
    args = _values(em, call, "round", 1, 2)
    return SimpleValue(em.call_builtin("aten::round", args, {}, call.range, call=call))


def _any_all(name: str) -> Callable[..., SugaredValue]:
    def handler(em: FunctionEmitter, call: t.Call) -> SugaredValue:
        (x,) = _values(em, call, name, 1, 1)
        lst = em.to_list(x, call.range) if isinstance(x.type, TupleType) else x
        return SimpleValue(em.call_builtin(f"aten::{name}", [lst], {}, call.range, call=call))

    return handler


def _none_type(em: FunctionEmitter, call: t.Call) -> SugaredValue:
    raise NotSupportedError("type() is not supported in compiled code", call.range)


_HANDLERS: dict[str, Callable[..., SugaredValue]] = {
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
    "list": _list,
    "tuple": _tuple,
    "dict": _dict,
    "isinstance": _isinstance,
    "hasattr": _hasattr,
    "getattr": _getattr,
    "divmod": _divmod,
    "round": _round,
    "pow": _simple("pow", "aten::pow", 2, 2),
    "ord": _simple("ord", "aten::ord"),
    "chr": _simple("chr", "aten::chr"),
    "hex": _simple("hex", "aten::hex"),
    "oct": _simple("oct", "aten::oct"),
    "bin": _simple("bin", "aten::bin"),
    "hash": _simple("hash", "aten::hash"),
    "any": _any_all("any"),
    "all": _any_all("all"),
    "type": _none_type,
}

#: Python's builtin objects (by identity) to the name of their handler.
BUILTIN_OBJECTS: dict[int, str] = {
    id(getattr(builtins, name)): name for name in _HANDLERS if hasattr(builtins, name)
}


def builtin_value(name: str) -> SugaredValue | None:
    handler = _HANDLERS.get(name)
    return None if handler is None else BuiltinCallable(name, handler)


def builtin_for_object(obj: object) -> SugaredValue | None:
    """The sugared value of a Python builtin function object (`len`), if it has one."""
    name = BUILTIN_OBJECTS.get(id(obj))
    if name is None or getattr(builtins, name) is not obj:
        return None
    return builtin_value(name)
