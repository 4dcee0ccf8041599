"""Checking tsjit against a recorded real-world item: used by the tests and the report.

`check_script(row)` and `check_trace(row)` run the item under tsjit and return one
`CaseResult` per recorded case: whether tsjit reproduced PyTorch's result (the same
values, or an error where PyTorch raised one) and, if not, why. A failure to load the
source file, to build or to script the item fails every case with that reason.
"""

from __future__ import annotations

import builtins
import warnings
from dataclasses import dataclass
from typing import Any

import runner
from corpus_values import mismatch


@dataclass
class CaseResult:
    index: int
    ok: bool
    why: str = ""


def _tsjit() -> Any:
    import tsjit

    return tsjit


def _short(exc: BaseException) -> str:
    lines = [line for line in str(exc).strip().splitlines() if line.strip()]
    return f"{type(exc).__name__}: {lines[0] if lines else ''}"[:300]


def _expect_error(case: dict, call: Any) -> str:
    """Run `call`; a recorded error must be raised (its class, where the script raised it).

    Every exception is caught here and below: whatever tsjit raises is a result to report.
    """
    try:
        call()
    except Exception as exc:
        if case.get("script_error"):
            expected = getattr(builtins, case["error"], Exception)
            if not isinstance(exc, expected):
                return f"raised {_short(exc)}; PyTorch raised {case['error']}"
        return ""
    return f"returned a value; PyTorch raised {case['error']}: {case['message']}"


def _outcome(index: int, case: dict, expected_key: str, error_key: str, run: Any) -> CaseResult:
    if error_key in case:
        problem = _expect_error(case, run)
        return CaseResult(index, not problem, problem)
    try:
        out = run()
    except Exception as exc:
        return CaseResult(index, False, f"raised {_short(exc)}")
    problem = mismatch(out, case[expected_key])
    return CaseResult(index, problem is None, problem or "")


def _all_fail(row: dict, why: str) -> list[CaseResult]:
    return [CaseResult(i, False, why) for i in range(len(row["cases"]))]


def check_script(row: dict) -> list[CaseResult]:
    """Script the item with tsjit and run every recorded case."""
    torch = _tsjit()
    try:
        source = runner.load_source(row["file"], torch)
    except Exception as exc:
        return _all_fail(row, f"loading {row['file']}.py: {_short(exc)}")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fn = runner.build(row, torch, source, row.get("state"))
    except Exception as exc:
        return _all_fail(row, f"scripting: {_short(exc)}")
    results = []
    for i, case in enumerate(row["cases"]):
        error_key = "error" if "error" in case else "-"
        results.append(
            _outcome(
                i, case, "outputs", error_key, lambda c=case: runner.call(fn, c, torch, source)
            )
        )
    return results


def traced_cases(row: dict) -> list[tuple[int, dict]]:
    """The cases a trace of the item is checked on (those PyTorch ran its trace on)."""
    keys = ("traced_same", "traced_outputs", "traced_error")
    return [(i, c) for i, c in enumerate(row["cases"]) if any(k in c for k in keys)]


def check_trace(row: dict) -> tuple[list[CaseResult], list[str]]:
    """Trace the eager item with tsjit on its first case; run the trace on every traced case.

    Returns the case results and the messages of the `TracerWarning`s tracing gave.
    """
    torch = _tsjit()
    cases = traced_cases(row)
    fail = lambda why: ([CaseResult(i, False, why) for i, _ in cases], [])  # noqa: E731
    try:
        source = runner.load_source(row["file"], torch)
        target = (
            getattr(source, row["name"])
            if row["kind"] == "function"
            else runner.eager_module(row, torch, source, row.get("state"))
        )
        example, _ = runner.inputs(row["cases"][0], torch, source)
    except Exception as exc:
        return fail(f"building the eager item: {_short(exc)}")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        # as users see them: the library's own TracerWarnings are hidden, as PyTorch's are
        torch.jit.TracerWarning.ignore_lib_warnings()
        try:
            traced = torch.jit.trace(target, tuple(example))
        except Exception as exc:
            return fail(f"tracing: {_short(exc)}")
    messages = sorted(
        {str(w.message) for w in caught if issubclass(w.category, torch.jit.TracerWarning)}
    )
    results = []
    for i, case in cases:
        expected = "outputs" if case.get("traced_same") else "traced_outputs"
        error_key = "traced_error" if "traced_error" in case else "-"
        if error_key in case:
            case = {
                **case,
                "error": case["traced_error"]["error"],
                "message": case["traced_error"]["message"],
            }
            error_key = "error"
        results.append(
            _outcome(
                i, case, expected, error_key, lambda c=case: runner.call(traced, c, torch, source)
            )
        )
    return results, messages
