"""PyTorch's alias analysis tests (test/cpp/jit/test_alias_analysis.cpp,
test/jit/test_alias_analysis.py) against ts_passes.AliasDb: the same graphs, the same
queries, the answers the tests expect (and PyTorch 2.13 gave, where Python can ask)."""

from __future__ import annotations

import pytest
from aliasing import play_tsjit
from cases_alias_analysis import CASES
from harvest import case_params, recorded

#: cases tsjit does not pass, with the reason
KNOWN_GAPS: dict[str, str] = {}


@pytest.mark.parametrize("case", case_params(CASES, KNOWN_GAPS))
def test_alias_analysis_case(case):
    pytorch = recorded("alias_analysis")[case.name]
    assert "error" not in pytorch, pytorch
    expected = [q[-1] for q in case.queries]
    for q, theirs in zip(case.queries, pytorch["answers"], strict=True):
        assert theirs is None or theirs == q[-1], f"PyTorch 2.13 disagrees with its test: {q}"
    got = play_tsjit(case)
    wrong = [q for q, ours in zip(case.queries, got, strict=True) if ours != q[-1]]
    assert got == expected, f"tsjit answers differently: {wrong}"
