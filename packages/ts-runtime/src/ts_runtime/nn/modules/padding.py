"""Padding layers: constant (and zero), reflection, replication and circular, in one to
three dimensions. `padding` is an int (every side) or a tuple (left, right, top, bottom,
front, back), and is kept as that tuple."""

from __future__ import annotations

from typing import Any

from ...tensor import Tensor
from .. import functional as F
from ..module import Module


def _sides(padding: Any, n: int) -> tuple[int, ...]:
    if isinstance(padding, int):
        return (padding,) * (2 * n)
    padding = tuple(padding)
    if len(padding) != 2 * n:
        raise ValueError(f"padding must be an int or a tuple of {2 * n} ints, got {padding}")
    return padding


class _ConstantPadNd(Module):
    __constants__ = ("padding", "value")

    def __init__(self, padding: Any, value: float, nd: int) -> None:
        super().__init__()
        self.padding = _sides(padding, nd)
        self.value = value

    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self) -> str:
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(_ConstantPadNd):
    def __init__(self, padding: Any, value: float) -> None:
        super().__init__(padding, value, 1)


class ConstantPad2d(_ConstantPadNd):
    def __init__(self, padding: Any, value: float) -> None:
        super().__init__(padding, value, 2)


class ConstantPad3d(_ConstantPadNd):
    def __init__(self, padding: Any, value: float) -> None:
        super().__init__(padding, value, 3)


class ZeroPad1d(ConstantPad1d):
    def __init__(self, padding: Any) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ZeroPad2d(ConstantPad2d):
    def __init__(self, padding: Any) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ZeroPad3d(ConstantPad3d):
    def __init__(self, padding: Any) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class _ReflectionPadNd(Module):
    __constants__ = ("padding",)

    def __init__(self, padding: Any, nd: int) -> None:
        super().__init__()
        self.padding = _sides(padding, nd)

    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, "reflect")

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ReflectionPad1d(_ReflectionPadNd):
    def __init__(self, padding: Any) -> None:
        super().__init__(padding, 1)


class ReflectionPad2d(_ReflectionPadNd):
    def __init__(self, padding: Any) -> None:
        super().__init__(padding, 2)


class ReflectionPad3d(_ReflectionPadNd):
    def __init__(self, padding: Any) -> None:
        super().__init__(padding, 3)


class _ReplicationPadNd(Module):
    __constants__ = ("padding",)

    def __init__(self, padding: Any, nd: int) -> None:
        super().__init__()
        self.padding = _sides(padding, nd)

    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, "replicate")

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ReplicationPad1d(_ReplicationPadNd):
    def __init__(self, padding: Any) -> None:
        super().__init__(padding, 1)


class ReplicationPad2d(_ReplicationPadNd):
    def __init__(self, padding: Any) -> None:
        super().__init__(padding, 2)


class ReplicationPad3d(_ReplicationPadNd):
    def __init__(self, padding: Any) -> None:
        super().__init__(padding, 3)


class _CircularPadNd(Module):
    __constants__ = ("padding",)

    def __init__(self, padding: Any, nd: int) -> None:
        super().__init__()
        self.padding = _sides(padding, nd)

    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, "circular")

    def extra_repr(self) -> str:
        return f"{self.padding}"


class CircularPad1d(_CircularPadNd):
    def __init__(self, padding: Any) -> None:
        super().__init__(padding, 1)


class CircularPad2d(_CircularPadNd):
    def __init__(self, padding: Any) -> None:
        super().__init__(padding, 2)


class CircularPad3d(_CircularPadNd):
    def __init__(self, padding: Any) -> None:
        super().__init__(padding, 3)


__all__ = [
    "CircularPad1d",
    "CircularPad2d",
    "CircularPad3d",
    "ConstantPad1d",
    "ConstantPad2d",
    "ConstantPad3d",
    "ReflectionPad1d",
    "ReflectionPad2d",
    "ReflectionPad3d",
    "ReplicationPad1d",
    "ReplicationPad2d",
    "ReplicationPad3d",
    "ZeroPad1d",
    "ZeroPad2d",
    "ZeroPad3d",
]
