"""`Graph.lint`: check every structural invariant of the IR. O(nodes + uses).

Checked: ownership (graph, block, list links), topological order within each
block, scoping (every input defined earlier in its block or an enclosing
one), exact use lists in both directions, output offsets, block structure of
`prim::If` and `prim::Loop`, constants without inputs, the value-name table,
and the same for every subgraph attribute.

Scoping is decided with the topological positions (which lint checks too)
rather than a set of visible values, and use lists are checked per value plus
one global count: every recorded use must point at an input slot holding the
value, no use may repeat, and there must be as many uses as input slots. That
keeps lint linear with no graph-sized tables.
"""

from __future__ import annotations

from .attributes import AttributeKind
from .errors import LintError
from .ir import CONSTANT, IF, LOOP, PARAM, RETURN, Block, Graph, Node, Value
from .types import BoolType, IntType


class _Linter:
    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        self.input_slots = 0
        self.recorded_uses = 0
        self.named_values = 0

    def fail(self, message: str) -> None:
        try:
            text = str(self.graph)
        except Exception as exc:  # the graph may be too broken to print
            text = f"<graph could not be printed: {exc!r}>"
        raise LintError(message, text)

    def run(self) -> None:
        self._block(self.graph.block, None)
        if self.recorded_uses != self.input_slots:
            self.fail(
                f"use lists record {self.recorded_uses} uses but nodes have {self.input_slots} input slots"
            )
        names = self.graph._unique_names
        for name, v in names.items():
            if v._debug_name != name:
                self.fail(f"the name table maps {name!r} to a value named {v._debug_name!r}")
        if len(names) != self.named_values:
            self.fail(
                f"the name table holds {len(names)} names but the graph has {self.named_values} named values"
            )

    def _block(self, block: Block, owner: Node | None) -> None:
        if block.graph is not self.graph:
            self.fail("a block belongs to another graph")
        if block.owning_node is not owner:
            self.fail("a block's owning_node is not the node that holds it")
        pn, rn = block.param_node, block.return_node
        if pn.kind is not PARAM or rn.kind is not RETURN:
            self.fail("a block's sentinels are not prim::Param and prim::Return")
        if pn.owning_block is not block or rn.owning_block is not block:
            self.fail("a block's sentinel nodes do not point back to the block")
        for i, v in enumerate(block.inputs):
            self._value(pn, v, i)
        prev = rn
        last_pos: int | None = None
        n = rn.next
        while n is not rn:
            if n is None:
                self.fail("a block's node list is broken (a node has no next)")
                return
            if n.prev is not prev:
                self.fail(f"{n.kind}: prev link does not point at the previous node")
            if n.graph is not self.graph:
                self.fail(f"{n.kind} belongs to another graph")
            if n.owning_block is not block:
                self.fail(f"{n.kind}: owning_block is not the block that lists it")
            if last_pos is not None and n.topo_position <= last_pos:
                self.fail(f"{n.kind}: topological positions are not increasing")
            last_pos = n.topo_position
            self._inputs(n)
            self._kind_rules(n)
            for b in n.blocks:
                self._block(b, n)
            for i, v in enumerate(n.outputs):
                self._value(n, v, i)
            self._subgraphs(n)
            prev, n = n, n.next
        if rn.prev is not prev:
            self.fail("the return node's prev link does not point at the last node")
        self._inputs(rn)

    def _inputs(self, n: Node) -> None:
        self.input_slots += len(n.inputs)
        for i, v in enumerate(n.inputs):
            problem = self._scope_problem(n, v.node)
            if problem is not None:
                self.fail(f"input {i} (%{v.debug_name}) of {n.kind} {problem}")

    def _scope_problem(self, user: Node, definer: Node) -> str | None:
        """Why `definer`'s outputs are not visible at `user`, or None if they are. O(depth)."""
        if definer.graph is not self.graph:
            return "is defined in another graph"
        if definer.next is None:
            return "is defined by a node that is not in the graph"
        home = definer.owning_block
        at: Node | None = user
        while at is not None and at.owning_block is not home:
            at = at.owning_block.owning_node if at.owning_block is not None else None
        if at is None:
            return "is used outside the block that defines it"
        if definer.kind is not PARAM and (
            at is definer or at.topo_position <= definer.topo_position
        ):
            return "is used before it is defined"
        return None

    def _value(self, n: Node, v: Value, i: int) -> None:
        if v.node is not n or v.offset != i:
            self.fail(
                f"output {i} of {n.kind} (%{v.debug_name}) does not point back to its node and offset"
            )
        if v._debug_name is not None:
            self.named_values += 1
            if self.graph._unique_names.get(v._debug_name) is not v:
                self.fail(f"%{v.debug_name} is not recorded in the graph's name table")
        uses = v.uses
        self.recorded_uses += len(uses)
        if len(uses) > 1 and len({(id(u.user), u.offset) for u in uses}) != len(uses):
            self.fail(f"%{v.debug_name} records the same use twice")
        for u in uses:
            user = u.user
            if user.graph is not self.graph or user.next is None:
                self.fail(
                    f"%{v.debug_name} records a use by a {user.kind} that is not in the graph"
                )
            if u.offset >= len(user.inputs) or user.inputs[u.offset] is not v:
                self.fail(
                    f"%{v.debug_name} records a use as input {u.offset} of {user.kind}, which is another value"
                )

    def _kind_rules(self, n: Node) -> None:
        problem = structure_problem(n)
        if problem is not None:
            self.fail(problem)

    def _subgraphs(self, n: Node) -> None:
        if not n._attrs:
            return
        for name, (kind, value) in n._attrs.items():
            graphs = (
                [value] if kind is AttributeKind.g else value if kind is AttributeKind.gs else ()
            )
            for sub in graphs:
                try:
                    lint_graph(sub)
                except LintError as err:
                    self.fail(f"in the {name} subgraph of {n.kind}: {err.invariant}")


