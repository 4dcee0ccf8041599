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
    DictType,
    FloatType,
    IntType,
    ListType,
    Node,
    NoneType,
    NumberType,
    OptionalType,
    SourceRange,
    StringType,
    TensorType,
    TupleType,
    Type,
    UnionType,
    Value,
)

from . import tree as t
from .calls import CallEmitter
from .errors import (
    CallError,
    FrontendTypeError,
)
from .kinds import (
    IF,
)
from .refinement import CondValue, Refinement, RefinementSet
from .sugared_value import (
    ConstantValue,
    SimpleValue,
    SugaredValue,
)

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


class ConditionEmitter(CallEmitter):
    """Conditions and their refinements."""

    def emit_cond(self, e: t.Expr) -> CondValue:
        """A condition with its refinements (see `refinement`)."""
        if isinstance(e, t.UnaryOp) and e.op == "not":
            inner = self.emit_cond(e.operand)
            if inner.static is not None:
                return CondValue(None, inner.refinements.negated(), not inner.static)
            value = self.call_builtin("aten::__not__", [inner.value], {}, e.range)  # type: ignore[list-item]
            return CondValue(value, inner.refinements.negated(), None)
        if isinstance(e, t.BoolOp):
            return self.emit_short_circuit(e)
        if isinstance(e, t.Compare):
            return self.emit_comparison(e)
        if isinstance(e, t.Call):
            callee = self.emit_sugared(e.func)
            from .builtins import BuiltinCallable
            from .python_values import ConstantCall, IsinstanceValue

            if isinstance(callee, BuiltinCallable) and callee.name == "isinstance":
                return self.emit_isinstance(e)
            if isinstance(callee, BuiltinCallable) and callee.name == "hasattr":
                return self.emit_hasattr(e)
            if isinstance(callee, IsinstanceValue):
                return self.emit_isinstance(e)
            if isinstance(callee, ConstantCall) and isinstance(callee.value, bool):
                return CondValue(None, RefinementSet(), callee.value)
            value = self.to_bool(callee.call(self, e).as_value(self, e.range), e.range)
            return CondValue(value, RefinementSet(), None)
        sugared = self.emit_sugared(e)
        if isinstance(sugared, ConstantValue) and isinstance(sugared.value, bool):
            return CondValue(None, RefinementSet(), sugared.value)
        value = self.to_bool(sugared.as_value(self, e.range), e.range)
        return CondValue(value, RefinementSet(), None)

    def emit_cond_bool(self, e: t.Expr) -> Value:
        return self.cond_as_value(self.emit_cond(e), e.range)

    def to_bool(self, v: Value, loc: SourceRange) -> Value:
        typ = v.type
        if isinstance(typ, BoolType):
            return v
        if isinstance(typ, (TensorType, IntType, FloatType, NumberType)):
            return self.call_builtin("aten::Bool", [v], {}, loc)
        if isinstance(typ, (ListType, DictType, StringType, TupleType)):
            length = self.call_builtin(
                "aten::len", [self.to_list(v, loc) if isinstance(typ, TupleType) else v], {}, loc
            )
            zero = self.constant(0, loc)
            return self.call_builtin("aten::ne", [length, zero], {}, loc)
        raise FrontendTypeError(
            f"a value of type '{typ.annotation_str()}' cannot be used as a condition",
            loc,
            hint="compare it explicitly (e.g. `x is not None`)"
            if isinstance(typ, (OptionalType, NoneType))
            else None,
        )

    def emit_short_circuit(self, e: t.BoolOp) -> CondValue:
        lhs = self.emit_cond(e.left)
        is_and = e.op == "and"
        if lhs.static is not None:
            if lhs.static is (not is_and):
                return lhs  # `True or x`, `False and x`
            self.env.push(self.env.block)
            try:
                self.insert_refinements(
                    e.range, lhs.refinements.true if is_and else lhs.refinements.false
                )
                rhs = self.emit_cond(e.right)
            finally:
                self.env.pop()
            refs = (
                lhs.refinements.and_(rhs.refinements)
                if is_and
                else lhs.refinements.or_(rhs.refinements)
            )
            return CondValue(rhs.value, refs, rhs.static)
        g = self.graph
        n = self.insert(g.create(IF, [lhs.value], 0), e.range)  # type: ignore[list-item]
        then, orelse = n.add_block(), n.add_block()
        evaluate, short = (then, orelse) if is_and else (orelse, then)
        self.env.push(evaluate)
        with g.inserting_before(evaluate.return_node):
            self.insert_refinements(
                e.range, lhs.refinements.true if is_and else lhs.refinements.false
            )
            rhs = self.emit_cond(e.right)
            rhs_value = self.cond_as_value(rhs, e.right.range)
        self.env.pop()
        evaluate.register_output(rhs_value)
        with g.inserting_before(short.return_node):
            short.register_output(self.constant(not is_and, e.range))
        out = n.add_output(BoolType.get())
        refs = (
            lhs.refinements.and_(rhs.refinements)
            if is_and
            else lhs.refinements.or_(rhs.refinements)
        )
        return CondValue(out, refs, None)

    def emit_comparison(self, e: t.Compare) -> CondValue:
        if len(e.ops) == 1:
            return self.emit_single_comparison(e.ops[0], e.left, e.comparators[0], e.range)
        # a < b < c: a < b and b < c, each operand evaluated once
        g = self.graph
        lhs = self.emit_expr(e.left)
        result: Value | None = None
        pending: list[tuple[Node, Any]] = []
        for i, (op, right) in enumerate(zip(e.ops, e.comparators, strict=True)):
            rhs = self.emit_expr(right)
            loc = SourceRange(
                e.range.source,
                e.left.range.start if i == 0 else e.comparators[i - 1].range.start,
                right.range.end,
            )
            value = self.to_bool(self.compare(op, lhs, rhs, loc), loc)
            result = value
            lhs = rhs
            if i < len(e.ops) - 1:
                n = self.insert(g.create(IF, [value], 0), e.range)
                then, orelse = n.add_block(), n.add_block()
                with g.inserting_before(orelse.return_node):
                    orelse.register_output(self.constant(False, e.range))
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
        lhs = self.emit_expr(left)
        rhs = self.emit_expr(right)
        return CondValue(self.to_bool(self.compare(op, lhs, rhs, loc), loc), RefinementSet(), None)

    def emit_is(self, op: str, left: t.Expr, right: t.Expr, loc: SourceRange) -> CondValue:
        lhs = self.emit_expr(left)
        rhs = self.emit_expr(right)
        negate = op == "is not"
        for value, other, expr in ((lhs, rhs, left), (rhs, lhs, right)):
            if not isinstance(other.type, NoneType):
                continue
            typ = value.type
            name = self.dotted_name(expr)
            if isinstance(typ, NoneType):
                static: bool | None = True
            elif isinstance(typ, OptionalType) or (
                isinstance(typ, UnionType) and any(isinstance(m, NoneType) for m in typ.types)
            ):
                static = None
            elif isinstance(typ, AnyType):
                static = None
            else:
                static = False
            refs = RefinementSet()
            if static is None and name is not None:
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
                if not_none is not None:
                    refs = RefinementSet(
                        [Refinement(name, NoneType.get())], [Refinement(name, not_none)]
                    )
            if negate:
                refs = refs.negated()
                static = None if static is None else not static
            if static is not None:
                return CondValue(self.constant(static, loc), refs, static)
            symbol = "aten::__isnot__" if negate else "aten::__is__"
            return CondValue(self.call_builtin(symbol, [lhs, rhs], {}, loc), refs, None)
        symbol = "aten::__isnot__" if negate else "aten::__is__"
        return CondValue(self.call_builtin(symbol, [lhs, rhs], {}, loc), RefinementSet(), None)

    def emit_isinstance(self, call: t.Call) -> CondValue:
        if len(call.args) != 2 or call.keywords:
            raise CallError("isinstance() expects a value and a type", call.range)
        value = self.emit_expr(call.args[0])
        spec = call.args[1]
        specs = spec.elts if isinstance(spec, t.TupleLiteral) else [spec]
        types = [self._isinstance_type(s) for s in specs]
        typ = value.type
        name = self.dotted_name(call.args[0])
        if any(typ.is_subtype_of(c) for c in types):
            return CondValue(None, RefinementSet(), True)
        members = (
            list(typ.types)
            if isinstance(typ, UnionType)
            else ([typ.element, NoneType.get()] if isinstance(typ, OptionalType) else None)
        )
        if members is None and not isinstance(typ, AnyType):
            return CondValue(None, RefinementSet(), False)
        if members is None:
            node = self.insert(self.graph.create_isinstance(value, types), call.range)
            return CondValue(node.output(), RefinementSet(), None)
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
        node = self.insert(self.graph.create_isinstance(value, types), call.range)
        return CondValue(node.output(), refs, None)

    def _isinstance_type(self, spec: t.Expr) -> Type:
        typ = self.types.read(spec)
        return typ

    def compare(self, op: str, lhs: Value, rhs: Value, loc: SourceRange) -> Value:
        if op == "in":
            return self.call_builtin("aten::__contains__", [rhs, lhs], {}, loc)
        if op == "not in":
            inside = self.call_builtin("aten::__contains__", [rhs, lhs], {}, loc)
            return self.call_builtin("aten::__not__", [inside], {}, loc)
        return self.call_builtin(_COMPARE[op], [lhs, rhs], {}, loc)

    # -- refinements

    def insert_refinements(self, loc: SourceRange | None, refinements: list[Any]) -> None:
        for r in refinements:
            if "." in r.name:
                holder = self.env.frame.sugared.setdefault("$refined", _AttrRefinements())
                assert isinstance(holder, _AttrRefinements)
                holder.refine(r.name, r.type)
                continue
            found = self.env.find_in_any_frame(r.name)
            if not isinstance(found, SimpleValue):
                continue
            g = self.graph
            cast = self.insert(g.create_unchecked_cast(found.value, r.type), None)
            self.env.insert_store(r.name, loc, cast.output(), r.type)

    def refined_attribute(self, path: str) -> Type | None:
        for frame in reversed(self.env.frames):
            holder = frame.sugared.get("$refined")
            if holder is not None:
                typ = holder.lookup(path)  # type: ignore[attr-defined]
                if typ is not None:
                    return typ if typ is not _FORGOTTEN else None
        return None

    def forget_refinement(self, name: str | None) -> None:
        if not name:
            return
        prefix = name + "."
        for frame in self.env.frames:
            holder = frame.sugared.get("$refined")
            if holder is not None:
                holder.forget(name, prefix)  # type: ignore[attr-defined]
        holder = self.env.frame.sugared.setdefault("$refined", _AttrRefinements())
        holder.mark_forgotten(name)  # type: ignore[attr-defined]


class _AttrRefinements(SugaredValue):
    """Refined attribute paths (`self.bias` known not None) of one frame."""

    kind = "refinements"

    def __init__(self) -> None:
        self.types: dict[str, Any] = {}

    def refine(self, path: str, typ: Type) -> None:
        self.types[path] = typ

    def lookup(self, path: str) -> Any:
        return self.types.get(path)

    def forget(self, name: str, prefix: str) -> None:
        for key in [k for k in self.types if k == name or k.startswith(prefix)]:
            del self.types[key]

    def mark_forgotten(self, name: str) -> None:
        if "." in name:
            self.types[name] = _FORGOTTEN


_FORGOTTEN: Any = object()
