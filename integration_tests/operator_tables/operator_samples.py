"""Sample inputs for every operator with a kernel, for the tests that check the rule tables.

`samples_for(op)` gives argument lists (Python values, tensors included) an
operator's kernel may be called with: the hand-written ones of `SAMPLES`
(keyed by overload, or by name for every overload) first, then generic ones
made from the schema, over several dtypes and shapes (two tensors of one
shape, a second that broadcasts, zero-dim tensors). Generic samples are
guesses: a kernel that refuses one (a typed error) just does not use it.

`build_node(op, args)` puts the call into a graph whose inputs have the
sample tensors' complete types, with every other argument a constant (lists
of tensors a `prim::ListConstruct`), so a rule sees what shape propagation
would see for those inputs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import ts_runtime as ts
from ts_ir import (
    BoolType,
    ComplexType,
    FloatType,
    Graph,
    IntType,
    ListType,
    Node,
    NoneType,
    NumberType,
    OptionalType,
    StringType,
    TensorType,
    Type,
)
from ts_schema import Operator, registry

NO_VALUE = object()

DTYPES = {
    "f32": np.float32,
    "f64": np.float64,
    "i64": np.int64,
    "i32": np.int32,
    "b": np.bool_,
    "u8": np.uint8,
}

#: (dtype of the first tensor, dtype of the others)
DTYPE_VARIANTS = (
    ("f32", "f32"),
    ("f64", "f64"),
    ("i64", "i64"),
    ("i32", "i32"),
    ("b", "b"),
    ("f32", "i64"),
    ("i64", "f32"),
    ("f64", "f32"),
)
#: (shape of the first tensor, shape of the others)
SHAPE_VARIANTS = (((2, 3), (2, 3)), ((2, 3), (3,)), ((), ()))


class Maker:
    """Deterministic sample tensors: `m.f(2, 3)` float32 normal, `m.i(3, high=4)` int64, ..."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def array(self, shape: tuple[int, ...], dtype: Any, *, low: int = 0, high: int = 3) -> Any:
        dt = np.dtype(dtype)
        if dt.kind == "f":
            return self.rng.standard_normal(shape).astype(dt)
        if dt.kind == "b":
            return self.rng.random(shape) > 0.5
        return self.rng.integers(low, high, shape).astype(dt)

    def t(self, *shape: int, dtype: Any = np.float32, **kw: Any) -> ts.Tensor:
        return ts.from_numpy(np.ascontiguousarray(self.array(shape, dtype, **kw)))

    def f(self, *shape: int) -> ts.Tensor:
        return self.t(*shape, dtype=np.float32)

    def d(self, *shape: int) -> ts.Tensor:
        return self.t(*shape, dtype=np.float64)

    def i(self, *shape: int, high: int = 3) -> ts.Tensor:
        return self.t(*shape, dtype=np.int64, high=high)

    def b(self, *shape: int) -> ts.Tensor:
        return self.t(*shape, dtype=np.bool_)

    def p(self, *shape: int) -> ts.Tensor:
        """Positive float32 values (for logs, roots, divisors)."""
        return ts.from_numpy(np.abs(self.array(shape, np.float32)) + np.float32(0.5))


# ---------------------------------------------------------------------------
# generic samples from the schema

_SIZE_NAMES = {"size", "shape", "sizes", "output_size"}


def _element(t: Type) -> Type:
    return t.element if isinstance(t, OptionalType) else t


def _is_tensor(t: Type) -> bool:
    return isinstance(t, TensorType)


def _generic_value(arg: Any, tensor: Callable[[bool], Any]) -> Any:
    t = arg.type
    if _is_tensor(t):
        return tensor(False)
    if isinstance(t, OptionalType) and _is_tensor(t.element):
        return None if arg.has_default_value else NO_VALUE
    if isinstance(t, ListType) and _is_tensor(t.element):
        return [tensor(True), tensor(True)]
    if arg.has_default_value:
        return arg.default_value
    e = _element(t)
    name = arg.name
    if isinstance(e, BoolType):
        return False
    if isinstance(e, IntType):
        if name in ("dim", "dim0", "dim1", "dim2", "source", "destination"):
            return -1
        if name in ("diagonal", "offset", "index", "start"):
            return 0
        return 2
    if isinstance(e, FloatType):
        return 0.5
    if isinstance(e, (NumberType, ComplexType)):
        return 2
    if isinstance(e, ListType) and isinstance(e.element, IntType):
        if name in _SIZE_NAMES:
            return [2, 3]
        if name in ("dim", "dims"):
            return [-1]
        return [1]
    if isinstance(t, OptionalType):
        return None
    return NO_VALUE


