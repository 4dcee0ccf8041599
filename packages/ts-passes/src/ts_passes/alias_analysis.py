"""`AliasDb`: which values may share memory, and which nodes write to it.

TorchScript's "Handling Mutability", as `torch/csrc/jit/ir/alias_analysis.cpp`
implements it:

- Every value of a mutable type (tensors, lists, dicts, objects, `Any`, and
  tuples, optionals, unions and futures holding those) has an element in the
  memory DAG (`memory_dag.py`).
- Each mutable type has a *wildcard* element: the value may be anything of
  that type the program can reach. Graph inputs, values that enter a
  container, values an unknown operator touches, and extracted elements
  (`TupleUnpack`, `__getitem__` with `t(*)`) are wildcards; the wildcard of a
  container type contains the wildcards of its element types.
- Operators say what they do through their schema's alias annotations:
  `Tensor(a)` output points to the `Tensor(a)` input (a view), `(a!)` is a
  write, `(a -> *)` sends the input to the wildcard set, `(*)` is a wildcard
  output, no annotation is a fresh value. CONSERVATIVE operators and nodes
  without a schema may write to everything their inputs contain and produce
  wildcards.
- The kinds whose schema does not say (containers, extractors, `If`, `Loop`,
  subgraphs, fork/wait, attributes, calls, norms) follow a rule of
  `alias_rules.ALIAS_RULES`, and kinds tagged `Tag.creates_fresh` make fresh
  values.

The queries (`may_alias`, `writes_to_alias`, `has_writers`, ...) are O(1)
dictionary and set operations on cached memory locations once built.
`move_after_topologically_valid` / `move_before_topologically_valid` move a
node, dragging its dependency chain along as TorchScript's `tryMove` does, or
return False and change nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ts_ir import (
    AnyType,
    AwaitType,
    Block,
    ClassType,
    DictType,
    FutureType,
    Graph,
    ListType,
    Node,
    NoneType,
    OptionalType,
    TensorType,
    TupleType,
    Type,
    UnionType,
    Value,
    prim,
)
from ts_schema import AliasAnalysisKind, registry

from .alias_rules import conservative, rule_for
from .errors import AliasAnalysisError
from .jit_log import PassLogger
from .memory_dag import Element, MemoryDAG

log = PassLogger(__name__)

_ANY = AnyType.get()

# -- what types are mutable, and which wildcard set they share


def _alias_types(t: Type, cache: dict[Type, tuple[Type, ...] | None]) -> tuple[Type, ...] | None:
    """The mutable types a value of type `t` may be (PyTorch's `mapTypeToAliasTypeSet`)."""
    try:
        return cache[t]
    except KeyError:
        pass
    except TypeError:  # an unhashable type: compute without caching
        return _compute_alias_types(t, cache)
    result = _compute_alias_types(t, cache)
    cache[t] = result
    return result


def _unshaped(t: Type) -> Type:
    if isinstance(t, TensorType):
        return TensorType.get()
    contained = t.contained_types()
    if not contained:
        return t
    return t.with_contained([_unshaped(c) for c in contained])


def _compute_alias_types(
    t: Type, cache: dict[Type, tuple[Type, ...] | None]
) -> tuple[Type, ...] | None:
    if isinstance(t, TensorType):
        return (TensorType.get(),)
    if isinstance(t, (ListType, DictType)):
        return (_unshaped(t),)
    if isinstance(t, ClassType):
        return (t,)
    if isinstance(t, AnyType):
        return (t,)
    if isinstance(t, OptionalType):
        return _alias_types(t.element, cache)
    if isinstance(t, UnionType):
        out: list[Type] = []
        for member in t.types:
            inner = _alias_types(member, cache)
            if inner:
                out.extend(x for x in inner if x not in out)
        return tuple(out) or None
    if isinstance(t, (FutureType, AwaitType)):
        inner = _alias_types(t.element, cache)
        if inner is None:
            return None
        return (type(t)(_single(inner)),)
    if isinstance(t, TupleType):
        elems: list[Type] = []
        for e in t.elements:
            inner = _alias_types(e, cache)
            if inner:
                elems.extend(inner)
        return (TupleType(elems),) if elems else None
    return None


def _single(types: tuple[Type, ...]) -> Type:
    return types[0] if len(types) == 1 else UnionType(sorted(types, key=str))


def _contained_types(t: Type) -> Iterable[Type]:
    if isinstance(t, ClassType):
        return t.attributes.values()
    return t.contained_types()


def _must_be_none(v: Value) -> bool:
    if isinstance(v.type, NoneType):
        return True
    n = v.node
    return (
        n.kind is prim.Constant
        and isinstance(v.type, OptionalType)
        and not n.has_attribute("value")
        and not n.has_attribute("name")
    )


class AliasDb:
    """Alias and write information for one graph. Build it, query it, keep it in sync.

    Passes that change the graph while holding an `AliasDb` tell it about new
    values (`create_value`, `copy_value`, `replace_with_new_value`) and removed
    writes (`erase_writes`), as TorchScript's passes do, or build a new one.
    """

    def __init__(self, graph: Graph, *, is_frozen: bool = False) -> None:
        self.graph = graph
        self.is_frozen = is_frozen
        self.dag = MemoryDAG(self._widen)
        self._elements: dict[Value, Element] = {}
        self._wildcards: dict[Type, Element] = {}
        self._any_wildcard: Element | None = None
        self._wildcard_values: list[Value] = []
        self._type_cache: dict[Type, tuple[Type, ...] | None] = {}
        self._pending_writes: list[tuple[Node, Value, bool]] = []
        self._writes_all_wildcards: list[Node] = []
        self._write_index: dict[Node, set[int]] = {}
        self._written: set[int] = set()
        self._build()

    def _widen(self, e: Element) -> Element | None:
        """The wildcard that an element with too many memory locations is joined to."""
        for v in e.values:
            types = _alias_types(v.type, self._type_cache)
            if types is not None:
                w = self._wildcard_for(types)
                return None if w is e else w
        return None

    # ------------------------------------------------------------------ types

    def is_mutable_type(self, v: Value | Type) -> bool:
        """Whether values of this type (or this value) have an element: may be written or aliased."""
        t = v.type if isinstance(v, Value) else v
        return _alias_types(t, self._type_cache) is not None

    # ---------------------------------------------------------------- building

    def _build(self) -> None:
        for v in self.graph.inputs:
            self._set_wildcard(v)
        self._analyze_block(self.graph.block)
        self._resolve_wildcards()
        self._build_write_index()
        log.debug(lambda: self.dump())

    def _analyze_block(self, block: Block) -> None:
        for node in block.nodes():
            self._analyze(node)

    def _analyze(self, node: Node) -> None:
        # the special kinds' rules are a table (alias_rules.py); the rest follow their schema
        rule_for(node)(self, node)

    def _analyze_from_schema(self, node: Node) -> None:
        op = registry.operator_for(node)
        if op is None or op.alias_analysis in (
            AliasAnalysisKind.CONSERVATIVE,
            AliasAnalysisKind.INTERNAL_SPECIAL_CASE,
        ):
            conservative(self, node)
            return
        if op.alias_analysis is AliasAnalysisKind.PURE_FUNCTION:
            for v in node.outputs:
                self._give_fresh_alias(v)
            return
        schema = op.schema
        formal_to_actual: dict[frozenset[str], Value] = {}
        for arg, actual in zip(schema.arguments, node.inputs, strict=False):
            formal = arg.alias_info
            if formal is None or not self.is_mutable_type(actual):
                continue
            if formal.contained_types and not formal.before_set:
                formal = formal.contained_types[0]
            before = formal.before_set
            if before in formal_to_actual:
                continue
            formal_to_actual[before] = actual
            if formal.is_write:
                self._register_write(actual, node)
            if formal.is_wildcard_after:
                self._set_wildcard(actual)
        returns = schema.returns
        for i, actual in enumerate(node.outputs):
            formal = returns[i].alias_info if i < len(returns) else None
            if formal is None:
                self._give_fresh_alias(actual)
                continue
            if not self.is_mutable_type(actual):
                continue
            if formal.is_wildcard_before:
                self._set_wildcard(actual)
                continue
            before = formal.before_set
            if not before:
                self._give_fresh_alias(actual)
                continue
            for name in before:
                bound = formal_to_actual.get(frozenset((name,)))
                if bound is None:
                    bound = next((v for k, v in formal_to_actual.items() if name in k), None)
                if bound is None:
                    if len(before) == 1:
                        self._give_fresh_alias(actual)
                    continue
                self._make_pointer_to(actual, bound)
            if formal.is_write:
                self._register_write(actual, node)

    # ------------------------------------------------------------- primitives

    def _give_fresh_alias(self, v: Value, *, contained_wildcards: bool = True) -> None:
        types = _alias_types(v.type, self._type_cache)
        if types is None or v in self._elements:
            return
        e = self.dag.make_fresh(v)
        self._elements[v] = e
        if contained_wildcards:
            self._add_contained_wildcards(e, types)

    def _add_contained_wildcards(self, e: Element, types: tuple[Type, ...]) -> None:
        if len(types) > 1:
            for t in types:
                w = self._wildcard_for_alias_type(t)
                if w is not e:
                    self.dag.make_pointer_to(e, w)
            return
        for t in types:
            for inner in _contained_types(t):
                inner_types = _alias_types(inner, self._type_cache)
                if inner_types is not None:
                    self.dag.add_to_contained(self._wildcard_for(inner_types), e)

    def _element(self, v: Value) -> Element:
        e = self._elements.get(v)
        if e is None:
            self._give_fresh_alias(v)
            e = self._elements[v]
        return e

    def _make_pointer_to(self, source: Value, target: Value) -> None:
        if _must_be_none(source) or _must_be_none(target):
            self._give_fresh_alias(source)
            self._give_fresh_alias(target)
            return
        ms, mt = self.is_mutable_type(source), self.is_mutable_type(target)
        if ms != mt or not ms or source is target:
            return
        self.dag.make_pointer_to(self._element(source), self._element(target))

    def _add_to_contained(self, inner: Value, container: Value) -> None:
        if not self.is_mutable_type(inner):
            return
        self.dag.add_to_contained(self._element(inner), self._element(container))

    def _wildcard_for(self, types: tuple[Type, ...]) -> Element:
        return self._wildcard_for_alias_type(_single(types), types)

    def _wildcard_for_alias_type(self, key: Type, types: tuple[Type, ...] | None = None) -> Element:
        w = self._wildcards.get(key)
        if w is not None:
            return w
        w = self.dag.make_fresh()
        self._wildcards[key] = w
        if isinstance(key, AnyType):
            # `Any` may be a value of any mutable type: it reaches every other wildcard
            self._any_wildcard = w
            for other in list(self._wildcards.values()):
                if other is not w:
                    self.dag.make_pointer_to(w, other)
        elif self._any_wildcard is not None:
            self.dag.make_pointer_to(self._any_wildcard, w)
        self._add_contained_wildcards(w, types if types is not None else (key,))
        return w

    def _set_wildcard(self, v: Value) -> Element | None:
        types = _alias_types(v.type, self._type_cache)
        if types is None:
            return None
        w = self._wildcard_for(types)
        self._element(v)
        self._wildcard_values.append(v)
        return w

    def _register_write(self, v: Value, node: Node, *, contained: bool = False) -> None:
        if self.is_mutable_type(v):
            self._element(v)
            self._pending_writes.append((node, v, contained))

    def _resolve_wildcards(self) -> None:
        """Every memory location of a wildcard value now points to its type's wildcard."""
        dag = self.dag
        edges: list[tuple[Element, Element]] = []
        for v in self._wildcard_values:
            w = self._wildcard_for(_alias_types(v.type, self._type_cache))  # type: ignore[arg-type]
            for loc in dag.memory_locations(self._elements[v]):
                if loc != w.index:
                    edges.append((dag.elements[loc], w))
        for source, target in edges:
            dag.make_pointer_to(source, target)
        self._wildcard_values = []

    def _build_write_index(self) -> None:
        dag = self.dag
        index = self._write_index
        for node, v, contained in self._pending_writes:
            e = self._elements[v]
            locs = index.setdefault(node, set())
            if contained:
                dag.collect_contained(e, locs)
            else:
                locs |= dag.memory_locations(e)
        for node in self._writes_all_wildcards:
            index.setdefault(node, set()).update(w.index for w in self._wildcards.values())
        self._pending_writes = []
        self.rebuild_written_locations()

    def rebuild_written_locations(self) -> None:
        """Recompute the set of written memory locations (after `erase_writes`)."""
        written: set[int] = set()
        for locs in self._write_index.values():
            written |= locs
        self._written = written

    # ------------------------------------------------------------------ queries

    def element_of(self, v: Value) -> Element | None:
        return self._elements.get(v)

    def _known(self, v: Value) -> Element | None:
        """The element of a mutable value; raises if the database never saw it."""
        e = self._elements.get(v)
        if e is None and self.is_mutable_type(v):
            raise AliasAnalysisError(
                f"alias analysis has no element for %{v.debug_name} ({v.type}): it was created "
                "after the AliasDb was built; tell the AliasDb about it or build a new one"
            )
        return e

    def may_alias(self, a: Value | Iterable[Value], b: Value | Iterable[Value]) -> bool:
        """Whether `a` and `b` (values, or sets of values) may share memory."""
        if isinstance(a, Value) and isinstance(b, Value):
            ea, eb = self._known(a), self._known(b)
            if ea is None or eb is None:
                return False
            return self.dag.may_alias(ea, eb)
        la = self._locations_of(a)
        if not la:
            return False
        return not la.isdisjoint(self._locations_of(b))

    def _locations_of(self, values: Value | Iterable[Value]) -> set[int]:
        out: set[int] = set()
        for v in [values] if isinstance(values, Value) else values:
            e = self._elements.get(v)
            if e is not None:
                out |= self.dag.memory_locations(e)
        return out

    def may_contain_alias(self, a: Value | Iterable[Value], b: Value | Iterable[Value]) -> bool:
        """Whether `a` or anything it contains may alias `b` or anything it contains."""
        ea = self._elements_of(a)
        if not ea:
            return False
        return self.dag.may_contain_alias(ea, self._elements_of(b))

    def _elements_of(self, values: Value | Iterable[Value]) -> list[Element]:
        out = []
        for v in [values] if isinstance(values, Value) else values:
            e = self._known(v)
            if e is not None:
                out.append(e)
        return out

    def get_writes(self, node: Node) -> set[int]:
        """Memory locations `node` (or anything in its blocks) may write."""
        writes: set[int] = set()
        for n in _with_nested(node):
            w = self._write_index.get(n)
            if w:
                writes |= w
        return writes

    def get_reads(self, node: Node) -> set[int]:
        """Memory locations `node` (or anything in its blocks) may read."""
        reads: set[int] = set()
        dag = self.dag
        for n in _with_nested(node):
            for v in n.inputs:
                e = self._elements.get(v)
                if e is not None:
                    dag.collect_contained(e, reads)
        return reads

    def writes_to_alias(self, node: Node, values: Value | Iterable[Value]) -> bool:
        """Whether `node` may write to memory that one of `values` may point to."""
        writes = self.get_writes(node)
        if not writes:
            return False
        return not writes.isdisjoint(self._locations_of(values))

    def is_mutable(self, node: Node) -> bool:
        """Whether `node` may write to one of its inputs."""
        return self.writes_to_alias(node, node.inputs)

    def has_writers(self, x: Value | Node | Iterable[Value]) -> bool:
        """Whether any node may write to the memory of a value (or a node's inputs and outputs)."""
        if isinstance(x, Node):
            return self.has_writers(x.inputs) or self.has_writers(x.outputs)
        values = [x] if isinstance(x, Value) else x
        written = self._written
        if not written:
            return False
        for v in values:
            if _must_be_none(v):
                continue
            e = self._elements.get(v)
            if e is not None and not written.isdisjoint(self.dag.memory_locations(e)):
                return True
        return False

    def has_input_writers(self, node: Node) -> bool:
        return self.has_writers(node.inputs)

    def has_output_writers(self, node: Node) -> bool:
        return self.has_writers(node.outputs)

    def writes_to_wildcard(self, node: Node) -> bool:
        writes = self._write_index.get(node)
        if not writes:
            return False
        return any(w.index in writes for w in self._wildcards.values())

    def wildcard_for(self, t: Type) -> Element | None:
        types = _alias_types(t, self._type_cache)
        if types is None:
            return None
        return self._wildcards.get(_single(types))

    def may_alias_wildcard(self, values: Value | Iterable[Value]) -> bool:
        """Whether a value may be something the analysis cannot see (its type's wildcard)."""
        for v in [values] if isinstance(values, Value) else values:
            w = self.wildcard_for(v.type)
            e = self._elements.get(v)
            if w is not None and e is not None and self.dag.may_alias(e, w):
                return True
        return False

    def escapes_scope(self, values: Iterable[Value]) -> bool:
        values = list(values)
        return (
            self.may_contain_alias(self.graph.inputs, values)
            or self.may_contain_alias(self.graph.outputs, values)
            or self.may_alias_wildcard(values)
        )

    def safe_to_change_aliasing_relationship(
        self, a: Value | Iterable[Value], b: Value | Iterable[Value]
    ) -> bool:
        """Whether making `a` and `b` alias (or stop aliasing) is unobservable: neither is
        written, and they do not both escape the graph."""
        la = [a] if isinstance(a, Value) else list(a)
        lb = [b] if isinstance(b, Value) else list(b)
        if self.has_writers(la) or self.has_writers(lb):
            return False
        return not (self.escapes_scope(la) and self.escapes_scope(lb))

    # ---------------------------------------------------------- keeping in sync

    def create_value(self, v: Value) -> None:
        """Give a new value a fresh element of its own."""
        if not self.is_mutable_type(v):
            return
        e = self.dag.make_fresh(v)
        self._elements[v] = e

    def copy_value(self, source: Value, target: Value) -> None:
        """`target` now stands for the same memory as `source`."""
        e = self._elements.get(source)
        if e is None or not self.is_mutable_type(target):
            return
        self._elements[target] = e
        e.values.append(target)

    def replace_with_new_value(self, existing: Value, new: Value) -> None:
        """`new` takes over the element of `existing`, which is forgotten."""
        e = self._elements.pop(existing, None)
        if e is None:
            return
        self._elements[new] = e
        e.values = [new]

    def erase_writes(self, node: Node) -> None:
        """Forget the writes of a node that is being destroyed."""
        if self._write_index.pop(node, None) is not None:
            self.rebuild_written_locations()

    # -------------------------------------------------------------------- moves

    def move_after_topologically_valid(self, n: Node, move_point: Node) -> bool:
        """Move `n` (and what must move with it) just after `move_point`; False if invalid."""
        return self._try_move(n, move_point, after=True, dry_run=False)

    def move_before_topologically_valid(self, n: Node, move_point: Node) -> bool:
        """Move `n` (and what must move with it) just before `move_point`; False if invalid."""
        return self._try_move(n, move_point, after=False, dry_run=False)

    def could_move_after_topologically(self, n: Node, move_point: Node) -> bool:
        return self._try_move(n, move_point, after=True, dry_run=True)

    def could_move_before_topologically(self, n: Node, move_point: Node) -> bool:
        return self._try_move(n, move_point, after=False, dry_run=True)

    def _try_move(self, to_move: Node, move_point: Node, *, after: bool, dry_run: bool) -> bool:
        if to_move.owning_block is not move_point.owning_block or to_move.owning_block is None:
            return False
        if to_move is move_point:
            return True
        backward = to_move.is_after(move_point)
        cur = to_move.prev if backward else to_move.next
        on_move_side = (not after and to_move.is_before(move_point)) or (
            after and to_move.is_after(move_point)
        )
        if on_move_side and cur is move_point:
            return True  # already where it should be: no alias query needed
        working = _WorkingSet(to_move, self)
        if to_move.has_side_effects() or (not on_move_side and move_point.has_side_effects()):
            return False
        while cur is not move_point:
            assert cur is not None
            if cur.has_side_effects():
                return False
            if working.depends_on(cur):
                working.add(cur)
            cur = cur.prev if backward else cur.next
        split = on_move_side
        if split:
            working.erase_mover()
        if working.depends_on(move_point):
            return False
        if dry_run:
            return True
        if split:
            _move(to_move, move_point, after)
            point = move_point
            for n in working.nodes:
                _move(n, point, not after)
                point = n
        else:
            _move(to_move, move_point, after)
            point = to_move
            for n in working.nodes:
                _move(n, point, after)
                point = n
        log.debug(
            "moved %s %s %s with %d dependent nodes",
            to_move.kind,
            "after" if after else "before",
            move_point.kind,
            len(working.nodes),
        )
        return True

    # ------------------------------------------------------------------ debug

    def dump(self) -> str:
        """The elements, their edges and the writes, as TorchScript's `AliasDb::toString`."""
        names = {w.index: f"WILDCARD for {t}" for t, w in self._wildcards.items()}

        def name(i: int) -> str:
            if i in names:
                return names[i]
            e = self.dag.elements[i]
            return ", ".join("%" + v.debug_name for v in e.values) or f"element {i}"

        lines = ["===1. GRAPH===", str(self.graph), "===2. ALIAS DB==="]
        for e in self.dag.elements:
            if e.points_to:
                lines.append(f"{name(e.index)} points to: " + ", ".join(map(name, e.points_to)))
            if e.contained:
                lines.append(f"{name(e.index)} contains: " + ", ".join(map(name, e.contained)))
        lines.append("===3. Writes===")
        for node, locs in self._write_index.items():
            lines.append(f"{node.kind}: " + ", ".join(name(i) for i in sorted(locs)))
        return "\n".join(lines)


def _with_nested(node: Node) -> Iterator[Node]:
    yield node
    if node.blocks:
        stack = list(node.blocks)
        while stack:
            b = stack.pop()
            for n in b.nodes():
                yield n
                stack.extend(n.blocks)


def _move(n: Node, point: Node, after: bool) -> None:
    if after:
        n.move_after(point)
    else:
        n.move_before(point)


def _same_block_ancestor(target: Node, block: Block | None) -> Node | None:
    cur: Node | None = target
    while cur is not None and cur.owning_block is not block:
        owner_block = cur.owning_block
        cur = owner_block.owning_node if owner_block is not None else None
    return cur


def _users_same_block(n: Node) -> set[Node]:
    users: set[Node] = set()
    block = n.owning_block
    for out in n.outputs:
        for use in out.uses:
            u = _same_block_ancestor(use.user, block)
            if u is not None:
                users.add(u)
    return users


class _WorkingSet:
    """The nodes that must move together with the mover (TorchScript's `WorkingSet`)."""

    __slots__ = (
        "db",
        "mover",
        "mover_reads",
        "mover_users",
        "mover_writes",
        "node_set",
        "nodes",
        "reads",
        "users",
        "writes",
    )

    def __init__(self, mover: Node, db: AliasDb) -> None:
        self.db = db
        self.mover: Node | None = mover
        self.mover_users = _users_same_block(mover)
        self.mover_writes = db.get_writes(mover)
        self.mover_reads = db.get_reads(mover)
        self.nodes: list[Node] = []
        self.node_set: set[Node] = set()
        self.users: set[Node] = set()
        self.writes: set[int] = set()
        self.reads: set[int] = set()

    def add(self, n: Node) -> None:
        self.nodes.append(n)
        self.node_set.add(n)
        self.users |= _users_same_block(n)
        self.writes |= self.db.get_writes(n)
        self.reads |= self.db.get_reads(n)

    def erase_mover(self) -> None:
        self.mover = None
        self.mover_writes = set()
        self.mover_reads = set()
        self.mover_users = set()

    def depends_on(self, n: Node) -> bool:
        if self.mover is None and not self.nodes:
            return False
        return self._data_dependency(n) or self._mutability_dependency(n)

    def _data_dependency(self, n: Node) -> bool:
        pivot = self.mover if self.mover is not None else self.nodes[0]
        if n.is_after(pivot):
            return n in self.mover_users or n in self.users
        users = _users_same_block(n)
        if self.mover is not None and self.mover in users:
            return True
        return any(u in self.node_set for u in users)

    def _mutability_dependency(self, n: Node) -> bool:
        n_writes = self.db.get_writes(n)
        if n_writes and (
            not n_writes.isdisjoint(self.reads) or not n_writes.isdisjoint(self.mover_reads)
        ):
            return True
        if self.writes or self.mover_writes:
            n_reads = self.db.get_reads(n)
            if not n_reads.isdisjoint(self.writes) or not n_reads.isdisjoint(self.mover_writes):
                return True
        return False
