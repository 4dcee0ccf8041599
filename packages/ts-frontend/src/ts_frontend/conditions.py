"""Conditions: `if`/`while` tests, `and`/`or`, comparisons, `is None` and `isinstance`.

A condition becomes a `CondValue`: its bool value (converted with
`aten::Bool` or a length test where needed), the refinements it proves on
each branch, and its value when the types already decide it (then only one
branch is compiled). `and`/`or` and comparison chains short-circuit through
`prim::If`, as TorchScript emits them.
"""

from __future__ import annotations

from typing import Any

from ts_ir import (
    AnyType,
    BoolType,
    Node,
    NoneType,
    OptionalType,
    SourceRange,
    Type,
    UnionType,
    Value,
    constant_value,
)

from . import tree as t
from .conversions import to_bool
from .emit_context import Expressions, FunctionState
from .kinds import CONSTANT, IF
from .refinement import CondValue, Refinement, RefinementSet
from .sugared_value import ConstantValue, SugaredValue

_COMPARE = {
    "==": "aten::eq",
    "!=": "aten::ne",
    "<": "aten::lt",
    "<=": "aten::le",
    ">": "aten::gt",
    ">=": "aten::ge",
    "is": "aten::__is__",
    "is not": "aten::__isnot__",
}


class CondResult(SugaredValue):
    """The value of a condition-valued special form (`isinstance`), keeping its refinements."""

    kind = "condition"

    def __init__(self, cond: CondValue, state: FunctionState) -> None:
        self.cond = cond
        self.state = state

    def as_value(self, ctx: Any, loc: SourceRange) -> Value:
        return self.state.cond_as_value(self.cond, loc)


