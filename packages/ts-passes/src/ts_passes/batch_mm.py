"""Batch matrix multiplies, as TorchScript's `batch_mm.cpp`.

Two rewrites, on graphs without in-place operators:

- *Tree reduce*: a tree of `aten::add` (alpha 1) over at least 4 `aten::mm`
  leaves (or transposes of them: (AB)ᵀ = BᵀAᵀ) becomes one
  `prim::MMTreeReduce(lhs..., rhs...)`, which computes Σ lhsᵢ @ rhsᵢ (by
  concatenating the operands and running one mm where the shapes allow).
- *Side batching*: 8 or more independent `aten::mm` sharing the same left
  (or right) operand become one `prim::MMBatchSide[side=0|1](shared,
  others...)` with one output per mm.

Both need `prim::MMTreeReduce` / `prim::MMBatchSide` to run, so by default
the pass only rewrites when the registry holds an implementation for them
(the runtime attaches those; until it does, the graph is left as it is).
`require_implementation=False` rewrites anyway, for tests and for backends
that lower these nodes themselves. Dead code elimination and peephole run
afterwards when anything changed.
"""

from __future__ import annotations

from ts_ir import Block, Graph, Node, Value, aten, maybe_constant, prim
from ts_schema import registry

from .alias_analysis import AliasDb
from .dead_code_elimination import eliminate_dead_code
from .jit_log import PassLogger
from .peephole import peephole_optimize

log = PassLogger(__name__)

MIN_FUSION_SIZE = 4
HOW_MANY_IS_MANY = 8
LHS, RHS = 0, 1


def _is_mm(n: Node) -> bool:
    return n.kind == "aten::mm" and len(n.inputs) == 2


def _is_t(n: Node) -> bool:
    return n.kind == "aten::t" and len(n.inputs) == 1


def _is_tensor_add(n: Node) -> bool:
    if n.kind != "aten::add" or len(n.inputs) != 3:
        return False
    return n.inputs[1].type.kind == "TensorType" and maybe_constant(n.inputs[2]) == 1


class _Token:
    __slots__ = ("is_root", "node", "size")

    def __init__(self, node: Node, size: int) -> None:
        self.node = node
        self.size = size
        self.is_root = True


def _gather_matmuls(root: Node, graph: Graph) -> list[Node]:
    matmuls: list[Node] = []
    queue = [root]
    while queue:
        n = queue.pop()
        if _is_mm(n):
            matmuls.append(n)
        elif _is_t(n):
            mm = n.input().node
            a, b = mm.inputs
            with graph.inserting_before(mm):
                at = graph.insert(aten.t, [a])
                bt = graph.insert(aten.t, [b])
                btat = graph.insert(aten.mm, [bt, at])
            btat.set_type(n.output().type)
            n.output().replace_all_uses_with(btat)
            matmuls.append(btat.node)
        else:
            queue.append(n.inputs[0].node)
            queue.append(n.inputs[1].node)
    return matmuls


def _tree_reduce(block: Block, db: AliasDb) -> bool:
    graph = block.graph
    tokens: dict[Node, _Token] = {}
    changed = False
    for node in block.nodes():
        if _is_mm(node) and not db.has_writers(node):
            tokens[node] = _Token(node, 1)
        elif _is_t(node) and not db.has_writers(node):
            inner = tokens.get(node.input().node)
            if inner is not None and _is_mm(inner.node):
                inner.is_root = False
                tokens[node] = _Token(node, 1)
        elif _is_tensor_add(node) and not db.has_writers(node):
            lhs, rhs = node.inputs[0].node, node.inputs[1].node
            lt, rt = tokens.get(lhs), tokens.get(rhs)
            if (
                lt is not None
                and rt is not None
                and lt is not rt
                and lt.is_root
                and rt.is_root
                and len(lhs.output().uses) == 1
                and len(rhs.output().uses) == 1
            ):
                lt.is_root = rt.is_root = False
                tokens[node] = _Token(node, lt.size + rt.size)
        else:
            for b in node.blocks:
                changed |= _tree_reduce(b, db)
    for root in list(tokens.values()):
        if not root.is_root or root.size < MIN_FUSION_SIZE or not log.allowed():
            continue
        matmuls = _gather_matmuls(root.node, graph)
        with graph.inserting_before(root.node):
            reduce = graph.insert_node(graph.create(prim.MMTreeReduce))
        for mm in matmuls:
            reduce.add_input(mm.inputs[0])
        for mm in matmuls:
            reduce.add_input(mm.inputs[1])
        reduce.output().set_type(root.node.output().type)
        log.update("replacing a tree of %d matmuls with prim::MMTreeReduce", len(matmuls))
        root.node.output().replace_all_uses_with(reduce.output())
        changed = True
    return changed


