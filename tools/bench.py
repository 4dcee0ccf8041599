"""Run tsjit's benchmarks and write the results into docs/benchmarks.md.

    python tools/bench.py                 every suite
    python tools/bench.py ir schema       only these suites (others keep their last results)
    python tools/bench.py --list

A suite is a module `tools/benchmarks/bench_<name>.py` with a `TITLE` and a
`run(ctx) -> str` that returns the Markdown body of its section (or None when
it could measure nothing here, such as the CUDA suite without a GPU: its
section then stays as it was). Each suite
owns one section of docs/benchmarks.md, delimited by HTML comments, and
stamps it with the machine and date it was measured on, so suites can be
re-run one at a time. Peers (numpy, PyTorch) are measured in the same run and
compared as ratios.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import importlib.util
import os
import platform
import re
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUITES = ROOT / "tools" / "benchmarks"
OUTPUT = ROOT / "docs" / "benchmarks.md"

HEADER = """# Benchmarks

Produced by `nox -s bench` (`python tools/bench.py`). Each section records the
machine and date it was measured on; peers are measured in the same run and
compared as ratios. Re-run one suite with `nox -s bench -- <suite>`.
"""


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    versions = [f"Python {platform.python_version()}"]
    for mod in ("numpy", "llvmlite", "torch"):
        try:
            versions.append(f"{mod} {importlib.import_module(mod).__version__}")
        except ImportError:
            pass
    return f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}; " + ", ".join(
        versions
    )


class Context:
    """What a suite gets: timing helpers and facts about the run."""

    def __init__(self, quick: bool) -> None:
        self.quick = quick
        try:
            import torch  # noqa: F401

            self.has_torch = True
        except ImportError:
            self.has_torch = False

    def timeit(
        self, fn: Callable[[], object], *, repeat: int = 5, number: int = 1, warmup: int = 1
    ) -> float:
        """Median seconds per call of `fn` over `repeat` rounds of `number` calls."""
        for _ in range(warmup):
            fn()
        times = []
        gc_was_enabled = gc.isenabled()
        gc.disable()
        try:
            for _ in range(repeat):
                t0 = time.perf_counter()
                for _ in range(number):
                    fn()
                times.append((time.perf_counter() - t0) / number)
        finally:
            if gc_was_enabled:
                gc.enable()
        return statistics.median(times)

    @staticmethod
    def table(headers: list[str], rows: list[list[object]]) -> str:
        lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
        lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
        return "\n".join(lines)


def discover() -> dict[str, Path]:
    return {p.stem.removeprefix("bench_"): p for p in sorted(SUITES.glob("bench_*.py"))}


def load(path: Path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def write_section(name: str, title: str, body: str) -> None:
    text = OUTPUT.read_text() if OUTPUT.exists() else HEADER
    stamp = f"_Measured {datetime.date.today().isoformat()} on {machine()}._"
    section = (
        f"<!-- bench:{name} -->\n## {title}\n\n{stamp}\n\n{body.strip()}\n<!-- /bench:{name} -->"
    )
    pattern = re.compile(
        rf"<!-- bench:{re.escape(name)} -->.*?<!-- /bench:{re.escape(name)} -->", re.DOTALL
    )
    text = (
        pattern.sub(lambda _: section, text)
        if pattern.search(text)
        else text.rstrip("\n") + "\n\n" + section + "\n"
    )
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    OUTPUT.write_text(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("suites", nargs="*", help="suites to run (default: all)")
    parser.add_argument("--list", action="store_true", help="list the suites and exit")
    parser.add_argument(
        "--quick", action="store_true", help="fewer repetitions, for checking the suites work"
    )
    parser.add_argument(
        "--no-write", action="store_true", help="print the sections instead of writing the file"
    )
    args = parser.parse_args(argv)
    suites = discover()
    if args.list:
        print("\n".join(suites))
        return 0
    unknown = [s for s in args.suites if s not in suites]
    if unknown:
        parser.error(f"unknown suite(s) {', '.join(unknown)}; have {', '.join(suites)}")
    ctx = Context(args.quick)
    for name in args.suites or list(suites):
        module = load(suites[name])
        print(f"== {name}: {module.TITLE}", flush=True)
        body = module.run(ctx)
        if body is None:
            print(f"{name}: nothing measured in this run; its section is unchanged", flush=True)
            continue
        print(body, flush=True)
        if not args.no_write:
            write_section(name, module.TITLE, body)
    if not args.no_write:
        print(f"wrote {OUTPUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
