"""Developer sessions for the tsjit monorepo.

    nox                         tests for every package, integration, oracle, example_ops, lint
    nox -s "tests(ts-ir)"       one package, installed alone, and its own tests
    nox -s integration          cross-package tests and the conformance corpus
    nox -s oracle               differential tests against PyTorch 2.13, installing it
    nox -s zoo_full             the model zoo at its published sizes against PyTorch (tests marked slow)
    nox -s fuzz -- --count N    a differential fuzzing campaign of N programs against PyTorch
    nox -s demo                 the main job: `tsjit demo` on the LSTM cell, the IoU function and ResNet-18
    nox -s lint typecheck       ruff, the declared-dependency and import-layering checks; mypy
    nox -s bench                benchmarks, rewriting docs/benchmarks.md
    nox -s archive_fuzz         10,000 mutated archives of each kind (tsjit and TorchScript .pt)
    nox -s gpu                  on a machine with an NVIDIA GPU: pycuda, the CUDA tests, the CUDA benchmark

Every directory under packages/ with a pyproject.toml is a package: there is
no list to keep. A package's session installs it the way the README tells
users to, `uv pip install ./packages/NAME` (the uv workspace supplies the
in-repo packages it depends on), into a fresh environment, so a dependency it
forgot to declare fails its tests.

The default run never downloads PyTorch: the oracle session uses a torch
2.13 wheel that is at hand (in a directory of pip's or uv's find-links, or in
uv's cache) and otherwise skips, saying so; `nox -s oracle` named on the
command line installs it.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import nox
from packaging.tags import sys_tags
from packaging.utils import parse_wheel_filename

ROOT = Path(__file__).parent
PACKAGES = ROOT / "packages"

nox.options.default_venv_backend = "uv|virtualenv"
nox.options.sessions = ["tests", "integration", "oracle", "example_ops", "lint"]
nox.options.reuse_existing_virtualenvs = True

TEST_DEPS = ["pytest>=8", "pytest-xdist>=3", "hypothesis>=6.100"]
TORCH = "torch==2.13.0"


def _pyproject(name: str) -> dict:
    with open(PACKAGES / name / "pyproject.toml", "rb") as f:
        return tomllib.load(f)


def _package_names() -> list[str]:
    return sorted(p.parent.name for p in PACKAGES.glob("*/pyproject.toml"))


def _install_editable(session: nox.Session, names: list[str], *extra: str) -> None:
    args: list[str] = []
    for pkg in names:
        args += ["-e", str(PACKAGES / pkg)]
    session.install(*args, *TEST_DEPS, *extra)


def _import_name(name: str) -> str:
    wheel = _pyproject(name).get("tool", {}).get("hatch", {}).get("build", {})
    paths = wheel.get("targets", {}).get("wheel", {}).get("packages", [])
    return Path(paths[0]).name if paths else name.replace("-", "_")


# uv: the documented install reads the workspace sources, which pip does not know
@nox.session(venv_backend="uv", reuse_venv=False)
@nox.parametrize("package", _package_names(), ids=_package_names())
def tests(session: nox.Session, package: str) -> None:
    """One package installed alone, as documented, in a fresh environment; its own tests.

    `uv pip install ./packages/NAME`: the package, and the in-repo packages it depends on
    from the workspace; then it must import and pass its tests."""
    session.install(f"./packages/{package}", *TEST_DEPS)
    session.run("python", "-c", f"import {_import_name(package)}")
    session.run("pytest", "-q", "-n", "auto", str(PACKAGES / package / "tests"), *session.posargs)


@nox.session
def integration(session: nox.Session) -> None:
    """Cross-package tests and the conformance corpus, with every package installed."""
    _install_editable(session, _package_names())
    session.run(
        "pytest",
        "-q",
        "-n",
        "auto",
        "-m",
        "not slow",
        str(ROOT / "integration_tests"),
        *session.posargs,
    )


def _find_links() -> list[Path]:
    """The local directories pip and uv look in for wheels (their find-links settings)."""
    links: list[str] = []
    for var in ("PIP_FIND_LINKS", "UV_FIND_LINKS"):
        links += re.split(r"[\s,]+", os.environ.get(var, ""))
    try:
        config = subprocess.run(
            [sys.executable, "-m", "pip", "config", "list"],
            capture_output=True,
            text=True,
            timeout=60,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        config = ""
    for line in config.splitlines():
        key, _, value = line.partition("=")
        if key.strip().endswith("find-links"):
            links += shlex.split(value.strip().strip("'\""))
    dirs = [Path(link.removeprefix("file://")) for link in links if link]
    return [d for d in dict.fromkeys(dirs) if d.is_dir()]


def _local_torch_wheel() -> Path | None:
    """A torch 2.13.0 wheel for this interpreter in a find-links directory, if there is one."""
    supported = set(sys_tags())
    for directory in _find_links():
        for wheel in sorted(directory.glob("torch-2.13.0*.whl")):
            try:
                _, version, _, tags = parse_wheel_filename(wheel.name)
            except ValueError:
                continue
            if version.public == "2.13.0" and tags & supported:
                return wheel
    return None


def _torch_in_uv_cache(session: nox.Session) -> bool:
    """Whether uv can install torch 2.13 into the session's environment from its cache alone."""
    if session.venv_backend != "uv":
        return False
    try:
        from uv import find_uv_bin

        uv = find_uv_bin()
    except (ImportError, FileNotFoundError):
        uv = shutil.which("uv")
    if uv is None:
        return False
    python = ["--python", str(session.virtualenv.location)]
    command = [uv, "pip", "install", "--offline", "--dry-run", *python, TORCH]
    try:
        return subprocess.run(command, capture_output=True, timeout=300).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def _named_on_command_line(name: str) -> bool:
    """Whether nox was asked for session `name` by name (`-s name`), not as a default."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("-s", "-e", "--session", "--sessions", nargs="*", action="extend")
    asked = parser.parse_known_args(sys.argv[1:])[0].session or []
    return any(s == name or s.startswith(f"{name}(") for s in asked)


def _install_torch(session: nox.Session, *, download: bool) -> bool:
    """Install PyTorch 2.13 (the oracle and benchmark peer) from a wheel at hand, or, with
    `download`, from the package index; False where that did not work."""
    wheel = _local_torch_wheel()
    if wheel is not None:
        session.install(str(wheel))
        return True
    if _torch_in_uv_cache(session):
        session.install("--offline", TORCH)
        return True
    if not download:
        return False
    try:
        # pip, as the user configured it (indexes, links); uv's environments come without it
        session.install("pip")
        session.run("python", "-m", "pip", "install", "-q", TORCH, silent=True)
    except nox.command.CommandFailed:
        return False
    return True


@nox.session
def oracle(session: nox.Session) -> None:
    """Differential tests against PyTorch 2.13, where a torch wheel is at hand (`-s oracle`: installs it).

    Named on the command line (`nox -s oracle`), the session installs PyTorch from the
    package index if need be; in the default run it skips, saying so."""
    _install_editable(session, _package_names())
    download = _named_on_command_line("oracle")
    if not _install_torch(session, download=download):
        session.skip(
            f"{TORCH} is not installable here"
            if download
            else f"{TORCH} is not at hand (no wheel in pip's or uv's find-links, none in uv's "
            "cache) and the default run downloads nothing: `nox -s oracle` installs it (a large "
            "download) and runs these tests"
        )
    session.run(
        "pytest",
        "-q",
        "-n",
        "auto",
        "-m",
        "oracle and not slow",
        str(ROOT / "integration_tests"),
        # a package's own oracle tests (its session has no torch)
        *sorted(str(p) for p in PACKAGES.glob("*/tests/**/*oracle*.py")),
        *session.posargs,
    )


@nox.session
def zoo_full(session: nox.Session) -> None:
    """The model zoo at its published sizes against PyTorch 2.13 (the tests marked slow)."""
    _install_editable(session, _package_names())
    if not _install_torch(session, download=True):
        session.skip(f"{TORCH} is not installable here")
    session.run(
        "pytest",
        "-q",
        "-n",
        "auto",
        "-m",
        "slow",
        str(ROOT / "integration_tests"),
        *session.posargs,
    )


@nox.session
def fuzz(session: nox.Session) -> None:
    """A differential fuzzing campaign against PyTorch 2.13 (`nox -s fuzz -- --count N`).

    Arguments pass to integration_tests/fuzz/campaign.py (`--start`, `--count`, `--jobs`,
    `--minimize`); it prints the counts and writes each disagreement to fuzz-report.jsonl."""
    _install_editable(session, _package_names())
    if not _install_torch(session, download=True):
        session.skip(f"{TORCH} is not installable here: the fuzzer compares with it")
    session.run(
        "python", str(ROOT / "integration_tests" / "fuzz" / "campaign.py"), *session.posargs
    )


@nox.session
def demo(session: nox.Session) -> None:
    """The main job: install everything and run `tsjit demo` (arguments pass through)."""
    _install_editable(session, _package_names())
    session.run("tsjit", "demo", *session.posargs)


@nox.session
def lint(session: nox.Session) -> None:
    """ruff check and format, and the declared-dependency and import-layering checks.

    tools/check_dependencies.py: every package declares what it imports;
    tools/check_imports.py: modules import in layers."""
    session.install("ruff")
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")
    session.run("python", str(ROOT / "tools" / "check_dependencies.py"))
    session.run("python", str(ROOT / "tools" / "check_imports.py"))


@nox.session
def typecheck(session: nox.Session) -> None:
    """mypy over every package's sources."""
    _install_editable(session, _package_names(), "mypy")
    sources = [str(PACKAGES / p / "src") for p in _package_names()]
    session.run("mypy", *sources)


