"""`Parameter`: a tensor that a `Module` registers as one of its learnable weights."""

from __future__ import annotations

from typing import Any

from ..tensor import Tensor, wrap


class Parameter(Tensor):
    """A tensor that requires grad by default and that a `Module` attribute assignment
    registers as a parameter. It shares its data with the tensor it is made from."""

    def __new__(cls, data: Tensor | None = None, requires_grad: bool = True) -> Parameter:
        t = Tensor.__new__(cls, data)
        if requires_grad:
            t.requires_grad_(True)
        return t  # type: ignore[return-value]

    def __init__(self, data: Tensor | None = None, requires_grad: bool = True) -> None:
        pass

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()

    def __deepcopy__(self, memo: dict) -> Parameter:
        out = Parameter(wrap(self._data.copy()), self.requires_grad)
        memo[id(self)] = out
        return out

    def __reduce_ex__(self, protocol: int) -> Any:
        return (_rebuild_parameter, (self._data.copy(), self.requires_grad))


def _rebuild_parameter(arr: Any, requires_grad: bool) -> Parameter:
    return Parameter(wrap(arr), requires_grad)


__all__ = ["Parameter"]
