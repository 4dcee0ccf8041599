"""Canonicalize, as TorchScript's `canonicalize.cpp`: number values in definition order.

    graph(%x.1 : Tensor):                    graph(%x.1 : Tensor):
      %7 : int = prim::Constant[value=1]()     %1 : int = prim::Constant[value=1]()
      %y.3 : Tensor = aten::add(%x.1, ...)  →   %2 : Tensor = aten::add(%x.1, ...)

Values are numbered 0, 1, 2, ... in the order they are defined (graph
inputs, then each node's outputs before its blocks' contents), so two graphs
that differ only in numbering print the same. Node outputs lose their names
unless `keep_unique_names=True` (graph inputs keep theirs, as TorchScript's
printed result shows); `strip_input_names=True` drops the inputs' names too,
which makes graphs comparable whatever their names. Subgraph attributes are
canonicalized as well.
"""

from __future__ import annotations

from ts_ir import Block, Graph, Value

from .jit_log import PassLogger

log = PassLogger(__name__)


def _values(graph: Graph) -> list[Value]:
    out: list[Value] = []

    def walk(block: Block) -> None:
        out.extend(block.inputs)
        for n in block.nodes():
            out.extend(n.outputs)
            for b in n.blocks:
                walk(b)

    walk(graph.block)
    return out


def _subgraphs(graph: Graph) -> list[Graph]:
    found = []
    for n in graph.all_nodes():
        if n.has_attribute("Subgraph"):
            found.append(n.g("Subgraph"))
    return found


def canonicalize(
    graph: Graph, *, keep_unique_names: bool = False, strip_input_names: bool = False
) -> bool:
    """Renumber values in definition order (see the module docstring); True if any changed."""
    values = _values(graph)
    before = [v.debug_name for v in values]  # as printed
    inputs = set(graph.inputs)
    if not keep_unique_names:
        for v in values:
            if v.has_debug_name() and (strip_input_names or v not in inputs):
                v.set_debug_name(None)
    graph.renumber_values()
    changed = before != [v.debug_name for v in values]
    for sub in _subgraphs(graph):
        changed |= canonicalize(
            sub, keep_unique_names=keep_unique_names, strip_input_names=strip_input_names
        )
    if changed:
        log.update("renumbered the values of a graph")
    return changed
