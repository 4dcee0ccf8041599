"""The SSA IR: `Graph`, `Block`, `Node`, `Value`, `Use`.

As in TorchScript (`torch/csrc/jit/ir/ir.h`):

- A `Graph` owns a top-level `Block`. A `Block` is a list of `Node`s with a
  `prim::Param` node whose outputs are the block's inputs and a `prim::Return`
  node whose inputs are the block's outputs. The node list is circular
  through the return node: `block.return_node.next` is the first node.
- A `Node` has a kind (a `Symbol`), input `Value`s, output `Value`s, nested
  `Block`s (for `prim::If` and `prim::Loop`) and typed attributes.
- A `Value` is produced by exactly one node and records every `Use`
  (user node, input offset). Use lists are exact after every mutator.
- Nodes carry a topological position within their block, so `is_before` is
  O(1) within a block; positions are spread out so that inserting between
  two nodes rarely renumbers the block.

Mutate only through these methods. Costs that are not O(1) are stated.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from .attributes import AttributeAccessors, AttributeKind
from .errors import IRError
from .symbol import Symbol, prim
from .types import BoolType, ListType, NoneType, TensorType, TupleType, Type

_LOWER = -(2**62)
_UPPER = 2**62
_INTERVAL = 2**20

PARAM = prim.Param
RETURN = prim.Return
CONSTANT = prim.Constant
IF = prim.If
LOOP = prim.Loop


class Use:
    """One use of a value: input number `offset` of node `user`.

    `hint` is the use's position in its value's internal use list, so removing
    it is O(1).
    """

    __slots__ = ("hint", "offset", "user")

    def __init__(self, user: Node, offset: int) -> None:
        self.user = user
        self.offset = offset
        self.hint = -1

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Use) and other.user is self.user and other.offset == self.offset

    def __hash__(self) -> int:
        return hash((id(self.user), self.offset))

    def __repr__(self) -> str:
        return f"Use({self.user.kind}, {self.offset})"


class Value:
    """An SSA value: output number `offset` of `node`, with a type and exact uses.

    `uses` lists the uses in the order they were made. Removing a use is O(1):
    it leaves a hole (None) in the internal list, which reading `uses` closes.
    """

    __slots__ = ("_debug_name", "_holes", "_uses", "node", "offset", "type", "unique")

    def __init__(self, node: Node, offset: int, unique: int, type: Type) -> None:
        self.node = node
        self.offset = offset
        self.unique = unique
        self.type = type
        self._uses: list[Use | None] = []
        self._holes = 0
        self._debug_name: str | None = None

    @property
    def uses(self) -> list[Use]:
        """Every use of this value, oldest first."""
        if self._holes:
            self._uses[:] = [u for u in self._uses if u is not None]
            self._holes = 0
            for k, u in enumerate(self._uses):
                u.hint = k  # type: ignore[union-attr]
        return self._uses  # type: ignore[return-value]

    @uses.setter
    def uses(self, uses: list[Use]) -> None:
        self._uses = list(uses)
        self._holes = 0
        for k, u in enumerate(self._uses):
            u.hint = k  # type: ignore[union-attr]

    def _append_use(self, use: Use) -> None:
        use.hint = len(self._uses)
        self._uses.append(use)

    def _drop_use(self, k: int) -> Use:
        use = self._uses[k]
        assert use is not None
        self._uses[k] = None
        self._holes += 1
        return use

    # -- naming

    @property
    def debug_name(self) -> str:
        """The value's name, or its unique number when it has none (as printed after `%`)."""
        name = self._debug_name
        return name if name is not None else str(self.unique)

    def has_debug_name(self) -> bool:
        return self._debug_name is not None

    def debug_name_base(self) -> str:
        """The name without a numeric `.N` suffix: `x` for `x.3`."""
        name = self._debug_name or ""
        base, dot, suffix = name.rpartition(".")
        return base if dot and suffix.isdigit() else name

    def set_debug_name(self, name: str | None) -> Value:
        """Name this value, renaming any other value of the graph that holds the name.

        As TorchScript does: if `x` is taken, the current owner becomes `x.1`
        (or the next free suffix); a name ending in `.N` continues that count.
        """
        self.owning_graph._set_debug_name(self, name)
        return self

    # -- graph

    @property
    def owning_graph(self) -> Graph:
        return self.node.graph

    def set_type(self, type: Type) -> Value:
        self.type = type
        return self

    def copy_metadata(self, other: Value) -> Value:
        """Take `other`'s type and (if it has one) debug name."""
        self.type = other.type
        if other._debug_name is not None:
            self.set_debug_name(other._debug_name)
        return self

    def has_uses(self) -> bool:
        return len(self._uses) > self._holes

    def replace_first_use_with(self, new: Value) -> None:
        """Before: `%y = f(%x, %x)`. After `x.replace_first_use_with(z)`: `%y = f(%z, %x)`."""
        if new.owning_graph is not self.owning_graph:
            raise IRError("cannot replace a use with a value of another graph")
        use = self.uses[0]
        use.user.inputs[use.offset] = new
        self._drop_use(0)
        new._append_use(use)

    def replace_all_uses_with(self, new: Value) -> None:
        """Before: `%y = f(%x); %z = g(%x)`. After: `%y = f(%new); %z = g(%new)`. O(uses)."""
        if new is self:
            return
        if new.owning_graph is not self.owning_graph:
            raise IRError("cannot replace uses with a value of another graph")
        for use in self.uses:
            use.user.inputs[use.offset] = new
            new._append_use(use)
        self.uses = []

    def replace_all_uses_after_node_with(self, node: Node, new: Value) -> None:
        """Replace the uses by nodes that come after `node` (in any enclosing block)."""
        self._replace_uses_where(new, lambda user: user.is_after(node))

    def replace_all_uses_dominated_by_node_with(self, node: Node, new: Value) -> None:
        """Replace the uses by nodes dominated by `node`."""
        self._replace_uses_where(new, lambda user: user.is_dominated_by(node))

    def _replace_uses_where(self, new: Value, pred: Callable[[Node], bool]) -> None:
        if new is self:
            return
        if new.owning_graph is not self.owning_graph:
            raise IRError("cannot replace uses with a value of another graph")
        keep: list[Use] = []
        for use in self.uses:
            if pred(use.user):
                use.user.inputs[use.offset] = new
                new._append_use(use)
            else:
                keep.append(use)
        self.uses = keep

    def __repr__(self) -> str:
        return f"%{self.debug_name} : {self.type}"


