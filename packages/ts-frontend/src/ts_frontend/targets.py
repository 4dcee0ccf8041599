"""Assignment targets: `x = v`, `a, b = v`, `x[i] = v`, `obj.attr = v`.

A first-class value assigned to a name is stored (`prim::Store`); reassigning
a variable of an enclosing block keeps its type, after the implicit
conversions. Anything else (a module, a function, `range(n)`) is bound as a
sugared value of the frame. Tuples and lists of targets unpack the value,
element by element when its items are known at compile time (a `zip` item,
a module list).
"""

from __future__ import annotations

from ts_ir import SourceRange, TupleType, Type

from . import tree as t
from .conversions import convert_to_type, unpack_tuple, unpack_value
from .emit_context import Expressions, FunctionState
from .environment import meaningful_name
from .errors import FrontendError, FrontendTypeError, NotSupportedError
from .indexing import SubscriptEmitter
from .sugared_value import SimpleValue, SugaredValue


class TargetEmitter:
    """Binding values to assignment targets."""

    def __init__(
        self, state: FunctionState, exprs: Expressions, subscripts: SubscriptEmitter
    ) -> None:
        self.state = state
        self.exprs = exprs
        self.subscripts = subscripts

    def assign(
        self, target: t.Expr, rhs: SugaredValue, loc: SourceRange, annotated: Type | None = None
    ) -> None:
        state = self.state
        if isinstance(target, t.Name):
            self.set_var(target.id, rhs, target.range, annotated)
        elif isinstance(target, (t.TupleLiteral, t.ListLiteral)):
            self.assign_unpack(target, rhs, loc)
        elif isinstance(target, t.Subscript):
            self.subscripts.emit_subscript_assign(target, rhs.as_value(state, loc), loc)
        elif isinstance(target, t.Attribute):
            base = self.exprs.emit_sugared(target.value)
            value = rhs.as_value(state, loc)
            base.set_attr(state, target.range, target.name, value)
            path = t.dotted_name(target)
            if path:
                state.env.forget_refinements(path)
        elif isinstance(target, t.Starred):
            raise NotSupportedError("starred assignment targets are not supported", target.range)
        else:
            raise NotSupportedError(
                f"cannot assign to {type(target).__name__.lower()} expressions", target.range
            )

    def assign_unpack(
        self, target: t.TupleLiteral | t.ListLiteral, rhs: SugaredValue, loc: SourceRange
    ) -> None:
        n = len(target.elts)
        starred = [i for i, e in enumerate(target.elts) if isinstance(e, t.Starred)]
        if starred:
            self._assign_starred(target, starred, rhs, loc)
            return
        items = rhs.static_items()
        if items is None:
            v = rhs.as_value(self.state, loc)
            items = [SimpleValue(x) for x in unpack_value(self.state, v, n, loc)]
        if len(items) != n:
            raise FrontendTypeError(
                f"cannot unpack {len(items)} values into {n} targets", target.range
            )
        for elt, item in zip(target.elts, items, strict=True):
            self.assign(elt, item, loc)

    def _assign_starred(
        self,
        target: t.TupleLiteral | t.ListLiteral,
        starred: list[int],
        rhs: SugaredValue,
        loc: SourceRange,
    ) -> None:
        """`a, *b, c = v`: `v` of a known length (a tuple); the starred target takes the
        items the others leave, as a tuple."""
        state = self.state
        if len(starred) > 1:
            raise FrontendTypeError("only one starred target is allowed", target.range)
        items = rhs.static_items()
        if items is None:
            v = rhs.as_value(state, loc)
            if not isinstance(v.type, TupleType):
                raise NotSupportedError(
                    f"a starred target needs a tuple to unpack, not '{v.type.annotation_str()}'",
                    target.range,
                )
            items = [SimpleValue(x) for x in unpack_tuple(state, v, loc)]
        k, n = starred[0], len(target.elts)
        if len(items) < n - 1:
            raise FrontendTypeError(
                f"cannot unpack {len(items)} values into {n - 1} or more targets", target.range
            )
        end = len(items) - (n - 1 - k)
        rest = [item.as_value(state, loc) for item in items[k:end]]
        packed = SimpleValue(state.insert(state.graph.create_tuple(rest), loc).output())
        for elt, item in zip(target.elts, [*items[:k], packed, *items[end:]], strict=True):
            self.assign(elt.value if isinstance(elt, t.Starred) else elt, item, loc)

    def set_var(
        self, name: str, value: SugaredValue, loc: SourceRange, annotated: Type | None = None
    ) -> None:
        """Bind `name`: a store for first-class values, a sugared binding otherwise."""
        state = self.state
        env = state.env
        if not isinstance(value, SimpleValue):
            try:
                simple = value.as_value(state, loc)
            except FrontendError:
                simple = None
            if simple is None:
                if env.is_defined_in_parent(name):
                    raise NotSupportedError(
                        f"cannot re-assign '{name}' to {value.describe()}, which is not a "
                        "first-class value",
                        loc,
                    )
                env.set_sugared(name, value)
                return
            value = SimpleValue(simple)
        v = value.value
        if env.is_defined_in_parent(name):
            if annotated is not None:
                raise FrontendTypeError(
                    f"variable '{name}' is annotated but is already defined in an outer block",
                    loc,
                )
            v = env.check_reassignment(
                name, v, loc, lambda x, ty: convert_to_type(state, x, ty, loc)
            )
        if not v.has_debug_name() and meaningful_name(name) and v.node.owning_block is env.block:
            v.set_debug_name(name)
        env.insert_store(name, loc, v, annotated or v.type)
        env.forget_refinements(name)
