"""Special functions: modified Bessel functions of the first kind, `i0`, `i1` and scaled forms.

    i0(x)          I0(x)                   (aten::i0, aten::special_i0)
    special_i0e(x) exp(-|x|) I0(x)
    special_i1(x)  I1(x)
    special_i1e(x) exp(-|x|) I1(x)

Computed in float64 and returned in the input's floating dtype (float32 for
integer inputs), as PyTorch does. For |x| <= 30 the power series

    I_n(x) = sum_k (x/2)^(2k+n) / (k! (k+n)!)

is summed (64 terms; every term is positive, so nothing cancels), and above
it the asymptotic expansion

    exp(-x) I_n(x) ~ 1/sqrt(2 pi x) * sum_k (-1)^k prod_{j<=k} (4n^2 - (2j-1)^2) / (k! (8x)^k)

whose terms keep shrinking well past the 30 taken there. I0 is even and I1
odd; the unscaled forms overflow to inf past |x| ~ 709, as in PyTorch.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from ..tensor import Tensor
from .common import floating, result
from .dispatch import call, derivative, implements
from .pointwise import _unary_inplace

ndarray = np.ndarray

_F64 = np.dtype(np.float64)
_SERIES_LIMIT = 30.0
_SERIES_TERMS = 64
_ASYMPTOTIC_TERMS = 30


def _series(x: ndarray, n: int) -> ndarray:
    """I_n(x) for 0 <= x <= 30 by the power series."""
    q = x * x / 4.0
    term = np.ones_like(x) if n == 0 else x / 2.0
    total = term.copy()
    for k in range(_SERIES_TERMS):
        term = term * q / ((k + 1) * (k + 1 + n))
        total += term
    return total


def _asymptotic_scaled(x: ndarray, n: int) -> ndarray:
    """exp(-x) I_n(x) for x >= 30 by the asymptotic expansion."""
    mu = 4.0 * n * n
    term = np.ones_like(x)
    total = term.copy()
    for k in range(1, _ASYMPTOTIC_TERMS):
        term = -term * (mu - (2 * k - 1) ** 2) / (k * 8.0 * x)
        total += term
    return total / np.sqrt(2.0 * math.pi * x)


def bessel_i(x: ndarray, n: int, *, scaled: bool, dtype: np.dtype = _F64) -> ndarray:
    """I_n(x), or exp(-|x|) I_n(x) when `scaled`, for n in (0, 1), elementwise in float64.

    For an unscaled result in `dtype`, exp(|x|) is taken in that dtype, so it
    overflows where PyTorch's kernel does (float32 past |x| ~ 88.7).
    """
    a = np.abs(x.astype(np.float64))
    small = a <= _SERIES_LIMIT
    near = _series(np.minimum(a, _SERIES_LIMIT), n)
    far = _asymptotic_scaled(np.maximum(a, _SERIES_LIMIT), n)
    with np.errstate(over="ignore"):
        if scaled:
            out = np.where(small, near * np.exp(-np.minimum(a, _SERIES_LIMIT)), far)
        else:
            out = np.where(small, near, far * np.exp(a.astype(dtype)))
    if n == 1:
        out = np.copysign(out, x)
    return out


def _bessel_kernel(n: int, *, scaled: bool) -> Callable[[Tensor], Tensor]:
    def kernel(self: Tensor) -> Tensor:
        a = self._data
        dt = floating(a.dtype)
        return result(bessel_i(a, n, scaled=scaled, dtype=dt).astype(dt, copy=False))

    kernel.__name__ = f"i{n}{'e' if scaled else ''}"
    return kernel


i0 = implements("aten::i0", "aten::special_i0")(_bessel_kernel(0, scaled=False))
i0e = implements("aten::special_i0e")(_bessel_kernel(0, scaled=True))
i1 = implements("aten::special_i1")(_bessel_kernel(1, scaled=False))
i1e = implements("aten::special_i1e")(_bessel_kernel(1, scaled=True))
implements("aten::i0_")(_unary_inplace(i0, "aten::i0_"))


@derivative("aten::i0", "aten::special_i0", saves=("self",))
def _d_i0(grad, self, *, result):
    return (grad * call("aten::special_i1", self),)


@derivative("aten::special_i0e", saves=("self", "result"))
def _d_i0e(grad, self, *, result):
    return (grad * (call("aten::special_i1e", self) - self.sign() * result),)


def _i1_over_x(i1_of_x: Tensor, x: Tensor) -> Tensor:
    # I1(x) / x, with its limit 1/2 at 0
    zero = x.eq(0)
    return call("aten::where", zero, 0.5, i1_of_x / x.masked_fill(zero, 1.0))


@derivative("aten::special_i1", saves=("self", "result"))
def _d_i1(grad, self, *, result):
    return (grad * (call("aten::i0", self) - _i1_over_x(result, self)),)


@derivative("aten::special_i1e", saves=("self", "result"))
def _d_i1e(grad, self, *, result):
    return (
        grad * (call("aten::special_i0e", self) - self.sign() * result - _i1_over_x(result, self)),
    )
