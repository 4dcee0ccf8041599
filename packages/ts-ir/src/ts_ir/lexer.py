"""The shared lexer: IR text, schema text and Python source all tokenize here.

One compiled pattern recognizes every token; the lexer produces tokens lazily
with arbitrary lookahead. Two switches adapt it to its three users:

- `percent_names`: `%x.1` is one `var` token (IR text).
- `python`: NEWLINE/INDENT/DEDENT are injected from indentation outside
  brackets, keywords get their own kinds, and comments are kept aside so the
  frontend can read `# type:` comments.

Token kinds are short strings: `ident`, `number`, `string`, `var`, `newline`,
`indent`, `dedent`, `eof`, a keyword's text (python mode), or an operator's
own text (`(`, `->`, `**=`).
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterator

from .errors import SourceError
from .source import Source, SourceRange

PYTHON_KEYWORDS = frozenset(
    """False None True and as assert async await break class continue def del elif else
    except finally for from global if import in is lambda nonlocal not or pass raise
    return try while with yield""".split()
)

_OPERATORS = sorted(
    """**= //= >>= <<= ... -> :: ** // == != <= >= << >> += -= *= /= %= &= |= ^= @= :=
    + - * / % @ & | ^ ~ < > ( ) [ ] { } , : . ; = ! ?""".split(),
    key=len,
    reverse=True,
)

_STRING_PREFIX = r"(?:[rRbBuUfF]|[rR][bBfF]|[bBfF][rR])?"
_STRING_BODY = "|".join(
    [
        r"'''(?:\\.|[^\\])*?'''",
        r'"""(?:\\.|[^\\])*?"""',
        r"'(?:\\.|[^\\'\r\n])*'",
        r'"(?:\\.|[^\\"\r\n])*"',
    ]
)
_NUMBER = (
    r"0[xX]_?[0-9a-fA-F][0-9a-fA-F_]*|0[oO]_?[0-7][0-7_]*|0[bB]_?[01][01_]*"
    r"|(?:\d[\d_]*\.[\d_]*|\.\d[\d_]*|\d[\d_]*)(?:[eE][+-]?\d+)?[jJ]?"
)
# Operators, longest first within each alternative, as character classes where possible.
_OP = (
    r"\*\*=|//=|>>=|<<=|\.\.\.|->|::|:=|\*\*|//|<<|>>|[-+*/%@&|^=!<>]="
    r"|[-+*/%@&|^~<>()\[\]{},:.;=!?]"
)
_TOKEN_RE = re.compile(
    "|".join(
        [
            r"(?P<ws>[ \t\f]+|\\\r?\n)",
            r"(?P<nl>\r?\n)",
            r"(?P<comment>\#[^\r\n]*)",
            r"(?P<var>%[\w.]+)",
            rf"(?P<string>{_STRING_PREFIX}(?:{_STRING_BODY}))",
            rf"(?P<number>{_NUMBER})",
            r"(?P<ident>[^\W\d]\w*)",
            rf"(?P<op>{_OP})",
            r"(?P<bad>.)",
        ]
    ),
    re.DOTALL,
)
# IR and schema text: no string prefixes, whitespace and newlines alike, common tokens first.
_FLAT_TOKEN_RE = re.compile(
    "|".join(
        [
            r"(?P<ws>\s+)",
            r"(?P<var>%[\w.]+)",
            r"(?P<ident>[^\W\d]\w*)",
            rf"(?P<number>{_NUMBER})",
            rf"(?P<op>{_OP})",
            rf"(?P<string>{_STRING_BODY})",
            r"(?P<comment>\#[^\r\n]*)",
            r"(?P<bad>.)",
        ]
    ),
    re.DOTALL,
)
_OPEN, _CLOSE = "([{", ")]}"
_INDENT_RE = re.compile(r"[ \t\f]*")


class Token:
    __slots__ = ("end", "kind", "source", "start", "text")

    def __init__(self, kind: str, text: str, start: int, end: int, source: Source) -> None:
        self.kind = kind
        self.text = text
        self.start = start
        self.end = end
        self.source = source

    @property
    def range(self) -> SourceRange:
        return SourceRange(self.source, self.start, self.end)

    @property
    def value(self) -> int | float | complex | str | bytes:
        """The literal value of a number or string token."""
        if self.kind == "number":
            return parse_number(self.text)
        if self.kind == "string":
            return parse_string_literal(self.text)
        raise ValueError(f"a {self.kind} token has no literal value")

    def describe(self) -> str:
        if self.kind == "eof":
            return "end of input"
        if self.kind in ("newline", "indent", "dedent"):
            return self.kind
        return repr(self.text)

    def __repr__(self) -> str:
        return f"Token({self.kind!r}, {self.text!r}, {self.start})"


class Lexer:
    """Tokens of a `Source` with lookahead; errors are raised as `error_class`."""

    def __init__(
        self,
        source: Source | str,
        *,
        percent_names: bool = False,
        python: bool = False,
        error_class: type[SourceError] = SourceError,
    ) -> None:
        self.source = source if isinstance(source, Source) else Source(source)
        self.percent_names = percent_names
        self.python = python
        self.error_class = error_class
        self.comments: list[Token] = []
        self.prev_end = 0  # end offset of the last consumed token
        self._tokens = self._generate() if python else self._generate_flat()
        self._buffer: deque[Token] = deque()
        self.cur = self._pull()

    # -- consuming

    def _pull(self) -> Token:
        if self._buffer:
            return self._buffer.popleft()
        return next(self._tokens)

    def next(self) -> Token:
        """Consume the current token and return it."""
        tok = self.cur
        if tok.kind != "eof":
            self.cur = self._pull()
        self.prev_end = tok.end
        return tok

    def lookahead(self, k: int = 1) -> Token:
        """The token `k` places after the current one (without consuming)."""
        while len(self._buffer) < k:
            if self._buffer and self._buffer[-1].kind == "eof":
                return self._buffer[-1]
            if not self._buffer and self.cur.kind == "eof":
                return self.cur
            self._buffer.append(next(self._tokens))
        return self._buffer[k - 1]

    def next_if(self, kind: str) -> Token | None:
        if self.cur.kind == kind:
            return self.next()
        return None

    def expect(self, kind: str, what: str | None = None) -> Token:
        if self.cur.kind != kind:
            self.error(f"expected {what or repr(kind)} but found {self.cur.describe()}")
        return self.next()

    def error(self, message: str, token: Token | None = None) -> None:
        tok = token or self.cur
        raise self.error_class(message, tok.range)

    # -- producing

    def _bad(self, start: int, message: str) -> SourceError:
        return self.error_class(message, SourceRange(self.source, start, start + 1))

    def _generate_flat(self) -> Iterator[Token]:
        """Whitespace- and newline-insensitive tokens (IR and schema text)."""
        text, source, percent = self.source.text, self.source, self.percent_names
        comments = self.comments
        for m in _FLAT_TOKEN_RE.finditer(text):
            kind = m.lastgroup
            if kind == "ws":
                continue
            start, end = m.span()
            if kind == "comment":
                comments.append(Token("comment", m.group(), start, end, source))
                continue
            if kind == "op":
                kind = m.group()
            elif kind == "var":
                if not percent:
                    # not a name here: re-lex `%` as an operator
                    yield Token("%", "%", start, start + 1, source)
                    yield from self._relex(start + 1, end)
                    continue
            elif kind == "bad":
                raise self._bad(start, _bad_character_message(m.group()))
            yield Token(kind, m.group(), start, end, source)  # type: ignore[arg-type]
        yield Token("eof", "", len(text), len(text), source)

    def _relex(self, start: int, end: int) -> Iterator[Token]:
        for m in _TOKEN_RE.finditer(self.source.text, start, end):
            kind = m.lastgroup
            yield Token(
                m.group() if kind == "op" else kind, m.group(), m.start(), m.end(), self.source
            )  # type: ignore[arg-type]

    def _generate(self) -> Iterator[Token]:
        """Python tokens with NEWLINE, INDENT and DEDENT injected."""
        text, source = self.source.text, self.source
        indents = [0]
        depth = 0
        at_line_start = True
        line_has_tokens = False
        pos = 0
        n = len(text)
        while pos < n:
            if at_line_start and depth == 0:
                # measure indentation of this line; skip blank and comment-only lines
                m = _INDENT_RE.match(text, pos)
                assert m is not None
                indent_end = m.end()
                if indent_end >= n or text[indent_end] in "\r\n#":
                    nl = text.find("\n", indent_end)
                    if indent_end < n and text[indent_end] == "#":
                        end = n if nl == -1 else nl
                        self.comments.append(
                            Token(
                                "comment",
                                text[indent_end:end].rstrip("\r"),
                                indent_end,
                                end,
                                source,
                            )
                        )
                    pos = n if nl == -1 else nl + 1
                    continue
                width = _indent_width(text[pos:indent_end])
                if width > indents[-1]:
                    indents.append(width)
                    yield Token("indent", "", indent_end, indent_end, source)
                else:
                    while width < indents[-1]:
                        indents.pop()
                        yield Token("dedent", "", indent_end, indent_end, source)
                    if width != indents[-1]:
                        raise self._bad(
                            indent_end, "unindent does not match any outer indentation level"
                        )
                pos = indent_end
                at_line_start = False
            m = _TOKEN_RE.match(text, pos)
            assert m is not None
            kind = m.lastgroup
            start, end = m.span()
            pos = end
            if kind == "ws":
                continue
            if kind == "comment":
                self.comments.append(Token("comment", m.group(), start, end, source))
                continue
            if kind == "nl":
                if depth == 0:
                    if line_has_tokens:
                        yield Token("newline", "", start, start, source)
                    line_has_tokens = False
                    at_line_start = True
                continue
            if kind == "bad":
                raise self._bad(start, _bad_character_message(m.group()))
            if kind == "var":
                # `%` is the modulo operator in Python
                yield Token("%", "%", start, start + 1, source)
                pos = start + 1
                line_has_tokens = True
                continue
            tok_text = m.group()
            if kind == "op":
                kind = tok_text
                if tok_text in _OPEN:
                    depth += 1
                elif tok_text in _CLOSE:
                    depth = max(0, depth - 1)
            elif kind == "ident" and tok_text in PYTHON_KEYWORDS:
                kind = tok_text
            line_has_tokens = True
            yield Token(kind, tok_text, start, end, source)  # type: ignore[arg-type]
        if line_has_tokens:
            yield Token("newline", "", n, n, source)
        for _ in indents[1:]:
            yield Token("dedent", "", n, n, source)
        yield Token("eof", "", n, n, source)


def _bad_character_message(ch: str) -> str:
    # a quote only fails to start a string token when the string does not end
    if ch in "'\"":
        return "unterminated string literal"
    return f"unexpected character {ch!r}"


def _indent_width(ws: str) -> int:
    width = 0
    for ch in ws:
        width = (width // 8 + 1) * 8 if ch == "\t" else width + 1
    return width


def parse_number(text: str) -> int | float | complex:
    """The value of a number token (Python's literal syntax)."""
    t = text.replace("_", "")
    if t[-1] in "jJ":
        return complex(0, float(t[:-1]))
    lower = t.lower()
    if lower.startswith("0x"):
        return int(t, 16)
    if lower.startswith("0o"):
        return int(t[2:], 8)
    if lower.startswith("0b"):
        return int(t, 2)
    if "." in t or "e" in lower:
        return float(t)
    return int(t)


_SIMPLE_ESCAPES = {
    "\\": "\\", "'": "'", '"': '"', "a": "\a", "b": "\b", "f": "\f", "n": "\n",
    "r": "\r", "t": "\t", "v": "\v", "\n": "",
}  # fmt: skip
_ESCAPE_RE = re.compile(
    r"\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{1,3}|.)", re.DOTALL
)


def parse_string_literal(text: str) -> str | bytes:
    """Decode a string token: prefixes, single or triple quotes, and escapes.

    Octal escapes denote bytes, as in the IR printer's output for non-printable
    bytes; the decoded bytes are read as UTF-8 where they form valid UTF-8.
    """
    i = 0
    while text[i] not in "'\"":
        i += 1
    prefix = text[:i].lower()
    body = text[i:]
    quote = body[:3] if body[:3] in ("'''", '"""') else body[0]
    body = body[len(quote) : -len(quote)]
    if "r" in prefix:
        return body.encode() if "b" in prefix else body
    out = bytearray()
    pos = 0
    for m in _ESCAPE_RE.finditer(body):
        out += body[pos : m.start()].encode()
        esc = m.group(1)
        if esc in _SIMPLE_ESCAPES:
            out += _SIMPLE_ESCAPES[esc].encode()
        elif esc[0] in "xuU" and len(esc) > 1:
            code = int(esc[1:], 16)
            out += bytes([code]) if esc[0] == "x" and "b" in prefix else chr(code).encode()
        elif esc[0] in "01234567":
            out.append(int(esc, 8) & 0xFF)
        else:
            out += ("\\" + esc).encode()
        pos = m.end()
    out += body[pos:].encode()
    if "b" in prefix:
        return bytes(out)
    return out.decode("utf-8", errors="surrogateescape")
