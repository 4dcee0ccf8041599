"""Raw-array kernels for plans compiled without autograd (see `dispatch.ARRAY_KERNELS`).

Each selector accepts a node only when its specialized input types pin the
numpy computation to exactly what the operator's kernel computes: one known
dtype, a result of rank >= 1 (numpy returns scalars for 0-d results),
scalars numpy treats as weak (a Python float with a float tensor, a Python
int with an int64 tensor), `alpha` the constant 1. A test runs every
selected kernel against the operator's own kernel.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from ts_ir import FloatType, IntType, TensorType, constant_value
from ts_schema import registry

from ..dtypes import UnsupportedDtypeError, numpy_dtype
from .common import follow_layout
from .dispatch import ARRAY_KERNELS, ArrayKernel
from .linalg import gemm
from .pointwise import FLOAT_UNARY, SAME_DTYPE_UNARY


def _register(key: str, selector: Callable[..., ArrayKernel | None]) -> None:
    """Register for one overload: a key without an overload name means that exact schema
    (`aten::exp`), never every overload of the name (`aten::exp.out` writes into `out`)."""
    ARRAY_KERNELS.register(str(registry.get(key).schema), selector)


def _array_info(v: Any) -> tuple[np.dtype, int] | None:
    t = v.type
    if not isinstance(t, TensorType) or t.scalar_type is None or t.sizes is None:
        return None
    try:
        return numpy_dtype(int(t.scalar_type)), len(t.sizes)
    except UnsupportedDtypeError:
        return None


def _is_one(v: Any) -> bool:
    return (
        v.node.kind == "prim::Constant"
        and constant_value(v) == 1
        and not isinstance(constant_value(v), bool)
    )


def _weak_scalar_fits(v: Any, dt: np.dtype) -> bool:
    """Whether numpy combines a scalar of `v`'s type with a `dt` array exactly as PyTorch does."""
    t = v.type
    if isinstance(t, FloatType):
        return dt.kind == "f"
    if isinstance(t, IntType):
        return dt.kind == "f" or dt == np.int64
    return False


_LAID_OUT: dict[Any, Callable[..., Any]] = {}


def _laid_out(ufunc: Any) -> Callable[..., Any]:
    """`ufunc` over two arrays, its result laid out as PyTorch lays it out."""
    fn = _LAID_OUT.get(ufunc)
    if fn is None:

        def fn(a: np.ndarray, b: np.ndarray) -> Any:
            r = ufunc(a, b)
            if a.strides != b.strides:
                return follow_layout(r, a, b)
            return r

        fn.__name__ = f"{ufunc.__name__}_laid_out"
        _LAID_OUT[ufunc] = fn
    return fn


def _binary_selector(
    ufunc: Any, *, bools: bool = True, floats_only: bool = False, alpha: bool = False
) -> Callable[..., Any]:
    def select(node: Any) -> ArrayKernel | None:
        ins = node.inputs
        if alpha and (len(ins) < 3 or not _is_one(ins[2])):
            return None
        a = _array_info(ins[0])
        if a is None or (not bools and a[0].kind == "b") or (floats_only and a[0].kind != "f"):
            return None
        b = _array_info(ins[1])
        if b is not None:  # tensor ⊕ tensor: one dtype, a result with dimensions
            if b[0] != a[0] or max(a[1], b[1]) == 0:
                return None
            # two operands of rank 2 or more may be laid out differently: PyTorch's result
            # follows the first where numpy's keeps C order (`follow_layout`)
            fn = ufunc if max(a[1], b[1]) < 2 else _laid_out(ufunc)
            return ArrayKernel(fn, (0, 1), (0, 1), broadcasts=True)
        if a[1] == 0 or not _weak_scalar_fits(ins[1], a[0]):
            return None
        return ArrayKernel(ufunc, (0, 1), (0,), broadcasts=False)

    return select


for _keys, _ufunc, _options in (
    (("aten::add.Tensor", "aten::add.Scalar"), np.add, {"alpha": True}),
    (("aten::sub.Tensor", "aten::sub.Scalar"), np.subtract, {"alpha": True, "bools": False}),
    (("aten::mul.Tensor", "aten::mul.Scalar"), np.multiply, {}),
    (("aten::div.Tensor", "aten::div.Scalar"), np.true_divide, {"floats_only": True}),
    (("aten::maximum", "aten::max.other"), np.maximum, {}),
    (("aten::minimum", "aten::min.other"), np.minimum, {}),
    (("aten::eq.Tensor", "aten::eq.Scalar"), np.equal, {}),
    (("aten::ne.Tensor", "aten::ne.Scalar"), np.not_equal, {}),
    (("aten::lt.Tensor", "aten::lt.Scalar"), np.less, {}),
    (("aten::le.Tensor", "aten::le.Scalar"), np.less_equal, {}),
    (("aten::gt.Tensor", "aten::gt.Scalar"), np.greater, {}),
    (("aten::ge.Tensor", "aten::ge.Scalar"), np.greater_equal, {}),
):
    for _key in _keys:
        _register(_key, _binary_selector(_ufunc, **_options))


def _unary_selector(
    fn: Callable[[np.ndarray], np.ndarray], *, floats_only: bool
) -> Callable[..., Any]:
    def select(node: Any) -> ArrayKernel | None:
        a = _array_info(node.inputs[0])
        if a is None or a[1] == 0 or (floats_only and a[0].kind != "f") or a[0].kind == "b":
            return None
        return ArrayKernel(fn, (0,), (0,), broadcasts=False)

    return select


for _name, _fn in FLOAT_UNARY.items():
    _register(f"aten::{_name}", _unary_selector(_fn, floats_only=True))
for _name, _fn in SAME_DTYPE_UNARY.items():
    _register(f"aten::{_name}", _unary_selector(_fn, floats_only=False))

_ZEROS: dict[np.dtype, np.ndarray] = {}


def _relu_array(a: np.ndarray) -> np.ndarray:
    zero = _ZEROS.get(a.dtype)
    if zero is None:
        zero = _ZEROS[a.dtype] = np.zeros((), dtype=a.dtype)
    return np.maximum(zero, a)  # relu(-0.0) is -0.0, as the kernel's


_register("aten::relu", _unary_selector(_relu_array, floats_only=False))


def _select_where(node: Any) -> ArrayKernel | None:
    c, a, b = (_array_info(v) for v in node.inputs)
    if c is None or a is None or b is None or c[0].kind != "b" or a[0] != b[0]:
        return None
    if max(c[1], a[1], b[1]) == 0:
        return None
    return ArrayKernel(
        np.where if max(c[1], a[1], b[1]) < 2 else _where_laid_out,
        (0, 1, 2),
        (0, 1, 2),
        broadcasts=True,
    )


def _where_laid_out(c: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """np.where, its result laid out as PyTorch lays it out (np.where's is C-contiguous)."""
    return follow_layout(np.where(c, a, b), c, a, b)


_register("aten::where.self", _select_where)


def _select_mm(node: Any) -> ArrayKernel | None:
    a, b = _array_info(node.inputs[0]), _array_info(node.inputs[1])
    if a is None or b is None or a[0] != b[0] or a[0].kind != "f" or a[1] != 2 or b[1] != 2:
        return None
    return ArrayKernel(gemm, (0, 1), (0, 1), broadcasts=True)


_register("aten::mm", _select_mm)
