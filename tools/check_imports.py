"""Check that a package's modules import each other in layers, with no cycle.

    python tools/check_imports.py            check every package listed in LAYERS
    python tools/check_imports.py --graph    also print each module's imports
    python tools/check_imports.py --list     also print each layer's modules with line counts

Every import counts: at module level, inside functions, and under
`if TYPE_CHECKING:`, since each ties the two modules together as firmly for
a reader as for the interpreter. A module may import modules of its own
layer or of a lower one; the imports within a layer must form no cycle.
The layers of a package are listed bottom first; a module of the package
missing from the table is an error, so a new module is placed on purpose.
`nox -s lint` runs this check.
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: package -> its layers, bottom first: (layer name, modules)
LAYERS: dict[str, list[tuple[str, list[str]]]] = {
    "ts_frontend": [
        (
            "base",
            [
                "errors",
                "kinds",
                "dtype_names",
                "tree",
                "refinement",
                "tracing_state",
                "jit_api",
                "script_object",
                "registrations",
            ],
        ),
        ("syntax", ["sources", "strings", "parser", "ast_builder"]),
        ("types", ["resolver", "type_annotations", "python_signature"]),
        (
            "values",
            [
                "context",
                "conversions",
                "operators",
                "sugared_value",
                "builtins",
                "function_values",
                "module_value",
                "class_value",
                "python_values",
            ],
        ),
        (
            "emitter",
            [
                "convert_to_ssa",
                "exit_transform",
                "cleanup",
                "inliner",
                "environment",
                "emit_context",
                "conditions",
                "indexing",
                "targets",
                "loops",
                "special_forms",
                "expressions",
                "signature",
                "ir_emitter",
            ],
        ),
        (
            "driver",
            [
                "builtin_functions",
                "python_printer",
                "functions",
                "class_compiler",
                "module_compiler",
                "script",
                "import_source",
                "script_module",
                "tracer",
                "__init__",
            ],
        ),
    ],
    "ts_fuser_cuda": [
        ("code generation", ["errors", "c_types", "lowerings", "codegen", "nvcc"]),
        ("devices", ["driver", "host", "storage", "launching", "kernel"]),
        ("backend", ["backend", "eager", "device"]),
        ("package", ["testing", "__init__"]),
    ],
}

SOURCES = {
    "ts_frontend": ROOT / "packages" / "ts-frontend" / "src" / "ts_frontend",
    "ts_fuser_cuda": ROOT / "packages" / "ts-fuser-cuda" / "src" / "ts_fuser_cuda",
}


def module_imports(path: Path, package: str, module: str) -> set[str]:
    """The modules of `package` that `module` (at `path`) imports, anywhere in its body."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == package and len(parts) > 1:
                    found.add(parts[1])
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                parts = (node.module or "").split(".")
                if parts[0] != package:
                    continue
                rest = parts[1:]
            elif node.level == 1:
                rest = (node.module or "").split(".") if node.module else []
            else:
                continue  # above the package
            if rest:
                found.add(rest[0])
            else:  # `from . import tree as t`
                found.update(alias.name for alias in node.names)
    found.discard(module)
    return found


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of `graph` as a list of modules (first repeated at the end), or None."""
    state: dict[str, int] = {}  # 1: on the stack, 2: done
    stack: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        stack.append(m)
        for dep in sorted(graph.get(m, ())):
            if state.get(dep) == 1:
                return [*stack[stack.index(dep) :], dep]
            if dep not in state:
                cycle = visit(dep)
                if cycle is not None:
                    return cycle
        stack.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state:
            cycle = visit(m)
            if cycle is not None:
                return cycle
    return None


def check(package: str, *, show: bool = False) -> list[str]:
    """The problems found in `package`'s imports (empty when it is layered and acyclic)."""
    source = SOURCES[package]
    layer_of: dict[str, int] = {}
    names: dict[int, str] = {}
    for i, (name, modules) in enumerate(LAYERS[package]):
        names[i] = name
        for m in modules:
            layer_of[m] = i
    problems: list[str] = []
    graph: dict[str, set[str]] = {}
    for path in sorted(source.glob("*.py")):
        module = path.stem
        if module not in layer_of:
            problems.append(f"{package}.{module} is in no layer of tools/check_imports.py")
            continue
        graph[module] = module_imports(path, package, module)
    for module, deps in sorted(graph.items()):
        if show:
            print(f"{module} [{names[layer_of[module]]}]: {', '.join(sorted(deps)) or '-'}")
        for dep in sorted(deps):
            if dep not in layer_of:
                continue
            if layer_of[dep] > layer_of[module]:
                problems.append(
                    f"{package}.{module} ({names[layer_of[module]]}) imports "
                    f"{package}.{dep} from the higher layer '{names[layer_of[dep]]}'"
                )
    cycle = find_cycle(graph)
    if cycle is not None:
        problems.append(f"{package} has an import cycle: {' -> '.join(cycle)}")
    return problems


def module_list(package: str) -> str:
    """The package's layers, bottom first, each module with its line count."""
    source = SOURCES[package]
    lines = [f"{package}:"]
    total = count = 0
    for name, modules in LAYERS[package]:
        sizes = []
        for m in modules:
            files = sorted((source / m).rglob("*.py")) or [source / f"{m}.py"]  # a subpackage
            n = sum(len(f.read_text(encoding="utf-8").splitlines()) for f in files)
            sizes.append(f"{m} {n}" if len(files) == 1 else f"{m}/ {n}")
            total += n
            count += 1
        lines.append(f"  {name} ({len(modules)}): {', '.join(sizes)}")
    lines.append(f"  {count} modules, {total} lines")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--graph", action="store_true", help="print each module's imports")
    parser.add_argument(
        "--list", action="store_true", help="print each layer's modules with line counts"
    )
    args = parser.parse_args(argv)
    problems: list[str] = []
    for package in LAYERS:
        problems += check(package, show=args.graph)
        if args.list:
            print(module_list(package))
    for p in problems:
        print(p)
    if not problems:
        print(f"imports layered and acyclic: {', '.join(LAYERS)}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
