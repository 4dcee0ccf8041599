"""Loops: `for` and `while` as `prim::Loop`, comprehensions, and collecting an iterable.

A loop is emitted as TorchScript's `to_ir` emits it before SSA conversion:
`prim::Loop(max_trip_count)` with a body block (its input is the trip
counter) and a condition block; `convert_to_ssa` later copies the
condition before the loop and to the end of the body. A `for` over a
sequence runs `len` trips and binds the item of each; a `while` runs up to
INT64_MAX trips while its condition holds. A comprehension is a loop
appending to a new list (or setting items of a new dict) inside a
`prim::ComprehensionScope`, whose names stay local.
"""

from __future__ import annotations

from collections.abc import Callable

from ts_ir import (
    AnyType,
    DictType,
    IntType,
    ListType,
    SourceRange,
    StringType,
    TensorType,
    Type,
    Value,
    unify_type_list,
)

from . import tree as t
from .emit_context import Expressions, FunctionState
from .errors import FrontendTypeError
from .kinds import COMPREHENSION_SCOPE, IF, LOOP
from .refinement import CondValue
from .sugared_value import INT64_MAX, Iteration, LoopIteration, StaticIteration
from .targets import TargetEmitter


class LoopEmitter:
    """Loops, comprehensions and materialized iterations."""

    def __init__(self, state: FunctionState, exprs: Expressions, targets: TargetEmitter) -> None:
        self.state = state
        self.exprs = exprs
        self.targets = targets

    def emit_loop(
        self,
        loc: SourceRange,
        iteration: LoopIteration | None,
        target: t.Expr | None,
        cond: t.Expr | None,
        emit_body: Callable[[], None],
    ) -> None:
        """A `prim::Loop` over `iteration` (or while `cond`), binding `target` to each item."""
        state = self.state
        g = state.graph
        env = state.env
        if iteration is not None:
            max_trip = iteration.length(state, loc)
        else:
            max_trip = state.constant(INT64_MAX, loc)
        n = state.insert(g.create(LOOP, [], 0), loc)
        body = n.add_block()
        cond_block = n.add_block()
        env.push(cond_block)
        if cond is not None:
            with g.inserting_before(cond_block.return_node):
                out = state.cond_as_value(self.exprs.emit_cond(cond), cond.range)
        else:
            with g.inserting_before(n):
                out = state.constant(True, loc)
        cond_block.register_output(out)
        env.pop()
        n.add_input(max_trip)
        trip = body.add_input(None, IntType.get())
        env.push(body)
        state.loop_kinds.append("loop")
        try:
            with g.inserting_before(body.return_node):
                if iteration is not None and target is not None:
                    item = iteration.item(state, loc, trip)
                    self.targets.assign(target, item, loc)
                emit_body()
        finally:
            state.loop_kinds.pop()
            env.pop()

    # -- comprehensions

    def emit_list_comp(self, e: t.ListComp, hint: Type | None) -> Value:
        state = self.state
        out = state.insert(state.graph.create_list(TensorType.get(), []), e.range).output()
        typed = False
        if hint is not None:
            if not isinstance(hint, ListType):
                raise FrontendTypeError(
                    f"a list comprehension cannot have type {hint.annotation_str()}", e.range
                )
            out.set_type(hint)
            typed = True
        element_hint = hint.element if isinstance(hint, ListType) else None

        def body() -> None:
            nonlocal typed
            value = self.exprs.emit_expr(e.elt, element_hint)
            if not typed:
                out.set_type(ListType(value.type))
                typed = True
            state.call_builtin("aten::append", [out, value], {}, e.range)

        self.emit_comprehension(e.range, e.generators, body)
        return out

    def emit_dict_comp(self, e: t.DictComp, hint: Type | None) -> Value:
        state = self.state
        g = state.graph
        out = state.insert(
            g.create_dict(StringType.get(), TensorType.get(), [], []), e.range
        ).output()
        typed = isinstance(hint, DictType)
        if typed:
            out.set_type(hint)  # type: ignore[arg-type]

        def body() -> None:
            nonlocal typed
            key = self.exprs.emit_expr(e.key)
            value = self.exprs.emit_expr(e.value)
            if not typed:
                out.set_type(DictType(key.type, value.type))
                typed = True
            state.call_builtin("aten::_set_item", [out, key, value], {}, e.range)

        self.emit_comprehension(e.range, e.generators, body)
        return out

    def emit_comprehension(
        self, loc: SourceRange, generators: list[t.Comprehension], body: Callable[[], None]
    ) -> None:
        """A comprehension's loops inside a `prim::ComprehensionScope` (its names stay local)."""
        state = self.state
        g = state.graph
        scope = state.insert(g.create(COMPREHENSION_SCOPE, [], 0), loc)
        block = scope.add_block()
        state.env.push(block)
        try:
            with g.inserting_before(block.return_node):
                self._comprehension_level(loc, generators, 0, body)
        finally:
            state.env.pop()

    def _comprehension_level(
        self, loc: SourceRange, generators: list[t.Comprehension], i: int, body: Callable[[], None]
    ) -> None:
        if i == len(generators):
            body()
            return
        gen = generators[i]

        def inner() -> None:
            if not gen.conds:
                self._comprehension_level(loc, generators, i + 1, body)
                return
            cond = gen.conds[0]
            for extra in gen.conds[1:]:
                cond = t.BoolOp(cond.range, "and", cond, extra)
            value = self.exprs.emit_cond(cond)
            self._guarded(
                value, lambda: self._comprehension_level(loc, generators, i + 1, body), loc
            )

        iteration = self.exprs.emit_sugared(gen.iter).iterate(self.state, gen.iter.range)
        if isinstance(iteration, StaticIteration):
            for item in iteration.items:
                self.targets.assign(gen.target, item, gen.iter.range)
                inner()
            return
        assert isinstance(iteration, LoopIteration)
        self.emit_loop(gen.range, iteration, gen.target, None, inner)

    def _guarded(self, cond: CondValue, fn: Callable[[], None], loc: SourceRange) -> None:
        """Run `fn` where `cond` holds: inline when static, else in the true block of an If."""
        if cond.static is not None:
            if cond.static:
                fn()
            return
        state = self.state
        g = state.graph
        assert cond.value is not None
        n = state.insert(g.create(IF, [cond.value], 0), loc)
        then, _else = n.add_block(), n.add_block()
        state.env.push(then)
        with g.inserting_before(then.return_node):
            state.insert_refinements(loc, cond.refinements.true)
            fn()
        state.env.pop()

    # -- collecting an iteration

    def materialize(self, iteration: Iteration, loc: SourceRange) -> Value:
        """A list of the items of an iteration (`list(range(n))`)."""
        state = self.state
        g = state.graph
        if isinstance(iteration, StaticIteration):
            values = [i.as_value(state, loc) for i in iteration.items]
            element = unify_type_list(v.type for v in values) if values else TensorType.get()
            node = g.create_list(element or AnyType.get(), values)
            return state.insert(node, loc).output()
        out = state.insert(g.create_list(TensorType.get(), []), loc).output()
        scope = state.insert(g.create(COMPREHENSION_SCOPE, [], 0), loc)
        block = scope.add_block()
        state.env.push(block)
        target = t.Name(loc, "$item")

        def body() -> None:
            value = self.exprs.emit_expr(target)
            out.set_type(ListType(value.type))
            state.call_builtin("aten::append", [out, value], {}, loc)

        try:
            with g.inserting_before(block.return_node):
                assert isinstance(iteration, LoopIteration)
                self.emit_loop(loc, iteration, target, None, body)
        finally:
            state.env.pop()
        return out
