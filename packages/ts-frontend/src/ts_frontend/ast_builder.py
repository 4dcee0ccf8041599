"""Trees from Python's `ast`, for functions and methods.

The function's source (`sources.source_of`) is dedented for `ast.parse`, and
every position is mapped back to a character offset in the original text
(adding back the indentation, turning UTF-8 byte columns into characters),
so ranges point into the real file. The result equals what `parser` builds
from the same text; see `tree` for the conventions both follow.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from ts_ir import Source, SourceRange

from . import tree as t
from .errors import NotSupportedError, ParseError
from .parser import parse_signature_comment, parse_type_comment
from .sources import source_of
from .strings import build_string, string_tokens

_BINOPS: dict[type, str] = {
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.Div: "/",
    ast.FloorDiv: "//",
    ast.Mod: "%",
    ast.Pow: "**",
    ast.MatMult: "@",
    ast.BitAnd: "&",
    ast.BitOr: "|",
    ast.BitXor: "^",
    ast.LShift: "<<",
    ast.RShift: ">>",
}
_UNARY: dict[type, str] = {ast.USub: "-", ast.UAdd: "+", ast.Invert: "~", ast.Not: "not"}
_CMP: dict[type, str] = {
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.Is: "is",
    ast.IsNot: "is not",
    ast.In: "in",
    ast.NotIn: "not in",
}
_UNSUPPORTED_STMT: dict[type, str] = {
    ast.Try: "try blocks",
    ast.ClassDef: "class definitions",
    ast.Global: "global declarations",
    ast.Nonlocal: "nonlocal declarations",
    ast.Import: "import statements",
    ast.ImportFrom: "import statements",
    ast.AsyncFunctionDef: "async functions",
    ast.AsyncFor: "async functions",
    ast.AsyncWith: "async functions",
}
_UNSUPPORTED_EXPR: dict[type, str] = {
    ast.Lambda: "lambda expressions",
    ast.Set: "set literals",
    ast.SetComp: "set comprehensions",
    ast.GeneratorExp: "generator expressions",
    ast.Yield: "generators (yield)",
    ast.YieldFrom: "generators (yield)",
    ast.Await: "await",
    ast.NamedExpr: "assignment expressions (:=)",
}
if hasattr(ast, "TryStar"):
    _UNSUPPORTED_STMT[ast.TryStar] = "try blocks"
if hasattr(ast, "Match"):
    _UNSUPPORTED_STMT[ast.Match] = "match statements"


class AstBuilder:
    """Builds trees from the `ast` of one `Source`."""

    def __init__(self, source: Source) -> None:
        self.source = source
        text = source.text
        self.lines = text.split("\n")
        self.line_starts = source.line_starts()
        indent = ""
        for line in self.lines:
            if line.strip():
                indent = line[: len(line) - len(line.lstrip())]
                break
        self.stripped: list[int] = []
        dedented = []
        for line in self.lines:
            if not line.strip():
                dedented.append("")
                self.stripped.append(0)
            elif line.startswith(indent):
                dedented.append(line[len(indent) :])
                self.stripped.append(len(indent))
            else:
                dedented.append(line)
                self.stripped.append(0)
        self.dedented = dedented
        try:
            self.module = ast.parse("\n".join(dedented))
        except SyntaxError as exc:
            lineno = exc.lineno or 1
            col = self._offset(lineno, (exc.offset or 1) - 1)
            raise ParseError(
                f"invalid syntax: {exc.msg}", SourceRange(source, col, col + 1)
            ) from None

    # -- positions

    def _offset(self, lineno: int, col: int) -> int:
        i = lineno - 1
        line = self.dedented[i]
        if not line.isascii():
            col = len(line.encode("utf-8")[:col].decode("utf-8", errors="replace"))
        return self.line_starts[i] + self.stripped[i] + col

    def range(self, node: Any) -> SourceRange:
        return SourceRange(
            self.source,
            self._offset(node.lineno, node.col_offset),
            self._offset(node.end_lineno, node.end_col_offset),
        )

    def span(self, first: Any, last: Any) -> SourceRange:
        return SourceRange(
            self.source,
            self._offset(first.lineno, first.col_offset),
            self._offset(last.end_lineno, last.end_col_offset),
        )

    # -- entry points

    def defs(self) -> list[t.Def]:
        out = []
        for node in self.module.body:
            stmt = self.stmt(node)
            if isinstance(stmt, t.Def):
                out.append(stmt)
        return out

    # -- statements

    def stmts(self, nodes: list[ast.stmt]) -> list[t.Stmt]:
        return [self.stmt(n) for n in nodes]

    def stmt(self, node: ast.stmt) -> t.Stmt:
        method: Callable[[Any], t.Stmt] | None = getattr(self, "stmt_" + type(node).__name__, None)
        if method is None:
            what = _UNSUPPORTED_STMT.get(type(node), f"'{type(node).__name__}' statements")
            return t.Unsupported(self.range(node), what)
        return method(node)

    def stmt_FunctionDef(self, node: ast.FunctionDef) -> t.Stmt:
        a = node.args
        if a.vararg is not None or a.kwarg is not None:
            bad = a.vararg or a.kwarg
            raise ParseError(
                "variable-length arguments (*args, **kwargs) are not supported", self.range(bad)
            )
        params: list[t.Param] = []
        positional = [*a.posonlyargs, *a.args]
        defaults: list[Any] = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
        for arg, default in zip(positional, defaults, strict=True):
            params.append(self.param(arg, default, False))
        for arg, default in zip(a.kwonlyargs, a.kw_defaults, strict=True):
            params.append(self.param(arg, default, True))
        body = self.stmts(node.body)
        rng = self.range(node)
        header = self._offset(node.lineno, node.col_offset)
        name_start = self.source.text.index(node.name, header + 3)
        comment = parse_signature_comment(self.source, header, body[0].range.start)
        return t.Def(
            rng,
            node.name,
            params,
            None if node.returns is None else self.expr(node.returns),
            body,
            comment,
            (name_start, name_start + len(node.name)),
        )

    def param(self, arg: ast.arg, default: ast.expr | None, kwarg_only: bool) -> t.Param:
        return t.Param(
            self.range(arg),
            arg.arg,
            None if arg.annotation is None else self.expr(arg.annotation),
            None if default is None else self.expr(default),
            kwarg_only,
        )

    def stmt_Return(self, node: ast.Return) -> t.Stmt:
        return t.Return(self.range(node), None if node.value is None else self.expr(node.value))

    def stmt_Assign(self, node: ast.Assign) -> t.Stmt:
        rng = self.range(node)
        annotation = parse_type_comment(self.source, rng.end)
        return t.Assign(
            rng, [self.expr(x) for x in node.targets], self.expr(node.value), annotation
        )

    def stmt_AnnAssign(self, node: ast.AnnAssign) -> t.Stmt:
        return t.Assign(
            self.range(node),
            [self.expr(node.target)],
            None if node.value is None else self.expr(node.value),
            self.expr(node.annotation),
        )

    def stmt_AugAssign(self, node: ast.AugAssign) -> t.Stmt:
        return t.AugAssign(
            self.range(node), self.expr(node.target), _BINOPS[type(node.op)], self.expr(node.value)
        )

    def stmt_If(self, node: ast.If) -> t.Stmt:
        return t.If(
            self.range(node), self.expr(node.test), self.stmts(node.body), self.stmts(node.orelse)
        )

    def stmt_While(self, node: ast.While) -> t.Stmt:
        return t.While(
            self.range(node), self.expr(node.test), self.stmts(node.body), self.stmts(node.orelse)
        )

    def stmt_For(self, node: ast.For) -> t.Stmt:
        return t.For(
            self.range(node),
            self.expr(node.target),
            self.expr(node.iter),
            self.stmts(node.body),
            self.stmts(node.orelse),
        )

    def stmt_With(self, node: ast.With) -> t.Stmt:
        items = []
        for item in node.items:
            last = item.optional_vars or item.context_expr
            items.append(
                t.WithItem(
                    self.span(item.context_expr, last),
                    self.expr(item.context_expr),
                    None if item.optional_vars is None else self.expr(item.optional_vars),
                )
            )
        return t.With(self.range(node), items, self.stmts(node.body))

    def stmt_Raise(self, node: ast.Raise) -> t.Stmt:
        return t.Raise(self.range(node), None if node.exc is None else self.expr(node.exc))

    def stmt_Assert(self, node: ast.Assert) -> t.Stmt:
        return t.Assert(
            self.range(node),
            self.expr(node.test),
            None if node.msg is None else self.expr(node.msg),
        )

    def stmt_Delete(self, node: ast.Delete) -> t.Stmt:
        return t.Delete(self.range(node), [self.expr(x) for x in node.targets])

    def stmt_Expr(self, node: ast.Expr) -> t.Stmt:
        value = self.expr(node.value)
        return t.ExprStmt(value.range, value)

    def stmt_Pass(self, node: ast.Pass) -> t.Stmt:
        return t.Pass(self.range(node))

    def stmt_Break(self, node: ast.Break) -> t.Stmt:
        return t.Break(self.range(node))

    def stmt_Continue(self, node: ast.Continue) -> t.Stmt:
        return t.Continue(self.range(node))

    # -- expressions

    def expr(self, node: ast.expr) -> t.Expr:
        method: Callable[[Any], t.Expr] | None = getattr(self, "expr_" + type(node).__name__, None)
        if method is None:
            what = _UNSUPPORTED_EXPR.get(type(node), f"'{type(node).__name__}' expressions")
            return t.UnsupportedExpr(self.range(node), what)
        return method(node)

    def expr_Name(self, node: ast.Name) -> t.Expr:
        return t.Name(self.range(node), node.id)

    def expr_Constant(self, node: ast.Constant) -> t.Expr:
        rng = self.range(node)
        value = node.value
        if value is Ellipsis:
            return t.Dots(rng)
        if isinstance(value, str):
            return self._string(rng)
        if isinstance(value, bytes):
            raise NotSupportedError("bytes literals are not supported", rng)
        return t.Const(rng, value)

    def expr_JoinedStr(self, node: ast.JoinedStr) -> t.Expr:
        return self._string(self.range(node))

    def _string(self, rng: SourceRange) -> t.Expr:
        spans = string_tokens(self.source, rng.start, rng.end)
        return build_string(self.source, spans, self._sub_expression)

    def _sub_expression(self, start: int, end: int) -> t.Expr:
        """An expression inside an f-string, parsed by `ast` with offsets into the source."""
        text = self.source.text[start:end]
        stripped = text.lstrip()
        lead = len(text) - len(stripped)
        sub = _SubBuilder(self.source, start + lead, stripped)
        return sub.expr(sub.tree)

    def expr_Attribute(self, node: ast.Attribute) -> t.Expr:
        return t.Attribute(self.range(node), self.expr(node.value), node.attr)

    def expr_Call(self, node: ast.Call) -> t.Expr:
        keywords = []
        for kw in node.keywords:
            if kw.arg is None:
                raise ParseError("keyword argument unpacking (**) is not supported", self.range(kw))
            keywords.append(t.Keyword(self.range(kw), kw.arg, self.expr(kw.value)))
        func = node.func
        if (
            isinstance(func, ast.Name)
            and func.id == "dict"
            and len(node.args) == 1
            and not keywords
            and isinstance(node.args[0], ast.Call)
            and isinstance(node.args[0].func, ast.Name)
            and node.args[0].func.id in ("zip", "enumerate")
        ):  # `dict(zip(ks, vs))`: the pairs put in a dict one by one, as TorchScript loops
            rng = self.range(node)
            key, value = t.Name(rng, "$key"), t.Name(rng, "$value")
            pairs = t.Comprehension(
                rng, t.TupleLiteral(rng, [key, value]), self.expr(node.args[0]), []
            )
            return t.DictComp(rng, key, value, [pairs])
        if (
            isinstance(func, ast.Attribute)
            and func.attr == "__getitem__"
            and len(node.args) == 1
            and not keywords
            and not isinstance(node.args[0], ast.Starred)
        ):  # `x.__getitem__(i)` is `x[i]`, as in Python
            index = self.index(node.args[0])
            return t.Subscript(self.range(node), self.expr(func.value), [index], False)
        return t.Call(
            self.range(node), self.expr(node.func), [self.expr(a) for a in node.args], keywords
        )

    def expr_Starred(self, node: ast.Starred) -> t.Expr:
        return t.Starred(self.range(node), self.expr(node.value))

    def expr_Subscript(self, node: ast.Subscript) -> t.Expr:
        index = node.slice
        if isinstance(index, ast.Tuple):
            indices, is_tuple = [self.index(e) for e in index.elts], True
        else:
            indices, is_tuple = [self.index(index)], False
        return t.Subscript(self.range(node), self.expr(node.value), indices, is_tuple)

    def index(self, node: ast.expr) -> t.Expr:
        """One index of a subscript: `x[slice(a, b, c)]` is `x[a:b:c]` and `x[Ellipsis]` is
        `x[...]`, as in Python."""
        if isinstance(node, ast.Name) and node.id == "Ellipsis":
            return t.Dots(self.range(node))
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "slice"
            and 1 <= len(node.args) <= 3
            and not node.keywords
            and not any(isinstance(a, ast.Starred) for a in node.args)
        ):

            def bound(x: ast.expr) -> t.Expr | None:
                if isinstance(x, ast.Constant) and x.value is None:
                    return None
                return self.expr(x)

            parts = [bound(a) for a in node.args]
            if len(parts) == 1:  # slice(stop)
                parts = [None, parts[0]]
            parts += [None] * (3 - len(parts))
            return t.Slice(self.range(node), parts[0], parts[1], parts[2])
        return self.expr(node)

    def expr_Slice(self, node: ast.Slice) -> t.Expr:
        def opt(x: ast.expr | None) -> t.Expr | None:
            return None if x is None else self.expr(x)

        return t.Slice(self.range(node), opt(node.lower), opt(node.upper), opt(node.step))

    def expr_List(self, node: ast.List) -> t.Expr:
        return t.ListLiteral(self.range(node), [self.expr(e) for e in node.elts])

    def expr_Tuple(self, node: ast.Tuple) -> t.Expr:
        return t.TupleLiteral(self.range(node), [self.expr(e) for e in node.elts])

    def expr_Dict(self, node: ast.Dict) -> t.Expr:
        if any(k is None for k in node.keys):
            raise NotSupportedError("dict unpacking (**) is not supported", self.range(node))
        return t.DictLiteral(
            self.range(node),
            [self.expr(k) for k in node.keys],  # type: ignore[arg-type]
            [self.expr(v) for v in node.values],
        )

    def _generators(self, gens: list[ast.comprehension]) -> list[t.Comprehension]:
        out = []
        for g in gens:
            if g.is_async:
                raise NotSupportedError(
                    "async comprehensions are not supported", self.range(g.iter)
                )
            last = g.ifs[-1] if g.ifs else g.iter
            out.append(
                t.Comprehension(
                    self.span(g.target, last),
                    self.expr(g.target),
                    self.expr(g.iter),
                    [self.expr(c) for c in g.ifs],
                )
            )
        return out

    def expr_ListComp(self, node: ast.ListComp) -> t.Expr:
        return t.ListComp(self.range(node), self.expr(node.elt), self._generators(node.generators))

    def expr_DictComp(self, node: ast.DictComp) -> t.Expr:
        return t.DictComp(
            self.range(node),
            self.expr(node.key),
            self.expr(node.value),
            self._generators(node.generators),
        )

    def expr_IfExp(self, node: ast.IfExp) -> t.Expr:
        return t.IfExp(
            self.range(node), self.expr(node.test), self.expr(node.body), self.expr(node.orelse)
        )

    def expr_UnaryOp(self, node: ast.UnaryOp) -> t.Expr:
        return t.UnaryOp(self.range(node), _UNARY[type(node.op)], self.expr(node.operand))

    def expr_BinOp(self, node: ast.BinOp) -> t.Expr:
        return t.BinOp(
            self.range(node), _BINOPS[type(node.op)], self.expr(node.left), self.expr(node.right)
        )

    def expr_BoolOp(self, node: ast.BoolOp) -> t.Expr:
        op = "and" if isinstance(node.op, ast.And) else "or"
        values = node.values
        left = self.expr(values[0])
        for v in values[1:]:
            right = self.expr(v)
            left = t.BoolOp(
                SourceRange(self.source, left.range.start, right.range.end), op, left, right
            )
        return left

    def expr_Compare(self, node: ast.Compare) -> t.Expr:
        return t.Compare(
            self.range(node),
            self.expr(node.left),
            [_CMP[type(op)] for op in node.ops],
            [self.expr(c) for c in node.comparators],
        )


class _SubBuilder(AstBuilder):
    """Builds the tree of an expression found at `start` in `source` (inside an f-string)."""

    def __init__(self, source: Source, start: int, text: str) -> None:
        self.source = source
        self.base = start
        self.text = text
        self.text_starts = [0]
        for i, ch in enumerate(text):
            if ch == "\n":
                self.text_starts.append(i + 1)
        try:
            self.tree = ast.parse(text, mode="eval").body
        except SyntaxError as exc:
            raise ParseError(
                f"invalid syntax in an f-string: {exc.msg}",
                SourceRange(source, start, start + len(text)),
            ) from None

    def _offset(self, lineno: int, col: int) -> int:
        i = lineno - 1
        line_start = self.text_starts[i]
        line = self.text[line_start:].split("\n", 1)[0]
        if not line.isascii():
            col = len(line.encode("utf-8")[:col].decode("utf-8", errors="replace"))
        return self.base + line_start + col


def defs_of_source(source: Source) -> list[t.Def]:
    """The function definitions of a source text, built with Python's `ast`."""
    return AstBuilder(source).defs()


def def_of_function(fn: Callable[..., Any]) -> t.Def:
    """The tree of a Python function or method, from its source file."""
    source = source_of(fn)
    defs = AstBuilder(source).defs()
    name = getattr(fn, "__name__", None)
    for d in defs:
        if d.name == name:
            return d
    if len(defs) == 1:
        return defs[0]
    raise ParseError(f"cannot find the definition of {name!r} in its source", None)
