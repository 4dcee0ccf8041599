"""Dead code elimination, as TorchScript's `dead_code_elimination.cpp`.

Mark and sweep, per block from the return node backwards: a node is live if
it has side effects (also inside its blocks, or by writing to memory the
analysis cannot see), if a live node uses one of its outputs, or if it
writes to memory a live value may point to. Loops are marked to a fixed
point (a value read by the next iteration is live). The sweep removes
unmarked nodes without uses, and unused outputs of `prim::If` and of
`prim::Loop` (with their carried inputs and block inputs/outputs).

    %a = aten::mul(%x, %x)        # unused, no side effects: removed
    %b = aten::add_(%y, %x)       # writes to %y, which is returned: kept
    return (%y)
"""

from __future__ import annotations

from ts_ir import Block, Graph, IfView, LoopView, Node, Value, prim

from .alias_analysis import AliasDb
from .jit_log import PassLogger

log = PassLogger(__name__)


class _DeadCodeEliminator:
    __slots__ = ("changed", "db", "live_locations", "live_values", "marked", "side_effect_memo")

    def __init__(self, graph: Graph, db: AliasDb | None, *, use_alias_db: bool = True) -> None:
        # Without alias analysis every operator that may write counts as a side effect.
        self.db = (db if db is not None else AliasDb(graph)) if use_alias_db else None
        self.live_values: set[Value] = set()
        self.live_locations: set[int] = set()
        self.marked: set[Node] = set()
        self.side_effect_memo: dict[Node, bool] = {}
        self.changed = False

    # -- liveness

    def _make_live(self, v: Value) -> None:
        if v in self.live_values:
            return
        self.live_values.add(v)
        e = self.db.element_of(v) if self.db is not None else None
        if e is not None:
            self.live_locations |= self.db.dag.memory_locations(e)

    def has_side_effects(self, node: Node) -> bool:
        memo = self.side_effect_memo.get(node)
        if memo is not None:
            return memo
        result = (
            node.has_side_effects()
            or any(self.has_side_effects(n) for b in node.blocks for n in b.nodes())
            or self._untracked_mutation(node)
        )
        self.side_effect_memo[node] = result
        return result

    def _untracked_mutation(self, node: Node) -> bool:
        if self.db is not None:
            return self.db.writes_to_wildcard(node)
        if node.kind is prim.SetAttr:
            return True
        schema = node.maybe_schema()
        return schema is not None and schema.is_mutable

    def mark_node(self, node: Node) -> bool:
        """Mark `node` live with its inputs, and every node enclosing it with theirs.

        An enclosing `prim::If` or `prim::Loop` must be marked as a whole: its
        condition, trip count and carried inputs decide whether `node` runs, so
        they are live too (as `mark` in TorchScript's DCE). Here the append is
        live only because `%xs` is returned; that makes the `prim::If` live, so
        `%c`, and through it the `aten::len` reading `%ys`, are live as well:

            %c : bool = aten::gt(aten::len(%ys), %k)
             = prim::If(%c)
              block0():
                %1 : int[] = aten::append(%xs, %v)
        """
        if node in self.marked:
            return False
        self.marked.add(node)
        for v in node.inputs:
            self._make_live(v)
        block = node.owning_block
        outer = block.owning_node if block is not None else None
        if outer is not None:
            self.mark_node(outer)
        return True

    def mark_return(self, ret: Node) -> None:
        block = ret.owning_block
        assert block is not None
        outer = block.owning_node
        if outer is None:
            self.mark_node(ret)
            return
        if outer.kind is prim.Loop:
            loop = LoopView(outer)
            for carried in loop.all_carried():
                if carried.final in self.live_values or carried.body_input.uses:
                    self._make_live(carried.body_output)
            self._make_live(loop.next_cond)
        else:
            for inner_out, outer_out in zip(ret.inputs, outer.outputs, strict=False):
                if outer_out in self.live_values:
                    self._make_live(inner_out)
        self.marked.add(ret)

    def mark_if_live(self, node: Node) -> bool:
        for out in node.outputs:
            if out in self.live_values:
                return self.mark_node(node)
        if self.live_locations and self.db is not None:
            writes = self.db.get_writes(node)
            if writes and not writes.isdisjoint(self.live_locations):
                return self.mark_node(node)
        return False

    def mark_block(self, block: Block) -> bool:
        any_marked = False
        for node in block.nodes():
            if self.has_side_effects(node):
                any_marked |= self.mark_node(node)
        self.mark_return(block.return_node)
        for node in block.nodes_reversed():
            if node.kind is prim.Loop:
                while self.mark_block(LoopView(node).body):
                    any_marked = True
            else:
                for b in node.blocks:
                    any_marked |= self.mark_block(b)
            any_marked |= self.mark_if_live(node)
        return any_marked

    # -- sweeping

    def sweep(self, block: Block) -> None:
        for node in block.nodes_reversed():
            self._remove_dead_if_outputs(node)
            self._remove_dead_loop_outputs(node)
            for b in node.blocks:
                self.sweep(b)
            if node not in self.marked and not node.has_uses():
                if not log.allowed():
                    continue
                log.update(lambda node=node: f"removing dead node {node.kind}: {node!r}")
                if self.db is not None:
                    self.db.erase_writes(node)
                node.destroy()
                self.changed = True

    def _remove_dead_if_outputs(self, node: Node) -> None:
        if node.kind is not prim.If:
            return
        view = IfView(node)
        for i in range(len(node.outputs) - 1, -1, -1):
            if not node.outputs[i].uses and log.allowed():
                log.update("removing unused output %d of prim::If", i)
                view.remove_output(i)
                self.changed = True

    def _remove_dead_loop_outputs(self, node: Node) -> None:
        if node.kind is not prim.Loop:
            return
        loop = LoopView(node)
        for i in range(loop.num_carried() - 1, -1, -1):
            carried = loop.carried(i)
            if carried.final.uses or carried.body_input.uses:
                continue
            if not log.allowed():
                continue
            log.update("removing unused loop-carried value %d of prim::Loop", i)
            loop.remove_carried(i)
            self.changed = True

    def run(self, block: Block) -> bool:
        self.mark_block(block)
        self.sweep(block)
        return self.changed


def eliminate_dead_code(graph: Graph, *, alias_db: AliasDb | None = None) -> bool:
    """Remove nodes whose results are unused and that have no observable effect."""
    log.dump("before dead code elimination", graph)
    changed = _DeadCodeEliminator(graph, alias_db).run(graph.block)
    if changed:
        log.dump("after dead code elimination", graph)
    return changed


def eliminate_dead_code_in_block(block: Block) -> bool:
    """DCE of one block without alias analysis (for passes that are building it): every
    operator that may write is kept, as if it had side effects."""
    return _DeadCodeEliminator(block.graph, None, use_alias_db=False).run(block)
