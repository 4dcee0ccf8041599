"""The frontend's own parser: Python source text to trees, without Python's `ast`.

Statements are parsed by recursive descent over the shared `Lexer` in
python mode (NEWLINE/INDENT/DEDENT tokens); expressions by a Pratt parser
with Python's binding powers. The trees are the ones `ast_builder` makes
from Python's `ast`, ranges included (see `tree`), so a program compiled
from a source string and from the function itself gives the same graph.

    defs = Parser(Source(text)).parse_module()
"""

from __future__ import annotations

from ts_ir import Lexer, Source, SourceRange, Token, parse_number

from . import tree as t
from .errors import ParseError
from .sources import blanked_retarget, find_type_comment, line_end
from .strings import build_string

# infix binding powers (higher binds tighter); `**` is right-associative
_BINARY_BP = {
    "or": 3,
    "and": 4,
    "|": 7,
    "^": 8,
    "&": 9,
    "<<": 10,
    ">>": 10,
    "+": 11,
    "-": 11,
    "*": 12,
    "/": 12,
    "//": 12,
    "%": 12,
    "@": 12,
    "**": 14,
}
_COMPARE_BP = 6
_NOT_BP = 5
_UNARY_BP = 13
_TERNARY_BP = 2
_TARGET_BP = 7  # `for` targets stop before comparisons (`in`)
_COMPARISONS = frozenset(["<", ">", "==", ">=", "<=", "!=", "in", "not", "is"])
_AUGMENTED = {
    "+=": "+",
    "-=": "-",
    "*=": "*",
    "/=": "/",
    "//=": "//",
    "%=": "%",
    "**=": "**",
    "@=": "@",
    "&=": "&",
    "|=": "|",
    "^=": "^",
    "<<=": "<<",
    ">>=": ">>",
}
_UNSUPPORTED_STMTS = {
    "global": "global declarations",
    "nonlocal": "nonlocal declarations",
    "import": "import statements",
    "from": "import statements",
    "async": "async functions",
    "yield": "generators (yield)",
    "await": "await",
}


