"""PyTorch's remove-mutation tests (test/jit/test_remove_mutation.py) against tsjit's passes: each
program scripted, the same passes run, the same FileCheck outcome on the graph, the same
results as PyTorch 2.13 gave."""

from __future__ import annotations

import pytest
from cases_remove_mutation import CASES
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
def test_remove_mutation_case(case):
    assert_like_pytorch(case, recorded("remove_mutation")[case.name])
