"""Special forms: the calls the emitter compiles from the syntax of their arguments.

Every other call evaluates its arguments first and hands them to the callee's
sugared value. These cannot:

- `isinstance(x, T)` and `torch.jit.isinstance(x, T)` read a type from `T`
  and refine `x` on each branch;
- `annotate(T, v)` reads a type from `T` and emits `v` expecting it;
- `fork(fn, *args)` puts the call of `fn` in the subgraph of a `prim::fork`;
- `list(iterable)` may need a loop to collect a `range` or a `zip`;
- `call("aten::op", ...)` (eager dispatch, as `nn.functional` uses it) takes
  the operator's name from a string literal, or from a conditional of two.

A sugared value is a special form when it is a `SpecialFormValue`; its
`form` names an entry of `SpecialForms.TABLE`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from ts_ir import (
    FunctionType,
    FutureType,
    Graph,
    ListType,
    StringType,
    TensorType,
    TupleType,
    Type,
    unify_types,
)
from ts_schema import NoMatchingSchemaError, match_schema

from . import tree as t
from .conditions import ConditionEmitter, CondResult
from .conversions import convert_to_type, to_list
from .emit_context import Expressions, FunctionState
from .errors import CallError, FrontendTypeError, NotSupportedError
from .function_values import FunctionValue
from .kinds import CALL_FUNCTION, CONSTANT, FORK, IF
from .loops import LoopEmitter
from .sugared_value import ConstantValue, SimpleValue, SugaredValue, kwarg_values, values_of


class SpecialForms:
    """The table of special forms, and the emission of each."""

    TABLE: ClassVar[dict[str, str]] = {
        "isinstance": "emit_isinstance",
        "annotate": "emit_annotate",
        "fork": "emit_fork",
        "list": "emit_list",
        "dispatch": "emit_dispatch",
    }

    def __init__(
        self,
        state: FunctionState,
        exprs: Expressions,
        conds: ConditionEmitter,
        loops: LoopEmitter,
    ) -> None:
        self.state = state
        self.exprs = exprs
        self.conds = conds
        self.loops = loops
        self.handlers: dict[str, Callable[[t.Call, Type | None], SugaredValue]] = {
            form: getattr(self, method) for form, method in self.TABLE.items()
        }

    def emit(self, form: str, call: t.Call, hint: Type | None) -> SugaredValue:
        return self.handlers[form](call, hint)

    def emit_isinstance(self, call: t.Call, hint: Type | None) -> SugaredValue:
        if len(call.args) != 2 or call.keywords:
            raise CallError("isinstance() expects a value and a type", call.range)
        value = self.exprs.emit_expr(call.args[0])
        spec = call.args[1]
        specs = spec.elts if isinstance(spec, t.TupleLiteral) else [spec]
        types = [self.state.type_of(s) for s in specs]
        name = t.dotted_name(call.args[0])
        cond = self.conds.emit_isinstance(value, name, types, call.range)
        return CondResult(cond, self.state)

    def emit_annotate(self, call: t.Call, hint: Type | None) -> SugaredValue:
        if len(call.args) != 2 or call.keywords:
            raise CallError("annotate() expects a type and a value", call.range)
        typ = self.state.type_of(call.args[0])
        value = self.exprs.emit_expr(call.args[1], typ)
        value = convert_to_type(self.state, value, typ, call.args[1].range)
        if not value.type.is_subtype_of(typ):
            raise FrontendTypeError(
                f"annotate() expected a value of type '{typ.annotation_str()}' but found "
                f"'{value.type.annotation_str()}'",
                call.args[1].range,
            )
        return SimpleValue(value)

    def emit_fork(self, call: t.Call, hint: Type | None) -> SugaredValue:
        """`fork(fn, *args)`: a `prim::fork` whose subgraph calls `fn`; its value is a Future."""
        state = self.state
        if not call.args:
            raise CallError("fork() expects a function to run", call.range)
        target = self.exprs.emit_sugared(call.args[0])
        if not isinstance(target, FunctionValue):
            raise NotSupportedError(
                f"fork() can only run a function, not {target.describe()}", call.args[0].range
            )
        args, kwargs = self.exprs.emit_args(call.args[1:], call.keywords)
        callee = state.compiler.compile_function(
            target.fn, call_site=call.range, caller=state.function_name
        )
        try:
            matched = match_schema(
                callee.schema,
                state.graph,
                values_of(state, args),
                kwarg_values(state, kwargs),
                source_range=call.range,
            )
        except NoMatchingSchemaError as exc:
            raise CallError(exc.message, call.range) from None
        result = matched.return_types[0]
        sub = _fork_subgraph(callee, [v.type for v in matched.inputs], result)
        for v, outer in zip(sub.inputs, matched.inputs, strict=True):
            if outer.has_debug_name():
                v.set_debug_name(outer.debug_name)
        node = state.graph.create_with_subgraph(FORK)
        node.g_("Subgraph", sub)
        for v in matched.inputs:
            node.add_input(v)
        node.add_output(FutureType(result))
        sub_call = next(n for n in sub.nodes() if n.kind is CALL_FUNCTION)
        sub_call.source_range = call.range
        return SimpleValue(state.insert(node, call.range).output())

    def emit_list(self, call: t.Call, hint: Type | None) -> SugaredValue:
        state = self.state
        loc = call.range
        if call.keywords or len(call.args) > 1:
            raise CallError("list() expects at most one argument", loc)
        if not call.args:
            empty = state.graph.create_list(TensorType.get(), [])
            return SimpleValue(state.insert(empty, loc).output())
        arg = call.args[0]
        sugared = self.exprs.emit_sugared(arg)
        if not isinstance(sugared, (SimpleValue, ConstantValue)):
            iteration = sugared.iterate(state, arg.range)
            return SimpleValue(self.loops.materialize(iteration, loc))
        v = sugared.as_value(state, arg.range)
        if isinstance(v.type, TupleType):
            return SimpleValue(to_list(state, v, loc))
        if isinstance(v.type, TensorType):
            return SimpleValue(state.call_builtin("aten::unbind", [v], {}, loc))
        if isinstance(v.type, (ListType, StringType)):
            return SimpleValue(state.call_builtin("aten::list", [v], {}, loc))
        return SimpleValue(self.loops.materialize(sugared.iterate(state, loc), loc))

    def emit_dispatch(self, call: t.Call, hint: Type | None) -> SugaredValue:
        """`call("aten::relu_" if inplace else "aten::relu", x)`: a call of that operator."""
        state = self.state
        loc = call.range
        if not call.args:
            raise CallError("call() needs the name of an operator", loc)
        name = call.args[0]

        def emit(symbol: str) -> Any:
            return state.call_builtin(symbol, values, kw, loc)

        if isinstance(name, t.Str):
            args, kwargs = self.exprs.emit_args(call.args[1:], call.keywords)
            values, kw = values_of(state, args), kwarg_values(state, kwargs)
            return SimpleValue(emit(name.value))
        if (
            isinstance(name, t.IfExp)
            and isinstance(name.body, t.Str)
            and isinstance(name.orelse, t.Str)
        ):
            cond = self.exprs.emit_cond(name.cond)
            args, kwargs = self.exprs.emit_args(call.args[1:], call.keywords)
            values, kw = values_of(state, args), kwarg_values(state, kwargs)
            if cond.static is not None:
                return SimpleValue(emit((name.body if cond.static else name.orelse).value))
            g = state.graph
            assert cond.value is not None
            n = state.insert(g.create(IF, [cond.value], 0), loc)
            outs = []
            for branch in (name.body, name.orelse):
                block = n.add_block()
                with g.inserting_before(block.return_node):
                    v = emit(branch.value)
                block.register_output(v)
                outs.append(v)
            return SimpleValue(
                n.add_output(unify_types(outs[0].type, outs[1].type) or outs[0].type)
            )
        raise NotSupportedError(
            "call() in compiled code needs an operator name that is a string literal", name.range
        )


def _fork_subgraph(callee: Any, arg_types: list[Type], result: Type) -> Graph:
    """The subgraph of a `prim::fork`: it calls `callee` on its inputs."""
    g = Graph()
    inputs = [g.add_input(None, typ) for typ in arg_types]
    const = g.create(CONSTANT)
    const.s_("name", callee.name)
    const.output().set_type(FunctionType(callee, callee.name))
    fn = g.insert_node(const).output()
    node = g.insert_node(g.create(CALL_FUNCTION, [fn, *inputs]))
    node.output().set_type(result)
    g.register_output(node.output())
    return g
