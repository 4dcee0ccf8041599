"""What the harvested PyTorch test suites share: recorded results, canonical graph text.

The cases of each suite (`cases_*.py`) hold the inputs and expectations of
PyTorch's own tests; `record.py` runs each under PyTorch 2.13 and writes what
it gave to `recorded/<suite>.json`, so that the tests here compare tsjit with
PyTorch without PyTorch installed. A case tsjit does not pass yet is listed in
its suite's `KNOWN_GAPS` with the reason (an expected failure, strict).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import ts_ir

HERE = Path(__file__).resolve().parent
RECORDED = HERE / "recorded"


@cache
def recorded(suite: str) -> dict[str, Any]:
    """PyTorch 2.13's results of a suite's cases, by case name."""
    with open(RECORDED / f"{suite}.json", encoding="utf-8") as f:
        return json.load(f)


def canonical(text: str) -> str:
    """Graph text with values numbered in definition order and no names: two graphs that
    differ only in naming print the same."""
    import ts_passes

    g = ts_ir.parse_ir(text)
    ts_passes.canonicalize(g, strip_input_names=True)
    return g.to_string(source_locations=False)


def first_line(exc: BaseException) -> str:
    lines = [line for line in str(exc).splitlines() if line.strip()]
    return lines[0] if lines else type(exc).__name__


def case_params(cases: Any, known_gaps: dict[str, str], *, tuples: bool = False) -> list[Any]:
    """One pytest param per case (an object with `.name`, or with `tuples` a tuple whose first
    item is the name, passed as the test's arguments); a case in `known_gaps` is a strict
    xfail with its reason."""
    params = []
    for case in cases:
        name = case[0] if tuples else case.name
        marks = (
            [pytest.mark.xfail(strict=True, reason=known_gaps[name])] if name in known_gaps else []
        )
        args = tuple(case) if tuples else (case,)
        params.append(pytest.param(*args, marks=marks, id=name))
    return params
