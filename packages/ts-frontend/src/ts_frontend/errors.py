"""The errors the frontend raises: each points at the culprit in the source.

Every error is a `FrontendError` (a ts-ir `SourceError`): `str()` gives the
message, the file, line and column, the source line with the offending span
underlined, a hint for common mistakes, and, when the culprit sits in a
function compiled because another one called it, the chain of calls that led
there.
"""

from __future__ import annotations

from ts_ir import SourceError, SourceRange, format_error


class FrontendError(SourceError):
    """A program the frontend cannot compile."""

    def __init__(
        self, message: str, range: SourceRange | None = None, *, hint: str | None = None
    ) -> None:
        self.hint = hint
        self.call_stack: list[tuple[str, str, SourceRange | None]] = []
        super().__init__(message, range)

    def add_call_site(self, callee: str, caller: str, range: SourceRange | None) -> None:
        """Record that `callee` was being compiled because `caller` calls it at `range`."""
        self.call_stack.append((callee, caller, range))
        self.args = (str(self),)

    def __str__(self) -> str:
        text = format_error(self.message, self.range)
        if self.hint:
            text += f"\nhint: {self.hint}"
        for callee, caller, site in self.call_stack:
            text += "\n\n" + format_error(
                f"'{callee}' is being compiled because '{caller}' calls it", site
            )
        return text


class ParseError(FrontendError):
    """Source text that is not valid Python (from the frontend's own parser)."""


class NotSupportedError(FrontendError):
    """A Python construct the script language does not support."""


class UndefinedNameError(FrontendError):
    """A name that is defined nowhere the program can see."""


class UninitializedVariableError(FrontendError):
    """A variable read on a path where it was never assigned."""


class FrontendTypeError(FrontendError):
    """A value of the wrong type: mismatched branches, bad annotations, wrong return type."""


class CallError(FrontendError):
    """A call with the wrong number or types of arguments."""


class SourceUnavailableError(FrontendError):
    """The source of a Python function cannot be found (defined in a REPL or by exec)."""
