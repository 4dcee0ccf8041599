"""How much of the real-world corpus tsjit reproduces (integration_tests/realworld).

    python tools/realworld_report.py            # counts, and every item that misses, with why
    python tools/realworld_report.py --all      # every item
    python tools/realworld_report.py --only timm
    python tools/realworld_report.py --markdown # the section of docs/features.md
    python tools/realworld_report.py --prune    # drop known failures that now reproduce

Runs each recorded item under tsjit as the tests do (`realworld/check.py`): scripted, on
every case; and traced, where PyTorch traced it. Needs no torch.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "integration_tests"), str(ROOT / "integration_tests" / "realworld")]

import check  # noqa: E402

RECORDED = ROOT / "integration_tests" / "realworld" / "recorded.jsonl"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--only", help="items whose id contains this")
    parser.add_argument("--all", action="store_true", help="list passing items too")
    parser.add_argument(
        "--markdown", action="store_true", help="print the docs/features.md section instead"
    )
    parser.add_argument(
        "--prune",
        action="store_true",
        help="remove the entries of realworld/known_failures.py that now reproduce PyTorch",
    )
    args = parser.parse_args()
    if args.prune:
        prune()
        return
    if args.markdown:
        args.all = False
    with open(RECORDED, encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    if args.only:
        rows = [r for r in rows if args.only in r["id"]]
    totals: Counter[str] = Counter()
    libraries: dict[str, Counter[str]] = {}
    start = time.perf_counter()
    for row in rows:
        lib = libraries.setdefault(row["file"], Counter())
        results = _quietly(check.check_script, row)
        ok = sum(r.ok for r in results)
        totals["cases"] += len(results)
        totals["cases ok"] += ok
        totals["items"] += 1
        totals["items ok"] += ok == len(results)
        lib["items"] += 1
        lib["items ok"] += ok == len(results)
        lib["cases"] += len(results)
        lib["cases ok"] += ok
        if (ok < len(results) or args.all) and not args.markdown:
            why = next((r.why for r in results if not r.ok), "")
            print(f"script {row['id']}: {ok}/{len(results)} {why[:400]}")
        if check.traced_cases(row):
            traced, messages = _quietly(check.check_trace, row)
            tok = sum(r.ok for r in traced)
            same_warnings = messages == row.get("trace_warnings", [])
            totals["traced cases"] += len(traced)
            totals["traced cases ok"] += tok
            totals["traces"] += 1
            totals["traces ok"] += tok == len(traced)
            totals["same warnings"] += same_warnings
            if (tok < len(traced) or not same_warnings or args.all) and not args.markdown:
                why = next((r.why for r in traced if not r.ok), "")
                extra = (
                    "" if same_warnings else f" warnings {messages} != {row.get('trace_warnings')}"
                )
                print(f"trace  {row['id']}: {tok}/{len(traced)} {why[:300]}{extra[:400]}")
    if args.markdown:
        markdown(totals, libraries)
        return
    print()
    for name, c in sorted(libraries.items()):
        print(
            f"{name:32} items {c['items ok']:3}/{c['items']:3}  cases {c['cases ok']:3}/{c['cases']:3}"
        )
    pct = 100.0 * totals["cases ok"] / max(totals["cases"], 1)
    print(
        f"\nscripted: {totals['items ok']}/{totals['items']} items, "
        f"{totals['cases ok']}/{totals['cases']} cases ({pct:.1f}%) reproduce PyTorch"
    )
    print(
        f"traced:   {totals['traces ok']}/{totals['traces']} traces, "
        f"{totals['traced cases ok']}/{totals['traced cases']} cases reproduce PyTorch; "
        f"{totals['same warnings']}/{totals['traces']} give PyTorch's TracerWarnings"
    )
    print(f"({time.perf_counter() - start:.1f} s)")


def _quietly(fn, *args):
    """Run an item's check with what the item prints (a `print` in its code) kept out of the
    report."""
    with contextlib.redirect_stdout(io.StringIO()):
        return fn(*args)


def markdown(totals: Counter[str], libraries: dict[str, Counter[str]]) -> None:
    """The real-world section of docs/features.md: counts, and every miss with its reason."""
    import known_failures

    pct = 100.0 * totals["cases ok"] / max(totals["cases"], 1)
    print("| source file | items reproduced | cases reproduced |")
    print("|---|---|---|")
    for name, c in sorted(libraries.items()):
        print(f"| `{name}.py` | {c['items ok']}/{c['items']} | {c['cases ok']}/{c['cases']} |")
    print(
        f"| **all** | **{totals['items ok']}/{totals['items']}** | "
        f"**{totals['cases ok']}/{totals['cases']} ({pct:.0f}%)** |"
    )
    print(
        f"\nTraced: {totals['traces ok']}/{totals['traces']} traces and "
        f"{totals['traced cases ok']}/{totals['traced cases']} traced cases reproduce PyTorch's "
        f"traces; {totals['same warnings']}/{totals['traces']} give exactly PyTorch's "
        "TracerWarnings.\n"
    )
    for title, failures in (("scripted", known_failures.SCRIPT), ("traced", known_failures.TRACE)):
        by_reason: dict[str, list[str]] = {}
        for item, why in failures.items():
            by_reason.setdefault(why, []).append(item)
        print(f"Misses, {title} ({len(failures)} items):\n")
        print("| reason | items |")
        print("|---|---|")
        for why, ids in sorted(by_reason.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            print(f"| {why} | {', '.join(f'`{i}`' for i in sorted(ids))} |")
        print()


def _reproduces(row: dict, traced: bool) -> bool:
    """Whether `row` passes as its test in test_realworld.py checks it."""
    if not traced:
        return all(r.ok for r in check.check_script(row))
    results, warned = _quietly(check.check_trace, row)
    return all(r.ok for r in results) and warned == row.get("trace_warnings", [])


def prune() -> None:
    """Rewrite known_failures.py without the items that now reproduce PyTorch.

    Only removes entries: an item that stops reproducing is a regression for its test to
    report, never something to add here silently."""
    import known_failures

    with open(RECORDED, encoding="utf-8") as f:
        rows = {row["id"]: row for row in (json.loads(line) for line in f if line.strip())}
    path = Path(known_failures.__file__)
    text = path.read_text(encoding="utf-8")
    kept = text.splitlines(keepends=True)
    removed = 0
    for table, traced in ((known_failures.SCRIPT, False), (known_failures.TRACE, True)):
        for item in list(table):
            if item in rows and _reproduces(rows[item], traced):
                removed += 1
                section = "TRACE" if traced else "SCRIPT"
                kept = _drop_entry(kept, section, item)
                print(f"reproduces now ({section.lower()}): {item}")
    path.write_text("".join(kept), encoding="utf-8")
    print(f"{removed} entries removed from {path.name}")


def _drop_entry(lines: list[str], section: str, item: str) -> list[str]:
    """`lines` without the line of `item` inside the `SECTION: dict[...] = {` literal."""
    inside = False
    key = f"    {json.dumps(item)}:"
    for i, line in enumerate(lines):
        if line.startswith(f"{section}:"):
            inside = True
        elif inside and line.startswith("}"):
            break
        elif inside and line.startswith(key):
            return lines[:i] + lines[i + 1 :]
    raise SystemExit(f"{item} not found as one line in {section}")


if __name__ == "__main__":
    main()
