"""Argument helpers shared by the functional forms and the layers.

`BroadcastingList1/2/3[T]` annotate an argument that takes either one `T` or
a sequence of N of them (`kernel_size=2` or `(2, 3)`), as in
`torch._jit_internal`: TorchScript reads `BroadcastingList2[int]` as the
schema type `int[2]`. `_single`/`_pair`/`_triple` expand such a value in
Python, for the layers' constructors.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


class _BroadcastingList:
    """`BroadcastingListN[T]`: subscripting gives back the marker, which names N."""

    def __init__(self, size: int) -> None:
        self.size = size

    def __getitem__(self, _element: Any) -> _BroadcastingList:
        return self

    def __repr__(self) -> str:
        return f"BroadcastingList{self.size}"


BroadcastingList1 = _BroadcastingList(1)
BroadcastingList2 = _BroadcastingList(2)
BroadcastingList3 = _BroadcastingList(3)


def _ntuple(n: int, name: str) -> Any:
    def parse(x: Any) -> tuple[Any, ...]:
        if isinstance(x, Iterable) and not isinstance(x, str):
            return tuple(x)
        return (x,) * n

    parse.__name__ = name
    return parse


_single = _ntuple(1, "_single")
_pair = _ntuple(2, "_pair")
_triple = _ntuple(3, "_triple")


def _reverse_repeat_tuple(t: tuple[int, ...], n: int) -> tuple[int, ...]:
    """`(a, b)` -> `(b, b, a, a)` for n=2: a layer's padding as `F.pad` takes it."""
    return tuple(x for x in reversed(t) for _ in range(n))


def _list_with_default(out_size: Any, defaults: list[int]) -> Any:
    """An adaptive pooling output size, with None entries taken from the input's sizes."""
    if isinstance(out_size, int):
        return out_size
    out = list(out_size)
    if len(defaults) <= len(out):
        raise ValueError(f"Input dimension should be at least {len(out) + 1}")
    tail = defaults[len(defaults) - len(out) :]
    return [d if v is None else v for v, d in zip(out, tail, strict=True)]


__all__ = [
    "BroadcastingList1",
    "BroadcastingList2",
    "BroadcastingList3",
]
