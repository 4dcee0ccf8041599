"""The frontend's modules import each other in layers, with no cycle (tools/check_imports.py)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

TOOL = Path(__file__).resolve().parent.parent / "tools" / "check_imports.py"


def _tool():
    spec = importlib.util.spec_from_file_location("check_imports", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_frontend_imports_are_layered_and_acyclic():
    assert _tool().check("ts_frontend") == []


def test_a_cycle_through_a_function_level_import_is_found(tmp_path):
    tool = _tool()
    (tmp_path / "a.py").write_text("from . import b\n")
    (tmp_path / "b.py").write_text("def f():\n    from .c import g\n")
    (tmp_path / "c.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.a import x\n"
    )
    graph = {p.stem: tool.module_imports(p, "pkg", p.stem) for p in tmp_path.glob("*.py")}
    assert graph == {"a": {"b"}, "b": {"c"}, "c": {"a"}}
    assert tool.find_cycle(graph) == ["a", "b", "c", "a"]
    assert tool.find_cycle({"a": {"b"}, "b": set()}) is None


def test_the_module_list_counts_every_module_of_every_layer():
    tool = _tool()
    text = tool.module_list("ts_frontend")
    layered = [m for _, modules in tool.LAYERS["ts_frontend"] for m in modules]
    source = tool.SOURCES["ts_frontend"]
    lines = sum(len((source / f"{m}.py").read_text().splitlines()) for m in layered)
    assert f"{len(layered)} modules, {lines} lines" in text
    assert len(layered) == len(list(source.glob("*.py")))
