"""The errors ts-passes raises; all derive from ts-ir's `TorchScriptError`."""

from __future__ import annotations

from ts_ir import TorchScriptError


class PassError(TorchScriptError):
    """A pass was misused or met IR it cannot handle."""


class UnknownPassError(PassError, KeyError):
    """A pass name that no registered pass answers to."""

    def __init__(self, name: str, known: list[str]) -> None:
        self.name = name
        self.known = known
        super().__init__(f"unknown pass {name!r}; known passes: {', '.join(known)}")

    def __str__(self) -> str:
        return str(self.args[0])


class AliasAnalysisError(PassError):
    """An alias query about a value the `AliasDb` was not built with (or told about)."""


class FusionBackendError(PassError):
    """A fusion backend is malformed or failed to load."""


class PassFailedError(PassError):
    """A pass raised, or (verifying each pass) left a graph that does not lint: `pass_name`
    names it, `__cause__` is what went wrong."""

    def __init__(self, pass_name: str, what: str) -> None:
        self.pass_name = pass_name
        super().__init__(f"pass {pass_name!r} {what}")
