"""Eager pointwise operators on CUDA tensors: one-node fusion groups.

    x.cuda().sigmoid()   # aten::sigmoid as a group of one node, compiled by the CUDA fuser

Every operator with a CUDA lowering runs on CUDA tensors this way: the call
becomes a graph of one node (tensors and numbers as its inputs, the
arguments its lowering needs as constants: a dtype, a rounding mode, an
`alpha` of 1), which the fusion backend specializes, compiles (once per
structure) and launches like any group, so eager and fused kernels come from
the same code generator and compute the same. Numbers are inputs, not
constants, so `x * 0.5` and `x * 0.25` share one kernel. In-place variants
(`x.add_(y)`) compute the functional form and copy the result into `x`,
after PyTorch's check that the result dtype can be cast to `x`'s.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ts_fuser_cpu import UnsupportedFusionError
from ts_ir import (
    BoolType,
    Device,
    FloatType,
    Graph,
    IntType,
    NumberType,
    OptionalType,
    TensorType,
    Type,
    Value,
)
from ts_runtime.devices import DeviceArray, DeviceError
from ts_runtime.dtypes import scalar_type_of_numpy
from ts_runtime.ops.common import check_inplace_cast
from ts_runtime.tensor import Tensor, TensorError, bump_version, wrap
from ts_schema import Operator, registry

from ..backend import backend
from ..lowerings import CUDA_LOWERINGS
from ..storage import CudaArray
from .copies import copy_into

_NUMBER_ARGS = (NumberType, FloatType, IntType)
#: Bound kernels kept per operator call shape before starting over.
MAX_BOUND = 4096


def _argument_type(t: Type) -> Type:
    return t.element if isinstance(t, OptionalType) else t


def on_device(value: Any, device: Device, op: Operator) -> Tensor:
    """A tensor argument on the CUDA device: CUDA tensors as they are; a 0-dim CPU tensor
    (which PyTorch lets mix with any device) copied over; anything else is an error."""
    data = value._data
    if isinstance(data, CudaArray):
        return value
    if isinstance(data, DeviceArray) or data.ndim != 0:
        raise DeviceError(
            f"{op.key}: expected all tensors to be on the same device, but found at least two "
            f"devices, {device} and {value.device}"
        )
    from ..launching import driver

    return wrap(CudaArray.from_host(driver(), data))


class _Group:
    """The one-node graph of an operator for one pattern of arguments."""

    __slots__ = ("bound", "graph", "runtime")

    def __init__(self, graph: Graph, runtime: list[int]) -> None:
        self.graph = graph
        self.runtime = runtime  # argument positions that are graph inputs, in input order
        self.bound: dict[tuple, Callable[..., Any]] = {}


def _pattern(op: Operator, args: tuple[Any, ...]) -> tuple:
    """What the graph depends on: per argument "T" (tensor), a number's type (a graph input),
    or ("c", value) for a constant."""
    kinds: list[Any] = []
    for arg, value in zip(op.schema.arguments, args, strict=False):
        if isinstance(value, Tensor):
            kinds.append("T")
        elif (
            isinstance(value, (bool, int, float))
            and isinstance(_argument_type(arg.type), _NUMBER_ARGS)
            and not (arg.name == "alpha" and value == 1)
        ):
            kinds.append(type(value))
        else:
            kinds.append(("c", type(value), repr(value)))
    return tuple(kinds)


_NUMBER_TYPES = {bool: BoolType.get(), int: IntType.get(), float: FloatType.get()}


def _build(op: Operator, args: tuple[Any, ...], pattern: tuple) -> _Group | None:
    g = Graph()
    values: list[Value | None] = []
    runtime = []
    for i, kind in enumerate(pattern):
        if kind == "T":
            values.append(g.add_input(f"a{i}", TensorType.get()))
            runtime.append(i)
        elif isinstance(kind, type):
            values.append(g.add_input(f"a{i}", _NUMBER_TYPES[kind]))
            runtime.append(i)
        else:
            values.append(None)
    # constants after the inputs (ts-passes' group layout: inputs first)
    g.set_insert_point(g.block)
    for i, value in enumerate(args[: len(pattern)]):
        if values[i] is None:
            values[i] = g.insert_constant(value)
    node = g.create(op.schema.name, [v for v in values if v is not None])
    g.append_node(node)
    g.register_output(node.output())
    if registry.operator_for(node) is not op:
        return None
    return _Group(g, runtime)


def _spec(value: Any) -> Type:
    if isinstance(value, Tensor):
        a = value._data
        dtype = scalar_type_of_numpy(a.dtype)
        strides = tuple(s // a.itemsize for s in a.strides)
        return TensorType(dtype, value.device, False, a.shape, strides)
    return _NUMBER_TYPES[type(value)]


class PointwiseKernel:
    """The CUDA kernel of one operator with a CUDA lowering (see the module docstring)."""

    def __init__(self, op: Operator) -> None:
        self.op = op
        self.groups: dict[tuple, _Group | None] = {}

    def __call__(self, *args: Any) -> Any:
        op = self.op
        device = next(a.device for a in args if isinstance(a, Tensor) and a.device.type == "cuda")
        args = tuple(on_device(a, device, op) if isinstance(a, Tensor) else a for a in args)
        pattern = _pattern(op, args)
        if pattern in self.groups:
            group = self.groups[pattern]
        else:
            group = self.groups[pattern] = _build(op, args, pattern)
        if group is None:
            raise DeviceError(f"{op.key} has no kernel for tensors on cuda with these arguments")
        inputs = [args[i] for i in group.runtime]
        key = tuple(
            (a._data.dtype, a._data.shape, a._data.strides) if isinstance(a, Tensor) else type(a)
            for a in inputs
        )
        kernel = group.bound.get(key)
        if kernel is None:
            try:
                kernel = backend.compile(group.graph, [_spec(a) for a in inputs])
            except UnsupportedFusionError as exc:
                raise DeviceError(f"{op.key} cannot run on cuda tensors: {exc}") from None
            if len(group.bound) >= MAX_BOUND:
                group.bound.clear()
            group.bound[key] = kernel
        out = kernel(*inputs)
        if out is None:
            raise TensorError(
                "Integers to negative integer powers are not allowed."
                if "pow" in op.qualified_name
                else "ZeroDivisionError"
            )
        return out


class InplaceKernel:
    """`x.op_(...)`: the functional operator's kernel, then a copy into `x`."""

    def __init__(self, op: Operator, functional: PointwiseKernel) -> None:
        self.op = op
        self.functional = functional

    def __call__(self, self_: Tensor, *args: Any) -> Tensor:
        if not isinstance(self_._data, CudaArray):
            raise DeviceError(
                f"{self.op.key}: the tensor written in place is on {self_.device}, not cuda"
            )
        out = self.functional(self_, *args)
        check_inplace_cast(self_, out._data.dtype, self.op.key)
        copy_into(self_._data, out._data)
        bump_version(self_)
        return self_


