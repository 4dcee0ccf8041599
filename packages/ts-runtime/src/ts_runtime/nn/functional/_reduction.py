"""Loss reductions: the names "none", "mean", "sum" and their operator enum (0, 1, 2).

As `torch.nn._reduction`: `get_enum` is what the loss operators take, and
`legacy_get_string` turns the deprecated `size_average`/`reduce` flags into a
name. Both compile, so the loss functions that call them script.
"""

from __future__ import annotations


def get_enum(reduction: str) -> int:
    """The operators' reduction argument for `reduction`."""
    if reduction == "none":
        return 0
    if reduction == "mean":
        return 1
    if reduction == "sum":
        return 2
    raise ValueError(reduction + " is not a valid value for reduction")


def legacy_get_string(size_average: bool | None, reduce: bool | None) -> str:
    """The reduction that the deprecated flags ask for (each defaults to True)."""
    if size_average is None:
        size_average = True
    if reduce is None:
        reduce = True
    if size_average and reduce:
        return "mean"
    if reduce:
        return "sum"
    return "none"


def resolve(reduction: str, size_average: bool | None, reduce: bool | None) -> str:
    """`reduction`, unless one of the deprecated flags is given."""
    if size_average is not None or reduce is not None:
        return legacy_get_string(size_average, reduce)
    return reduction


__all__ = ["get_enum", "legacy_get_string", "resolve"]
