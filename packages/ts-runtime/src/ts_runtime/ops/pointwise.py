"""Pointwise operators: arithmetic, comparisons, logic, math functions, and their derivatives.

Binary kernels promote with PyTorch's rules (`common.promote`) and take a
fast path when both operands are tensors of one dtype. In-place variants
check that the result fits the target's dtype, write into it and bump its
version counter. Unary math functions compute in floating point (an int
tensor's `exp` is float32), as PyTorch does.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ..dtypes import scalar_type_of_numpy
from ..tensor import Tensor, TensorError, bump_version, wrap
from .common import (
    array_of,
    check_floating,
    check_inplace_overlap,
    floating,
    follow_layout,
    operand,
    pointwise_result,
    promote,
    result,
    sum_to,
    write_inplace,
)
from .dispatch import call, derivative, implements

ndarray = np.ndarray
Kernel = Callable[..., Tensor]


# ---------------------------------------------------------------------------
# Binary arithmetic


def broadcast_error(a: Any, b: Any) -> TensorError:
    """PyTorch's message for shapes that do not broadcast."""
    sa = tuple(getattr(a, "shape", ()))
    sb = tuple(getattr(b, "shape", ()))
    for i in range(1, max(len(sa), len(sb)) + 1):
        x = sa[-i] if i <= len(sa) else 1
        y = sb[-i] if i <= len(sb) else 1
        if x != y and x != 1 and y != 1:
            dim = max(len(sa), len(sb)) - i
            return TensorError(
                f"The size of tensor a ({x}) must match the size of tensor b ({y}) at non-singleton dimension {dim}"
            )
    return TensorError(f"shapes {list(sa)} and {list(sb)} cannot be broadcast together")


def broadcasting(kernel: Kernel) -> Kernel:
    """Report operands that do not broadcast as PyTorch does, not as numpy's ValueError."""

    def guarded(*args: Any) -> Tensor:
        try:
            return kernel(*args)
        except ValueError:
            # find the first operand that does not broadcast with those before it
            arrays = [a._data for a in args if isinstance(a, Tensor)]
            shape: tuple[int, ...] = arrays[0].shape if arrays else ()
            for arr in arrays[1:]:
                try:
                    shape = np.broadcast_shapes(shape, arr.shape)
                except ValueError:
                    raise broadcast_error(np.empty(shape), arr) from None
            raise TensorError(f"{kernel.__name__}: invalid arguments") from None

    guarded.__name__ = kernel.__name__
    guarded.__doc__ = kernel.__doc__
    return guarded


def _binary(ufunc: Any, self: Tensor, other: Any) -> Tensor:
    try:
        if type(other) is Tensor:
            a, b = self._data, other._data
            if a.dtype is b.dtype:
                r = ufunc(a, b)
                if type(r) is not ndarray:
                    return wrap(np.asarray(r))
                if r.ndim > 1 and a.strides != b.strides:
                    r = follow_layout(r, a, b)
                return wrap(r)
        dt = promote(self, other)
        r = ufunc(operand(self, dt), operand(other, dt))
        if type(r) is ndarray and r.ndim > 1:
            r = follow_layout(r, self._data, other._data if type(other) is Tensor else None)
        return result(r)
    except ValueError:
        raise broadcast_error(
            self._data, other._data if isinstance(other, Tensor) else other
        ) from None


def _scaled(other: Any, alpha: Any) -> Any:
    if alpha == 1:
        return other
    if isinstance(other, Tensor):
        return _binary(np.multiply, other, alpha)
    return other * alpha


def _check_alpha(dt: np.dtype, alpha: Any) -> None:
    """PyTorch's `alpha_check`: the scale of `add`/`sub` must fit the result's dtype."""
    if type(alpha) is bool and dt.kind != "b":
        raise TensorError("Boolean alpha only supported for Boolean results.")
    if dt.kind in "iub" and isinstance(alpha, (float, complex)):
        raise TensorError(
            "For integral input tensors, argument alpha must not be a floating point number."
        )


def _inplace(self: Tensor, out: Tensor, name: str) -> Tensor:
    write_inplace(self, out._data, name)
    bump_version(self)
    return self


