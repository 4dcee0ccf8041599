"""Shared helpers for ts-ir's tests: independent checks of use lists and graph text."""

from __future__ import annotations

import re
from collections import Counter

from ts_ir import Block, Graph, Node, Value


def walk_blocks(block: Block) -> list[Block]:
    """`block` and every block nested in it, by walking node lists (not `all_nodes`)."""
    out = [block]
    for n in block.nodes():
        for b in n.blocks:
            out.extend(walk_blocks(b))
    return out


def all_values(graph: Graph) -> list[Value]:
    """Every value defined in the graph: block inputs and node outputs."""
    values: list[Value] = []
    for b in walk_blocks(graph.block):
        values.extend(b.inputs)
        for n in b.nodes():
            values.extend(n.outputs)
    return values


def input_slots(graph: Graph) -> list[tuple[Node, int, Value]]:
    """(user, offset, value) for every input of every node and return node, found by walking
    the blocks' node lists rather than through `all_nodes` or the use lists."""
    slots: list[tuple[Node, int, Value]] = []
    for block in walk_blocks(graph.block):
        for n in block.nodes():
            slots.extend((n, i, v) for i, v in enumerate(n.inputs))
        ret = block.return_node
        slots.extend((ret, i, v) for i, v in enumerate(ret.inputs))
    return slots


def assert_uses_exact(graph: Graph) -> None:
    """Every value's use list is exactly the input slots that hold it, recomputed from
    the nodes; no value outside the graph's blocks is used."""
    expected: dict[Value, Counter] = {v: Counter() for v in all_values(graph)}
    for user, offset, value in input_slots(graph):
        assert value in expected, (
            f"input {offset} of {user.kind} is %{value.debug_name}, "
            "which no node or block of the graph defines"
        )
        expected[value][(id(user), offset)] += 1
    for value, want in expected.items():
        got = Counter((id(u.user), u.offset) for u in value.uses)
        assert got == want, (
            f"%{value.debug_name}: recorded uses {sorted(value.uses, key=repr)} "
            f"differ from the input slots holding it"
        )


def uses_of(value: Value) -> list[tuple[str, int]]:
    """The value's uses as sorted (user kind, offset) pairs."""
    return sorted((str(u.user.kind), u.offset) for u in value.uses)


_NUMBER_NAME = re.compile(r"%(\d+)\b(?!\.)")


def renumbered(text: str) -> str:
    """Graph text with numeric value names replaced in order of first appearance, so that
    graphs equal up to their unique numbers compare equal."""
    mapping: dict[str, str] = {}

    def sub(m: re.Match[str]) -> str:
        return "%" + mapping.setdefault(m.group(1), f"v{len(mapping)}")

    return _NUMBER_NAME.sub(sub, text)


def node_of(graph: Graph, kind: str, index: int = 0) -> Node:
    """The `index`-th node of `kind` in program order, nested blocks included."""
    found = [n for n in graph.all_nodes() if n.kind == kind]
    return found[index]
