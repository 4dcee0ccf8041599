"""What every part of the emitter may use: the state of one function's compilation.

`FunctionEmitter` is assembled from mixins (statements in `ir_emitter`,
expressions in `expr_emitter`, subscripts in `indexing`); this base class
declares the state they share and the methods one part calls on another, so
each part reads (and type-checks) on its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ts_ir import Block, Graph, SourceRange, Type, Value

if TYPE_CHECKING:
    from . import tree as t
    from .environment import Environment
    from .refinement import CondValue
    from .resolver import Resolver
    from .sugared_value import LoopIteration, SugaredValue
    from .type_annotations import TypeReader


class EmitterState:
    """The shared state and the cross-part methods of `FunctionEmitter`."""

    compiler: Any
    resolver: Resolver
    graph: Graph
    env: Environment
    types: TypeReader
    name: str
    exit_blocks: set[Block]
    unannotated: set[str]

    # -- provided by the statement emitter (ir_emitter)

    def assign(
        self, target: t.Expr, rhs: SugaredValue, loc: SourceRange, annotated: Type | None = None
    ) -> None:
        raise NotImplementedError

    def emit_loop(
        self,
        loc: SourceRange,
        iteration: LoopIteration | None,
        target: t.Expr | None,
        cond: t.Expr | None,
        emit_body: Any,
    ) -> None:
        raise NotImplementedError

    def insert_refinements(self, loc: SourceRange | None, refinements: list[Any]) -> None:
        raise NotImplementedError

    def refined_attribute(self, path: str) -> Type | None:
        raise NotImplementedError

    def try_constant(self, expr: t.Expr) -> Any:
        raise NotImplementedError

    def unannotated_hint(self, expr: t.Expr) -> str | None:
        raise NotImplementedError

    def cond_as_value(self, cond: CondValue, loc: SourceRange) -> Value:
        raise NotImplementedError

    def compiler_modules(self) -> Any:
        raise NotImplementedError

    def emit_raise_message(self, message: str, cls: str | None, loc: SourceRange) -> None:
        raise NotImplementedError

    # -- provided by the expression emitter (expr_emitter)

    def emit_sugared(self, expr: t.Expr, hint: Type | None = None) -> SugaredValue:
        raise NotImplementedError

    def emit_expr(self, expr: t.Expr, hint: Type | None = None) -> Value:
        raise NotImplementedError

    def call_builtin(
        self,
        symbol: str,
        args: list[Value],
        kwargs: dict[str, Value],
        loc: SourceRange | None,
        *,
        call: t.Call | None = None,
    ) -> Value:
        raise NotImplementedError

    def binary_op(self, op: str, lhs: Value, rhs: Value, loc: SourceRange) -> Value:
        raise NotImplementedError

    def emit_augmented(self, stmt: t.AugAssign, lhs: Value) -> Value:
        raise NotImplementedError

    def emit_cond(self, expr: t.Expr) -> CondValue:
        raise NotImplementedError

    def emit_isinstance(self, call: t.Call) -> CondValue:
        raise NotImplementedError

    def emit_hasattr(self, call: t.Call) -> CondValue:
        raise NotImplementedError

    def to_bool(self, v: Value, loc: SourceRange) -> Value:
        raise NotImplementedError

    def empty_list(self, loc: SourceRange, element: Type | None) -> Value:
        raise NotImplementedError

    def empty_dict(self, loc: SourceRange, typ: Any) -> Value:
        raise NotImplementedError

    def materialize_iteration(self, iteration: Any, loc: SourceRange) -> Value:
        raise NotImplementedError

    # -- provided by the subscript emitter (indexing)

    def emit_subscript_assign(self, target: t.Subscript, value: Value, loc: SourceRange) -> None:
        raise NotImplementedError

    def emit_augmented_subscript(self, stmt: t.AugAssign) -> None:
        raise NotImplementedError

    def emit_delete_subscript(self, target: t.Subscript) -> None:
        raise NotImplementedError

    def emit_tuple_index(self, v: Value, index: t.Expr, loc: SourceRange) -> Value:
        raise NotImplementedError
