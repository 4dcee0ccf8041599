"""Remove mutation, as TorchScript's `remove_mutation.cpp`: make in-place updates functional.

Tensors: `x.add_(y)` becomes `x1 = x.add(y)`, and every later use of `x` (and
of the in-place op's output) reads `x1`, where that cannot be observed:

    %x = aten::clone(%a)                       %x = aten::clone(%a)
    %r = aten::add_(%x, %b, %one)        →     %x1 = aten::add(%x, %b, %one)
    %s = aten::mul(%x, %x)                     %s = aten::mul(%x1, %x1)

Conditions (alias analysis): the op writes only its first input, an
out-of-place overload with a schema exists (and an implementation, if the
in-place one has one), `x` is a fresh value of its own (not a graph input,
not made by a node with blocks, subgraphs or side effects, not aliasing its
creator's inputs), and the creation of `x` can move right before the
mutation (so nothing in between reads or aliases `x`). An output of a
`prim::If` whose branches each yield a fresh value used nowhere else counts as
fresh, the `If` moving as its creation. `zero_` and `fill_` map to
`zeros_like` and `full_like`; `normal_` without a generator of its own to
`normal(mean, std, x.size(), dtype=, layout=, device=, pin_memory=)` of `x`'s.

Lists: `l = [a]; l.append(b)` (or `insert` at a constant index) becomes
`l = [a, b]` under the same conditions; `l[i] = b` at a constant index inside
the list replaces the element there.
"""

from __future__ import annotations

from collections.abc import Callable

from ts_ir import Graph, Node, TensorType, Value, maybe_constant, prim
from ts_schema import AliasAnalysisKind, registry

from .alias_analysis import AliasDb
from .jit_log import PassLogger

log = PassLogger(__name__)

_SPECIAL_MAPPED = {
    "aten::zero_": "aten::zeros_like",
    "aten::fill_": "aten::full_like",
    "aten::normal_": "aten::normal",
}