def _same_dtype_binary(ufunc: Any, *, bools: bool = True) -> Kernel:
    """A binary kernel whose common case (two tensors of one dtype) costs one ufunc call.

    The fast path is written out in full, without helper calls: this is the
    interpreter's innermost loop. `bools=False` rejects bool tensors as
    PyTorch's subtraction does.
    """
    new = object.__new__

    def kernel(self: Tensor, other: Any, alpha: Any = 1) -> Tensor:
        if type(other) is Tensor and alpha == 1 and type(alpha) is int:
            a = self._data
            b = other._data
            if a.dtype is b.dtype and (bools or a.dtype.kind != "b"):
                try:
                    r = ufunc(a, b)
                except ValueError:
                    raise broadcast_error(a, b) from None
                if type(r) is not ndarray:
                    r = np.asarray(r)
                elif r.ndim > 1 and a.strides != b.strides:
                    # operands laid out alike give a result laid out alike: no more to do
                    r = follow_layout(r, a, b)
                t = new(Tensor)
                t._data = r
                t._version = None
                t._ag = None
                t._base = None
                return t
        if (
            not bools
            and self._data.dtype.kind == "b"
            and (not isinstance(other, Tensor) or other._data.dtype.kind == "b")
        ):
            raise TensorError(
                "Subtraction, the `-` operator, with two bool tensors is not supported. "
                "Use the `^` or `logical_xor()` operator instead."
            )
        if type(alpha) is not int:
            _check_alpha(promote(self, other), alpha)
        return _binary(ufunc, self, _scaled(other, alpha))

    kernel.__name__ = ufunc.__name__
    return kernel


add = implements("aten::add.Tensor", "aten::add.Scalar")(_same_dtype_binary(np.add))
sub = implements("aten::sub.Tensor", "aten::sub.Scalar")(
    _same_dtype_binary(np.subtract, bools=False)
)
mul = implements("aten::mul.Tensor", "aten::mul.Scalar")(_same_dtype_binary(np.multiply))


@implements("aten::rsub.Tensor", "aten::rsub.Scalar")
def rsub(self: Tensor, other: Any, alpha: Any = 1) -> Tensor:
    if isinstance(other, Tensor):
        return _binary(np.subtract, other, _scaled(self, alpha))
    dt = promote(self, other)
    return result(np.subtract(other, operand(_scaled(self, alpha), dt)))


@implements("aten::div.Tensor", "aten::div.Scalar")
@broadcasting
def div(self: Tensor, other: Any) -> Tensor:
    a = self._data
    if type(other) is Tensor and a.dtype is other._data.dtype and a.dtype.kind in "fc":
        return pointwise_result(np.true_divide(a, other._data), self, other)
    dt = floating(promote(self, other))
    return pointwise_result(np.true_divide(operand(self, dt), operand(other, dt)), self, other)


@implements("aten::div.Tensor_mode", "aten::div.Scalar_mode")
@broadcasting
def div_mode(self: Tensor, other: Any, rounding_mode: str | None) -> Tensor:
    if rounding_mode is None:
        return div(self, other)
    if rounding_mode == "trunc":
        dt = promote(self, other)
        if dt.kind in "fc":
            return result(np.trunc(np.true_divide(operand(self, dt), operand(other, dt))))
        a, b = array_of(self, dt), array_of(other, dt)
        _check_int_division(b)
        q = np.floor_divide(a, b)
        fix = (np.remainder(a, b) != 0) & ((a < 0) != (b < 0))
        return result((q + fix).astype(dt))
    if rounding_mode == "floor":
        return floor_divide(self, other)
    raise TensorError(
        f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{rounding_mode}'"
    )


def _refuse_bool(dt: np.dtype, kernel: str) -> None:
    if dt.kind == "b":
        raise TensorError(f"\"{kernel}\" not implemented for 'Bool'")


def _check_int_division(b: Any) -> None:
    if np.any(np.asarray(b) == 0):
        raise TensorError("ZeroDivisionError")


@implements("aten::floor_divide", "aten::floor_divide.Scalar")
@broadcasting
def floor_divide(self: Tensor, other: Any) -> Tensor:
    dt = promote(self, other)
    _refuse_bool(dt, "div_floor_cpu")
    if dt.kind not in "fc":
        _check_int_division(operand(other, dt))
    return pointwise_result(np.floor_divide(operand(self, dt), operand(other, dt)), self, other)


@implements("aten::remainder.Tensor", "aten::remainder.Scalar")
@broadcasting
def remainder(self: Tensor, other: Any) -> Tensor:
    dt = promote(self, other)
    _refuse_bool(dt, "remainder_cpu")
    if dt.kind not in "fc":
        _check_int_division(operand(other, dt))
    return pointwise_result(np.remainder(operand(self, dt), operand(other, dt)), self, other)


@implements("aten::remainder.Scalar_Tensor")
@broadcasting
def remainder_scalar_tensor(self: Any, other: Tensor) -> Tensor:
    dt = promote(self, other)
    return pointwise_result(np.remainder(operand(self, dt), operand(other, dt)), self, other)


@implements("aten::fmod.Tensor", "aten::fmod.Scalar")
@broadcasting
def fmod(self: Tensor, other: Any) -> Tensor:
    dt = promote(self, other)
    _refuse_bool(dt, "fmod_cpu")
    return pointwise_result(np.fmod(operand(self, dt), operand(other, dt)), self, other)


