"""Expressions: one `sugared_X` or `emit_X` method per kind of expression tree.

Names resolve to variables of the environment, then to what the resolver
finds in Python (`python_values.to_sugared`). A call evaluates its callee
and its arguments, then hands the arguments to the callee's sugared value;
the special forms (`special_forms`) are compiled from their syntax instead.
Operators map to `aten::` symbols (`operators`); `and`/`or`, chained
comparisons and conditional expressions become `prim::If` nodes
(`conditions`); literals become constants and
`prim::ListConstruct`/`TupleConstruct`/`DictConstruct`; subscripts are in
`indexing`, comprehensions in `loops`.

`ExprEmitter` builds and holds the parts expressions need (conditions,
subscripts, assignment targets, loops and special forms); the statement
emitter uses them through it.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from ts_ir import (
    BoolType,
    ComplexType,
    DictType,
    FloatType,
    IntType,
    ListType,
    OptionalType,
    StringType,
    TensorType,
    TupleType,
    Type,
    Value,
    constant_value,
    unify_type_list,
    unify_types,
)

from . import tree as t
from .conditions import ConditionEmitter
from .conversions import convert_to_type, unpack_tuple
from .emit_context import FunctionState, list_element_hint
from .errors import (
    CallError,
    FrontendError,
    FrontendTypeError,
    NotSupportedError,
    UndefinedNameError,
)
from .indexing import SubscriptEmitter
from .kinds import CONSTANT, IF, TOLIST
from .loops import LoopEmitter
from .operators import binary_op
from .python_values import to_sugared
from .refinement import CondValue
from .resolver import MISSING
from .special_forms import SpecialForms
from .sugared_value import (
    NOT_CONSTANT,
    ConstantValue,
    NamedValue,
    SimpleValue,
    SpecialFormValue,
    SugaredValue,
)
from .targets import TargetEmitter


class ExprEmitter:
    """Expression emission: one method per kind of expression tree."""

    def __init__(self, state: FunctionState) -> None:
        self.state = state
        self.conds = ConditionEmitter(state, self)
        self.subscripts = SubscriptEmitter(state, self)
        self.targets = TargetEmitter(state, self, self.subscripts)
        self.loops = LoopEmitter(state, self, self.targets)
        self.forms = SpecialForms(state, self, self.conds, self.loops)
        self._sugared: dict[type, Callable[[Any, Type | None], SugaredValue]] = {}
        self._values: dict[type, Callable[[Any, Type | None], Value]] = {}
        for cls in _EXPRESSIONS:
            method = getattr(self, "sugared_" + cls.__name__, None)
            if method is not None:
                self._sugared[cls] = method
            else:
                self._values[cls] = getattr(self, "emit_" + cls.__name__)

    # -- entry points

    def emit_sugared(self, expr: t.Expr, hint: Type | None = None) -> SugaredValue:
        kind = type(expr)
        method = self._sugared.get(kind)
        if method is not None:
            return method(expr, hint)
        return SimpleValue(self._values[kind](expr, hint))

    def emit_expr(self, expr: t.Expr, hint: Type | None = None) -> Value:
        kind = type(expr)
        method = self._values.get(kind)
        if method is not None:
            return method(expr, hint)
        return self._sugared[kind](expr, hint).as_value(self.state, expr.range)

    def emit_cond(self, expr: t.Expr) -> CondValue:
        return self.conds.emit_cond(expr)

    def emit_args(
        self, args: list[t.Expr], keywords: list[t.Keyword]
    ) -> tuple[list[NamedValue], dict[str, NamedValue]]:
        """Evaluate a call's arguments, left to right; `*t` unpacks a tuple."""
        positional: list[NamedValue] = []
        for a in args:
            if isinstance(a, t.Starred):
                sugared = self.emit_sugared(a.value)
                items = sugared.static_items()
                if items is None:
                    v = sugared.as_value(self.state, a.range)
                    if not isinstance(v.type, TupleType):
                        raise NotSupportedError(
                            "only tuples can be unpacked with * in a call", a.range
                        )
                    items = [SimpleValue(x) for x in unpack_tuple(self.state, v, a.range)]
                positional.extend(NamedValue(a.range, item) for item in items)
            else:
                positional.append(NamedValue(a.range, self.emit_sugared(a)))
        named: dict[str, NamedValue] = {}
        for kw in keywords:
            if kw.name in named:
                raise CallError(f"keyword argument '{kw.name}' repeated", kw.range)
            named[kw.name] = NamedValue(kw.value.range, self.emit_sugared(kw.value), kw.name)
        return positional, named

    # -- names, attributes, calls, subscripts

    def sugared_Name(self, e: t.Name, hint: Type | None) -> SugaredValue:
        name = e.id
        env = self.state.env
        for frame in reversed(env.frames):
            found = env.find_in_frame(frame, name)
            if found is not None:
                return found
            err = frame.errors.get(name)
            if err is not None:
                raise err(e.range)
        obj = self.state.resolver.lookup(name)
        if obj is not MISSING:
            return to_sugared(obj, e.range, name)
        raise UndefinedNameError(
            f"undefined value '{name}'",
            e.range,
            hint="is it defined on every path before this use, or imported in the module?",
        )

    def sugared_Attribute(self, e: t.Attribute, hint: Type | None) -> SugaredValue:
        state = self.state
        base = self.emit_sugared(e.value)
        result = base.attr(state, e.range, e.name)
        if isinstance(result, SimpleValue):
            path = t.dotted_name(e)
            refined = state.env.refined_attribute(path) if path else None
            if refined is not None and result.value.type != refined:
                cast = state.insert(state.graph.create_unchecked_cast(result.value, refined), None)
                return SimpleValue(cast.output())
        return result

    def sugared_Call(self, e: t.Call, hint: Type | None) -> SugaredValue:
        if isinstance(e.func, t.Attribute) and e.func.name == "tolist":
            base = self.emit_sugared(e.func.value)
            if isinstance(base, SimpleValue) and isinstance(base.value.type, TensorType):
                return self._tensor_tolist(e, base.value, hint)
            callee = base.attr(self.state, e.func.range, "tolist")
        else:
            callee = self.emit_sugared(e.func)
        if isinstance(callee, SpecialFormValue):
            return self.forms.emit(callee.form, e, hint)
        args, kwargs = self.emit_args(e.args, e.keywords)
        return callee.call(self.state, e.range, args, kwargs)

    def _tensor_tolist(self, e: t.Call, tensor: Value, hint: Type | None) -> SugaredValue:
        """`x.tolist()` of a tensor: `prim::tolist(x, dim, element)` typed by the expected
        type (`annotate(List[List[float]], x.tolist())`, an annotated assignment or return),
        which must be nested lists of int, float, bool or complex."""
        if e.args or e.keywords:
            raise CallError("tolist() takes no arguments", e.range)
        if hint is None:
            raise FrontendTypeError(
                "expected a type hint for the result of tolist()",
                e.range,
                hint="annotate it: `annotate(List[float], x.tolist())`",
            )
        dim, element = 0, hint
        while isinstance(element, ListType):
            dim, element = dim + 1, element.element
        codes = {IntType: 0, FloatType: 1, BoolType: 2, ComplexType: 3}
        code = next((c for cls, c in codes.items() if isinstance(element, cls)), None)
        if code is None:
            raise FrontendTypeError(
                f"{element.annotation_str()} is not one of the element types tolist() "
                "gives: int, float, complex, bool",
                e.range,
            )
        state = self.state
        inputs = [tensor, state.constant(dim, e.range), state.constant(code, e.range)]
        node = state.insert(state.graph.create(TOLIST, inputs, 1), e.range)
        node.output().set_type(hint)
        return SimpleValue(node.output())

    def sugared_Subscript(self, e: t.Subscript, hint: Type | None) -> SugaredValue:
        return self.subscripts.emit_subscript(e)

    # -- literals

    def emit_Const(self, e: t.Const, hint: Type | None) -> Value:
        return self.state.constant(e.value, e.range)

    def emit_Str(self, e: t.Str, hint: Type | None) -> Value:
        return self.state.constant(e.value, e.range)

    def emit_Dots(self, e: t.Dots, hint: Type | None) -> Value:
        raise NotSupportedError("'...' is only allowed in subscripts", e.range)

    def emit_Slice(self, e: t.Slice, hint: Type | None) -> Value:
        raise NotSupportedError("slices are only allowed in subscripts", e.range)

    def emit_Starred(self, e: t.Starred, hint: Type | None) -> Value:
        raise NotSupportedError("starred expressions are only allowed in calls", e.range)

    def emit_UnsupportedExpr(self, e: t.UnsupportedExpr, hint: Type | None) -> Value:
        raise NotSupportedError(f"{e.what} are not supported in compiled code", e.range)

    def emit_ListLiteral(self, e: t.ListLiteral, hint: Type | None) -> Value:
        state = self.state
        g = state.graph
        element_hint = list_element_hint(hint)
        values = [self.emit_expr(x, element_hint) for x in e.elts]
        if element_hint is not None:
            values = [
                convert_to_type(state, v, element_hint, x.range)
                for v, x in zip(values, e.elts, strict=True)
            ]
            if all(v.type.is_subtype_of(element_hint) for v in values):
                return state.insert(g.create_list(element_hint, values), e.range).output()
        if not values:
            return state.insert(g.create_list(TensorType.get(), []), e.range).output()
        element = unify_type_list(v.type for v in values)
        if element is None:
            kinds = ", ".join(v.type.annotation_str() for v in values)
            raise FrontendTypeError(
                f"list elements must have one type, found {kinds}",
                e.range,
                hint="annotate the list (xs: List[T] = [...]) with a type all elements fit",
            )
        return state.insert(g.create_list(element, values), e.range).output()

    def emit_TupleLiteral(self, e: t.TupleLiteral, hint: Type | None) -> Value:
        hints: list[Type | None] = [None] * len(e.elts)
        if isinstance(hint, TupleType) and len(hint.elements) == len(e.elts):
            hints = list(hint.elements)
        values = []
        for x, h in zip(e.elts, hints, strict=True):
            if isinstance(x, t.Starred):
                v = self.emit_expr(x.value)
                if not isinstance(v.type, TupleType):
                    raise NotSupportedError("only tuples can be unpacked with * here", x.range)
                values.extend(unpack_tuple(self.state, v, x.range))
            else:
                values.append(self.emit_expr(x, h))
        return self.state.insert(self.state.graph.create_tuple(values), e.range).output()

    def emit_DictLiteral(self, e: t.DictLiteral, hint: Type | None) -> Value:
        state = self.state
        key_hint = value_hint = None
        if isinstance(hint, OptionalType):
            hint = hint.element
        if isinstance(hint, DictType):
            key_hint, value_hint = hint.key, hint.value
        keys = [self.emit_expr(k, key_hint) for k in e.keys]
        values = [self.emit_expr(v, value_hint) for v in e.values]
        key_type: Type | None
        value_type: Type | None
        if key_hint is not None and value_hint is not None:
            values = [
                convert_to_type(state, v, value_hint, x.range)
                for v, x in zip(values, e.values, strict=True)
            ]
            key_type, value_type = key_hint, value_hint
        elif not keys:
            key_type, value_type = StringType.get(), TensorType.get()
        else:
            key_type = unify_type_list(k.type for k in keys)
            value_type = unify_type_list(v.type for v in values)
            if key_type is None or value_type is None:
                raise FrontendTypeError(
                    "dict keys and values must each have one type",
                    e.range,
                    hint="annotate the dict (d: Dict[K, V] = {...})",
                )
        node = state.graph.create_dict(key_type, value_type, keys, values)
        return state.insert(node, e.range).output()

    def emit_ListComp(self, e: t.ListComp, hint: Type | None) -> Value:
        return self.loops.emit_list_comp(e, hint)

    def emit_DictComp(self, e: t.DictComp, hint: Type | None) -> Value:
        return self.loops.emit_dict_comp(e, hint)

    # -- operators

    def emit_UnaryOp(self, e: t.UnaryOp, hint: Type | None) -> Value:
        state = self.state
        if e.op == "not":
            return state.cond_as_value(self.emit_cond(e), e.range)
        if e.op == "+":
            return self.emit_expr(e.operand, hint)
        operand = self.emit_expr(e.operand)
        is_constant = operand.node.kind is CONSTANT
        if e.op == "-":
            if is_constant and isinstance(operand.type, (IntType, FloatType, ComplexType)):
                return state.constant(-constant_value(operand), e.range)
            return state.call_builtin("aten::neg", [operand], {}, e.range)
        if isinstance(operand.type, TensorType):
            return state.call_builtin("aten::bitwise_not", [operand], {}, e.range)
        if is_constant and isinstance(operand.type, IntType):
            return state.constant(~constant_value(operand), e.range)
        return state.call_builtin("aten::__invert__", [operand], {}, e.range)

    def emit_BinOp(self, e: t.BinOp, hint: Type | None) -> Value:
        lhs = self.emit_expr(e.left)
        rhs = self.emit_expr(e.right)
        return binary_op(self.state, e.op, lhs, rhs, e.range)

    def emit_BoolOp(self, e: t.BoolOp, hint: Type | None) -> Value:
        return self.state.cond_as_value(self.emit_cond(e), e.range)

    def emit_Compare(self, e: t.Compare, hint: Type | None) -> Value:
        if len(e.ops) == 1 and e.ops[0] not in ("is", "is not"):
            # a value, not a condition: `x > y` of tensors is a tensor
            lhs = self.emit_expr(e.left)
            rhs = self.emit_expr(e.comparators[0])
            return self.conds.compare(e.ops[0], lhs, rhs, e.range)
        return self.state.cond_as_value(self.emit_cond(e), e.range)

    def emit_IfExp(self, e: t.IfExp, hint: Type | None) -> Value:
        state = self.state
        env = state.env
        cond = self.emit_cond(e.cond)
        g = state.graph
        if cond.static is not None:
            refs = cond.refinements.true if cond.static else cond.refinements.false
            env.push(env.block)
            try:
                state.insert_refinements(e.range, refs)
                return self.emit_expr(e.body if cond.static else e.orelse, hint)
            finally:
                env.pop()
        assert cond.value is not None
        n = state.insert(g.create(IF, [cond.value], 0), e.range)
        outs = []
        for block, expr, refs in (
            (n.add_block(), e.body, cond.refinements.true),
            (n.add_block(), e.orelse, cond.refinements.false),
        ):
            env.push(block)
            with g.inserting_before(block.return_node):
                state.insert_refinements(e.range, refs)
                v = self.emit_expr(expr, hint)
            env.pop()
            block.register_output(v)
            outs.append(v)
        unified = unify_types(
            outs[0].type, outs[1].type, type_hint=hint, default_to_union=hint is not None
        )
        if unified is None:
            raise FrontendTypeError(
                f"the branches of a conditional expression have types "
                f"{outs[0].type.annotation_str()} and {outs[1].type.annotation_str()}, which have "
                "no common type",
                e.range,
            )
        if (
            hint is not None
            and outs[0].type.is_subtype_of(hint)
            and outs[1].type.is_subtype_of(hint)
        ):
            unified = hint
        return n.add_output(unified)

    # -- compile-time constants (parameter defaults)

    def try_constant(self, expr: t.Expr) -> Any:
        """The compile-time value of a literal expression, or `NOT_CONSTANT`."""
        if isinstance(expr, (t.Const, t.Str)):
            return expr.value
        if isinstance(expr, t.UnaryOp) and expr.op == "-":
            inner = self.try_constant(expr.operand)
            if isinstance(inner, (int, float)) and not isinstance(inner, bool):
                return -inner
            return NOT_CONSTANT
        if isinstance(expr, t.BinOp) and expr.op in _FOLDABLE:
            lhs, rhs = self.try_constant(expr.left), self.try_constant(expr.right)
            if _is_number(lhs) and _is_number(rhs):
                try:
                    return _FOLDABLE[expr.op](lhs, rhs)
                except (ArithmeticError, ValueError):
                    return NOT_CONSTANT
            return NOT_CONSTANT
        if isinstance(expr, (t.TupleLiteral, t.ListLiteral)):
            items = [self.try_constant(e) for e in expr.elts]
            if any(i is NOT_CONSTANT for i in items):
                return NOT_CONSTANT
            return tuple(items) if isinstance(expr, t.TupleLiteral) else items
        if isinstance(expr, (t.Name, t.Attribute)):
            try:
                sv = self._static_sugared(expr)
            except FrontendError:
                return NOT_CONSTANT
            if isinstance(sv, ConstantValue):
                return sv.value
        return NOT_CONSTANT

    def _static_sugared(self, expr: t.Expr) -> SugaredValue:
        """What a name or dotted name means, without emitting anything."""
        if isinstance(expr, t.Name):
            for frame in reversed(self.state.env.frames):
                if expr.id in frame.types or expr.id in frame.sugared:
                    raise FrontendError("not a constant", expr.range)
            obj = self.state.resolver.lookup(expr.id)
            if obj is MISSING:
                raise UndefinedNameError(f"undefined name '{expr.id}'", expr.range)
            return to_sugared(obj, expr.range, expr.id)
        if isinstance(expr, t.Attribute):
            base = self._static_sugared(expr.value)
            if isinstance(base, SimpleValue):
                raise FrontendError("not a constant", expr.range)
            return base.attr(self.state, expr.range, expr.name)
        raise FrontendError("not a constant", expr.range)


#: operators of a constant expression (`beta: float = 1. / 9` in a source string)
_FOLDABLE: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": operator.truediv,
    "//": operator.floordiv,
    "%": operator.mod,
    "**": operator.pow,
}


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


_EXPRESSIONS: tuple[type, ...] = (
    t.Name,
    t.Attribute,
    t.Call,
    t.Subscript,
    t.Const,
    t.Str,
    t.Dots,
    t.Slice,
    t.Starred,
    t.UnsupportedExpr,
    t.ListLiteral,
    t.TupleLiteral,
    t.DictLiteral,
    t.ListComp,
    t.DictComp,
    t.UnaryOp,
    t.BinOp,
    t.BoolOp,
    t.Compare,
    t.IfExp,
)
