"""The `.ir` files under tests/filecheck: each names its passes (`# PASSES: a,b`) and carries
`# CHECK:` directives for the output of `ts-opt` (run in-process here); every file and every
output also prints back identically after parsing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import ts_ir
from passes_helpers import round_trip
from ts_ir import run_checks_from_comments
from ts_passes.cli import main

FILES = sorted((Path(__file__).parent / "filecheck").glob("*.ir"))
_PASSES_RE = re.compile(r"#\s*PASSES:\s*(\S+)")


def passes_of(text: str) -> str:
    m = _PASSES_RE.search(text)
    assert m, "an .ir test names its passes with '# PASSES: a,b'"
    return m.group(1)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_ir_file(path, capsys):
    text = path.read_text()
    round_trip(ts_ir.parse_ir(text))
    assert main([str(path), "-p", passes_of(text)]) == 0
    out = capsys.readouterr().out
    run_checks_from_comments(text, out)
    round_trip(ts_ir.parse_ir(out))
