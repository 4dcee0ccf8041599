"""FuseGraph: group fusible nodes into `prim::FusionGroup`s, as TorchScript's `graph_fuser.cpp`.

    %c = aten::mul(%a, %b)                      %d = prim::FusionGroup_0(%a, %b)
    %d = aten::sigmoid(%c)              →     with prim::FusionGroup_0 = graph(%a, %b):
                                                  %c = aten::mul(%a, %b)
                                                  %d = aten::sigmoid(%c)
                                                  return (%d)

First `fusion_rewrites` exposes the pointwise work inside larger operators
(a linear layer's bias, inference batch norm) to the fuser.

The fuser knows no device: a node is fusible when the backend registered for
the device of its tensor outputs (`fusion_backend.backend_for`) says
`can_fuse(node)`, the node is in the block being fused, has one output (or
is a `prim::ConstantChunk`), and its non-tensor inputs are constants (copied
into the group) or int/float/bool scalars (passed in). Scanning the block
backwards, each fusible consumer pulls in its fusible producers, moving them
only with `AliasDb.move_before_topologically_valid` (so never across a write
to an alias or a side effect); producers still used after the consumer
become extra outputs of the group; groups merge.

Chunks, for the LSTM cell: `aten::chunk` + `prim::ListUnpack` first become
`prim::ConstantChunk[chunks=, dim=]`. A chunk of a fusible op's result is
moved above the op (`prim::BroadcastingChunk` chunks every operand after
broadcasting them), so the op fuses; what remains becomes
`aten::broadcast_tensors` + one `prim::ConstantChunk` per operand, which
then moves into the group. Chunks left outside any group are restored to
`aten::chunk` + `prim::ListUnpack`.
"""

from __future__ import annotations

from ts_ir import (
    Block,
    BoolType,
    FloatType,
    Graph,
    IntType,
    ListType,
    Node,
    NumberType,
    TensorType,
    Value,
    constant_value,
    prim,
)
from ts_schema import Tag, registry

from .alias_analysis import AliasDb
from .dead_code_elimination import eliminate_dead_code, eliminate_dead_code_in_block
from .fusion_backend import backend_for, fusion_backends
from .fusion_rewrites import rewrite_for_fusion
from .fusion_size_outputs import is_pointwise
from .jit_log import PassLogger
from .node_properties import node_key

log = PassLogger(__name__)

FUSION_GROUP = prim.FusionGroup
SUBGRAPH_ARG_LIMIT = 128
_SCALARS = (IntType, FloatType, BoolType, NumberType)


def _is_tensor(v: Value) -> bool:
    return isinstance(v.type, TensorType)


def _device_of(node: Node) -> object | None:
    """The device of the node's used tensor outputs (of all of them, before any is used)."""
    devices = set()
    used = any(out.uses for out in node.outputs)
    for out in node.outputs:
        t = out.type
        if not isinstance(t, TensorType):
            return None
        if out.uses or not used:
            devices.add(t.device)
    if len(devices) != 1:
        return None
    return devices.pop()


def backend_can_fuse(node: Node) -> bool:
    """Whether `node` may join a fusion group: one output (or a chunk), no side effects, its
    other inputs constants or numbers, and the backend of its device can fuse it."""
    if node.blocks or node.has_attribute("Subgraph") or node.kind is prim.Constant:
        return False
    if node.kind is not prim.ConstantChunk and len(node.outputs) != 1:
        return False
    if node.has_side_effects():
        return False
    for v in node.inputs:
        if _is_tensor(v) or v.node.kind is prim.Constant:
            continue
        if not isinstance(v.type, _SCALARS):
            return False
    device = _device_of(node)
    backend = backend_for(device) if device is not None else None  # type: ignore[arg-type]
    if backend is None:
        return False
    try:
        return bool(backend.can_fuse(node))
    except Exception as exc:
        log.debug("backend %s failed on %s: %s", backend, node.kind, exc)
        return False


# -- chunk canonicalization


