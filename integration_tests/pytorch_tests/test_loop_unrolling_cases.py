"""PyTorch's loop unrolling tests (the test_loop_unroll* tests of test/test_jit.py) against
tsjit's passes: each program scripted, the pass run, the same FileCheck outcome on the graph,
the same results as PyTorch 2.13 gave on the unrolled graph."""

from __future__ import annotations

import pytest
from cases_loop_unrolling import CASES
from harvest import case_params, recorded
from scripted import assert_like_pytorch

#: cases tsjit does not pass, with the reason
KNOWN_GAPS: dict[str, str] = {}


@pytest.mark.parametrize("case", case_params(CASES, KNOWN_GAPS))
def test_loop_unrolling_case(case):
    assert_like_pytorch(case, recorded("loop_unrolling")[case.name])