@nox.session
def bench(session: nox.Session) -> None:
    """Benchmarks, with PyTorch (and numba, for IoU) as peers where installable; results go
    to docs/benchmarks.md."""
    _install_editable(session, _package_names())
    if not _install_torch(session, download=True):
        session.log(f"{TORCH} is not installable: benchmarks run without the PyTorch peers")
    try:
        session.install("numba")  # a benchmark-only peer (docs/design-notes.md)
    except nox.command.CommandFailed:
        session.log("numba is not installable: the IoU table runs without it")
    session.run("python", str(ROOT / "tools" / "bench.py"), *session.posargs)


@nox.session(venv_backend="uv")
def archive_fuzz(session: nox.Session) -> None:
    """The archive safety campaign at full size: 10,000 mutants per archive format."""
    session.install("./packages/ts-serialize", *TEST_DEPS)
    session.env["TSJIT_FUZZ_CASES"] = session.posargs[0] if session.posargs else "10000"
    tests = PACKAGES / "ts-serialize" / "tests"
    session.run("pytest", "-q", "-s", "-k", "mutated", str(tests))


@nox.session
def gpu(session: nox.Session) -> None:
    """ts-fuser-cuda on a real GPU: installs pycuda, runs its tests and the CUDA benchmark."""
    _install_editable(session, _package_names())
    try:
        session.install("pycuda")
    except nox.command.CommandFailed:
        session.skip("pycuda is not installable here")
    session.run("pytest", "-q", str(PACKAGES / "ts-fuser-cuda" / "tests"), *session.posargs)
    if not _install_torch(session, download=True):
        session.log(f"{TORCH} is not installable: the CUDA benchmark runs without PyTorch")
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