@implements("aten::pow.Tensor_Tensor", "aten::pow.Tensor_Scalar")
@broadcasting
def pow_(self: Tensor, exponent: Any) -> Tensor:
    dt = promote(self, exponent)
    _refuse_bool(dt, "pow")
    base = operand(self, dt)
    if dt.kind in "iu":
        e = np.asarray(operand(exponent, dt))
        if np.any(e < 0):
            raise TensorError("Integers to negative integer powers are not allowed.")
    if not isinstance(exponent, Tensor):
        if exponent == 2:
            return result(np.multiply(base, base))
        if exponent == 0.5 and dt.kind == "f":
            return result(np.sqrt(base))
    return result(np.power(base, operand(exponent, dt)))


@implements("aten::pow.Scalar")
@broadcasting
def pow_scalar_base(self: Any, exponent: Tensor) -> Tensor:
    dt = promote(self, exponent)
    return result(np.power(array_of(self, dt), operand(exponent, dt)))


@implements("aten::maximum", "aten::max.other")
@broadcasting
def maximum(self: Tensor, other: Tensor) -> Tensor:
    return _binary(np.maximum, self, other)


@implements("aten::minimum", "aten::min.other")
@broadcasting
def minimum(self: Tensor, other: Tensor) -> Tensor:
    return _binary(np.minimum, self, other)


@implements("aten::atan2")
@broadcasting
def atan2(self: Tensor, other: Tensor) -> Tensor:
    dt = floating(promote(self, other))
    return pointwise_result(np.arctan2(operand(self, dt), operand(other, dt)), self, other)


def _register_inplace(functional: Kernel, *keys: str) -> None:
    def kernel(self: Tensor, *args: Any) -> Tensor:
        check_inplace_overlap(self, args)
        return _inplace(self, functional(self, *args), keys[0])

    kernel.__name__ = functional.__name__ + "_"
    implements(*keys)(kernel)


_register_inplace(add, "aten::add_.Tensor", "aten::add_.Scalar")
_register_inplace(sub, "aten::sub_.Tensor", "aten::sub_.Scalar")
_register_inplace(mul, "aten::mul_.Tensor", "aten::mul_.Scalar")
_register_inplace(div, "aten::div_.Tensor", "aten::div_.Scalar")
_register_inplace(div_mode, "aten::div_.Tensor_mode", "aten::div_.Scalar_mode")
_register_inplace(pow_, "aten::pow_.Tensor", "aten::pow_.Scalar")
_register_inplace(remainder, "aten::remainder_.Tensor", "aten::remainder_.Scalar")
_register_inplace(floor_divide, "aten::floor_divide_.Tensor", "aten::floor_divide_.Scalar")


# ---------------------------------------------------------------------------
# Comparisons and logic (results are bool tensors; not differentiable)


def _compare(ufunc: Any) -> Kernel:
    def kernel(self: Tensor, other: Any) -> Tensor:
        if type(other) is Tensor and self._data.dtype is other._data.dtype:
            return pointwise_result(ufunc(self._data, other._data), self, other)
        dt = promote(self, other)
        return pointwise_result(ufunc(operand(self, dt), operand(other, dt)), self, other)

    kernel.__name__ = ufunc.__name__
    return kernel


for _name, _ufunc in (
    ("eq", np.equal),
    ("ne", np.not_equal),
    ("lt", np.less),
    ("le", np.less_equal),
    ("gt", np.greater),
    ("ge", np.greater_equal),
):
    implements(f"aten::{_name}.Tensor", f"aten::{_name}.Scalar")(broadcasting(_compare(_ufunc)))


def _bitwise(ufunc: Any, name: str) -> Kernel:
    def kernel(self: Tensor, other: Any) -> Tensor:
        dt = promote(self, other)
        if dt.kind not in "biu":
            raise TensorError(f"\"{name}\" not implemented for '{dt}'")
        return pointwise_result(ufunc(operand(self, dt), operand(other, dt)), self, other)

    return kernel


for _name, _ufunc in (("and", np.bitwise_and), ("or", np.bitwise_or), ("xor", np.bitwise_xor)):
    _k = broadcasting(_bitwise(_ufunc, f"bitwise_{_name}"))
    implements(
        f"aten::bitwise_{_name}.Tensor",
        f"aten::bitwise_{_name}.Scalar",
        f"aten::__{_name}__.Tensor",
        f"aten::__{_name}__.Scalar",
    )(_k)


def _shift(left: bool) -> Kernel:
    """`a << b` and `a >> b` of integers, as PyTorch computes them: a shift by a negative
    count or by the width of the type or more gives 0, or to the right of a signed value its
    sign (-1 or 0)."""
    name = "lshift_cpu" if left else "rshift_cpu"

    def kernel(self: Tensor, other: Any) -> Tensor:
        dt = promote(self, other)
        if dt.kind not in "iu":
            raise TensorError(f"\"{name}\" not implemented for '{scalar_type_of_numpy(dt).name}'")
        a, b = operand(self, dt), operand(other, dt)
        bits = dt.itemsize * 8
        outside = (b < 0) | (b >= bits)
        count = np.where(outside, 0, b).astype(dt)
        if left:
            out = np.where(outside, 0, np.left_shift(a, count))
        else:
            fill = np.right_shift(a, bits - 1) if dt.kind == "i" else 0
            out = np.where(outside, fill, np.right_shift(a, count))
        return result(np.asarray(out).astype(dt, copy=False))

    return kernel


