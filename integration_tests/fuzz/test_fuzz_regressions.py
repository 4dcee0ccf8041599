"""Every bug the fuzzer found stays fixed: the minimized programs of `regressions.py`
against PyTorch's recorded outcomes, and the sieve of issue 11 against Python."""

from __future__ import annotations

import fuzz_gen
import pytest
import tsjit
from fuzz_testing import disagreements, recorded
from regressions import REGRESSIONS


def _params():
    for r in REGRESSIONS:
        marks = [pytest.mark.xfail(strict=True, reason=r.open)] if r.open else []
        yield pytest.param(r, marks=marks, id=r.name)


@pytest.mark.parametrize("regression", list(_params()))
def test_regression(regression):
    program = fuzz_gen.program_from_source(regression.source, regression.seed, rank=regression.rank)
    row = recorded("regressions", "name")[regression.name]
    problems = disagreements(program, row)
    assert not problems, "\n".join(problems)


def sieve(n: int) -> list[int]:
    flags = [True for _ in range(n + 1)]
    primes: list[int] = []
    for i in range(2, n + 1):
        if flags[i]:
            primes.append(i)
            j = i * i
            while j <= n:
                flags[j] = False
                j += i
    return primes


@pytest.mark.parametrize("n", [0, 1, 2, 10, 20, 97])
def test_the_sieve_of_issue_11(n):
    # dead code elimination dropped the appends of the comprehension and the writes to
    # flags, whose only reader is the condition of an If in a later loop
    compiled = tsjit.jit.script(sieve)
    assert compiled(n) == sieve(n)
    assert compiled(n) == sieve(n)  # the executor's cached plan too
