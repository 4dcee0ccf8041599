"""Derivative formulas evaluated symbolically: one formula, eager and in graphs.

A formula registered with `@derivative` is Python over tensors: `grad * other`,
`self.pow(e - 1)`, `sum_to(g, x)`. Eager autograd calls it on Tensors. To
differentiate a graph, `formula_rule` calls the same function on
`SymbolicTensor`s, tensors that stand for IR values: every operator call a
symbolic tensor takes part in (a method, a Python operator, `call(...)`) is
resolved by eager dispatch as usual, then written into the graph as a node
instead of computed (`dispatch.SYMBOLIC_BINDING`), and its outputs are
symbolic again. What a formula may know about a symbolic tensor is what the
graph's types say: its rank (`dim()`, `ndim`) and dtype. Its sizes are values
of the graph (`x.size()` writes `aten::size`), to pass to operators.

A formula that needs more (concrete sizes to loop over, the values
themselves, numpy) cannot be written into a graph: reading them raises
`NotSymbolicError`, and the operator's nodes are left to eager autograd,
outside differentiable graphs. Constant arguments are passed as the Python
values they are, so `if alpha != 1` works as it does eagerly; an argument
that is not a constant in the graph is symbolic, and branching on it
raises too.

`install()` makes `formula_rule` the default rule of ts-passes' symbolic
gradient table (`ts_passes.GRADIENTS`): every operator with an eager formula
has a symbolic one, from the same source.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from ts_ir import (
    ListType,
    Node,
    NoneType,
    OptionalType,
    TensorType,
    TorchScriptError,
    Type,
    Value,
    constant_value,
    prim,
)
from ts_passes import GRADIENTS, GradientBuilder, NotDifferentiableError
from ts_schema import registry

from ..dtypes import numpy_dtype
from ..ops import dispatch
from ..ops.dispatch import DERIVATIVES, _Binding
from ..tensor import Tensor


class NotSymbolicError(NotDifferentiableError):
    """A formula read something a graph does not know before it runs (sizes, values)."""


class SymbolicArray:
    """What a symbolic tensor has for `_data`: the rank and dtype its type gives, nothing else."""

    __slots__ = ("type",)

    def __init__(self, type: TensorType) -> None:
        self.type = type

    @property
    def ndim(self) -> int:
        rank = self.type.dim()
        if rank is None:
            raise NotSymbolicError("the formula reads the rank of a tensor of unknown rank")
        return rank

    @property
    def dtype(self) -> np.dtype:
        st = self.type.scalar_type
        if st is None:
            raise NotSymbolicError("the formula reads the dtype of a tensor of unknown dtype")
        return np.dtype(numpy_dtype(int(st)))

    def __getattr__(self, name: str) -> Any:
        raise NotSymbolicError(f"the formula reads `{name}` of a tensor's data")

    def _refuse(self, *args: Any) -> Any:
        raise NotSymbolicError("the formula computes with a tensor's data")

    # Python's operators look these up on the class, not through __getattr__
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _refuse
    __truediv__ = __rtruediv__ = __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = _refuse
    __pow__ = __rpow__ = __matmul__ = __rmatmul__ = __neg__ = __pos__ = __abs__ = _refuse
    __lt__ = __le__ = __gt__ = __ge__ = _refuse
    __and__ = __rand__ = __or__ = __ror__ = __xor__ = __rxor__ = __invert__ = _refuse
    __getitem__ = __setitem__ = __iter__ = __len__ = __bool__ = _refuse
    __float__ = __int__ = __index__ = __complex__ = __array__ = _refuse


class SymbolicTensor(Tensor):
    """A tensor standing for a graph value while a formula is written into a graph."""

    __slots__ = ("builder", "value")
    _ts_symbolic = True

    def __repr__(self) -> str:
        return f"SymbolicTensor(%{self.value.debug_name} : {self.value.type})"

    # sizes are graph values
    def size(self, dim: int | None = None) -> Any:
        if dim is None:
            return symbolic(self.builder, self.builder.insert("aten::size", [self.value]))
        return symbolic(self.builder, self.builder.insert("aten::size", [self.value, dim]))

    @property
    def shape(self) -> Any:
        return self.size()

    def numel(self) -> Any:
        return symbolic(self.builder, self.builder.insert("aten::numel", [self.value]))

    def symbolic_sum_to(self, like: Tensor) -> Tensor:
        """`ops.common.sum_to` on symbolic tensors: `self` has the shape of the result of the
        node being differentiated; the sum is to `like`'s size where it differs."""
        if not isinstance(like, SymbolicTensor):
            raise NotSymbolicError("sum_to of a symbolic gradient to a concrete tensor")
        node = self.builder.node
        if node is None or not node.outputs:
            raise NotSymbolicError("sum_to outside of a gradient rule")
        out = self.builder.sum_to(self.value, like.value, node.outputs[0])
        return symbolic(self.builder, out)

    def symbolic_reduce_to(self, like: Tensor) -> Tensor:
        """`ops.common.reduce_to` on symbolic tensors: the sum to `like`'s size, compared with
        `self`'s own size (so in the backward graph, where `self` is known)."""
        if not isinstance(like, SymbolicTensor):
            raise NotSymbolicError("reduce_to of a symbolic gradient to a concrete tensor")
        out = self.builder.sum_to(self.value, like.value, self.value)
        return symbolic(self.builder, out)

    def detach(self) -> Tensor:
        return symbolic(self.builder, self.builder.insert("aten::detach", [self.value]))

    def __bool__(self) -> bool:
        raise NotSymbolicError("the formula branches on a tensor's value")

    def __len__(self) -> int:
        raise NotSymbolicError("the formula reads a tensor's length")

    def __iter__(self) -> Any:
        raise NotSymbolicError("the formula iterates over a tensor")

    def __hash__(self) -> int:
        return id(self)


