"""Expressions: one `sugared_X` or `emit_X` method per kind of expression tree.

Operators map to `aten::` symbols and are matched against the registry's
overloads (`a + b` is `aten::add`, with TorchScript's scalar-first builtins
such as `2 * x` inlined from `builtin_functions`); `and`/`or`, chained
comparisons and conditional expressions become `prim::If` nodes; literals
become constants and `prim::ListConstruct`/`TupleConstruct`/`DictConstruct`;
comprehensions are loops appending to a new list or dict.
"""

from __future__ import annotations

from typing import Any

from ts_ir import (
    AnyType,
    ComplexType,
    DictType,
    FloatType,
    IntType,
    ListType,
    OptionalType,
    SourceRange,
    StringType,
    TensorType,
    TupleType,
    Type,
    Value,
    unify_type_list,
    unify_types,
)

from . import tree as t
from .calls import _list_element_hint
from .conditions import ConditionEmitter
from .errors import (
    CallError,
    FrontendError,
    FrontendTypeError,
    NotSupportedError,
    UndefinedNameError,
)
from .kinds import (
    COMPREHENSION_SCOPE,
    CONSTANT,
    IF,
)
from .refinement import CondValue, RefinementSet
from .sugared_value import (
    Iteration,
    LoopIteration,
    SimpleValue,
    StaticIteration,
    SugaredValue,
)

_BINARY = {
    "+": "aten::add",
    "-": "aten::sub",
    "*": "aten::mul",
    "/": "aten::div",
    "%": "aten::remainder",
    "**": "aten::pow",
    "@": "aten::matmul",
    "&": "aten::__and__",
    "|": "aten::__or__",
    "^": "aten::__xor__",
    "<<": "aten::__lshift__",
    ">>": "aten::__rshift__",
}
_INPLACE = {
    "+": "aten::add_",
    "-": "aten::sub_",
    "*": "aten::mul_",
    "/": "aten::div_",
    "%": "aten::remainder_",
    "//": "aten::floor_divide_",
    "**": "aten::pow_",
    "&": "aten::bitwise_and_",
    "|": "aten::bitwise_or_",
    "^": "aten::bitwise_xor_",
    "<<": "aten::__ilshift__",
    ">>": "aten::__irshift__",
}