def generic_samples(op: Operator, maker: Maker) -> Iterator[tuple[str, list[Any]]]:
    schema = op.schema
    if schema.is_vararg:
        return
    if not any(
        _is_tensor(_element(a.type))
        or (isinstance(a.type, ListType) and _is_tensor(a.type.element))
        for a in schema.arguments
    ):
        # a factory: one sample, from its defaults and sizes
        args = [_generic_value(a, lambda _: NO_VALUE) for a in schema.arguments]
        if not any(a is NO_VALUE for a in args):
            yield "no tensors", args
        return
    for dtypes in DTYPE_VARIANTS:
        for shapes in SHAPE_VARIANTS:
            tensor = _TensorSource(maker, dtypes, shapes)
            args = [_generic_value(a, tensor) for a in schema.arguments]
            if any(a is NO_VALUE for a in args):
                return
            yield f"{dtypes[0]}/{dtypes[1]} {shapes[0]}/{shapes[1]}", args


class _TensorSource:
    """Tensors for one generic sample: the first tensor argument (and the tensors of a list)
    get the first dtype and shape, the other tensor arguments the second."""

    def __init__(self, maker: Maker, dtypes: tuple[str, str], shapes: tuple[Any, Any]) -> None:
        self.maker, self.dtypes, self.shapes = maker, dtypes, shapes
        self.made = 0

    def __call__(self, in_list: bool) -> Any:
        first = in_list or self.made == 0
        self.made += 1
        k = 0 if first else 1
        return self.maker.t(*self.shapes[k], dtype=DTYPES[self.dtypes[k]])


# ---------------------------------------------------------------------------
# hand-written samples: key or name -> function of a Maker giving argument lists

Samples = Callable[[Maker], list[list[Any]]]
SAMPLES: dict[str, Samples] = {}


def samples(*keys: str) -> Callable[[Samples], Samples]:
    def register(fn: Samples) -> Samples:
        for key in keys:
            SAMPLES[key] = fn
        return fn

    return register


def samples_for(op: Operator, *, generic: bool = True) -> Iterator[tuple[str, list[Any]]]:
    """(label, arguments) samples for an operator: hand-written ones, then generic ones."""
    maker = Maker([sum(map(ord, op.key)), 7])
    for key in (op.key, op.qualified_name):
        fn = SAMPLES.get(key)
        if fn is not None:
            for i, args in enumerate(fn(maker)):
                if len(args) == len(op.schema.arguments):
                    yield f"sample {i}", args
            break
    if generic:
        yield from generic_samples(op, maker)


# ---------------------------------------------------------------------------
# a node for a call


def build_node(op: Operator, args: list[Any]) -> tuple[Graph, Node] | None:
    """A graph with one node calling `op` on `args` (tensors as typed inputs); None when the
    registry would resolve that node to another overload."""
    g = Graph()
    inputs = []
    for value, arg in zip(args, op.schema.arguments, strict=True):
        inputs.append(_as_value(g, value, arg.type))
    node = g.create(op.qualified_name, inputs, len(op.schema.returns))
    for out, ret in zip(node.outputs, op.schema.returns, strict=True):
        out.set_type(_declared(ret.type))
    g.insert_node(node)
    for out in node.outputs:
        g.register_output(out)
    if registry.operator_for(node) is not op:
        return None
    return g, node


def _declared(t: Type) -> Type:
    return t if not t.has_free_variables() else TensorType.get() if _is_tensor(t) else t


def _as_value(g: Graph, value: Any, declared: Type) -> Any:
    if isinstance(value, ts.Tensor):
        return g.add_input(type=value.type_for_ir())
    if isinstance(value, (list, tuple)) and any(isinstance(v, ts.Tensor) for v in value):
        items = [_as_value(g, v, TensorType.get()) for v in value]
        element = TensorType.get() if all(isinstance(v, ts.Tensor) for v in value) else None
        if element is None:
            from ts_ir import OptionalType as Opt

            element = Opt(TensorType.get())
        return g.insert_node(g.create_list(element, items)).output()
    if isinstance(value, tuple):
        value = list(value)
    if isinstance(value, list) and value and all(isinstance(v, list) for v in value):
        # nested lists are built, as compiled code builds them
        items = [_as_value(g, v, TensorType.get()) for v in value]
        return g.insert_node(g.create_list(items[0].type, items)).output()
    if isinstance(value, list):
        list_type = _element(declared)
        if isinstance(list_type, ListType) and (not value or not list_type.has_free_variables()):
            return g.insert_constant(value, type=list_type)
    return g.insert_constant(value)


