"""The Python examples in README.md and docs/*.md run as written.

Each document's ```python blocks run in order as one script (written to a
file: scripting needs source). A block that only illustrates, and cannot run
on its own, is preceded by a line `<!-- not run: why -->`; everything else
must run without error, so the documentation says what the code does.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_BLOCK = re.compile(r"(<!-- not run: [^>]*-->\n)?```python\n(.*?)```", re.DOTALL)


def runnable_blocks(path: Path) -> list[str]:
    return [m.group(2) for m in _BLOCK.finditer(path.read_text()) if not m.group(1)]


@pytest.mark.parametrize("doc", [d for d in DOCS if runnable_blocks(d)], ids=lambda d: d.name)
def test_examples_run(doc: Path, tmp_path: Path):
    script = tmp_path / f"example_{doc.stem.replace('-', '_')}.py"
    script.write_text("\n\n".join(runnable_blocks(doc)))
    done = subprocess.run(
        [sys.executable, script.name], cwd=tmp_path, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, f"{doc.name}: the examples fail:\n{done.stderr[-3000:]}"
