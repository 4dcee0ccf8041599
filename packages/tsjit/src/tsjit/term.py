"""Terminal output for the `tsjit` command: colour where the terminal supports it, a progress line.

Colour is on when the stream is a terminal, `NO_COLOR` is unset and `TERM`
is not `dumb` (or when `--color always` forces it); piped output is plain.
"""

from __future__ import annotations

import os
import re
import sys
import time
from typing import TextIO

_CODES = {
    "bold": "1",
    "dim": "2",
    "red": "31",
    "green": "32",
    "yellow": "33",
    "blue": "34",
    "magenta": "35",
    "cyan": "36",
}


class Terminal:
    """Writes to a stream, colouring only if the stream is a capable terminal."""

    def __init__(self, stream: TextIO | None = None, *, color: str = "auto") -> None:
        self.stream = stream or sys.stdout
        if color == "always":
            self.color = True
        elif color == "never":
            self.color = False
        else:
            self.color = (
                hasattr(self.stream, "isatty")
                and self.stream.isatty()
                and "NO_COLOR" not in os.environ
                and os.environ.get("TERM") != "dumb"
            )

    def style(self, text: str, *styles: str) -> str:
        if not self.color or not styles:
            return text
        codes = ";".join(_CODES[s] for s in styles)
        return f"\033[{codes}m{text}\033[0m"

    def write(self, text: str = "") -> None:
        self.stream.write(text + "\n")
        self.stream.flush()

    def heading(self, text: str) -> None:
        self.write()
        self.write(self.style(f"== {text}", "bold", "cyan"))

    def note(self, text: str) -> None:
        self.write(self.style(text, "dim"))

    def block(self, text: str, *, language: str = "") -> None:
        """Indented text; IR and code get light highlighting of operator names."""
        for line in text.rstrip("\n").split("\n"):
            self.write("    " + (self._highlight(line) if language else line))

    def _highlight(self, line: str) -> str:
        if not self.color:
            return line
        line = re.sub(
            r"\b(prim::FusionGroup(?:_\d+)?|prim::DifferentiableGraph(?:_\d+)?)\b",
            lambda m: self.style(m.group(1), "magenta", "bold"),
            line,
        )
        return re.sub(
            r"\b((?:aten|prim)::\w+)",
            lambda m: m.group(1) if "\033" in m.group(1) else self.style(m.group(1), "yellow"),
            line,
        )

    def table(self, headers: list[str], rows: list[list[str]]) -> None:
        widths = [max(len(str(r[i])) for r in [headers, *rows]) for i in range(len(headers))]
        fmt = "  ".join(f"{{:<{w}}}" for w in widths)
        self.write("    " + self.style(fmt.format(*headers), "bold"))
        self.write("    " + "  ".join("-" * w for w in widths))
        for row in rows:
            self.write("    " + fmt.format(*[str(c) for c in row]))


class Progress:
    """A one-line progress display on a terminal; silent when output is piped."""

    def __init__(self, term: Terminal, label: str, total: int) -> None:
        self.term = term
        self.label = label
        self.total = max(total, 1)
        self.done = 0
        self.live = term.color or (hasattr(term.stream, "isatty") and term.stream.isatty())
        self._last = 0.0

    def step(self, what: str = "") -> None:
        self.done += 1
        now = time.monotonic()
        if not self.live or (now - self._last < 0.05 and self.done < self.total):
            return
        self._last = now
        width = 24
        filled = int(width * self.done / self.total)
        bar = "#" * filled + "." * (width - filled)
        self.term.stream.write(f"\r    {self.label} [{bar}] {self.done}/{self.total} {what:<30}")
        self.term.stream.flush()

    def finish(self) -> None:
        if self.live:
            self.term.stream.write("\r" + " " * 80 + "\r")
            self.term.stream.flush()
