"""Type refinement: what a condition proves about variables on each branch.

`if x is not None:` refines `x: Optional[int]` to `int` in the true branch;
`isinstance(x, int)` refines a Union. A `CondValue` carries the condition's
value, the refinements that hold when it is true and when it is false, and
whether its value is known at compile time (then only one branch is
compiled, as TorchScript does for `isinstance` and `is None` checks that
the types already decide). Names may be dotted (`self.bias`): attributes
are refined too.
"""

from __future__ import annotations

from ts_ir import Type, Value


class Refinement:
    __slots__ = ("name", "type")

    def __init__(self, name: str, type: Type) -> None:
        self.name = name
        self.type = type

    def __repr__(self) -> str:
        return f"Refinement({self.name}: {self.type.annotation_str()})"


class RefinementSet:
    """Refinements that hold when a condition is true (`true`) and when it is false (`false`)."""

    __slots__ = ("false", "true")

    def __init__(
        self, true: list[Refinement] | None = None, false: list[Refinement] | None = None
    ) -> None:
        self.true = true or []
        self.false = false or []

    def negated(self) -> RefinementSet:
        return RefinementSet(self.false, self.true)

    def and_(self, other: RefinementSet) -> RefinementSet:
        """`a and b`: both sets hold when true; only what both prove holds when false."""
        return RefinementSet(_union(self.true, other.true), _intersection(self.false, other.false))

    def or_(self, other: RefinementSet) -> RefinementSet:
        return RefinementSet(_intersection(self.true, other.true), _union(self.false, other.false))


def _union(a: list[Refinement], b: list[Refinement]) -> list[Refinement]:
    names = {r.name for r in b}
    return [r for r in a if r.name not in names] + list(b)


def _intersection(a: list[Refinement], b: list[Refinement]) -> list[Refinement]:
    by_name = {r.name: r for r in b}
    return [r for r in a if r.name in by_name and by_name[r.name].type == r.type]


class CondValue:
    """A condition: its bool value (None when static), refinements, and its static value."""

    __slots__ = ("refinements", "static", "value")

    def __init__(
        self, value: Value | None, refinements: RefinementSet, static: bool | None
    ) -> None:
        self.value = value
        self.refinements = refinements
        self.static = static