implements(
    "aten::__lshift__.Tensor",
    "aten::__lshift__.Scalar",
    "aten::bitwise_left_shift.Tensor",
    "aten::bitwise_left_shift.Tensor_Scalar",
)(broadcasting(_shift(True)))
implements(
    "aten::__rshift__.Tensor",
    "aten::__rshift__.Scalar",
    "aten::bitwise_right_shift.Tensor",
    "aten::bitwise_right_shift.Tensor_Scalar",
)(broadcasting(_shift(False)))


@implements("aten::bitwise_not")
def bitwise_not(self: Tensor) -> Tensor:
    if self._data.dtype.kind not in "biu":
        raise TensorError(f"\"bitwise_not\" not implemented for '{self._data.dtype}'")
    return result(np.invert(self._data))


def _logical(ufunc: Any) -> Kernel:
    def kernel(self: Tensor, other: Tensor) -> Tensor:
        return result(
            ufunc(self._data.astype(bool, copy=False), other._data.astype(bool, copy=False))
        )

    return kernel


implements("aten::logical_and")(broadcasting(_logical(np.logical_and)))
implements("aten::logical_or")(broadcasting(_logical(np.logical_or)))
implements("aten::logical_xor")(broadcasting(_logical(np.logical_xor)))


@implements("aten::logical_not")
def logical_not(self: Tensor) -> Tensor:
    return result(np.logical_not(self._data))


@implements("aten::isnan")
def isnan(self: Tensor) -> Tensor:
    return result(
        np.isnan(self._data) if self._data.dtype.kind in "fc" else np.zeros(self._data.shape, bool)
    )


@implements("aten::isinf")
def isinf(self: Tensor) -> Tensor:
    return result(
        np.isinf(self._data) if self._data.dtype.kind in "fc" else np.zeros(self._data.shape, bool)
    )


@implements("aten::isfinite")
def isfinite(self: Tensor) -> Tensor:
    return result(
        np.isfinite(self._data)
        if self._data.dtype.kind in "fc"
        else np.ones(self._data.shape, bool)
    )


# ---------------------------------------------------------------------------
# Unary math


_ONES: dict[np.dtype, np.ndarray] = {}


def _sigmoid(a: np.ndarray) -> np.ndarray:
    # numpy handles a Python scalar operand slowly; a cached 0-d one of the same dtype is fast
    one = _ONES.get(a.dtype)
    if one is None:
        one = _ONES[a.dtype] = np.ones((), dtype=a.dtype)
    e = np.exp(np.negative(a))
    return np.reciprocal(np.add(e, one, out=e if type(e) is ndarray else None))


_vector_erf = np.frompyfunc(math.erf, 1, 1)
_vector_erfc = np.frompyfunc(math.erfc, 1, 1)


def _erf(a: np.ndarray) -> np.ndarray:
    return _vector_erf(a).astype(a.dtype)


def _erfc(a: np.ndarray) -> np.ndarray:
    return _vector_erfc(a).astype(a.dtype)


def _rsqrt(a: np.ndarray) -> np.ndarray:
    return np.reciprocal(np.sqrt(a))


def _silu(a: np.ndarray) -> np.ndarray:
    return a * _sigmoid(a)


#: Operators computed in floating point, by their numpy function.
FLOAT_UNARY: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "exp": np.exp,
    "exp2": np.exp2,
    "expm1": np.expm1,
    "log": np.log,
    "log2": np.log2,
    "log10": np.log10,
    "log1p": np.log1p,
    "sqrt": np.sqrt,
    "rsqrt": _rsqrt,
    "sin": np.sin,
    "cos": np.cos,
    "tan": np.tan,
    "asin": np.arcsin,
    "acos": np.arccos,
    "atan": np.arctan,
    "sinh": np.sinh,
    "cosh": np.cosh,
    "tanh": np.tanh,
    "asinh": np.arcsinh,
    "acosh": np.arccosh,
    "atanh": np.arctanh,
    "sigmoid": _sigmoid,
    "erf": _erf,
    "erfc": _erfc,
    "reciprocal": np.reciprocal,
    "silu": _silu,
}

#: Operators that keep their input's dtype.
SAME_DTYPE_UNARY: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "neg": np.negative,
    "abs": np.abs,
    "sign": np.sign,
    "square": lambda a: np.square(a.astype(np.int64) if a.dtype.kind == "b" else a),
}

#: Rounding: identity on integers, as in PyTorch.
ROUNDING_UNARY: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "floor": np.floor,
    "ceil": np.ceil,
    "trunc": np.trunc,
    "round": np.round,
    "frac": lambda a: a - np.trunc(a),
}


