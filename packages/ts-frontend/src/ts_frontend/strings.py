"""String literals for both front ends: concatenation, escapes and f-strings.

A run of adjacent string literals becomes one `Str`; if any of them is an
f-string the run becomes `Call(Attribute(Str(format), "format"), args)`, as
TorchScript builds it, whose format string has `{}` (with any `!r` and
`:spec` kept) where each replacement field was. The expressions inside the
fields are parsed by the calling front end (`parse_expr(start, end)`), so
their ranges point into the original source.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ts_ir import Lexer, Source, SourceRange, parse_string_literal

from . import tree as t
from .errors import NotSupportedError, ParseError
from .sources import blanked

ParseExpr = Callable[[int, int], t.Expr]

_PREFIX = re.compile(r"[rRbBuUfF]*")


def string_tokens(source: Source, start: int, end: int) -> list[tuple[int, int]]:
    """The spans of the string literal tokens in [start, end)."""
    text = blanked(source, start, end)
    if start > 0 and text.text[start - 1] != "\n":
        # lex as inside parentheses, where literals may continue on lines of any indent
        opened = text.text[: start - 1] + "(" + text.text[start:]
        text = Source(opened, text.filename, text.starting_line_no)
    lexer = Lexer(text, python=True, error_class=ParseError)
    spans = []
    while lexer.cur.kind != "eof":
        tok = lexer.next()
        if tok.kind in ("indent", "dedent", "newline", "("):
            continue
        if tok.kind != "string":
            raise ParseError("expected a string literal", tok.range)
        spans.append((tok.start, tok.end))
    return spans


def build_string(source: Source, spans: list[tuple[int, int]], parse_expr: ParseExpr) -> t.Expr:
    """The tree of adjacent string literals at `spans` (see the module docstring)."""
    whole = SourceRange(source, spans[0][0], spans[-1][1])
    text = source.text
    pieces: list[str] = []
    args: list[t.Expr] = []
    formatted = False
    for s, e in spans:
        token = text[s:e]
        prefix = _PREFIX.match(token).group().lower()  # type: ignore[union-attr]
        if "b" in prefix:
            raise NotSupportedError("bytes literals are not supported", SourceRange(source, s, e))
        if "f" not in prefix:
            value = parse_string_literal(token)
            assert isinstance(value, str)
            pieces.append(value.replace("{", "{{").replace("}", "}}"))
            continue
        formatted = True
        fmt, exprs = _split_fstring(source, s, e, prefix)
        pieces.append(fmt)
        args.extend(parse_expr(a, b) for a, b in exprs)
    joined = "".join(pieces)
    if not formatted:
        return t.Str(whole, joined.replace("{{", "{").replace("}}", "}"))
    fmt_str = t.Str(whole, joined)
    return t.Call(whole, t.Attribute(whole, fmt_str, "format"), args, [])


def _split_fstring(
    source: Source, start: int, end: int, prefix: str
) -> tuple[str, list[tuple[int, int]]]:
    text = source.text
    body_start = start + len(prefix)
    quote = text[body_start : body_start + 3]
    if quote not in ('"""', "'''"):
        quote = text[body_start]
    i = body_start + len(quote)
    stop = end - len(quote)
    raw = "r" in prefix
    out: list[str] = []
    exprs: list[tuple[int, int]] = []
    literal_start = i

    def flush(upto: int) -> None:
        segment = text[literal_start:upto]
        if segment:
            value = parse_string_literal(("r" if raw else "") + quote + segment + quote)
            assert isinstance(value, str)
            out.append(value.replace("{", "{{").replace("}", "}}"))

    while i < stop:
        ch = text[i]
        if ch == "\\" and not raw:
            i += 2
            continue
        if ch in "{}" and i + 1 < stop and text[i + 1] == ch:
            flush(i + 1)
            i += 2
            literal_start = i
            continue
        if ch == "}":
            raise ParseError("f-string: single '}' is not allowed", SourceRange(source, i, i + 1))
        if ch != "{":
            i += 1
            continue
        flush(i)
        expr_start = i + 1
        j, expr_end, conversion, spec = _replacement_field(source, expr_start, stop)
        exprs.append((expr_start, expr_end))
        field = "{"
        if conversion:
            field += "!" + conversion
        if spec:
            if "{" in spec:
                raise NotSupportedError(
                    "nested replacement fields in an f-string format spec are not supported",
                    SourceRange(source, expr_end, j),
                )
            field += ":" + spec
        out.append(field + "}")
        i = j
        literal_start = i
    flush(stop)
    return "".join(out), exprs


def _replacement_field(source: Source, i: int, stop: int) -> tuple[int, int, str, str]:
    """Scan `expr[!conv][:spec]}` from `i`; returns (after '}', expr end, conversion, spec)."""
    text = source.text
    depth = 0
    j = i
    quote: str | None = None
    while j < stop:
        ch = text[j]
        if quote is not None:
            if ch == "\\":
                j += 2
                continue
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and ch == "!" and text[j + 1 : j + 2] != "=":
            break
        elif depth == 0 and ch == ":":
            break
        j += 1
    expr_end = j
    while expr_end > i and text[expr_end - 1] in " \t":
        expr_end -= 1
    conversion = ""
    if j < stop and text[j] == "!":
        conversion = text[j + 1 : j + 2]
        if conversion not in ("r", "s", "a"):
            raise ParseError(
                "f-string: invalid conversion character", SourceRange(source, j, j + 2)
            )
        j += 2
    spec = ""
    if j < stop and text[j] == ":":
        k = j + 1
        nest = 0
        while k < stop and (text[k] != "}" or nest):
            if text[k] == "{":
                nest += 1
            elif text[k] == "}":
                nest -= 1
            k += 1
        spec = text[j + 1 : k]
        j = k
    if j >= stop or text[j] != "}":
        raise ParseError("f-string: expecting '}'", SourceRange(source, i - 1, i))
    if expr_end == i:
        raise ParseError(
            "f-string: empty expression not allowed", SourceRange(source, i - 1, j + 1)
        )
    return j + 1, expr_end, conversion, spec
