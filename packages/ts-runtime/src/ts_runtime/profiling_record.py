"""`ProfilingRecord`: what the `prim::profile` nodes of an instrumented graph have seen, as
PyTorch's `profiling_record.cpp`.

    record = ProfilingRecord(instrumented_graph)
    with record.building():
        code = Code(instrumented_graph)     # its prim::profile nodes report to `record`
    code.fn(*inputs)                        # each profile merges the type of what passes
    record.annotate()                       # profiled_type=..., seen_none=... on each node

Each profile node keeps the merge (`TensorType.merge`) of the types of every
tensor that passed through it, in every profiled run: dtype, device,
requires_grad (as the grad mode of the run saw it), sizes and strides, a
field becoming unknown where runs disagree, so a dimension that varies is
left unchecked by the guard made from it (and strides are kept only while
every size and stride is known). A value that was not a tensor
marks the node `seen_none`. Profiles keep merging across re-profiling, so
each new optimized graph covers everything seen before. A profile node in
code built outside `building()` passes its value through and records
nothing. Thread-safe.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from typing import Any

from ts_ir import Graph, Node, TensorType, prim

from .guards import tensor_type_of
from .ops.dispatch import implement_factory

_building = threading.local()


class ProfilingRecord:
    """The types seen at the `prim::profile` nodes of one instrumented graph."""

    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        self.types: dict[Node, TensorType] = {}
        self.saw_other: set[Node] = set()
        self.runs = 0
        self._lock = threading.Lock()

    @contextlib.contextmanager
    def building(self) -> Iterator[None]:
        """Code built inside the block has its profile nodes report to this record."""
        previous = getattr(_building, "record", None)
        _building.record = self
        try:
            yield
        finally:
            _building.record = previous

    def observe(self, node: Node, value: Any) -> None:
        t = tensor_type_of(value)
        with self._lock:
            if t is None:
                self.saw_other.add(node)
                return
            seen = self.types.get(node)
            self.types[node] = t if seen is None else _merge(seen, t)

    def annotate(self) -> None:
        """Write what each profile node saw into its attributes (`profiled_type`, `seen_none`)."""
        with self._lock:
            for node in self.graph.all_nodes():
                if node.kind is not prim.profile:
                    continue
                t = self.types.get(node)
                if t is not None:
                    node.ty_("profiled_type", t)
                elif node.has_attribute("profiled_type"):
                    node.remove_attribute("profiled_type")
                node.i_("seen_none", int(node in self.saw_other))

    def requires_grad_seen(self) -> bool:
        """Whether some profiled tensor required grad (or did in some runs only)."""
        with self._lock:
            return any(t.requires_grad is not False for t in self.types.values())


def _merge(a: TensorType, b: TensorType) -> TensorType:
    """`a.merge(b)`, keeping strides only while they and the sizes are all known: strides
    of sizes that vary say nothing a guard could usefully check, and shape propagation
    could never derive them."""
    merged = a.merge(b)
    sizes, strides = merged.sizes, merged.strides
    if strides is not None and (None in strides or sizes is None or None in sizes):
        merged = merged.with_sizes(sizes)  # forgets the strides
    return merged


def _pass_through(value: Any) -> Any:
    return value


@implement_factory("prim::profile")
def profile(node: Node) -> Callable[[Any], Any]:
    """The operation of a `prim::profile` node: record into the record being built for, if any."""
    record: ProfilingRecord | None = getattr(_building, "record", None)
    if record is None:
        return _pass_through
    observe = record.observe

    def run(value: Any) -> Any:
        observe(node, value)
        return value

    return run
