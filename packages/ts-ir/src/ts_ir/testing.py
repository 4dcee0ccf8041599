"""FileCheck: ordered substring checks on IR text, as `torch.testing.FileCheck` does.

    FileCheck().check("aten::add").check_next("return").check_not("aten::mul").run(str(g))

Checks run in order over the text, each starting where the previous match
ended. `check_not` forbids a string between the matches around it (or up to
the end); a run of `check_dag` calls matches in any order; `check_count`
matches a string several times in a row; `check_source_highlighted` finds a
string underlined with `~` on the next line (as error messages point at
source). A failure raises `FileCheckError`, whose message starts as
PyTorch's does (`Expected to find "x" but did not find it`), names the
failed directive and shows the text where matching stopped.

`FileCheck().run(checks, text)` and `run_checks_from_comments(checks, text)`
read the directives from the comments of `checks` (`# CHECK: ...`,
`# CHECK-NEXT:`, `# CHECK-NOT:`, `# CHECK-SAME:`, `# CHECK-DAG:`,
`# CHECK-COUNT-3:`, `# CHECK-COUNT-EXACTLY-3:`, `# CHECK-SOURCE-HIGHLIGHTED:`,
`# CHECK-REGEX:`) and apply them to `text`, so a test can be an IR file that
carries its own expectations. As in PyTorch, one space follows the colon and
the pattern is the rest of the line, trailing spaces included. An instance
dropped without having run warns (`FileCheckNotRunWarning`).
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Sequence

CHECK = "CHECK"
CHECK_NEXT = "CHECK-NEXT"
CHECK_SAME = "CHECK-SAME"
CHECK_NOT = "CHECK-NOT"
CHECK_DAG = "CHECK-DAG"
CHECK_COUNT = "CHECK-COUNT"
CHECK_REGEX = "CHECK-REGEX"
CHECK_SOURCE_HIGHLIGHTED = "CHECK-SOURCE-HIGHLIGHTED"

_CONTEXT_LINES = 2
_ANY_DIRECTIVE_RE = re.compile(r"#\s*(?P<name>CHECK[\w-]*):(?P<pattern>.*)$")
_BAD_INPUT = "Check for bad input."
_COUNT_RE = re.compile(r"CHECK-COUNT-(?P<exactly>EXACTLY-)?(?P<n>\d+)")
_SIMPLE_DIRECTIVES = frozenset(
    {CHECK, CHECK_NEXT, CHECK_SAME, CHECK_NOT, CHECK_DAG, CHECK_REGEX, CHECK_SOURCE_HIGHLIGHTED}
)


class FileCheckError(AssertionError, RuntimeError):
    """A FileCheck directive did not hold. `directive` is the failed check as LLVM writes it.

    The message starts as PyTorch's does (`Expected to find "x" but did not find it`,
    `Expected to not find "x" but found it`), and it is a RuntimeError too, as PyTorch's is.
    """

    def __init__(
        self, directive: str, reason: str, text: str, position: int, *, headline: str = ""
    ) -> None:
        self.directive = directive
        self.reason = reason
        self.position = position
        first = f"{headline}\n" if headline else ""
        super().__init__(f"{first}From {directive}\n  {reason}\n{_excerpt(text, position)}")


class FileCheckNotRunWarning(UserWarning):
    """A FileCheck with checks was dropped without being run: its checks never ran."""


def _expected(pattern: str, *, found: bool) -> str:
    shown = pattern.replace("\n", "\\n")
    if found:
        return f'Expected to not find "{shown}" but found it'
    return f'Expected to find "{shown}" but did not find it'


class _Check:
    __slots__ = ("exactly", "kind", "line", "pattern", "regex", "times")

    def __init__(
        self,
        kind: str,
        pattern: str,
        *,
        times: int = 1,
        exactly: bool = False,
        line: int | None = None,
    ) -> None:
        if not pattern:
            raise ValueError(f"{kind} needs a non-empty pattern")
        self.kind = kind
        self.pattern = pattern
        self.regex = re.compile(pattern) if kind == CHECK_REGEX else None
        self.times = times
        self.exactly = exactly
        self.line = line

    def fail(self, reason: str, text: str, position: int, *, found: bool = False) -> FileCheckError:
        """The error of this check: its pattern was not found (or, `found`, found)."""
        return FileCheckError(
            self.describe(), reason, text, position, headline=_expected(self.pattern, found=found)
        )

    def describe(self) -> str:
        name = self.kind
        if self.kind == CHECK_COUNT:
            name += f"-EXACTLY-{self.times}" if self.exactly else f"-{self.times}"
        where = f" (line {self.line} of the checks)" if self.line is not None else ""
        return f"{name}: {self.pattern}{where}"

    def find(self, text: str, start: int, end: int) -> tuple[int, int] | None:
        """The first match within [start, end), as (start, end) offsets."""
        if self.regex is not None:
            m = self.regex.search(text, start, end)
            return None if m is None else m.span()
        i = text.find(self.pattern, start, end)
        return None if i < 0 else (i, i + len(self.pattern))


class FileCheck:
    """A list of checks to run over a text; every `check_*` method returns `self`."""

    def __init__(self) -> None:
        self._checks: list[_Check] = []
        self._has_run = False

    def check(self, pattern: str) -> FileCheck:
        """`pattern` occurs after the previous match."""
        return self._add(_Check(CHECK, pattern))

    def check_next(self, pattern: str) -> FileCheck:
        """`pattern` occurs on the line right after the line of the previous match."""
        return self._add(_Check(CHECK_NEXT, pattern))

    def check_same(self, pattern: str) -> FileCheck:
        """`pattern` occurs on the same line as the previous match, after it."""
        return self._add(_Check(CHECK_SAME, pattern))

    def check_not(self, pattern: str) -> FileCheck:
        """`pattern` does not occur between the previous match and the next one (or the end)."""
        return self._add(_Check(CHECK_NOT, pattern))

    def check_dag(self, pattern: str) -> FileCheck:
        """Consecutive `check_dag` patterns all occur after the previous match, in any order,
        without overlapping; the next check starts after the last of them."""
        return self._add(_Check(CHECK_DAG, pattern))

    def check_count(self, pattern: str, count: int, *, exactly: bool = False) -> FileCheck:
        """`pattern` occurs `count` times after the previous match; with `exactly`, and
        nowhere after those. `check_count(p, 0, exactly=True)` forbids `p` in the rest."""
        if count < 0 or (count == 0 and not exactly):
            raise ValueError("check_count needs a positive count (or 0 with exactly=True)")
        return self._add(_Check(CHECK_COUNT, pattern, times=count, exactly=exactly))

    def check_regex(self, pattern: str) -> FileCheck:
        """Like `check`, with `pattern` a Python regular expression."""
        return self._add(_Check(CHECK_REGEX, pattern))

    def check_source_highlighted(self, pattern: str) -> FileCheck:
        """`pattern` occurs after the previous match, underlined with `~` on the next line
        (as in an error message pointing at source); the search position does not move."""
        return self._add(_Check(CHECK_SOURCE_HIGHLIGHTED, pattern))

    def _add(self, check: _Check) -> FileCheck:
        self._checks.append(check)
        return self

    def run(
        self,
        checks_or_text: object = None,
        text: object = None,
        *,
        checks_file: str | None = None,
        test_file: object = None,
    ) -> None:
        """Apply the checks to a text (a string, or a graph: its printed form); raise
        `FileCheckError` at the first that fails.

        `run(text)` applies the checks added with `check*`; `run(checks, text)` (or
        `run(checks_file=..., test_file=...)`) those read from the comments of `checks`,
        as PyTorch's `FileCheck.run` does.
        """
        self._has_run = True
        if checks_file is not None or test_file is not None:
            checks_or_text, text = checks_file, test_file
        if text is None:
            _run(self._checks, str(checks_or_text))
        else:
            _run(self._checks + _parse_checks(str(checks_or_text)), str(text))

    def __del__(self) -> None:
        if getattr(self, "_has_run", True) or not self._checks:
            return
        listing = "".join(f"\n\t{c.describe()}" for c in self._checks)
        warnings.warn(
            f"You have not run this instance of FileCheck!\nFileCheck checks:{listing}",
            FileCheckNotRunWarning,
            stacklevel=2,
        )

    def __repr__(self) -> str:
        return "FileCheck(" + "; ".join(c.describe() for c in self._checks) + ")"


def _parse_checks(source: str) -> list[_Check]:
    """The directives in the comments of `source`, in order; a misspelled one is an error."""
    checks: list[_Check] = []
    for lineno, line in enumerate(source.splitlines(), 1):
        m = _ANY_DIRECTIVE_RE.search(line)
        if m is None:
            continue
        name, rest = m.group("name"), m.group("pattern").rstrip("\r")
        if not rest.startswith(" ") or len(rest) < 2:
            raise ValueError(
                f"line {lineno}: could not parse check {line.strip()!r}: one space follows the "
                f"colon, then the pattern. {_BAD_INPUT}"
            )
        pattern = rest[1:]  # trailing spaces are part of the pattern
        if name in _SIMPLE_DIRECTIVES:
            checks.append(_Check(name, pattern, line=lineno))
            continue
        count = _COUNT_RE.fullmatch(name)
        if count is None:
            raise ValueError(f"line {lineno}: unknown FileCheck directive {name}. {_BAD_INPUT}")
        checks.append(
            _Check(
                CHECK_COUNT,
                pattern,
                times=int(count.group("n")),
                exactly=count.group("exactly") is not None,
                line=lineno,
            )
        )
    return checks


def run_checks_from_comments(source: str, text: object) -> None:
    """Apply the `# CHECK...:` directives found in `source` to `text`.

    `source` is typically a test file or an IR file whose comments hold the
    expected output; it must hold at least one directive.
    """
    _run(_parse_checks(source), str(text))


def _run(checks: Sequence[_Check], text: str) -> None:
    if not checks:
        raise ValueError(f"FileCheck has no checks to run. {_BAD_INPUT}")
    pos = 0  # where the previous match ended
    nots: list[_Check] = []
    i = 0
    while i < len(checks):
        check = checks[i]
        if check.kind == CHECK_NOT:
            nots.append(check)
            i += 1
            continue
        if check.kind == CHECK_DAG:
            j = i
            while j < len(checks) and checks[j].kind == CHECK_DAG:
                j += 1
            spans = _match_dags(checks[i:j], text, pos)
            _check_nots(nots, text, pos, min(start for start, _ in spans))
            pos = max(end for _, end in spans)
            i = j
        else:
            start, end = _match(check, text, pos)
            _check_nots(nots, text, pos, start)
            pos = end
            i += 1
        nots = []
    _check_nots(nots, text, pos, len(text))


def _match(check: _Check, text: str, pos: int) -> tuple[int, int]:
    """The span of a positional check's match (for CHECK-COUNT, from the first to the last)."""
    kind = check.kind
    if kind == CHECK_NEXT:
        # the next line: one newline after the previous match, and none before the pattern
        nl = text.find("\n", pos)
        if nl < 0:
            raise FileCheckError(
                check.describe(),
                "there is no line after the previous match",
                text,
                pos,
                headline=_expected("\n", found=False),
            )
        found = check.find(text, nl + 1, len(text))
        if found is None:
            raise check.fail("not found after the previous line", text, nl + 1)
        _no_newline(check, text, nl + 1, found[0])
        return found
    if kind == CHECK_SAME:
        found = check.find(text, pos, len(text))
        if found is None:
            raise check.fail("not found after the previous match", text, pos)
        _no_newline(check, text, pos, found[0])
        return found
    if kind == CHECK_COUNT:
        first, end = pos, pos
        for k in range(check.times):
            found = check.find(text, end, len(text))
            if found is None:
                raise check.fail(f"found only {k} of {check.times} occurrences", text, end)
            first = found[0] if k == 0 else first
            end = found[1]
        if check.exactly:
            extra = check.find(text, end, len(text))
            if extra is not None:
                raise check.fail(
                    f"found more than {check.times} occurrences", text, extra[0], found=True
                )
        return first, end
    if kind == CHECK_SOURCE_HIGHLIGHTED:
        _highlighted(check, text, pos)
        return pos, pos  # it does not move the search position
    found = check.find(text, pos, len(text))
    if found is None:
        raise check.fail("not found after the previous match", text, pos)
    return found


