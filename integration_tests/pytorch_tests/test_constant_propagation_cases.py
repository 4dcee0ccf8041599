"""PyTorch's constant propagation tests (the test_constant_prop* tests and
test_constant_insertion of test/test_jit.py) against tsjit's passes: each program scripted,
the same passes run, the same FileCheck outcome and graph structure, the same results as
PyTorch 2.13 gave."""

from __future__ import annotations

import pytest
from cases_constant_propagation import CASES
from harvest import case_params, recorded
from scripted import assert_like_pytorch

#: cases tsjit does not pass, with the reason
KNOWN_GAPS: dict[str, str] = {}


@pytest.mark.parametrize("case", case_params(CASES, KNOWN_GAPS))
def test_constant_propagation_case(case):
    assert_like_pytorch(case, recorded("constant_propagation")[case.name])
