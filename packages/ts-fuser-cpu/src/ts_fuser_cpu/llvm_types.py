"""The dtypes the CPU fuser computes in, and how each lives in LLVM and in memory.

A value of dtype `Bool` is an `i1` in registers and a byte (0 or 1) in memory,
as numpy stores it; the other dtypes have one LLVM type for both.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from ts_ir import ScalarType

S = ScalarType

I1 = ir.IntType(1)
I8 = ir.IntType(8)
I32 = ir.IntType(32)
I64 = ir.IntType(64)
F32 = ir.FloatType()
F64 = ir.DoubleType()
PTR = ir.PointerType()

#: Element types a fused kernel reads, computes in and writes.
SUPPORTED = (S.Bool, S.Int, S.Long, S.Float, S.Double)

_REGISTER = {S.Bool: I1, S.Int: I32, S.Long: I64, S.Float: F32, S.Double: F64}
_MEMORY = {S.Bool: I8, S.Int: I32, S.Long: I64, S.Float: F32, S.Double: F64}
_NUMPY = {
    S.Bool: np.dtype(np.bool_),
    S.Int: np.dtype(np.int32),
    S.Long: np.dtype(np.int64),
    S.Float: np.dtype(np.float32),
    S.Double: np.dtype(np.float64),
}
_FROM_NUMPY = {v: k for k, v in _NUMPY.items()}


def is_supported(dtype: ScalarType | None) -> bool:
    return dtype in _REGISTER


def register_type(dtype: ScalarType) -> ir.Type:
    """The LLVM type a value of `dtype` has in registers."""
    return _REGISTER[dtype]


def memory_type(dtype: ScalarType) -> ir.Type:
    """The LLVM type an element of `dtype` has in memory."""
    return _MEMORY[dtype]


def numpy_dtype(dtype: ScalarType) -> np.dtype:
    return _NUMPY[dtype]


def scalar_type_of_numpy(dtype: np.dtype) -> ScalarType | None:
    """The ScalarType of a supported numpy dtype, else None."""
    return _FROM_NUMPY.get(dtype)


def is_float(dtype: ScalarType) -> bool:
    return dtype is S.Float or dtype is S.Double


def is_int(dtype: ScalarType) -> bool:
    return dtype is S.Int or dtype is S.Long