def _no_newline(check: _Check, text: str, start: int, end: int) -> None:
    nl = text.find("\n", start, end)
    if nl >= 0:
        raise FileCheckError(
            check.describe(),
            "the match is not on the expected line",
            text,
            nl,
            headline=_expected("\n", found=True),
        )


def _highlighted(check: _Check, text: str, pos: int) -> None:
    """`pattern` occurs after `pos` underlined by `~` on the next line: one `~` under each of
    its characters, and none just before or after (PyTorch's CHECK-SOURCE-HIGHLIGHTED)."""
    start = pos
    seen = False
    while True:
        found = check.find(text, start, len(text))
        if found is None:
            break
        seen = True
        line_start = text.rfind("\n", 0, found[0]) + 1
        column = found[0] - line_start
        below = text.find("\n", found[0])
        if below < 0:
            break
        lo = below + 1 + column
        hi = lo + (found[1] - found[0])
        if hi <= len(text) and text[lo:hi] == "~" * (hi - lo) and "\n" not in text[below + 1 : lo]:
            for edge in (lo - 1, hi):
                if below < edge < len(text) and text[edge] == "~":
                    raise FileCheckError(
                        check.describe(),
                        "the underline is longer than the pattern",
                        text,
                        edge,
                        headline=_expected("~", found=True),
                    )
            return
        start = found[0] + 1
    if not seen:
        raise check.fail("not found after the previous match", text, pos)
    raise FileCheckError(
        check.describe(),
        f'"{check.pattern}" is not underlined with ~ on the next line',
        text,
        pos,
        headline=f'Expected to find "{check.pattern}" highlighted but it is not',
    )