def canonicalize_chunks(graph: Graph) -> bool:
    """`aten::chunk(x, n, d)` read only by one `prim::ListUnpack` of n outputs →
    `prim::ConstantChunk[chunks=n, dim=d](x)`."""
    changed = False
    for node in list(graph.all_nodes()):
        if node.kind != "aten::chunk" or len(node.inputs) != 3:
            continue
        lst = node.output()
        if len(lst.uses) != 1 or lst.uses[0].user.kind is not prim.ListUnpack:
            continue
        chunks, dim = node.inputs[1], node.inputs[2]
        if chunks.node.kind is not prim.Constant or dim.node.kind is not prim.Constant:
            continue
        unpack = lst.uses[0].user
        n = constant_value(chunks)
        if not isinstance(n, int) or len(unpack.outputs) != n:
            continue
        if not log.allowed():
            continue
        cc = graph.create(prim.ConstantChunk, [node.inputs[0]], 0)
        cc.i_("chunks", n)
        cc.i_("dim", constant_value(dim))
        cc.source_range = node.source_range
        cc.insert_before(unpack)
        for out in unpack.outputs:
            new = cc.add_output(out.type)
            new.copy_metadata(out)
            out.replace_all_uses_with(new)
        unpack.destroy()
        node.destroy()
        log.update("aten::chunk + prim::ListUnpack → prim::ConstantChunk")
        changed = True
    return changed


def _restore_chunk(graph: Graph, cc: Node) -> None:
    """A `prim::ConstantChunk` outside any group goes back to `aten::chunk` + ListUnpack."""
    with graph.inserting_before(cc):
        lst = graph.insert("aten::chunk", [cc.input(), cc.i("chunks"), cc.i("dim")])
        unpack = graph.insert_node(graph.create(prim.ListUnpack, [lst], 0))
    for out in cc.outputs:
        new = unpack.add_output(out.type)
        out.replace_all_uses_with(new)
    cc.destroy()


# -- the fuser