class SymbolicValue:
    """A value that is not a tensor (a size, a number) standing for a graph value."""

    __slots__ = ("builder", "value")
    _ts_symbolic = True

    def __init__(self, builder: GradientBuilder, value: Value) -> None:
        self.builder = builder
        self.value = value

    @property
    def ir_type(self) -> Type:
        return self.value.type

    def __getitem__(self, index: Any) -> SymbolicValue:
        return symbolic(self.builder, self.builder.insert("aten::__getitem__", [self.value, index]))

    def _refuse(self, *args: Any) -> Any:
        raise NotSymbolicError(
            f"the formula needs the value of %{self.value.debug_name} ({self.value.type}), "
            "which is known only when the graph runs"
        )

    __bool__ = __int__ = __float__ = __index__ = __len__ = __iter__ = _refuse  # type: ignore[assignment]
    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = _refuse  # type: ignore[assignment]

    # arithmetic is written into the graph, as the scalar operators TorchScript has
    def __add__(self, other: Any) -> Any:
        return dispatch.call("aten::add", self, other)

    def __radd__(self, other: Any) -> Any:
        return dispatch.call("aten::add", other, self)

    def __sub__(self, other: Any) -> Any:
        return dispatch.call("aten::sub", self, other)

    def __rsub__(self, other: Any) -> Any:
        return dispatch.call("aten::sub", other, self)

    def __mul__(self, other: Any) -> Any:
        return dispatch.call("aten::mul", self, other)

    def __rmul__(self, other: Any) -> Any:
        return dispatch.call("aten::mul", other, self)

    def __truediv__(self, other: Any) -> Any:
        return dispatch.call("aten::div", self, other)

    def __rtruediv__(self, other: Any) -> Any:
        return dispatch.call("aten::div", other, self)

    def __neg__(self) -> Any:
        return dispatch.call("aten::neg", self)

    def __hash__(self) -> int:
        return id(self)

    def __repr__(self) -> str:
        return f"SymbolicValue(%{self.value.debug_name} : {self.value.type})"


def symbolic(builder: GradientBuilder, value: Value) -> Any:
    """The symbolic stand-in for graph value `value`."""
    if isinstance(value.type, TensorType):
        t = object.__new__(SymbolicTensor)
        t._data = SymbolicArray(value.type)  # type: ignore[assignment]
        t._ag = None
        t._base = None
        t._version = None
        t._view_version = 0
        t.builder = builder
        t.value = value
        return t
    return SymbolicValue(builder, value)


