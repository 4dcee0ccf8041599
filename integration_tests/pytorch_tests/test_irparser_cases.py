"""PyTorch's IR parser tests (test/cpp/jit/test_irparser.cpp) against tsjit's `parse_ir`."""

from __future__ import annotations

import pytest
import ts_ir
from cases_irparser import CASES, EXTRA_CASES
from harvest import canonical, case_params, recorded

#: cases tsjit does not pass, with the reason
KNOWN_GAPS: dict[str, str] = {}


@pytest.mark.parametrize(
    ("name", "kind", "text"), case_params(CASES + EXTRA_CASES, KNOWN_GAPS, tuples=True)
)
def test_irparser_case(name, kind, text):
    pytorch = recorded("irparser")[name]
    if kind == "error":
        assert "error" in pytorch, "PyTorch 2.13 parses it"
        with pytest.raises(ts_ir.IRParseError):
            ts_ir.parse_ir(text)
        return
    printed = str(ts_ir.parse_ir(text))
    if kind == "roundtrip":
        assert pytorch["printed"] == text.lstrip(), "PyTorch 2.13 does not print it back"
        assert printed == text.lstrip()
    else:
        # PyTorch names only graph and block inputs; compare with numbering made canonical
        assert canonical(printed) == canonical(pytorch["printed"])