class Node(AttributeAccessors):
    """An operation: kind, inputs, outputs, nested blocks and attributes."""

    __slots__ = (
        "_attrs",
        "_input_uses",
        "blocks",
        "graph",
        "inputs",
        "kind",
        "next",
        "outputs",
        "owning_block",
        "prev",
        "schema_cache",
        "source_range",
        "topo_position",
    )

    def __init__(self, graph: Graph, kind: str) -> None:
        self.graph = graph
        self.kind: Symbol = kind if type(kind) is Symbol else Symbol(kind)  # type: ignore[assignment]
        self.inputs: list[Value] = []
        self._input_uses: list[Use] = []  # the Use object of each input, in the input's list
        self.outputs: list[Value] = []
        self.blocks: list[Block] = []
        self.owning_block: Block | None = None
        self.prev: Node | None = None
        self.next: Node | None = None
        self.topo_position = 0
        self._attrs: dict[str, tuple[AttributeKind, Any]] | None = None
        self.source_range: Any = None
        self.schema_cache: Any = None

    @property
    def owning_graph(self) -> Graph:
        return self.graph

    # -- inputs and outputs

    def input(self, i: int | None = None) -> Value:
        """The only input, or input `i`."""
        if i is None:
            if len(self.inputs) != 1:
                raise IRError(f"{self.kind} has {len(self.inputs)} inputs, not exactly one")
            return self.inputs[0]
        return self.inputs[i]

    def output(self, i: int | None = None) -> Value:
        """The only output, or output `i`."""
        if i is None:
            if len(self.outputs) != 1:
                raise IRError(f"{self.kind} has {len(self.outputs)} outputs, not exactly one")
            return self.outputs[0]
        return self.outputs[i]

    def has_uses(self) -> bool:
        return any(o.has_uses() for o in self.outputs)

    def add_input(self, value: Value) -> Value:
        """Before: `%y = f(%a)`. After `add_input(%b)`: `%y = f(%a, %b)`."""
        self.schema_cache = None
        if value.node.graph is not self.graph:
            raise IRError(f"cannot use a value of another graph as an input of {self.kind}")
        use = Use(self, len(self.inputs))
        value._append_use(use)
        self.inputs.append(value)
        self._input_uses.append(use)
        return value

    def insert_input(self, i: int, value: Value) -> Value:
        """Before: `f(%a, %c)`. After `insert_input(1, %b)`: `f(%a, %b, %c)`. O(inputs)."""
        self.schema_cache = None
        if value.node.graph is not self.graph:
            raise IRError(f"cannot use a value of another graph as an input of {self.kind}")
        for j in range(i, len(self.inputs)):
            self._input_uses[j].offset += 1
        use = Use(self, i)
        self.inputs.insert(i, value)
        value._append_use(use)
        self._input_uses.insert(i, use)
        return value

    def replace_input(self, i: int, new: Value) -> Value:
        """Before: `f(%a, %b)`. After `replace_input(1, %c)`: `f(%a, %c)`. Returns the old value."""
        old = self.inputs[i]
        if old is new:
            return old
        if new.node.graph is not self.graph:
            raise IRError(f"cannot use a value of another graph as an input of {self.kind}")
        self.schema_cache = None
        use = old._drop_use(self._use_index(i))
        self.inputs[i] = new
        new._append_use(use)
        return old

    def replace_input_with(self, old: Value, new: Value) -> None:
        """Replace every occurrence of `old` among the inputs with `new`."""
        for i, v in enumerate(self.inputs):
            if v is old:
                self.replace_input(i, new)

    def remove_input(self, i: int) -> Value:
        """Before: `f(%a, %b, %c)`. After `remove_input(1)`: `f(%a, %c)`. O(inputs)."""
        self.schema_cache = None
        value = self.inputs[i]
        value._drop_use(self._use_index(i))
        for j in range(i + 1, len(self.inputs)):
            self._input_uses[j].offset -= 1
        del self.inputs[i]
        del self._input_uses[i]
        return value

    def remove_all_inputs(self) -> None:
        self.schema_cache = None
        for i in range(len(self.inputs) - 1, -1, -1):
            self.inputs[i]._drop_use(self._use_index(i))
        self.inputs = []
        self._input_uses = []

    def permute_inputs(self, order: Sequence[int]) -> None:
        """Reorder inputs: new input i is old input `order[i]`."""
        if sorted(order) != list(range(len(self.inputs))):
            raise IRError(f"{list(order)} is not a permutation of the inputs of {self.kind}")
        old = list(self.inputs)
        self.remove_all_inputs()
        for j in order:
            self.add_input(old[j])

    def _use_index(self, i: int) -> int:
        """Where input `i`'s Use sits in its value's internal use list. O(1): a use's
        position (`Use.hint`) only changes when holes are closed, which renumbers."""
        use = self._input_uses[i]
        uses = self.inputs[i]._uses
        k = use.hint
        if 0 <= k < len(uses) and uses[k] is use:
            return k
        try:  # the list was changed by hand (lint tests do): search it
            k = list(map(id, uses)).index(id(use))
        except ValueError:
            raise AssertionError("use list out of sync with inputs") from None
        use.hint = k
        return k

    def _use_of(self, i: int) -> Use:
        return self._input_uses[i]

    def add_output(self, type: Type | None = None) -> Value:
        """Before: `%a = f()`. After: `%a, %b = f()`."""
        v = Value(self, len(self.outputs), self.graph._fresh_unique(), type or TensorType.get())
        self.outputs.append(v)
        return v

    def insert_output(self, i: int, type: Type | None = None) -> Value:
        """Insert a new output at position `i`. O(outputs)."""
        v = Value(self, i, self.graph._fresh_unique(), type or TensorType.get())
        self.outputs.insert(i, v)
        for j in range(i + 1, len(self.outputs)):
            self.outputs[j].offset = j
        return v

    def erase_output(self, i: int) -> None:
        """Remove output `i`, which must have no uses. O(outputs)."""
        v = self.outputs[i]
        if v.uses:
            raise IRError(
                f"cannot erase output %{v.debug_name} of {self.kind}: it still has {len(v.uses)} uses"
            )
        self.graph._free_value(v)
        del self.outputs[i]
        for j in range(i, len(self.outputs)):
            self.outputs[j].offset = j

    def replace_all_uses_with(self, other: Node) -> None:
        """Point every use of output i of this node at output i of `other`."""
        if len(other.outputs) != len(self.outputs):
            raise IRError("replace_all_uses_with needs nodes with the same number of outputs")
        for mine, theirs in zip(self.outputs, other.outputs, strict=True):
            mine.replace_all_uses_with(theirs)

    # -- blocks

    def add_block(self) -> Block:
        b = Block(self.graph, self)
        self.blocks.append(b)
        return b

    def erase_block(self, i: int) -> None:
        b = self.blocks.pop(i)
        b._destroy()

    # -- position in a block

    def in_block_list(self) -> bool:
        return self.next is not None

    def insert_before(self, n: Node) -> Node:
        """Put this (unlisted) node just before `n`, in `n`'s block."""
        if n.kind is PARAM:
            raise IRError("cannot insert a node before a block's parameter node")
        assert n.prev is not None, "insert_before: the target node is not in a block"
        self.insert_after(n.prev)
        return self

    def insert_after(self, n: Node) -> Node:
        """Put this (unlisted) node just after `n`, in `n`'s block."""
        if self.next is not None:
            raise IRError(f"{self.kind} is already in a block; use move_after")
        if n.kind is RETURN and n.owning_block is not None and n is not n.owning_block.return_node:
            raise IRError("cannot insert after a return node")
        block = n.owning_block
        if block is None or n.next is None:
            raise IRError("insert_after: the target node is not in a block")
        if n.kind is PARAM:
            n = block.return_node  # the list is circular through the return node
        self.owning_block = block
        nxt = n.next
        assert nxt is not None
        self.prev = n
        self.next = nxt
        n.next = self
        nxt.prev = self
        self._assign_topo_position()
        return self

    def move_before(self, n: Node) -> None:
        """Unlink this node and put it just before `n` (uses are unchanged)."""
        self._remove_from_list()
        self.insert_before(n)

    def move_after(self, n: Node) -> None:
        self._remove_from_list()
        self.insert_after(n)

    def _remove_from_list(self) -> None:
        if self.next is None:
            return
        prev, nxt = self.prev, self.next
        assert prev is not None
        prev.next = nxt
        nxt.prev = prev
        self.next = self.prev = None
        self.owning_block = None

    def _assign_topo_position(self) -> None:
        block = self.owning_block
        assert block is not None and self.prev is not None and self.next is not None
        ret = block.return_node
        prev_pos = _LOWER if self.prev is ret else self.prev.topo_position
        next_pos = _UPPER if self.next is ret else self.next.topo_position
        if self.next is ret:
            pos = 0 if self.prev is ret else prev_pos + _INTERVAL
            if pos >= _UPPER:
                block._reindex_topology()
                return
        elif self.prev is ret:
            pos = next_pos - _INTERVAL
            if pos <= _LOWER:
                block._reindex_topology()
                return
        else:
            if next_pos - prev_pos < 2:
                block._reindex_topology()
                return
            pos = (prev_pos + next_pos) // 2
        self.topo_position = pos

    def is_before(self, n: Node) -> bool:
        """Whether this node runs before `n` (O(1) in one block, O(nesting depth) otherwise)."""
        return self._is_before_or_after(n, before=True)

    def is_after(self, n: Node) -> bool:
        return self._is_before_or_after(n, before=False)

    def _is_before_or_after(self, n: Node, *, before: bool) -> bool:
        if self is n:
            return False
        if self.owning_block is n.owning_block:
            if before:
                return self.topo_position < n.topo_position
            return self.topo_position > n.topo_position
        lhs: Node | None = self
        while lhs is not None:
            assert lhs.owning_block is not None
            rhs: Node | None = n
            while rhs is not None and rhs.owning_block is not None:
                if lhs.owning_block is rhs.owning_block:
                    return lhs._is_before_or_after(rhs, before=before)
                rhs = rhs.owning_block.owning_node
            lhs = lhs.owning_block.owning_node
        raise IRError("is_before: the nodes are not in the same graph")

    def is_dominated_by(self, dominator: Node) -> bool:
        """Whether `dominator` runs before this node on every path to it."""
        node: Node | None = self
        while node is not None:
            assert node.owning_block is not None
            if node.owning_block is dominator.owning_block:
                # strict, as in TorchScript: a node (and what its blocks hold) is not
                # dominated by itself, so its own inputs keep their values
                return dominator.is_before(node)
            node = node.owning_block.owning_node
        return False

    def destroy(self) -> None:
        """Remove this node from its block and the graph; its outputs must have no uses."""
        for v in self.outputs:
            if v.uses:
                raise IRError(
                    f"cannot destroy {self.kind} (output %{v.debug_name}): it still has "
                    f"{len(v.uses)} uses, the first by {v.uses[0].user.kind}"
                )
        while self.blocks:
            self.erase_block(len(self.blocks) - 1)
        self.remove_all_inputs()
        for v in self.outputs:
            self.graph._free_value(v)
        self.outputs = []
        self._remove_from_list()

    # -- operator metadata (filled in by ts-schema through hooks)

    def schema(self) -> Any:
        """The FunctionSchema this node matches; needs ts_schema imported."""
        schema = self.maybe_schema()
        if schema is None:
            raise IRError(f"no schema matches node {self.kind}")
        return schema

    def maybe_schema(self) -> Any:
        if HOOKS.schema_of is None:
            raise IRError("node.schema() needs an operator registry: import ts_schema")
        return HOOKS.schema_of(self)

    def matches(self, schema_text: str) -> bool:
        """Whether this node is an instance of the operator with this schema text."""
        if HOOKS.matches is None:
            raise IRError("node.matches() needs an operator registry: import ts_schema")
        return HOOKS.matches(self, schema_text)

    def has_side_effects(self) -> bool:
        """Whether removing or reordering this node could change observable behaviour: what the
        operator registry says (its `Tag.side_effect`); needs ts_schema imported."""
        hook = HOOKS.has_side_effects
        if hook is None:
            raise IRError("node.has_side_effects() needs an operator registry: import ts_schema")
        return hook(self)

    def __str__(self) -> str:
        from .printer import print_node

        return print_node(self)

    def __repr__(self) -> str:
        outs = ", ".join(f"%{o.debug_name}" for o in self.outputs)
        ins = ", ".join(f"%{i.debug_name}" for i in self.inputs)
        return f"<Node {outs} = {self.kind}({ins})>"