class _GraphFuser:
    __slots__ = ("block", "changed", "db", "fusible", "graph")

    def __init__(self, block: Block, db: AliasDb, fusible: dict[Node, bool]) -> None:
        # One AliasDb for the whole graph, kept in sync as groups form (new values take the
        # elements of the values they replace), so nested blocks do not rebuild it; and one
        # memo of the backends' answers, since every consumer asks about its producers.
        self.block = block
        self.graph = block.graph
        self.db = db
        self.fusible = fusible
        self.changed = False

    # fusibility

    def is_fusable(self, node: Node) -> bool:
        if node.owning_block is not self.block:
            return False
        if node.kind is FUSION_GROUP:
            return True
        return self.is_simple_map(node)

    def is_simple_map(self, node: Node) -> bool:
        known = self.fusible.get(node)
        if known is None:
            known = self.fusible[node] = backend_can_fuse(node)
        return known

    # building groups

    @staticmethod
    def subgraph(group: Node) -> Graph:
        return group.g("Subgraph")

    def merge_node_into_group(self, group: Node, n: Node) -> Node:
        sub = self.subgraph(group)
        inputs_map: dict[Value, Value] = {}
        tensor_insert = 0
        for i, (outer, inner) in enumerate(zip(group.inputs, sub.inputs, strict=True)):
            inputs_map[outer] = inner
            if _is_tensor(outer):
                tensor_insert = i + 1
        anchor = sub.block.return_node.next  # merged producers go before their consumers
        assert anchor is not None
        for v in n.inputs:
            if v in inputs_map:
                continue
            if _is_tensor(v):
                inner = sub.insert_input(tensor_insert, type=v.type)
                group.insert_input(tensor_insert, v)
                tensor_insert += 1
            elif v.node.kind is prim.Constant:
                const = sub.create_clone(v.node, _no_inputs)
                const.insert_before(anchor)
                inner = const.output()
            else:
                inner = sub.add_input(type=v.type)
                group.add_input(v)
            inputs_map[v] = inner
        clone = sub.create_clone(n, lambda v: inputs_map[v])
        for i, out in enumerate(n.outputs):
            if out in group.inputs:
                p = group.inputs.index(out)
                group.remove_input(p)
                sub.inputs[p].replace_all_uses_with(clone.outputs[i])
                sub.erase_input(p)
        clone.insert_before(anchor)
        return clone

    def create_singleton_group(self, n: Node) -> Node:
        group = self.graph.create_with_subgraph(FUSION_GROUP)
        group.insert_before(n)
        merged = self.merge_node_into_group(group, n)
        self.subgraph(group).register_output(merged.output())
        out = group.add_output()
        out.copy_metadata(n.output())
        self.db.replace_with_new_value(n.output(), out)
        n.output().replace_all_uses_with(out)
        n.destroy()
        return group

    def merge_groups(self, consumer: Node, producer: Node) -> None:
        psub = self.subgraph(producer)
        inner_to_outer: dict[Value, Value] = dict(zip(psub.inputs, producer.inputs, strict=True))
        temporary: list[Node] = []
        for inner in psub.nodes():
            outer = self.graph.create_clone(inner, lambda v: inner_to_outer[v])
            outer.insert_before(producer)
            temporary.append(outer)
            for a, b in zip(inner.outputs, outer.outputs, strict=True):
                inner_to_outer[a] = b
                self.db.create_value(b)
        for i, v in enumerate(psub.outputs):
            outer_v = inner_to_outer[v]
            producer.outputs[i].replace_all_uses_with(outer_v)
            self.db.replace_with_new_value(producer.outputs[i], outer_v)
        producer.destroy()
        csub = self.subgraph(consumer)
        for node in reversed(temporary):
            merged = self.merge_node_into_group(consumer, node)
            for i, out in enumerate(node.outputs):
                if not out.uses:
                    continue
                csub.register_output(merged.outputs[i])
                new = consumer.add_output(out.type)
                out.replace_all_uses_with(new)
                self.db.replace_with_new_value(out, new)
            node.destroy()

    def try_fuse(self, consumer: Node, producer: Value) -> Node | None:
        if consumer.kind is not FUSION_GROUP and len(consumer.outputs) != 1:
            # a prim::ConstantChunk whose chunk could not move: it joins a group later
            return None
        pnode = producer.node
        if not self.is_fusable(pnode):
            return None
        if pnode.kind is not FUSION_GROUP and len(pnode.outputs) != 1:
            return None
        if consumer.kind is not FUSION_GROUP and len(consumer.outputs) != 1:
            return None  # a chunk whose pieces are read outside any group starts no group
        size = len(consumer.inputs) + len(consumer.outputs) + len(pnode.inputs) + len(pnode.outputs)
        if size > SUBGRAPH_ARG_LIMIT:
            return None
        if not log.allowed():
            return None
        if not self.db.move_before_topologically_valid(pnode, consumer):
            return None
        log.update(lambda: f"fusing {pnode.kind} into {consumer.kind}")
        group = consumer if consumer.kind is FUSION_GROUP else self.create_singleton_group(consumer)
        if pnode.kind is FUSION_GROUP:
            self.merge_groups(group, pnode)
            return group
        merged = self.merge_node_into_group(group, pnode)
        if producer.uses:
            self.subgraph(group).register_output(merged.output())
            new = group.add_output()
            new.copy_metadata(producer)
            self.db.replace_with_new_value(producer, new)
            producer.replace_all_uses_with(new)
        pnode.destroy()
        return group

    # chunks

    def _all_users_are(self, node: Node, value: Value) -> bool:
        for out in value.node.outputs:
            for use in out.uses:
                if use.user is not node and use.user.kind != "aten::size":
                    return False
        return True

    def try_to_move_chunk(self, consumer: Node, producer: Value) -> bool:
        chunk = producer.node
        if chunk.kind not in (prim.ConstantChunk, prim.BroadcastingChunk):
            return False
        index = None
        for i, v in enumerate(chunk.inputs):
            if (
                v.node.kind is not FUSION_GROUP
                and v.node.owning_block is self.block
                and self.is_simple_map(v.node)
                # a fusible reduction or normalization over the chunked dimension does
                # not commute with the chunk: only pointwise work moves below it
                and is_pointwise(v.node)
                and self._all_users_are(chunk, v)
                and len(v.node.outputs) == 1
                and (
                    Tag.shape_of_first not in registry.tags_of(v.node)
                    or all(u.user.kind != "aten::size" for u in v.uses)
                )
            ):
                index = i
                break
        if index is None:
            return False
        for out in chunk.outputs:
            if any(u.user is not consumer for u in out.uses):
                return False
        if not log.allowed():
            return False
        op_value = chunk.inputs[index]
        op = op_value.node
        bchunk = chunk if chunk.kind is prim.BroadcastingChunk else self._promote_chunk(chunk)
        nchunks = bchunk.i("chunks")
        producer_outputs = [bchunk.outputs[nchunks * index + i] for i in range(nchunks)]
        chunked_inputs: list[list[Value]] = []
        for v in op.inputs:
            if not _is_tensor(v):
                continue
            if v in bchunk.inputs:
                k = bchunk.inputs.index(v)
                chunked_inputs.append([bchunk.outputs[nchunks * k + i] for i in range(nchunks)])
                continue
            bchunk.add_input(v)
            pieces = []
            for sel in producer_outputs:
                piece = bchunk.add_output(_chunk_type(v.type, sel.type))
                self.db.create_value(piece)
                pieces.append(piece)
            chunked_inputs.append(pieces)
        anchor = bchunk.next
        assert anchor is not None
        for i, sel in enumerate(producer_outputs):
            new = self.graph.create(op.kind, [], 1)
            new.copy_attributes(op)
            new.source_range = op.source_range
            it = iter(chunked_inputs)
            for v in op.inputs:
                new.add_input(next(it)[i] if _is_tensor(v) else v)
            new.output().set_type(sel.type)
            new.insert_before(anchor)
            sel.replace_all_uses_with(new.output())
            self.db.replace_with_new_value(sel, new.output())
        bchunk.remove_input(index)
        for _ in range(nchunks):
            bchunk.erase_output(nchunks * index)
        self._replace_sizes(op)
        log.update(lambda: f"moved a chunk above {op.kind}")
        op.destroy()
        return True

    def _replace_sizes(self, op: Node) -> None:
        """`aten::size` of a pointwise op's result is the broadcast of its operands' sizes."""
        out = op.output()
        users = [
            u.user for u in out.uses if u.user.kind == "aten::size" and len(u.user.inputs) == 1
        ]
        if not users:
            return
        graph = self.graph
        with graph.inserting_after(op):
            sizes = [graph.insert("aten::size", [v]) for v in op.inputs if _is_tensor(v)]
            if len(sizes) == 1:
                new = sizes[0]
            else:
                node = graph.insert_node(graph.create(prim.BroadcastSizes, sizes))
                new = node.output()
                new.set_type(ListType(IntType.get()))
        for user in users:
            user.output().replace_all_uses_with(new)
            user.destroy()

    def _promote_chunk(self, chunk: Node) -> Node:
        bchunk = self.graph.create(prim.BroadcastingChunk, [chunk.input()], 0)
        bchunk.copy_attributes(chunk)
        bchunk.insert_after(chunk)
        for out in chunk.outputs:
            new = bchunk.add_output(out.type)
            new.copy_metadata(out)
            self.db.replace_with_new_value(out, new)
            out.replace_all_uses_with(new)
        chunk.destroy()
        return bchunk

    def replace_broadcasting_chunks(self) -> None:
        for node in list(self.block.nodes_reversed()):
            if node.kind is not prim.BroadcastingChunk:
                continue
            graph = self.graph
            nchunks = node.i("chunks")
            inputs = list(node.inputs)
            with graph.inserting_before(node):
                if len(inputs) > 1:
                    lst = graph.insert_node(graph.create_list(TensorType.get(), inputs)).output()
                    lst.set_type(ListType(TensorType.get()))
                    out_list = graph.insert("aten::broadcast_tensors", [lst])
                    unpack = graph.insert_node(graph.create(prim.ListUnpack, [out_list], 0))
                    ranks = [
                        v.type.dim() if isinstance(v.type, TensorType) else None for v in inputs
                    ]
                    rank = None if None in ranks else max(ranks)  # type: ignore[type-var]
                    for v in inputs:
                        unpack.add_output(_broadcast_type(v.type, rank))
                    broadcast = list(unpack.outputs)
                else:
                    broadcast = inputs
                for k, v in enumerate(broadcast):
                    cc = graph.insert_node(graph.create(prim.ConstantChunk, [v], 0))
                    cc.i_("chunks", nchunks)
                    cc.i_("dim", node.i("dim"))
                    for j in range(nchunks):
                        old = node.outputs[k * nchunks + j]
                        new = cc.add_output(old.type)
                        new.copy_metadata(old)
                        old.replace_all_uses_with(new)
            node.destroy()

    def scan_for_chunks(self) -> None:
        node = self.block.return_node.prev
        while node is not None and node is not self.block.return_node:
            prev = node.prev
            if node.kind is FUSION_GROUP:
                for producer in self._reverse_topological(node.inputs):
                    cc = producer.node
                    if cc.kind is not prim.ConstantChunk or cc.i("chunks") == 1:
                        continue
                    if any(u.user is not node for out in cc.outputs for u in out.uses):
                        continue
                    if not log.allowed():
                        continue
                    if self._reuse_fused_chunk(node, cc):
                        prev = node
                        break
                    self.merge_node_into_group(node, cc)
                    cc.destroy()
                    self.changed = True
                    prev = node  # look at this group again
                    break
            node = prev

    def _reuse_fused_chunk(self, group: Node, cc: Node) -> bool:
        """No two chunks in a group share an input: read the existing one's outputs instead."""
        sub = self.subgraph(group)
        source = cc.input()
        if source not in group.inputs:
            return False
        inner = sub.inputs[group.inputs.index(source)]
        existing = next((u.user for u in inner.uses if u.user.kind is prim.ConstantChunk), None)
        if existing is None or len(existing.outputs) != len(cc.outputs):
            return False
        if existing.i("dim") != cc.i("dim"):
            return False
        for i, out in enumerate(cc.outputs):
            p = group.inputs.index(out)
            sub.inputs[p].replace_all_uses_with(existing.outputs[i])
            group.remove_input(p)
            sub.erase_input(p)
        cc.destroy()
        self.changed = True
        return True

    def _reverse_topological(self, values: list[Value]) -> list[Value]:
        inside = [v for v in values if v.node.owning_block is self.block]
        return sorted(dict.fromkeys(inside), key=lambda v: v.node.topo_position, reverse=True)

    # the scan

    def scan_node(self, consumer: Node) -> tuple[Node | None, bool]:
        if self.is_fusable(consumer):
            for producer in self._reverse_topological(consumer.inputs):
                if self.try_to_move_chunk(consumer, producer):
                    return consumer, True
                group = self.try_fuse(consumer, producer)
                if group is not None:
                    return group, True
        return consumer.prev, False

    def run(self) -> bool:
        any_changed = True
        while any_changed:
            any_changed = False
            node = self.block.return_node.prev
            while node is not None and node is not self.block.return_node:
                node, changed = self.scan_node(node)
                any_changed |= changed
            self.changed |= any_changed
        self.replace_broadcasting_chunks()
        self.scan_for_chunks()
        for node in list(self.block.nodes()):
            if node.kind is FUSION_GROUP:
                _clean_subgraph(self.subgraph(node))
        # nested blocks last to first: nodes are destroyed from the back of use lists
        for node in list(self.block.nodes_reversed()):
            for b in node.blocks:
                self.changed |= _GraphFuser(b, self.db, self.fusible).run()
        return self.changed


