"""CreateAutodiffSubgraphs: group nodes with symbolic gradients into `prim::DifferentiableGraph`s,
as TorchScript's `passes/create_autodiff_subgraphs.cpp`.

    %t = aten::t(%w)                         %y = prim::DifferentiableGraph_0(%w, %x)
    %h = aten::mm(%x, %t)              →   with prim::DifferentiableGraph_0 = graph(%w, %x):
    %y = aten::tanh(%h)                        %t = aten::t(%w)
    %n = aten::nonzero(%y)                     %h = aten::mm(%x, %t)
                                               %y = aten::tanh(%h)
                                               return (%y)
                                         %n = aten::nonzero(%y)

Scanning each block from its end, a differentiable node (`gradients.
is_differentiable`) becomes a group and pulls in the differentiable
producers of its inputs, latest first, each moved next to the group only by
`AliasDb.move_before_topologically_valid` (never across a write to an alias
or a node with effects); groups merge. Constants are copied in, not moved.
The scan repeats until nothing merges, then nested blocks get their own
groups.

Nodes whose results are written in place later stay out of groups. A group's outputs must
be new tensors: an output that may alias one of the
group's inputs or another output (a view, `aten::t(%w)` returned as is)
would lose the view relation autograd keeps for it, so the node producing it
goes back out of the group (and what it feeds, if that leaves the rest
disconnected, is left as it is). Groups of fewer than `threshold` nodes are
inlined again. Returns the groups made.

Cost: O(nodes x merges) moves and one AliasDb per scan.
"""

from __future__ import annotations

from ts_ir import Block, Graph, Node, TensorType, Value, prim
from ts_schema import RuleTable

from .alias_analysis import AliasDb
from .common_subexpression_elimination import eliminate_common_subexpression
from .gradients import GRADIENTS, GradientRule, is_differentiable
from .jit_log import PassLogger
from .subgraph_utils import (
    count_nodes,
    create_singleton_subgraph,
    merge_node_into_subgraph,
    subgraph_of,
    unmerge_subgraph,
)

log = PassLogger(__name__)

DIFFERENTIABLE_GRAPH = prim.DifferentiableGraph
#: Groups smaller than this go back into the graph (PyTorch's `autodiffSubgraphNodeThreshold`).
DEFAULT_THRESHOLD = 2


class _Slicer:
    __slots__ = ("block", "graph", "groups", "rules", "threshold")

    def __init__(
        self,
        block: Block,
        graph: Graph,
        threshold: int,
        groups: list[Node],
        rules: RuleTable[GradientRule],
    ) -> None:
        self.block = block
        self.graph = graph
        self.threshold = threshold
        self.groups = groups
        self.rules = rules

    def run(self) -> None:
        changed = True
        while changed:
            changed = False
            db = AliasDb(self.graph)
            node = self.block.return_node.prev
            while node is not None and node is not self.block.return_node:
                node, merged = self.scan_node(node, db)
                if merged:
                    changed = True
                    db = AliasDb(self.graph)  # values moved into the group: a fresh view
        node = self.block.return_node.prev
        while node is not None and node is not self.block.return_node:
            prev = node.prev
            for b in node.blocks:
                _Slicer(b, self.graph, self.threshold, self.groups, self.rules).run()
            if node.kind is DIFFERENTIABLE_GRAPH:
                eliminate_common_subexpression(subgraph_of(node))
                if not self.inline_if_too_small(node):
                    self.groups.append(node)
            node = prev

    def inline_if_too_small(self, group: Node) -> bool:
        if count_nodes(subgraph_of(group)) >= self.threshold:
            return False
        unmerge_subgraph(group)
        return True

    def should_consider(self, node: Node, db: AliasDb) -> bool:
        if node.kind is DIFFERENTIABLE_GRAPH:
            return True
        # a tensor written in place later (`k = ones(...); k[1, 1] = 5.0`) stays outside:
        # made inside a group, the group's own optimization could not see the writes
        return is_differentiable(node, rules=self.rules) and not db.has_writers(list(node.outputs))

    def scan_node(self, consumer: Node, db: AliasDb) -> tuple[Node | None, bool]:
        # a group starts at a node making tensors: scalar work alone is not worth a group
        if (
            consumer.owning_block is self.block
            and any(isinstance(o.type, TensorType) for o in consumer.outputs)
            and self.should_consider(consumer, db)
        ):
            for producer in self._reverse_topological(consumer.inputs):
                pnode = producer.node
                if not self.should_consider(pnode, db):
                    continue
                if not db.move_before_topologically_valid(pnode, consumer):
                    continue
                if not log.allowed():
                    return consumer.prev, False
                if consumer.kind is not DIFFERENTIABLE_GRAPH:
                    consumer = create_singleton_subgraph(consumer, DIFFERENTIABLE_GRAPH)
                log.update(lambda p=pnode: f"merging {p.kind} into a differentiable graph")
                merge_node_into_subgraph(pnode, consumer)
                return consumer, True
        return consumer.prev, False

    def _reverse_topological(self, values: list[Value]) -> list[Value]:
        inside = [
            v
            for v in dict.fromkeys(values)
            if v.node.owning_block is self.block
            and v.node.kind is not prim.Constant
            and v.node is not self.block.param_node
        ]
        return sorted(inside, key=lambda v: v.node.topo_position, reverse=True)


