"""Play an alias analysis case (`cases_alias_analysis.py`) against tsjit's AliasDb, or
PyTorch's (`record.py`)."""

from __future__ import annotations

from typing import Any

from cases_alias_analysis import AliasCase

#: the queries PyTorch 2.13 answers from Python, with single values
RECORDABLE = ("may_contain_alias", "has_writers", "move_before", "move_after")


def play_tsjit(case: AliasCase) -> list[bool]:
    """tsjit's answer to each query; a move that succeeds must leave the node next to
    the point (else the answer is recorded as a failed move)."""
    import ts_ir
    import ts_passes

    g = ts_ir.parse_ir(case.ir)
    db = ts_passes.AliasDb(g)
    named = {v.debug_name: v for v in _all_values(g)}
    top = list(g.nodes())

    def value(ref: Any) -> Any:
        if ref == "inputs":
            return list(g.inputs)
        if ref == "outputs":
            return list(g.outputs)
        if isinstance(ref, list):
            return [named[r] for r in ref]
        return named[ref]

    def node(ref: str) -> Any:
        return named[ref[1:]].node if ref.startswith("@") else top[int(ref[1:])]

    answers = []
    for query, *args, _expected in case.queries:
        if query == "may_alias":
            answers.append(db.may_alias(value(args[0]), value(args[1])))
        elif query == "may_contain_alias":
            answers.append(db.may_contain_alias(value(args[0]), value(args[1])))
        elif query == "has_writers":
            answers.append(db.has_writers(value(args[0])))
        elif query == "is_mutable":
            answers.append(db.is_mutable(node(args[0])))
        elif query == "safe_to_change_aliasing":
            answers.append(db.safe_to_change_aliasing_relationship(value(args[0]), value(args[1])))
        elif query in ("move_before", "move_after"):
            n, point = node(args[0]), node(args[1])
            if query == "move_before":
                moved = db.move_before_topologically_valid(n, point)
                answers.append(moved and n.next is point)
            else:
                moved = db.move_after_topologically_valid(n, point)
                answers.append(moved and n.prev is point)
            g.lint()
        else:
            raise ValueError(f"{case.name}: unknown query {query}")
    return answers


def _all_values(g: Any) -> list[Any]:
    """Every value in definition order: inputs, then each node's outputs before what its
    blocks define."""
    out = list(g.inputs)

    def walk(block: Any) -> None:
        for n in block.nodes():
            out.extend(n.outputs)
            for b in n.blocks:
                out.extend(b.inputs)
                walk(b)

    walk(g.block)
    return out


def play_pytorch(case: AliasCase, torch: Any) -> list[bool | None]:
    """PyTorch's answer to each query it can answer from Python, else None.

    PyTorch's parser does not keep value names, and takes a node without outputs
    without the ` = `: values are matched with tsjit's parse of the same text by
    definition order."""
    import re

    import ts_ir

    names = [v.debug_name for v in _all_values(ts_ir.parse_ir(case.ir))]
    g = torch._C.parse_ir(re.sub(r"(?m)^[ \t]*= ", "  ", case.ir))
    db = g.alias_db()
    values: list[Any] = list(g.inputs())
    nodes = list(g.nodes())

    def walk(block_nodes: Any) -> None:
        for n in block_nodes:
            values.extend(n.outputs())
            for b in n.blocks():
                values.extend(b.inputs())
                walk(b.nodes())

    walk(nodes)
    assert len(values) == len(names), case.name
    named = dict(zip(names, values, strict=True))

    def node(ref: str) -> Any:
        return named[ref[1:]].node() if ref.startswith("@") else nodes[int(ref[1:])]

    answers: list[bool | None] = []
    for query, *args, _expected in case.queries:
        if query not in RECORDABLE or any(
            a in ("inputs", "outputs") or isinstance(a, list) for a in args
        ):
            answers.append(None)
        elif query == "may_contain_alias":
            answers.append(db.may_contain_alias(named[args[0]], named[args[1]]))
        elif query == "has_writers":
            answers.append(db.has_writers(named[args[0]]))
        else:
            move = getattr(db, f"{query}_topologically_valid")
            answers.append(move(node(args[0]), node(args[1])))
    return answers
