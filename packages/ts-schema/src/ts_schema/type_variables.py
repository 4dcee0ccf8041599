"""Type variables of schemas (`t`, `List[t]`, `Dict(str, t)`): binding and substitution.

As TorchScript's `matchTypeVariables` and `tryEvalTypeVariables`. The first
actual type a variable meets binds it; later ones need only unify with the
binding (the subtype check that follows decides whether they fit).
"""

from __future__ import annotations

import functools

from ts_ir import (
    AwaitType,
    DictType,
    FutureType,
    ListType,
    NoneType,
    OptionalType,
    RRefType,
    TupleType,
    Type,
    VarType,
    unify_type_list,
    unify_types,
)

Bindings = dict[str, Type]


@functools.lru_cache(maxsize=4096)
def has_free_variables(t: Type) -> bool:
    """Whether `t` mentions a type variable (cached: types are immutable)."""
    return t.has_free_variables()


def match_type_variables(formal: Type, actual: Type, bindings: Bindings) -> bool:
    """Bind the type variables of `formal` from `actual`; False if their shapes cannot match."""
    return type_variable_mismatch(formal, actual, bindings) is None


def type_variable_mismatch(formal: Type, actual: Type, bindings: Bindings) -> str | None:
    """As `match_type_variables`, returning why not (TorchScript's wording) or None on success."""
    if not has_free_variables(formal):
        return None
    if isinstance(formal, VarType):
        bound = bindings.get(formal.name)
        if bound is None:
            bindings[formal.name] = actual
            return None
        if unify_types(bound, actual, default_to_union=True) is not None:
            return None
        return (
            f"Type variable '{formal.name}' previously matched to type "
            f"{bound.annotation_str()} is matched to type {actual.annotation_str()}"
        )
    if isinstance(formal, ListType):
        if isinstance(actual, ListType):
            return type_variable_mismatch(formal.element, actual.element, bindings)
        if isinstance(actual, TupleType):
            unified = unify_type_list(actual.elements)
            if unified is not None:
                return type_variable_mismatch(formal.element, unified, bindings)
        return f"Cannot match {formal.annotation_str()} to {actual.annotation_str()}"
    if isinstance(formal, TupleType):
        if not isinstance(actual, TupleType):
            return f"Cannot match a tuple to {actual.annotation_str()}"
        if len(formal.elements) != len(actual.elements):
            return "Cannot match tuples of mismatched size"
        for f, a in zip(formal.elements, actual.elements, strict=True):
            reason = type_variable_mismatch(f, a, bindings)
            if reason is not None:
                return reason
        return None
    if isinstance(formal, (FutureType, AwaitType, RRefType)):
        if type(actual) is type(formal):
            return type_variable_mismatch(formal.element, actual.element, bindings)  # type: ignore[attr-defined]
        what = {FutureType: "a future", AwaitType: "an await", RRefType: "an rref"}[type(formal)]
        return f"Cannot match {what} to {actual.annotation_str()}"
    if isinstance(formal, OptionalType):
        if isinstance(actual, OptionalType):
            return type_variable_mismatch(formal.element, actual.element, bindings)
        if not isinstance(actual, NoneType):
            # a T matches Optional[T]; None leaves the variables unbound, which is fine
            # because None is an Optional[T] whatever T is
            return type_variable_mismatch(formal.element, actual, bindings)
        return None
    if isinstance(formal, DictType):
        if not isinstance(actual, DictType):
            return f"Cannot match a dict to {actual.annotation_str()}"
        reason = type_variable_mismatch(formal.key, actual.key, bindings)
        if reason is not None:
            return reason
        return type_variable_mismatch(formal.value, actual.value, bindings)
    return f"Cannot match {formal.annotation_str()} to {actual.annotation_str()}"


def evaluate_type_variables(t: Type, bindings: Bindings) -> Type | None:
    """`t` with its type variables replaced by their bindings; None if one is unbound."""
    if not has_free_variables(t):
        return t
    if isinstance(t, VarType):
        return bindings.get(t.name)
    contained = t.contained_types()
    if not contained:
        return t
    new = []
    for c in contained:
        r = evaluate_type_variables(c, bindings)
        if r is None:
            return None
        new.append(r)
    if isinstance(t, OptionalType):
        return OptionalType.create(new[0])
    return t.with_contained(new)
