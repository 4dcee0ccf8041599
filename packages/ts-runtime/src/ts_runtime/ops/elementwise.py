"""More pointwise operators: fmax and fmin, hypot, logaddexp, xlogy, nan_to_num, sign tests,
and the special functions lgamma, digamma, polygamma, erfinv, logit, sinc, entr, ndtr.

Dtypes follow PyTorch: the special functions compute in floating point (an
integer input gives float32), `float_power` in float64, `hypot` and
`logaddexp` refuse integers. Special functions are computed in float64:

    digamma(x)      reflection below 1/2 (psi(1 - x) - pi cot(pi x)), the
                    recurrence psi(x) = psi(x + 1) - 1/x up to 6, then the
                    asymptotic series ln x - 1/(2x) - sum B_2k / (2k x^2k)
    polygamma(n, x) (-1)^(n+1) n! zeta(n + 1, x), the Hurwitz zeta by
                    Euler-Maclaurin summation after shifting x above 10
    erfinv(x)       a rational first guess refined by three Newton steps
    lgamma(x)       math.lgamma per element (inf at the poles)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..tensor import Tensor, TensorError
from .common import check_floating, floating, operand, promote, result, sum_to_shape
from .dispatch import call, derivative, implements
from .pointwise import _erf, _inplace, _unary_inplace, broadcasting

ndarray = np.ndarray
_F64 = np.dtype(np.float64)


def _float_of(self: Tensor) -> tuple[ndarray, np.dtype]:
    """The input as float64 for computing, and the result's dtype."""
    a = self._data
    return a.astype(np.float64), floating(a.dtype)


def _g(grad: Tensor, x: Any) -> Tensor | None:
    return sum_to_shape(grad, x._data.shape) if isinstance(x, Tensor) else None


# ---------------------------------------------------------------------------
# binary


@implements("aten::fmax")
@broadcasting
def fmax(self: Tensor, other: Tensor) -> Tensor:
    dt = promote(self, other)
    return result(np.fmax(operand(self, dt), operand(other, dt)))


@implements("aten::fmin")
@broadcasting
def fmin(self: Tensor, other: Tensor) -> Tensor:
    dt = promote(self, other)
    return result(np.fmin(operand(self, dt), operand(other, dt)))


@implements("aten::hypot")
@broadcasting
def hypot(self: Tensor, other: Tensor) -> Tensor:
    dt = promote(self, other)
    check_floating(dt, "hypot_cpu")
    return result(np.hypot(operand(self, dt), operand(other, dt)))


@implements("aten::logaddexp")
@broadcasting
def logaddexp(self: Tensor, other: Tensor) -> Tensor:
    dt = promote(self, other)
    check_floating(dt, "logaddexp_cpu")
    return result(np.logaddexp(operand(self, dt), operand(other, dt)))


@implements("aten::logaddexp2")
@broadcasting
def logaddexp2(self: Tensor, other: Tensor) -> Tensor:
    dt = promote(self, other)
    check_floating(dt, "logaddexp2_cpu")
    return result(np.logaddexp2(operand(self, dt), operand(other, dt)))


@implements("aten::heaviside")
@broadcasting
def heaviside(self: Tensor, values: Tensor) -> Tensor:
    a, v = self._data, values._data
    if a.dtype != v.dtype:
        raise TensorError("heaviside is not yet implemented for tensors with different dtypes.")
    if a.dtype.kind == "c":
        raise TensorError("heaviside is not yet implemented for complex tensors.")
    return result(np.where(a == 0, v, (a > 0).astype(a.dtype)).astype(a.dtype))


@implements(
    "aten::float_power.Tensor_Tensor", "aten::float_power.Tensor_Scalar", "aten::float_power.Scalar"
)
@broadcasting
def float_power(self: Any, exponent: Any) -> Tensor:
    complex_ = any(
        isinstance(x, complex) or (isinstance(x, Tensor) and x._data.dtype.kind == "c")
        for x in (self, exponent)
    )
    dt = np.dtype(np.complex128 if complex_ else np.float64)
    base = self._data.astype(dt) if isinstance(self, Tensor) else np.asarray(self, dtype=dt)
    e = exponent._data.astype(dt) if isinstance(exponent, Tensor) else exponent
    return result(np.power(base, e))


