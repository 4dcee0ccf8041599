"""Helpers shared by ts-schema's tests."""

from __future__ import annotations

from ts_ir import Graph, Value, parse_type


def make_graph(signature: str) -> tuple[Graph, dict[str, Value]]:
    """A graph whose inputs are declared like Python parameters: `"a: Tensor, b: List[int]"`."""
    graph = Graph()
    env: dict[str, Value] = {}
    for part in _split_top_level(signature):
        name, annotation = part.split(":", 1)
        env[name.strip()] = graph.add_input(name.strip(), parse_type(annotation.strip()))
    return graph, env


def _split_top_level(text: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    if text[start:].strip():
        parts.append(text[start:])
    return parts