def tensor_outputs(value: Any) -> list[Any]:
    """A kernel result's tensors, in order (inside tuples and lists)."""
    if isinstance(value, ts.Tensor):
        return [value]
    if isinstance(value, (tuple, list)):
        return [t for v in value for t in tensor_outputs(v)]
    return []


def is_none_type(t: Type) -> bool:
    return isinstance(t, NoneType)


def is_string(t: Type) -> bool:
    return isinstance(_element(t), StringType)


# ---------------------------------------------------------------------------
# the hand-written samples

F32 = np.float32


@samples("aten::view.dtype")
def _(m: Maker) -> list[list[Any]]:
    return [[m.f(2, 4), ts.int32], [m.d(3), ts.int64]]


@samples("aten::narrow.Tensor")
def _(m: Maker) -> list[list[Any]]:
    return [[m.f(4, 3), 0, ts.tensor(1), 2]]


@samples("aten::swapaxes", "aten::swapdims", "aten::transpose.int")
def _(m: Maker) -> list[list[Any]]:
    return [[m.f(2, 3, 4), 0, 2], [m.i(3, 1), -1, 0]]


@samples("aten::mT.a", "aten::numpy_T.a", "aten::mT", "aten::adjoint", "aten::numpy_T")
def _(m: Maker) -> list[list[Any]]:
    return [[m.f(2, 3, 4)], [m.i(3, 2)]]


@samples("aten::to.device")
def _(m: Maker) -> list[list[Any]]:
    return [[m.f(2, 3), ts.device("cpu"), ts.float64, False, False, None]]


@samples("aten::select_scatter")
def _(m: Maker) -> list[list[Any]]:
    return [[m.f(3, 4), m.f(4), 0, 1], [m.d(3, 4), m.d(3), 1, -1]]


@samples("aten::diagonal_scatter")
def _(m: Maker) -> list[list[Any]]:
    return [[m.f(3, 4), m.f(3), 0, 0, 1], [m.d(3, 4), m.d(2), 1, 0, 1]]


@samples("aten::as_strided_scatter")
def _(m: Maker) -> list[list[Any]]:
    return [[m.f(3, 4), m.f(2, 2), [2, 2], [1, 4], 1]]


@samples("aten::as_strided")
def _(m: Maker) -> list[list[Any]]:
    return [[m.f(3, 4), [2, 2], [1, 4], 1], [m.d(6), [3], [2], None]]


@samples("aten::unflatten.int", "aten::unflatten")
def _(m: Maker) -> list[list[Any]]:
    return [[m.f(3, 6), 1, [2, -1]], [m.i(12), 0, [3, 4]]]


@samples("aten::tile")
def _(m: Maker) -> list[list[Any]]:
    return [[m.f(2, 3), [2]], [m.i(3), [2, 2]]]


@samples("aten::mm")
def _(m: Maker) -> list[list[Any]]:
    return [[m.f(2, 3), m.f(3, 4)], [m.d(1, 3), m.d(3, 2)], [m.i(2, 2), m.i(2, 3)]]


@samples("aten::bmm")
def _(m: Maker) -> list[list[Any]]:
    return [[m.f(2, 2, 3), m.f(2, 3, 4)], [m.d(1, 2, 3), m.d(1, 3, 2)]]


@samples("aten::addmm", "aten::addmm_")
def _(m: Maker) -> list[list[Any]]:
    return [[m.f(2, 4), m.f(2, 3), m.f(3, 4), 1, 1], [m.d(2, 2), m.d(2, 3), m.d(3, 2), 0.5, 2]]


@samples("aten::baddbmm")
def _(m: Maker) -> list[list[Any]]:
    return [
        [m.f(2, 2, 4), m.f(2, 2, 3), m.f(2, 3, 4), 1, 1],
        [m.d(1, 2, 2), m.d(1, 2, 3), m.d(1, 3, 2), 2, 0.5],
    ]


@samples("aten::addmv")
def _(m: Maker) -> list[list[Any]]:
    return [[m.f(2), m.f(2, 3), m.f(3), 1, 1], [m.d(3), m.d(3, 2), m.d(2), 0.5, 2]]


@samples("aten::einsum")
def _(m: Maker) -> list[list[Any]]:
    return [
        ["ij,jk->ik", [m.f(2, 3), m.f(3, 4)], None],
        ["bij,bjk", [m.d(2, 2, 3), m.d(2, 3, 2)], None],
        ["ii", [m.f(3, 3)], None],
    ]


