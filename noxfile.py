"""Developer sessions for the tsjit monorepo.

    nox                         tests for every package, integration, oracle, example_ops, lint
    nox -s "tests(ts-ir)"       one package's tests
    nox -s integration          cross-package tests and the conformance corpus
    nox -s oracle               differential tests against PyTorch (skipped if it cannot be installed)
    nox -s demo                 the main job: `tsjit demo` on the LSTM cell and the IoU function
    nox -s lint typecheck       ruff and the import layering check, mypy
    nox -s bench                benchmarks, rewriting docs/benchmarks.md
    nox -s gpu                  on a machine with an NVIDIA GPU: pycuda, the CUDA tests, the CUDA benchmark

Each package session installs the package and the in-repo packages it depends
on (read from the ``dependencies`` of each ``pyproject.toml``) in editable mode.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import nox

ROOT = Path(__file__).parent
PACKAGES = ROOT / "packages"

nox.options.default_venv_backend = "uv|virtualenv"
nox.options.sessions = ["tests", "integration", "oracle", "example_ops", "lint"]
nox.options.reuse_existing_virtualenvs = True

TEST_DEPS = ["pytest>=8", "pytest-xdist>=3", "hypothesis>=6.100"]


def _pyproject(name: str) -> dict:
    with open(PACKAGES / name / "pyproject.toml", "rb") as f:
        return tomllib.load(f)


def _package_names() -> list[str]:
    return sorted(p.parent.name for p in PACKAGES.glob("*/pyproject.toml"))


def _in_repo_closure(name: str) -> list[str]:
    """The package and every in-repo package it depends on, dependencies first."""
    local = set(_package_names())
    order: list[str] = []

    def visit(pkg: str) -> None:
        if pkg in order:
            return
        for dep in _pyproject(pkg)["project"].get("dependencies", []):
            dep_name = re.split(r"[\s<>=!~;\[]", dep, maxsplit=1)[0]
            if dep_name in local:
                visit(dep_name)
        order.append(pkg)

    visit(name)
    return order


def _install_editable(session: nox.Session, names: list[str], *extra: str) -> None:
    args: list[str] = []
    for pkg in names:
        args += ["-e", str(PACKAGES / pkg)]
    session.install(*args, *TEST_DEPS, *extra)


@nox.session
@nox.parametrize("package", _package_names(), ids=_package_names())
def tests(session: nox.Session, package: str) -> None:
    """Run one package's own tests against its in-repo dependencies only."""
    _install_editable(session, _in_repo_closure(package))
    session.run("pytest", "-q", "-n", "auto", str(PACKAGES / package / "tests"), *session.posargs)


@nox.session
def integration(session: nox.Session) -> None:
    """Cross-package tests and the conformance corpus, with every package installed."""
    _install_editable(session, _package_names())
    session.run("pytest", "-q", "-n", "auto", str(ROOT / "integration_tests"), *session.posargs)


def _install_torch(session: nox.Session) -> bool:
    """Install PyTorch 2.13 (the oracle and benchmark peer); False where it is not installable."""
    try:
        # pip, not uv: the CPU build of torch is found through pip's configured links
        # (uv's environments come without pip, so it is installed first).
        session.install("pip")
        session.run("python", "-m", "pip", "install", "-q", "torch==2.13.0", silent=True)
    except nox.command.CommandFailed:
        return False
    return True


@nox.session
def oracle(session: nox.Session) -> None:
    """Differential tests against real PyTorch; skipped where torch cannot be installed."""
    _install_editable(session, _package_names())
    if not _install_torch(session):
        session.skip("torch==2.13.0 is not installable here")
    session.run(
        "pytest",
        "-q",
        "-n",
        "auto",
        "-m",
        "oracle",
        str(ROOT / "integration_tests"),
        *session.posargs,
    )


@nox.session
def demo(session: nox.Session) -> None:
    """The main job: install everything and run `tsjit demo` (arguments pass through)."""
    _install_editable(session, _package_names())
    session.run("tsjit", "demo", *session.posargs)


@nox.session
def lint(session: nox.Session) -> None:
    """ruff check and ruff format --check over the whole repository; layered imports."""
    session.install("ruff")
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")
    session.run("python", str(ROOT / "tools" / "check_imports.py"))


@nox.session
def typecheck(session: nox.Session) -> None:
    """mypy over every package's sources."""
    _install_editable(session, _package_names(), "mypy")
    sources = [str(PACKAGES / p / "src") for p in _package_names()]
    session.run("mypy", *sources)


@nox.session
def bench(session: nox.Session) -> None:
    """Benchmarks, with PyTorch as a peer where installable; results go to docs/benchmarks.md."""
    _install_editable(session, _package_names())
    if not _install_torch(session):
        session.log("torch==2.13.0 is not installable: benchmarks run without the PyTorch peers")
    session.run("python", str(ROOT / "tools" / "bench.py"), *session.posargs)


@nox.session
def gpu(session: nox.Session) -> None:
    """ts-fuser-cuda on a real GPU: installs pycuda, runs its tests and the CUDA benchmark."""
    _install_editable(session, _package_names())
    try:
        session.install("pycuda")
    except nox.command.CommandFailed:
        session.skip("pycuda is not installable here")
    session.run("pytest", "-q", str(PACKAGES / "ts-fuser-cuda" / "tests"), *session.posargs)
    if not _install_torch(session):
        session.log("torch==2.13.0 is not installable: the CUDA benchmark runs without PyTorch")
    session.run("python", str(ROOT / "tools" / "bench.py"), "cuda")


@nox.session
def example_ops(session: nox.Session) -> None:
    """The example operator package, installed as a wheel, found through its entry point."""
    _install_editable(session, ["ts-ir", "ts-schema"])
    # not editable: the entry point must come from installed package metadata
    session.install(str(ROOT / "integration_tests" / "example_ops"))
    session.run(
        "pytest", "-q", str(ROOT / "integration_tests" / "example_ops" / "tests"), *session.posargs
    )
