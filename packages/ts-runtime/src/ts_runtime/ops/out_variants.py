"""`out=` overloads, made once for every operator whose functional form has a kernel.

PyTorch declares most operators twice: the functional form and an `out=`
form that writes its result into tensors the caller passes:

    aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
    aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)

An `out=` overload is paired with the overload of the same name whose
arguments are its own minus the `out` ones (same names, same types, same
order). Its kernel runs the functional kernel and copies each result into its
`out` tensor as PyTorch's `resize_output` and `copy_` do:

- the result's dtype must be castable to the out tensor's (PyTorch's
  `canCast`: no complex into real, no floating into integral, nothing but
  bool into bool), otherwise a `TensorError`;
- an out tensor of another shape is resized, with PyTorch's deprecation
  warning when it had elements;
- the out tensor is returned (the same object), its version bumped.

Under grad mode, an `out=` call with an argument that requires grad is an
error, as in PyTorch. Explicit kernels registered before `register_all`
runs win; `register_all` is idempotent and cheap (a dictionary walk over the
names that have kernels).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
from ts_ir import TensorType
from ts_schema import Operator, registry

from ..autograd.grad_mode import GRAD_MODE
from ..dtypes import scalar_type_of_numpy
from ..tensor import Tensor, TensorError, bump_version
from .dispatch import implemented_names, implements


def _signature(args: Iterable[Any]) -> tuple[tuple[str, str], ...]:
    return tuple((a.name, str(a.real_type)) for a in args)


def _out_positions(op: Operator) -> list[int]:
    return [
        i for i, a in enumerate(op.schema.arguments) if a.is_out and isinstance(a.type, TensorType)
    ]


def can_cast(source: np.dtype, target: np.dtype) -> bool:
    """PyTorch's `canCast` for an operator result written into an out tensor."""
    if source.kind == "c" and target.kind != "c":
        return False
    if source.kind == "f" and target.kind in "biu":
        return False
    return not (source.kind != "b" and target.kind == "b")


def write_out(out: Tensor, value: Tensor, name: str) -> None:
    """Copy `value` into `out`, resizing `out` to its shape as PyTorch's `resize_output` does."""
    src, dst = value._data, out._data
    if not can_cast(src.dtype, dst.dtype):
        raise TensorError(
            f"result type {scalar_type_of_numpy(src.dtype).name} can't be cast to the desired "
            f"output type {scalar_type_of_numpy(dst.dtype).name} ({name})"
        )
    if dst.shape != src.shape:
        if dst.size != 0:
            warnings.warn(
                f"An output with one or more elements was resized since it had shape "
                f"{list(dst.shape)}, which does not match the required output shape "
                f"{list(src.shape)}. This behavior is deprecated, and in a future PyTorch "
                "release outputs will not be resized unless they have zero elements. You can "
                "explicitly reuse an out tensor t by resizing it, inplace, to zero elements "
                "with t.resize_(0).",
                UserWarning,
                stacklevel=3,
            )
        out._data = np.empty(src.shape, dtype=dst.dtype)
    out._data[...] = src
    bump_version(out)


def _requires_grad(values: Iterable[Any]) -> bool:
    for v in values:
        if isinstance(v, Tensor):
            if v.requires_grad:
                return True
        elif isinstance(v, (list, tuple)) and _requires_grad(v):
            return True
    return False


def make_out_kernel(op: Operator, functional: Operator) -> Callable[..., Any]:
    """The kernel of `out=` overload `op`: `functional`'s kernel, then a copy into each out."""
    outs = _out_positions(op)
    ins = [i for i in range(len(op.schema.arguments)) if i not in outs]
    impl = functional.impl
    kernel = getattr(impl, "__wrapped__", impl)
    name = op.key
    # the functional form's arguments: ("in", position in op) or ("option", default value)
    plan: list[tuple[str, Any]] = []
    given = iter(ins)
    for a in functional.schema.arguments:
        if a.name in _TENSOR_OPTIONS and a.name not in {x.name for x in op.schema.arguments}:
            plan.append(("dtype" if a.name == "dtype" else "option", a.default_value))
        else:
            plan.append(("in", next(given)))

    def out_kernel(*args: Any) -> Any:
        if GRAD_MODE.enabled and _requires_grad(args):
            raise TensorError(
                f"{functional.qualified_name.partition('::')[2]}(): functions with out=... "
                "arguments don't support automatic differentiation, but one of the arguments "
                "requires grad."
            )
        values = []
        for how, x in plan:
            if how == "in":
                values.append(args[x])
            elif how == "dtype":
                values.append(args[outs[0]].dtype)
            else:
                values.append(x)
        value = kernel(*values)
        values = value if isinstance(value, tuple) else (value,)
        if len(values) != len(outs):
            raise TensorError(f"{name}: {len(values)} results for {len(outs)} out tensors")
        for i, v in zip(outs, values, strict=True):
            write_out(args[i], v, name)
        if len(outs) == 1:
            return args[outs[0]]
        return tuple(args[i] for i in outs)

    out_kernel.__name__ = f"{functional.qualified_name.partition('::')[2]}_out"
    return out_kernel


#: Arguments of a factory's functional form that its out= form leaves out: the out
#: tensor decides them (its dtype is passed as `dtype`).
_TENSOR_OPTIONS = frozenset({"dtype", "layout", "device", "pin_memory", "memory_format"})


def functional_of(op: Operator, overloads: list[Operator]) -> Operator | None:
    """The implemented overload whose arguments are `op`'s without its out tensors
    (a factory's may also take the tensor options its out= form leaves out)."""
    outs = _out_positions(op)
    if not outs or len(outs) != sum(a.is_out for a in op.schema.arguments):
        return None
    wanted = _signature(a for i, a in enumerate(op.schema.arguments) if i not in outs)
    for other in overloads:
        if other is op or other.impl is None or any(a.is_out for a in other.schema.arguments):
            continue
        if other.schema.is_vararg or len(other.schema.returns) != len(outs):
            continue
        args = other.schema.arguments
        if _signature(args) == wanted:
            return other
        kept = {a.name for a in op.schema.arguments}
        options = [a for a in args if a.name in _TENSOR_OPTIONS and a.name not in kept]
        if (
            len(outs) == 1
            and options
            and all(a.kwarg_only and a.has_default_value for a in options)
            and _signature(a for a in args if a not in options) == wanted
        ):
            return other
    return None


def register_all() -> int:
    """Give every `out=` overload without a kernel one made from its functional form."""
    added = 0
    for name in sorted(implemented_names()):
        overloads = registry.lookup(name)
        for op in overloads:
            if op.has_implementation or not op.schema.arguments:
                continue
            functional = functional_of(op, overloads)
            if functional is None:
                continue
            implements(op.key, autograd=False)(make_out_kernel(op, functional))
            added += 1
    return added