def _functional_of(op: Operator) -> Operator | None:
    name, overload = op.schema.name, op.schema.overload_name
    if not name.endswith("_"):
        return None
    key = name[:-1] + (f".{overload}" if overload else "")
    return registry.find(key)


#: Operators that are another operator with a constant argument appended (PyTorch defines
#: floor_divide as division rounding down).
ALIASES = {
    "aten::floor_divide": ("aten::div.Tensor_mode", "floor"),
    "aten::floor_divide.Scalar": ("aten::div.Scalar_mode", "floor"),
}


def _alias(op: Operator) -> Callable[..., Any] | None:
    target_key, extra = ALIASES[op.key]
    kernel = PointwiseKernel(registry.get(target_key))
    return lambda *args: kernel(*args, extra)


def pointwise_kernel(op: Operator) -> Callable[..., Any] | None:
    """The eager CUDA kernel of `op` when it is pointwise (it or its functional form has a
    CUDA lowering), else None."""
    schema = op.schema
    if op.key in ALIASES:
        return _alias(op)
    if schema.is_mutable:
        functional = _functional_of(op)
        if functional is None or CUDA_LOWERINGS.lookup_operator(functional) is None:
            return None
        if any(a.alias_info is not None and a.alias_info.is_write for a in schema.arguments[1:]):
            return None  # out= variants
        return InplaceKernel(op, PointwiseKernel(functional))
    if CUDA_LOWERINGS.lookup_operator(op) is None:
        return None
    return PointwiseKernel(op)