@samples("aten::conv1d")
def _(m: Maker) -> list[list[Any]]:
    return [
        [m.f(2, 3, 8), m.f(4, 3, 3), m.f(4), [1], [1], [1], 1],
        [m.d(3, 7), m.d(2, 3, 2), None, [2], [0], [2], 1],
    ]


@samples("aten::conv2d")
def _(m: Maker) -> list[list[Any]]:
    return [
        [m.f(1, 4, 6, 5), m.f(2, 2, 3, 3), m.f(2), [1, 2], [1, 0], [1, 1], 2],
        [m.d(2, 1, 5, 5), m.d(3, 1, 2, 2), None, [2, 2], [1, 1], [2, 1], 1],
    ]


@samples("aten::conv3d")
def _(m: Maker) -> list[list[Any]]:
    return [[m.f(1, 2, 4, 4, 4), m.f(2, 2, 2, 2, 2), None, [1, 1, 1], [0, 1, 0], [1, 1, 1], 1]]


@samples("aten::conv1d.padding", "aten::conv2d.padding", "aten::conv3d.padding")
def _(m: Maker) -> list[list[Any]]:
    out = []
    for n in (1, 2, 3):
        x, w = m.f(1, 2, *([5] * n)), m.f(3, 2, *([3] * n))
        out += [
            [x, w, None, [1] * n, "same", [1] * n, 1],
            [x, w, m.f(3), [2] * n, "valid", [1] * n, 1],
        ]
    return out


@samples("aten::conv_transpose1d")
def _(m: Maker) -> list[list[Any]]:
    return [[m.f(2, 3, 5), m.f(3, 2, 3), m.f(2), [2], [1], [1], 1, [1]]]


@samples("aten::conv_transpose2d.input")
def _(m: Maker) -> list[list[Any]]:
    return [[m.f(1, 4, 3, 3), m.f(4, 1, 2, 3), None, [2, 1], [0, 1], [1, 0], 2, [1, 2]]]


@samples("aten::conv_transpose3d.input")
def _(m: Maker) -> list[list[Any]]:
    return [
        [
            m.f(1, 2, 2, 3, 2),
            m.f(2, 1, 2, 2, 2),
            None,
            [1, 2, 1],
            [0, 0, 1],
            [0, 1, 0],
            1,
            [1, 1, 1],
        ]
    ]


@samples("aten::convolution")
def _(m: Maker) -> list[list[Any]]:
    return [
        [m.f(1, 2, 5, 5), m.f(3, 2, 3, 3), m.f(3), [1, 1], [1, 1], [1, 1], False, [0, 0], 1],
        [m.d(1, 2, 4), m.d(2, 3, 2), None, [2], [0], [1], True, [1], 1],
    ]


@samples("aten::_convolution")
def _(m: Maker) -> list[list[Any]]:
    x, w = m.f(1, 2, 5, 5), m.f(3, 2, 3, 3)
    return [[x, w, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1, False, False, True, True]]


@samples("aten::_convolution.deprecated")
def _(m: Maker) -> list[list[Any]]:
    x, w = m.f(1, 2, 5, 5), m.f(3, 2, 3, 3)
    return [[x, w, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1, False, False, True]]


@samples("aten::clamp", "aten::clamp_")
def _(m: Maker) -> list[list[Any]]:
    return [[m.f(2, 3), -0.5, 0.5], [m.i(4), 1, None], [m.d(3), None, 0], [m.i(2, 2), 0.5, None]]


@samples("aten::clamp.Tensor", "aten::clamp_.Tensor")
def _(m: Maker) -> list[list[Any]]:
    return [[m.f(2, 3), m.f(3), m.f(2, 1)], [m.d(4), None, m.d(4)], [m.i(3), m.f(3), None]]


@samples("aten::where.self")
def _(m: Maker) -> list[list[Any]]:
    return [[m.b(2, 3), m.f(2, 3), m.f(3)], [m.b(3), m.d(3), m.d(2, 3)], [m.b(2), m.i(2), m.f(2)]]


@samples("aten::where.ScalarOther", "aten::where.ScalarSelf")
def _(m: Maker) -> list[list[Any]]:
    return [[m.b(2, 3), m.d(2, 3), 0.5], [m.b(3), m.i(3), 2]]


@samples("aten::where.Scalar")
def _(m: Maker) -> list[list[Any]]:
    return [[m.b(2, 3), 1.0, 0.0], [m.b(3), 1, 0]]


@samples("aten::masked_fill.Scalar")
def _(m: Maker) -> list[list[Any]]:
    return [[m.d(2, 3), m.b(2, 3), 0.5], [m.i(2, 3), m.b(3), 7], [m.f(3), m.b(2, 3), 1.0]]