def _match_dags(group: Sequence[_Check], text: str, pos: int) -> list[tuple[int, int]]:
    """Spans of a run of CHECK-DAG patterns: each the first match after `pos` that does not
    overlap the matches of the patterns before it."""
    taken: list[tuple[int, int]] = []
    for check in group:
        start = pos
        while True:
            found = check.find(text, start, len(text))
            if found is None:
                raise check.fail(
                    "not found after the previous match (apart from the other CHECK-DAG matches)",
                    text,
                    pos,
                )
            if not any(found[0] < e and s < found[1] for s, e in taken):
                break
            start = found[0] + 1
        taken.append(found)
    return taken


def _check_nots(nots: Sequence[_Check], text: str, start: int, end: int) -> None:
    for check in nots:
        found = check.find(text, start, end)
        if found is not None:
            raise check.fail("found where it must not be", text, found[0], found=True)


def _line_end(text: str, pos: int) -> int:
    nl = text.find("\n", pos)
    return len(text) if nl < 0 else nl


def _excerpt(text: str, position: int) -> str:
    """The lines around `position`, numbered, with a caret under it."""
    lines = text.split("\n")
    line_no = text.count("\n", 0, position)
    column = position - (text.rfind("\n", 0, position) + 1)
    first = max(0, line_no - _CONTEXT_LINES)
    last = min(len(lines), line_no + _CONTEXT_LINES + 1)
    width = len(str(last))
    out = [f"  in the input, line {line_no + 1}, column {column + 1}:"]
    for k in range(first, last):
        out.append(f"  {k + 1:>{width}} | {lines[k]}")
        if k == line_no:
            out.append(f"  {'':>{width}} | {' ' * column}^")
    return "\n".join(out)


