"""Eager dtype objects and their mapping to numpy.

A `dtype` is an `int` subclass whose value is the `ScalarType` number, so the
same object works as an IR constant (TorchScript passes dtypes as ints) and as
`tsjit.float32` in eager code: `x.dtype == tsjit.float64` and
`x.to(tsjit.int64)` behave the same in both worlds.
"""

from __future__ import annotations

import numpy as np
from ts_ir import ScalarType


class dtype(int):
    """A tensor element type, e.g. `tsjit.float32`."""

    __slots__ = ()

    @property
    def scalar_type(self) -> ScalarType:
        return ScalarType(int(self))

    @property
    def is_floating_point(self) -> bool:
        return self.scalar_type.is_floating_point

    @property
    def is_complex(self) -> bool:
        return self.scalar_type.is_complex

    @property
    def is_signed(self) -> bool:
        return self.scalar_type.is_signed

    @property
    def itemsize(self) -> int:
        return self.scalar_type.itemsize

    def __repr__(self) -> str:
        return f"tsjit.{self.scalar_type.python_name}"

    __str__ = __repr__

    def __reduce__(self):
        return (to_dtype, (int(self),))


S = ScalarType
_DTYPES: dict[int, dtype] = {int(t): dtype(int(t)) for t in ScalarType}

bool_ = _DTYPES[S.Bool]
uint8 = _DTYPES[S.Byte]
int8 = _DTYPES[S.Char]
int16 = short = _DTYPES[S.Short]
int32 = int_ = _DTYPES[S.Int]
int64 = long = _DTYPES[S.Long]
float16 = half = _DTYPES[S.Half]
bfloat16 = _DTYPES[S.BFloat16]
float32 = float_ = _DTYPES[S.Float]
float64 = double = _DTYPES[S.Double]
complex32 = _DTYPES[S.ComplexHalf]
complex64 = cfloat = _DTYPES[S.ComplexFloat]
complex128 = cdouble = _DTYPES[S.ComplexDouble]

_NUMPY: dict[ScalarType, np.dtype] = {
    S.Bool: np.dtype(np.bool_),
    S.Byte: np.dtype(np.uint8),
    S.Char: np.dtype(np.int8),
    S.Short: np.dtype(np.int16),
    S.Int: np.dtype(np.int32),
    S.Long: np.dtype(np.int64),
    S.Half: np.dtype(np.float16),
    S.Float: np.dtype(np.float32),
    S.Double: np.dtype(np.float64),
    S.ComplexFloat: np.dtype(np.complex64),
    S.ComplexDouble: np.dtype(np.complex128),
}
_FROM_NUMPY: dict[np.dtype, ScalarType] = {v: k for k, v in _NUMPY.items()}
_DTYPE_OF_NUMPY: dict[np.dtype, dtype] = {v: _DTYPES[k] for k, v in _NUMPY.items()}


class UnsupportedDtypeError(TypeError):
    """A dtype numpy cannot store (bfloat16, complex32) or numpy gave us one we do not model."""


def to_dtype(value: int | ScalarType | dtype) -> dtype:
    """The dtype object for a ScalarType number."""
    try:
        return _DTYPES[int(value)]
    except KeyError:
        raise UnsupportedDtypeError(f"no dtype has the number {int(value)}") from None


def numpy_dtype(scalar_type: int) -> np.dtype:
    """The numpy dtype that stores elements of this ScalarType number."""
    try:
        return _NUMPY[scalar_type]  # type: ignore[index]
    except KeyError:
        raise UnsupportedDtypeError(
            f"{to_dtype(scalar_type)} tensors are not supported: numpy has no such element type"
        ) from None


def dtype_of_numpy(np_dtype: np.dtype) -> dtype:
    """The dtype object of a numpy dtype."""
    try:
        return _DTYPE_OF_NUMPY[np_dtype]
    except KeyError:
        raise UnsupportedDtypeError(f"numpy dtype {np_dtype} has no tsjit equivalent") from None


def scalar_type_of_numpy(np_dtype: np.dtype) -> ScalarType:
    try:
        return _FROM_NUMPY[np_dtype]
    except KeyError:
        raise UnsupportedDtypeError(f"numpy dtype {np_dtype} has no tsjit equivalent") from None


_default_dtype = [float32]


def get_default_dtype() -> dtype:
    return _default_dtype[0]


def set_default_dtype(d: dtype) -> None:
    if not to_dtype(d).is_floating_point:
        raise TypeError("the default dtype must be a floating point type")
    _default_dtype[0] = to_dtype(d)


class finfo:
    """Machine limits of a floating point dtype."""

    def __init__(self, d: dtype = float32) -> None:
        info = np.finfo(numpy_dtype(d))
        self.bits = info.bits
        self.eps = float(info.eps)
        self.max = float(info.max)
        self.min = float(info.min)
        self.tiny = float(info.tiny)
        self.dtype = repr(to_dtype(d))


class iinfo:
    """Machine limits of an integral dtype."""

    def __init__(self, d: dtype) -> None:
        info = np.iinfo(numpy_dtype(d))
        self.bits = info.bits
        self.max = int(info.max)
        self.min = int(info.min)
        self.dtype = repr(to_dtype(d))