def _independent_uses(value: Value, db: AliasDb) -> tuple[list[Node], list[Node]]:
    def independent(mms: list[Node]) -> list[Node]:
        mms = sorted(mms, key=lambda n: n.topo_position)
        keep: list[Node | None] = list(mms)
        for i in range(len(keep)):
            if keep[i] is None:
                continue
            for j in range(i + 1, len(keep)):
                if keep[j] is not None and not db.could_move_before_topologically(
                    keep[j],
                    keep[i],  # type: ignore[arg-type]
                ):
                    keep[j] = None
        return [n for n in keep if n is not None]

    block = value.node.owning_block
    lhses, rhses = [], []
    for use in value.uses:
        u = use.user
        if u.owning_block is not block or not _is_mm(u) or db.has_writers(u):
            continue
        if use.offset == 0 and u.inputs[1] is not value:
            lhses.append(u)
        elif use.offset == 1 and u.inputs[0] is not value:
            rhses.append(u)
    return independent(lhses), independent(rhses)


def _batch_side(block: Block, db: AliasDb) -> bool:
    changed = False
    considered: set[Value] = set()

    def batch(mms: list[Node], side: int) -> None:
        for i in range(len(mms) - 2, -1, -1):
            db.move_before_topologically_valid(mms[i], mms[i + 1])
        graph = mms[0].graph
        node = graph.create(prim.MMBatchSide, [], len(mms))
        node.insert_before(mms[0])
        node.i_("side", side)
        node.add_input(mms[0].inputs[0 if side == LHS else 1])
        for i, mm in enumerate(mms):
            node.add_input(mm.inputs[1 if side == LHS else 0])
            node.outputs[i].set_type(mm.output().type)
            mm.output().replace_all_uses_with(node.outputs[i])
        log.update("batching %d matmuls that share a side", len(mms))

    for node in block.nodes():
        if _is_mm(node) and not db.has_writers(node):
            for v in node.inputs:
                if v in considered:
                    continue
                considered.add(v)
                lhses, rhses = _independent_uses(v, db)
                if len(lhses) >= HOW_MANY_IS_MANY and log.allowed():
                    batch(lhses, LHS)
                    changed = True
                if len(rhses) >= HOW_MANY_IS_MANY and log.allowed():
                    batch(rhses, RHS)
                    changed = True
        else:
            for b in node.blocks:
                changed |= _batch_side(b, db)
    return changed


def _has_mutable_operators(block: Block) -> bool:
    for n in block.nodes():
        if n.kind.ns == "aten":
            schema = n.maybe_schema()
            if schema is not None and schema.is_mutable:
                return True
        if any(_has_mutable_operators(b) for b in n.blocks):
            return True
    return False


def _implemented(name: str) -> bool:
    ops = registry.lookup(name) if registry.has(name) else []
    return any(op.has_implementation for op in ops)


def batch_mm(graph: Graph, *, require_implementation: bool = True) -> bool:
    """Batch trees of mm adds and mms sharing an operand (see the module docstring)."""
    if not any(_is_mm(n) for n in graph.all_nodes()):
        return False
    if _has_mutable_operators(graph.block):
        return False
    do_tree = not require_implementation or _implemented("prim::MMTreeReduce")
    do_side = not require_implementation or _implemented("prim::MMBatchSide")
    if not (do_tree or do_side):
        log.debug("prim::MMTreeReduce and prim::MMBatchSide have no implementation: skipping")
        return False
    db = AliasDb(graph)
    changed = False
    if do_tree:
        changed |= _tree_reduce(graph.block, db)
    if do_side:
        if changed:
            db = AliasDb(graph)
        changed |= _batch_side(graph.block, db)
    if changed:
        eliminate_dead_code(graph)
        peephole_optimize(graph)
        log.dump("after batch mm", graph)
    return changed