class _Hooks:
    """Slots that packages above ts-ir fill in (the registry, the runtime)."""

    __slots__ = ("has_side_effects", "inserter", "matches", "schema_of")

    def __init__(self) -> None:
        self.schema_of: Callable[[Node], Any] | None = None
        self.matches: Callable[[Node, str], bool] | None = None
        self.has_side_effects: Callable[[Node], bool] | None = None
        self.inserter: Callable[..., Value] | None = None


HOOKS = _Hooks()


class Block:
    """A list of nodes with inputs (the `prim::Param` outputs) and outputs (the `prim::Return` inputs)."""

    __slots__ = ("graph", "owning_node", "param_node", "return_node")

    def __init__(self, graph: Graph, owning_node: Node | None) -> None:
        self.graph = graph
        self.owning_node = owning_node
        self.param_node = Node(graph, PARAM)
        self.return_node = Node(graph, RETURN)
        for n, pos in ((self.param_node, _LOWER), (self.return_node, _UPPER)):
            n.owning_block = self
            n.topo_position = pos
        ret = self.return_node
        ret.next = ret.prev = ret
        # the param node is outside the circular list but counts as "in a block"
        self.param_node.next = ret
        self.param_node.prev = ret

    @property
    def inputs(self) -> list[Value]:
        return self.param_node.outputs

    @property
    def outputs(self) -> list[Value]:
        return self.return_node.inputs

    @property
    def owning_block(self) -> Block | None:
        """The block enclosing this block's owning node, if any."""
        return None if self.owning_node is None else self.owning_node.owning_block

    def nodes(self) -> Iterator[Node]:
        """The nodes in order; destroying or moving the node just yielded is safe."""
        ret = self.return_node
        n = ret.next
        while n is not ret:
            assert n is not None
            nxt = n.next
            yield n
            n = nxt
            if n is None:  # the yielded node was moved out of this block
                return

    def nodes_reversed(self) -> Iterator[Node]:
        ret = self.return_node
        n = ret.prev
        while n is not ret:
            assert n is not None
            prv = n.prev
            yield n
            n = prv
            if n is None:
                return

    def is_empty(self) -> bool:
        return self.return_node.next is self.return_node

    def add_input(self, name: str | None = None, type: Type | None = None) -> Value:
        v = self.param_node.add_output(type)
        if name:
            v.set_debug_name(name)
        return v

    def insert_input(self, i: int, name: str | None = None, type: Type | None = None) -> Value:
        v = self.param_node.insert_output(i, type)
        if name:
            v.set_debug_name(name)
        return v

    def erase_input(self, i: int) -> None:
        self.param_node.erase_output(i)

    def register_output(self, v: Value) -> int:
        self.return_node.add_input(v)
        return len(self.return_node.inputs) - 1

    def insert_output(self, i: int, v: Value) -> None:
        self.return_node.insert_input(i, v)

    def erase_output(self, i: int) -> None:
        self.return_node.remove_input(i)

    def replace_output(self, i: int, v: Value) -> None:
        self.return_node.replace_input(i, v)

    def permute_outputs(self, order: Sequence[int]) -> None:
        self.return_node.permute_inputs(order)

    def permute_inputs(self, order: Sequence[int]) -> None:
        """Reorder the block's inputs: new input i is old input `order[i]`."""
        outs = self.param_node.outputs
        if sorted(order) != list(range(len(outs))):
            raise IRError(f"{list(order)} is not a permutation of the block inputs")
        self.param_node.outputs = [outs[j] for j in order]
        for i, v in enumerate(self.param_node.outputs):
            v.offset = i

    def append_node(self, n: Node) -> Node:
        return n.insert_before(self.return_node)

    def prepend_node(self, n: Node) -> Node:
        return n.insert_after(self.param_node)

    def clone_from(self, src: Block, value_map: Callable[[Value], Value]) -> None:
        """Append copies of `src`'s inputs, nodes and outputs; `value_map` maps free values. O(nodes)."""
        local: dict[Value, Value] = {}

        def env(v: Value) -> Value:
            mapped = local.get(v)
            return mapped if mapped is not None else value_map(v)

        for v in src.inputs:
            local[v] = self.add_input().copy_metadata(v)
        for node in src.nodes():
            new = self.graph.create_clone(node, env)
            self.append_node(new)
            for old_out, new_out in zip(node.outputs, new.outputs, strict=True):
                local[old_out] = new_out
        for v in src.outputs:
            self.register_output(env(v))

    def _reindex_topology(self) -> None:
        pos = 0
        for n in self.nodes():
            n.topo_position = pos
            pos += _INTERVAL

    def _destroy(self) -> None:
        self.return_node.remove_all_inputs()
        for n in list(self.nodes_reversed()):
            n.destroy()
        for v in self.param_node.outputs:
            self.graph._free_value(v)
        self.param_node.outputs = []


