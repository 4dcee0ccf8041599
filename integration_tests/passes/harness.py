"""Shared helpers for the ts-passes integration tests: corpus rows, canonical text, running cases.

The corpus (`integration_tests/corpus`) holds, per program, the graph PyTorch
scripted and the recorded cases; `passes.jsonl` holds PyTorch's output of
nine passes on those graphs. These helpers parse, canonicalize (values
renumbered in definition order, every name dropped) and run graphs with
ts_runtime, and tell a failure caused by an operator the runtime does not
implement yet from a real one.
"""

from __future__ import annotations

import builtins
import json
from collections import Counter
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import ts_ir
import ts_passes
from corpus_values import HELPER_GRAPHS
from ts_ir import Graph, OptionalType, TupleType

CORPUS = Path(__file__).resolve().parent.parent / "corpus"

#: The passes recorded in passes.jsonl, by the name the corpus uses.
CORPUS_PASSES: dict[str, Callable[[Graph], bool]] = {
    "dce": ts_passes.eliminate_dead_code,
    "cse": ts_passes.eliminate_common_subexpression,
    "constant_propagation": ts_passes.constant_propagation,
    "constant_pooling": ts_passes.constant_pooling,
    "peephole": ts_passes.peephole_optimize,
    "loop_unrolling": ts_passes.unroll_loops,
    "remove_mutation": ts_passes.remove_mutation,
    "lower_all_tuples": ts_passes.lower_all_tuples,
    "canonicalize": ts_passes.canonicalize,
}


@cache
def rows(name: str) -> tuple[dict, ...]:
    with open(CORPUS / f"{name}.jsonl", encoding="utf-8") as f:
        return tuple(json.loads(line) for line in f if line.strip())


def program(name: str) -> dict:
    return next(r for r in rows("programs") if r["name"] == name)


def canonical_text(graph_or_text: Graph | str) -> str:
    """The graph printed with values renumbered in definition order and no names."""
    text = graph_or_text if isinstance(graph_or_text, str) else str(graph_or_text)
    g = ts_ir.parse_ir(text)
    ts_passes.canonicalize(g, strip_input_names=True)
    return g.to_string(source_locations=False)


def node_kinds(graph: Graph) -> Counter:
    kinds: Counter = Counter()
    for n in graph.all_nodes():
        kinds[str(n.kind)] += 1
    return kinds


def round_trip(graph: Graph) -> Graph:
    """print → parse → print must give the same text; returns the parsed graph."""
    text = str(graph)
    parsed = ts_ir.parse_ir(text)
    assert str(parsed) == text, "the graph did not print back identically after parsing"
    parsed.lint()
    return parsed


# -- running graphs


def flatten_value(x: Any) -> list[Any]:
    if isinstance(x, tuple):
        return [y for e in x for y in flatten_value(e)]
    return [x]


def flatten_encoded(x: Any) -> list[Any]:
    if isinstance(x, dict) and "tuple" in x:
        return [y for e in x["tuple"] for y in flatten_encoded(e)]
    return [x]


def flatten_inputs(types: list[Any], inputs: list[Any]) -> list[Any]:
    out = []
    for t, x in zip(types, inputs, strict=True):
        if isinstance(t, TupleType) and isinstance(x, tuple):
            out.extend(flatten_inputs(list(t.elements), list(x)))
        else:
            out.append(x)
    return out


@cache
def compilation_unit_graphs() -> dict[str, str]:
    return {r["name"]: r["inlined_graph"] for r in rows("programs") if r.get("inlined_graph")}


def make_unit(transform: Callable[[str, Graph], Graph] | None, *, optimize: bool) -> Any:
    """A compilation unit holding every corpus function, each graph passed through `transform`."""
    import ts_runtime

    unit = ts_runtime.CompilationUnit()
    for row in rows("programs"):
        if row["kind"] != "function" or not row.get("inlined_graph"):
            continue
        g = ts_ir.parse_ir(row["inlined_graph"])
        if transform is not None:
            g = transform(row["name"], g)
        unit.create_function(row["name"], g, optimize=optimize)
    for name, text in HELPER_GRAPHS.items():
        unit.create_function(name, ts_ir.parse_ir(text), optimize=optimize)
    return unit


def check_cases(
    fn: Any,
    row: dict,
    original_input_types: list[Any],
    *,
    flattened: bool = False,
) -> None:
    """Run every recorded case; outputs must match, recorded errors must raise.

    Raises AssertionError on a mismatch; an error the program should not
    raise propagates.
    """
    from corpus_values import decode, eager_error_class, mismatch

    for i, case in enumerate(row["cases"]):
        inputs = _pad_inputs_types(original_input_types, [decode(x) for x in case["inputs"]])
        if flattened:
            inputs = flatten_inputs(original_input_types, inputs)
        if "error" in case:
            expected = eager_error_class(row)
            cls = getattr(builtins, expected) if expected else Exception
            try:
                fn(*inputs)
            except cls:
                continue
            except Exception as exc:
                raise AssertionError(f"case {i}: raised {exc!r}, expected {cls.__name__}") from exc
            raise AssertionError(f"case {i}: expected an error ({case['error']})")
        out = fn(*inputs)
        if flattened:
            got, want = flatten_value(out), flatten_encoded(case["outputs"])
            assert len(got) == len(want), f"case {i}: {len(got)} results, expected {len(want)}"
            for j, (a, e) in enumerate(zip(got, want, strict=True)):
                problem = mismatch(a, e, f"output[{j}]")
                assert problem is None, f"case {i}: {problem}"
        else:
            problem = mismatch(out, case["outputs"])
            assert problem is None, f"case {i}: {problem}"


def _pad_inputs_types(types: list[Any], inputs: list[Any]) -> list[Any]:
    missing = types[len(inputs) :]
    if missing and all(isinstance(t, OptionalType) for t in missing):
        return inputs + [None] * len(missing)
    return inputs