class Parser:
    """Parses a `Source` holding function definitions (possibly indented)."""

    def __init__(self, source: Source) -> None:
        self.source = source
        self.lexer = Lexer(source, python=True, error_class=ParseError)

    # -- helpers

    @property
    def cur(self) -> Token:
        return self.lexer.cur

    def next(self) -> Token:
        return self.lexer.next()

    def expect(self, kind: str, what: str | None = None) -> Token:
        return self.lexer.expect(kind, what)

    def error(self, message: str, token: Token | None = None) -> ParseError:
        tok = token or self.cur
        return ParseError(message, tok.range)

    def span(self, start: int) -> SourceRange:
        return SourceRange(self.source, start, self.lexer.prev_end)

    def rng(self, start: int, end: int) -> SourceRange:
        return SourceRange(self.source, start, end)

    # -- module level

    def parse_module(self) -> list[t.Stmt]:
        """Every top-level definition; an indented source is accepted as a whole."""
        stmts: list[t.Stmt] = []
        indented = self.lexer.next_if("indent") is not None
        while self.cur.kind not in ("eof", "dedent"):
            if self.cur.kind == "newline":
                self.next()
                continue
            stmts.extend(self.parse_statement())
        if indented:
            self.lexer.next_if("dedent")
        if self.cur.kind != "eof":
            raise self.error("unexpected indentation")
        return stmts

    def parse_def_source(self) -> t.Def:
        """The single function definition of the source."""
        stmts = self.parse_module()
        if len(stmts) != 1 or not isinstance(stmts[0], t.Def):
            where = stmts[0].range if stmts else self.rng(0, 0)
            raise ParseError("expected exactly one function definition", where)
        return stmts[0]

    # -- statements

    def parse_statement(self) -> list[t.Stmt]:
        """One compound statement, or the simple statements of one line."""
        kind = self.cur.kind
        if kind == "@":
            while self.cur.kind == "@":
                self.next()
                self.parse_expr()
                self.expect("newline", "a newline after the decorator")
            if self.cur.kind not in ("def", "class"):
                raise self.error("expected 'def' after decorators")
            return self.parse_statement()
        method = _COMPOUND.get(kind)
        if method is not None:
            return [method(self)]
        return self.parse_simple_line()

    def parse_simple_line(self) -> list[t.Stmt]:
        stmts = [self.parse_simple_statement()]
        while self.lexer.next_if(";"):
            if self.cur.kind in ("newline", "eof"):
                break
            stmts.append(self.parse_simple_statement())
        if self.cur.kind != "eof":
            self.expect("newline", "end of line")
        return stmts

    def parse_block(self) -> list[t.Stmt]:
        """A suite after ':' (an indented block, or statements on the same line)."""
        self.expect(":", "':'")
        if self.cur.kind != "newline":
            return self.parse_simple_line()
        self.next()
        self.expect("indent", "an indented block")
        stmts: list[t.Stmt] = []
        while self.cur.kind not in ("dedent", "eof"):
            stmts.extend(self.parse_statement())
        self.lexer.next_if("dedent")
        return stmts

    def parse_simple_statement(self) -> t.Stmt:
        tok = self.cur
        start = tok.start
        kind = tok.kind
        if kind == "pass":
            self.next()
            return t.Pass(tok.range)
        if kind == "break":
            self.next()
            return t.Break(tok.range)
        if kind == "continue":
            self.next()
            return t.Continue(tok.range)
        if kind == "return":
            self.next()
            value = None if self._at_line_end() else self.parse_exprlist()
            return t.Return(self.span(start), value)
        if kind == "raise":
            self.next()
            exc = None if self._at_line_end() else self.parse_expr()
            if self.lexer.next_if("from"):
                self.parse_expr()
            return t.Raise(self.span(start), exc)
        if kind == "assert":
            self.next()
            test = self.parse_expr()
            msg = self.parse_expr() if self.lexer.next_if(",") else None
            return t.Assert(self.span(start), test, msg)
        if kind == "del":
            self.next()
            targets = [self.parse_expr(_TARGET_BP)]
            while self.lexer.next_if(","):
                if self._at_line_end():
                    break
                targets.append(self.parse_expr(_TARGET_BP))
            return t.Delete(self.span(start), targets)
        if kind in _UNSUPPORTED_STMTS:
            while not self._at_line_end():
                self.next()
            return t.Unsupported(self.span(start), _UNSUPPORTED_STMTS[kind])
        return self.parse_expression_statement()

    def _at_line_end(self) -> bool:
        return self.cur.kind in ("newline", ";", "eof")

    def parse_expression_statement(self) -> t.Stmt:
        start = self.cur.start
        first = self.parse_exprlist(star=True)
        if self.cur.kind == ":":
            self.next()
            annotation = self.parse_expr()
            value = None
            if self.lexer.next_if("="):
                value = self.parse_exprlist(star=True)
            return t.Assign(self.span(start), [first], value, annotation)
        op = _AUGMENTED.get(self.cur.kind)
        if op is not None:
            self.next()
            value = self.parse_exprlist()
            return t.AugAssign(self.span(start), first, op, value)
        if self.cur.kind == "=":
            targets = [first]
            while self.lexer.next_if("="):
                targets.append(self.parse_exprlist(star=True))
            last = targets.pop()
            rng = self.span(start)
            commented = self.type_comment_annotation(rng.end)
            return t.Assign(rng, targets, last, commented)
        return t.ExprStmt(first.range, first)

    def type_comment_annotation(self, stmt_end: int) -> t.Expr | None:
        return parse_type_comment(self.source, stmt_end)

    def parse_if(self) -> t.Stmt:
        start = self.next().start  # 'if' or 'elif'
        cond = self.parse_expr()
        body = self.parse_block()
        orelse: list[t.Stmt] = []
        if self.cur.kind == "elif":
            orelse = [self.parse_if()]
        elif self.cur.kind == "else":
            self.next()
            orelse = self.parse_block()
        end = (orelse or body)[-1].range.end
        return t.If(self.rng(start, end), cond, body, orelse)

    def parse_while(self) -> t.Stmt:
        start = self.next().start
        cond = self.parse_expr()
        body = self.parse_block()
        orelse = self._parse_else()
        end = (orelse or body)[-1].range.end
        return t.While(self.rng(start, end), cond, body, orelse)

    def _parse_else(self) -> list[t.Stmt]:
        if self.cur.kind == "else":
            self.next()
            return self.parse_block()
        return []

    def parse_for(self) -> t.Stmt:
        start = self.next().start
        target = self.parse_target_list()
        self.expect("in", "'in'")
        iterable = self.parse_exprlist()
        body = self.parse_block()
        orelse = self._parse_else()
        end = (orelse or body)[-1].range.end
        return t.For(self.rng(start, end), target, iterable, body, orelse)

    def parse_target_list(self) -> t.Expr:
        start = self.cur.start
        first = self.parse_expr(_TARGET_BP, star=True)
        if self.cur.kind != ",":
            return first
        elts = [first]
        while self.lexer.next_if(","):
            if self.cur.kind == "in":
                break
            elts.append(self.parse_expr(_TARGET_BP, star=True))
        return t.TupleLiteral(self.span(start), elts)

    def parse_with(self) -> t.Stmt:
        start = self.next().start
        items = []
        while True:
            item_start = self.cur.start
            expr = self.parse_expr()
            target = None
            if self.lexer.next_if("as"):
                target = self.parse_expr(_TARGET_BP)
            items.append(t.WithItem(self.span(item_start), expr, target))
            if not self.lexer.next_if(","):
                break
        body = self.parse_block()
        return t.With(self.rng(start, body[-1].range.end), items, body)

    def parse_def(self) -> t.Stmt:
        start = self.next().start
        name_tok = self.expect("ident", "a function name")
        self.expect("(", "'('")
        params = self.parse_params()
        self.expect(")", "')'")
        returns = None
        if self.lexer.next_if("->"):
            returns = self.parse_expr()
        body = self.parse_block()
        comment = parse_signature_comment(self.source, start, body[0].range.start)
        return t.Def(
            self.rng(start, body[-1].range.end),
            name_tok.text,
            params,
            returns,
            body,
            comment,
            (name_tok.start, name_tok.end),
        )

    def parse_params(self) -> list[t.Param]:
        params: list[t.Param] = []
        kwarg_only = False
        while self.cur.kind != ")":
            if self.cur.kind == "/":
                self.next()
            elif self.cur.kind in ("*", "**"):
                star = self.next()
                if self.cur.kind == "ident":
                    raise ParseError(
                        "variable-length arguments (*args, **kwargs) are not supported",
                        self.rng(star.start, self.cur.end),
                    )
                kwarg_only = True
            else:
                name = self.expect("ident", "a parameter name")
                annotation = None
                if self.lexer.next_if(":"):
                    annotation = self.parse_expr()
                rng = self.span(name.start)
                default = None
                if self.lexer.next_if("="):
                    default = self.parse_expr()
                params.append(t.Param(rng, name.text, annotation, default, kwarg_only))
            if not self.lexer.next_if(","):
                break
        return params

    def parse_compound_unsupported(self, what: str) -> t.Stmt:
        """`try` or `class`: parse the whole construct to report it as unsupported."""
        start = self.next().start
        while self.cur.kind != ":":
            if self.cur.kind in ("newline", "eof"):
                raise self.error("expected ':'")
            self.next()
        body = self.parse_block()
        end = body[-1].range.end
        if what == "try blocks":
            while self.cur.kind in ("except", "else", "finally"):
                self.next()
                while self.cur.kind != ":":
                    self.next()
                end = self.parse_block()[-1].range.end
        return t.Unsupported(self.rng(start, end), what)

    # -- expressions

    def parse_exprlist(self, *, star: bool = False) -> t.Expr:
        """`a` or `a, b, ...` (an unparenthesized tuple)."""
        start = self.cur.start
        first = self.parse_expr(star=star)
        if self.cur.kind != ",":
            return first
        elts = [first]
        while self.lexer.next_if(","):
            if (
                self.cur.kind in ("newline", "=", ")", ";", "eof", ":")
                or self.cur.kind in _AUGMENTED
            ):
                break
            elts.append(self.parse_expr(star=star))
        return t.TupleLiteral(self.span(start), elts)

    def parse_expr(self, min_bp: int = 0, *, star: bool = False) -> t.Expr:
        tok = self.cur
        if star and tok.kind == "*":
            self.next()
            value = self.parse_expr(_TARGET_BP)
            return t.Starred(self.span(tok.start), value)
        # a parent's range runs from its first token to its last, parentheses included
        start = tok.start
        left = self.parse_prefix()
        while True:
            kind = self.cur.kind
            if kind == "if":
                if min_bp > _TERNARY_BP:
                    break
                self.next()
                cond = self.parse_expr(_TERNARY_BP + 1)
                self.expect("else", "'else' in a conditional expression")
                orelse = self.parse_expr(_TERNARY_BP)
                left = t.IfExp(self.span(start), cond, left, orelse)
                continue
            if kind in _COMPARISONS and not (kind == "not" and self.lexer.lookahead().kind != "in"):
                if min_bp > _COMPARE_BP:
                    break
                left = self.parse_comparison(left, start)
                continue
            bp = _BINARY_BP.get(kind)
            if bp is None or bp < min_bp:
                break
            self.next()
            right = self.parse_expr(bp if kind == "**" else bp + 1)
            rng = self.span(start)
            if kind in ("and", "or"):
                left = t.BoolOp(rng, kind, left, right)
            else:
                left = t.BinOp(rng, kind, left, right)
        return left

    def parse_comparison(self, left: t.Expr, start: int) -> t.Expr:
        ops: list[str] = []
        comparators: list[t.Expr] = []
        while True:
            kind = self.cur.kind
            if kind == "not":
                if self.lexer.lookahead().kind != "in":
                    break
                self.next()
                self.next()
                op = "not in"
            elif kind == "is":
                self.next()
                op = "is not" if self.lexer.next_if("not") else "is"
            elif kind in _COMPARISONS:
                self.next()
                op = kind
            else:
                break
            ops.append(op)
            comparators.append(self.parse_expr(_COMPARE_BP + 1))
        return t.Compare(self.span(start), left, ops, comparators)

    def parse_prefix(self) -> t.Expr:
        tok = self.cur
        kind = tok.kind
        if kind in ("-", "+", "~"):
            self.next()
            operand = self.parse_expr(_UNARY_BP)
            return t.UnaryOp(self.span(tok.start), kind, operand)
        if kind == "not":
            self.next()
            operand = self.parse_expr(_NOT_BP)
            return t.UnaryOp(self.span(tok.start), "not", operand)
        if kind == "lambda":
            self.next()
            depth = 0
            while self.cur.kind not in ("newline", "eof") and not (
                depth == 0 and self.cur.kind in (")", "]", "}", ",")
            ):
                if self.cur.kind in ("(", "[", "{"):
                    depth += 1
                elif self.cur.kind in (")", "]", "}"):
                    depth -= 1
                self.next()
            return t.UnsupportedExpr(self.span(tok.start), "lambda expressions")
        if kind in ("yield", "await"):
            raise ParseError(f"'{kind}' is not supported", tok.range)
        return self.parse_postfix(self.parse_atom(), tok.start)

    def parse_atom(self) -> t.Expr:
        tok = self.cur
        kind = tok.kind
        if kind == "ident":
            self.next()
            return t.Name(tok.range, tok.text)
        if kind in ("True", "False", "None"):
            self.next()
            return t.Const(tok.range, {"True": True, "False": False, "None": None}[kind])
        if kind == "number":
            self.next()
            return t.Const(tok.range, parse_number(tok.text))
        if kind == "string":
            spans = []
            while self.cur.kind == "string":
                s = self.next()
                spans.append((s.start, s.end))
            return build_string(self.source, spans, self.parse_sub_expression)
        if kind == "...":
            self.next()
            return t.Dots(tok.range)
        if kind == "(":
            return self.parse_paren()
        if kind == "[":
            return self.parse_list()
        if kind == "{":
            return self.parse_dict()
        raise self.error(f"expected an expression but found {tok.describe()}")

    def parse_sub_expression(self, start: int, end: int) -> t.Expr:
        return parse_expression(self.source, start, end)

    def parse_paren(self) -> t.Expr:
        start = self.next().start
        if self.cur.kind == ")":
            self.next()
            return t.TupleLiteral(self.span(start), [])
        first = self.parse_expr(star=True)
        if self.cur.kind == "for":
            raise ParseError("generator expressions are not supported", self.span(start))
        if self.cur.kind != ",":
            self.expect(")", "')'")
            return first
        elts = [first]
        while self.lexer.next_if(","):
            if self.cur.kind == ")":
                break
            elts.append(self.parse_expr(star=True))
        self.expect(")", "')'")
        return t.TupleLiteral(self.span(start), elts)

    def parse_list(self) -> t.Expr:
        start = self.next().start
        if self.lexer.next_if("]"):
            return t.ListLiteral(self.span(start), [])
        first = self.parse_expr(star=True)
        if self.cur.kind == "for":
            generators = self.parse_comprehension_clauses()
            self.expect("]", "']'")
            return t.ListComp(self.span(start), first, generators)
        elts = [first]
        while self.lexer.next_if(","):
            if self.cur.kind == "]":
                break
            elts.append(self.parse_expr(star=True))
        self.expect("]", "']'")
        return t.ListLiteral(self.span(start), elts)

    def parse_dict(self) -> t.Expr:
        start = self.next().start
        if self.lexer.next_if("}"):
            return t.DictLiteral(self.span(start), [], [])
        key = self.parse_expr()
        if self.cur.kind != ":":
            while self.cur.kind != "}":
                if self.cur.kind == "eof":
                    raise self.error("expected '}'")
                self.next()
            self.next()
            return t.UnsupportedExpr(self.span(start), "set literals")
        self.next()
        value = self.parse_expr()
        if self.cur.kind == "for":
            generators = self.parse_comprehension_clauses()
            self.expect("}", "'}'")
            return t.DictComp(self.span(start), key, value, generators)
        keys, values = [key], [value]
        while self.lexer.next_if(","):
            if self.cur.kind == "}":
                break
            keys.append(self.parse_expr())
            self.expect(":", "':'")
            values.append(self.parse_expr())
        self.expect("}", "'}'")
        return t.DictLiteral(self.span(start), keys, values)

    def parse_comprehension_clauses(self) -> list[t.Comprehension]:
        generators = []
        while self.cur.kind == "for":
            self.next()
            target = self.parse_target_list()
            self.expect("in", "'in'")
            iterable = self.parse_expr(_TERNARY_BP + 1)
            conds = []
            while self.cur.kind == "if":
                self.next()
                conds.append(self.parse_expr(_TERNARY_BP + 1))
            end = (conds or [iterable])[-1].range.end
            generators.append(
                t.Comprehension(self.rng(target.range.start, end), target, iterable, conds)
            )
        return generators

    def parse_postfix(self, value: t.Expr, start: int) -> t.Expr:
        while True:
            kind = self.cur.kind
            if kind == ".":
                self.next()
                name = self.expect("ident", "an attribute name")
                value = t.Attribute(self.span(start), value, name.text)
            elif kind == "(":
                self.next()
                args, keywords = self.parse_call_args()
                self.expect(")", "')'")
                value = t.Call(self.span(start), value, args, keywords)
            elif kind == "[":
                self.next()
                indices, is_tuple = self.parse_subscripts()
                self.expect("]", "']'")
                value = t.Subscript(self.span(start), value, indices, is_tuple)
            else:
                return value

    def parse_call_args(self) -> tuple[list[t.Expr], list[t.Keyword]]:
        args: list[t.Expr] = []
        keywords: list[t.Keyword] = []
        while self.cur.kind != ")":
            tok = self.cur
            if tok.kind == "**":
                self.next()
                self.parse_expr()
                raise ParseError(
                    "keyword argument unpacking (**) is not supported", self.span(tok.start)
                )
            if tok.kind == "ident" and self.lexer.lookahead().kind == "=":
                self.next()
                self.next()
                value = self.parse_expr()
                keywords.append(t.Keyword(self.span(tok.start), tok.text, value))
            else:
                arg = self.parse_expr(star=True)
                if self.cur.kind == "for":
                    raise ParseError(
                        "generator expressions are not supported", self.span(tok.start)
                    )
                args.append(arg)
            if not self.lexer.next_if(","):
                break
        return args, keywords

    def parse_subscripts(self) -> tuple[list[t.Expr], bool]:
        items = [self.parse_subscript()]
        is_tuple = False
        while self.lexer.next_if(","):
            is_tuple = True
            if self.cur.kind == "]":
                break
            items.append(self.parse_subscript())
        if not is_tuple and isinstance(items[0], t.TupleLiteral):
            return list(items[0].elts), True
        return items, is_tuple

    def parse_subscript(self) -> t.Expr:
        start = self.cur.start
        lower = None
        if self.cur.kind not in (":", "::"):
            lower = self.parse_expr(star=True)
            if self.cur.kind not in (":", "::"):
                return lower
        if self.next().kind == "::":  # the lexer reads `::` as one token
            step = None if self.cur.kind in (",", "]") else self.parse_expr()
            return t.Slice(self.span(start), lower, None, step)
        upper = step = None
        if self.cur.kind not in (":", ",", "]"):
            upper = self.parse_expr()
        if self.lexer.next_if(":"):
            if self.cur.kind not in (",", "]"):
                step = self.parse_expr()
        return t.Slice(self.span(start), lower, upper, step)