class Graph:
    """An SSA graph: a top-level block, unique value names, and an insertion point."""

    __slots__ = ("_insert_point", "_name_base_suffix", "_next_unique", "_unique_names", "block")

    def __init__(self) -> None:
        self._next_unique = 0
        self._unique_names: dict[str, Value] = {}
        self._name_base_suffix: dict[str, int] = {}
        self.block = Block(self, None)
        self._insert_point: Node = self.block.return_node

    # -- the top-level block

    @property
    def inputs(self) -> list[Value]:
        return self.block.inputs

    @property
    def outputs(self) -> list[Value]:
        return self.block.outputs

    @property
    def param_node(self) -> Node:
        return self.block.param_node

    @property
    def return_node(self) -> Node:
        return self.block.return_node

    def nodes(self) -> Iterator[Node]:
        return self.block.nodes()

    def all_nodes(self) -> Iterator[Node]:
        """Every node in every nested block, in program order (not subgraph attributes)."""
        stack: list[Iterator[Node]] = [self.block.nodes()]
        while stack:
            for n in stack[-1]:
                yield n
                if n.blocks:
                    stack.append(_chain_blocks(n.blocks))
                    break
            else:
                stack.pop()

    def add_input(self, name: str | None = None, type: Type | None = None) -> Value:
        return self.block.add_input(name, type)

    def insert_input(self, i: int, name: str | None = None, type: Type | None = None) -> Value:
        return self.block.insert_input(i, name, type)

    def erase_input(self, i: int) -> None:
        self.block.erase_input(i)

    def register_output(self, v: Value) -> int:
        return self.block.register_output(v)

    def erase_output(self, i: int) -> None:
        self.block.erase_output(i)

    # -- naming

    def _fresh_unique(self) -> int:
        u = self._next_unique
        self._next_unique = u + 1
        return u

    def _free_value(self, v: Value) -> None:
        name = v._debug_name
        if name is not None and self._unique_names.get(name) is v:
            del self._unique_names[name]
        v._debug_name = None

    def _set_debug_name(self, value: Value, name: str | None) -> None:
        names = self._unique_names
        if value._debug_name is not None:
            if names.get(value._debug_name) is value:
                del names[value._debug_name]
            value._debug_name = None
        if not name:
            return
        if not is_valid_name(name):
            raise IRError(
                f"invalid value name {name!r}: names are word characters and dots, and not a number"
            )
        owner = names.get(name)
        if owner is not None:
            base, suffix = name, 1
            stem, dot, digits = name.rpartition(".")
            if dot and digits.isdigit():
                base, suffix = stem, int(digits)
            known = self._name_base_suffix.get(base)
            if known is not None:
                suffix = max(suffix, known + 1)
            while True:
                replacement = f"{base}.{suffix}"
                suffix += 1
                if replacement not in names:
                    break
            self._name_base_suffix[base] = suffix
            owner._debug_name = None
            owner._debug_name = replacement
            names[replacement] = owner
        names[name] = value
        value._debug_name = name

    # -- creating nodes

    def create(self, kind: str, inputs: Iterable[Value] = (), num_outputs: int = 1) -> Node:
        """A new node, not yet in any block, with `num_outputs` Tensor-typed outputs."""
        n = Node(self, kind)
        for v in inputs:
            n.add_input(v)
        for _ in range(num_outputs):
            n.add_output()
        return n

    def create_clone(
        self, node: Node, value_map: Callable[[Value], Value], *, copy_blocks: bool = True
    ) -> Node:
        """A copy of `node` (from any graph) with inputs mapped through `value_map`."""
        n = Node(self, node.kind)
        for v in node.inputs:
            n.add_input(value_map(v))
        for o in node.outputs:
            n.add_output().copy_metadata(o)
        n.copy_attributes(node)
        n.source_range = node.source_range
        if copy_blocks:
            for b in node.blocks:
                n.add_block().clone_from(b, value_map)
        return n

    def create_constant_node(self, value: Any, type: Type | None = None) -> Node:
        """A `prim::Constant` node for a Python value (see `insert_constant`)."""
        from .constants import make_constant

        return make_constant(self, value, type)

    def create_tuple(self, values: Sequence[Value], tuple_type: TupleType | None = None) -> Node:
        n = self.create(prim.TupleConstruct, values)
        n.output().set_type(tuple_type or TupleType([v.type for v in values]))
        return n

    def create_tuple_unpack(self, v: Value) -> Node:
        if not isinstance(v.type, TupleType):
            raise IRError(f"prim::TupleUnpack needs a tuple, got {v.type}")
        n = self.create(prim.TupleUnpack, [v], 0)
        for t in v.type.elements:
            n.add_output(t)
        return n

    def create_tuple_index(self, tup: Value, index: Value, output_type: Type) -> Node:
        n = self.create(prim.TupleIndex, [tup, index])
        n.output().set_type(output_type)
        return n

    def create_list(self, element_type: Type, values: Sequence[Value]) -> Node:
        n = self.create(prim.ListConstruct, values)
        n.output().set_type(ListType(element_type))
        return n

    def create_list_unpack(self, v: Value, size: int) -> Node:
        if not isinstance(v.type, ListType):
            raise IRError(f"prim::ListUnpack needs a list, got {v.type}")
        n = self.create(prim.ListUnpack, [v], 0)
        for _ in range(size):
            n.add_output(v.type.element)
        return n

    def create_dict(
        self, key_type: Type, value_type: Type, keys: Sequence[Value], values: Sequence[Value]
    ) -> Node:
        from .types import DictType

        n = self.create(
            prim.DictConstruct, [x for kv in zip(keys, values, strict=True) for x in kv]
        )
        n.output().set_type(DictType(key_type, value_type))
        return n

    def create_none(self) -> Node:
        n = self.create(CONSTANT)
        n.output().set_type(NoneType.get())
        return n

    def create_uninitialized(self, type: Type) -> Node:
        n = self.create(prim.Uninitialized)
        n.output().set_type(type)
        return n

    def create_with_subgraph(self, kind: str) -> Node:
        """A node of `kind` holding an empty `Subgraph` attribute, with no outputs."""
        n = self.create(kind, (), 0)
        n.g_("Subgraph", Graph())
        return n

    def create_get_attr(self, obj: Value, field: str, type: Type) -> Node:
        n = self.create(prim.GetAttr, [obj])
        n.s_("name", field)
        n.output().set_type(type)
        return n

    def create_set_attr(self, obj: Value, field: str, new_value: Value) -> Node:
        n = self.create(prim.SetAttr, [obj, new_value], 0)
        n.s_("name", field)
        return n

    def create_unchecked_cast(self, v: Value, type: Type) -> Node:
        n = self.create(prim.unchecked_cast, [v])
        n.output().set_type(type)
        return n

    def create_isinstance(self, v: Value, types: Sequence[Type]) -> Node:
        n = self.create(prim.isinstance, [v])
        n.tys_("types", types)
        n.output().set_type(BoolType.get())
        return n

    # -- inserting nodes

    @property
    def insert_point(self) -> Node:
        """New nodes go just before this node."""
        return self._insert_point

    def set_insert_point(self, where: Node | Block) -> None:
        """Insert before node `where`, or at the end of block `where`."""
        if isinstance(where, Block):
            where = where.return_node
        if where.graph is not self:
            raise IRError("the insertion point must be in this graph")
        self._insert_point = where

    def insert_node(self, n: Node) -> Node:
        """Insert a newly created node at the insertion point."""
        return n.insert_before(self._insert_point)

    def append_node(self, n: Node) -> Node:
        return self.block.append_node(n)

    def prepend_node(self, n: Node) -> Node:
        return self.block.prepend_node(n)

    def insert_constant(
        self, value: Any, type: Type | None = None, *, source_range: Any = None
    ) -> Value:
        """Insert a `prim::Constant` for a Python value at the insertion point.

        ints, floats, bools, complex numbers, strings, None, devices, tensors,
        and lists and tuples of these are representable.
        """
        n = self.create_constant_node(value, type)
        n.source_range = source_range
        self.insert_node(n)
        return n.output()

    def insert(
        self, kind: str, args: Sequence[Any] = (), kwargs: Mapping[str, Any] | None = None
    ) -> Value:
        """Insert an operator call, matching its schema and making constants of Python values.

        `graph.insert(aten.add, [v, 3])`; needs ts_schema imported.
        """
        if HOOKS.inserter is None:
            raise IRError("graph.insert needs an operator registry: import ts_schema")
        return HOOKS.inserter(self, kind, list(args), dict(kwargs or {}))

    @contextlib.contextmanager
    def inserting_before(self, where: Node | Block) -> Iterator[None]:
        """Temporarily insert before node `where` (or at the end of block `where`)."""
        saved = self._insert_point
        self.set_insert_point(where)
        try:
            yield
        finally:
            self._insert_point = saved

    @contextlib.contextmanager
    def inserting_after(self, node: Node) -> Iterator[None]:
        block = node.owning_block
        if block is None or node.next is None:
            raise IRError("inserting_after: the node is not in a block")
        saved = self._insert_point
        # after the parameter node means before the block's first node
        self.set_insert_point(block.return_node.next if node.kind is PARAM else node.next)  # type: ignore[arg-type]
        try:
            yield
        finally:
            self._insert_point = saved

    # -- whole-graph operations

    def copy(self) -> Graph:
        """A deep copy (subgraph attributes included). O(nodes)."""
        new = Graph()
        env: dict[Value, Value] = {}
        for v in self.inputs:
            env[v] = new.add_input().copy_metadata(v)

        def value_map(v: Value) -> Value:
            try:
                return env[v]
            except KeyError:
                raise IRError(
                    f"value %{v.debug_name} is used but not defined in the copied graph"
                ) from None

        for node in self.nodes():
            n = new.create_clone(node, value_map)
            new.append_node(n)
            for a, b in zip(node.outputs, n.outputs, strict=True):
                env[a] = b
        for v in self.outputs:
            new.register_output(value_map(v))
        return new

    def renumber_values(self) -> None:
        """Number the values 0, 1, 2, ... in definition order, as TorchScript's Canonicalize.

        Order: graph inputs, then each node's outputs followed by its blocks'
        inputs and nodes. Names are untouched; only values printed by number
        change. O(values).
        """
        counter = 0

        def number(values: list[Value]) -> None:
            nonlocal counter
            for v in values:
                v.unique = counter
                counter += 1

        def walk(block: Block) -> None:
            number(block.inputs)
            for n in block.nodes():
                number(n.outputs)
                for b in n.blocks:
                    walk(b)

        walk(self.block)
        self._next_unique = counter

    def lint(self) -> None:
        """Check every IR invariant; raise `LintError` naming the broken one."""
        from .lint import lint_graph

        lint_graph(self)

    def __str__(self) -> str:
        from .printer import print_graph

        return print_graph(self)

    def to_string(self, *, source_locations: bool = True) -> str:
        from .printer import print_graph

        return print_graph(self, source_locations=source_locations)

    def to_dot(self) -> str:
        from .graphviz import graph_to_dot

        return graph_to_dot(self)

    def __repr__(self) -> str:
        return f"<Graph with {len(self.inputs)} inputs, {len(self.outputs)} outputs>"


def _chain_blocks(blocks: list[Block]) -> Iterator[Node]:
    # only the blocks' own nodes: `all_nodes` pushes deeper blocks itself
    for b in blocks:
        yield from b.nodes()


def _is_name_char(ch: str) -> bool:
    return ch == "." or ch.isalnum() or ch == "_"


def is_valid_name(name: str) -> bool:
    """Value names are word characters and dots, and not a plain number."""
    if not name or name.isdigit():
        return False
    return all(_is_name_char(ch) for ch in name)


def value_name_for(text: str) -> str:
    """A valid value name made from any text, such as an attribute's name (`block1-0`, which
    a module container may hold): other characters become `_`, a leading digit gets `_`."""
    name = "".join(ch if _is_name_char(ch) else "_" for ch in text)
    return f"_{name}" if not name or name[0].isdigit() else name
