"""The real-world corpus: TorchScript code published by others, against PyTorch's results.

Every item of `realworld/recorded.jsonl` (recorded from PyTorch 2.13 by
`tools/record_realworld.py`, see realworld/README.md) is scripted with tsjit and run on
its cases; the items PyTorch traced are traced with tsjit on their first case and run on
the others, and tracing must give the `TracerWarning`s PyTorch gave. Items tsjit does not
reproduce yet are strict xfails with their reason (`realworld/known_failures.py`), so a fix
shows up as an XPASS to flip. In the oracle session the recording is checked against live
PyTorch, and tsjit against PyTorch's live results.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

REALWORLD = Path(__file__).parent / "realworld"
sys.path.insert(0, str(REALWORLD))

import check  # noqa: E402
import known_failures  # noqa: E402

with open(REALWORLD / "recorded.jsonl", encoding="utf-8") as _f:
    ROWS = [json.loads(line) for line in _f if line.strip()]
TRACED = [row for row in ROWS if check.traced_cases(row)]


def _params(rows: list[dict], failures: dict[str, str]) -> list:
    return [
        pytest.param(
            row,
            id=row["id"],
            marks=[pytest.mark.xfail(reason=failures[row["id"]], strict=True)]
            if row["id"] in failures
            else [],
        )
        for row in rows
    ]


def _report(results: list) -> str:
    return "\n".join(f"case {r.index}: {r.why}" for r in results if not r.ok)


@pytest.mark.parametrize("row", _params(ROWS, known_failures.SCRIPT))
def test_scripted_item_reproduces_pytorch(row):
    results = check.check_script(row)
    assert all(r.ok for r in results), _report(results)


@pytest.mark.parametrize("row", _params(TRACED, known_failures.TRACE))
def test_traced_item_reproduces_pytorch(row):
    results, warned = check.check_trace(row)
    assert all(r.ok for r in results), _report(results)
    assert warned == row.get("trace_warnings", []), "TracerWarnings differ from PyTorch's"


def test_corpus_extent():
    """At least 60 items from at least 8 libraries, each source file cited in the README."""
    files = {row["file"] for row in ROWS}
    readme = (REALWORLD / "README.md").read_text(encoding="utf-8")
    assert len(ROWS) >= 60
    assert all(f"`{f}.py`" in readme for f in files)
    libraries = {f.split("_")[0] for f in files}
    assert len(libraries) >= 8, libraries


def test_known_failures_name_recorded_items():
    ids = {row["id"] for row in ROWS}
    assert set(known_failures.SCRIPT) <= ids
    assert set(known_failures.TRACE) <= {row["id"] for row in TRACED}


# -- against live PyTorch (the oracle session)


def _live(row: dict) -> dict:
    sys.path.insert(0, str(Path(__file__).parent.parent / "tools"))
    import record_realworld

    item = {k: v for k, v in row.items() if k not in ("torch", "state", "trace_warnings")}
    item["cases"] = [
        {k: v for k, v in case.items() if k in ("inputs", "kwargs")} for case in row["cases"]
    ]
    return record_realworld.record(item)


def _same_results(recorded: dict, live: dict) -> list[str]:
    """Where a live recording differs from the committed one (values within tolerance)."""
    from corpus_values import decode, mismatch

    problems = []
    for i, (a, b) in enumerate(zip(recorded["cases"], live["cases"], strict=True)):
        for key in ("outputs", "traced_outputs"):
            if (key in a) != (key in b):
                problems.append(f"case {i}: {key} recorded {key in a}, live {key in b}")
            elif key in a:
                problem = mismatch(decode(b[key]), a[key])
                if problem:
                    problems.append(f"case {i}: {problem}")
        if a.get("error") != b.get("error"):
            problems.append(f"case {i}: error {a.get('error')} != {b.get('error')}")
    if recorded.get("trace_warnings") != live.get("trace_warnings"):
        problems.append("trace warnings differ")
    return problems


@pytest.mark.oracle
@pytest.mark.parametrize("row", ROWS, ids=[row["id"] for row in ROWS])
def test_recording_matches_live_pytorch(row):
    """PyTorch, run now, gives what the committed recording says (else re-record)."""
    pytest.importorskip("torch")
    problems = _same_results(row, _live(row))
    assert not problems, "\n".join(problems)


@pytest.mark.oracle
@pytest.mark.parametrize("row", _params(ROWS, known_failures.SCRIPT))
def test_scripted_item_matches_live_pytorch(row):
    pytest.importorskip("torch")
    live = _live(row)
    results = check.check_script(live)
    assert all(r.ok for r in results), _report(results)
