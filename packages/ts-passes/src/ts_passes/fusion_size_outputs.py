"""RemoveOutputsUsedOnlyInSize: a fusion group need not write a tensor only its size is read of,
as TorchScript's graph fuser does (`removeOutputsUsedOnlyInSize`, `buildShapeExpressions`).

Backward graphs need the sizes of forward intermediates (to sum gradients of
broadcast operands); after fusion those intermediates would be outputs of a
group just for `aten::size`. The size of a pointwise node's value is the
broadcast of its operands' sizes (a chunk's is `prim::ChunkSizes` of its
input's), down to the group's inputs:

    %y, %t = prim::FusionGroup_0(%a, %b)          %y = prim::FusionGroup_0(%a, %b)
    %s = aten::size(%t)                     →     %sa = aten::size(%a)
                                                  %sb = aten::size(%b)
                                                  %s = prim::BroadcastSizes(%sa, %sb)

The size expressions go before the group; the output, and what computed only
it, leave the group. A value computed through a node that is not pointwise
(a fused reduction, `mean(x, [-1], True)`, whose schema takes a `dim`) has no
such expression and stays an output. O(nodes of the groups).
"""

from __future__ import annotations

from ts_ir import Graph, IntType, ListType, Node, TensorType, Value, prim
from ts_schema import Tag, registry

from .dead_code_elimination import eliminate_dead_code_in_block
from .jit_log import PassLogger

log = PassLogger(__name__)

_INT_LIST = ListType(IntType.get())


def is_pointwise(node: Node) -> bool:
    """Whether the node's result has the broadcast size of its tensor operands: not so for
    ops taking dimensions or sizes (reductions, softmax, views) or without a known schema."""
    schema = node.maybe_schema()
    if schema is None:
        return False
    return not any(
        a.name in ("dim", "dims", "size", "shape") or isinstance(a.type, ListType)
        for a in schema.arguments
    )


class _Sizes:
    """Size expressions of a group's inner values, written into the outer graph before the group."""

    __slots__ = ("graph", "group", "memo", "sub")

    def __init__(self, group: Node) -> None:
        self.group = group
        self.graph = group.owning_graph
        self.sub: Graph = group.g("Subgraph")
        self.memo: dict[Value, Value] = {}

    def of(self, v: Value) -> Value | None:
        known = self.memo.get(v)
        if known is not None:
            return known
        graph = self.graph
        sub = self.sub
        if v in sub.inputs:
            outer = self.group.inputs[sub.inputs.index(v)]
            if not isinstance(outer.type, TensorType):
                return None
            with graph.inserting_before(self.group):
                out = graph.insert("aten::size", [outer])
        else:
            node = v.node
            tensors = [x for x in node.inputs if isinstance(x.type, TensorType)]
            if not tensors:
                return None
            if node.kind is prim.ConstantChunk:
                base = self.of(tensors[0])
                if base is None:
                    return None
                with graph.inserting_before(self.group):
                    cs = graph.insert_node(graph.create(prim.ChunkSizes, [base], 2))
                cs.i_("chunks", node.i("chunks"))
                cs.i_("dim", node.i("dim"))
                for o in cs.outputs:
                    o.set_type(_INT_LIST)
                last = v.offset == len(node.outputs) - 1
                out = cs.outputs[1 if last else 0]
            elif not is_pointwise(node):
                return None
            else:
                if Tag.shape_of_first in registry.tags_of(node):
                    tensors = tensors[:1]
                sizes = [self.of(x) for x in tensors]
                if any(s is None for s in sizes):
                    return None
                if len(sizes) == 1:
                    out = sizes[0]  # type: ignore[assignment]
                else:
                    with graph.inserting_before(self.group):
                        bs = graph.insert_node(graph.create(prim.BroadcastSizes, sizes))  # type: ignore[arg-type]
                    out = bs.output()
                    out.set_type(_INT_LIST)
        self.memo[v] = out
        return out


def remove_outputs_used_only_in_size(graph: Graph) -> bool:
    """Compute sizes of fusion group outputs read only by `aten::size` from the group's inputs."""
    changed = False
    for group in [n for n in graph.all_nodes() if n.kind is prim.FusionGroup]:
        sizes = _Sizes(group)
        sub = sizes.sub
        for i in reversed(range(len(group.outputs))):
            out = group.outputs[i]
            users = [u.user for u in out.uses]
            if not users or any(u.kind != "aten::size" or len(u.inputs) != 1 for u in users):
                continue
            if not log.allowed():
                continue
            expr = sizes.of(sub.outputs[i])
            if expr is None:
                continue
            for user in users:
                user.output().replace_all_uses_with(expr)
                user.destroy()
            group.erase_output(i)
            sub.erase_output(i)
            log.update("a fusion group output read only for its size no longer written")
            changed = True
        if changed:
            eliminate_dead_code_in_block(sub.block)
    return changed