# ---------------------------------------------------------------------------
# Several test cases in one file

#: The line that separates the cases of a multi-case file (as MLIR's `// -----`).
CASE_MARKER = "# -----"


class TestCase:
    """One case of a multi-case file: its text and the line of the file it starts on."""

    __slots__ = ("line", "text")
    __test__ = False  # not a pytest test class

    def __init__(self, text: str, line: int) -> None:
        self.text = text
        self.line = line

    def directive(self, name: str) -> str | None:
        """The value of the last `# NAME: value` line of this case (so a case's own line
        overrides the file header's), or None."""
        found = re.findall(rf"^\s*#\s*{re.escape(name)}:\s*(.*?)\s*$", self.text, re.MULTILINE)
        return found[-1] if found else None

    def __repr__(self) -> str:
        return f"TestCase(line {self.line})"


def split_cases(text: str) -> list[TestCase]:
    """The cases of a multi-case file: the parts between `# -----` lines. A first part without
    a graph (only comments: the file's header, such as `# PASSES: dce`) is the header of every
    case: its lines are prepended to each."""
    parts: list[TestCase] = []
    start, lines = 1, []
    for number, line in enumerate(text.splitlines(keepends=True), 1):
        if line.rstrip() == CASE_MARKER:
            parts.append(TestCase("".join(lines), start))
            start, lines = number + 1, []
        else:
            lines.append(line)
    parts.append(TestCase("".join(lines), start))
    if len(parts) > 1 and "graph(" not in parts[0].text:
        header = parts.pop(0).text
        parts = [TestCase(header + p.text, p.line) for p in parts]
    return [p for p in parts if p.text.strip()]
