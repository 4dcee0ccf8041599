"""Value refinement from the conditions that guard code, as TorchScript's
`integer_value_refinement.cpp` and the list-length refinement of `peephole_list_idioms.cpp`.

Where code runs only if `x == 4` held, `x` is 4 there; where it runs only if
`len(l) == 4` held (and `l` is never written), `len(l)` is 4 there:

    %c = aten::eq(%x, %four)                  %c = aten::eq(%x, %four)
    = prim::If(%c)                            = prim::If(%c)
      block0(): -> ()                   →       block0(): -> ()
      block1(): prim::RaiseException          block1(): prim::RaiseException
    %y = aten::add(%x, %five)                 %y = aten::add(%four, %five)

A boolean's refinements are what holds when it is true and what holds when it
is false: `aten::eq` / `aten::ne` of the value with an int constant; `not b`;
`b == True`, `b == False` and the `!=` forms; and a `prim::If` output (what
`and` / `or` and conditional assignments make), where a fact holds if it holds
on every branch that can yield that truth value. A fact holds in the branch
of an `If` its condition selects, and after an `If` whose other branch always
raises (`assert`, `if ...: raise`).

Integers: uses of a refined `x` become the constant (what a branch yields
too), and an `If` output one branch yields as a constant `c` and the other as
a value refined to `c` in the first is that value. Lists: `aten::len`
of a refined list becomes the constant.
"""

from __future__ import annotations

from typing import Any

from ts_ir import (
    NOT_CONSTANT,
    Block,
    BoolType,
    Graph,
    IntType,
    ListType,
    Node,
    Value,
    maybe_constant,
    prim,
)

from .alias_analysis import AliasDb
from .jit_log import PassLogger

log = PassLogger(__name__)

#: what holds: refined key → int (an int value, or ("len", list value))
Facts = dict[Any, int]


def _intersect(a: Facts | None, b: Facts | None) -> Facts | None:
    """Facts holding on both of two paths (None: a path that cannot be taken)."""
    if a is None:
        return b
    if b is None:
        return a
    return {k: v for k, v in a.items() if b.get(k) == v}


