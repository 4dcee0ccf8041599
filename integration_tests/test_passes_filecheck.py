"""The `.ir` files under integration_tests/passes run through the `ts-opt` command (a subprocess),
their `# CHECK:` directives applied to its output; outputs print back identically after parsing."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import ts_ir
from ts_ir import run_checks_from_comments

FILES = sorted((Path(__file__).parent / "passes").glob("*.ir"))
_PASSES_RE = re.compile(r"#\s*PASSES:\s*(\S+)")


def ts_opt(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ts_passes", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_ir_file_through_ts_opt(path):
    text = path.read_text()
    passes = _PASSES_RE.search(text).group(1)
    done = ts_opt(str(path), "-p", passes, "--verify-each")
    assert done.returncode == 0, done.stderr
    run_checks_from_comments(text, done.stdout)
    again = ts_ir.parse_ir(done.stdout)
    assert str(again) == done.stdout


def test_the_ts_opt_script_reads_standard_input():
    script = shutil.which("ts-opt", path=str(Path(sys.executable).parent))
    assert script is not None, "installing ts-passes must install the ts-opt command"
    text = "graph(%x : Tensor):\n  %d : Tensor = aten::relu(%x)\n  return (%x)\n"
    done = subprocess.run([script, "-p", "dce"], input=text, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "aten::relu" not in done.stdout


def test_ts_opt_reports_a_malformed_file_in_one_line(tmp_path):
    bad = tmp_path / "bad.ir"
    bad.write_text("graph(%x : Tensor):\n  %y : Tensor = aten::relu(%nope)\n  return (%y)\n")
    done = ts_opt(str(bad), "-p", "dce")
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ts-opt: error:"), done.stderr
    assert "bad.ir" in lines[0]
    assert done.stdout == ""


def test_ts_opt_reports_an_unknown_pass_in_one_line():
    done = ts_opt("-p", "dce,no-such-pass", stdin="graph():\n  return ()\n")
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "no-such-pass" in lines[0] and "dead_code_elimination" in lines[0]


def test_ts_opt_lists_its_passes():
    done = ts_opt("--list")
    assert done.returncode == 0
    names = [line.split(" ")[0].rstrip(":") for line in done.stdout.splitlines()]
    for expected in ("dead_code_elimination", "constant_propagation", "fuse_graph", "peephole"):
        assert expected in names
