"""Liveness: which values are live at each node, as TorchScript's `liveness.cpp`.

`liveness(graph)[node]` is the set of values live just before `node` runs:
its inputs and every value some later node (or a block output) still needs.
Values defined outside a loop and used inside it stay live throughout the
loop body, since the next iteration reads them again; values carried by the
loop are live across its body too. Constants are left out (they live in the
constant table, not in registers). O(nodes × live values).
"""

from __future__ import annotations

from ts_ir import Block, Graph, LoopView, Node, Value, prim


def _not_constant(values: list[Value]) -> set[Value]:
    return {v for v in values if v.node.kind is not prim.Constant}


class _Liveness:
    __slots__ = ("sets",)

    def __init__(self) -> None:
        self.sets: dict[Node, set[Value]] = {}

    def block(self, block: Block, live_out: set[Value]) -> set[Value]:
        live = set(live_out) | _not_constant(block.outputs)
        for node in block.nodes_reversed():
            live -= set(node.outputs)
            if node.kind is prim.Loop:
                live |= self.loop(node, live)
            else:
                for b in node.blocks:
                    live |= self.block(b, live)
            live |= _not_constant(node.inputs)
            self.sets.setdefault(node, set()).update(live)
        return live

    def loop(self, node: Node, live_after: set[Value]) -> set[Value]:
        body = LoopView(node).body
        # everything live after the loop, and everything the body reads from outside,
        # stays live for every iteration: run the body twice to reach the fixed point
        carried = set(live_after)
        body_live = self.block(body, carried)
        body_live = self.block(body, carried | (body_live - set(body.inputs)))
        body_live -= set(body.inputs)
        return body_live


def liveness(graph: Graph) -> dict[Node, set[Value]]:
    """For every node (nested ones too), the values live just before it runs."""
    analysis = _Liveness()
    analysis.block(graph.block, set())
    return analysis.sets
