"""Source text and ranges into it, for error messages and node locations.

A `Source` is a piece of text with an optional file name and the line number
its first line has in that file. A `SourceRange` is a half-open character span
in a `Source`. Errors anywhere in tsjit point at a range and print the line
with the span underlined, as TorchScript's ErrorReport does.
"""

from __future__ import annotations

import bisect


class Source:
    """Text with a file name; line starts are computed once, lookups are O(log lines)."""

    __slots__ = ("_line_starts", "filename", "starting_line_no", "text")

    def __init__(self, text: str, filename: str | None = None, starting_line_no: int = 1) -> None:
        self.text = text
        self.filename = filename
        self.starting_line_no = starting_line_no
        self._line_starts: list[int] | None = None

    def line_starts(self) -> list[int]:
        if self._line_starts is None:
            starts = [0]
            find = self.text.find
            i = find("\n")
            while i != -1:
                starts.append(i + 1)
                i = find("\n", i + 1)
            self._line_starts = starts
        return self._line_starts

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based line (relative to the file) and 1-based column of a character offset."""
        starts = self.line_starts()
        idx = bisect.bisect_right(starts, offset) - 1
        return idx + self.starting_line_no, offset - starts[idx] + 1

    def line_text(self, offset: int) -> tuple[int, str]:
        """Start offset and text (without newline) of the line holding `offset`."""
        starts = self.line_starts()
        idx = bisect.bisect_right(starts, offset) - 1
        start = starts[idx]
        end = self.text.find("\n", start)
        if end == -1:
            end = len(self.text)
        return start, self.text[start:end]


class SourceRange:
    """A half-open span [start, end) of a `Source`."""

    __slots__ = ("end", "source", "start")

    def __init__(self, source: Source, start: int, end: int) -> None:
        self.source = source
        self.start = start
        self.end = end

    def file_line_col(self) -> tuple[str, int, int]:
        line, col = self.source.line_col(self.start)
        # TorchScript prints 0-based columns in `# file:line:col` comments.
        return self.source.filename or "<string>", line, col - 1

    def text(self) -> str:
        return self.source.text[self.start : self.end]

    def highlight(self) -> str:
        """The source line holding the start of the range, with the range underlined."""
        line_start, line = self.source.line_text(self.start)
        col = self.start - line_start
        width = max(1, min(self.end, line_start + len(line)) - self.start)
        marker = " " * col + ("^" if width == 1 else "~" * width)
        return f"{line}\n{marker}"

    def __repr__(self) -> str:
        filename, line, col = self.file_line_col()
        return f"SourceRange({filename}:{line}:{col})"


class SourceLocation:
    """A location known only by file, line and column, as read from an IR `# file:l:c` comment."""

    __slots__ = ("col", "filename", "line")

    def __init__(self, filename: str, line: int, col: int) -> None:
        self.filename = filename
        self.line = line
        self.col = col

    def file_line_col(self) -> tuple[str, int, int]:
        return self.filename, self.line, self.col

    def __repr__(self) -> str:
        return f"SourceLocation({self.filename}:{self.line}:{self.col})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SourceLocation) and self.file_line_col() == other.file_line_col()

    def __hash__(self) -> int:
        return hash(self.file_line_col())


def format_error(message: str, range: SourceRange | None) -> str:
    """`message`, then where it happened and the offending line with a caret or underline."""
    if range is None:
        return message
    filename, line, col = range.file_line_col()
    where = (
        f"{filename}:{line}:{col + 1}"
        if range.source.filename
        else f"line {line}, column {col + 1}"
    )
    return f"{message}\n  at {where}:\n{_indent(range.highlight(), '    ')}"


def _indent(text: str, prefix: str) -> str:
    return "\n".join(prefix + line for line in text.split("\n"))
