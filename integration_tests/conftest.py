"""Shared helpers for the integration tests: reading the conformance corpus.

The corpus (`corpus/*.jsonl`) was recorded from PyTorch 2.13.0; see corpus/README.md.
A test that takes an argument named `corpus_graph` runs once per graph text of the
corpus, with an id naming the file, the program and the field it came from.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

CORPUS = Path(__file__).parent / "corpus"


@cache
def load_jsonl(name: str) -> tuple[dict, ...]:
    """The rows of `corpus/<name>.jsonl`."""
    with open(CORPUS / f"{name}.jsonl", encoding="utf-8") as f:
        return tuple(json.loads(line) for line in f if line.strip())


@cache
def corpus_graph_texts() -> tuple[tuple[str, str], ...]:
    """(id, text) for every graph the corpus holds: programs' `graph` and `inlined_graph`,
    passes' `input`, `reprinted` and each pass output, and the optimized graphs."""
    texts: list[tuple[str, str]] = []
    for row in load_jsonl("programs"):
        for field in ("graph", "inlined_graph"):
            if row.get(field):
                texts.append((f"programs/{row['name']}/{field}", row[field]))
    for row in load_jsonl("passes"):
        for field in ("input", "reprinted"):
            if row.get(field):
                texts.append((f"passes/{row['name']}/{field}", row[field]))
        for name, text in (row.get("passes") or {}).items():
            texts.append((f"passes/{row['name']}/passes.{name}", text))
    for row in load_jsonl("optimized_graphs"):
        if row.get("graph"):
            grad = "grad" if row["requires_grad"] else "nograd"
            texts.append((f"optimized_graphs/{row['name']}/{row['executor']}-{grad}", row["graph"]))
    return tuple(texts)


@pytest.fixture(scope="session")
def corpus_graphs():
    """(id, text) for every graph text of the corpus."""
    return corpus_graph_texts()


@pytest.fixture(scope="session")
def corpus():
    """`corpus("programs")` gives the rows of corpus/programs.jsonl."""
    return load_jsonl


def pytest_generate_tests(metafunc):
    if "corpus_graph" in metafunc.fixturenames:
        texts = corpus_graph_texts()
        metafunc.parametrize(
            "corpus_graph", [text for _, text in texts], ids=[name for name, _ in texts]
        )
