"""Window functions for spectral analysis: hann, hamming, blackman, bartlett, kaiser.

A periodic window of length N is the symmetric window of length N + 1 without its last
sample (PyTorch's default); computed in float64, returned in `dtype` (the default float).

    hann      0.5 - 0.5 cos(2 pi n / M)
    hamming   alpha - beta cos(2 pi n / M)              (0.54, 0.46)
    blackman  0.42 - 0.5 cos(2 pi n / M) + 0.08 cos(4 pi n / M)
    bartlett  1 - |2 n / M - 1|
    kaiser    I0(beta sqrt(1 - (2 n / M - 1)^2)) / I0(beta)   (beta 12)

with M = N - 1 for a symmetric window of N samples.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ..dtypes import get_default_dtype, numpy_dtype
from ..tensor import Tensor, TensorError, check_device
from .common import result
from .dispatch import implements
from .special import bessel_i

ndarray = np.ndarray


def _window(
    shape: Callable[[ndarray, int], ndarray],
    window_length: int,
    periodic: bool,
    dtype: int | None,
    device: Any,
    name: str,
) -> Tensor:
    check_device(device)
    if window_length < 0:
        raise TensorError(
            f"{name} requires non-negative window_length, got window_length={window_length}"
        )
    dt = numpy_dtype(get_default_dtype() if dtype is None else dtype)
    if dt.kind not in "fc":
        raise TensorError(f"{name} expects floating point dtypes, got: {dt}")
    if window_length <= 1:
        return result(np.ones(window_length, dtype=dt))
    n = window_length + 1 if periodic else window_length
    values = shape(np.arange(n, dtype=np.float64), n - 1)
    return result(values[:window_length].astype(dt))


def _cosine_sum(*coefficients: float) -> Callable[[ndarray, int], ndarray]:
    def shape(k: ndarray, m: int) -> ndarray:
        out = np.zeros_like(k)
        for j, c in enumerate(coefficients):
            out += (-1) ** j * c * np.cos(2 * math.pi * j * k / m)
        return out

    return shape


def _bartlett(k: ndarray, m: int) -> ndarray:
    return 1 - np.abs(2 * k / m - 1)


def _kaiser(beta: float) -> Callable[[ndarray, int], ndarray]:
    def shape(k: ndarray, m: int) -> ndarray:
        r = np.sqrt(np.clip(1 - (2 * k / m - 1) ** 2, 0, None))
        return bessel_i(beta * r, 0, scaled=False) / bessel_i(np.asarray([beta]), 0, scaled=False)

    return shape


def _register(name: str, shape: Callable[[ndarray, int], ndarray]) -> None:
    def default(
        window_length: int,
        dtype: Any = None,
        layout: Any = None,
        device: Any = None,
        pin_memory: Any = None,
    ) -> Tensor:
        return _window(shape, window_length, True, dtype, device, name)

    def periodic(
        window_length: int,
        periodic: bool,
        dtype: Any = None,
        layout: Any = None,
        device: Any = None,
        pin_memory: Any = None,
    ) -> Tensor:
        return _window(shape, window_length, periodic, dtype, device, name)

    implements(f"aten::{name}")(default)
    implements(f"aten::{name}.periodic")(periodic)


_register("hann_window", _cosine_sum(0.5, 0.5))
_register("hamming_window", _cosine_sum(0.54, 0.46))
_register("blackman_window", _cosine_sum(0.42, 0.5, 0.08))
_register("bartlett_window", _bartlett)
_register("kaiser_window", _kaiser(12.0))


@implements("aten::hamming_window.periodic_alpha")
def hamming_alpha(
    window_length: int,
    periodic: bool,
    alpha: float,
    dtype: Any = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: Any = None,
) -> Tensor:
    return _window(
        _cosine_sum(alpha, 1 - alpha), window_length, periodic, dtype, device, "hamming_window"
    )


@implements("aten::hamming_window.periodic_alpha_beta")
def hamming_alpha_beta(
    window_length: int,
    periodic: bool,
    alpha: float,
    beta: float,
    dtype: Any = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: Any = None,
) -> Tensor:
    return _window(
        _cosine_sum(alpha, beta), window_length, periodic, dtype, device, "hamming_window"
    )


@implements("aten::kaiser_window.beta")
def kaiser_beta(
    window_length: int,
    periodic: bool,
    beta: float,
    dtype: Any = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: Any = None,
) -> Tensor:
    return _window(_kaiser(beta), window_length, periodic, dtype, device, "kaiser_window")
