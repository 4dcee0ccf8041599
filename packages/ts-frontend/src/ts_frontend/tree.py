"""Trees: the frontend's syntax tree, every node carrying its `SourceRange`.

Both front ends build these trees: `ast_builder` from Python's `ast` (for
functions and modules) and `parser` from the project's own lexer (for
source strings). They produce identical trees, ranges included, so the IR
emitter never knows where a tree came from. Each class is the typed view of
one construct (TorchScript's tree views): `If(cond, body, orelse)` and so on.

Ranges follow Python's `ast`: a parenthesized expression's range excludes
the parentheses, except for tuples, whose range includes them; a compound
statement ends where its last body statement ends; `elif` starts a nested
`If` at the `elif` keyword. An f-string becomes
`Call(Attribute(Str(format), "format"), args)`, as TorchScript builds it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

from ts_ir import SourceRange


class Tree:
    """Base of all tree nodes: a kind (the class name), a range and typed fields."""

    __slots__ = ("range",)
    fields: ClassVar[tuple[str, ...]] = ()

    def __init__(self, range: SourceRange, *values: Any) -> None:
        self.range = range
        if len(values) != len(self.fields):
            raise TypeError(f"{type(self).__name__} takes {len(self.fields)} fields")
        for name, value in zip(self.fields, values, strict=True):
            setattr(self, name, value)

    @property
    def kind(self) -> str:
        return type(self).__name__

    def children(self) -> Iterator[Tree]:
        for name in self.fields:
            value = getattr(self, name)
            if isinstance(value, Tree):
                yield value
            elif isinstance(value, list):
                yield from (v for v in value if isinstance(v, Tree))

    def dump(self) -> str:
        """A canonical text of the tree with every range, for comparing front ends."""
        parts = []
        for name in self.fields:
            parts.append(f"{name}={_dump(getattr(self, name))}")
        return f"{self.kind}@{self.range.start}:{self.range.end}(" + ", ".join(parts) + ")"

    def __repr__(self) -> str:
        return f"<{self.kind} {self.range!r}>"


def _dump(value: Any) -> str:
    if isinstance(value, Tree):
        return value.dump()
    if isinstance(value, list):
        return "[" + ", ".join(_dump(v) for v in value) + "]"
    return repr(value)


class Expr(Tree):
    """An expression."""

    __slots__ = ()


class Stmt(Tree):
    """A statement."""

    __slots__ = ()


class Name(Expr):
    __slots__ = ("id",)
    fields = ("id",)
    id: str


class Const(Expr):
    """A number, `True`, `False` or `None`."""

    __slots__ = ("value",)
    fields = ("value",)
    value: Any


class Str(Expr):
    """A string literal (adjacent literals already concatenated)."""

    __slots__ = ("value",)
    fields = ("value",)
    value: str


class Dots(Expr):
    """`...` (Ellipsis), used in indexing."""

    __slots__ = ()


class Attribute(Expr):
    __slots__ = ("name", "value")
    fields = ("value", "name")
    value: Expr
    name: str

    @property
    def name_range(self) -> SourceRange:
        r = self.range
        return SourceRange(r.source, r.end - len(self.name), r.end)


class Keyword(Tree):
    """`name=value` in a call."""

    __slots__ = ("name", "value")
    fields = ("name", "value")
    name: str
    value: Expr


class Call(Expr):
    __slots__ = ("args", "func", "keywords")
    fields = ("func", "args", "keywords")
    func: Expr
    args: list[Expr]
    keywords: list[Keyword]


class Starred(Expr):
    __slots__ = ("value",)
    fields = ("value",)
    value: Expr


class Slice(Expr):
    """`start:stop:step` inside a subscript; any part may be None."""

    __slots__ = ("start", "step", "stop")
    fields = ("start", "stop", "step")
    start: Expr | None
    stop: Expr | None
    step: Expr | None


class Subscript(Expr):
    """`value[i]`; `indices` holds one entry per comma-separated index."""

    __slots__ = ("indices", "tuple_index", "value")
    fields = ("value", "indices", "tuple_index")
    value: Expr
    indices: list[Expr]
    tuple_index: bool  # written as x[a, b] (a tuple of indices), or x[(a, b)]


class ListLiteral(Expr):
    __slots__ = ("elts",)
    fields = ("elts",)
    elts: list[Expr]


class TupleLiteral(Expr):
    __slots__ = ("elts",)
    fields = ("elts",)
    elts: list[Expr]


class DictLiteral(Expr):
    __slots__ = ("keys", "values")
    fields = ("keys", "values")
    keys: list[Expr]
    values: list[Expr]


class Comprehension(Tree):
    """`for target in iter if cond...` of a comprehension."""

    __slots__ = ("conds", "iter", "target")
    fields = ("target", "iter", "conds")
    target: Expr
    iter: Expr
    conds: list[Expr]


class ListComp(Expr):
    __slots__ = ("elt", "generators")
    fields = ("elt", "generators")
    elt: Expr
    generators: list[Comprehension]


class DictComp(Expr):
    __slots__ = ("generators", "key", "value")
    fields = ("key", "value", "generators")
    key: Expr
    value: Expr
    generators: list[Comprehension]


class IfExp(Expr):
    """`body if cond else orelse`."""

    __slots__ = ("body", "cond", "orelse")
    fields = ("cond", "body", "orelse")
    cond: Expr
    body: Expr
    orelse: Expr


class UnaryOp(Expr):
    """`op operand` with op one of `-`, `+`, `~`, `not`."""

    __slots__ = ("op", "operand")
    fields = ("op", "operand")
    op: str
    operand: Expr


class BinOp(Expr):
    """`left op right` with op one of `+ - * / // % ** @ & | ^ << >>`."""

    __slots__ = ("left", "op", "right")
    fields = ("op", "left", "right")
    op: str
    left: Expr
    right: Expr


class BoolOp(Expr):
    """`left and right` / `left or right` (chains nest to the left)."""

    __slots__ = ("left", "op", "right")
    fields = ("op", "left", "right")
    op: str
    left: Expr
    right: Expr


class Compare(Expr):
    """A comparison chain: `left ops[0] comparators[0] ops[1] ...`."""

    __slots__ = ("comparators", "left", "ops")
    fields = ("left", "ops", "comparators")
    left: Expr
    ops: list[str]
    comparators: list[Expr]


# -- statements


class Param(Tree):
    __slots__ = ("annotation", "default", "kwarg_only", "name")
    fields = ("name", "annotation", "default", "kwarg_only")
    name: str
    annotation: Expr | None
    default: Expr | None
    kwarg_only: bool


class Def(Stmt):
    """A function definition; `type_comment` holds `(params, return)` from `# type:`."""

    __slots__ = ("body", "name", "name_range", "params", "returns", "type_comment")
    fields = ("name", "params", "returns", "body", "type_comment", "name_range")
    name: str
    params: list[Param]
    returns: Expr | None
    body: list[Stmt]
    type_comment: TypeComment | None
    name_range: tuple[int, int]


class TypeComment(Tree):
    """A function's `# type: (A, B) -> R` comment (R None where it names no return type)."""

    __slots__ = ("params", "returns")
    fields = ("params", "returns")
    params: list[Expr]
    returns: Expr | None