def _xlogy(x: ndarray, y: ndarray, log: Any) -> ndarray:
    out = x * log(y)
    return np.where((x == 0) & ~np.isnan(y), np.zeros((), out.dtype), out)


def _xlog_kernel(log: Any, name: str) -> Any:
    def kernel(self: Any, other: Any) -> Tensor:
        dt = floating(promote(self, other))
        x = self._data.astype(dt) if isinstance(self, Tensor) else np.asarray(self, dtype=dt)
        y = other._data.astype(dt) if isinstance(other, Tensor) else np.asarray(other, dtype=dt)
        return result(_xlogy(x, y, log).astype(dt, copy=False))

    kernel.__name__ = name
    return broadcasting(kernel)


xlogy = implements(
    "aten::xlogy.Tensor",
    "aten::xlogy.Scalar_Other",
    "aten::xlogy.Scalar_Self",
    "aten::special_xlogy",
    "aten::special_xlogy.other_scalar",
    "aten::special_xlogy.self_scalar",
)(_xlog_kernel(np.log, "xlogy"))
xlog1py = implements(
    "aten::special_xlog1py",
    "aten::special_xlog1py.other_scalar",
    "aten::special_xlog1py.self_scalar",
)(_xlog_kernel(np.log1p, "xlog1py"))
implements("aten::xlogy_.Tensor", "aten::xlogy_.Scalar_Other")(
    lambda self, other: _inplace(self, xlogy(self, other), "aten::xlogy_")
)


# ---------------------------------------------------------------------------
# unary


@implements("aten::signbit")
def signbit(self: Tensor) -> Tensor:
    a = self._data
    return result(np.signbit(a) if a.dtype.kind == "f" else a < 0)


@implements("aten::isposinf")
def isposinf(self: Tensor) -> Tensor:
    a = self._data
    return result(np.isposinf(a) if a.dtype.kind == "f" else np.zeros(a.shape, bool))


@implements("aten::isneginf")
def isneginf(self: Tensor) -> Tensor:
    a = self._data
    return result(np.isneginf(a) if a.dtype.kind == "f" else np.zeros(a.shape, bool))


@implements("aten::positive", autograd=False)
def positive(self: Tensor) -> Tensor:
    if self._data.dtype.kind == "b":
        raise TensorError("The `+` operator, on a bool tensor is not supported.")
    return self


@implements("aten::nan_to_num")
def nan_to_num(
    self: Tensor, nan: float | None = None, posinf: float | None = None, neginf: float | None = None
) -> Tensor:
    a = self._data
    if a.dtype.kind not in "fc":
        return result(a.copy())
    info = np.finfo(a.dtype)
    out = np.nan_to_num(
        a,
        nan=0.0 if nan is None else nan,
        posinf=info.max if posinf is None else posinf,
        neginf=info.min if neginf is None else neginf,
    )
    return result(out.astype(a.dtype, copy=False))


implements("aten::nan_to_num_")(
    lambda self, nan=None, posinf=None, neginf=None: _inplace(
        self, nan_to_num(self, nan, posinf, neginf), "aten::nan_to_num_"
    )
)


def _float_unary(name: str, fn: Any) -> Any:
    def kernel(self: Tensor) -> Tensor:
        x, dt = _float_of(self)
        with np.errstate(all="ignore"):
            return result(fn(x).astype(dt, copy=False))

    kernel.__name__ = name
    return kernel


_RAD = math.pi / 180.0
deg2rad = implements("aten::deg2rad")(_float_unary("deg2rad", lambda x: x * _RAD))
rad2deg = implements("aten::rad2deg")(_float_unary("rad2deg", lambda x: x / _RAD))


