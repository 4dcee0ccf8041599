"""The IR emitter: a function's tree to a graph of loads and stores, then SSA.

`FunctionEmitter` walks a `Def` with one `visit_X` method per statement,
type-checking as it goes and emitting nodes at the graph's insertion point.
It is assembled from parts that share one `FunctionState` (the graph, the
variables, the context sugared values emit through): `ExprEmitter` for
expressions (which holds the parts for conditions, subscripts, assignment
targets, loops and special forms) and `SignatureEmitter` for the
parameters. Variables are `prim::Store`/`prim::Load` through the
`Environment`; `if` and loops are `prim::If` and `prim::Loop` nodes with
blocks (a loop also has a condition block); `return`, `break` and
`continue` are `prim::ReturnStmt`, `prim::BreakStmt` and
`prim::ContinueStmt` nodes wherever they appear. `convert_to_ssa` then
gives every block its inputs and outputs and erases the loads and stores,
and `exit_transform` removes the exit statements, as TorchScript's `to_ir`
does. The cleanup passes finish the graph.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ts_ir import (
    Block,
    ClassType,
    Graph,
    Node,
    NoneType,
    NumberType,
    OptionalType,
    SourceRange,
    StringType,
    TensorType,
    Type,
    UnionType,
    Value,
    unify_types,
)
from ts_schema import Argument, FunctionSchema

from . import tree as t
from .cleanup import run_cleanup
from .context import Compiler
from .conversions import convert_to_type, emit_raise
from .convert_to_ssa import convert_to_ssa
from .emit_context import FunctionState
from .environment import Frame
from .errors import (
    FrontendError,
    FrontendTypeError,
    NotSupportedError,
    UninitializedVariableError,
)
from .expressions import ExprEmitter
from .function_values import ExceptionClassValue, ExceptionValue, register_user_exception
from .kinds import BREAK_STMT, CONTINUE_STMT, ENTER, EXIT, IF, RAISE_EXCEPTION, RETURN_STMT, STORE
from .operators import augmented_op
from .python_values import GradModeContext
from .refinement import CondValue, Refinement
from .resolver import Resolver
from .signature import SignatureEmitter
from .sugared_value import LoopIteration, SimpleValue, StaticIteration, SugaredValue

_STATEMENTS: tuple[type, ...] = (
    t.Assign,
    t.AugAssign,
    t.If,
    t.While,
    t.For,
    t.With,
    t.Return,
    t.Raise,
    t.Assert,
    t.Delete,
    t.ExprStmt,
    t.Pass,
    t.Break,
    t.Continue,
    t.Def,
    t.Unsupported,
)


class FunctionEmitter:
    """Compiles one function definition to a graph and a schema."""

    def __init__(
        self,
        compiler: Compiler,
        resolver: Resolver,
        definition: t.Def,
        *,
        name: str | None = None,
        self_type: ClassType | None = None,
        self_value_factory: Callable[[Value], SugaredValue] | None = None,
        defaults: Mapping[str, Any] | None = None,
    ) -> None:
        self.definition = definition
        self.name = name or definition.name
        self.state = FunctionState(compiler, resolver, self.name)
        self.graph = self.state.graph
        self.exprs = ExprEmitter(self.state)
        self.signature = SignatureEmitter(
            self.state, self.exprs, self_type, self_value_factory, defaults
        )
        self.declared_return: Type | None = None
        self.merged_return: Type | None = None
        self._visitors = {cls: getattr(self, "visit_" + cls.__name__) for cls in _STATEMENTS}

    # -- the definition

    def emit(self) -> tuple[Graph, FunctionSchema]:
        d = self.definition
        g = self.graph
        env = self.state.env
        frame = env.push(g.block)
        arguments = self.signature.emit_params(d)
        if d.returns is not None:
            self.declared_return = self.state.type_of(d.returns)
        elif d.type_comment is not None and d.type_comment.returns is not None:
            self.declared_return = self.state.type_of(d.type_comment.returns)
        self.emit_statements(d.body)
        self.handle_maybe_no_return(d)
        ret_type = self.merged_return or NoneType.get()
        placeholder = g.insert_node(g.create_uninitialized(ret_type))
        g.block.register_output(placeholder.output())
        assert env.frame is frame
        env.pop()
        convert_to_ssa(g)
        run_cleanup(g)
        schema = FunctionSchema(self.name, "", arguments, [Argument("", ret_type)])
        return g, schema

    def handle_maybe_no_return(self, d: t.Def) -> None:
        block = self.graph.block
        if block not in self.state.exit_blocks:
            declared = self.declared_return
            if declared is not None and not isinstance(declared, (NoneType, OptionalType)):
                raise FrontendTypeError(
                    f"function '{d.name}' is annotated to return "
                    f"'{declared.annotation_str()}' but does not return along all paths",
                    d.range,
                )
            with self.graph.inserting_before(block.return_node):
                none = self.state.constant(None, d.range)
                self.emit_return_value(none, d.range)
        elif self.merged_return is None:
            self.merged_return = self.declared_return or NoneType.get()

    # -- statements

    def emit_statements(self, stmts: list[t.Stmt]) -> None:
        visitors = self._visitors
        state = self.state
        for stmt in stmts:
            visitors[type(stmt)](stmt)
            if state.env.block in state.exit_blocks:
                return

    def visit_Pass(self, stmt: t.Pass) -> None:
        pass

    def visit_Def(self, stmt: t.Def) -> None:
        raise NotSupportedError("nested function definitions are not supported", stmt.range)

    def visit_Unsupported(self, stmt: t.Unsupported) -> None:
        raise NotSupportedError(f"{stmt.what} are not supported in compiled code", stmt.range)

    def visit_ExprStmt(self, stmt: t.ExprStmt) -> None:
        if isinstance(stmt.value, t.Str):
            return  # a docstring
        self.exprs.emit_sugared(stmt.value)

    # assignments

    def visit_Assign(self, stmt: t.Assign) -> None:
        state = self.state
        if stmt.value is None:
            raise NotSupportedError(
                "an annotation without a value is not supported; assign a value", stmt.range
            )
        annotated = None
        if stmt.annotation is not None:
            annotated = state.type_of(stmt.annotation)
            if len(stmt.targets) != 1 or not isinstance(
                stmt.targets[0], (t.Name, t.Attribute, t.Subscript)
            ):
                raise NotSupportedError(
                    "an annotated assignment needs a single target", stmt.targets[0].range
                )
        if annotated is not None:
            value = self.exprs.emit_expr(stmt.value, annotated)
            value = convert_to_type(state, value, annotated, stmt.value.range)
            if not value.type.is_subtype_of(annotated):
                raise FrontendTypeError(
                    f"variable '{stmt.targets[0].range.text()}' is annotated with type "
                    f"{annotated.annotation_str()} but is being assigned a value of type "
                    f"{value.type.annotation_str()}",
                    stmt.value.range,
                )
            rhs: SugaredValue = SimpleValue(value)
        else:
            rhs = self.exprs.emit_sugared(stmt.value)
        for target in stmt.targets:
            self.exprs.targets.assign(target, rhs, stmt.value.range, annotated)

    def visit_AugAssign(self, stmt: t.AugAssign) -> None:
        state = self.state
        exprs = self.exprs
        target = stmt.target
        if isinstance(target, t.Name):
            lhs = exprs.emit_expr(target)
            result = augmented_op(state, stmt.op, lhs, exprs.emit_expr(stmt.value), stmt.range)
            exprs.targets.set_var(target.id, SimpleValue(result), target.range)
        elif isinstance(target, t.Attribute):
            base = exprs.emit_sugared(target.value)
            lhs = base.attr(state, target.range, target.name).as_value(state, target.range)
            result = augmented_op(state, stmt.op, lhs, exprs.emit_expr(stmt.value), stmt.range)
            if not (isinstance(lhs.type, TensorType) and result is lhs):
                base.set_attr(state, target.range, target.name, result)
        elif isinstance(target, t.Subscript):
            exprs.subscripts.emit_augmented_subscript(stmt)
        else:
            raise NotSupportedError("unsupported target of an augmented assignment", target.range)

    # control flow

    def visit_If(self, stmt: t.If) -> None:
        cond = self.exprs.emit_cond(stmt.cond)
        self.emit_if_else(stmt.range, cond, stmt.body, stmt.orelse)

    def emit_if_else(
        self,
        loc: SourceRange,
        cond: CondValue,
        true_stmts: list[t.Stmt],
        false_stmts: list[t.Stmt],
    ) -> None:
        state = self.state
        g = self.graph
        if cond.static is not None:
            refs = cond.refinements.true if cond.static else cond.refinements.false
            state.insert_refinements(loc, refs)
            self.emit_statements(true_stmts if cond.static else false_stmts)
            return
        assert cond.value is not None
        n = state.insert(g.create(IF, [cond.value], 0), loc)
        true_block, false_block = n.add_block(), n.add_block()
        save_true = self.emit_branch(true_block, true_stmts, cond.refinements.true)
        save_false = self.emit_branch(false_block, false_stmts, cond.refinements.false)
        true_exits = true_block in state.exit_blocks
        false_exits = false_block in state.exit_blocks
        if true_exits and false_exits:
            state.exit_blocks.add(state.env.block)
        self.merge_branch_variables(loc, n, save_true, save_false, true_exits, false_exits)
        # a variable refined in the branch that does not exit leaves the if refined (it is
        # an output of the if); refined attributes are recorded again after the if
        if true_exits and not false_exits:
            state.insert_refinements(loc, [r for r in cond.refinements.false if "." in r.name])
        elif false_exits and not true_exits:
            state.insert_refinements(loc, [r for r in cond.refinements.true if "." in r.name])

    def emit_branch(
        self, block: Block, stmts: list[t.Stmt], refinements: list[Refinement]
    ) -> Frame:
        env = self.state.env
        env.push(block)
        with self.graph.inserting_before(block.return_node):
            self.state.insert_refinements(None, refinements)
            self.emit_statements(stmts)
        return env.pop()

    def merge_branch_variables(
        self,
        loc: SourceRange,
        n: Node,
        save_true: Frame,
        save_false: Frame,
        true_exits: bool,
        false_exits: bool,
    ) -> None:
        env = self.state.env
        mutated: list[str] = []
        for frame, other, other_exits, branch in (
            (save_true, save_false, false_exits, "false"),
            (save_false, save_true, true_exits, "true"),
        ):
            for v in frame.defined_variables():
                if v in mutated:
                    continue
                if v in other.types or env.find_type_in_any_frame(v) is not None or other_exits:
                    mutated.append(v)
                elif v in frame.types:
                    env.set_error(v, _undefined_in_branch(v, branch, loc))
        for x in sorted(mutated):
            tv = save_true.types.get(x) or env.find_type_in_any_frame(x)
            fv = save_false.types.get(x) or env.find_type_in_any_frame(x)
            if true_exits and false_exits:
                continue
            if true_exits:
                assert fv is not None
                tv = fv
                self._store_uninitialized(n.blocks[0], x, fv)
            elif false_exits:
                assert tv is not None
                fv = tv
                self._store_uninitialized(n.blocks[1], x, tv)
            assert tv is not None and fv is not None
            full = env.find_type_in_any_frame(x)
            default_to_union = isinstance(full, (UnionType, OptionalType, NumberType))
            unified = unify_types(tv, fv, default_to_union=default_to_union)
            if unified is None:
                message = (
                    f"type mismatch: '{x}' is set to type {tv.annotation_str()} in the true "
                    f"branch and type {fv.annotation_str()} in the false branch"
                )
                hint = (
                    "give the variable the same type in both branches, or annotate it before "
                    f"the if (e.g. {x}: Union[{tv.annotation_str()}, {fv.annotation_str()}])"
                )
                if env.is_defined_in_parent(x) or x in env.frame.types:
                    raise FrontendTypeError(message, loc, hint=hint)
                env.set_error(x, _type_mismatch(message, hint, loc))
                continue
            env.set_type(x, unified)

    def _store_uninitialized(self, block: Block, name: str, typ: Type) -> None:
        g = self.graph
        with g.inserting_before(block.return_node):
            u = g.insert_node(g.create_uninitialized(typ)).output()
            store = g.insert_node(g.create(STORE, [u], 0))
            store.s_("name", name)

    # loops

    def visit_While(self, stmt: t.While) -> None:
        if stmt.orelse:
            raise NotSupportedError(
                "'else' clauses of loops are not supported", stmt.orelse[0].range
            )
        self.exprs.loops.emit_loop(
            stmt.range, None, None, stmt.cond, lambda: self.emit_statements(stmt.body)
        )

    def visit_For(self, stmt: t.For) -> None:
        if stmt.orelse:
            raise NotSupportedError(
                "'else' clauses of loops are not supported", stmt.orelse[0].range
            )
        iterable = self.exprs.emit_sugared(stmt.iter)
        iteration = iterable.iterate(self.state, stmt.iter.range)
        if isinstance(iteration, StaticIteration):
            self.emit_unrolled(stmt, iteration)
            return
        assert isinstance(iteration, LoopIteration)
        self.exprs.loops.emit_loop(
            stmt.range, iteration, stmt.target, None, lambda: self.emit_statements(stmt.body)
        )

    def emit_unrolled(self, stmt: t.For, iteration: StaticIteration) -> None:
        state = self.state
        state.loop_kinds.append("unrolled")
        try:
            for item in iteration.items:
                self.exprs.targets.assign(stmt.target, item, stmt.iter.range)
                self.emit_statements(stmt.body)
                if state.env.block in state.exit_blocks:
                    break
        finally:
            state.loop_kinds.pop()

    def visit_Break(self, stmt: t.Break) -> None:
        self._loop_exit(stmt, BREAK_STMT, "break")

    def visit_Continue(self, stmt: t.Continue) -> None:
        self._loop_exit(stmt, CONTINUE_STMT, "continue")

    def _loop_exit(self, stmt: t.Stmt, kind: str, word: str) -> None:
        state = self.state
        if not state.loop_kinds:
            raise FrontendError(f"'{word}' outside a loop", stmt.range)
        if state.loop_kinds[-1] == "unrolled":
            raise NotSupportedError(
                f"'{word}' is not supported in a loop over a tuple or module list, which is "
                "unrolled at compile time",
                stmt.range,
            )
        state.insert(self.graph.create(kind, [], 0), stmt.range)
        state.exit_blocks.add(state.env.block)

    # exits

    def visit_Return(self, stmt: t.Return) -> None:
        if stmt.value is None:
            value = self.state.constant(None, stmt.range)
        else:
            value = self.exprs.emit_expr(stmt.value, self.declared_return)
        self.emit_return_value(value, stmt.value.range if stmt.value is not None else stmt.range)

    def emit_return_value(self, value: Value, loc: SourceRange) -> None:
        state = self.state
        declared = self.declared_return
        if declared is not None:
            value = convert_to_type(state, value, declared, loc)
            if not value.type.is_subtype_of(declared):
                raise FrontendTypeError(
                    f"return value of type '{value.type.annotation_str()}' does not match the "
                    f"declared return type '{declared.annotation_str()}'",
                    loc,
                )
            self.merged_return = declared
        elif self.merged_return is None:
            self.merged_return = value.type
        else:
            merged = unify_types(self.merged_return, value.type)
            if merged is None:
                raise FrontendTypeError(
                    f"a previous return statement returned a value of type "
                    f"'{self.merged_return.annotation_str()}' but this one returns a value of "
                    f"type '{value.type.annotation_str()}'",
                    loc,
                    hint="annotate the function's return type (e.g. Optional[...] or Union[...])",
                )
            self.merged_return = merged
        state.insert(self.graph.create(RETURN_STMT, [value], 0), loc)
        state.exit_blocks.add(state.env.block)

    def visit_Raise(self, stmt: t.Raise) -> None:
        state = self.state
        if stmt.exc is None:
            raise NotSupportedError("a bare 'raise' is not supported", stmt.range)
        exc = self.exprs.emit_sugared(stmt.exc)
        if isinstance(exc, ExceptionClassValue):
            exc = ExceptionValue(exc, state.constant("", stmt.exc.range))
        if not isinstance(exc, ExceptionValue):
            raise NotSupportedError(
                f"can only raise exceptions (an exception class or instance), not {exc.describe()}",
                stmt.exc.range,
            )
        qualified = exc.cls.qualified_name
        register_user_exception(exc.cls.cls, qualified)
        emit_raise(state, exc.message, state.constant(qualified, stmt.exc.range), stmt.range)
        state.exit_blocks.add(state.env.block)

    def visit_Assert(self, stmt: t.Assert) -> None:
        state = self.state
        cond = self.exprs.emit_cond(stmt.test)
        g = self.graph
        if cond.static is True:
            return
        if stmt.msg is None:
            message: Value = state.constant("AssertionError: ", stmt.range)
        elif isinstance(stmt.msg, t.Str):
            message = state.constant(f"AssertionError: {stmt.msg.value}", stmt.msg.range)
        else:
            text = self.exprs.emit_expr(stmt.msg)
            if not text.type.is_subtype_of(StringType.get()):
                text = state.call_builtin("aten::str", [text], {}, stmt.msg.range)
            prefix = state.constant("AssertionError: ", stmt.range)
            message = state.call_builtin("aten::add", [prefix, text], {}, stmt.range)
        none = state.constant(None, stmt.range)
        if cond.static is False:
            emit_raise(state, message, none, stmt.range)
            state.exit_blocks.add(state.env.block)
            return
        assert cond.value is not None
        n = state.insert(g.create(IF, [cond.value], 0), stmt.range)
        n.add_block()
        fail = n.add_block()
        state.env.push(fail)
        with g.inserting_before(fail.return_node):
            state.insert(g.create(RAISE_EXCEPTION, [message, none], 0), stmt.range)
        state.env.pop()
        state.insert_refinements(stmt.range, cond.refinements.true)

    def visit_Delete(self, stmt: t.Delete) -> None:
        env = self.state.env
        for target in stmt.targets:
            if isinstance(target, t.Subscript):
                self.exprs.subscripts.emit_delete_subscript(target)
            elif isinstance(target, t.Name):
                if env.find_type_in_any_frame(target.id) is None:
                    raise FrontendError(
                        f"cannot delete undefined variable '{target.id}'", target.range
                    )
                env.set_error(target.id, _deleted(target.id, target.range))
            else:
                raise NotSupportedError("can only delete variables and subscripts", target.range)

    def visit_With(self, stmt: t.With) -> None:
        state = self.state
        exits: list[tuple[str, Value, SourceRange]] = []
        g = self.graph
        for item in stmt.items:
            ctx = self.exprs.emit_sugared(item.expr)
            if isinstance(ctx, GradModeContext):
                prev = state.call_builtin("aten::is_grad_enabled", [], {}, item.range)
                state.call_builtin("aten::set_grad_enabled", [ctx.enabled], {}, item.range)
                exits.append(("grad", prev, item.range))
                if item.target is not None:
                    raise NotSupportedError(
                        "a grad mode context has no value to bind", item.target.range
                    )
                continue
            obj = ctx.as_value(state, item.range)
            if not isinstance(obj.type, ClassType):
                raise NotSupportedError(
                    f"a 'with' statement needs an object with __enter__ and __exit__, not "
                    f"{ctx.describe()}",
                    item.expr.range,
                )
            compiler = state.compiler
            enter_fn = compiler.method(obj.type, "__enter__", item.range, self.name)
            compiler.method(obj.type, "__exit__", item.range, self.name)
            enter = state.insert(g.create(ENTER, [obj]), item.range)
            enter.output().set_type(enter_fn.schema.returns[0].type)
            if item.target is not None:
                self.exprs.targets.assign(item.target, SimpleValue(enter.output()), item.range)
            exits.append(("object", obj, item.range))
        self.emit_statements(stmt.body)
        if state.env.block in state.exit_blocks:
            raise NotSupportedError(
                "return, break or continue inside a 'with' block is not supported", stmt.range
            )
        for kind, value, loc in reversed(exits):
            if kind == "grad":
                state.call_builtin("aten::set_grad_enabled", [value], {}, loc)
            else:
                state.insert(g.create(EXIT, [value], 0), loc)


def _type_mismatch(message: str, hint: str, if_range: SourceRange) -> Any:
    def make(use: SourceRange) -> FrontendError:
        return FrontendTypeError(message, if_range, hint=hint)

    return make


def _undefined_in_branch(name: str, branch: str, if_range: SourceRange) -> Any:
    line = if_range.file_line_col()[1]

    def make(use: SourceRange) -> FrontendError:
        return UninitializedVariableError(
            f"'{name}' is not defined in the {branch} branch of the if at line {line}, so it "
            "may be used before it is assigned",
            use,
            hint=f"assign '{name}' in both branches, or before the if",
        )

    return make


def _deleted(name: str, where: SourceRange) -> Any:
    def make(use: SourceRange) -> FrontendError:
        return UninitializedVariableError(f"'{name}' is used after it was deleted", use)

    return make
