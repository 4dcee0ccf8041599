"""PyTorch's peephole tests (test/jit/test_peephole.py) against tsjit's passes: each
program scripted, the same passes run, the same FileCheck outcome on the graph, the same
results as PyTorch 2.13 gave."""

from __future__ import annotations

import pytest
from cases_peephole import CASES
from harvest import case_params, recorded
from scripted import assert_like_pytorch

#: cases tsjit does not pass, with the reason
KNOWN_GAPS: dict[str, str] = {
    "peephole/same_type": "the tracer types a traced graph's tensor inputs as plain Tensor "
    "where PyTorch records their dtype, device and sizes, so peephole cannot tell that "
    "x.type_as(y) keeps x's type (open in the frontend)",
}


@pytest.mark.parametrize("case", case_params(CASES, KNOWN_GAPS))
def test_peephole_case(case):
    assert_like_pytorch(case, recorded("peephole")[case.name])