class Assign(Stmt):
    """`t1 = t2 = value`, or `target: annotation = value` (one target)."""

    __slots__ = ("annotation", "targets", "value")
    fields = ("targets", "value", "annotation")
    targets: list[Expr]
    value: Expr | None
    annotation: Expr | None


class AugAssign(Stmt):
    __slots__ = ("op", "target", "value")
    fields = ("target", "op", "value")
    target: Expr
    op: str
    value: Expr


class If(Stmt):
    __slots__ = ("body", "cond", "orelse")
    fields = ("cond", "body", "orelse")
    cond: Expr
    body: list[Stmt]
    orelse: list[Stmt]


class While(Stmt):
    __slots__ = ("body", "cond", "orelse")
    fields = ("cond", "body", "orelse")
    cond: Expr
    body: list[Stmt]
    orelse: list[Stmt]


class For(Stmt):
    __slots__ = ("body", "iter", "orelse", "target")
    fields = ("target", "iter", "body", "orelse")
    target: Expr
    iter: Expr
    body: list[Stmt]
    orelse: list[Stmt]


class WithItem(Tree):
    __slots__ = ("expr", "target")
    fields = ("expr", "target")
    expr: Expr
    target: Expr | None


class With(Stmt):
    __slots__ = ("body", "items")
    fields = ("items", "body")
    items: list[WithItem]
    body: list[Stmt]


class Return(Stmt):
    __slots__ = ("value",)
    fields = ("value",)
    value: Expr | None


class Raise(Stmt):
    __slots__ = ("exc",)
    fields = ("exc",)
    exc: Expr | None


class Assert(Stmt):
    __slots__ = ("msg", "test")
    fields = ("test", "msg")
    test: Expr
    msg: Expr | None


class Delete(Stmt):
    __slots__ = ("targets",)
    fields = ("targets",)
    targets: list[Expr]


class ExprStmt(Stmt):
    __slots__ = ("value",)
    fields = ("value",)
    value: Expr


class Pass(Stmt):
    __slots__ = ()


class Break(Stmt):
    __slots__ = ()


class Continue(Stmt):
    __slots__ = ()


class Unsupported(Stmt):
    """A statement the language does not have (`try`, `class`, `global`, ...), kept to report."""

    __slots__ = ("what",)
    fields = ("what",)
    what: str


class UnsupportedExpr(Expr):
    """An expression the language does not have (`lambda`, `yield`, a set, ...), kept to report."""

    __slots__ = ("what",)
    fields = ("what",)
    what: str


def dotted_name(e: Expr) -> str | None:
    """`a.b.c` for a name or a chain of attributes of a name, else None."""
    if isinstance(e, Name):
        return e.id
    if isinstance(e, Attribute):
        base = dotted_name(e.value)
        return None if base is None else f"{base}.{e.name}"
    return None