class _Refiner:
    def __init__(self, graph: Graph, *, lists: bool) -> None:
        self.graph = graph
        self.lists = lists
        self.db = AliasDb(graph) if lists else None
        self.memo: dict[Value, tuple[Facts | None, Facts | None]] = {}
        self.changed = False

    # -- what a boolean tells

    def key(self, v: Value) -> Any:
        """The refinable thing `v` is, or None."""
        if not isinstance(v.type, IntType):
            return None
        if not self.lists:
            return v if maybe_constant(v) is NOT_CONSTANT else None
        n = v.node
        if n.kind == "aten::len" and len(n.inputs) == 1:
            lst = n.inputs[0]
            if isinstance(lst.type, ListType) and not self.db.has_writers(lst):
                return ("len", lst)
        return None

    def facts(self, v: Value) -> tuple[Facts | None, Facts | None]:
        """(facts when `v` is true, facts when false); None for a truth value `v` cannot have."""
        if v in self.memo:
            return self.memo[v]
        self.memo[v] = ({}, {})  # cycles through loop-carried values learn nothing
        result = self._facts(v)
        self.memo[v] = result
        return result

    def _facts(self, v: Value) -> tuple[Facts | None, Facts | None]:
        c = maybe_constant(v)
        if type(c) is bool:
            return ({}, None) if c else (None, {})
        if not isinstance(v.type, BoolType):
            return {}, {}
        n = v.node
        kind = n.kind
        if kind == "aten::__not__" and len(n.inputs) == 1:
            t, f = self.facts(n.inputs[0])
            return f, t
        if kind in ("aten::eq", "aten::ne") and len(n.inputs) == 2:
            t, f = self._comparison(n.inputs[0], n.inputs[1])
            return (t, f) if kind == "aten::eq" else (f, t)
        if kind is prim.If and len(n.outputs) >= 1:
            i = n.outputs.index(v)
            cond_t, cond_f = self.facts(n.inputs[0])
            then_t, then_f = self.facts(n.blocks[0].outputs[i])
            else_t, else_f = self.facts(n.blocks[1].outputs[i])
            true = _intersect(self._both(cond_t, then_t), self._both(cond_f, else_t))
            false = _intersect(self._both(cond_t, then_f), self._both(cond_f, else_f))
            return true, false
        return {}, {}

    @staticmethod
    def _both(a: Facts | None, b: Facts | None) -> Facts | None:
        if a is None or b is None:
            return None
        return {**a, **b}

    def _comparison(self, a: Value, b: Value) -> tuple[Facts | None, Facts | None]:
        """Facts when `a == b` is true, and when false."""
        for x, y in ((a, b), (b, a)):
            c = maybe_constant(y)
            if isinstance(x.type, BoolType) and type(c) is bool:
                t, f = self.facts(x)
                return (t, f) if c else (f, t)
            if type(c) is int:
                k = self.key(x)
                if k is not None:
                    return {k: c}, {}
        return {}, {}

    # -- applying facts

    def block(self, block: Block, env: Facts) -> Facts | None:
        """Apply the facts `env` (and those learnt on the way) to the block; the facts
        holding where it completes, None if it always raises."""
        env = dict(env)
        for node in block.nodes():
            if node.kind is prim.RaiseException:
                return None
            if node.kind is prim.If:
                cond_t, cond_f = self.facts(node.inputs[0])
                then_end = None if cond_t is None else self.block(node.blocks[0], {**env, **cond_t})
                else_end = None if cond_f is None else self.block(node.blocks[1], {**env, **cond_f})
                if not self.lists:
                    self.if_outputs_to_values(node, then_end, else_end)
                after = _intersect(then_end, else_end)
                if after is None:  # neither branch completes: nothing after the If runs
                    return None
                env.update(after)
                continue
            for b in node.blocks:
                self.block(b, env)
            if env:
                self.rewrite(node, env)
        if env and not self.lists:
            self.rewrite(block.return_node, env)
        return env

    def rewrite(self, node: Node, env: Facts) -> None:
        if self.lists:
            if node.kind == "aten::len" and len(node.inputs) == 1:
                k = self.key(node.output())
                if k in env:
                    self.replace_with_constant(node.output(), env[k], node)
            return
        for i, v in enumerate(node.inputs):
            if v in env and log.allowed():
                with self.graph.inserting_before(node):
                    c = self.graph.insert_constant(env[v])
                log.update(lambda v=v, i=i: f"%{v.debug_name} is {env[v]} at {node.kind}")
                node.replace_input(i, c)
                self.changed = True

    def if_outputs_to_values(
        self, node: Node, then_end: Facts | None, else_end: Facts | None
    ) -> None:
        """An `If` output that one branch yields as a constant `c` and the other as a value
        `v` (from outside the `If`) refined to `c` in the first branch is `v`."""
        for i, out in enumerate(node.outputs):
            yields = (node.blocks[0].outputs[i], node.blocks[1].outputs[i])
            for (const, facts), v in (
                ((yields[0], then_end), yields[1]),
                ((yields[1], else_end), yields[0]),
            ):
                c = maybe_constant(const)
                if facts is None or type(c) is not int or facts.get(v) != c or not log.allowed():
                    continue
                log.update(lambda i=i, v=v: f"output {i} of prim::If is %{v.debug_name}")
                out.replace_all_uses_with(v)
                self.changed = True
                break

    def replace_with_constant(self, v: Value, value: int, node: Node) -> None:
        if not log.allowed():
            return
        with self.graph.inserting_before(node):
            c = self.graph.insert_constant(value)
        log.update(lambda: f"%{v.debug_name} is {value}")
        v.replace_all_uses_with(c)
        self.changed = True


def refine_integer_values(graph: Graph) -> bool:
    """Replace ints by the constants the conditions guarding their uses fix them to."""
    r = _Refiner(graph, lists=False)
    r.block(graph.block, {})
    return r.changed


def refine_list_lengths(graph: Graph) -> bool:
    """Replace `len(l)` of a list never written by the constant the guarding conditions fix."""
    r = _Refiner(graph, lists=True)
    r.block(graph.block, {})
    return r.changed


def peephole_list_idioms(graph: Graph, *, refine_list_len: bool = False) -> bool:
    """The list rewrites of peephole (`len`, indexing and unpacking of a `ListConstruct`,
    ...), and with `refine_list_len` the list lengths guarding conditions fix."""
    from .peephole import peephole_optimize

    changed = peephole_optimize(graph, only=["list_idioms"])
    if refine_list_len:
        changed |= refine_list_lengths(graph)
        changed |= peephole_optimize(graph, only=["list_idioms"])
    return changed