def _float_unary(fn: Callable[[np.ndarray], np.ndarray]) -> Kernel:
    new = object.__new__

    def kernel(self: Tensor) -> Tensor:
        a = self._data
        if a.dtype.kind not in "fc":
            a = a.astype(floating(a.dtype))
        r = fn(a)
        t = new(Tensor)
        t._data = r if type(r) is ndarray else np.asarray(r)
        t._version = None
        t._ag = None
        t._base = None
        return t

    return kernel


def _same_unary(fn: Callable[[np.ndarray], np.ndarray], *, integers: bool = True) -> Kernel:
    def kernel(self: Tensor) -> Tensor:
        a = self._data
        if not integers and a.dtype.kind in "biu":
            return result(a.copy(order="K"))  # a copy laid out as its input, as PyTorch's
        return result(fn(a))

    return kernel


def _unary_inplace(functional: Kernel, name: str) -> Kernel:
    def kernel(self: Tensor) -> Tensor:
        return _inplace(self, functional(self), name)

    return kernel


for _table, _make in ((FLOAT_UNARY, _float_unary), (SAME_DTYPE_UNARY, _same_unary)):
    for _name, _fn in _table.items():
        _kernel = _make(_fn)
        _kernel.__name__ = _name
        implements(f"aten::{_name}")(_kernel)
        implements(f"aten::{_name}_")(_unary_inplace(_kernel, f"aten::{_name}_"))

for _name, _fn in ROUNDING_UNARY.items():
    _kernel = _same_unary(_fn, integers=False)
    _kernel.__name__ = _name
    implements(f"aten::{_name}")(_kernel)
    implements(f"aten::{_name}_")(_unary_inplace(_kernel, f"aten::{_name}_"))


@implements("aten::round.decimals")
def round_decimals(self: Tensor, decimals: int) -> Tensor:
    check_floating(self._data.dtype, "round_vml_cpu")
    return result(np.round(self._data, decimals))


@implements("aten::relu")
def relu(self: Tensor) -> Tensor:
    a = self._data
    if a.dtype.kind == "b":
        raise TensorError("\"relu\" not implemented for 'Bool'")
    # zero first: numpy keeps the second of equal operands, so relu(-0.0) is -0.0, as in
    # PyTorch (x < 0 ? 0 : x)
    return result(np.maximum(a.dtype.type(0), a))


implements("aten::relu_")(_unary_inplace(relu, "aten::relu_"))


@implements("aten::gelu")
def gelu(self: Tensor, approximate: str = "none") -> Tensor:
    check_floating(self._data.dtype, "GeluKernelImpl")
    a = floating(self._data.dtype)
    x = self._data.astype(a, copy=False)
    if approximate == "tanh":
        inner = math.sqrt(2.0 / math.pi) * (x + 0.044715 * x * x * x)
        return result((0.5 * x * (1.0 + np.tanh(inner))).astype(a))
    if approximate != "none":
        raise TensorError(f"approximate argument must be either none or tanh, got {approximate!r}")
    return result((0.5 * x * (1.0 + _erf(x / math.sqrt(2.0)))).astype(a))


@implements("aten::leaky_relu")
def leaky_relu(self: Tensor, negative_slope: Any = 0.01) -> Tensor:
    check_floating(self._data.dtype, "leaky_relu_cpu")
    x = self._data
    return result(np.where(x > 0, x, x * x.dtype.type(negative_slope)))


@implements("aten::elu")
def elu(self: Tensor, alpha: Any = 1, scale: Any = 1, input_scale: Any = 1) -> Tensor:
    check_floating(self._data.dtype, "elu_cpu")
    x = self._data
    neg = alpha * np.expm1(x * input_scale)
    return result((scale * np.where(x > 0, x, neg)).astype(x.dtype))


@implements("aten::hardtanh")
def hardtanh(self: Tensor, min_val: Any = -1, max_val: Any = 1) -> Tensor:
    if self._data.dtype.kind == "b":
        raise TensorError("Bool inputs not supported for hardtanh")
    if self._data.dtype.kind == "u" and (min_val < 0 or max_val < 0):
        raise TensorError("cannot do hardtanh on an unsigned type with negative limits")
    return result(np.clip(self._data, min_val, max_val))


@implements("aten::softplus")
def softplus(self: Tensor, beta: Any = 1, threshold: Any = 20) -> Tensor:
    x = self._data
    bx = x * beta
    return result(np.where(bx > threshold, x, np.log1p(np.exp(bx)) / beta).astype(x.dtype))


# ---------------------------------------------------------------------------
# Selection


def _clamp_bound(bound: Any) -> Any:
    return bound._data if isinstance(bound, Tensor) else bound


