"""PyTorch's FileCheck tests against ts_ir.FileCheck: the same statements, the same outcome,
the same words in the errors."""

from __future__ import annotations

import re

import pytest
from cases_filecheck import CASES, NAMESPACE_TEXTS
from harvest import case_params, recorded
from ts_ir import FileCheck, FileCheckNotRunWarning

#: cases tsjit does not pass, with the reason
KNOWN_GAPS: dict[str, str] = {}


def run(statement: str) -> str | None:
    """None if the statement runs, else the error's message."""
    try:
        exec(statement, {"FileCheck": FileCheck, **NAMESPACE_TEXTS})
    except Exception as exc:
        return str(exc)
    return None


@pytest.mark.parametrize(
    ("name", "statement", "expected"), case_params(CASES, KNOWN_GAPS, tuples=True)
)
def test_filecheck_case(name, statement, expected):
    pytorch = recorded("filecheck")[name]
    assert (pytorch["error"] is None) == (expected is None), "PyTorch 2.13 disagrees with its test"
    error = run(statement)
    if expected is None:
        assert error is None, error
    else:
        assert error is not None, "no error"
        assert re.search(expected, error), error


def test_a_filecheck_that_never_ran_says_so():
    # test/test_file_check.py: test_not_run (PyTorch prints it when the instance is freed)
    with pytest.warns(FileCheckNotRunWarning) as caught:
        check = FileCheck().check("not run")
        del check
        import gc

        gc.collect()
    text = str(caught[0].message)
    assert text.startswith("You have not run this instance of FileCheck!\nFileCheck checks:")
    assert "\tCHECK: not run" in text
