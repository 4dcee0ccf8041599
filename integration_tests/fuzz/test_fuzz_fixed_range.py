"""The fixed seed range of the differential fuzzer, against PyTorch's recorded outcomes.

Every program of `FIXED_SEEDS` is generated, run eagerly and scripted by tsjit, and
compared with what PyTorch 2.13 did (recorded in `recorded/pytorch-seeds.jsonl`), as a
campaign compares it (`campaign.py`). A seed that fails only through a bug reported and
not yet fixed is an expected failure naming the report (strict: a fix shows).
"""

from __future__ import annotations

import fuzz_gen
import pytest
from fuzz_testing import FIXED_SEEDS, disagreements, recorded

#: seeds that disagree through a known open bug, each with the bug (none at present)
KNOWN: dict[int, str] = {}


def _params():
    for seed in FIXED_SEEDS:
        marks = []
        if seed in KNOWN:
            marks.append(pytest.mark.xfail(strict=True, reason=KNOWN[seed]))
        yield pytest.param(seed, marks=marks, id=str(seed))


@pytest.mark.parametrize("seed", list(_params()))
def test_generated_program_agrees_with_pytorch(seed):
    row = recorded("pytorch-seeds", "seed")[seed]
    problems = disagreements(fuzz_gen.generate(seed), row)
    assert not problems, (
        "\n".join(problems) + f"\n(python integration_tests/fuzz/campaign.py --seed {seed} --show)"
    )
