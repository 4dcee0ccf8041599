"""Moving nodes into and out of subgraph nodes, as TorchScript's `passes/utils/subgraph_utils.cpp`.

A *subgraph node* (`prim::DifferentiableGraph`, ...) holds a `Subgraph`
attribute: its inputs feed the subgraph's inputs, the subgraph's outputs are
its outputs.

    %y = aten::mul(%a, %b)                      %z = prim::DifferentiableGraph_0(%a, %b)
    %z = aten::sigmoid(%y)          →      with prim::DifferentiableGraph_0 = graph(%0, %1):
                                                %y = aten::mul(%0, %1)
                                                %z = aten::sigmoid(%y)
                                                return (%z)

`create_singleton_subgraph(node, kind)` wraps one node;
`merge_node_into_subgraph(producer, group)` pulls a producer that sits just
before the group (after `AliasDb.move_before_topologically_valid`) into it,
turning the group inputs it defines into internal values and exposing what
other nodes still read as new outputs; `unmerge_subgraph(group)` puts the
nodes back. Constants are copied in rather than passed. Each is O(size of the
nodes moved) plus O(inputs) for the input lookups.
"""

from __future__ import annotations

from ts_ir import Graph, Node, Value, prim


def subgraph_of(group: Node) -> Graph:
    return group.g("Subgraph")


def create_singleton_subgraph(node: Node, kind: str) -> Node:
    """Replace `node` by a `kind` node whose subgraph holds `node` alone."""
    graph = node.owning_graph
    group = graph.create_with_subgraph(kind)
    group.source_range = node.source_range
    group.insert_before(node)
    merge_node_into_subgraph(node, group)
    return group


def _no_inputs(v: Value) -> Value:
    raise AssertionError("a constant has no inputs")


def merge_node_into_subgraph(node: Node, group: Node) -> None:
    """Move `node` into `group`'s subgraph, in front of what is there.

    `node` must come before `group` in the same block, and every use of its
    outputs outside the group must come after the group (what
    `move_before_topologically_valid(node, group)` arranges). A `node` that is
    itself a subgraph node of the same kind is unmerged first and its nodes
    merged one by one.
    """
    if node.kind is group.kind and node.has_attribute("Subgraph"):
        inner = unmerge_subgraph(node)
        for n in reversed(inner):
            merge_node_into_subgraph(n, group)
        return
    sub = subgraph_of(group)
    inputs_map: dict[Value, Value] = dict(zip(group.inputs, sub.inputs, strict=True))
    anchor = sub.block.return_node.next  # the first node (the list is circular)
    assert anchor is not None
    mapping: dict[Value, Value] = {}
    for v in node.inputs:
        if v in mapping:
            continue
        inner = inputs_map.get(v)
        if inner is None:
            if v.node.kind is prim.Constant:
                const = sub.create_clone(v.node, _no_inputs)
                const.insert_before(anchor)
                inner = const.output()
            else:
                inner = sub.add_input(type=v.type)
                inner.copy_metadata(v)
                group.add_input(v)
                inputs_map[v] = inner
        mapping[v] = inner
    clone = sub.create_clone(node, lambda v: mapping[v])
    clone.insert_before(anchor)
    for out, new in zip(node.outputs, clone.outputs, strict=True):
        # uses inside the group read the group input `out` feeds: read the clone instead
        while out in group.inputs:
            p = group.inputs.index(out)
            sub.inputs[p].replace_all_uses_with(new)
            group.remove_input(p)
            sub.erase_input(p)
        if out.uses:
            sub.register_output(new)
            outer = group.add_output(out.type)
            outer.copy_metadata(out)
            out.replace_all_uses_with(outer)
    node.destroy()


def unmerge_subgraph(group: Node) -> list[Node]:
    """Inline `group`'s subgraph where the group is and remove the group; returns the new nodes."""
    graph = group.owning_graph
    sub = subgraph_of(group)
    env: dict[Value, Value] = dict(zip(sub.inputs, group.inputs, strict=True))
    added: list[Node] = []
    for n in sub.nodes():
        clone = graph.create_clone(n, lambda v: env[v])
        clone.insert_before(group)
        added.append(clone)
        for a, b in zip(n.outputs, clone.outputs, strict=True):
            env[a] = b
    for out, inner in zip(group.outputs, sub.outputs, strict=True):
        out.replace_all_uses_with(env[inner])
    group.destroy()
    return added


def count_nodes(graph: Graph) -> int:
    """How many nodes a subgraph holds (its nested blocks' nodes included)."""
    return sum(1 for _ in graph.all_nodes())