@samples("aten::masked_fill.Tensor")
def _(m: Maker) -> list[list[Any]]:
    return [[m.d(2, 3), m.b(2, 3), ts.tensor(0.5, dtype=ts.float64)]]


@samples("aten::masked_select")
def _(m: Maker) -> list[list[Any]]:
    return [[m.d(2, 3), m.b(2, 3)], [m.i(3), m.b(2, 3)]]


@samples("aten::masked_scatter")
def _(m: Maker) -> list[list[Any]]:
    return [[m.d(2, 3), m.b(2, 3), m.d(6)]]


def _positive(m: Maker) -> list[list[Any]]:
    return [[m.p(2, 3)], [m.p(3).double()]]


for _name in (
    "aten::log",
    "aten::log2",
    "aten::log10",
    "aten::sqrt",
    "aten::rsqrt",
    "aten::reciprocal",
):
    SAMPLES[_name] = _positive


@samples("aten::atanh", "aten::asin", "aten::acos")
def _(m: Maker) -> list[list[Any]]:
    return [[(m.d(2, 3).tanh() * 0.9)], [(m.f(3).tanh() * 0.9)]]


@samples("aten::acosh")
def _(m: Maker) -> list[list[Any]]:
    return [[m.p(2, 3).double() + 1.0]]


@samples("aten::log1p")
def _(m: Maker) -> list[list[Any]]:
    return [[m.p(2, 3).double() - 0.4]]


@samples("aten::zeros", "aten::ones", "aten::rand", "aten::randn")
def _(m: Maker) -> list[list[Any]]:
    return [[[2, 3], None, None, None, None], [[4], ts.float64, None, None, None]]


@samples("aten::empty.memory_format")
def _(m: Maker) -> list[list[Any]]:
    return [[[2, 3], None, None, None, None, None], [[0, 2], ts.int64, None, None, None, None]]


@samples("aten::full")
def _(m: Maker) -> list[list[Any]]:
    return [
        [[2, 3], 1.5, None, None, None, None],
        [[3], 2, None, None, None, None],
        [[2], True, None, None, None, None],
        [[2], 1, ts.float64, None, None, None],
    ]


@samples(
    "aten::zeros_like", "aten::ones_like", "aten::empty_like", "aten::rand_like", "aten::randn_like"
)
def _(m: Maker) -> list[list[Any]]:
    return [[m.d(2, 3), None, None, None, None, None], [m.f(3), ts.float64, None, None, None, None]]


@samples("aten::full_like")
def _(m: Maker) -> list[list[Any]]:
    return [
        [m.d(2, 3), 0.5, None, None, None, None, None],
        [m.i(3), 2, ts.float32, None, None, None, None],
    ]


@samples("aten::new_zeros", "aten::new_ones", "aten::new_empty")
def _(m: Maker) -> list[list[Any]]:
    return [
        [m.d(2, 3), [3, 1], None, None, None, None],
        [m.i(2), [2], ts.float32, None, None, None],
    ]


@samples("aten::new_full")
def _(m: Maker) -> list[list[Any]]:
    return [[m.d(2, 3), [3, 1], 2.5, None, None, None, None]]


@samples("aten::arange")
def _(m: Maker) -> list[list[Any]]:
    return [
        [5, None, None, None, None],
        [2.5, None, None, None, None],
        [4, ts.float64, None, None, None],
    ]


@samples("aten::arange.start")
def _(m: Maker) -> list[list[Any]]:
    return [[1, 5, None, None, None, None], [0.5, 3, None, None, None, None]]


@samples("aten::arange.start_step")
def _(m: Maker) -> list[list[Any]]:
    return [[1, 9, 2, None, None, None, None], [0, 1, 0.25, None, None, None, None]]


@samples("aten::linspace")
def _(m: Maker) -> list[list[Any]]:
    return [[0, 1, 5, None, None, None, None], [0.0, 2.0, 3, ts.float64, None, None, None]]


@samples("aten::eye")
def _(m: Maker) -> list[list[Any]]:
    return [[3, None, None, None, None], [2, ts.int64, None, None, None]]


@samples("aten::eye.m")
def _(m: Maker) -> list[list[Any]]:
    return [[2, 4, None, None, None, None]]


@samples("aten::tensor.bool")
def _(m: Maker) -> list[list[Any]]:
    return [[True, None, None, False]]


@samples("aten::tensor.int")
def _(m: Maker) -> list[list[Any]]:
    return [[3, None, None, False], [3, ts.float64, None, False]]


