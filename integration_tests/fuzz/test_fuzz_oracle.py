"""The fuzzer against PyTorch itself (the oracle session): a seed range beyond the recorded
one, and the recorded outcomes (of the fixed range and the regressions) re-checked."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")
import fuzz_gen
import fuzz_run
from fuzz_testing import FIXED_SEEDS, recorded
from regressions import REGRESSIONS

pytestmark = pytest.mark.oracle

#: fresh programs each oracle run compares live (beyond the recorded range)
LIVE_SEEDS = range(1_000_000, 1_000_100)


@pytest.mark.parametrize("seed", LIVE_SEEDS)
def test_fresh_program_agrees_with_pytorch(seed):
    program = fuzz_gen.generate(seed)
    problems = fuzz_run.compare(
        fuzz_run.run_tsjit(program), fuzz_run.run_torch(program), extensions=program.extensions
    )
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("seed", FIXED_SEEDS[::25])
def test_recorded_seed_outcomes_are_pytorchs(seed):
    program = fuzz_gen.generate(seed)
    got = {"seed": seed, **fuzz_run.compact(fuzz_run.run_torch(program))}
    assert recorded("pytorch-seeds", "seed")[seed] == got


@pytest.mark.parametrize("regression", REGRESSIONS, ids=[r.name for r in REGRESSIONS])
def test_recorded_regression_outcomes_are_pytorchs(regression):
    program = fuzz_gen.program_from_source(regression.source, regression.seed, rank=regression.rank)
    got = fuzz_run.compact(fuzz_run.run_torch(program))
    assert recorded("regressions", "name")[regression.name] == {"name": regression.name, **got}
