"""Calls and conversions: matching operators, calling functions, implicit conversions.

`call_builtin` matches a call against every overload of an operator (and
TorchScript's scalar-first builtins from `builtin_functions`), remembering
which overload a signature of argument types picks; `emit_function_call`
calls a compiled function through `prim::CallFunction` of a function
constant; `convert_to_type` applies the implicit conversions TorchScript
(and Python) allow when a value meets a declared type.
"""

from __future__ import annotations

from typing import Any

from ts_ir import (
    BoolType,
    ComplexType,
    DeviceType,
    DictType,
    FloatType,
    FunctionType,
    FutureType,
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
    unify_type_list,
)
from ts_schema import (
    NoMatchingSchemaError,
    Operator,
    UnknownOperatorError,
    emit_node,
    match_schema,
    match_schemas,
    registry,
)

from . import tree as t
from .emitter_state import EmitterState
from .errors import (
    CallError,
    FrontendTypeError,
    NotSupportedError,
)
from .kinds import (
    CALL_FUNCTION,
    CONSTANT,
    DICT_CONSTRUCT,
    FORK,
    LIST_CONSTRUCT,
)


class CallEmitter(EmitterState):
    """Calls, conversions and graph helpers, shared by every part of the emitter."""

    str_type = StringType.get()

    def insert(self, node: Node, loc: SourceRange | None) -> Node:
        node.source_range = loc
        return self.graph.insert_node(node)

    def constant(self, value: Any, loc: SourceRange | None, typ: Type | None = None) -> Value:
        if isinstance(value, bool):
            value = bool(value)
        elif isinstance(value, int) and type(value) is not int:
            value = int(value)
        return self.graph.insert_constant(value, typ, source_range=loc)

    def constant_int(self, expr: t.Expr, what: str) -> int:
        value = self.try_constant(expr)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise FrontendTypeError(f"{what} must be an integer constant", expr.range)

    def constant_str(self, expr: t.Expr, what: str) -> str:
        if isinstance(expr, t.Str):
            return expr.value
        raise FrontendTypeError(f"{what} must be a string literal", expr.range)

    def type_of(self, expr: t.Expr) -> Type:
        return self.types.read(expr)

    def type_from_python(self, obj: Any, loc: SourceRange | None) -> Type:
        from .type_annotations import type_from_python

        typ = type_from_python(obj)
        if typ is None:
            raise FrontendTypeError(f"unknown type annotation {obj!r}", loc)
        return typ

    def call_builtin(
        self,
        symbol: str,
        args: list[Value],
        kwargs: dict[str, Value],
        loc: SourceRange | None,
        *,
        call: t.Call | None = None,
    ) -> Value:
        """Insert a call of operator `symbol` matched against its overloads; its value."""
        from .builtin_functions import reflected_functions

        try:
            ops: list[Any] = list(registry.lookup(symbol))
        except UnknownOperatorError as exc:
            raise CallError(str(exc), loc) from None
        reflected = reflected_functions(symbol, self.compiler)
        candidates = ops + [f.schema for f in reflected]
        # Which overload matches depends only on the argument types (and on empty list
        # literals), so the winner is remembered and only it is matched next time.
        key = (
            symbol,
            len(candidates),
            _signature(args),
            tuple((k, *_arg_key(v)) for k, v in kwargs.items()),
        )
        index = _MATCHED.get(key)
        try:
            if index is not None:
                op, matched = match_schemas(
                    [candidates[index]], self.graph, args, kwargs, source_range=loc
                )
            else:
                op, matched = match_schemas(candidates, self.graph, args, kwargs, source_range=loc)
                _MATCHED[key] = next(i for i, c in enumerate(candidates) if c is op)
        except NoMatchingSchemaError as exc:
            raise CallError(
                exc.message, loc, hint=self._call_hint(call, args, candidates)
            ) from None
        if isinstance(op, Operator):
            out = emit_node(self.graph, op, matched, source_range=loc)
        else:
            fn = reflected[[f.schema for f in reflected].index(op)]
            out = self.inline_graph(fn.graph, matched.inputs)[0]
        if out is None:
            return self.constant(None, loc)
        if isinstance(out, tuple):
            return self.insert(self.graph.create_tuple(list(out)), loc).output()
        return out

    def _call_hint(
        self, call: t.Call | None, args: list[Value], candidates: list[Any]
    ) -> str | None:
        """A hint for a call no overload accepts: an unannotated parameter, an unrefined Optional."""
        for v in args:
            if isinstance(v.type, (OptionalType, UnionType)):
                return (
                    f"a value of type '{v.type.annotation_str()}' must be refined before this "
                    "call: check `x is not None` (or use isinstance) first"
                )
        if call is None:
            return None
        offset = len(args) - len(call.args)  # a method's receiver comes first
        for i, a in enumerate(call.args):
            hint = self.unannotated_hint(a)
            if hint is None:
                continue
            accepts_tensor = False
            has_position = False
            for c in candidates:
                schema = getattr(c, "schema", c)
                formals = [f for f in schema.arguments if not f.kwarg_only]
                j = i + offset
                if j < len(formals):
                    has_position = True
                    if TensorType.get().is_subtype_of(formals[j].type):
                        accepts_tensor = True
            if has_position and not accepts_tensor:
                return hint
        return None

    def inline_graph(self, callee: Any, inputs: list[Value]) -> list[Value]:
        """Copy a callee graph's nodes here, its inputs bound to `inputs`; its outputs."""
        g = self.graph
        env: dict[Value, Value] = dict(zip(callee.inputs, inputs, strict=True))
        for node in callee.nodes():
            copy = g.create_clone(node, lambda v: env[v])
            g.insert_node(copy)
            for a, b in zip(node.outputs, copy.outputs, strict=True):
                env[a] = b
        return [env[v] for v in callee.outputs]

    def emit_call_args(self, call: t.Call) -> tuple[list[Value], dict[str, Value]]:
        args: list[Value] = []
        for a in call.args:
            if isinstance(a, t.Starred):
                v = self.emit_expr(a.value)
                if not isinstance(v.type, TupleType):
                    raise NotSupportedError("only tuples can be unpacked with * in a call", a.range)
                args.extend(self.unpack_tuple(v, a.range))
            else:
                args.append(self.emit_expr(a))
        kwargs: dict[str, Value] = {}
        for kw in call.keywords:
            if kw.name in kwargs:
                raise CallError(f"keyword argument '{kw.name}' repeated", kw.range)
            kwargs[kw.name] = self.emit_expr(kw.value)
        return args, kwargs

    def convert_to_type(self, value: Value, typ: Type, loc: SourceRange) -> Value:
        """`value` implicitly converted towards `typ` where TorchScript (or Python) allows."""
        actual = value.type
        if actual.is_subtype_of(typ):
            return value
        if isinstance(typ, OptionalType) and not isinstance(actual, (OptionalType, NoneType)):
            return self.convert_to_type(value, typ.element, loc)
        g = self.graph
        if isinstance(actual, TupleType):
            if isinstance(typ, ListType) and all(
                e.is_subtype_of(typ.element) for e in actual.elements
            ):
                items = self.unpack_tuple(value, loc)
                return self.insert(g.create_list(typ.element, items), loc).output()
            if isinstance(typ, TupleType) and len(typ.elements) == len(actual.elements):
                items = self.unpack_tuple(value, loc)
                converted = [
                    self.convert_to_type(v, et, loc)
                    for v, et in zip(items, typ.elements, strict=True)
                ]
                return self.insert(g.create_tuple(converted), loc).output()
        if isinstance(actual, ListType) and isinstance(typ, ListType):
            node = value.node
            if node.kind is LIST_CONSTRUCT:
                if not node.inputs:
                    if not value.uses:
                        return value.set_type(typ)
                elif all(i.type.is_subtype_of(typ.element) for i in node.inputs):
                    return self.insert(g.create_list(typ.element, list(node.inputs)), loc).output()
        if isinstance(actual, DictType) and isinstance(typ, DictType):
            node = value.node
            if node.kind is DICT_CONSTRUCT and not node.inputs and not value.uses:
                return value.set_type(typ)
        if isinstance(actual, TensorType):
            symbol = {
                FloatType: "aten::FloatImplicit",
                IntType: "aten::IntImplicit",
                ComplexType: "aten::ComplexImplicit",
                NumberType: "aten::ScalarImplicit",
            }.get(type(typ))
            if symbol:
                return self.call_builtin(symbol, [value], {}, loc)
        elif isinstance(actual, NumberType):
            symbol = {
                FloatType: "aten::Float",
                IntType: "aten::Int",
                ComplexType: "aten::Complex",
            }.get(type(typ))
            if symbol:
                return self.call_builtin(symbol, [value], {}, loc)
        elif isinstance(actual, BoolType):
            if isinstance(typ, FloatType):
                return self.call_builtin("aten::Float", [value], {}, loc)
            if isinstance(typ, (IntType, NumberType)):
                return self.call_builtin("aten::Int", [value], {}, loc)
        elif isinstance(actual, IntType) and isinstance(typ, FloatType):
            if value.node.kind is CONSTANT:
                from ts_ir import constant_value

                return self.constant(float(constant_value(value)), loc)
            return self.call_builtin("aten::Float", [value], {}, loc)
        if isinstance(actual, StringType) and isinstance(typ, DeviceType):
            return self.call_builtin("aten::device", [value], {}, loc)
        return value

    def unpack_tuple(self, v: Value, loc: SourceRange | None) -> list[Value]:
        node = self.insert(self.graph.create_tuple_unpack(v), loc)
        return list(node.outputs)

    def unpack_value(self, v: Value, n: int, loc: SourceRange) -> list[Value]:
        """`a, b = v` for a tuple or a list value of `n` items."""
        typ = v.type
        if isinstance(typ, TupleType):
            if len(typ.elements) != n:
                raise FrontendTypeError(
                    f"cannot unpack a tuple of {len(typ.elements)} values into {n} targets", loc
                )
            return self.unpack_tuple(v, loc)
        if isinstance(typ, ListType):
            return list(self.insert(self.graph.create_list_unpack(v, n), loc).outputs)
        if isinstance(typ, TensorType):
            values = self.call_builtin("aten::unbind", [v], {}, loc)
            return list(self.insert(self.graph.create_list_unpack(values, n), loc).outputs)
        raise FrontendTypeError(f"cannot unpack a value of type '{typ.annotation_str()}'", loc)

    def to_list(self, v: Value, loc: SourceRange) -> Value:
        if isinstance(v.type, TupleType):
            element = unify_type_list(v.type.elements) if v.type.elements else TensorType.get()
            if element is None:
                raise FrontendTypeError(
                    f"a tuple of {v.type.annotation_str()} cannot be used as a list", loc
                )
            items = self.unpack_tuple(v, loc)
            return self.insert(self.graph.create_list(element, items), loc).output()
        return v

    def compile_callee(self, fn: Any, loc: SourceRange) -> Any:
        return self.compiler.compile_function(fn, call_site=loc, caller=self.name)

    def python_callee(self, fn: Any, loc: SourceRange) -> Any:
        return self.compiler.python_function(fn, loc)

    def function_constant(self, callee: Any, loc: SourceRange | None) -> Value:
        g = self.graph
        n = g.create(CONSTANT)
        n.s_("name", callee.name)
        n.output().set_type(FunctionType(callee, callee.name))
        return self.insert(n, loc).output()

    def emit_function_call(
        self,
        callee: Any,
        args: list[Value],
        kwargs: dict[str, Value],
        loc: SourceRange,
    ) -> Value:
        try:
            matched = match_schema(callee.schema, self.graph, args, kwargs, source_range=loc)
        except NoMatchingSchemaError as exc:
            raise CallError(exc.message, loc) from None
        fn = self.function_constant(callee, None)
        node = self.insert(self.graph.create(CALL_FUNCTION, [fn, *matched.inputs]), loc)
        node.output().set_type(matched.return_types[0])
        return node.output()

    def emit_fork(self, call: t.Call) -> Value:
        from .python_values import FunctionValue, fork_subgraph

        target = self.emit_sugared(call.args[0])
        if not isinstance(target, FunctionValue):
            raise NotSupportedError(
                f"fork() can only run a function, not {target.describe()}", call.args[0].range
            )
        callee = self.compile_callee(target.fn, call.range)
        rest = t.Call(call.range, call.func, call.args[1:], call.keywords)
        args, kwargs = self.emit_call_args(rest)
        try:
            matched = match_schema(callee.schema, self.graph, args, kwargs, source_range=call.range)
        except NoMatchingSchemaError as exc:
            raise CallError(exc.message, call.range) from None
        result = matched.return_types[0]
        sub = fork_subgraph(callee, [v.type for v in matched.inputs], result)
        for v, name in zip(sub.inputs, matched.inputs, strict=True):
            if name.has_debug_name():
                v.set_debug_name(name.debug_name)
        node = self.graph.create_with_subgraph(FORK)
        node.g_("Subgraph", sub)
        for v in matched.inputs:
            node.add_input(v)
        node.add_output(FutureType(result))
        sub_call = next(n for n in sub.nodes() if n.kind is CALL_FUNCTION)
        sub_call.source_range = call.range
        return self.insert(node, call.range).output()

    def dotted_name(self, e: t.Expr) -> str | None:
        if isinstance(e, t.Name):
            return e.id
        if isinstance(e, t.Attribute):
            base = self.dotted_name(e.value)
            return None if base is None else f"{base}.{e.name}"
        return None


_MATCHED: dict[Any, int] = {}


def _arg_key(v: Value) -> tuple[Any, bool]:
    node = v.node
    return v.type, node.kind is LIST_CONSTRUCT and not node.inputs


def _signature(args: list[Value]) -> tuple:
    return tuple(_arg_key(v) for v in args)


def _list_element_hint(hint: Type | None) -> Type | None:
    if isinstance(hint, OptionalType):
        hint = hint.element
    if isinstance(hint, ListType):
        return hint.element
    return None
