"""The IR emitter: a function's tree to a graph of loads and stores, then SSA.

`FunctionEmitter` walks a `Def` with one `visit_X` method per statement
(expressions are in `expr_emitter`, conditions in `conditions`, calls in
`calls`, subscripts in `indexing`, parameters in `signature`), type-checking
as it goes and emitting nodes at the graph's insertion point. Variables are
`prim::Store`/`prim::Load` through the `Environment`; `if` and loops are
`prim::If` and `prim::Loop` nodes with blocks (a loop also has a condition
block); `return`, `break` and `continue` are `prim::ReturnStmt`,
`prim::BreakStmt` and `prim::ContinueStmt` nodes wherever they appear.
`convert_to_ssa` then gives every block its inputs and outputs and erases
the loads and stores, and `exit_transform` removes the exit statements, as
TorchScript's `to_ir` does. The cleanup passes finish the graph.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ts_ir import (
    Block,
    ClassType,
    Graph,
    IntType,
    Node,
    NoneType,
    NumberType,
    OptionalType,
    SourceRange,
    TensorType,
    Type,
    UnionType,
    Value,
    unify_types,
)
from ts_schema import Argument, FunctionSchema

from . import tree as t
from .cleanup import run_cleanup
from .convert_to_ssa import convert_to_ssa
from .environment import Environment, Frame, meaningful_name
from .errors import (
    FrontendError,
    FrontendTypeError,
    NotSupportedError,
    UninitializedVariableError,
)
from .kinds import (
    BREAK_STMT,
    CONTINUE_STMT,
    ENTER,
    EXIT,
    IF,
    LOOP,
    RAISE_EXCEPTION,
    RETURN_STMT,
    STORE,
)
from .python_values import ExceptionClassValue, ExceptionValue, GradModeContext
from .refinement import CondValue
from .signature import SignatureEmitter
from .sugared_value import (
    INT64_MAX,
    LoopIteration,
    SimpleValue,
    StaticIteration,
    SugaredValue,
)
from .type_annotations import TypeReader

if TYPE_CHECKING:
    from .resolver import Resolver
    from .script import ScriptCompiler

_STMT_KINDS = (
    "Assign",
    "AugAssign",
    "If",
    "While",
    "For",
    "With",
    "Return",
    "Raise",
    "Assert",
    "Delete",
    "ExprStmt",
    "Pass",
    "Break",
    "Continue",
    "Def",
    "Unsupported",
)


class FunctionEmitter(SignatureEmitter):
    """Compiles one function definition to a graph and a schema."""

    def __init__(
        self,
        compiler: ScriptCompiler,
        resolver: Resolver,
        definition: t.Def,
        *,
        name: str | None = None,
        self_type: ClassType | None = None,
        self_value_factory: Any = None,
    ) -> None:
        self.compiler = compiler
        self.resolver = resolver
        self.definition = definition
        self.name = name or definition.name
        self.self_type = self_type
        self.self_value_factory = self_value_factory
        self.graph = Graph()
        self.env = Environment(self.graph, resolver)
        self.types = TypeReader(resolver)
        self.exit_blocks: set[Block] = set()
        self.loop_kinds: list[str] = []
        self.declared_return: Type | None = None
        self.merged_return: Type | None = None
        self.unannotated: set[str] = set()
        self._visitors = {k: getattr(self, "visit_" + k) for k in _STMT_KINDS}

    # -- the definition

    def emit(self) -> tuple[Graph, FunctionSchema]:
        d = self.definition
        g = self.graph
        frame = self.env.push(g.block)
        arguments = self.emit_params(d)
        if d.returns is not None:
            self.declared_return = self.type_of(d.returns)
        elif d.type_comment is not None:
            self.declared_return = self.type_of(d.type_comment.returns)
        self.emit_statements(d.body)
        self.handle_maybe_no_return(d)
        ret_type = self.merged_return or NoneType.get()
        placeholder = g.insert_node(g.create_uninitialized(ret_type))
        g.block.register_output(placeholder.output())
        assert self.env.frame is frame
        self.env.pop()
        convert_to_ssa(g)
        run_cleanup(g)
        schema = FunctionSchema(self.name, "", arguments, [Argument("", ret_type)])
        return g, schema

    def handle_maybe_no_return(self, d: t.Def) -> None:
        block = self.graph.block
        if block not in self.exit_blocks:
            declared = self.declared_return
            if declared is not None and not isinstance(declared, (NoneType, OptionalType)):
                raise FrontendTypeError(
                    f"function '{d.name}' is annotated to return "
                    f"'{declared.annotation_str()}' but does not return along all paths",
                    d.range,
                )
            with self.graph.inserting_before(block.return_node):
                none = self.constant(None, d.range)
                self.emit_return_value(none, d.range)
        elif self.merged_return is None:
            self.merged_return = self.declared_return or NoneType.get()

    # -- statements

    def emit_statements(self, stmts: list[t.Stmt]) -> None:
        visitors = self._visitors
        env = self.env
        for stmt in stmts:
            visitors[type(stmt).__name__](stmt)
            if env.block in self.exit_blocks:
                return

    def visit_Pass(self, stmt: t.Pass) -> None:
        pass

    def visit_Def(self, stmt: t.Def) -> None:
        raise NotSupportedError("nested function definitions are not supported", stmt.range)

    def visit_Unsupported(self, stmt: t.Unsupported) -> None:
        raise NotSupportedError(f"{stmt.what} are not supported in compiled code", stmt.range)

    def visit_ExprStmt(self, stmt: t.ExprStmt) -> None:
        value = stmt.value
        if isinstance(value, t.Str):
            return  # a docstring
        self.emit_sugared(value)

    # assignments

    def visit_Assign(self, stmt: t.Assign) -> None:
        if stmt.value is None:
            raise NotSupportedError(
                "an annotation without a value is not supported; assign a value", stmt.range
            )
        annotated = None
        if stmt.annotation is not None:
            annotated = self.type_of(stmt.annotation)
            if len(stmt.targets) != 1 or not isinstance(
                stmt.targets[0], (t.Name, t.Attribute, t.Subscript)
            ):
                raise NotSupportedError(
                    "an annotated assignment needs a single target", stmt.targets[0].range
                )
        if annotated is not None:
            value = self.emit_expr(stmt.value, annotated)
            value = self.convert_to_type(value, annotated, stmt.value.range)
            if not value.type.is_subtype_of(annotated):
                raise FrontendTypeError(
                    f"variable '{stmt.targets[0].range.text()}' is annotated with type "
                    f"{annotated.annotation_str()} but is being assigned a value of type "
                    f"{value.type.annotation_str()}",
                    stmt.value.range,
                )
            rhs: SugaredValue = SimpleValue(value)
        else:
            rhs = self.emit_sugared(stmt.value)
        for target in stmt.targets:
            self.assign(target, rhs, stmt.value.range, annotated)

    def assign(
        self, target: t.Expr, rhs: SugaredValue, loc: SourceRange, annotated: Type | None = None
    ) -> None:
        if isinstance(target, t.Name):
            self.set_var(target.id, rhs, target.range, annotated)
        elif isinstance(target, (t.TupleLiteral, t.ListLiteral)):
            self.assign_unpack(target, rhs, loc)
        elif isinstance(target, t.Subscript):
            self.emit_subscript_assign(target, rhs.as_value(self, loc), loc)
        elif isinstance(target, t.Attribute):
            base = self.emit_sugared(target.value)
            value = rhs.as_value(self, loc)
            base.set_attr(self, target.range, target.name, value)
            self.forget_refinement(self.dotted_name(target))
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
        items = rhs.static_items()
        if items is None:
            v = rhs.as_value(self, loc)
            items = [SimpleValue(x) for x in self.unpack_value(v, n, loc)]
        if len(items) != n:
            raise FrontendTypeError(
                f"cannot unpack {len(items)} values into {n} targets", target.range
            )
        for elt, item in zip(target.elts, items, strict=True):
            self.assign(elt, item, loc)

    def set_var(
        self, name: str, value: SugaredValue, loc: SourceRange, annotated: Type | None = None
    ) -> None:
        """Bind `name`: a store for first-class values, a sugared binding otherwise."""
        env = self.env
        if not isinstance(value, SimpleValue):
            try:
                simple = value.as_value(self, loc)
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
            v = env.check_reassignment(name, v, loc, lambda x, ty: self.convert_to_type(x, ty, loc))
        if not v.has_debug_name() and meaningful_name(name) and v.node.owning_block is env.block:
            v.set_debug_name(name)
        env.insert_store(name, loc, v, annotated or v.type)
        self.forget_refinement(name)

    def visit_AugAssign(self, stmt: t.AugAssign) -> None:
        target = stmt.target
        if isinstance(target, t.Name):
            lhs = self.emit_expr(target)
            result = self.emit_augmented(stmt, lhs)
            self.set_var(target.id, SimpleValue(result), target.range)
        elif isinstance(target, t.Attribute):
            base = self.emit_sugared(target.value)
            lhs = base.attr(self, target.range, target.name).as_value(self, target.range)
            result = self.emit_augmented(stmt, lhs)
            if not (isinstance(lhs.type, TensorType) and result is lhs):
                base.set_attr(self, target.range, target.name, result)
        elif isinstance(target, t.Subscript):
            self.emit_augmented_subscript(stmt)
        else:
            raise NotSupportedError("unsupported target of an augmented assignment", target.range)

    # control flow

    def visit_If(self, stmt: t.If) -> None:
        cond = self.emit_cond(stmt.cond)
        self.emit_if_else(stmt.range, cond, stmt.body, stmt.orelse)

    def emit_if_else(
        self,
        loc: SourceRange,
        cond: CondValue,
        true_stmts: list[t.Stmt],
        false_stmts: list[t.Stmt],
    ) -> None:
        g = self.graph
        if cond.static is not None:
            refs = cond.refinements.true if cond.static else cond.refinements.false
            self.insert_refinements(loc, refs)
            self.emit_statements(true_stmts if cond.static else false_stmts)
            return
        assert cond.value is not None
        n = self.insert(g.create(IF, [cond.value], 0), loc)
        true_block, false_block = n.add_block(), n.add_block()
        save_true = self.emit_branch(true_block, true_stmts, cond.refinements.true)
        save_false = self.emit_branch(false_block, false_stmts, cond.refinements.false)
        true_exits = true_block in self.exit_blocks
        false_exits = false_block in self.exit_blocks
        if true_exits and false_exits:
            self.exit_blocks.add(self.env.block)
        self.merge_branch_variables(loc, n, save_true, save_false, true_exits, false_exits)
        # a variable refined in the branch that does not exit leaves the if refined (it is
        # an output of the if); refined attributes are recorded again after the if
        if true_exits and not false_exits:
            self.insert_refinements(loc, [r for r in cond.refinements.false if "." in r.name])
        elif false_exits and not true_exits:
            self.insert_refinements(loc, [r for r in cond.refinements.true if "." in r.name])

    def emit_branch(self, block: Block, stmts: list[t.Stmt], refinements: list[Any]) -> Frame:
        self.env.push(block)
        with self.graph.inserting_before(block.return_node):
            self.insert_refinements(None, refinements)
            self.emit_statements(stmts)
        return self.env.pop()

    def merge_branch_variables(
        self,
        loc: SourceRange,
        n: Node,
        save_true: Frame,
        save_false: Frame,
        true_exits: bool,
        false_exits: bool,
    ) -> None:
        env = self.env
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
        self.emit_loop(stmt.range, None, None, stmt.cond, lambda: self.emit_statements(stmt.body))

    def visit_For(self, stmt: t.For) -> None:
        if stmt.orelse:
            raise NotSupportedError(
                "'else' clauses of loops are not supported", stmt.orelse[0].range
            )
        iterable = self.emit_sugared(stmt.iter)
        iteration = iterable.iterate(self, stmt.iter.range)
        if isinstance(iteration, StaticIteration):
            self.emit_unrolled(stmt, iteration)
            return
        assert isinstance(iteration, LoopIteration)
        self.emit_loop(
            stmt.range, iteration, stmt.target, None, lambda: self.emit_statements(stmt.body)
        )

    def emit_unrolled(self, stmt: t.For, iteration: StaticIteration) -> None:
        self.loop_kinds.append("unrolled")
        try:
            for item in iteration.items:
                self.assign(stmt.target, item, stmt.iter.range)
                self.emit_statements(stmt.body)
                if self.env.block in self.exit_blocks:
                    break
        finally:
            self.loop_kinds.pop()

    def emit_loop(
        self,
        loc: SourceRange,
        iteration: LoopIteration | None,
        target: t.Expr | None,
        cond: t.Expr | None,
        emit_body: Any,
    ) -> None:
        g = self.graph
        if iteration is not None:
            max_trip = iteration.length(self, loc)
        else:
            max_trip = self.constant(INT64_MAX, loc)
        n = self.insert(g.create(LOOP, [], 0), loc)
        body = n.add_block()
        cond_block = n.add_block()
        self.env.push(cond_block)
        if cond is not None:
            with g.inserting_before(cond_block.return_node):
                out = self.emit_cond_bool(cond)
        else:
            with g.inserting_before(n):
                out = self.constant(True, loc)
        cond_block.register_output(out)
        self.env.pop()
        n.add_input(max_trip)
        trip = body.add_input(None, IntType.get())
        self.env.push(body)
        self.loop_kinds.append("loop")
        try:
            with g.inserting_before(body.return_node):
                if iteration is not None and target is not None:
                    item = iteration.item(self, loc, trip)
                    self.assign(target, item, loc)
                emit_body()
        finally:
            self.loop_kinds.pop()
            self.env.pop()

    def visit_Break(self, stmt: t.Break) -> None:
        self._loop_exit(stmt, BREAK_STMT, "break")

    def visit_Continue(self, stmt: t.Continue) -> None:
        self._loop_exit(stmt, CONTINUE_STMT, "continue")

    def _loop_exit(self, stmt: t.Stmt, kind: str, word: str) -> None:
        if not self.loop_kinds:
            raise FrontendError(f"'{word}' outside a loop", stmt.range)
        if self.loop_kinds[-1] == "unrolled":
            raise NotSupportedError(
                f"'{word}' is not supported in a loop over a tuple or module list, which is "
                "unrolled at compile time",
                stmt.range,
            )
        self.insert(self.graph.create(kind, [], 0), stmt.range)
        self.exit_blocks.add(self.env.block)

    # exits

    def visit_Return(self, stmt: t.Return) -> None:
        if stmt.value is None:
            value = self.constant(None, stmt.range)
        else:
            value = self.emit_expr(stmt.value, self.declared_return)
        self.emit_return_value(value, stmt.value.range if stmt.value is not None else stmt.range)

    def emit_return_value(self, value: Value, loc: SourceRange) -> None:
        declared = self.declared_return
        if declared is not None:
            value = self.convert_to_type(value, declared, loc)
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
        self.insert(self.graph.create(RETURN_STMT, [value], 0), loc)
        self.exit_blocks.add(self.env.block)

    def visit_Raise(self, stmt: t.Raise) -> None:
        if stmt.exc is None:
            raise NotSupportedError("a bare 'raise' is not supported", stmt.range)
        exc = self.emit_sugared(stmt.exc)
        if isinstance(exc, ExceptionClassValue):
            exc = ExceptionValue(exc, self.constant("", stmt.exc.range))
        if not isinstance(exc, ExceptionValue):
            raise NotSupportedError(
                f"can only raise exceptions (an exception class or instance), not {exc.describe()}",
                stmt.exc.range,
            )
        from .python_values import register_user_exception

        qualified = exc.cls.qualified_name
        register_user_exception(exc.cls.cls, qualified)
        self.emit_raise(exc.message, self.constant(qualified, stmt.exc.range), stmt.range)

    def emit_raise(self, message: Value, cls: Value, loc: SourceRange) -> None:
        self.insert(self.graph.create(RAISE_EXCEPTION, [message, cls], 0), loc)
        self.exit_blocks.add(self.env.block)

    def emit_raise_message(self, message: str, cls: str | None, loc: SourceRange) -> None:
        self.emit_raise(self.constant(message, loc), self.constant(cls, loc), loc)

    def visit_Assert(self, stmt: t.Assert) -> None:
        cond = self.emit_cond(stmt.test)
        g = self.graph
        if cond.static is True:
            return
        if stmt.msg is None:
            message: Value = self.constant("AssertionError: ", stmt.range)
        elif isinstance(stmt.msg, t.Str):
            message = self.constant(f"AssertionError: {stmt.msg.value}", stmt.msg.range)
        else:
            text = self.emit_expr(stmt.msg)
            if not text.type.is_subtype_of(self.str_type):
                text = self.call_builtin("aten::str", [text], {}, stmt.msg.range)
            prefix = self.constant("AssertionError: ", stmt.range)
            message = self.call_builtin("aten::add", [prefix, text], {}, stmt.range)
        none = self.constant(None, stmt.range)
        if cond.static is False:
            self.emit_raise(message, none, stmt.range)
            return
        assert cond.value is not None
        n = self.insert(g.create(IF, [cond.value], 0), stmt.range)
        ok, fail = n.add_block(), n.add_block()
        del ok
        self.env.push(fail)
        with g.inserting_before(fail.return_node):
            self.insert(g.create(RAISE_EXCEPTION, [message, none], 0), stmt.range)
        self.env.pop()
        self.insert_refinements(stmt.range, cond.refinements.true)

    def visit_Delete(self, stmt: t.Delete) -> None:
        for target in stmt.targets:
            if isinstance(target, t.Subscript):
                self.emit_delete_subscript(target)
            elif isinstance(target, t.Name):
                if self.env.find_type_in_any_frame(target.id) is None:
                    raise FrontendError(
                        f"cannot delete undefined variable '{target.id}'", target.range
                    )
                self.env.set_error(target.id, _deleted(target.id, target.range))
            else:
                raise NotSupportedError("can only delete variables and subscripts", target.range)

    def visit_With(self, stmt: t.With) -> None:
        exits: list[tuple[str, Value, SourceRange]] = []
        g = self.graph
        for item in stmt.items:
            ctx = self.emit_sugared(item.expr)
            if isinstance(ctx, GradModeContext):
                prev = self.call_builtin("aten::is_grad_enabled", [], {}, item.range)
                self.call_builtin("aten::set_grad_enabled", [ctx.enabled], {}, item.range)
                exits.append(("grad", prev, item.range))
                if item.target is not None:
                    raise NotSupportedError(
                        "a grad mode context has no value to bind", item.target.range
                    )
                continue
            obj = ctx.as_value(self, item.range)
            if not isinstance(obj.type, ClassType):
                raise NotSupportedError(
                    f"a 'with' statement needs an object with __enter__ and __exit__, not "
                    f"{ctx.describe()}",
                    item.expr.range,
                )
            from .module_value import concrete_of

            concrete = concrete_of(self, obj.type, item.range)
            modules = self.compiler_modules()
            enter_fn = modules.method(concrete, "__enter__", item.range, self.name)
            modules.method(concrete, "__exit__", item.range, self.name)
            enter = self.insert(g.create(ENTER, [obj]), item.range)
            enter.output().set_type(enter_fn.schema.returns[0].type)
            if item.target is not None:
                self.assign(item.target, SimpleValue(enter.output()), item.range)
            exits.append(("object", obj, item.range))
        self.emit_statements(stmt.body)
        if self.env.block in self.exit_blocks:
            raise NotSupportedError(
                "return, break or continue inside a 'with' block is not supported", stmt.range
            )
        for kind, value, loc in reversed(exits):
            if kind == "grad":
                self.call_builtin("aten::set_grad_enabled", [value], {}, loc)
            else:
                self.insert(g.create(EXIT, [value], 0), loc)

    # refinements

    # helpers for sugared values

    def compiler_modules(self) -> Any:
        return self.compiler.module_types()

    def unannotated_hint(self, expr: t.Expr) -> str | None:
        if isinstance(expr, t.Name) and expr.id in self.unannotated:
            return (
                f"'{expr.id}' has no type annotation, so it is a Tensor; annotate the "
                f"parameter ({expr.id}: int, ...) if it is not one"
            )
        return None

    def cond_as_value(self, cond: CondValue, loc: SourceRange) -> Value:
        if cond.value is None:
            return self.constant(bool(cond.static), loc)
        return cond.value


_FORGOTTEN: Any = object()


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