@implements("aten::clamp", "aten::clamp.Tensor")
@broadcasting
def clamp(self: Tensor, min: Any = None, max: Any = None) -> Tensor:
    if min is None and max is None:
        raise TensorError("torch.clamp: At least one of 'min' or 'max' must not be None")
    dt = promote(*(x for x in (self, min, max) if x is not None))
    x = operand(self, dt)
    if min is not None:
        x = np.maximum(x, operand(min, dt))
    if max is not None:
        x = np.minimum(x, operand(max, dt))
    return result(np.asarray(x, dtype=dt))


@implements("aten::clamp_min", "aten::clamp_min.Tensor")
def clamp_min(self: Tensor, min: Any) -> Tensor:
    return clamp(self, min, None)


@implements("aten::clamp_max", "aten::clamp_max.Tensor")
def clamp_max(self: Tensor, max: Any) -> Tensor:
    return clamp(self, None, max)


implements("aten::clamp_", "aten::clamp_.Tensor")(
    lambda self, min=None, max=None: _inplace(self, clamp(self, min, max), "aten::clamp_")
)


@implements(
    "aten::where.self", "aten::where.ScalarSelf", "aten::where.ScalarOther", "aten::where.Scalar"
)
@broadcasting
def where(condition: Tensor, self: Any, other: Any) -> Tensor:
    if condition._data.dtype.kind != "b":
        raise TensorError(
            f"where expected condition to be a boolean tensor, but got a tensor with dtype {condition.dtype}"
        )
    dt = promote(self, other)
    # Python numbers as arrays of the promoted dtype: numpy would make them float64
    r = np.where(condition._data, array_of(self, dt), array_of(other, dt))
    if type(r) is ndarray and r.ndim > 1:
        # np.where's result is always C-contiguous; PyTorch's follows the operands
        r = follow_layout(
            r,
            condition._data,
            self._data if isinstance(self, Tensor) else None,
            other._data if isinstance(other, Tensor) else None,
        )
    return result(r)


@implements("aten::masked_fill.Scalar", "aten::masked_fill.Tensor")
@broadcasting
def masked_fill(self: Tensor, mask: Tensor, value: Any) -> Tensor:
    if mask._data.dtype.kind != "b":
        raise TensorError(
            f"masked_fill only supports boolean masks, but got mask with dtype {mask.dtype}"
        )
    fill = value._data if isinstance(value, Tensor) else value
    out = np.where(mask._data, np.asarray(fill, dtype=self._data.dtype), self._data)
    return result(
        np.broadcast_to(out, np.broadcast_shapes(self._data.shape, mask._data.shape)).copy()
    )


implements("aten::masked_fill_.Scalar", "aten::masked_fill_.Tensor")(
    lambda self, mask, value: _inplace(self, masked_fill(self, mask, value), "aten::masked_fill_")
)


@implements("aten::lerp.Scalar", "aten::lerp.Tensor")
@broadcasting
def lerp(self: Tensor, end: Tensor, weight: Any) -> Tensor:
    dt = promote(self, end)
    a, b = operand(self, dt), operand(end, dt)
    return result((a + operand(weight, dt) * (b - a)).astype(dt))


implements("aten::lerp_.Scalar", "aten::lerp_.Tensor")(
    lambda self, end, weight: _inplace(self, lerp(self, end, weight), "aten::lerp_")
)


# ---------------------------------------------------------------------------
# Derivatives


def _g(grad: Tensor, x: Any) -> Tensor | None:
    """The gradient flowing to `x`, reduced to its shape, or None for non-tensors."""
    return sum_to(grad, x) if isinstance(x, Tensor) else None


@derivative("aten::add.Tensor", "aten::add.Scalar", saves=())
def _d_add(grad, self, other, alpha=1, *, result):
    return _g(grad, self), (
        _g(grad * alpha if alpha != 1 else grad, other) if isinstance(other, Tensor) else None
    )


@derivative("aten::sub.Tensor", "aten::sub.Scalar", saves=())
def _d_sub(grad, self, other, alpha=1, *, result):
    return _g(grad, self), (
        _g(-grad * alpha if alpha != 1 else -grad, other) if isinstance(other, Tensor) else None
    )


@derivative("aten::rsub.Tensor", "aten::rsub.Scalar", saves=())
def _d_rsub(grad, self, other, alpha=1, *, result):
    return _g(-grad * alpha, self), (_g(grad, other) if isinstance(other, Tensor) else None)


@derivative("aten::mul.Tensor")
def _d_mul(grad, self, other, *, result):
    if not isinstance(other, Tensor):
        return (grad * other,)
    return _g(grad * other, self), _g(grad * self, other)


# by a scalar the formula reads no tensor, so `y.mul_(2)` leaves nothing stale
@derivative("aten::mul.Scalar", saves=())
def _d_mul_scalar(grad, self, other, *, result):
    return (grad * other,)


@derivative("aten::div.Tensor")
def _d_div(grad, self, other, *, result):
    if not isinstance(other, Tensor):
        return (grad / other,)
    return _g(grad / other, self), _g(-grad * self / (other * other), other)