def _sinc(x: ndarray) -> ndarray:
    return np.sinc(x)


sinc = implements("aten::sinc", "aten::special_sinc")(_float_unary("sinc", _sinc))


def _entr(x: ndarray) -> ndarray:
    with np.errstate(all="ignore"):
        out = -x * np.log(x)
    return np.where(x == 0, 0.0, np.where(x < 0, -np.inf, out))


entr = implements("aten::special_entr")(_float_unary("entr", _entr))


def _ndtr(x: ndarray) -> ndarray:
    return 0.5 * (1.0 + _erf(x / math.sqrt(2.0)))


ndtr = implements("aten::special_ndtr")(_float_unary("ndtr", _ndtr))


@implements("aten::logit", "aten::special_logit")
def logit(self: Tensor, eps: float | None = None) -> Tensor:
    x, dt = _float_of(self)
    if eps is not None:
        x = np.clip(x, eps, 1.0 - eps)
    with np.errstate(all="ignore"):
        return result(np.log(x / (1.0 - x)).astype(dt, copy=False))


implements("aten::logit_")(lambda self, eps=None: _inplace(self, logit(self, eps), "aten::logit_"))


def erfinv_array(y: ndarray) -> ndarray:
    """erf^-1(y) for |y| <= 1 (NaN outside, +-inf at +-1)."""
    y = np.asarray(y, dtype=np.float64)
    a = 0.147  # a first guess within 2e-3 (Winitzki's approximation), then Newton
    with np.errstate(all="ignore"):
        ln = np.log1p(-y * y)
        first = 2.0 / (math.pi * a) + ln / 2.0
        x = np.sign(y) * np.sqrt(np.sqrt(first * first - ln / a) - first)
        for _ in range(3):
            err = _erf(x) - y
            x = x - err / (2.0 / math.sqrt(math.pi) * np.exp(-x * x))
    x = np.where(np.abs(y) == 1.0, np.sign(y) * np.inf, x)
    return np.where(np.abs(y) > 1.0, np.nan, x)


erfinv = implements("aten::erfinv", "aten::special_erfinv")(_float_unary("erfinv", erfinv_array))

_vector_lgamma = np.frompyfunc(
    lambda v: math.lgamma(v) if not (v <= 0 and v == int(v)) else math.inf, 1, 1
)


def lgamma_array(x: ndarray) -> ndarray:
    flat = x.reshape(-1)
    finite = np.isfinite(flat)
    out = np.full(flat.shape, np.inf)
    out[np.isnan(flat)] = np.nan
    if finite.any():
        out[finite] = _vector_lgamma(flat[finite]).astype(np.float64)
    return out.reshape(x.shape)


lgamma = implements("aten::lgamma")(_float_unary("lgamma", lgamma_array))

# Bernoulli numbers B_2k, k = 1..8, for the asymptotic series
_B2K = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510)


def digamma_array(x: ndarray) -> ndarray:
    x = np.asarray(x, dtype=np.float64)
    out = np.empty_like(x)
    reflect = x < 0.5
    with np.errstate(all="ignore"):
        y = np.where(reflect, 1.0 - x, x)
        shift = np.zeros_like(y)
        while True:
            small = y < 6.0
            if not small.any():
                break
            shift -= np.where(small, 1.0 / np.where(small, y, 1.0), 0.0)
            y = np.where(small, y + 1.0, y)
        inv2 = 1.0 / (y * y)
        series = np.zeros_like(y)
        power = inv2.copy()
        for k, b in enumerate(_B2K, start=1):
            series += b / (2 * k) * power
            power = power * inv2
        psi = np.log(y) - 0.5 / y - series + shift
        out = np.where(reflect, psi - math.pi / np.tan(math.pi * x), psi)
    poles = (x <= 0) & (x == np.floor(x))
    out = np.where(poles, np.where(x == 0, -np.inf, np.nan), out)
    return out


digamma = implements("aten::digamma", "aten::special_digamma", "aten::special_psi")(
    _float_unary("digamma", digamma_array)
)


