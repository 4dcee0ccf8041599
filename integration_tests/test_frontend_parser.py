"""The frontend's own parser and Python's `ast` build the same trees and the same graphs.

Each corpus function is compiled twice: from the function (trees built from
Python's `ast`) and from its source text through `script_source` (the
project's lexer and Pratt parser, no `ast`). The printed graphs, source
locations included, must be identical; so must the trees themselves.
"""

from __future__ import annotations

import ast
import sys

import pytest
from conftest import load_jsonl
from test_frontend_corpus import corpus_modules, corpus_programs

FUNCTIONS = [row["name"] for row in load_jsonl("programs") if row["kind"] == "function"]
MODULES = [row["name"] for row in load_jsonl("programs") if row["kind"] == "module"]


@pytest.mark.parametrize("name", FUNCTIONS)
def test_source_string_gives_the_same_graph(name):
    from ts_frontend import script, script_source
    from ts_frontend.sources import source_of

    fn = getattr(corpus_programs(), name)
    src = source_of(fn)
    # each with a compiler of its own (`optimize=True`), so that the names given to called
    # functions do not depend on what other tests in this process compiled before
    from_ast = script(fn, optimize=True)
    from_parser = script_source(
        src.text,
        namespace=vars(corpus_programs()),
        filename=src.filename,
        first_line=src.starting_line_no,
        optimize=True,
    )
    assert str(from_parser.graph) == str(from_ast.graph)


@pytest.mark.parametrize("name", FUNCTIONS)
def test_same_trees(name):
    from ts_frontend.ast_builder import AstBuilder
    from ts_frontend.parser import parse_source
    from ts_frontend.sources import source_of

    src = source_of(getattr(corpus_programs(), name))
    assert [d.dump() for d in AstBuilder(src).defs()] == [d.dump() for d in parse_source(src)]


@pytest.mark.parametrize("name", MODULES)
def test_same_trees_for_methods(name):
    from ts_frontend.ast_builder import AstBuilder
    from ts_frontend.parser import parse_source
    from ts_frontend.sources import source_of

    cls = getattr(corpus_modules(), name)
    for method in ("forward", "helper"):
        if method in vars(cls):
            src = source_of(vars(cls)[method])
            assert [d.dump() for d in AstBuilder(src).defs()] == [
                d.dump() for d in parse_source(src)
            ]


def test_source_strings_need_no_python_ast(monkeypatch):
    """`script_source` works with Python's `ast` module unusable."""
    import ts_frontend

    def broken(*args, **kwargs):
        raise AssertionError("Python's ast was used")

    monkeypatch.setattr(ast, "parse", broken)
    fn = ts_frontend.script_source(
        "def f(x: int, y: float = 2.5) -> float:\n"
        "    if x > 0:\n"
        "        return x * y\n"
        "    return -y\n"
    )
    assert fn(2) == 5.0 and fn(-1) == -2.5
    assert "ast" not in sys.modules or ast.parse is broken
