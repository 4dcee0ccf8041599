"""The memory DAG under `AliasDb`, as PyTorch's `MemoryDAG`.

Every mutable value has an `Element`. An element may *point to* others (a
view points to its base; an `If` output points to both branches' outputs)
and may *contain* others (a list contains its elements' wildcard). An element
that points to nothing is a *memory location*; the memory locations of an
element are those reachable through points-to edges. Two elements may alias
when their memory locations intersect.

Memory locations are computed for every element at once (Tarjan's strongly
connected components over the points-to edges, so the cycles that loop-carried
values make are fine) and cached: after the DAG is built, each `may_alias` is
two dictionary lookups and a set intersection. Adding an edge invalidates the
cache; adding a fresh element does not.

Sets that grow past `MAX_LOCATIONS` are widened: their locations are joined
to a wildcard element (`widen(element)` names it), as if those values had
escaped. That is conservative, and keeps chains of merges (a thousand loops
each of which may return its input) from making the analysis quadratic.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

Locations = frozenset[int]
MAX_LOCATIONS = 64


class Element:
    """A node of the memory DAG: the values it stands for, its edges."""

    __slots__ = ("contained", "index", "points_to", "values")

    def __init__(self, index: int) -> None:
        self.index = index
        self.points_to: list[int] = []
        self.contained: list[int] = []
        self.values: list[Any] = []

    def __repr__(self) -> str:
        names = ", ".join("%" + v.debug_name for v in self.values) or "wildcard"
        return f"<Element {self.index} ({names})>"


class MemoryDAG:
    """Elements, points-to and contains edges, and cached memory locations."""

    __slots__ = ("_locations", "elements", "widen")

    def __init__(self, widen: Callable[[Element], Element | None] | None = None) -> None:
        self.elements: list[Element] = []
        self._locations: list[Locations] | None = []
        self.widen = widen

    def make_fresh(self, value: Any = None) -> Element:
        """A new element that points to nothing (a memory location of its own)."""
        e = Element(len(self.elements))
        if value is not None:
            e.values.append(value)
        self.elements.append(e)
        if self._locations is not None:
            self._locations.append(frozenset((e.index,)))
        return e

    def make_pointer_to(self, source: Element, target: Element) -> None:
        """`source` may point to whatever `target` points to. Invalidates the cache."""
        if source is target or target.index in source.points_to:
            return
        source.points_to.append(target.index)
        self._locations = None

    def add_to_contained(self, inner: Element, container: Element) -> None:
        """`container` may hold `inner` (contained edges do not change memory locations)."""
        if inner.index not in container.contained:
            container.contained.append(inner.index)

    def memory_locations(self, e: Element) -> Locations:
        locations = self._locations
        if locations is None:
            locations = self._compute_locations()
        return locations[e.index]

    def may_alias(self, a: Element, b: Element) -> bool:
        if a is b:
            return True
        la = self.memory_locations(a)
        lb = self.memory_locations(b)
        if len(la) == 1 and len(lb) == 1:
            return la == lb
        return not la.isdisjoint(lb)

    def collect_contained(self, e: Element, acc: set[int]) -> None:
        """Every element `e` may reach through points-to and contains edges, `e` included."""
        locations = self._locations if self._locations is not None else self._compute_locations()
        elements = self.elements
        stack = [e.index]
        while stack:
            i = stack.pop()
            if i in acc:
                continue
            acc.add(i)
            stack.extend(j for j in locations[i] if j not in acc)
            stack.extend(j for j in elements[i].contained if j not in acc)

    def contained_locations(self, elements: Iterable[Element]) -> set[int]:
        acc: set[int] = set()
        for e in elements:
            self.collect_contained(e, acc)
        return acc

    def may_contain_alias(self, a: Iterable[Element], b: Iterable[Element]) -> bool:
        la = self.contained_locations(a)
        if not la:
            return False
        lb = self.contained_locations(b)
        return not la.isdisjoint(lb)

    def _compute_locations(self) -> list[Locations]:
        """Memory locations of every element: Tarjan's SCCs, iteratively. O(elements + edges)."""
        elements = self.elements
        n = len(elements)
        result: list[Locations | None] = [None] * n
        index_of = [-1] * n
        low = [0] * n
        on_stack = [False] * n
        scc_stack: list[int] = []
        widened: list[tuple[Locations, Element]] = []
        counter = 0
        for root in range(n):
            if index_of[root] != -1:
                continue
            work: list[tuple[int, int]] = [(root, 0)]
            index_of[root] = low[root] = counter
            counter += 1
            scc_stack.append(root)
            on_stack[root] = True
            while work:
                v, child = work[-1]
                edges = elements[v].points_to
                if child < len(edges):
                    work[-1] = (v, child + 1)
                    w = edges[child]
                    if index_of[w] == -1:
                        index_of[w] = low[w] = counter
                        counter += 1
                        scc_stack.append(w)
                        on_stack[w] = True
                        work.append((w, 0))
                    elif on_stack[w]:
                        low[v] = min(low[v], index_of[w])
                    continue
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[v])
                if low[v] != index_of[v]:
                    continue
                members = []
                while True:
                    w = scc_stack.pop()
                    on_stack[w] = False
                    members.append(w)
                    if w == v:
                        break
                result_locs = _scc_locations(members, elements, result)
                if len(result_locs) > MAX_LOCATIONS and self.widen is not None:
                    target = self.widen(elements[members[0]])
                    if target is not None:
                        widened.append((result_locs, target))
                        result_locs = frozenset((target.index,))
                for w in members:
                    result[w] = result_locs
        if widened:
            for locs, target in widened:
                for i in locs:
                    if i != target.index:
                        self.make_pointer_to(elements[i], target)
            return self._compute_locations()
        self._locations = result  # type: ignore[assignment]
        return self._locations  # type: ignore[return-value]


def _scc_locations(
    members: list[int], elements: list[Element], done: list[Locations | None]
) -> Locations:
    if len(members) == 1:
        e = elements[members[0]]
        if not e.points_to:
            return frozenset((e.index,))
        if len(e.points_to) == 1:
            target = done[e.points_to[0]]
            assert target is not None
            return target
    inside = set(members)
    acc: set[int] = set()
    for m in members:
        e = elements[m]
        if not e.points_to:
            acc.add(m)
        for t in e.points_to:
            if t not in inside:
                target = done[t]
                assert target is not None
                acc |= target
    if not acc:  # a cycle that reaches no location stands for one of its own
        acc.add(min(members))
    return frozenset(acc)
