"""Sugared values: what a name or expression means before it is a graph value.

A `SimpleValue` wraps a first-class IR `Value`. Everything else is sugar the
emitter resolves at compile time: a builtin operator (`BuiltinFunction`,
matched against the registry's overloads), a Python module (`math`, the
`torch` namespace), a script function to call, a module attribute, a class
constructor, a `range`. Each answers the questions the emitter asks of it:
`attr(name)`, `call(args)`, `iterate()`, `as_value()`, each raising a
`FrontendError` that names the construct when the answer is "no".

The `em` argument everywhere is the `FunctionEmitter` compiling the current
function: sugared values emit nodes through it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ts_ir import (
    ClassType,
    DictType,
    IntType,
    ListType,
    SourceRange,
    StringType,
    TensorType,
    TupleType,
    Type,
    Value,
)

from .errors import FrontendError, FrontendTypeError, NotSupportedError

if TYPE_CHECKING:
    from . import tree as t
    from .calls import CallEmitter as FunctionEmitter

INT64_MAX = 2**63 - 1


class SugaredValue:
    """Base class: a compile-time meaning for a name or an expression."""

    kind = "value"

    def describe(self) -> str:
        return self.kind

    def as_value(self, em: FunctionEmitter, loc: SourceRange) -> Value:
        raise FrontendTypeError(f"{self.describe()} cannot be used as a value", loc)

    def attr(self, em: FunctionEmitter, loc: SourceRange, name: str) -> SugaredValue:
        raise NotSupportedError(
            f"attribute lookup is not defined on {self.describe()}",
            loc,
            hint="only tensors, containers, strings, modules and a few Python modules "
            "(math, torch) have attributes in compiled code",
        )

    def set_attr(self, em: FunctionEmitter, loc: SourceRange, name: str, value: Value) -> None:
        raise NotSupportedError(f"cannot set attribute '{name}' on {self.describe()}", loc)

    def call(self, em: FunctionEmitter, call: t.Call) -> SugaredValue:
        raise NotSupportedError(f"{self.describe()} cannot be called", call.range)

    def iterate(self, em: FunctionEmitter, loc: SourceRange) -> Iteration:
        raise NotSupportedError(f"{self.describe()} is not iterable", loc)

    def getitem(self, em: FunctionEmitter, loc: SourceRange, index: t.Expr) -> SugaredValue:
        raise NotSupportedError(f"{self.describe()} cannot be indexed", loc)

    def static_items(self) -> list[SugaredValue] | None:
        """The items of a value known element by element at compile time (for unpacking)."""
        return None


class SimpleValue(SugaredValue):
    """A first-class value of the graph."""

    kind = "value"

    def __init__(self, value: Value) -> None:
        self.value = value

    def describe(self) -> str:
        return f"a value of type '{self.value.type.annotation_str()}'"

    def as_value(self, em: FunctionEmitter, loc: SourceRange) -> Value:
        return self.value

    def attr(self, em: FunctionEmitter, loc: SourceRange, name: str) -> SugaredValue:
        from .attributes import value_attribute

        return value_attribute(em, loc, self.value, name)

    def set_attr(self, em: FunctionEmitter, loc: SourceRange, name: str, value: Value) -> None:
        from .attributes import set_value_attribute

        set_value_attribute(em, loc, self.value, name, value)

    def iterate(self, em: FunctionEmitter, loc: SourceRange) -> Iteration:
        v = self.value
        t = v.type
        if isinstance(t, TupleType):
            items = em.unpack_tuple(v, loc)
            return StaticIteration([SimpleValue(x) for x in items])
        if isinstance(t, (ListType, StringType)) or isinstance(t, TensorType):
            return SequenceIteration(v)
        if isinstance(t, DictType):
            keys = em.call_builtin("aten::keys", [v], {}, loc)
            return SequenceIteration(keys)
        raise NotSupportedError(f"a value of type '{t.annotation_str()}' is not iterable", loc)

    def static_items(self) -> list[SugaredValue] | None:
        return None

    def call(self, em: FunctionEmitter, call: t.Call) -> SugaredValue:
        t = self.value.type
        if isinstance(t, ClassType) and "forward" in t.methods:
            from .module_value import call_module_method

            return call_module_method(em, call, self.value, "forward")
        return super().call(em, call)


class NoneValue(SimpleValue):
    """`None` as written in the program (a constant)."""


class Iteration:
    """How a `for` loop walks a value."""


class StaticIteration(Iteration):
    """A loop the emitter unrolls: the items are known at compile time (tuples, module lists)."""

    def __init__(self, items: list[SugaredValue]) -> None:
        self.items = items


class LoopIteration(Iteration):
    """A loop over a first-class sequence: a trip count and an item per index."""

    def length(self, em: FunctionEmitter, loc: SourceRange) -> Value:
        raise NotImplementedError

    def leaf_lengths(self, em: FunctionEmitter, loc: SourceRange) -> list[Value]:
        return [self.length(em, loc)]

    def item(self, em: FunctionEmitter, loc: SourceRange, index: Value) -> SugaredValue:
        raise NotImplementedError


class SequenceIteration(LoopIteration):
    """A list, string or tensor: `len(xs)` trips, item `xs[i]`."""

    def __init__(self, seq: Value) -> None:
        self.seq = seq

    def length(self, em: FunctionEmitter, loc: SourceRange) -> Value:
        return em.call_builtin("aten::len", [self.seq], {}, loc)

    def item(self, em: FunctionEmitter, loc: SourceRange, index: Value) -> SugaredValue:
        if isinstance(self.seq.type, TensorType):
            zero = em.constant(0, loc)
            return SimpleValue(em.call_builtin("aten::select", [self.seq, zero, index], {}, loc))
        return SimpleValue(em.call_builtin("aten::__getitem__", [self.seq, index], {}, loc))


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

    def length(self, em: FunctionEmitter, loc: SourceRange) -> Value:
        if self.only_end or self.unbounded:
            return self.end
        assert self.start is not None and self.step is not None
        return em.call_builtin("aten::__range_length", [self.start, self.end, self.step], {}, loc)

    def item(self, em: FunctionEmitter, loc: SourceRange, index: Value) -> SugaredValue:
        if self.only_end:
            return SimpleValue(index)
        assert self.start is not None and self.step is not None
        return SimpleValue(
            em.call_builtin("aten::__derive_index", [index, self.start, self.step], {}, loc)
        )


class ZipIteration(LoopIteration):
    """`zip(...)` and `enumerate(...)`: the shortest of the children; items are tuples."""

    def __init__(self, children: list[LoopIteration]) -> None:
        self.children = children

    def leaf_lengths(self, em: FunctionEmitter, loc: SourceRange) -> list[Value]:
        out = []
        for c in self.children:
            out.extend(c.leaf_lengths(em, loc))
        return out

    def length(self, em: FunctionEmitter, loc: SourceRange) -> Value:
        lengths = self.leaf_lengths(em, loc)
        g = em.graph
        lst = em.insert(g.create_list(IntType.get(), lengths), loc)
        return em.call_builtin("prim::min", [lst.output()], {}, loc)

    def item(self, em: FunctionEmitter, loc: SourceRange, index: Value) -> SugaredValue:
        return TupleOfSugared([c.item(em, loc, index) for c in self.children])


class TupleOfSugared(SugaredValue):
    """A tuple of sugared values (zip items) unpacked by assignment without materializing."""

    kind = "tuple"

    def __init__(self, items: list[SugaredValue]) -> None:
        self.items = items

    def static_items(self) -> list[SugaredValue] | None:
        return self.items

    def as_value(self, em: FunctionEmitter, loc: SourceRange) -> Value:
        values = [i.as_value(em, loc) for i in self.items]
        return em.insert(em.graph.create_tuple(values), loc).output()

    def iterate(self, em: FunctionEmitter, loc: SourceRange) -> Iteration:
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

    def iterate(self, em: FunctionEmitter, loc: SourceRange) -> Iteration:
        return StaticIteration(self.items)

    def getitem(self, em: FunctionEmitter, loc: SourceRange, index: t.Expr) -> SugaredValue:
        i = em.constant_int(index, "an index into a module list")
        try:
            return self.items[i]
        except IndexError:
            raise FrontendError(
                f"index {i} is out of range for {self.describe()} of {len(self.items)} items", loc
            ) from None


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

    def call(self, em: FunctionEmitter, call: t.Call) -> SugaredValue:
        args, kwargs = em.emit_call_args(call)
        if self.self_value is not None:
            args = [self.self_value, *args]
        out = em.call_builtin(self.symbol, args, kwargs, call.range, call=call)
        return SimpleValue(out)


class ConstantValue(SugaredValue):
    """A Python constant (a module-level int, a dtype, `math.pi`) that becomes a graph constant."""

    kind = "constant"

    def __init__(self, value: Any, type: Type | None = None) -> None:
        self.value = value
        self.type = type

    def as_value(self, em: FunctionEmitter, loc: SourceRange) -> Value:
        return em.constant(self.value, loc, self.type)

    def attr(self, em: FunctionEmitter, loc: SourceRange, name: str) -> SugaredValue:
        return SimpleValue(self.as_value(em, loc)).attr(em, loc, name)

    def iterate(self, em: FunctionEmitter, loc: SourceRange) -> Iteration:
        if isinstance(self.value, tuple):
            return StaticIteration([ConstantValue(v) for v in self.value])
        return SimpleValue(self.as_value(em, loc)).iterate(em, loc)

    def static_items(self) -> list[SugaredValue] | None:
        if isinstance(self.value, tuple):
            return [ConstantValue(v) for v in self.value]
        return None

    def call(self, em: FunctionEmitter, call: t.Call) -> SugaredValue:
        raise NotSupportedError(f"the constant {self.value!r} cannot be called", call.range)
