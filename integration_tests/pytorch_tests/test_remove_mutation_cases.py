"""PyTorch's remove-mutation tests (test/jit/test_remove_mutation.py) against tsjit's passes: each
program scripted, the same passes run, the same FileCheck outcome on the graph, the same
results as PyTorch 2.13 gave."""

from __future__ import annotations

import pytest
from cases_remove_mutation import CASES
from harvest import case_params, recorded
from scripted import assert_like_pytorch

#: cases tsjit does not pass, with the reason
KNOWN_GAPS: dict[str, str] = {}


@pytest.mark.parametrize("case", case_params(CASES, KNOWN_GAPS))
def test_remove_mutation_case(case):
    assert_like_pytorch(case, recorded("remove_mutation")[case.name])
