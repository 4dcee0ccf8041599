"""Plans specialized to the attributes a graph reads from its objects (a module's parameters
and settings), guarded by the plan key.

A method's graph reads its module's state through `prim::GetAttr` chains rooted at
`self`:

    %fc1 : __torch__.MLP.Linear = prim::GetAttr[name="fc1"](%self)
    %weight : Tensor = prim::GetAttr[name="weight"](%fc1)
    %y : Tensor = aten::linear(%x, %weight, %bias)        # dtype, rank: unknown

The declared type of a parameter is plain `Tensor`, so without more, shape propagation
loses the dtype and rank at the first `linear` and nothing after it fuses. PyTorch's
profiling executor records the types it sees at such reads and guards them; here each call
reads the attributes (one `operator.attrgetter` over all paths) and their properties join
the plan's key, the way the inputs' do:

- a tensor: its dtype, rank, device and (with grad mode on) requires_grad: the plan gives
  the read that type (requires_grad left open where the graph writes tensors in place,
  which can make an attribute require grad during the call);
- None, a bool, int, float or string, or a tuple of these (`training`, `eps`, `stride`):
  the value itself: the plan reads a constant, so constant propagation folds
  `if self.training:` and the shape rules see constant arguments.

A call whose attributes differ from every plan's compiles a new plan, as new input types
do; after `MAX_VALUE_PLANS` distinct sets of setting values (a counter that `forward`
reads), settings are read at run time and only tensor types stay in the key. Paths written by a `prim::SetAttr` anywhere in the graph are not specialized, and a
graph that still calls other code after inlining (which could write any attribute while
the plan runs) gets no guard at all. Cost per call: one `attrgetter` call and a key of a
few entries per attribute, a few microseconds for a ResNet.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from ts_ir import (
    BoolType,
    ClassType,
    Device,
    FloatType,
    Graph,
    IntType,
    Node,
    NoneType,
    NumberType,
    OptionalType,
    StringType,
    TensorType,
    TupleType,
    Type,
    constant_type_of,
    prim,
)
from ts_schema import Tag, registry

from .devices import storage_device
from .dtypes import scalar_type_of_numpy
from .tensor import Tensor

CPU = Device("cpu")
#: An attribute value the plan does not specialize to.
OTHER = "other"
_SCALARS = (bool, int, float, str)
#: Distinct sets of setting values a graph's plans specialize to before settings are read at
#: run time instead.
MAX_VALUE_PLANS = 8


@dataclass(frozen=True, slots=True)
class AttributePath:
    """`inputs[input].names[0].names[1]...`"""

    input: int
    names: tuple[str, ...]

    @property
    def dotted(self) -> str:
        return ".".join(self.names)


def attribute_reads(graph: Graph) -> dict[Node, AttributePath] | None:
    """Every `prim::GetAttr` of a chain rooted at an input of object type, with its path
    (nested blocks included); None when calls remain (nodes tagged `Tag.calls`), whose
    callees could write attributes."""
    paths: dict[Any, AttributePath] = {}
    for i, v in enumerate(graph.inputs):
        if isinstance(v.type, ClassType):
            paths[v] = AttributePath(i, ())
    reads: dict[Node, AttributePath] = {}
    for node in graph.all_nodes():
        kind = node.kind
        if Tag.calls in registry.tags_of(node):
            return None
        if kind is prim.GetAttr:
            base = paths.get(node.input())
            if base is not None:
                path = AttributePath(base.input, (*base.names, node.s("name")))
                paths[node.output()] = path
                reads[node] = path
    return reads


def _writes_tensors_in_place(graph: Graph) -> bool:
    """Whether some node may write a tensor in place (a mutable schema)."""
    for node in graph.all_nodes():
        schema = node.maybe_schema()
        if schema is not None and schema.is_mutable:
            return True
    return False


def _written_names(graph: Graph) -> set[str]:
    return {n.s("name") for n in graph.all_nodes() if n.kind is prim.SetAttr}


_LEAF_TYPES = (TensorType, BoolType, IntType, FloatType, NumberType, StringType, NoneType)


def _specializable(t: Type) -> bool:
    """Whether a read of this declared type can be specialized: tensors and immutable values."""
    if isinstance(t, OptionalType):
        return _specializable(t.element)
    if isinstance(t, TupleType):
        return all(_specializable(e) for e in t.elements)
    return isinstance(t, _LEAF_TYPES)


def _is_tensor_key(k: Any) -> bool:
    return isinstance(k, tuple) and len(k) == 4 and hasattr(k[0], "kind")


def value_key(value: Any, grad_enabled: bool) -> Any:
    """What the plan key records of one attribute value (see the module docstring)."""
    if isinstance(value, Tensor):
        data = value._data
        ag = value._ag
        return (
            data.dtype,
            data.ndim,
            grad_enabled and ag is not None and ag.requires_grad,
            CPU if data.__class__ is np.ndarray else storage_device(data),
        )
    if value is None:
        return None
    cls = type(value)
    if cls in _SCALARS:
        if cls is float and math.isnan(value):
            return OTHER
        return (cls, value)
    if cls is tuple:
        keys = tuple(value_key(v, grad_enabled) for v in value)
        if any(k is OTHER or (k is not None and k[0] not in _SCALARS) for k in keys):
            return OTHER
        return (tuple, keys)
    return OTHER


class AttributeGuard:
    """The attribute paths one graph reads, and how to key and specialize plans by them."""

    def __init__(self, paths: list[AttributePath]) -> None:
        self.paths = paths
        self.values = True  # whether settings are specialized by value (`seen`)
        self._keys: set[tuple] = set()
        self._getters: list[tuple[int, Callable[[Any], Any]]] = []
        by_input: dict[int, list[str]] = {}
        for p in paths:
            by_input.setdefault(p.input, []).append(p.dotted)
        for i, dotted in by_input.items():
            getter = operator.attrgetter(*dotted)
            if len(dotted) == 1:
                self._getters.append((i, lambda obj, g=getter: (g(obj),)))
            else:
                self._getters.append((i, getter))

    @classmethod
    def for_graph(cls, graph: Graph) -> AttributeGuard | None:
        """The guard of an (inlined) graph, or None when it reads no attribute it can specialize."""
        reads = attribute_reads(graph)
        if not reads:
            return None
        written = _written_names(graph)
        paths = sorted(
            {
                p
                for n, p in reads.items()
                if _specializable(n.output().type) and not written.intersection(p.names)
            },
            key=lambda p: (p.input, p.names),
        )
        return cls(paths) if paths else None

    def key(self, inputs: tuple[Any, ...], grad_enabled: bool) -> tuple:
        """The attribute part of the plan key for a call with these inputs."""
        out: list[Any] = []
        try:
            for i, getter in self._getters:
                out += [value_key(v, grad_enabled) for v in getter(inputs[i])]
        except AttributeError:
            return ()  # the objects are not what the graph was compiled for: no specialization
        if not self.values:
            out = [k if _is_tensor_key(k) else OTHER for k in out]
        return tuple(out)

    def seen(self, key: tuple) -> bool:
        """Note a key a plan was compiled for; True when values should stop being specialized:
        settings that keep changing (a step counter read by `forward`) would otherwise compile
        a plan per call. From then on only tensor types are keyed."""
        self._keys.add(tuple(k for k in key if not _is_tensor_key(k)))
        if self.values and len(self._keys) > MAX_VALUE_PLANS:
            self.values = False
            return True
        return False

    def specialize(self, graph: Graph, key: tuple) -> set[Node]:
        """Give the reads in `graph` (a copy of the guarded graph) the types or constants of
        `key`; returns the reads specialized."""
        if len(key) != len(self.paths):
            return set()
        by_path = dict(zip(self.paths, key, strict=True))
        done: set[Node] = set()
        reads = attribute_reads(graph) or {}
        # an in-place write (`self.running.add_(x)`) may make a tensor attribute require grad
        # while the plan runs: then reads keep requires_grad open
        grad_may_change = _writes_tensors_in_place(graph)
        for node, path in reads.items():
            k = by_path.get(path, OTHER)
            if k is OTHER:
                continue
            out = node.output()
            declared = out.type
            if isinstance(k, tuple) and len(k) == 4 and hasattr(k[0], "kind"):
                np_dtype, ndim, requires_grad, device = k
                if grad_may_change:
                    requires_grad = None
                t = TensorType(
                    scalar_type_of_numpy(np_dtype), device, requires_grad, (None,) * ndim
                )
                if t.is_subtype_of(declared):
                    out.set_type(t)
                    done.add(node)
                continue
            value = _value_of(k)
            try:
                const_type = constant_type_of(value)
            except Exception:
                continue
            if not const_type.is_subtype_of(declared):
                continue
            with graph.inserting_before(node):
                const = graph.insert_constant(
                    value, declared if isinstance(declared, TupleType) else None
                )
            out.replace_all_uses_with(const)
            done.add(node)
        return done


def _value_of(key: Any) -> Any:
    if key is None:
        return None
    cls, value = key
    if cls is tuple:
        return tuple(_value_of(k) for k in value)
    return value