@derivative("aten::div.Scalar", saves=())
def _d_div_scalar(grad, self, other, *, result):
    return (grad / other,)


@derivative("aten::pow.Tensor_Scalar", saves=("self",))
def _d_pow_scalar(grad, self, exponent, *, result):
    if exponent == 0:
        return (grad * 0,)
    return (grad * exponent * self.pow(exponent - 1),)


@derivative("aten::pow.Tensor_Tensor", saves=("self", "exponent", "result"))
def _d_pow(grad, self, exponent, *, result):
    g_self = grad * exponent * self.pow(exponent - 1)
    g_exp = grad * result * self.log().masked_fill(self.eq(0), 0)
    return _g(g_self, self), _g(g_exp, exponent)


@derivative("aten::pow.Scalar", saves=("result",))
def _d_pow_base(grad, self, exponent, *, result):
    return None, grad * result * math.log(self)


@derivative("aten::maximum", "aten::max.other")
def _d_maximum(grad, self, other, *, result):
    mask = self.gt(other).float() + self.eq(other).float() * 0.5
    return _g(grad * mask, self), _g(grad * (1 - mask), other)


@derivative("aten::minimum", "aten::min.other")
def _d_minimum(grad, self, other, *, result):
    mask = self.lt(other).float() + self.eq(other).float() * 0.5
    return _g(grad * mask, self), _g(grad * (1 - mask), other)


@derivative("aten::atan2")
def _d_atan2(grad, self, other, *, result):
    denom = self * self + other * other
    return _g(grad * other / denom, self), _g(-grad * self / denom, other)


@derivative("aten::remainder.Scalar", "aten::fmod.Scalar", saves=())
def _d_remainder_scalar(grad, self, other, *, result):
    return (grad,)


# remainder(a, b) = a - floor(a / b) * b; fmod(a, b) = a - trunc(a / b) * b
@derivative("aten::remainder.Tensor")
def _d_remainder(grad, self, other, *, result):
    return _g(grad, self), _g(-grad * (self / other).floor(), other)


@derivative("aten::fmod.Tensor")
def _d_fmod(grad, self, other, *, result):
    return _g(grad, self), _g(-grad * (self / other).trunc(), other)


_UNARY_DERIVATIVES: dict[str, tuple[tuple[str, ...], Callable[..., Any]]] = {
    "exp": (("result",), lambda g, x, r: g * r),
    "exp2": (("result",), lambda g, x, r: g * r * math.log(2.0)),
    "expm1": (("result",), lambda g, x, r: g * (r + 1)),
    "log": (("self",), lambda g, x, r: g / x),
    "log2": (("self",), lambda g, x, r: g / (x * math.log(2.0))),
    "log10": (("self",), lambda g, x, r: g / (x * math.log(10.0))),
    "log1p": (("self",), lambda g, x, r: g / (x + 1)),
    "sqrt": (("result",), lambda g, x, r: g / (2 * r)),
    "rsqrt": (("result",), lambda g, x, r: g * r.pow(3) * -0.5),
    "sin": (("self",), lambda g, x, r: g * x.cos()),
    "cos": (("self",), lambda g, x, r: -g * x.sin()),
    "tan": (("result",), lambda g, x, r: g * (1 + r * r)),
    "asin": (("self",), lambda g, x, r: g / (1 - x * x).sqrt()),
    "acos": (("self",), lambda g, x, r: -g / (1 - x * x).sqrt()),
    "atan": (("self",), lambda g, x, r: g / (1 + x * x)),
    "sinh": (("self",), lambda g, x, r: g * x.cosh()),
    "cosh": (("self",), lambda g, x, r: g * x.sinh()),
    "tanh": (("result",), lambda g, x, r: g * (1 - r * r)),
    "asinh": (("self",), lambda g, x, r: g / (x * x + 1).sqrt()),
    "acosh": (("self",), lambda g, x, r: g / (x * x - 1).sqrt()),
    "atanh": (("self",), lambda g, x, r: g / (1 - x * x)),
    "sigmoid": (("result",), lambda g, x, r: g * r * (1 - r)),
    "erf": (("self",), lambda g, x, r: g * (2.0 / math.sqrt(math.pi)) * (-(x * x)).exp()),
    "erfc": (("self",), lambda g, x, r: g * (-2.0 / math.sqrt(math.pi)) * (-(x * x)).exp()),
    "reciprocal": (("result",), lambda g, x, r: -g * r * r),
    "silu": (("self",), lambda g, x, r: g * (x.sigmoid() * (1 + x * (1 - x.sigmoid())))),
    "neg": ((), lambda g, x, r: -g),
    "abs": (("self",), lambda g, x, r: g * x.sign()),
    "sign": ((), lambda g, x, r: g * 0),
    "square": (("self",), lambda g, x, r: g * 2 * x),
    "floor": ((), lambda g, x, r: g * 0),
    "ceil": ((), lambda g, x, r: g * 0),
    "trunc": ((), lambda g, x, r: g * 0),
    "round": ((), lambda g, x, r: g * 0),
    "frac": ((), lambda g, x, r: g),
    "relu": (("result",), lambda g, x, r: g * r.gt(0)),
}


