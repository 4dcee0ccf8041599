"""Discrete Fourier transforms: the `aten::fft_*` operators behind `torch.fft`, by numpy.fft.

A transform of a float32 (or integer) tensor is complex64, of a float64 one
complex128; the inverse real transforms give float32 or float64 back.
`norm` is "backward" (the default), "forward" or "ortho", as numpy's. The
transforms are not differentiable here (their results are complex).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..dtypes import get_default_dtype, numpy_dtype
from ..tensor import Tensor, TensorError, normalize_dim
from .common import result
from .dispatch import call, implements

ndarray = np.ndarray
_NORMS = (None, "backward", "forward", "ortho")


def _complex_dtype(dt: np.dtype) -> np.dtype:
    if dt == np.float64 or dt == np.complex128:
        return np.dtype(np.complex128)
    return np.dtype(np.complex64)


def _real_dtype(dt: np.dtype) -> np.dtype:
    return np.dtype(np.float64) if dt in (np.float64, np.complex128) else np.dtype(np.float32)


def _check(norm: str | None, name: str) -> None:
    if norm not in _NORMS:
        raise TensorError(f'{name}: Invalid normalization mode: "{norm}"')


def _input(self: Tensor, name: str, *, real_only: bool = False) -> ndarray:
    a = self._data
    if real_only and a.dtype.kind == "c":
        raise TensorError(f"{name} expects a real input tensor, but got {self.dtype}")
    if a.dtype.kind not in "fc":
        a = a.astype(numpy_dtype(get_default_dtype()))
    return a


def _one_dim(fn: Callable[..., ndarray], name: str, *, real_in: bool, real_out: bool) -> Any:
    def kernel(
        self: Tensor, n: int | None = None, dim: int = -1, norm: str | None = None
    ) -> Tensor:
        _check(norm, name)
        a = _input(self, name, real_only=real_in)
        if a.ndim == 0:
            raise TensorError(f"{name}: expected a tensor with at least one dimension")
        d = normalize_dim(dim, a.ndim)
        if n is not None and n < 1:
            raise TensorError(f"Invalid number of data points ({n}) specified")
        out = fn(a, n=n, axis=d, norm=norm)
        dt = _real_dtype(a.dtype) if real_out else _complex_dtype(a.dtype)
        return result(np.asarray(out).astype(dt, copy=False))

    kernel.__name__ = name
    return kernel


def _many_dims(
    fn: Callable[..., ndarray], name: str, default_dims: Any, *, real_in: bool, real_out: bool
) -> Any:
    def kernel(
        self: Tensor, s: Any = None, dim: Any = default_dims, norm: str | None = None
    ) -> Tensor:
        _check(norm, name)
        a = _input(self, name, real_only=real_in)
        axes = None if dim is None else [normalize_dim(d, a.ndim) for d in dim]
        if s is not None and axes is None:
            axes = list(range(a.ndim - len(s), a.ndim))
        out = fn(a, s=None if s is None else list(s), axes=axes, norm=norm)
        dt = _real_dtype(a.dtype) if real_out else _complex_dtype(a.dtype)
        return result(np.asarray(out).astype(dt, copy=False))

    kernel.__name__ = name
    return kernel


for _name, _fn, _real_in, _real_out in (
    ("fft", np.fft.fft, False, False),
    ("ifft", np.fft.ifft, False, False),
    ("rfft", np.fft.rfft, True, False),
    ("irfft", np.fft.irfft, False, True),
    ("hfft", np.fft.hfft, False, True),
    ("ihfft", np.fft.ihfft, True, False),
):
    implements(f"aten::fft_{_name}")(
        _one_dim(_fn, f"fft_{_name}", real_in=_real_in, real_out=_real_out)
    )

for _name, _fn, _real_in, _real_out in (
    ("fft", np.fft.fftn, False, False),
    ("ifft", np.fft.ifftn, False, False),
    ("rfft", np.fft.rfftn, True, False),
    ("irfft", np.fft.irfftn, False, True),
):
    implements(f"aten::fft_{_name}2")(
        _many_dims(_fn, f"fft_{_name}2", [-2, -1], real_in=_real_in, real_out=_real_out)
    )
    implements(f"aten::fft_{_name}n")(
        _many_dims(_fn, f"fft_{_name}n", None, real_in=_real_in, real_out=_real_out)
    )


def _frequencies(fn: Callable[..., ndarray], name: str) -> Any:
    def kernel(
        n: int,
        d: float = 1.0,
        dtype: int | None = None,
        layout: Any = None,
        device: Any = None,
        pin_memory: Any = None,
    ) -> Tensor:
        dt = numpy_dtype(get_default_dtype() if dtype is None else dtype)
        return result(fn(n, d).astype(dt))

    kernel.__name__ = name
    return kernel


implements("aten::fft_fftfreq")(_frequencies(np.fft.fftfreq, "fftfreq"))
implements("aten::fft_rfftfreq")(_frequencies(np.fft.rfftfreq, "rfftfreq"))


def _shift(sign: int, name: str) -> Any:
    """fftshift (+) and ifftshift (-): a roll by half of each dim, differentiable as roll."""

    def kernel(self: Tensor, dim: Any = None) -> Tensor:
        n = self.dim()
        axes = list(range(n)) if dim is None else [normalize_dim(d, n) for d in dim]
        shifts = [sign * (self.shape[d] // 2) for d in axes]
        return call("aten::roll", self, shifts, axes)

    kernel.__name__ = name
    return kernel


implements("aten::fft_fftshift", autograd=False)(_shift(1, "fftshift"))
implements("aten::fft_ifftshift", autograd=False)(_shift(-1, "ifftshift"))
