"""Archives of the corpus: print -> import gives the same graph, and saved programs run the same.

For every corpus function and module:
- the Python printer's source imports back (through the frontend's own parser)
  to a graph with the same structure up to value names, and printing that
  graph gives the same text (print -> import -> print is stable);
- saved with `ts_serialize.save` and loaded in a new Python process, the
  program gives bit-identical outputs on every recorded input.
The printer is also checked against PyTorch itself: printing the graphs
PyTorch recorded gives the `code` PyTorch printed for them.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from conftest import load_jsonl
from corpus_values import decode
from test_frontend_corpus import FUNCTIONS, MODULES, corpus_modules, corpus_programs

PROGRAMS = [row for row in load_jsonl("programs") if row.get("code")]


def scripted(row: dict):
    from ts_frontend import script

    if row["kind"] == "function":
        return script(getattr(corpus_programs(), row["name"]))
    module = script(getattr(corpus_modules(), row["name"])(*row["ctor_args"]))
    module.load_state_dict({k: decode(v) for k, v in row["state_dict"].items()})
    module.eval()
    return module


def methods(program) -> dict:
    import ts_runtime

    if isinstance(program, ts_runtime.ScriptModule):
        out = {}
        for prefix, m in program.named_modules():
            for name in m._type.methods:
                out[f"{prefix}.{name}" if prefix else name] = m.method(name)
        return out
    return {program.name: program}


def roundtrip(program):
    import ts_serialize

    buf = io.BytesIO()
    ts_serialize.save(program, buf)
    return ts_serialize.load(io.BytesIO(buf.getvalue()))


@pytest.mark.parametrize("row", FUNCTIONS + MODULES, ids=lambda r: r["name"])
def test_printed_code_imports_to_the_same_graph(row) -> None:
    from ts_frontend.python_printer import ConstantTable, print_for_archive
    from ts_serialize import graph_difference

    program = scripted(row)
    loaded = roundtrip(program)
    before, after = methods(program), methods(loaded)
    assert sorted(before) == sorted(after)
    for name, fn in before.items():
        difference = graph_difference(fn.graph, after[name].graph)
        assert difference is None, f"{name}: {difference}"
        first, _ = print_for_archive(
            fn.function if hasattr(fn, "function") else fn, ConstantTable()
        )
        again = after[name]
        second, _ = print_for_archive(
            again.function if hasattr(again, "function") else again, ConstantTable()
        )
        assert first == second, f"{name}: print -> import -> print changed the text"


# The graph text records no function's module (`__torch__.corpus_programs.`) nor defaults.
_PRINTER_EXCEPTIONS = {
    "calls_helper": "calls print the callee's qualified name, which the graph text lacks",
    "fork_wait": "calls print the callee's qualified name, which the graph text lacks",
    "optional_default": "the parameter default is in the schema, not the graph text",
}


@pytest.mark.parametrize(
    "row", [r for r in PROGRAMS if r["kind"] == "function"], ids=lambda r: r["name"]
)
def test_printing_pytorchs_graphs_gives_pytorchs_code(row) -> None:
    from ts_frontend.python_printer import print_graph_as_python
    from ts_ir import parse_ir

    if row["name"] in _PRINTER_EXCEPTIONS:
        pytest.skip(_PRINTER_EXCEPTIONS[row["name"]])
    assert print_graph_as_python(parse_ir(row["graph"]), row["name"]) == row["code"]


_CHILD = textwrap.dedent(
    """
    import json, sys
    import ts_serialize
    sys.path.insert(0, {tests!r})
    from corpus_values import decode
    rows = json.loads(open(sys.argv[1]).read())
    results = {{}}
    for row in rows:
        program = ts_serialize.load(f"{{sys.argv[2]}}/{{row['name']}}.tsj")
        outs = []
        for case in row["cases"]:
            if "error" in case:
                continue
            outs.append(program(*[decode(x) for x in case["inputs"]]))
        results[row["name"]] = outs
    ts_serialize.save(results, f"{{sys.argv[2]}}/results.tsj")
    """
)


def test_saved_programs_run_identically_in_a_new_process(tmp_path: Path) -> None:
    import ts_serialize

    rows = [r for r in FUNCTIONS + MODULES]
    expected = {}
    for row in rows:
        program = scripted(row)
        ts_serialize.save(program, tmp_path / f"{row['name']}.tsj")
        expected[row["name"]] = [
            program(*[decode(x) for x in case["inputs"]])
            for case in row["cases"]
            if "error" not in case
        ]
    (tmp_path / "rows.json").write_text(json.dumps(rows))
    (tmp_path / "child.py").write_text(_CHILD.format(tests=str(Path(__file__).parent)))
    subprocess.run(
        [sys.executable, str(tmp_path / "child.py"), str(tmp_path / "rows.json"), str(tmp_path)],
        check=True,
        timeout=600,
    )
    results = ts_serialize.load(tmp_path / "results.tsj")
    assert sorted(results) == sorted(expected)
    for name, outs in expected.items():
        assert identical(outs, results[name]), name


def identical(a, b) -> bool:
    import ts_runtime

    if isinstance(a, ts_runtime.Tensor):
        return (
            isinstance(b, ts_runtime.Tensor)
            and a.dtype == b.dtype
            and np.array_equal(a.detach().numpy(), b.detach().numpy(), equal_nan=True)
        )
    if isinstance(a, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(map(identical, a, b))
    if isinstance(a, dict):
        return isinstance(b, dict) and list(a) == list(b) and all(identical(a[k], b[k]) for k in a)
    if isinstance(a, float) and isinstance(b, float) and np.isnan(a):
        return bool(np.isnan(b))
    return type(a) is type(b) and a == b
