"""Finding the source of Python functions, and the `# type:` comments in it.

A function's source is kept as the file has it (indentation included) in a
`Source` that knows its file name and first line number, so every range,
error and `# file:line:col` node comment points into the real file.
"""

from __future__ import annotations

import inspect
import linecache
import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from ts_ir import Source, SourceRange

from .errors import SourceUnavailableError

_TYPE_COMMENT = re.compile(r"#\s*type:\s*")


def source_of(fn: Callable[..., Any]) -> Source:
    """The source of a function or method as a `Source` (file name and first line set)."""
    fn = inspect.unwrap(fn)
    code = getattr(fn, "__code__", None)
    if code is None:
        raise SourceUnavailableError(
            f"{fn!r} is not a Python function; there is no source to compile"
        )
    return _cached_source(code)


@lru_cache(maxsize=1024)
def _cached_source(code: Any) -> Source:
    try:
        lines, first_line = inspect.getsourcelines(code)
    except (OSError, TypeError) as exc:
        raise SourceUnavailableError(
            f"cannot get the source of '{code.co_name}' ({exc}); script functions defined in a "
            "file, or compile a source string with ts_frontend.script_source"
        ) from None
    filename = inspect.getsourcefile(code) or code.co_filename
    return Source("".join(lines), filename, max(first_line, 1))


def clear_cache() -> None:
    _cached_source.cache_clear()
    linecache.checkcache()


def find_type_comment(source: Source, start: int, end: int) -> tuple[int, int] | None:
    """The span of the type in the first `# type: ...` comment within [start, end), if any."""
    text = source.text
    i = start
    while True:
        i = text.find("#", i, end)
        if i == -1:
            return None
        if not _inside_string(text, i):
            m = _TYPE_COMMENT.match(text, i)
            if m is None:
                return None
            eol = text.find("\n", m.end())
            stop = len(text) if eol == -1 else eol
            body = text[m.end() : stop].rstrip()
            if body.startswith("ignore"):
                return None
            return m.end(), m.end() + len(body)
        i += 1


def _inside_string(text: str, pos: int) -> bool:
    """Whether `pos` is inside a one-line string literal on its line (a cheap check)."""
    line_start = text.rfind("\n", 0, pos) + 1
    quote = None
    i = line_start
    while i < pos:
        ch = text[i]
        if quote is None:
            if ch in "'\"":
                quote = ch
        elif ch == "\\":
            i += 1
        elif ch == quote:
            quote = None
        i += 1
    return quote is not None


def line_end(source: Source, offset: int) -> int:
    eol = source.text.find("\n", offset)
    return len(source.text) if eol == -1 else eol


def blanked(source: Source, start: int, end: int) -> Source:
    """A copy of `source` where only [start, end) is kept; the rest becomes spaces.

    Offsets, line and column numbers stay those of the original, so a parser
    run over the copy gives ranges valid in the original.
    """
    text = source.text
    head = _NOT_NEWLINE.sub(" ", text[:start])
    tail = _NOT_NEWLINE.sub(" ", text[end:])
    return Source(head + text[start:end] + tail, source.filename, source.starting_line_no)


_NOT_NEWLINE = re.compile(r"[^\n]")


class Blanked:
    """A blanked copy of a source (`blanked`) and the way back to the original."""

    __slots__ = ("original", "source")

    def __init__(self, original: Source, start: int, end: int) -> None:
        self.original = original
        self.source = blanked(original, start, end)

    def retarget(self, tree: Any) -> Any:
        return retarget(tree, self.original)


def blanked_retarget(source: Source, start: int, end: int) -> Blanked:
    return Blanked(source, start, end)


def retarget(tree: Any, source: Source) -> Any:
    """Point every range in `tree` at `source` (same offsets, another Source object)."""
    from .tree import Tree

    stack = [tree]
    while stack:
        t = stack.pop()
        t.range = SourceRange(source, t.range.start, t.range.end)
        for name in t.fields:
            value = getattr(t, name)
            if isinstance(value, Tree):
                stack.append(value)
            elif isinstance(value, list):
                stack.extend(v for v in value if isinstance(v, Tree))
    return tree
