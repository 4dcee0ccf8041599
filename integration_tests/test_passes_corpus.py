"""ts-passes against PyTorch: every pass of corpus/passes.jsonl on every recorded input.

For each row and pass, our output and PyTorch's are parsed, renumbered
canonically (values numbered in definition order, names dropped) and
compared as text. A pair is *identical* when the texts agree, *equivalent*
when they do not but our graph gives the recorded results of the program
(run with ts_runtime) and holds the same multiset of node kinds as
PyTorch's, and *different* otherwise, which is allowed only with a written
reason in `passes/corpus_differences.json`.

Rows PyTorch could not parse back (`parse_error`) have no PyTorch output;
for them the program's graph must parse with our parser, and every pass
must run on it, lint, and print back identically after parsing.

    python integration_tests/test_passes_corpus.py     prints the counts per pass
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import ts_ir
from passes.harness import (
    CORPUS_PASSES,
    canonical_text,
    check_cases,
    node_kinds,
    program,
    round_trip,
    rows,
)

DIFFERENCES = json.loads(
    (Path(__file__).parent / "passes" / "corpus_differences.json").read_text()
)["differences"]
ROWS = [r for r in rows("passes") if "passes" in r]
UNPARSED = [r for r in rows("passes") if "parse_error" in r]
CASES = [(r, p) for r in ROWS for p in CORPUS_PASSES]


def run_ours(row: dict, pass_name: str) -> ts_ir.Graph:
    import ts_runtime  # noqa: F401  (constant propagation folds through its implementations)

    g = ts_ir.parse_ir(row["input"])
    CORPUS_PASSES[pass_name](g)
    g.lint()
    return g


def classify(row: dict, pass_name: str) -> tuple[str, str]:
    """('identical' | 'equivalent' | 'different', detail)."""
    ours = run_ours(row, pass_name)
    theirs_text = row["passes"][pass_name]
    if canonical_text(ours) == canonical_text(theirs_text):
        return "identical", ""
    theirs = ts_ir.parse_ir(theirs_text)
    if node_kinds(ours) != node_kinds(theirs):
        return "different", "node kinds differ"
    prog = program(row["name"])
    if prog["kind"] != "function":
        return "different", "a module program: its cases cannot run here"
    fn = _function(ours, prog)
    try:
        check_cases(
            fn,
            prog,
            [v.type for v in ts_ir.parse_ir(row["input"]).inputs],
            flattened=pass_name == "lower_all_tuples",
        )
    except AssertionError as exc:
        return "different", f"results differ: {exc}"
    return "equivalent", ""


def _function(graph: ts_ir.Graph, prog: dict):
    from passes.harness import make_unit

    unit = make_unit(None, optimize=False)
    return unit.create_function(prog["name"] + "_under_test", graph, optimize=False)


@pytest.mark.parametrize(("row", "pass_name"), CASES, ids=[f"{p}-{r['name']}" for r, p in CASES])
def test_pass_matches_pytorch(row, pass_name):
    verdict, detail = classify(row, pass_name)
    if verdict == "different":
        key = f"{pass_name}/{row['name']}"
        assert DIFFERENCES.get(key), f"{key} differs from PyTorch ({detail}) with no written reason"


@pytest.mark.parametrize(("row", "pass_name"), CASES, ids=[f"{p}-{r['name']}" for r, p in CASES])
def test_pass_output_round_trips(row, pass_name):
    round_trip(run_ours(row, pass_name))


@pytest.mark.parametrize("row", UNPARSED, ids=[r["name"] for r in UNPARSED])
@pytest.mark.parametrize("pass_name", list(CORPUS_PASSES))
def test_rows_pytorch_cannot_parse(row, pass_name):
    text = program(row["name"])["inlined_graph"]
    g = ts_ir.parse_ir(text)
    round_trip(g)
    CORPUS_PASSES[pass_name](g)
    g.lint()
    round_trip(g)


def test_every_written_difference_is_still_needed():
    stale = [
        k for k in DIFFERENCES if tuple(k.split("/")) not in {(p, r["name"]) for r, p in CASES}
    ]
    assert not stale, f"differences recorded for rows that do not exist: {stale}"


def summarize() -> dict[str, Counter]:
    counts: dict[str, Counter] = {p: Counter() for p in CORPUS_PASSES}
    for row, pass_name in CASES:
        verdict, _ = classify(row, pass_name)
        counts[pass_name][verdict] += 1
    return counts


if __name__ == "__main__":
    table = summarize()
    print(
        f"{'pass':24} identical equivalent different  (+{len(UNPARSED)} rows PyTorch cannot parse)"
    )
    for name, c in table.items():
        print(f"{name:24} {c['identical']:9} {c['equivalent']:10} {c['different']:9}")
