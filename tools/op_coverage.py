"""Which builtin operators tsjit can run, type, differentiate, fuse: a coverage report.

    python tools/op_coverage.py                    totals and what is missing, ranked by use
    python tools/op_coverage.py --top 50           longer rankings
    python tools/op_coverage.py --list             one line per schema
    python tools/op_coverage.py --json FILE        the per-schema table as JSON

For every schema of the builtin catalogue (`torch_schemas.txt`, everything
PyTorch 2.13 registers) it looks up the five rule tables an operator can
appear in:

    kernel     an eager implementation in the registry (ts-runtime's ops)
    shape      a shape/dtype rule (ts-passes' `shape_rules`)
    gradient   a derivative formula (ts-runtime's `DERIVATIVES`); an in-place
               `name_` counts when its functional form has one, as autograd
               differentiates it through that form, and a composite kernel
               (registered without an autograd wrapper) counts as its inner
               operator calls record their own history
    lowering   a CPU fusion lowering (ts-fuser-cpu's `CPU_LOWERINGS`)
    array      a raw-array kernel for no-grad plans (ts-runtime's `ARRAY_KERNELS`)

and prints the totals. Missing entries are ranked by how often real code calls
the operator: the recorded scan of published libraries in
`tools/data/op_usage.json` (see `tools/data/README.md`) plus a scan of
`integration_tests/` made now (see `tools/op_usage.py`).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from importlib import resources
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
USAGE_TABLE = ROOT / "tools" / "data" / "op_usage.json"
COLUMNS = ("kernel", "shape", "gradient", "lowering", "array")


@dataclass
class Row:
    key: str
    name: str
    schema: str
    kernel: bool
    shape: bool
    gradient: str
    """"formula", "functional" (in-place, through its functional form), "composite", or ""."""
    lowering: bool
    array: bool
    differentiable: bool
    """Whether a gradient makes sense: tensor in, floating tensor out, not an `out=` form."""
    tensor_result: bool


def catalogue_schemas() -> list[str]:
    """The schema lines of the builtin catalogue, in PyTorch's order."""
    text = resources.files("ts_schema").joinpath("catalogue", "torch_schemas.txt").read_text()
    return [line for line in text.splitlines() if line and not line.startswith("#")]


def _tensor_type(t: object) -> bool:
    from ts_ir import TensorType

    contained = getattr(t, "contained_types", None)
    if isinstance(t, TensorType):
        return True
    return bool(contained and any(_tensor_type(c) for c in contained()))


def _functional_has_formula(op: Any) -> bool:
    from ts_runtime.ops.dispatch import DERIVATIVES
    from ts_schema import registry

    overload = f".{op.overload_name}" if op.overload_name else ""
    functional = registry.find(op.qualified_name[:-1] + overload)
    return functional is not None and DERIVATIVES.lookup_operator(functional) is not None


def rows() -> list[Row]:
    """One row per catalogue schema, with the tables each appears in."""
    import ts_runtime  # noqa: F401  (registers the kernels)

    try:  # in-place and out= forms have derived rules
        from ts_passes.shape_rules import rule_for_operator
    except ImportError:  # before rule_for_operator existed: the table alone
        from ts_passes.shape_rules import shape_rules

        rule_for_operator = shape_rules.lookup_operator
    from ts_runtime.ops.dispatch import ARRAY_KERNELS, DERIVATIVES
    from ts_schema import parse_schema, registry

    try:
        from ts_fuser_cpu.lowerings import CPU_LOWERINGS
    except ImportError:  # the CPU fuser is an optional plugin
        CPU_LOWERINGS = None

    out = []
    for line in catalogue_schemas():
        schema = parse_schema(line)
        op = registry.get(schema.key)
        args, returns = op.schema.arguments, op.schema.returns
        tensor_in = any(_tensor_type(a.type) for a in args)
        tensor_result = any(_tensor_type(r.type) for r in returns)
        name = op.qualified_name
        is_out = any(a.is_out for a in args)
        gradient = ""
        if is_out:
            pass  # autograd refuses out= calls
        elif DERIVATIVES.lookup_operator(op) is not None:
            gradient = "formula"
        elif name.endswith("_") and _functional_has_formula(op):
            gradient = "functional"
        elif op.impl is not None and tensor_in and not hasattr(op.impl, "__wrapped__"):
            gradient = "composite"
        out.append(
            Row(
                key=op.key,
                name=name,
                schema=str(op.schema),
                kernel=op.has_implementation,
                shape=rule_for_operator(op) is not None,
                gradient=gradient,
                lowering=CPU_LOWERINGS is not None
                and CPU_LOWERINGS.lookup_operator(op) is not None,
                array=ARRAY_KERNELS.lookup_operator(op) is not None,
                differentiable=tensor_in and tensor_result and not is_out,
                tensor_result=tensor_result,
            )
        )
    return out