def _unmerge_aliasing_outputs(graph: Graph, groups: list[Node]) -> list[Node]:
    """Take out of each group the views it would return: outputs that may alias the group's
    inputs or other outputs. A view is recomputed after the group from what it reads (views
    are pure, so the copy inside stays for the nodes there that read it); a group returning an
    alias that is not a view is put back into the graph whole."""
    kept: list[Node] = []
    for group in groups:
        while True:
            sub = subgraph_of(group)
            outputs = list(sub.outputs)
            passthrough = next(
                (
                    i
                    for i, o in enumerate(outputs)
                    if o in sub.inputs or o.node.kind is prim.Constant
                ),
                None,
            )
            if passthrough is not None:
                _bypass_output(group, passthrough)
                continue
            db = AliasDb(sub)
            aliasing = [
                i
                for i, o in enumerate(outputs)
                if db.may_alias(o, list(sub.inputs))
                or db.may_alias(o, [x for j, x in enumerate(outputs) if j != i])
            ]
            if not aliasing:
                kept.append(group)
                break
            views = [i for i in aliasing if db.may_alias(outputs[i], list(outputs[i].node.inputs))]
            if not views:
                log.update("a differentiable graph would return aliases: inlined")
                unmerge_subgraph(group)
                break
            _move_out(group, views[0])
            if not group.outputs:
                for n in list(subgraph_of(group).block.nodes_reversed()):
                    n.destroy()
                group.destroy()
                break
    return kept


def _bypass_output(group: Node, i: int) -> None:
    sub = subgraph_of(group)
    inner = sub.outputs[i]
    if inner in sub.inputs:
        outer = group.inputs[sub.inputs.index(inner)]
        group.outputs[i].replace_all_uses_with(outer)
    else:
        graph = group.owning_graph
        clone = graph.create_clone(inner.node, lambda v: v)
        clone.insert_before(group)
        group.outputs[i].replace_all_uses_with(clone.output())
    group.erase_output(i)
    sub.erase_output(i)


def _move_out(group: Node, i: int) -> None:
    """Compute `group`'s output `i` by a copy of its node after the group, not by the group.

    The node stays inside while other nodes there read it (a view is cheap to
    make twice) and goes otherwise.
    """
    graph = group.owning_graph
    sub = subgraph_of(group)
    node = sub.outputs[i].node
    env: dict[Value, Value] = {}
    constants: list[Node] = []
    for v in node.inputs:
        if v in env:
            continue
        if v in sub.inputs:
            env[v] = group.inputs[sub.inputs.index(v)]
        elif v.node.kind is prim.Constant:
            const = graph.create_clone(v.node, _no_inputs)
            constants.append(const)
            env[v] = const.output()
        else:
            if v in sub.outputs:
                j = sub.outputs.index(v)
            else:
                j = sub.register_output(v)
                group.add_output(v.type).copy_metadata(v)
            env[v] = group.outputs[j]
    outer = graph.create_clone(node, lambda v: env[v])
    outer.insert_after(group)
    for const in constants:
        const.insert_before(outer)
    inner_out = sub.outputs[i]
    group.outputs[i].replace_all_uses_with(outer.outputs[inner_out.offset])
    group.erase_output(i)
    sub.erase_output(i)
    if not any(o.uses for o in node.outputs):
        node.destroy()


def _no_inputs(v: Value) -> Value:
    raise AssertionError("a constant has no inputs")


def create_autodiff_subgraphs(
    graph: Graph,
    threshold: int = DEFAULT_THRESHOLD,
    *,
    rules: RuleTable[GradientRule] = GRADIENTS,
) -> bool:
    """Group differentiable nodes into `prim::DifferentiableGraph`s (see the module docstring);
    `rules` is the table of symbolic gradients deciding what is differentiable."""
    groups: list[Node] = []
    _Slicer(graph.block, graph, threshold, groups, rules).run()
    groups = _unmerge_aliasing_outputs(graph, groups)
    groups = [g for g in groups if g.owning_block is not None]
    final: list[Node] = []
    for g in groups:
        if count_nodes(subgraph_of(g)) < threshold:
            unmerge_subgraph(g)
        else:
            final.append(g)
    eliminate_common_subexpression(graph)
    if final:
        log.dump(f"made {len(final)} differentiable graphs", graph)
    return bool(final) or bool(groups)


def differentiable_graphs(graph: Graph) -> list[Node]:
    """The `prim::DifferentiableGraph` nodes of a graph (nested blocks included)."""
    return [n for n in graph.all_nodes() if n.kind is DIFFERENTIABLE_GRAPH]