def hurwitz_zeta(s: int, q: ndarray) -> ndarray:
    """zeta(s, q) = sum_k (q + k)^-s for an integer s >= 2 and q > 0 (Euler-Maclaurin)."""
    q = np.asarray(q, dtype=np.float64)
    n = 10
    total = np.zeros_like(q)
    for k in range(n):
        total += (q + k) ** -s
    a = q + n
    total += a ** (1 - s) / (s - 1) + 0.5 * a**-s
    # sum_j B_2j / (2j)! * s (s+1) ... (s+2j-2) * a^-(s+2j-1)
    rising = float(s)
    power = a ** (-s - 1)
    factorial = 2.0
    for j, b in enumerate(_B2K, start=1):
        total += b / factorial * rising * power
        rising *= (s + 2 * j - 1) * (s + 2 * j)
        power = power / (a * a)
        factorial *= (2 * j + 1) * (2 * j + 2)
    return total


def polygamma_array(n: int, x: ndarray) -> ndarray:
    if n == 0:
        return digamma_array(x)
    x = np.asarray(x, dtype=np.float64)
    sign = -1.0 if n % 2 == 0 else 1.0
    scale = sign * math.factorial(n)
    # shift below-one arguments up: psi_n(x) = psi_n(x + 1) + (-1)^(n+1) n! / x^(n+1)
    extra = np.zeros_like(x)
    y = x.copy()
    with np.errstate(all="ignore"):
        for _ in range(64):
            low = y < 1.0
            if not low.any():
                break
            extra += np.where(low, 1.0 / np.where(low, y, 1.0) ** (n + 1), 0.0)
            y = np.where(low, y + 1.0, y)
        out = scale * (hurwitz_zeta(n + 1, y) + extra)
    poles = (x <= 0) & (x == np.floor(x))
    return np.where(poles, np.inf if n % 2 == 1 else -np.inf, out)


@implements("aten::polygamma", "aten::special_polygamma")
def polygamma(n: int, self: Tensor) -> Tensor:
    if n < 0:
        raise TensorError("polygamma(n, x) does not support negative n.")
    x, dt = _float_of(self)
    return result(polygamma_array(n, x).astype(dt, copy=False))


implements("aten::polygamma_")(
    lambda self, n: _inplace(self, polygamma(n, self), "aten::polygamma_")
)
for _kernel, _key in (
    (sinc, "aten::sinc_"),
    (erfinv, "aten::erfinv_"),
    (lgamma, "aten::lgamma_"),
    (digamma, "aten::digamma_"),
    (deg2rad, "aten::deg2rad_"),
    (rad2deg, "aten::rad2deg_"),
):
    implements(_key)(_unary_inplace(_kernel, _key))


# ---------------------------------------------------------------------------
# derivatives


@derivative("aten::fmax", "aten::fmin")
def _d_fmax_fmin(grad, self, other, *, result):
    # the gradient goes to the operand the result came from (the number, beside a NaN)
    from_self = self.eq(result) | other.isnan()
    return _g(grad * from_self.to(grad.dtype), self), _g(
        grad * from_self.logical_not().to(grad.dtype), other
    )


@derivative("aten::hypot", saves=("self", "other", "result"))
def _d_hypot(grad, self, other, *, result):
    return _g(grad * self / result, self), _g(grad * other / result, other)


@derivative("aten::logaddexp", saves=("self", "other", "result"))
def _d_logaddexp(grad, self, other, *, result):
    return _g(grad * (self - result).exp(), self), _g(grad * (other - result).exp(), other)


@derivative("aten::logaddexp2", saves=("self", "other", "result"))
def _d_logaddexp2(grad, self, other, *, result):
    return (
        _g(grad * (self - result).exp2(), self),
        _g(grad * (other - result).exp2(), other),
    )