def structure_problem(n: Node, *, parsing: bool = False) -> str | None:
    """What is wrong with the block structure or inputs of a prim::If, prim::Loop or
    prim::Constant node, or None. The IR parser checks every node it reads with this
    (`parsing`: accepting, as PyTorch's parser does, an If with one block or a condition
    that is not a bool, which `lint` refuses)."""
    k = n.kind
    if k is IF:
        blocks = (1, 2) if parsing else (2,)
        if len(n.inputs) != 1 or len(n.blocks) not in blocks:
            return "prim::If needs exactly one condition input and two blocks"
        if not parsing and not isinstance(n.inputs[0].type, BoolType):
            return f"prim::If condition %{n.inputs[0].debug_name} is {n.inputs[0].type}, not bool"
        for b in n.blocks:
            if b.inputs:
                return "prim::If blocks take no inputs"
            if len(b.outputs) != len(n.outputs):
                return (
                    f"a prim::If block returns {len(b.outputs)} values for {len(n.outputs)} outputs"
                )
    elif k is LOOP:
        if len(n.inputs) < 2 or len(n.blocks) != 1:
            return "prim::Loop needs a trip count, a condition and one block"
        carried = len(n.inputs) - 2
        body = n.blocks[0]
        if len(n.outputs) != carried:
            return f"prim::Loop has {carried} loop-carried inputs but {len(n.outputs)} outputs"
        if len(body.inputs) != carried + 1:
            return f"a prim::Loop body takes {len(body.inputs)} inputs, not 1 + {carried}"
        if len(body.outputs) != carried + 1:
            return f"a prim::Loop body returns {len(body.outputs)} values, not 1 + {carried}"
        if not isinstance(n.inputs[0].type, IntType):
            return f"prim::Loop trip count %{n.inputs[0].debug_name} is {n.inputs[0].type}, not int"
    elif k is CONSTANT:
        if n.inputs or n.blocks or len(n.outputs) != 1:
            return "prim::Constant takes no inputs or blocks and has one output"
    return None


def lint_graph(graph: Graph) -> None:
    _Linter(graph).run()