@samples("aten::tensor.float")
def _(m: Maker) -> list[list[Any]]:
    return [[2.5, None, None, False]]


@samples("aten::tensor.complex")
def _(m: Maker) -> list[list[Any]]:
    return [[1 + 2j, None, None, False]]


@samples("aten::tensor")
def _(m: Maker) -> list[list[Any]]:
    return [[[1, 2, 3], None, None, False], [[[1.0, 2.0], [3.0, 4.0]], None, None, False]]


@samples("aten::as_tensor.bool")
def _(m: Maker) -> list[list[Any]]:
    return [[False, None, None]]


@samples("aten::as_tensor.int")
def _(m: Maker) -> list[list[Any]]:
    return [[3, None, None]]


@samples("aten::as_tensor.float")
def _(m: Maker) -> list[list[Any]]:
    return [[0.5, ts.float64, None]]


@samples("aten::as_tensor.complex")
def _(m: Maker) -> list[list[Any]]:
    return [[1j, None, None]]


@samples("aten::as_tensor.list")
def _(m: Maker) -> list[list[Any]]:
    return [[[1, 2], None, None], [[[0.5], [1.5]], None, None]]


@samples("aten::scalar_tensor")
def _(m: Maker) -> list[list[Any]]:
    return [[2, None, None, None, None], [0.5, ts.float64, None, None, None]]


@samples("aten::index.Tensor", "aten::index.Tensor_hacked_twin")
def _(m: Maker) -> list[list[Any]]:
    i = ts.tensor([0, 2, 1])
    return [
        [m.f(3, 4), [i]],
        [m.d(3, 4), [None, ts.tensor([1, 3])]],
        [m.f(3, 4, 2), [i, ts.tensor([0, 1, 1])]],
        [m.i(3, 4), [m.b(3, 4)]],
    ]


@samples(
    "aten::index_put",
    "aten::index_put_",
    "aten::index_put.hacked_twin",
    "aten::index_put_.hacked_twin",
)
def _(m: Maker) -> list[list[Any]]:
    return [
        [m.d(3, 4), [ts.tensor([0, 2])], m.d(4), False],
        [m.f(3, 4), [ts.tensor([1, 1])], m.f(2, 4), True],
    ]


@samples("aten::index_select")
def _(m: Maker) -> list[list[Any]]:
    return [[m.d(3, 4), 1, ts.tensor([0, 3, 3])], [m.i(3), 0, ts.tensor([2, 0])]]


@samples("aten::index_add", "aten::index_add_")
def _(m: Maker) -> list[list[Any]]:
    return [
        [m.d(3, 4), 0, ts.tensor([0, 2]), m.d(2, 4), 1],
        [m.f(3, 4), 1, ts.tensor([1]), m.f(3, 1), 2],
    ]


@samples("aten::index_fill.int_Tensor", "aten::index_fill_.int_Tensor")
def _(m: Maker) -> list[list[Any]]:
    return [[m.d(3, 4), 1, ts.tensor([0, 2]), ts.tensor(1.5, dtype=ts.float64)]]


@samples("aten::index_fill.int_Scalar", "aten::index_fill_.int_Scalar")
def _(m: Maker) -> list[list[Any]]:
    return [[m.d(3, 4), 0, ts.tensor([1]), 2.0], [m.i(2, 2), 1, ts.tensor([0]), 5]]


@samples("aten::gather")
def _(m: Maker) -> list[list[Any]]:
    return [[m.d(3, 4), 1, m.i(3, 2), False], [m.f(3, 4), 0, m.i(2, 4), False]]


@samples("aten::scatter.src", "aten::scatter_.src", "aten::scatter_add", "aten::scatter_add_")
def _(m: Maker) -> list[list[Any]]:
    return [[m.d(3, 4), 1, ts.tensor([[0, 1], [2, 3], [1, 0]]), m.d(3, 2)]]


@samples("aten::scatter.value", "aten::scatter_.value")
def _(m: Maker) -> list[list[Any]]:
    return [[m.d(3, 4), 0, ts.tensor([[0, 1, 2, 0]]), 0.5]]


@samples("aten::scatter.reduce", "aten::scatter_.reduce")
def _(m: Maker) -> list[list[Any]]:
    return [[m.d(3, 4), 1, ts.tensor([[0, 1], [2, 3], [1, 0]]), m.d(3, 2), "add"]]


@samples("aten::scatter.value_reduce", "aten::scatter_.value_reduce")
def _(m: Maker) -> list[list[Any]]:
    return [[m.d(3, 4), 1, ts.tensor([[0, 1], [2, 3], [1, 0]]), 2.0, "multiply"]]


