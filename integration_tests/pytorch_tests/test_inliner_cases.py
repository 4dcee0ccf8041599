"""PyTorch's inliner test (test/cpp/jit/test_inliner.cpp) against tsjit's
passes: the program scripted, the same passes run, the same FileCheck outcome as PyTorch 2.13."""

from __future__ import annotations

import pytest
from cases_inliner import CASES
from harvest import case_params, recorded
from scripted import assert_like_pytorch

#: cases tsjit does not pass, with the reason
KNOWN_GAPS: dict[str, str] = {}


@pytest.mark.parametrize("case", case_params(CASES, KNOWN_GAPS))
def test_inliner_case(case):
    assert_like_pytorch(case, recorded("inliner")[case.name])