def _to_ir(x: Any) -> Any:
    if isinstance(x, (SymbolicTensor, SymbolicValue)):
        return x.value
    if isinstance(x, Tensor):
        raise NotSymbolicError("the formula computes with a concrete tensor")
    if type(x) in (list, tuple):
        return type(x)(_to_ir(e) for e in x)
    if isinstance(x, np.generic):
        return x.item()
    return x


def _builder_of(values: Sequence[Any]) -> GradientBuilder:
    for v in values:
        if isinstance(v, (SymbolicTensor, SymbolicValue)):
            return v.builder
        if type(v) in (list, tuple):
            for e in v:
                if isinstance(e, (SymbolicTensor, SymbolicValue)):
                    return e.builder
    raise NotSymbolicError("a symbolic call without symbolic arguments")


class SymbolicBinding(_Binding):
    """A binding that writes its operator's call into the graph of its symbolic arguments."""

    __slots__ = ()
    symbolic = True

    def __init__(self, binding: _Binding) -> None:
        super().__init__(binding.op, binding.plan)
        self.impl = self._write

    def _write(self, *args: Any) -> Any:
        builder = _builder_of(args)
        out = builder.emit(self.op, [_to_ir(a) for a in args])
        if out is None:
            return None
        outs = out if isinstance(out, tuple) else (out,)
        wrapped = tuple(symbolic(builder, v) for v in outs)
        return wrapped if isinstance(out, tuple) else wrapped[0]


# ---------------------------------------------------------------------------
# The rule: an eager formula, evaluated on symbolic tensors


def _argument(builder: GradientBuilder, v: Value) -> Any:
    if v.node.kind is prim.Constant and not isinstance(v.type, TensorType):
        return constant_value(v)
    if isinstance(v.type, NoneType):
        return None
    if isinstance(v.type, OptionalType) and isinstance(v.type.element, TensorType):
        raise NotSymbolicError(f"%{v.debug_name} may be a tensor or None")
    if isinstance(v.type, ListType) and isinstance(v.type.element, TensorType):
        raise NotSymbolicError("tensor list arguments are not differentiated symbolically")
    return symbolic(builder, v)


def formula_rule(builder: GradientBuilder, node: Node, grads: list[Value | None]) -> list[Any]:
    """The gradient of `node` written by its eager derivative formula (see the module docstring)."""
    op = registry.operator_for(node)
    if op is None:
        raise NotSymbolicError(f"{node.kind} matches no schema")
    formula = DERIVATIVES.lookup_operator(op)
    if formula is None:
        raise NotSymbolicError(f"{op.key} has no derivative formula")
    args = [_argument(builder, v) for v in node.inputs]
    outs = [symbolic(builder, o) for o in node.outputs]
    result = outs[0] if len(outs) == 1 else tuple(outs)
    gs = [None if g is None else symbolic(builder, g) for g in grads]
    grad_in = gs[0] if len(gs) == 1 else tuple(gs)
    try:
        per_arg = tuple(formula(grad_in, *args, result=result))
    except NotDifferentiableError:
        raise
    except TorchScriptError as exc:
        # a typed refusal of an operator called on symbolic tensors (an overload that does
        # not accept them, say). Anything else (AttributeError, TypeError, ...) is a bug in
        # the formula or in this module and propagates: hiding it would silently leave the
        # operator's nodes, and every group around them, to eager autograd.
        raise NotSymbolicError(f"{op.key}: the formula cannot run symbolically ({exc})") from exc
    gradients: list[Value | None] = []
    for g in per_arg:
        if g is None:
            gradients.append(None)
        elif isinstance(g, SymbolicTensor):
            gradients.append(g.value)
        else:
            raise NotSymbolicError(f"{op.key}: the formula returned {type(g).__name__}")
    return gradients


def install() -> None:
    """Make eager formulas the symbolic gradients (`ts_passes.GRADIENTS`' default rule)."""
    dispatch.SYMBOLIC_BINDING[0] = SymbolicBinding
    GRADIENTS.default = formula_rule