@samples("aten::take")
def _(m: Maker) -> list[list[Any]]:
    return [[m.d(3, 4), ts.tensor([[0, 5], [11, 2]])]]


@samples("aten::take_along_dim")
def _(m: Maker) -> list[list[Any]]:
    return [[m.d(3, 4), m.i(3, 2), 1], [m.f(3, 4), ts.tensor([0, 7]), None]]


@samples("aten::fill.Tensor", "aten::fill_.Tensor")
def _(m: Maker) -> list[list[Any]]:
    return [[m.d(2, 3), ts.tensor(0.5, dtype=ts.float64)]]


@samples("aten::split")
def _(m: Maker) -> list[list[Any]]:
    return [[m.f(5, 2), [2, 3], 0], [m.d(2, 6), [1, 1, 4], 1]]


@samples("aten::meshgrid.indexing")
def _(m: Maker) -> list[list[Any]]:
    return [[[m.f(2), m.f(3)], "ij"], [[m.d(2), m.d(4)], "xy"]]


@samples("aten::randint")
def _(m: Maker) -> list[list[Any]]:
    return [[5, [2, 3], None, None, None, None]]


@samples("aten::randint.generator")
def _(m: Maker) -> list[list[Any]]:
    return [[5, [2, 3], None, None, None, None, None]]


@samples("aten::randint.low")
def _(m: Maker) -> list[list[Any]]:
    return [[1, 5, [3], None, None, None, None]]


@samples("aten::randint.low_generator")
def _(m: Maker) -> list[list[Any]]:
    return [[1, 5, [3], None, None, None, None, None]]


@samples("aten::randint_like")
def _(m: Maker) -> list[list[Any]]:
    return [[m.d(2, 3), 5, None, None, None, None, None]]


@samples("aten::randint_like.low_dtype")
def _(m: Maker) -> list[list[Any]]:
    return [[m.f(2, 3), 1, 5, None, None, None, None, None]]


@samples("aten::randperm")
def _(m: Maker) -> list[list[Any]]:
    return [[5, 4, None, None, None]]


@samples("aten::randperm.generator")
def _(m: Maker) -> list[list[Any]]:
    return [[5, None, 4, None, None, None]]


@samples("aten::normal.float_float")
def _(m: Maker) -> list[list[Any]]:
    return [[0.0, 1.0, [2, 3], None, None, None, None, None]]


@samples("aten::multinomial")
def _(m: Maker) -> list[list[Any]]:
    return [[m.p(2, 4), 3, False, None], [m.p(4).double(), 6, True, None]]


@samples("aten::norm.ScalarOpt_dim_dtype")
def _(m: Maker) -> list[list[Any]]:
    return [[m.f(2, 3), 2, [1], False, ts.float64]]


@samples("aten::norm.ScalarOpt_dtype")
def _(m: Maker) -> list[list[Any]]:
    return [[m.f(2, 3), 1, ts.float64]]


@samples("aten::batch_norm")
def _(m: Maker) -> list[list[Any]]:
    return [
        [m.d(4, 3, 2), m.d(3), m.d(3), m.d(3), m.p(3).double(), False, 0.1, 1e-5, True],
        [m.f(4, 3), None, None, None, None, True, 0.1, 1e-5, True],
    ]


@samples("aten::group_norm")
def _(m: Maker) -> list[list[Any]]:
    return [[m.d(2, 4, 3), 2, m.d(4), m.d(4), 1e-5, True], [m.f(2, 6), 3, None, None, 1e-5, True]]


@samples("aten::layer_norm")
def _(m: Maker) -> list[list[Any]]:
    return [
        [m.d(2, 3, 4), [4], m.d(4), m.d(4), 1e-5, True],
        [m.f(2, 3), [2, 3], None, None, 1e-5, True],
    ]


@samples("aten::embedding")
def _(m: Maker) -> list[list[Any]]:
    # a padding_idx row gets no gradient by definition: none of the gradient samples has one
    return [
        [m.d(5, 3), m.i(2, 4, high=5), -1, False, False],
        [m.f(4, 2), m.i(3, high=4), -1, False, False],
    ]


@samples("aten::glu")
def _(m: Maker) -> list[list[Any]]:
    return [[m.d(2, 4), -1], [m.f(6, 3), 0]]


@samples("aten::constant_pad_nd")
def _(m: Maker) -> list[list[Any]]:
    return [[m.d(2, 3), [1, 2], 0], [m.f(2, 3, 4), [1, 0, -1, 2], 1.5]]