_COMPOUND = {
    "if": Parser.parse_if,
    "while": Parser.parse_while,
    "for": Parser.parse_for,
    "with": Parser.parse_with,
    "def": Parser.parse_def,
    "try": lambda p: Parser.parse_compound_unsupported(p, "try blocks"),
    "class": lambda p: Parser.parse_compound_unsupported(p, "class definitions"),
}


# -- entry points


def parse_source(source: Source) -> list[t.Stmt]:
    """The top-level statements (function definitions) of a source text."""
    return Parser(source).parse_module()


def parse_def(source: Source) -> t.Def:
    """The one function definition in `source`."""
    return Parser(source).parse_def_source()


def parse_expression(source: Source, start: int, end: int) -> t.Expr:
    """The expression in [start, end) of `source`, with ranges into `source`."""
    sub = blanked_retarget(source, start, end)
    parser = Parser(sub.source)
    parser.lexer.next_if("indent")
    expr = parser.parse_exprlist()
    parser.lexer.next_if("newline")
    parser.lexer.next_if("dedent")
    if parser.cur.kind != "eof":
        raise parser.error("unexpected text after the expression")
    return sub.retarget(expr)


def parse_type_comment(source: Source, stmt_end: int) -> t.Expr | None:
    """The annotation in a `# type: T` comment after a statement ending at `stmt_end`."""
    span = find_type_comment(source, stmt_end, line_end(source, stmt_end))
    return None if span is None else parse_expression(source, *span)


def parse_signature_comment(source: Source, start: int, end: int) -> t.TypeComment | None:
    """A function's `# type: (A, B) -> R` (or `# type: (A, B)`) comment between its header
    and its body."""
    span = find_type_comment(source, start, end)
    if span is None:
        return None
    sub = blanked_retarget(source, *span)
    parser = Parser(sub.source)
    parser.lexer.next_if("indent")
    first = parser.expect("(", "'(' starting a signature type comment")
    params: list[t.Expr] = []
    while parser.cur.kind != ")":
        if parser.cur.kind in ("*", "**"):
            parser.next()
        params.append(parser.parse_expr())
        if not parser.lexer.next_if(","):
            break
    parser.expect(")", "')'")
    # `# type: (A, B)` types the parameters only; the return type is inferred then
    returns = parser.parse_expr() if parser.lexer.next_if("->") else None
    comment = t.TypeComment(parser.span(first.start), params, returns)
    return sub.retarget(comment)
