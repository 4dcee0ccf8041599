"""The operator registry: where every package's operators meet.

An `Operator` is a `FunctionSchema` plus, optionally, an implementation.
The builtin catalogue supplies the schemas of everything PyTorch registers;
the runtime attaches implementations; any package adds operators of its own:

    from ts_schema import operator, registry

    @operator("my_ns::magic(Tensor a, Tensor b, int c) -> (Tensor, Tensor)")
    def magic(a, b, c): ...

    registry.register("prim::TupleUnpack(Any tup) -> ...", factory=make_tuple_unpack)
    registry.implement("aten::relu", relu)

Overloads of a name keep their registration order (PyTorch's order for the
catalogue), which is the order overload resolution tries them in. A lookup
that misses a namespace imports the packages that declare it through the
`ts.operators` entry point group.
"""

from __future__ import annotations

import enum
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from ts_ir import Node, Symbol, TorchScriptError

from .catalogue import Catalogue
from .discovery import EntryPointDiscovery
from .errors import SchemaError, UnimplementedOperatorError, UnknownOperatorError
from .function_schema import FunctionSchema
from .node_matching import SchemaSignature
from .schema_parser import parse_schema
from .tags import BUILTIN_TAGS, NO_TAGS, Tag

Implementation = Callable[..., Any]
Factory = Callable[[Node], Implementation]


class AliasAnalysisKind(enum.Enum):
    """How alias analysis treats an operator, as PyTorch's `c10::AliasAnalysisKind`."""

    FROM_SCHEMA = "FROM_SCHEMA"
    """The schema's alias annotations say everything (the default)."""
    CONSERVATIVE = "CONSERVATIVE"
    """Assume the worst: it may read and write anything; it has side effects."""
    PURE_FUNCTION = "PURE_FUNCTION"
    """No aliasing and no side effects, whatever the schema says."""
    INTERNAL_SPECIAL_CASE = "INTERNAL_SPECIAL_CASE"
    """Alias analysis knows this operator by name (prims such as `prim::If`)."""


class Operator:
    """A schema, its implementation (if any), how alias analysis treats it, and its tags.

    `impl` is a plain callable over positional values returning one value, a
    tuple for several outputs, or None; `factory(node)` makes such a callable
    for one node (for vararg prims, whose behaviour depends on the node).
    """

    __slots__ = (
        "_stale",
        "alias_analysis",
        "factory",
        "impl",
        "key",
        "overload_name",
        "qualified_name",
        "schema",
        "signature",
        "tags",
    )

    def __init__(
        self,
        schema: FunctionSchema,
        impl: Implementation | None = None,
        *,
        factory: Factory | None = None,
        alias_analysis: AliasAnalysisKind = AliasAnalysisKind.FROM_SCHEMA,
        tags: frozenset[Tag] = NO_TAGS,
    ) -> None:
        self.schema = schema
        self.impl = impl
        self.factory = factory
        self.alias_analysis = alias_analysis
        self.tags = tags  # the tags of its name (see `ts_schema.tags`)
        self.qualified_name: str = schema.name
        self.overload_name = schema.overload_name
        self.key = schema.key
        self.signature = SchemaSignature(schema)
        self._stale = False

    @property
    def has_side_effects(self) -> bool:
        """True for CONSERVATIVE operators and those tagged `Tag.side_effect`."""
        return Tag.side_effect in self.tags or self.alias_analysis is AliasAnalysisKind.CONSERVATIVE

    @property
    def has_implementation(self) -> bool:
        return self.impl is not None or self.factory is not None

    def implementation_for(self, node: Node | None = None) -> Implementation:
        """`factory(node)` or `impl`; raises `UnimplementedOperatorError` if there is neither."""
        if self.factory is not None:
            return self.factory(node)  # type: ignore[arg-type]
        if self.impl is not None:
            return self.impl
        raise UnimplementedOperatorError(self.schema)

    def __repr__(self) -> str:
        state = "implemented" if self.has_implementation else "schema only"
        return f"<Operator {self.schema} ({state})>"


