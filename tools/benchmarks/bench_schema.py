"""ts-schema: parsing and printing schemas, importing, looking up and matching operators.

Parsing uses the uncached parser (`parse_schema` caches by text) over the
3,061 schemas of integration_tests/corpus/schemas.jsonl; each round checks
that every schema prints back to PyTorch's text. Import time is measured in
fresh processes. Lookups run against a fresh registry over the builtin
catalogue, so the first round pays for indexing the catalogue and parsing
the overloads of each name looked up; later rounds hit the registry's
tables. `operator_for` is measured on the nodes of a parsed graph, first
uncached, then from the nodes' caches.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

from ts_ir import parse_ir
from ts_schema import (
    Catalogue,
    EntryPointDiscovery,
    OperatorRegistry,
    insert_call,
    registry,
)
from ts_schema.schema_parser import SchemaParser

TITLE = "ts-schema: parsing schemas, import, operator lookup and matching"
ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "integration_tests" / "corpus" / "schemas.jsonl"


def corpus_texts() -> list[str]:
    return [json.loads(line)["schema"] for line in CORPUS.read_text().splitlines() if line]


def import_time(rounds: int) -> float:
    code = "import time; t = time.perf_counter(); import ts_schema; print(time.perf_counter() - t)"
    base = "import time; t = time.perf_counter(); import ts_ir; print(time.perf_counter() - t)"
    total, ir = [], []
    for _ in range(rounds):
        total.append(float(subprocess.check_output([sys.executable, "-c", code])))
        ir.append(float(subprocess.check_output([sys.executable, "-c", base])))
    return statistics.median(total), statistics.median(ir)


def lookup_names(count: int) -> list[str]:
    fresh = OperatorRegistry(Catalogue(), EntryPointDiscovery(lambda: []))
    names = sorted({op.qualified_name for op in fresh.operators()})
    step = max(1, len(names) // count)
    return names[::step][:count]


def graph_text(n_nodes: int) -> str:
    lines = ["graph(%x : Tensor, %y : Tensor, %i : int, %f : float, %l : int[]):"]
    lines.append("  %one : int = prim::Constant[value=1]()")
    ops = [
        "%v{k} : Tensor = aten::add(%x, %y, %one)",
        "%v{k} : Tensor = aten::mul(%x, %f)",
        "%v{k} : int = aten::add(%i, %i)",
        "%v{k} : float = aten::div(%i, %i)",
        "%v{k} : int = aten::len(%l)",
        "%v{k} : Tensor = aten::relu(%x)",
        "%v{k} : Tensor = aten::sum(%x, %l, %one, %one)",
        "%v{k} : int[] = aten::add(%l, %l)",
    ]
    for k in range(n_nodes):
        lines.append("  " + ops[k % len(ops)].format(k=k))
    lines.append("  return (%one)")
    return "\n".join(lines) + "\n"


def run(ctx) -> str:
    texts = corpus_texts()
    repeat = 3 if ctx.quick else 7

    def parse_only() -> None:
        for t in texts:
            SchemaParser(t).parse()

    def parse_and_print() -> None:
        for t in texts:
            if str(SchemaParser(t).parse()) != t:
                raise AssertionError(f"schema does not print back: {t}")

    parse_s = ctx.timeit(parse_only, repeat=repeat)
    both_s = ctx.timeit(parse_and_print, repeat=repeat)
    n = len(texts)

    import_s, ir_import_s = import_time(3 if ctx.quick else 7)

    names = lookup_names(300)
    fresh = OperatorRegistry(Catalogue(), EntryPointDiscovery(lambda: []))
    t0 = time.perf_counter()
    overloads = sum(len(fresh.lookup(name)) for name in names)
    cold_s = time.perf_counter() - t0
    warm_s = ctx.timeit(lambda: [fresh.lookup(name) for name in names], repeat=repeat)

    n_nodes = 2000
    text = graph_text(n_nodes)
    registry.lookup("aten::add")  # the global catalogue index, outside the timing

    def resolve_fresh() -> None:
        graph = parse_ir(text)
        for node in graph.nodes():
            registry.operator_for(node)

    parse_graph_s = ctx.timeit(lambda: parse_ir(text), repeat=repeat)
    resolve_s = ctx.timeit(resolve_fresh, repeat=repeat) - parse_graph_s
    graph = parse_ir(text)
    nodes = list(graph.nodes())
    for node in nodes:
        registry.operator_for(node)
    cached_s = ctx.timeit(lambda: [registry.operator_for(nd) for nd in nodes], repeat=repeat)

    def insert_calls() -> None:
        g = parse_ir("graph(%x : Tensor, %i : int):\n  return (%x)\n")
        x, i = g.inputs
        for _ in range(100):
            insert_call(g, "aten::add", [x, i])
            insert_call(g, "aten::max", [x], {"dim": 1})
            insert_call(g, "aten::sum", [x, [0]])

    insert_s = ctx.timeit(insert_calls, repeat=repeat) / 300

    rows = [
        ["parse 3,061 corpus schemas", f"{parse_s * 1e3:.1f} ms", f"{parse_s / n * 1e6:.1f} µs"],
        [
            "parse and print them (exact round trip)",
            f"{both_s * 1e3:.1f} ms",
            f"{both_s / n * 1e6:.1f} µs",
        ],
        [
            "`import ts_schema` (fresh process)",
            f"{import_s * 1e3:.1f} ms",
            f"of which ts_ir {ir_import_s * 1e3:.1f} ms",
        ],
        [
            f"first lookup of {len(names)} names ({overloads} overloads parsed)",
            f"{cold_s * 1e3:.1f} ms",
            f"{cold_s / len(names) * 1e6:.0f} µs per name",
        ],
        [
            f"repeated lookup of {len(names)} names",
            f"{warm_s * 1e3:.2f} ms",
            f"{warm_s / len(names) * 1e6:.2f} µs per name",
        ],
        [
            f"`operator_for` on {n_nodes} fresh nodes",
            f"{resolve_s * 1e3:.1f} ms",
            f"{resolve_s / n_nodes * 1e6:.2f} µs per node",
        ],
        [
            f"`operator_for` on {n_nodes} cached nodes",
            f"{cached_s * 1e3:.2f} ms",
            f"{cached_s / n_nodes * 1e6:.2f} µs per node",
        ],
        ["`graph.insert` with overload matching", f"{insert_s * 1e6:.0f} µs per call", ""],
    ]
    return (
        ctx.table(["what", "time", "per item"], rows)
        + f"\n\nMedian of {repeat} rounds. Parsing uses the uncached parser; every round checks "
        "that each schema prints back to PyTorch's text. The first lookups index the catalogue "
        "(4,374 schema lines) and parse only the overloads of the names looked up."
    )