@derivative(
    "aten::xlogy.Tensor",
    "aten::xlogy.Scalar_Other",
    "aten::xlogy.Scalar_Self",
    "aten::special_xlogy",
    "aten::special_xlogy.other_scalar",
    "aten::special_xlogy.self_scalar",
)
def _d_xlogy(grad, self, other, *, result):
    g_self = None
    if isinstance(self, Tensor):
        y = other if isinstance(other, Tensor) else float(other)
        g_self = _g(grad * call("aten::xlogy", self.ne(0).to(grad.dtype), y), self)
    g_other = _g(grad * self / other, other) if isinstance(other, Tensor) else None
    return g_self, g_other


@derivative(
    "aten::special_xlog1py",
    "aten::special_xlog1py.other_scalar",
    "aten::special_xlog1py.self_scalar",
)
def _d_xlog1py(grad, self, other, *, result):
    g_self = None
    if isinstance(self, Tensor):
        y = other if isinstance(other, Tensor) else float(other)
        g_self = _g(grad * call("aten::special_xlog1py", self.ne(0).to(grad.dtype), y), self)
    g_other = _g(grad * self / (other + 1), other) if isinstance(other, Tensor) else None
    return g_self, g_other


@derivative(
    "aten::float_power.Tensor_Tensor", "aten::float_power.Tensor_Scalar", "aten::float_power.Scalar"
)
def _d_float_power(grad, self, exponent, *, result):
    g_self = g_exp = None
    if isinstance(self, Tensor):
        g_self = _g((grad * exponent * self.double().pow(exponent - 1)).to(self.dtype), self)
    if isinstance(exponent, Tensor):
        base = self.double() if isinstance(self, Tensor) else self
        logs = base.log() if isinstance(base, Tensor) else math.log(base)
        g_exp = _g((grad * result * logs).to(exponent.dtype), exponent)
    return g_self, g_exp


@derivative("aten::nan_to_num", saves=("self",))
def _d_nan_to_num(grad, self, nan=None, posinf=None, neginf=None, *, result):
    return (grad * self.isfinite().to(grad.dtype),)


@derivative("aten::deg2rad", saves=())
def _d_deg2rad(grad, self, *, result):
    return (grad * _RAD,)


@derivative("aten::rad2deg", saves=())
def _d_rad2deg(grad, self, *, result):
    return (grad / _RAD,)


@derivative("aten::sinc", "aten::special_sinc", saves=("self",))
def _d_sinc(grad, self, *, result):
    px = self * math.pi
    slope = ((px.cos() * px - px.sin()) / (px * self)).masked_fill(self.eq(0), 0.0)
    return (grad * slope,)


@derivative("aten::special_entr", saves=("self",))
def _d_entr(grad, self, *, result):
    return (grad * -(self.log() + 1),)


@derivative("aten::special_ndtr", saves=("self",))
def _d_ndtr(grad, self, *, result):
    return (grad * (self * self * -0.5).exp() / math.sqrt(2 * math.pi),)


@derivative("aten::logit", "aten::special_logit", saves=("self",))
def _d_logit(grad, self, eps=None, *, result):
    slope = 1.0 / (self * (1 - self))
    if eps is not None:
        inside = self.ge(eps) & self.le(1 - eps)
        slope = call("aten::where", inside, slope, 0.0)
    return (grad * slope,)


@derivative("aten::erfinv", "aten::special_erfinv", saves=("result",))
def _d_erfinv(grad, self, *, result):
    return (grad * (result * result).exp() * (math.sqrt(math.pi) / 2),)


@derivative("aten::lgamma", saves=("self",))
def _d_lgamma(grad, self, *, result):
    return (grad * call("aten::digamma", self),)


@derivative("aten::digamma", "aten::special_digamma", "aten::special_psi", saves=("self",))
def _d_digamma(grad, self, *, result):
    return (grad * call("aten::polygamma", 1, self),)


@derivative("aten::polygamma", "aten::special_polygamma", saves=("self",))
def _d_polygamma(grad, n, self, *, result):
    return None, grad * call("aten::polygamma", n + 1, self)