def _clean_subgraph(sub: Graph) -> None:
    """CSE and DCE inside a group. Its nodes are pure (no writes, no side effects), so no
    alias analysis is needed: equal nodes merge, unused ones go."""
    seen: dict[tuple, Node] = {}
    for node in list(sub.nodes()):
        key = node_key(node)
        existing = seen.get(key)
        if existing is None:
            seen[key] = node
            continue
        node.replace_all_uses_with(existing)
    eliminate_dead_code_in_block(sub.block)


def _no_inputs(v: Value) -> Value:
    raise AssertionError("a constant has no inputs")


def _chunk_type(source: object, like: object) -> TensorType:
    """The type of a chunk of `source`: its dtype and device, the rank of `like`."""
    if not isinstance(source, TensorType):
        return TensorType.get()
    rank = like.dim() if isinstance(like, TensorType) else None
    return TensorType(
        source.scalar_type,
        source.device,
        source.requires_grad,
        None if rank is None else (None,) * rank,
    )


def _broadcast_type(source: object, rank: int | None) -> TensorType:
    if not isinstance(source, TensorType):
        return TensorType.get()
    return TensorType(
        source.scalar_type,
        source.device,
        source.requires_grad,
        None if rank is None else (None,) * rank,
    )


def fuse_graph(graph: Graph) -> bool:
    """Group fusible nodes into `prim::FusionGroup`s through the registered backends."""
    if not fusion_backends():
        return False
    log.dump("before fusion", graph)
    changed = rewrite_for_fusion(graph, backend_can_fuse)
    changed |= canonicalize_chunks(graph)
    fused = _GraphFuser(graph.block, AliasDb(graph), {}).run()
    for node in list(graph.all_nodes()):
        if node.kind is prim.ConstantChunk:
            _restore_chunk(graph, node)
    if fused:
        eliminate_dead_code(graph)
        log.dump("after fusion", graph)
    elif changed:
        eliminate_dead_code(graph)
    return fused or changed


def fusion_groups(graph: Graph) -> list[Node]:
    """The `prim::FusionGroup` nodes of a graph (nested blocks included)."""
    return [n for n in graph.all_nodes() if n.kind is FUSION_GROUP]