class _MutationRemover:
    __slots__ = ("_db", "changed", "graph", "mutation_filter")

    def __init__(self, graph: Graph, mutation_filter: Callable[[Node], bool] | None) -> None:
        self.graph = graph
        self.mutation_filter = mutation_filter
        self._db: AliasDb | None = None
        self.changed = False

    @property
    def db(self) -> AliasDb:
        if self._db is None:
            self._db = AliasDb(self.graph)
        return self._db

    def has_side_effect_or_alias(self, v: Value) -> bool:
        n = v.node
        unhandled = bool(n.blocks) or n.has_attribute("Subgraph") or n.has_side_effects()
        unhandled = unhandled or n.kind is prim.Param or n.kind is prim.Return
        may_alias_inputs = n.kind is not prim.ListConstruct and self.db.may_contain_alias(
            n.inputs, v
        )
        return unhandled or may_alias_inputs

    def fresh_or_fresh_if_output(self, v: Value) -> bool:
        """`v` is a new memory location of its own: made fresh (see above), or the output
        of a `prim::If` each of whose branches yields a fresh value used nowhere else."""
        if not self.has_side_effect_or_alias(v):
            return True
        n = v.node
        if n.kind is not prim.If:
            return False
        i = n.outputs.index(v)
        yielded = [b.outputs[i] for b in n.blocks]
        return all(len(y.uses) == 1 and not self.has_side_effect_or_alias(y) for y in yielded)

    def make_creation_and_mutation_atomic(self, v: Value, mutating: Node) -> bool:
        if self.has_side_effect_or_alias(v):
            return False
        return self.db.move_before_topologically_valid(v.node, mutating)

    # -- lists

    def remove_list_mutation(self, block) -> None:
        for node in block.nodes():
            for b in node.blocks:
                self.remove_list_mutation(b)
            if not self._list_mutation_after_construct(node):
                continue
            lst = node.inputs[0]
            if not log.allowed() or not self.make_creation_and_mutation_atomic(lst, node):
                continue
            construct = lst.node
            if node.kind == "aten::append":
                construct.add_input(node.inputs[1])
            elif node.kind == "aten::_set_item":
                pos = maybe_constant(node.inputs[1])
                construct.replace_input(pos % len(construct.inputs), node.inputs[2])
            else:
                pos = maybe_constant(node.inputs[1])
                size = len(construct.inputs)
                if pos < 0:
                    pos = max(pos + size, 0)
                construct.insert_input(min(pos, size), node.inputs[2])
            log.update(lambda node=node: f"folding {node.kind} into its prim::ListConstruct")
            for out in node.outputs:
                out.replace_all_uses_with(lst)
            self.db.erase_writes(node)
            node.destroy()
            self.changed = True

    @staticmethod
    def _list_mutation_after_construct(node: Node) -> bool:
        if not node.inputs or node.inputs[0].node.kind is not prim.ListConstruct:
            return False
        if node.kind == "aten::append" and len(node.inputs) == 2:
            return True
        if node.kind == "aten::_set_item" and len(node.inputs) == 3:
            # `l[i] = v` at a constant index inside the list (outside, it raises)
            pos = maybe_constant(node.inputs[1])
            size = len(node.inputs[0].node.inputs)
            return type(pos) is int and -size <= pos < size
        return (
            node.kind == "aten::insert"
            and len(node.inputs) == 3
            and isinstance(maybe_constant(node.inputs[1]), int)
        )

    # -- tensors

    def _functional_kind(self, node: Node) -> str | None:
        kind = node.kind
        if kind.ns != "aten" or not kind.name.endswith("_") or kind.name.endswith("__"):
            return None
        if kind == "aten::normal_" and not (
            len(node.inputs) == 4 and maybe_constant(node.inputs[3]) is None
        ):
            return None  # a generator of its own: the functional op would not use it
        if kind in _SPECIAL_MAPPED:
            return _SPECIAL_MAPPED[kind]
        op = registry.operator_for(node)
        if op is None or op.alias_analysis is not AliasAnalysisKind.FROM_SCHEMA:
            return None
        if len(node.outputs) != 1 or not node.inputs:
            return None
        if not self.db.writes_to_alias(node, node.inputs[0]):
            return None
        if len(node.inputs) > 1 and self.db.writes_to_alias(node, node.inputs[1:]):
            return None
        name = f"aten::{kind.name[:-1]}"
        return name if registry.has(name) else None

    def _create_functional(self, node: Node, kind: str) -> Node | None:
        """The out-of-place node (not yet in a block), or None where it would not do."""
        graph = self.graph
        if node.kind in _SPECIAL_MAPPED:
            return graph.create(kind, [], 1) if registry.has(kind) else None
        new = graph.create(kind, list(node.inputs))
        new.source_range = node.source_range
        new.output().set_type(node.output().type)
        op = registry.operator_for(new)
        in_place = registry.operator_for(node)
        usable = op is not None and (
            in_place is None or not in_place.has_implementation or op.has_implementation
        )
        if usable and isinstance(node.inputs[0].type, TensorType):
            usable = self._keeps_dtype(node.inputs[0], new)
        if not usable:
            new.destroy()
            return None
        return new

    def _insert_functional(self, node: Node, new: Node, kind: str) -> Value | None:
        graph = self.graph
        if node.kind not in _SPECIAL_MAPPED:
            new.insert_before(node)
            return new.output()
        new.destroy()
        x = node.inputs[0]
        with graph.inserting_before(node):
            try:
                if kind == "aten::normal":
                    out = graph.insert(
                        kind,
                        [*node.inputs[1:3], graph.insert("aten::size", [x])],
                        {
                            "generator": None,
                            "dtype": graph.insert("prim::dtype", [x]),
                            "layout": graph.insert("prim::layout", [x]),
                            "device": graph.insert("prim::device", [x]),
                            "pin_memory": graph.insert("aten::is_pinned", [x, None]),
                        },
                    )
                else:
                    args = [x] if kind == "aten::zeros_like" else list(node.inputs[:2])
                    out = graph.insert(kind, args)
            except Exception:
                return None
        out.node.source_range = node.source_range
        out.set_type(node.output().type)
        return out

    @staticmethod
    def _keeps_dtype(x: Value, new: Node) -> bool:
        """The functional op must not promote where the in-place one would keep x's dtype."""
        t = x.type
        if not isinstance(t, TensorType) or t.scalar_type is None:
            return True
        from .shape_rules import ShapeArgs, rule_for

        rule = rule_for(new)
        if rule is None:
            return True
        try:
            result = rule(ShapeArgs(new))
        except Exception:
            return True
        if isinstance(result, TensorType) and result.scalar_type is not None:
            return result.scalar_type == t.scalar_type
        return True

    def remove_tensor_mutation(self, block) -> None:
        for node in block.nodes():
            for b in node.blocks:
                self.remove_tensor_mutation(b)
            if self.mutation_filter is not None and not self.mutation_filter(node):
                continue
            kind = self._functional_kind(node)
            if kind is None:
                continue
            x = node.inputs[0]
            if not self.fresh_or_fresh_if_output(x) or not log.allowed():
                continue
            if not self.db.could_move_before_topologically(x.node, node):
                continue
            new = self._create_functional(node, kind)
            if new is None:
                continue
            self.db.move_before_topologically_valid(x.node, node)
            result = self._insert_functional(node, new, kind)
            self.changed = True
            if result is None:
                continue
            log.update(lambda node=node, kind=kind: f"replacing {node.kind} with {kind}")
            x.replace_all_uses_after_node_with(node, result)
            node.output().replace_all_uses_with(result)
            db = self.db
            db.replace_with_new_value(x, result)
            db.create_value(x)
            db.erase_writes(node)
            node.destroy()
            self.changed = True


def remove_list_mutation(graph: Graph) -> bool:
    remover = _MutationRemover(graph, None)
    remover.remove_list_mutation(graph.block)
    return remover.changed


def remove_tensor_mutation(
    graph: Graph, *, mutation_filter: Callable[[Node], bool] | None = None
) -> bool:
    remover = _MutationRemover(graph, mutation_filter)
    remover.remove_tensor_mutation(graph.block)
    return remover.changed


def remove_mutation(graph: Graph, *, mutation_filter: Callable[[Node], bool] | None = None) -> bool:
    """Rewrite in-place list and tensor updates functionally where alias analysis allows."""
    remover = _MutationRemover(graph, mutation_filter)
    remover.remove_list_mutation(graph.block)
    remover.remove_tensor_mutation(graph.block)
    if remover.changed:
        log.dump("after removing mutation", graph)
    return remover.changed