@samples("aten::pad")
def _(m: Maker) -> list[list[Any]]:
    return [
        [m.d(2, 3), [1, 2], "constant", None],
        [m.f(1, 2, 3, 4), [1, 1, 2, 0], "reflect", None],
        [m.f(1, 2, 4), [2, 1], "replicate", None],
    ]


@samples("aten::max_pool1d")
def _(m: Maker) -> list[list[Any]]:
    return [[m.d(2, 3, 7), [3], [2], [1], [1], False], [m.f(3, 8), [2], [], [0], [2], True]]


@samples("aten::max_pool2d")
def _(m: Maker) -> list[list[Any]]:
    return [
        [m.d(1, 2, 5, 6), [2, 3], [2, 2], [1, 0], [1, 1], False],
        [m.f(2, 7, 7), [3, 3], [], [1, 1], [1, 2], True],
    ]


@samples("aten::avg_pool1d")
def _(m: Maker) -> list[list[Any]]:
    return [[m.d(2, 3, 7), [3], [2], [1], False, True], [m.f(3, 8), [2], [], [0], True, False]]


@samples("aten::avg_pool2d")
def _(m: Maker) -> list[list[Any]]:
    return [
        [m.d(1, 2, 5, 6), [2, 3], [2, 2], [1, 0], False, True, None],
        [m.f(2, 7, 7), [3, 3], [], [1, 1], True, False, None],
    ]


@samples("aten::adaptive_avg_pool1d")
def _(m: Maker) -> list[list[Any]]:
    return [[m.d(2, 3, 7), [3]], [m.f(3, 8), [8]]]


@samples("aten::adaptive_avg_pool2d")
def _(m: Maker) -> list[list[Any]]:
    return [[m.d(1, 2, 5, 6), [2, 3]], [m.f(2, 7, 7), [1, 1]]]


@samples("aten::nll_loss", "aten::nll_loss_nd")
def _(m: Maker) -> list[list[Any]]:
    logp = m.d(4, 3)
    return [
        [logp, m.i(4), None, 1, -100],
        [logp, m.i(4), m.p(3).double(), 0, 1],
        [m.d(2, 3, 5), m.i(2, 5), None, 2, -100],
    ]


@samples("aten::nll_loss2d")
def _(m: Maker) -> list[list[Any]]:
    return [
        [m.d(2, 3, 2, 2), m.i(2, 2, 2), None, 1, -100],
        [m.d(2, 3, 2, 2), m.i(2, 2, 2), None, 0, -100],
    ]


@samples("aten::cross_entropy_loss")
def _(m: Maker) -> list[list[Any]]:
    return [
        [m.d(4, 3), m.i(4), None, 1, -100, 0.0],
        [m.d(4, 3), m.d(4, 3).softmax(1), None, 0, -100, 0.1],
    ]


@samples("prim::NumToTensor.Scalar")
def _(m: Maker) -> list[list[Any]]:
    return [[3], [2.5]]


@samples("prim::NumToTensor.bool")
def _(m: Maker) -> list[list[Any]]:
    return [[True]]


@samples("aten::isclose")
def _(m: Maker) -> list[list[Any]]:
    a = m.d(2, 3)
    return [[a, a + 1e-9, 1e-5, 1e-8, False]]


@samples("aten::argsort")
def _(m: Maker) -> list[list[Any]]:
    return [[m.d(2, 3), -1, False], [m.f(4), 0, True]]


@samples("aten::argsort.stable")
def _(m: Maker) -> list[list[Any]]:
    return [[m.d(2, 3), True, -1, False]]


@samples("aten::bernoulli.Tensor")
def _(m: Maker) -> list[list[Any]]:
    return [[m.d(2, 3), m.p(2, 3).double() * 0.5, None]]


@samples("aten::bernoulli.p")
def _(m: Maker) -> list[list[Any]]:
    return [[m.d(2, 3), 0.3, None]]


@samples("aten::bernoulli")
def _(m: Maker) -> list[list[Any]]:
    return [[m.p(2, 3).double() * 0.5, None]]


@samples("aten::normal.Tensor_float", "aten::normal.float_Tensor", "aten::normal.Tensor_Tensor")
def _(m: Maker) -> list[list[Any]]:
    return [[m.p(2, 3).double(), m.p(2, 3).double(), None]]


@samples("aten::uniform", "aten::normal_functional")
def _(m: Maker) -> list[list[Any]]:
    return [[m.d(2, 3), 0.0, 1.0, None]]


@samples("aten::detach", "aten::to.dtype")
def _(m: Maker) -> list[list[Any]]:
    return []
