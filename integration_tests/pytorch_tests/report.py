"""Passing / total per harvested suite, and every case not passing with its reason.

python integration_tests/pytorch_tests/report.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent

SUITES = {
    "IR parser": "test_irparser_cases.py",
    "schema parser": "test_schema_parser_cases.py",
    "FileCheck": "test_filecheck_cases.py",
    "peephole": "test_peephole_cases.py",
    "remove mutation": "test_remove_mutation_cases.py",
    "constant pooling": "test_constant_pooling_cases.py",
    "inliner": "test_inliner_cases.py",
    "constant propagation": "test_constant_propagation_cases.py",
    "loop unrolling": "test_loop_unrolling_cases.py",
    "alias analysis": "test_alias_analysis_cases.py",
}


class _Tally:
    def __init__(self) -> None:
        self.passed = 0
        self.missed: list[tuple[str, str]] = []

    def pytest_runtest_logreport(self, report) -> None:
        if report.when == "call" and report.passed and not hasattr(report, "wasxfail"):
            self.passed += 1
        elif report.when == "call" or (report.when == "setup" and not report.passed):
            reason = getattr(report, "wasxfail", "") or report.longreprtext.splitlines()[-1:]
            self.missed.append((report.nodeid.split("[", 1)[-1].rstrip("]"), str(reason)))


def main() -> int:
    lines = []
    for suite, test_file in SUITES.items():
        tally = _Tally()
        pytest.main(["-qq", "-p", "no:cacheprovider", "-n", "0", str(HERE / test_file)], [tally])
        total = tally.passed + len(tally.missed)
        lines.append(f"{suite}: {tally.passed} / {total} ({100 * tally.passed / total:.0f}%)")
        lines.extend(f"    {name}: {reason}" for name, reason in tally.missed)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
