"""The root of tsjit's error hierarchy and the IR's own errors.

Every error a user can trigger anywhere in tsjit derives from
`TorchScriptError`; packages above ts-ir subclass it (schema parse errors,
frontend errors, runtime errors).
"""

from __future__ import annotations

from .source import SourceRange, format_error


class TorchScriptError(Exception):
    """Base class of every error tsjit raises for bad input or misuse."""


class SourceError(TorchScriptError):
    """An error tied to a span of source text; `str()` shows the line with a caret."""

    def __init__(self, message: str, range: SourceRange | None = None) -> None:
        self.message = message
        self.range = range
        super().__init__(format_error(message, range))

    @property
    def line(self) -> int | None:
        return None if self.range is None else self.range.source.line_col(self.range.start)[0]

    @property
    def column(self) -> int | None:
        """1-based column of the start of the offending text."""
        return None if self.range is None else self.range.source.line_col(self.range.start)[1]


class IRError(TorchScriptError):
    """Misuse of the IR API, such as destroying a node whose outputs are still used."""


class IRParseError(SourceError):
    """Malformed IR text; points at the offending line and column."""


class LintError(IRError):
    """A graph broke an IR invariant. The message names the invariant and holds the graph."""

    def __init__(self, invariant: str, graph_text: str) -> None:
        self.invariant = invariant
        self.graph_text = graph_text
        super().__init__(f"graph lint failed: {invariant}\n{graph_text}")
