"""PyTorch's inliner test (test/cpp/jit/test_inliner.cpp) against tsjit's
passes: the program scripted, the same passes run, the same FileCheck outcome as PyTorch 2.13."""

from __future__ import annotations

import pytest
from cases_inliner import CASES
from harvest import recorded
from scripted import assert_like_pytorch

#: cases tsjit does not pass, with the reason
KNOWN_GAPS: dict[str, str] = {}


def _params():
    for case in CASES:
        marks = (
            [pytest.mark.xfail(strict=True, reason=KNOWN_GAPS[case.name])]
            if case.name in KNOWN_GAPS
            else []
        )
        yield pytest.param(case, marks=marks, id=case.name)


@pytest.mark.parametrize("case", list(_params()))
def test_inliner_case(case):
    assert_like_pytorch(case, recorded("inliner")[case.name])
