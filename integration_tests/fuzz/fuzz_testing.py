"""What the fuzz tests share: recorded PyTorch outcomes, and running a program under tsjit."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import fuzz_gen
import fuzz_run

RECORDED = Path(__file__).resolve().parent / "recorded"
#: the seeds the default test session checks against recorded PyTorch outcomes
FIXED_SEEDS = range(0, 500)


@cache
def recorded(name: str, key: str) -> dict:
    """The rows of `recorded/<name>.jsonl` by `key` (seed or name)."""
    with open(RECORDED / f"{name}.jsonl", encoding="utf-8") as f:
        return {row[key]: row for row in map(json.loads, f) if row}


def disagreements(program: fuzz_gen.Program, row: dict) -> list[str]:
    """tsjit's disagreements with the recorded PyTorch outcomes of `program`."""
    assert row["hash"] == fuzz_run.source_hash(program.source), (
        "the program is not the one recorded: the generator changed; re-record with "
        "integration_tests/fuzz/campaign.py --record (see README.md)"
    )
    return fuzz_run.compare(
        fuzz_run.run_tsjit(program), fuzz_run.expand(row), extensions=program.extensions
    )
