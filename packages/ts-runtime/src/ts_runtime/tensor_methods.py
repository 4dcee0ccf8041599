"""Tensor methods and Python operators, installed from the operator library.

Every implemented `aten::` operator whose first argument is `Tensor self`
becomes a method (`x.add(y)`, `x.sum(1)`), calling the operator through eager
dispatch so that autograd and the tracer see it. Python's operators map to
the same operators as in PyTorch (`x + y` is `aten::add`, `x += y` is
`aten::add_`). A few conveniences that are not operators (`x.float()`,
`x.T`, `x.new_zeros(...)`) are defined here in terms of operators.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ts_ir import TensorType
from ts_schema import registry

from . import dtypes as dt
from .devices import as_device
from .ops.dispatch import call
from .tensor import Tensor


def _method(name: str) -> Callable[..., Any]:
    qualified = f"aten::{name}"

    def method(self: Tensor, *args: Any, **kwargs: Any) -> Any:
        return call(qualified, self, *args, **kwargs)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"Calls the operator {qualified}."
    return method


def _binary_dunder(name: str, *, reflected: bool = False) -> Callable[..., Any]:
    qualified = f"aten::{name}"
    if reflected:

        def dunder(self: Tensor, other: Any) -> Any:
            return call(qualified, self, other)

    else:

        def dunder(self: Tensor, other: Any) -> Any:
            if other is None:
                return NotImplemented
            return call(qualified, self, other)

    return dunder


def _to(d: int) -> Callable[..., Tensor]:
    def convert(self: Tensor, memory_format: Any = None) -> Tensor:
        return call("aten::to", self, d)

    return convert


def _eq(self: Tensor, other: Any) -> Any:
    if other is None:
        return False
    return call("aten::eq", self, other)


def _ne(self: Tensor, other: Any) -> Any:
    if other is None:
        return True
    return call("aten::ne", self, other)


def _rtruediv(self: Tensor, other: Any) -> Tensor:
    return call("aten::mul", call("aten::reciprocal", self), other)


def _rfloordiv(self: Tensor, other: Any) -> Tensor:
    return call("aten::floor_divide", call("aten::full_like", self, other), self)


def _getitem(self: Tensor, index: Any) -> Tensor:
    from .ops.indexing import getitem

    return getitem(self, index)


def _setitem(self: Tensor, index: Any, value: Any) -> None:
    from .ops.indexing import setitem

    setitem(self, index, value)


def _contains(self: Tensor, item: Any) -> bool:
    return bool(call("aten::any", call("aten::eq", self, item)))


_DUNDERS: dict[str, Callable[..., Any]] = {
    "__add__": _binary_dunder("add"),
    "__radd__": _binary_dunder("add", reflected=True),
    "__iadd__": _binary_dunder("add_"),
    "__sub__": _binary_dunder("sub"),
    "__rsub__": _binary_dunder("rsub", reflected=True),
    "__isub__": _binary_dunder("sub_"),
    "__mul__": _binary_dunder("mul"),
    "__rmul__": _binary_dunder("mul", reflected=True),
    "__imul__": _binary_dunder("mul_"),
    "__truediv__": _binary_dunder("div"),
    "__rtruediv__": _rtruediv,
    "__itruediv__": _binary_dunder("div_"),
    "__floordiv__": _binary_dunder("floor_divide"),
    "__rfloordiv__": _rfloordiv,
    "__ifloordiv__": _binary_dunder("floor_divide_"),
    "__mod__": _binary_dunder("remainder"),
    "__rmod__": lambda self, other: call("aten::remainder", other, self),
    "__imod__": _binary_dunder("remainder_"),
    "__pow__": _binary_dunder("pow"),
    "__rpow__": lambda self, other: call("aten::pow", other, self),
    "__ipow__": _binary_dunder("pow_"),
    "__matmul__": _binary_dunder("matmul"),
    "__rmatmul__": lambda self, other: call("aten::matmul", other, self),
    "__and__": _binary_dunder("__and__"),
    "__rand__": _binary_dunder("__and__", reflected=True),
    "__or__": _binary_dunder("__or__"),
    "__ror__": _binary_dunder("__or__", reflected=True),
    "__xor__": _binary_dunder("__xor__"),
    "__rxor__": _binary_dunder("__xor__", reflected=True),
    "__lshift__": _binary_dunder("__lshift__"),
    "__rshift__": _binary_dunder("__rshift__"),
    "__lt__": _binary_dunder("lt"),
    "__le__": _binary_dunder("le"),
    "__gt__": _binary_dunder("gt"),
    "__ge__": _binary_dunder("ge"),
    "__eq__": _eq,
    "__ne__": _ne,
    "__neg__": lambda self: call("aten::neg", self),
    "__pos__": lambda self: self,
    "__abs__": lambda self: call("aten::abs", self),
    "__invert__": lambda self: call("aten::bitwise_not", self),
    "__getitem__": _getitem,
    "__setitem__": _setitem,
    "__contains__": _contains,
}

_CONVENIENCE: dict[str, Callable[..., Any]] = {
    "float": _to(dt.float32),
    "double": _to(dt.float64),
    "half": _to(dt.float16),
    "long": _to(dt.int64),
    "int": _to(dt.int32),
    "short": _to(dt.int16),
    "char": _to(dt.int8),
    "byte": _to(dt.uint8),
    "bool": _to(dt.bool_),
    "cpu": lambda self, memory_format=None: call("aten::cpu", self),
    "cuda": lambda self, device=None, non_blocking=False, memory_format=None: _cuda(self, device),
    "type_as": lambda self, other: call("aten::type_as", self, other),
    "view_as": lambda self, other: call("aten::view", self, list(other.shape)),
    "reshape_as": lambda self, other: call("aten::reshape", self, list(other.shape)),
    "expand_as": lambda self, other: call("aten::expand", self, list(other.shape)),
    "new_zeros": lambda self, *size, dtype=None, device=None, requires_grad=False: _new(
        "aten::zeros", self, size, dtype, requires_grad
    ),
    "new_ones": lambda self, *size, dtype=None, device=None, requires_grad=False: _new(
        "aten::ones", self, size, dtype, requires_grad
    ),
    "new_empty": lambda self, *size, dtype=None, device=None, requires_grad=False: _new(
        "aten::zeros", self, size, dtype, requires_grad
    ),
    "new_full": lambda self, size, fill_value, dtype=None, device=None, requires_grad=False: call(
        "aten::full", list(size), fill_value, dtype=self.dtype if dtype is None else dtype
    ).requires_grad_(requires_grad),
    "new_tensor": lambda self, data, dtype=None, device=None, requires_grad=False: _new_tensor(
        self, data, dtype, requires_grad
    ),
}


def _new(op: str, like: Tensor, size: tuple[Any, ...], dtype: Any, requires_grad: bool) -> Tensor:
    if len(size) == 1 and isinstance(size[0], (list, tuple)):
        size = tuple(size[0])
    out = call(op, list(size), dtype=like.dtype if dtype is None else dtype)
    return out.requires_grad_(requires_grad) if requires_grad else out


def _new_tensor(like: Tensor, data: Any, dtype: Any, requires_grad: bool) -> Tensor:
    from .tensor import tensor

    return tensor(data, dtype=like.dtype if dtype is None else dtype, requires_grad=requires_grad)


def _cuda(self: Tensor, device: Any) -> Tensor:
    if device is None:
        return call("aten::cuda", self)
    return call("aten::to", self, as_device(device))


def _transposed(self: Tensor) -> Tensor:
    return call("aten::permute", self, list(range(self.dim() - 1, -1, -1)))


def install() -> None:
    """Put every implemented tensor operator on `Tensor` as a method (idempotent)."""
    for name, fn in {**_DUNDERS, **_CONVENIENCE}.items():
        setattr(Tensor, name, fn)
    Tensor.T = property(_transposed)  # type: ignore[attr-defined]
    for op in registry.operators():
        if not op.has_implementation:
            continue
        schema = op.schema
        if schema.namespace != "aten" or not schema.arguments:
            continue
        first = schema.arguments[0]
        if first.name != "self" or not isinstance(first.type, TensorType):
            continue
        name = schema.name.name
        if name.startswith("_") or (
            hasattr(Tensor, name) and not getattr(getattr(Tensor, name), "_operator_method", False)
        ):
            continue
        method = _method(name)
        method._operator_method = True  # type: ignore[attr-defined]
        setattr(Tensor, name, method)
