"""The state of one function's compilation, and the context its sugared values emit through.

`FunctionState` owns the graph, the variables (`Environment`), the compiler
and the resolver of the function being compiled, and implements the
`EmitContext` sugared values see: `insert`, `constant`, `call_builtin`.
The parts of the emitter (`expressions`, `conditions`, `indexing`,
`targets`, `loops`, `special_forms`, `ir_emitter`) share one state and
reach each other through the `Expressions` protocol below, so no part
imports a part above it.

`call_builtin` matches a call against every overload of an operator (and
TorchScript's scalar-first builtins, which the compiler provides), and
remembers which overload a signature of argument types picks.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, Protocol

from ts_ir import (
    Block,
    Graph,
    ListType,
    Node,
    OptionalType,
    SourceRange,
    TensorType,
    TupleType,
    Type,
    UnionType,
    Value,
)
from ts_schema import (
    NoMatchingSchemaError,
    Operator,
    UnknownOperatorError,
    emit_node,
    match_schemas,
    registry,
)

from . import tree as t
from .context import Compiler
from .environment import Environment, meaningful_name
from .errors import CallError
from .kinds import LIST_CONSTRUCT, LOAD
from .refinement import CondValue, Refinement
from .resolver import Resolver
from .sugared_value import NamedValue, SimpleValue, SugaredValue
from .type_annotations import TypeReader


class Expressions(Protocol):
    """What the parts of the emitter ask of the expression emitter."""

    def emit_sugared(self, expr: t.Expr, hint: Type | None = None) -> SugaredValue: ...

    def emit_expr(self, expr: t.Expr, hint: Type | None = None) -> Value: ...

    def emit_cond(self, expr: t.Expr) -> CondValue: ...

    def emit_args(
        self, args: list[t.Expr], keywords: list[t.Keyword]
    ) -> tuple[list[NamedValue], dict[str, NamedValue]]: ...

    def try_constant(self, expr: t.Expr) -> Any: ...


class FunctionState:
    """One function's compilation: graph, variables, and the `EmitContext` methods."""

    def __init__(self, compiler: Compiler, resolver: Resolver, name: str) -> None:
        self.compiler = compiler
        self.resolver = resolver
        self.function_name = name
        self.graph = Graph()
        self.env = Environment(self.graph)
        self.types = TypeReader(resolver, compiler.class_type_of)
        self.exit_blocks: set[Block] = set()  # blocks that end in return, break, continue, raise
        self.loop_kinds: list[str] = []  # "loop" or "unrolled", innermost last
        self.unannotated: set[str] = set()  # parameters typed Tensor for want of an annotation

    # -- the EmitContext

    def insert(self, node: Node, loc: SourceRange | None) -> Node:
        node.source_range = loc
        return self.graph.insert_node(node)

    def constant(self, value: Any, loc: SourceRange | None, typ: Type | None = None) -> Value:
        if isinstance(value, bool):
            value = bool(value)
        elif isinstance(value, int) and type(value) is not int and not isinstance(value, Enum):
            value = int(value)
        return self.graph.insert_constant(value, typ, source_range=loc)

    def call_builtin(
        self, symbol: str, args: list[Value], kwargs: dict[str, Value], loc: SourceRange | None
    ) -> Value:
        """Insert a call of operator `symbol` matched against its overloads; its value."""
        try:
            ops: list[Any] = list(registry.lookup(symbol))
        except UnknownOperatorError as exc:
            raise CallError(str(exc), loc) from None
        reflected = self.compiler.reflected_functions(symbol)
        candidates = ops + [f.schema for f in reflected]
        # Which overload matches depends only on the argument types (and on empty list
        # literals), so the winner is remembered and only it is matched next time.
        key = (
            symbol,
            len(candidates),
            tuple(_arg_key(v) for v in args),
            tuple((k, *_arg_key(v)) for k, v in kwargs.items()),
        )
        index = _MATCHED.get(key)
        g = self.graph
        try:
            if index is not None:
                op, matched = match_schemas([candidates[index]], g, args, kwargs, source_range=loc)
            else:
                op, matched = match_schemas(candidates, g, args, kwargs, source_range=loc)
                _MATCHED[key] = next(i for i, c in enumerate(candidates) if c is op)
        except NoMatchingSchemaError as exc:
            raise CallError(exc.message, loc, hint=self._call_hint(args, candidates)) from None
        if isinstance(op, Operator):
            out = emit_node(g, op, matched, source_range=loc)
        else:
            fn = reflected[[f.schema for f in reflected].index(op)]
            out = self.inline_graph(fn.graph, matched.inputs)[0]
        if out is None:
            return self.constant(None, loc)
        if isinstance(out, tuple):
            tup = self.insert(g.create_tuple(list(out)), loc).output()
            names = [r.name for r in op.schema.returns] if isinstance(op, Operator) else []
            if names and all(names):  # `torch.max(x, 1).values`: a named tuple
                tup.set_type(TupleType([v.type for v in out], names))
            return tup
        return out

    def unannotated_hint(self, value: Value) -> str | None:
        node = value.node
        if node.kind is LOAD:
            name = node.s("name")
            if name in self.unannotated:
                return (
                    f"'{name}' has no type annotation, so it is a Tensor; annotate the "
                    f"parameter ({name}: int, ...) if it is not one"
                )
        return None

    def _call_hint(self, args: list[Value], candidates: list[Any]) -> str | None:
        """A hint for a call no overload accepts: an unannotated parameter, an unrefined Optional."""
        for v in args:
            if isinstance(v.type, (OptionalType, UnionType)):
                return (
                    f"a value of type '{v.type.annotation_str()}' must be refined before this "
                    "call: check `x is not None` (or use isinstance) first"
                )
        for i, v in enumerate(args):
            hint = self.unannotated_hint(v)
            if hint is None:
                continue
            formals = [
                [f for f in getattr(c, "schema", c).arguments if not f.kwarg_only]
                for c in candidates
            ]
            positioned = [f[i] for f in formals if i < len(f)]
            if positioned and not any(TensorType.get().is_subtype_of(f.type) for f in positioned):
                return hint
        return None

    def inline_graph(self, callee: Graph, inputs: list[Value]) -> list[Value]:
        """Copy a callee graph's nodes here, its inputs bound to `inputs`; its outputs."""
        g = self.graph
        env: dict[Value, Value] = dict(zip(callee.inputs, inputs, strict=True))
        for node in callee.nodes():
            copy = g.create_clone(node, lambda v: env[v])
            g.insert_node(copy)
            for a, b in zip(node.outputs, copy.outputs, strict=True):
                env[a] = b
        return [env[v] for v in callee.outputs]

    # -- helpers the parts share

    def type_of(self, expr: t.Expr) -> Type:
        """The type an annotation expression denotes."""
        return self.types.read(expr)

    def cond_as_value(self, cond: CondValue, loc: SourceRange) -> Value:
        if cond.value is None:
            return self.constant(bool(cond.static), loc)
        return cond.value

    def insert_refinements(self, loc: SourceRange | None, refinements: list[Refinement]) -> None:
        """Make refined variables (and attribute paths) read as their refined types from here."""
        env = self.env
        for r in refinements:
            if "." in r.name:
                env.refine_attribute(r.name, r.type)
                continue
            found = env.find_in_any_frame(r.name)
            if not isinstance(found, SimpleValue):
                continue
            cast = self.insert(self.graph.create_unchecked_cast(found.value, r.type), None)
            refined = cast.output()
            if meaningful_name(r.name):
                refined.set_debug_name(r.name)  # TorchScript's setVar names it after the variable
            env.insert_store(r.name, loc, refined, r.type)


_MATCHED: dict[Any, int] = {}


def _arg_key(v: Value) -> tuple[Any, bool]:
    node = v.node
    return v.type, node.kind is LIST_CONSTRUCT and not node.inputs


def list_element_hint(hint: Type | None) -> Type | None:
    """The element type a list literal should have, from the type expected of it."""
    if isinstance(hint, OptionalType):
        hint = hint.element
    if isinstance(hint, ListType):
        return hint.element
    return None