class ExprEmitter(ConditionEmitter):
    """Expression emission: one method per kind of expression tree."""

    def emit_sugared(self, expr: t.Expr, hint: Type | None = None) -> SugaredValue:
        method = getattr(self, "sugared_" + type(expr).__name__, None)
        if method is not None:
            return method(expr, hint)
        return SimpleValue(getattr(self, "emit_" + type(expr).__name__)(expr, hint))

    def emit_expr(self, expr: t.Expr, hint: Type | None = None) -> Value:
        return self.emit_sugared(expr, hint).as_value(self, expr.range)

    def emit_sugared_static(self, expr: t.Expr) -> SugaredValue:
        """What a name or dotted name means, without emitting anything (for defaults)."""
        if isinstance(expr, t.Name):
            for frame in reversed(self.env.frames):
                if expr.id in frame.types or expr.id in frame.sugared:
                    raise FrontendError("not a constant", expr.range)
            found = self.resolver.resolve(expr.id, expr.range)
            if found is None:
                raise UndefinedNameError(f"undefined name '{expr.id}'", expr.range)
            return found
        if isinstance(expr, t.Attribute):
            base = self.emit_sugared_static(expr.value)
            if isinstance(base, SimpleValue):
                raise FrontendError("not a constant", expr.range)
            return base.attr(self, expr.range, expr.name)
        raise FrontendError("not a constant", expr.range)

    def sugared_Name(self, e: t.Name, hint: Type | None) -> SugaredValue:
        name = e.id
        env = self.env
        for frame in reversed(env.frames):
            found = env.find_in_frame(frame, name)
            if found is not None:
                return found
            err = frame.errors.get(name)
            if err is not None:
                raise err(e.range)
        found = self.resolver.resolve(name, e.range)
        if found is not None:
            return found
        raise UndefinedNameError(
            f"undefined value '{name}'",
            e.range,
            hint="is it defined on every path before this use, or imported in the module?",
        )

    def sugared_Attribute(self, e: t.Attribute, hint: Type | None) -> SugaredValue:
        base = self.emit_sugared(e.value)
        result = base.attr(self, e.range, e.name)
        if isinstance(result, SimpleValue):
            path = self.dotted_name(e)
            refined = self.refined_attribute(path) if path else None
            if refined is not None and result.value.type != refined:
                cast = self.insert(self.graph.create_unchecked_cast(result.value, refined), None)
                return SimpleValue(cast.output())
        return result

    def sugared_Call(self, e: t.Call, hint: Type | None) -> SugaredValue:
        callee = self.emit_sugared(e.func)
        return callee.call(self, e)

    def emit_Const(self, e: t.Const, hint: Type | None) -> Value:
        value = e.value
        if value is None and hint is not None and isinstance(hint, OptionalType):
            return self.constant(None, e.range)
        return self.constant(value, e.range)

    def emit_Str(self, e: t.Str, hint: Type | None) -> Value:
        return self.constant(e.value, e.range)

    def emit_Dots(self, e: t.Dots, hint: Type | None) -> Value:
        raise NotSupportedError("'...' is only allowed in subscripts", e.range)

    def emit_Slice(self, e: t.Slice, hint: Type | None) -> Value:
        raise NotSupportedError("slices are only allowed in subscripts", e.range)

    def emit_Starred(self, e: t.Starred, hint: Type | None) -> Value:
        raise NotSupportedError("starred expressions are only allowed in calls", e.range)

    def emit_UnsupportedExpr(self, e: t.UnsupportedExpr, hint: Type | None) -> Value:
        raise NotSupportedError(f"{e.what} are not supported in compiled code", e.range)

    def emit_ListLiteral(self, e: t.ListLiteral, hint: Type | None) -> Value:
        element_hint = _list_element_hint(hint)
        values = [self.emit_expr(x, element_hint) for x in e.elts]
        if element_hint is not None:
            values = [
                self.convert_to_type(v, element_hint, x.range)
                for v, x in zip(values, e.elts, strict=True)
            ]
            if all(v.type.is_subtype_of(element_hint) for v in values):
                return self.insert(self.graph.create_list(element_hint, values), e.range).output()
        if not values:
            return self.insert(self.graph.create_list(TensorType.get(), []), e.range).output()
        element = unify_type_list(v.type for v in values)
        if element is None:
            kinds = ", ".join(v.type.annotation_str() for v in values)
            raise FrontendTypeError(
                f"list elements must have one type, found {kinds}",
                e.range,
                hint="annotate the list (xs: List[T] = [...]) with a type all elements fit",
            )
        return self.insert(self.graph.create_list(element, values), e.range).output()

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
                values.extend(self.unpack_tuple(v, x.range))
            else:
                values.append(self.emit_expr(x, h))
        return self.insert(self.graph.create_tuple(values), e.range).output()

    def emit_DictLiteral(self, e: t.DictLiteral, hint: Type | None) -> Value:
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
                self.convert_to_type(v, value_hint, x.range)
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
        node = self.graph.create_dict(key_type, value_type, keys, values)  # type: ignore[arg-type]
        return self.insert(node, e.range).output()

    def empty_list(self, loc: SourceRange, element: Type | None) -> Value:
        return self.insert(self.graph.create_list(element or TensorType.get(), []), loc).output()

    def empty_dict(self, loc: SourceRange, typ: DictType | None) -> Value:
        key, value = (typ.key, typ.value) if typ else (StringType.get(), TensorType.get())
        return self.insert(self.graph.create_dict(key, value, [], []), loc).output()

    def emit_ListComp(self, e: t.ListComp, hint: Type | None) -> Value:
        g = self.graph
        out = self.insert(g.create_list(TensorType.get(), []), e.range).output()
        typed = [False]
        if hint is not None:
            if not isinstance(hint, ListType):
                raise FrontendTypeError(
                    f"a list comprehension cannot have type {hint.annotation_str()}", e.range
                )
            out.set_type(hint)
            typed[0] = True

        def body() -> None:
            value = self.emit_expr(e.elt, hint.element if isinstance(hint, ListType) else None)
            if not typed[0]:
                out.set_type(ListType(value.type))
                typed[0] = True
            self.call_builtin("aten::append", [out, value], {}, e.range)

        self.emit_comprehension(e.range, e.generators, body)
        return out

    def emit_DictComp(self, e: t.DictComp, hint: Type | None) -> Value:
        g = self.graph
        out = self.insert(
            g.create_dict(StringType.get(), TensorType.get(), [], []), e.range
        ).output()
        typed = [isinstance(hint, DictType)]
        if isinstance(hint, DictType):
            out.set_type(hint)

        def body() -> None:
            key = self.emit_expr(e.key)
            value = self.emit_expr(e.value)
            if not typed[0]:
                out.set_type(DictType(key.type, value.type))
                typed[0] = True
            self.call_builtin("aten::_set_item", [out, key, value], {}, e.range)

        self.emit_comprehension(e.range, e.generators, body)
        return out

    def emit_comprehension(
        self, loc: SourceRange, generators: list[t.Comprehension], body: Any
    ) -> None:
        """A comprehension's loops inside a `prim::ComprehensionScope` (its names stay local)."""
        g = self.graph
        scope = self.insert(g.create(COMPREHENSION_SCOPE, [], 0), loc)
        block = scope.add_block()
        self.env.push(block)
        try:
            with g.inserting_before(block.return_node):
                self._comprehension_level(loc, generators, 0, body)
        finally:
            self.env.pop()

    def _comprehension_level(
        self,
        loc: SourceRange,
        generators: list[t.Comprehension],
        i: int,
        body: Any,
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
            value = self.emit_cond(cond)
            self._guarded(
                value, lambda: self._comprehension_level(loc, generators, i + 1, body), loc
            )

        iteration = self.emit_sugared(gen.iter).iterate(self, gen.iter.range)
        if isinstance(iteration, StaticIteration):
            for item in iteration.items:
                self.assign(gen.target, item, gen.iter.range)
                inner()
            return
        assert isinstance(iteration, LoopIteration)
        self.emit_loop(gen.range, iteration, gen.target, None, inner)

    def _guarded(self, cond: CondValue, fn: Any, loc: SourceRange) -> None:
        if cond.static is not None:
            if cond.static:
                fn()
            return
        g = self.graph
        n = self.insert(g.create(IF, [cond.value], 0), loc)  # type: ignore[list-item]
        then, _else = n.add_block(), n.add_block()
        self.env.push(then)
        with g.inserting_before(then.return_node):
            self.insert_refinements(loc, cond.refinements.true)
            fn()
        self.env.pop()

    def materialize_iteration(self, iteration: Iteration, loc: SourceRange) -> Value:
        """A list of the items of an iteration (`list(range(n))`)."""
        if isinstance(iteration, StaticIteration):
            values = [i.as_value(self, loc) for i in iteration.items]
            element = unify_type_list(v.type for v in values) if values else TensorType.get()
            return self.insert(
                self.graph.create_list(element or AnyType.get(), values), loc
            ).output()
        g = self.graph
        out = self.insert(g.create_list(TensorType.get(), []), loc).output()
        scope = self.insert(g.create(COMPREHENSION_SCOPE, [], 0), loc)
        block = scope.add_block()
        self.env.push(block)
        target = t.Name(loc, "$item")

        def body() -> None:
            value = self.emit_expr(target)
            out.set_type(ListType(value.type))
            self.call_builtin("aten::append", [out, value], {}, loc)

        try:
            with g.inserting_before(block.return_node):
                self.emit_loop(loc, iteration, target, None, body)  # type: ignore[arg-type]
        finally:
            self.env.pop()
        return out

    def emit_UnaryOp(self, e: t.UnaryOp, hint: Type | None) -> Value:
        if e.op == "not":
            cond = self.emit_cond(e)
            return self.cond_as_value(cond, e.range)
        if e.op == "+":
            return self.emit_expr(e.operand, hint)
        operand = self.emit_expr(e.operand)
        if e.op == "-":
            if operand.node.kind is CONSTANT and isinstance(
                operand.type, (IntType, FloatType, ComplexType)
            ):
                from ts_ir import constant_value

                return self.constant(-constant_value(operand), e.range)
            return self.call_builtin("aten::neg", [operand], {}, e.range)
        if isinstance(operand.type, TensorType):
            return self.call_builtin("aten::bitwise_not", [operand], {}, e.range)
        if operand.node.kind is CONSTANT and isinstance(operand.type, IntType):
            from ts_ir import constant_value

            return self.constant(~constant_value(operand), e.range)
        return self.call_builtin("aten::__invert__", [operand], {}, e.range)

    def emit_BinOp(self, e: t.BinOp, hint: Type | None) -> Value:
        lhs = self.emit_expr(e.left)
        rhs = self.emit_expr(e.right)
        return self.binary_op(e.op, lhs, rhs, e.range)

    def binary_op(self, op: str, lhs: Value, rhs: Value, loc: SourceRange) -> Value:
        if op == "//":
            tensor = isinstance(lhs.type, TensorType) or isinstance(rhs.type, TensorType)
            symbol = "aten::floor_divide" if tensor else "aten::floordiv"
        else:
            symbol = _BINARY[op]
        return self.call_builtin(symbol, [lhs, rhs], {}, loc)

    def emit_augmented(self, stmt: t.AugAssign, lhs: Value) -> Value:
        """`lhs op= rhs`: in place for tensors and lists (`aten::add_`), else `lhs op rhs`."""
        rhs = self.emit_expr(stmt.value)
        if isinstance(lhs.type, TensorType) and stmt.op in _INPLACE:
            return self.call_builtin(_INPLACE[stmt.op], [lhs, rhs], {}, stmt.range)
        if isinstance(lhs.type, ListType) and stmt.op == "+":
            self.call_builtin("aten::extend", [lhs, rhs], {}, stmt.range)
            return lhs
        if isinstance(lhs.type, ListType) and stmt.op == "*":
            return self.call_builtin("aten::mul_", [lhs, rhs], {}, stmt.range)
        return self.binary_op(stmt.op, lhs, rhs, stmt.range)

    def emit_BoolOp(self, e: t.BoolOp, hint: Type | None) -> Value:
        return self.cond_as_value(self.emit_cond(e), e.range)

    def emit_Compare(self, e: t.Compare, hint: Type | None) -> Value:
        if len(e.ops) == 1 and e.ops[0] not in ("is", "is not"):
            # a value, not a condition: `x > y` of tensors is a tensor
            lhs = self.emit_expr(e.left)
            rhs = self.emit_expr(e.comparators[0])
            return self.compare(e.ops[0], lhs, rhs, e.range)
        return self.cond_as_value(self.emit_cond(e), e.range)

    def emit_IfExp(self, e: t.IfExp, hint: Type | None) -> Value:
        cond = self.emit_cond(e.cond)
        g = self.graph
        if cond.static is not None:
            refs = cond.refinements.true if cond.static else cond.refinements.false
            self.env.push(self.env.block)
            try:
                self.insert_refinements(e.range, refs)
                return self.emit_expr(e.body if cond.static else e.orelse, hint)
            finally:
                self.env.pop()
        n = self.insert(g.create(IF, [cond.value], 0), e.range)  # type: ignore[list-item]
        outs = []
        for block, expr, refs in (
            (n.add_block(), e.body, cond.refinements.true),
            (n.add_block(), e.orelse, cond.refinements.false),
        ):
            self.env.push(block)
            with g.inserting_before(block.return_node):
                self.insert_refinements(e.range, refs)
                v = self.emit_expr(expr, hint)
            self.env.pop()
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

    def emit_hasattr(self, call: t.Call) -> CondValue:
        if len(call.args) != 2 or call.keywords:
            raise CallError("hasattr() expects an object and a constant attribute name", call.range)
        obj = self.emit_sugared(call.args[0])
        name = self.constant_str(call.args[1], "the attribute name of hasattr()")
        try:
            obj.attr(self, call.range, name)
        except FrontendError:
            return CondValue(None, RefinementSet(), False)
        return CondValue(None, RefinementSet(), True)
