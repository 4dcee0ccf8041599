"""Check that every package under packages/ declares what it imports, and installs alone.

    python tools/check_dependencies.py                   every package under packages/
    python tools/check_dependencies.py packages/ts-ir    only these

For each package (a directory with a `pyproject.toml`):

- every module its sources import (anywhere under `src/`, inside functions
  too; not under `if TYPE_CHECKING:`), other than the standard library and
  the package itself, belongs to a distribution in `[project] dependencies`;
  an import guarded by `try: ... except ImportError` may instead name one in
  `[project.optional-dependencies]`;
- every declared dependency is imported somewhere, or is named with its
  reason under `[tool.check-dependencies] not-imported` (a plugin found through an
  entry point, say);
- every in-repo dependency is a workspace source (`NAME = { workspace =
  true }` under `[tool.uv.sources]`), so that `uv pip install
  ./packages/NAME` takes it from this repository.

A module maps to the distribution of the same normalized name (`ts_ir` and
`ts-ir`, `numpy`), to an in-repo package through the `packages` of its
hatch wheel target, or, for an installed distribution whose modules are
named otherwise, through `importlib.metadata`. Exit status 1 when anything
is wrong, with one `path:line: message` per problem.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STDLIB = frozenset(sys.stdlib_module_names) | {"__future__"}


def normalize(name: str) -> str:
    """A distribution or module name as PEP 503 compares them."""
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_name(requirement: str) -> str:
    return normalize(re.split(r"[\s<>=!~;\[@(]", requirement.strip(), maxsplit=1)[0])


@dataclass
class Package:
    root: Path
    pyproject: dict
    name: str = field(init=False)
    modules: list[str] = field(init=False)

    def __post_init__(self) -> None:
        self.name = normalize(self.pyproject["project"]["name"])
        wheel = self.pyproject.get("tool", {}).get("hatch", {}).get("build", {})
        paths = wheel.get("targets", {}).get("wheel", {}).get("packages", [])
        self.modules = [Path(p).name for p in paths] or [self.name.replace("-", "_")]

    @property
    def dependencies(self) -> set[str]:
        return {requirement_name(r) for r in self.pyproject["project"].get("dependencies", [])}

    @property
    def optional_dependencies(self) -> set[str]:
        extras = self.pyproject["project"].get("optional-dependencies", {})
        return {requirement_name(r) for reqs in extras.values() for r in reqs}

    @property
    def tool(self) -> dict:
        return self.pyproject.get("tool", {})


@dataclass(frozen=True)
class Import:
    module: str  # the top-level module
    path: Path
    line: int
    optional: bool  # inside `try: ... except ImportError`


def load_package(root: Path) -> Package:
    with open(root / "pyproject.toml", "rb") as f:
        return Package(root, tomllib.load(f))


class _ImportVisitor(ast.NodeVisitor):
    """Top-level modules imported by one file (see the module docstring for what counts)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.found: list[Import] = []
        self._optional = 0

    def visit_If(self, node: ast.If) -> None:
        test = node.test
        name = test.id if isinstance(test, ast.Name) else getattr(test, "attr", None)
        if name == "TYPE_CHECKING":
            for child in node.orelse:
                self.visit(child)
            return
        self.generic_visit(node)

    def visit_Try(self, node: ast.Try) -> None:
        guarded = any(_catches_import_error(h) for h in node.handlers)
        self._optional += guarded
        for child in node.body:
            self.visit(child)
        self._optional -= guarded
        for child in [*node.handlers, *node.orelse, *node.finalbody]:
            self.visit(child)

    visit_TryStar = visit_Try

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._add(alias.name, node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level == 0 and node.module:
            self._add(node.module, node)

    def _add(self, dotted: str, node: ast.stmt) -> None:
        top = dotted.partition(".")[0]
        self.found.append(Import(top, self.path, node.lineno, self._optional > 0))


def _catches_import_error(handler: ast.ExceptHandler) -> bool:
    names = handler.type
    items = names.elts if isinstance(names, ast.Tuple) else [names]
    return any(
        isinstance(t, ast.Name) and t.id in ("ImportError", "ModuleNotFoundError") for t in items
    )


def imports_of(package: Package) -> Iterator[Import]:
    for path in sorted((package.root / "src").rglob("*.py")):
        visitor = _ImportVisitor(path)
        visitor.visit(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))
        yield from visitor.found


def distribution_of(module: str, in_repo: dict[str, str]) -> str:
    """The distribution that provides a top-level module (see the module docstring)."""
    if module in in_repo:
        return in_repo[module]
    installed = metadata.packages_distributions().get(module)
    if installed and len(installed) == 1:
        return normalize(installed[0])
    return normalize(module)


def check(package: Package, in_repo: dict[str, str]) -> list[str]:
    """The problems of one package, as `path:line: message` lines."""
    pyproject = _shown(package.root / "pyproject.toml")
    problems: list[str] = []
    declared = package.dependencies
    optional = package.optional_dependencies
    used: set[str] = set()
    for imp in imports_of(package):
        if imp.module in STDLIB or imp.module in package.modules:
            continue
        dist = distribution_of(imp.module, in_repo)
        used.add(dist)
        if dist in declared or (imp.optional and dist in optional):
            continue
        where = "dependencies" + (" or optional-dependencies" if imp.optional else "")
        problems.append(
            f"{_shown(imp.path)}:{imp.line}: imports {imp.module}, but {dist} is not among "
            f"the {where} in {pyproject}"
        )
    not_imported = package.tool.get("check-dependencies", {}).get("not-imported", {})
    for dist in sorted(declared - used):
        if dist not in {normalize(d) for d in not_imported}:
            problems.append(
                f"{pyproject}: declares {dist} but never imports it; remove it, or give the "
                f"reason under [tool.check-dependencies] not-imported"
            )
    sources = package.tool.get("uv", {}).get("sources", {})
    for dist in sorted(declared & set(in_repo.values())):
        entry = {normalize(k): v for k, v in sources.items()}.get(dist)
        if not (isinstance(entry, dict) and entry.get("workspace") is True):
            problems.append(
                f"{pyproject}: {dist} is an in-repo package; add "
                f"`{dist} = {{ workspace = true }}` under [tool.uv.sources]"
            )
    return problems


def _shown(path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n\n")[0])
    parser.add_argument("packages", nargs="*", type=Path, help="package directories (default: all)")
    parser.add_argument(
        "--root", type=Path, default=ROOT, help="the repository (default: this one)"
    )
    args = parser.parse_args(argv)
    everything = [
        load_package(p.parent) for p in sorted(args.root.glob("packages/*/pyproject.toml"))
    ]
    in_repo = {module: p.name for p in everything for module in p.modules}
    chosen = [load_package(p.resolve()) for p in args.packages] if args.packages else everything
    problems = [problem for package in chosen for problem in check(package, in_repo)]
    for problem in problems:
        print(problem)
    names = ", ".join(p.name for p in chosen)
    if problems:
        print(f"{len(problems)} problem(s) in the declared dependencies of {names}")
        return 1
    print(f"every package declares what it imports: {names}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
