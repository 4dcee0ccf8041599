"""PyTorch's constant pooling tests (test/cpp/jit/test_constant_pooling.cpp) against tsjit's
passes: each graph parsed, the same passes run, the same FileCheck outcome as PyTorch 2.13."""

from __future__ import annotations

import pytest
from cases_constant_pooling import CASES
from harvest import case_params, recorded
from scripted import assert_like_pytorch

#: cases tsjit does not pass, with the reason
KNOWN_GAPS: dict[str, str] = {}


@pytest.mark.parametrize("case", case_params(CASES, KNOWN_GAPS))
def test_constant_pooling_case(case):
    assert_like_pytorch(case, recorded("constant_pooling")[case.name])