class OperatorRegistry:
    """Operators by qualified name and by key (`aten::add.Tensor`).

    `catalogue` supplies builtin schemas lazily; `discovery` imports the
    packages that provide a namespace the first time a lookup misses it.
    """

    def __init__(
        self,
        catalogue: Catalogue | None = None,
        discovery: EntryPointDiscovery | None = None,
    ) -> None:
        self.catalogue = catalogue
        self.discovery = discovery if discovery is not None else EntryPointDiscovery()
        self._by_name: dict[str, list[Operator]] = {}
        self._by_key: dict[str, Operator] = {}
        self._lock = threading.RLock()
        # tags by operator name: the builtin ones, then those declared at registration
        self._tags: dict[str, frozenset[Tag]] = dict(BUILTIN_TAGS)
        # Nodes cache "no operator" as this token; any registration replaces it.
        self._miss_token: object = object()

    # -- registering

    def register(
        self,
        schema: str | FunctionSchema,
        impl: Implementation | None = None,
        *,
        factory: Factory | None = None,
        alias_analysis: AliasAnalysisKind | None = None,
        tags: Iterable[Tag] = (),
        replace: bool = False,
    ) -> Operator:
        """Declare an operator, or attach an implementation to an identical declared one.

        A different schema under an existing key (`aten::add.Tensor`) is an
        error unless `replace=True`, which puts the new operator in the old
        one's place among the overloads. `tags` are added to the operator's
        name (every overload of it; see `ts_schema.tags`).
        """
        if isinstance(schema, str):
            schema = parse_schema(schema)
        if not isinstance(schema.name, Symbol):
            raise SchemaError(f"operator names are qualified ('ns::name'), got {schema.name!r}")
        with self._lock:
            self._load_catalogue(schema.name)
            if tags:
                self.tag(schema.name, *tags)
            existing = self._by_key.get(schema.key)
            if existing is not None and existing.schema == schema:
                self._attach(existing, impl, factory, alias_analysis)
                return existing
            op = Operator(
                schema,
                impl,
                factory=factory,
                alias_analysis=alias_analysis or AliasAnalysisKind.FROM_SCHEMA,
                tags=self._tags.get(schema.name, NO_TAGS),
            )
            overloads = list(self._by_name.get(schema.name, ()))
            if existing is not None:
                if not replace:
                    raise SchemaError(
                        f"operator {schema.key} is already registered with a different schema:\n"
                        f"  registered: {existing.schema}\n"
                        f"  new:        {schema}\n"
                        "pass replace=True to replace it"
                    )
                existing._stale = True
                overloads[overloads.index(existing)] = op
            else:
                overloads.append(op)
            self._by_name[schema.name] = overloads
            self._by_key[schema.key] = op
            self._miss_token = object()
            return op

    def implement(
        self, key: str, impl: Implementation | None = None, *, factory: Factory | None = None
    ) -> Operator:
        """Attach an implementation to the registered schema with this key (`aten::add.Tensor`)."""
        if impl is None and factory is None:
            raise SchemaError(f"implement({key!r}) needs an implementation or a factory")
        op = self.get(key)
        with self._lock:
            self._attach(op, impl, factory, None)
        return op

    def tag(self, name: str, *tags: Tag) -> None:
        """Give the operator `name` (`my_ns::log_event`, every overload, and nodes of that kind
        without a schema) these tags; tags are never taken away."""
        with self._lock:
            merged = self._tags.get(name, NO_TAGS) | frozenset(tags)
            self._tags[name] = merged
            for op in self._by_name.get(name, ()):
                op.tags = merged

    def tags_of(self, node: Node) -> frozenset[Tag]:
        """The tags of the node's kind. O(1)."""
        return self._tags.get(node.kind, NO_TAGS)

    def operator(self, schema: str | FunctionSchema, **kwargs: Any) -> Callable[[Any], Any]:
        """Decorator form of `register`: `@operator("my_ns::f(Tensor x) -> Tensor")`."""

        def decorate(fn: Implementation) -> Implementation:
            self.register(schema, fn, **kwargs)
            return fn

        return decorate

    @staticmethod
    def _attach(
        op: Operator,
        impl: Implementation | None,
        factory: Factory | None,
        alias_analysis: AliasAnalysisKind | None,
    ) -> None:
        if impl is not None:
            op.impl = impl
        if factory is not None:
            op.factory = factory
        if alias_analysis is not None:
            op.alias_analysis = alias_analysis

    def _load_catalogue(self, name: str) -> None:
        """Parse the catalogue's overloads of `name`, before anything else registers it."""
        if self.catalogue is None:
            return
        # Under the lock: another thread missing the same name waits for the overloads
        # instead of finding them taken but not yet registered.
        with self._lock:
            entries = self.catalogue.take(name)
            if not entries:
                return
            loaded = []
            for entry in entries:
                schema = parse_schema(entry.text)
                if schema.key in self._by_key:
                    continue
                op = Operator(
                    schema,
                    alias_analysis=AliasAnalysisKind[entry.alias_analysis],
                    tags=self._tags.get(schema.name, NO_TAGS),
                )
                loaded.append(op)
                self._by_key[schema.key] = op
            # readers see the old list or the whole new one, never a partial one
            self._by_name[name] = loaded + self._by_name.get(name, [])
            self._miss_token = object()

    # -- looking up

    def lookup(self, name: str) -> list[Operator]:
        """The overloads of a qualified name, in registration order.

        On a miss, imports the packages that provide the namespace; raises
        `UnknownOperatorError` if there are still none.
        """
        ops = self._by_name.get(name)
        if ops:
            return list(ops)
        ops = self._find(name)
        if not ops:
            raise UnknownOperatorError(name)
        return list(ops)

    def _find(self, name: str) -> list[Operator] | None:
        self._load_catalogue(name)
        ops = self._by_name.get(name)
        if not ops and "::" in name:
            if self.discovery.load_namespace(name.partition("::")[0]):
                self._load_catalogue(name)
                ops = self._by_name.get(name)
        return ops

    def get(self, key: str) -> Operator:
        """The operator with this key (`aten::add.Tensor`, or `aten::relu` for no overload name)."""
        op = self._by_key.get(key)
        if op is not None:
            return op
        name = _name_of_key(key)
        self._find(name)
        op = self._by_key.get(key)
        if op is None:
            if self._by_name.get(name):
                overloads = ", ".join(o.key for o in self._by_name[name])
                raise UnknownOperatorError(
                    key, f"operator {name} has no overload '{key}'; it has: {overloads}"
                )
            raise UnknownOperatorError(name)
        return op

    def find(self, key: str) -> Operator | None:
        """The operator with this key if it is known (catalogue included), without discovery."""
        op = self._by_key.get(key)
        if op is None:
            self._load_catalogue(_name_of_key(key))
            op = self._by_key.get(key)
        return op

    def has(self, name: str) -> bool:
        """Whether an operator name (`aten::add`) or key (`aten::add.Tensor`) is known."""
        if name in self._by_key or self._by_name.get(name):
            return True
        qualified = _name_of_key(name)
        if not self._find(qualified):
            return False
        return name == qualified or name in self._by_key

    def namespaces(self) -> list[str]:
        """Every namespace the registry knows or an installed package declares."""
        names = {name.partition("::")[0] for name, ops in self._by_name.items() if ops}
        if self.catalogue is not None:
            names |= self.catalogue.namespaces()
        names |= self.discovery.namespaces()
        return sorted(names)

    def operators(self) -> Iterator[Operator]:
        """Every operator, the whole catalogue included (which this parses). O(operators)."""
        if self.catalogue is not None:
            for name in self.catalogue.pending_names():
                self._load_catalogue(name)
        for ops in list(self._by_name.values()):
            yield from ops

    # -- nodes

    def operator_for(self, node: Node) -> Operator | None:
        """The first overload of the node's kind whose schema its inputs fit, or None.

        Cached in `node.schema_cache`, which ts-ir clears when the inputs change;
        a cached miss is forgotten when anything is registered.
        """
        cached = node.schema_cache
        if cached is not None:
            if cached.__class__ is Operator:
                if not cached._stale and cached.qualified_name is node.kind:
                    return cached
            elif cached is self._miss_token:
                return None
        ops = self._by_name.get(node.kind)
        if not ops:
            ops = self._find_quietly(node.kind)
        inputs = node.inputs
        found = None
        if ops:
            for op in ops:
                if op.signature.accepts(inputs):
                    found = op
                    break
        node.schema_cache = found if found is not None else self._miss_token
        return found

    def _find_quietly(self, name: str) -> list[Operator] | None:
        try:
            return self._find(name)
        except TorchScriptError:
            # an operator package that fails to import leaves its nodes without a schema;
            # the error resurfaces where the operator is looked up explicitly
            return None

    def schema_for(self, node: Node) -> FunctionSchema | None:
        op = self.operator_for(node)
        return None if op is None else op.schema

    def __repr__(self) -> str:
        return f"<OperatorRegistry: {len(self._by_key)} operators loaded>"


def _name_of_key(key: str) -> str:
    """`aten::add` from `aten::add.Tensor`."""
    ns, sep, rest = key.partition("::")
    if not sep:
        return key
    return f"{ns}::{rest.partition('.')[0]}"


#: The process-wide registry every package registers into.
registry = OperatorRegistry(Catalogue())

#: Decorator registering a function as an operator implementation.
operator = registry.operator
