"""tools/check_dependencies.py: every package declares what it imports (the lint session runs it)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "check_dependencies.py"


def check(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(TOOL), *args], capture_output=True, text=True, cwd=cwd, timeout=120
    )


def test_every_package_of_the_repository_passes():
    done = check()
    assert done.returncode == 0, done.stdout + done.stderr
    names = sorted(p.parent.name for p in (ROOT / "packages").glob("*/pyproject.toml"))
    assert done.stdout.strip().endswith(", ".join(names))


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A copy of the repository's ts-ir and ts-schema packages (pyproject and sources)."""
    for name in ("ts-ir", "ts-schema"):
        shutil.copytree(
            ROOT / "packages" / name,
            tmp_path / "packages" / name,
            ignore=shutil.ignore_patterns("tests", "__pycache__"),
        )
    assert check("--root", str(tmp_path), cwd=tmp_path).returncode == 0
    return tmp_path


def plant(repo: Path, source: str) -> Path:
    path = repo / "packages" / "ts-schema" / "src" / "ts_schema" / "planted.py"
    path.write_text(textwrap.dedent(source))
    return path


def test_a_planted_undeclared_import_fails_naming_file_and_line(repo: Path):
    plant(repo, "import json\n\n\ndef f():\n    import numpy.linalg\n    return numpy.linalg\n")
    done = check("--root", str(repo), cwd=repo)
    assert done.returncode == 1
    assert (
        "packages/ts-schema/src/ts_schema/planted.py:5: imports numpy, but numpy is not among "
        "the dependencies in packages/ts-schema/pyproject.toml"
    ) in done.stdout
    assert "json" not in done.stdout  # the standard library needs no declaration
    assert "1 problem(s)" in done.stdout


def test_an_undeclared_in_repo_package_fails(repo: Path):
    plant(repo, "from ts_passes import run_passes\n")
    shutil.copytree(
        ROOT / "packages" / "ts-passes",
        repo / "packages" / "ts-passes",
        ignore=shutil.ignore_patterns("tests", "__pycache__"),
    )
    done = check("--root", str(repo), cwd=repo)
    assert done.returncode == 1
    assert "planted.py:1: imports ts_passes, but ts-passes is not among" in done.stdout


def test_optional_and_type_checking_imports(repo: Path):
    plant(
        repo,
        """
        from typing import TYPE_CHECKING

        if TYPE_CHECKING:
            import numpy  # never imported at run time: needs no declaration

        try:
            import msgpack
        except ImportError:
            msgpack = None
        """,
    )
    done = check("--root", str(repo), cwd=repo)
    assert done.returncode == 1
    assert "imports msgpack, but msgpack is not among the dependencies or optional" in done.stdout
    assert "numpy" not in done.stdout
    pyproject = repo / "packages" / "ts-schema" / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text().replace(
            "[tool.hatch",
            '[project.optional-dependencies]\narchives = ["msgpack>=1"]\n\n[tool.hatch',
        )
    )
    done = check("--root", str(repo), cwd=repo)
    assert done.returncode == 0, done.stdout


def test_a_declared_dependency_never_imported_fails_unless_explained(repo: Path):
    pyproject = repo / "packages" / "ts-schema" / "pyproject.toml"
    text = pyproject.read_text().replace(
        'dependencies = ["ts-ir"]', 'dependencies = ["ts-ir", "numpy"]'
    )
    pyproject.write_text(text)
    done = check("--root", str(repo), cwd=repo)
    assert done.returncode == 1
    assert "declares numpy but never imports it" in done.stdout
    pyproject.write_text(
        text + '\n[tool.check-dependencies]\nnot-imported = { numpy = "a plugin" }\n'
    )
    assert check("--root", str(repo), cwd=repo).returncode == 0


def test_an_in_repo_dependency_needs_a_workspace_source(repo: Path):
    pyproject = repo / "packages" / "ts-schema" / "pyproject.toml"
    pyproject.write_text(pyproject.read_text().replace("ts-ir = { workspace = true }", ""))
    done = check("--root", str(repo), cwd=repo)
    assert done.returncode == 1
    assert "ts-ir is an in-repo package; add `ts-ir = { workspace = true }`" in done.stdout