def _unary_formula(fn: Callable[..., Any]) -> Callable[..., Any]:
    def formula(grad, self, *rest, result):
        return (fn(grad, self, result),)

    return formula


for _name, (_saves, _fn) in _UNARY_DERIVATIVES.items():
    derivative(f"aten::{_name}", saves=_saves)(_unary_formula(_fn))


@derivative("aten::gelu", saves=("self",))
def _d_gelu(grad, self, approximate="none", *, result):
    if approximate == "tanh":
        k = math.sqrt(2.0 / math.pi)
        inner = k * (self + 0.044715 * self.pow(3))
        t = inner.tanh()
        d_inner = k * (1 + 3 * 0.044715 * self * self)
        return (grad * (0.5 * (1 + t) + 0.5 * self * (1 - t * t) * d_inner),)
    cdf = 0.5 * (1 + (self / math.sqrt(2.0)).erf())
    pdf = (-0.5 * self * self).exp() / math.sqrt(2 * math.pi)
    return (grad * (cdf + self * pdf),)


@derivative("aten::leaky_relu", saves=("self",))
def _d_leaky_relu(grad, self, negative_slope=0.01, *, result):
    return (grad * self.gt(0).float() + grad * self.le(0).float() * negative_slope,)


@derivative("aten::elu", saves=("self", "result"))
def _d_elu(grad, self, alpha=1, scale=1, input_scale=1, *, result):
    pos = self.gt(0).float()
    return (grad * (pos * scale + (1 - pos) * (result + alpha * scale) * input_scale),)


@derivative("aten::hardtanh", saves=("self",))
def _d_hardtanh(grad, self, min_val=-1, max_val=1, *, result):
    return (grad * (self.gt(min_val) & self.lt(max_val)).float(),)


@derivative("aten::softplus", saves=("self",))
def _d_softplus(grad, self, beta=1, threshold=20, *, result):
    bx = self * beta
    return (grad * bx.sigmoid().masked_fill(bx.gt(threshold), 1.0),)


@derivative("aten::clamp", "aten::clamp.Tensor", saves=("self",))
def _d_clamp(grad, self, min=None, max=None, *, result):
    # result = minimum(maximum(self, min), max): each gradient goes where its operand won
    keep = self.eq(self)
    lifted = self
    if min is not None:
        keep = keep & self.ge(min)
        lifted = (
            call("aten::maximum", self, min) if isinstance(min, Tensor) else self.clamp_min(min)
        )
    if max is not None:
        keep = keep & self.le(max)
    dt = grad.dtype
    g_self = grad * keep.to(dt)
    g_min = g_max = None
    if isinstance(min, Tensor):
        won = self.lt(min) if max is None else self.lt(min) & lifted.le(max)
        g_min = _g(grad * won.to(dt), min)
    if isinstance(max, Tensor):
        g_max = _g(grad * lifted.gt(max).to(dt), max)
    return g_self, g_min, g_max


@derivative("aten::clamp_min", "aten::clamp_min.Tensor", saves=("self",))
def _d_clamp_min(grad, self, min, *, result):
    keep = self.ge(min)
    g_min = _g(grad * keep.logical_not().to(grad.dtype), min) if isinstance(min, Tensor) else None
    return grad * keep.to(grad.dtype), g_min


@derivative("aten::clamp_max", "aten::clamp_max.Tensor", saves=("self",))
def _d_clamp_max(grad, self, max, *, result):
    keep = self.le(max)
    g_max = _g(grad * keep.logical_not().to(grad.dtype), max) if isinstance(max, Tensor) else None
    return grad * keep.to(grad.dtype), g_max


@derivative(
    "aten::where.self",
    "aten::where.ScalarSelf",
    "aten::where.ScalarOther",
    "aten::where.Scalar",
    saves=("condition",),
)
def _d_where(grad, condition, self, other, *, result):
    zero = grad * 0
    return (
        None,
        _g(call("aten::where", condition, grad, zero), self),
        _g(call("aten::where", condition, zero, grad), other),
    )


@derivative("aten::masked_fill.Scalar", "aten::masked_fill.Tensor", saves=("mask",))
def _d_masked_fill(grad, self, mask, value, *, result):
    g_self = _g(grad.masked_fill(mask, 0), self)
    g_value = (grad * mask.float()).sum() if isinstance(value, Tensor) else None
    return g_self, None, g_value


@derivative("aten::lerp.Scalar", "aten::lerp.Tensor")
def _d_lerp(grad, self, end, weight, *, result):
    g_weight = _g(grad * (end - self), weight) if isinstance(weight, Tensor) else None
    return _g(grad * (1 - weight), self), _g(grad * weight, end), g_weight