class ConditionEmitter:
    """Conditions and the refinements they prove."""

    def __init__(self, state: FunctionState, exprs: Expressions) -> None:
        self.state = state
        self.exprs = exprs

    def emit_cond(self, e: t.Expr) -> CondValue:
        """A condition with its refinements (see `refinement`)."""
        if isinstance(e, t.UnaryOp) and e.op == "not":
            inner = self.emit_cond(e.operand)
            if inner.static is not None:
                return CondValue(None, inner.refinements.negated(), not inner.static)
            assert inner.value is not None
            value = self.state.call_builtin("aten::__not__", [inner.value], {}, e.range)
            return CondValue(value, inner.refinements.negated(), None)
        if isinstance(e, t.BoolOp):
            return self.emit_short_circuit(e)
        if isinstance(e, t.Compare):
            return self.emit_comparison(e)
        sugared = self.exprs.emit_sugared(e)
        if isinstance(sugared, CondResult):
            return sugared.cond
        if isinstance(sugared, ConstantValue) and isinstance(sugared.value, bool):
            return CondValue(None, RefinementSet(), sugared.value)
        value = sugared.as_value(self.state, e.range)
        if value.node.kind is CONSTANT and isinstance(value.type, BoolType):
            # `if True:` compiles one branch, as TorchScript's constant conditions do
            return CondValue(None, RefinementSet(), bool(constant_value(value)))
        return CondValue(to_bool(self.state, value, e.range), RefinementSet(), None)

    def emit_short_circuit(self, e: t.BoolOp) -> CondValue:
        state = self.state
        env = state.env
        lhs = self.emit_cond(e.left)
        is_and = e.op == "and"
        rhs_refinements = lhs.refinements.true if is_and else lhs.refinements.false
        if lhs.static is not None:
            if lhs.static is (not is_and):
                return lhs  # `True or x`, `False and x`
            env.push(env.block)
            try:
                state.insert_refinements(e.range, rhs_refinements)
                rhs = self.emit_cond(e.right)
            finally:
                env.pop()
            return CondValue(rhs.value, _combine(lhs, rhs, is_and), rhs.static)
        g = state.graph
        assert lhs.value is not None
        n = state.insert(g.create(IF, [lhs.value], 0), e.range)
        then, orelse = n.add_block(), n.add_block()
        evaluate, short = (then, orelse) if is_and else (orelse, then)
        env.push(evaluate)
        with g.inserting_before(evaluate.return_node):
            state.insert_refinements(e.range, rhs_refinements)
            rhs = self.emit_cond(e.right)
            rhs_value = state.cond_as_value(rhs, e.right.range)
        env.pop()
        evaluate.register_output(rhs_value)
        with g.inserting_before(short.return_node):
            short.register_output(state.constant(not is_and, e.range))
        out = n.add_output(BoolType.get())
        return CondValue(out, _combine(lhs, rhs, is_and), None)

    def emit_comparison(self, e: t.Compare) -> CondValue:
        if len(e.ops) == 1:
            return self.emit_single_comparison(e.ops[0], e.left, e.comparators[0], e.range)
        # a < b < c: a < b and b < c, each operand evaluated once
        state = self.state
        g = state.graph
        lhs = self.exprs.emit_expr(e.left)
        result: Value | None = None
        pending: list[tuple[Node, Any]] = []
        for i, (op, right) in enumerate(zip(e.ops, e.comparators, strict=True)):
            rhs = self.exprs.emit_expr(right)
            loc = SourceRange(
                e.range.source,
                e.left.range.start if i == 0 else e.comparators[i - 1].range.start,
                right.range.end,
            )
            value = to_bool(state, self.compare(op, lhs, rhs, loc), loc)
            result = value
            lhs = rhs
            if i < len(e.ops) - 1:
                n = state.insert(g.create(IF, [value], 0), e.range)
                then, orelse = n.add_block(), n.add_block()
                with g.inserting_before(orelse.return_node):
                    orelse.register_output(state.constant(False, e.range))
                pending.append((n, then))
                g.set_insert_point(then.return_node)
        assert result is not None
        for n, then in reversed(pending):
            then.register_output(result)
            result = n.add_output(BoolType.get())
            g.set_insert_point(n.next)  # type: ignore[arg-type]
        return CondValue(result, RefinementSet(), None)

    def emit_single_comparison(
        self, op: str, left: t.Expr, right: t.Expr, loc: SourceRange
    ) -> CondValue:
        if op in ("is", "is not"):
            return self.emit_is(op, left, right, loc)
        lhs = self.exprs.emit_expr(left)
        rhs = self.exprs.emit_expr(right)
        value = to_bool(self.state, self.compare(op, lhs, rhs, loc), loc)
        return CondValue(value, RefinementSet(), None)

    def emit_is(self, op: str, left: t.Expr, right: t.Expr, loc: SourceRange) -> CondValue:
        state = self.state
        lhs = self.exprs.emit_expr(left)
        rhs = self.exprs.emit_expr(right)
        negate = op == "is not"
        symbol = "aten::__isnot__" if negate else "aten::__is__"
        for value, other, expr in ((lhs, rhs, left), (rhs, lhs, right)):
            if not isinstance(other.type, NoneType):
                continue
            static, refs = _none_test(value.type, t.dotted_name(expr))
            if negate:
                refs = refs.negated()
                static = None if static is None else not static
            if static is not None:
                return CondValue(state.constant(static, loc), refs, static)
            return CondValue(state.call_builtin(symbol, [lhs, rhs], {}, loc), refs, None)
        if isinstance(lhs.type, BoolType) and isinstance(rhs.type, BoolType):
            # bools are singletons: identity is equality
            symbol = "aten::ne" if negate else "aten::eq"
        return CondValue(state.call_builtin(symbol, [lhs, rhs], {}, loc), RefinementSet(), None)

    def emit_isinstance(
        self, value: Value, name: str | None, types: list[Type], loc: SourceRange
    ) -> CondValue:
        """`isinstance(value, types)`: static when the types decide it, else `prim::isinstance`
        with the refinements of a Union, Optional or Any `name`."""
        state = self.state
        typ = value.type
        if any(typ.is_subtype_of(c) for c in types):
            return CondValue(None, RefinementSet(), True)
        members = (
            list(typ.types)
            if isinstance(typ, UnionType)
            else ([typ.element, NoneType.get()] if isinstance(typ, OptionalType) else None)
        )
        if members is None and not isinstance(typ, AnyType):
            # a Scalar may hold an int or a float: a narrower type is decided at run time
            narrower = [c for c in types if c.is_subtype_of(typ)]
            if not narrower:
                return CondValue(None, RefinementSet(), False)
            refs = RefinementSet()
            if name is not None:
                refs = RefinementSet([Refinement(name, UnionType.create(narrower))], [])
            node = state.insert(state.graph.create_isinstance(value, types), loc)
            return CondValue(node.output(), refs, None)
        if members is None:  # an Any: where the check holds, it is of the checked types
            refs = RefinementSet()
            if name is not None:
                refs = RefinementSet([Refinement(name, UnionType.create(types))], [])
            node = state.insert(state.graph.create_isinstance(value, types), loc)
            return CondValue(node.output(), refs, None)
        matching = [m for m in members if any(m.is_subtype_of(c) for c in types)]
        others = [m for m in members if m not in matching]
        if not matching:
            return CondValue(None, RefinementSet(), False)
        refs = RefinementSet()
        if name is not None:
            refs = RefinementSet(
                [Refinement(name, UnionType.create(matching))],
                [Refinement(name, UnionType.create(others))] if others else [],
            )
        node = state.insert(state.graph.create_isinstance(value, types), loc)
        return CondValue(node.output(), refs, None)

    def compare(self, op: str, lhs: Value, rhs: Value, loc: SourceRange) -> Value:
        call = self.state.call_builtin
        if op == "in":
            return call("aten::__contains__", [rhs, lhs], {}, loc)
        if op == "not in":
            inside = call("aten::__contains__", [rhs, lhs], {}, loc)
            return call("aten::__not__", [inside], {}, loc)
        return call(_COMPARE[op], [lhs, rhs], {}, loc)


def _combine(lhs: CondValue, rhs: CondValue, is_and: bool) -> RefinementSet:
    if is_and:
        return lhs.refinements.and_(rhs.refinements)
    return lhs.refinements.or_(rhs.refinements)


def _none_test(typ: Type, name: str | None) -> tuple[bool | None, RefinementSet]:
    """`x is None` for `x` of type `typ`: its static value (None: decided at run time) and the
    refinements of `name` on each branch."""
    if isinstance(typ, NoneType):
        return True, RefinementSet()
    maybe_none = (
        isinstance(typ, OptionalType)
        or (isinstance(typ, UnionType) and any(isinstance(m, NoneType) for m in typ.types))
        or isinstance(typ, AnyType)
    )
    if not maybe_none:
        return False, RefinementSet()
    if name is None:
        return None, RefinementSet()
    not_none: Type | None
    if isinstance(typ, OptionalType):
        not_none = typ.element
    else:
        members = (
            [m for m in typ.types if not isinstance(m, NoneType)]
            if isinstance(typ, UnionType)
            else []
        )
        not_none = UnionType.create(members) if members else None
    if not_none is None:
        return None, RefinementSet()
    # as TorchScript: only the branch where `x` is not None is refined (its None branch keeps
    # `x`'s declared type, so `x` may be assigned there)
    return None, RefinementSet([], [Refinement(name, not_none)])