def usage(*, live: bool = True) -> Counter[str]:
    """Calls per operator name: the recorded published-code table, plus integration_tests/."""
    counts: Counter[str] = Counter()
    if USAGE_TABLE.exists():
        counts.update(json.loads(USAGE_TABLE.read_text("utf-8"))["counts"])
    if live:
        sys.path.insert(0, str(ROOT / "tools"))
        from op_usage import scan

        found, _ = scan([ROOT / "integration_tests"], skip_tests=False)
        counts.update(found)
    return counts


def totals(table: list[Row]) -> dict[str, dict[str, int]]:
    """Counts per column: over every schema, and over those with a kernel."""
    implemented = [r for r in table if r.kernel]
    out = {
        "schemas": {"all": len(table), "implemented": len(implemented)},
    }
    for col in COLUMNS:
        out[col] = {
            "all": sum(bool(getattr(r, col)) for r in table),
            "implemented": sum(bool(getattr(r, col)) for r in implemented),
        }
    out["shape"]["needed"] = sum(r.tensor_result for r in implemented)
    out["shape"]["missing"] = sum(r.tensor_result and not r.shape for r in implemented)
    out["gradient"]["needed"] = sum(r.differentiable for r in implemented)
    out["gradient"]["missing"] = sum(r.differentiable and not r.gradient for r in implemented)
    for how in ("formula", "functional", "composite"):
        out["gradient"][how] = sum(r.gradient == how for r in implemented)
    return out


def _print_totals(t: dict[str, dict[str, int]]) -> None:
    n, k = t["schemas"]["all"], t["schemas"]["implemented"]
    print(f"builtin schemas: {n}")
    print(f"{'':10s} {'of all':>14s} {'of implemented':>16s}")
    for col in COLUMNS:
        a, i = t[col]["all"], t[col]["implemented"]
        print(f"{col:10s} {a:6d} ({100 * a / n:5.1f}%) {i:7d} ({100 * i / max(k, 1):5.1f}%)")
    s, g = t["shape"], t["gradient"]
    print(f"implemented with a tensor result but no shape rule: {s['missing']} of {s['needed']}")
    print(
        f"gradients: {g['formula']} by formula, {g['functional']} in-place through the functional"
        f" form, {g['composite']} through a composite kernel"
    )
    print(f"implemented, differentiable, no gradient:           {g['missing']} of {g['needed']}")


def _ranked(names: Iterable[str], counts: Counter[str], top: int) -> list[tuple[int, str]]:
    ranked = sorted(((counts.get(n, 0), n) for n in set(names)), key=lambda x: (-x[0], x[1]))
    return [x for x in ranked if x[0] > 0][:top]


def report(table: list[Row], counts: Counter[str], top: int) -> None:
    _print_totals(totals(table))
    by_name: dict[str, list[Row]] = {}
    for r in table:
        by_name.setdefault(r.name, []).append(r)
    print(f"\noperators used by real code with no kernel at all (calls, name), top {top}:")
    none = [n for n, rs in by_name.items() if not any(r.kernel for r in rs)]
    for c, n in _ranked(none, counts, top):
        print(f"  {c:6d}  {n}")
    print(
        f"\noperators with some overloads lacking a kernel (calls, name, missing/all), top {top}:"
    )
    partial = [
        n
        for n, rs in by_name.items()
        if any(r.kernel for r in rs) and not all(r.kernel for r in rs)
    ]
    for c, n in _ranked(partial, counts, top):
        rs = by_name[n]
        missing = [r.key for r in rs if not r.kernel]
        print(f"  {c:6d}  {n}  {len(missing)}/{len(rs)}: {', '.join(missing[:4])}")
    for col, label, wanted in (
        ("shape", "shape rule", lambda r: r.kernel and r.tensor_result),
        ("gradient", "gradient formula", lambda r: r.kernel and r.differentiable),
    ):
        lacking = [r.name for r in table if wanted(r) and not getattr(r, col)]
        print(f"\nimplemented operators lacking a {label} (calls, name), top {top}:")
        for c, n in _ranked(lacking, counts, top):
            keys = [r.key for r in by_name[n] if wanted(r) and not getattr(r, col)]
            print(f"  {c:6d}  {n}  ({', '.join(keys[:4])}{', ...' if len(keys) > 4 else ''})")
    unused = sum(1 for n in none if counts.get(n, 0) == 0)
    print(
        f"\n{len(none)} operator names have no kernel; {unused} of them are not called in the scanned code."
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n\n")[0])
    parser.add_argument("--top", type=int, default=25, help="length of each ranking")
    parser.add_argument("--list", action="store_true", help="one line per schema")
    parser.add_argument("--json", type=Path, help="write the per-schema table and totals")
    parser.add_argument(
        "--no-live-scan", action="store_true", help="use the recorded usage table only"
    )
    args = parser.parse_args(argv)
    table = rows()
    if args.list:
        for r in table:
            marks = "".join(c[0].upper() if getattr(r, c) else "." for c in COLUMNS)
            print(f"{marks}  {r.schema}")
        return 0
    counts = usage(live=not args.no_live_scan)
    if args.json:
        args.json.write_text(
            json.dumps({"totals": totals(table), "rows": [asdict(r) for r in table]}, indent=1),
            "utf-8",
        )
    report(table, counts, args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
