"""The dtypes CUDA kernels compute in, as C types and C literals.

A `Bool` is a C++ `bool` in registers and a byte (0 or 1) in memory, as
numpy stores it; the other dtypes have one C type for both. Literals are
written so that the C compiler reads back exactly the value numpy's
conversion gives: the shortest decimal that round-trips (with an `f`
suffix for float32), bit patterns for infinities and NaN.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from ts_fuser_cpu import numpy_dtype
from ts_ir import ScalarType

S = ScalarType

_REGISTER = {S.Bool: "bool", S.Int: "int", S.Long: "ts_i64", S.Float: "float", S.Double: "double"}
_MEMORY = {
    S.Bool: "unsigned char",
    S.Int: "int",
    S.Long: "ts_i64",
    S.Float: "float",
    S.Double: "double",
}


#: The dtypes kernels read, compute in and write.
SUPPORTED = (S.Bool, S.Int, S.Long, S.Float, S.Double)


def kernel_dtype(dtype: np.dtype, what: str) -> ScalarType:
    """The ScalarType of a numpy dtype a kernel computes with; `DeviceError` for others."""
    from ts_runtime.devices import DeviceError
    from ts_runtime.dtypes import scalar_type_of_numpy

    try:
        st = scalar_type_of_numpy(np.dtype(dtype))
    except Exception:
        st = None
    if st not in SUPPORTED:
        raise DeviceError(
            f"{what} of {np.dtype(dtype)} tensors is not supported on cuda (kernels compute in "
            "bool, int32, int64, float32 and float64)"
        )
    return st  # type: ignore[return-value]


def register_type(dtype: ScalarType) -> str:
    """The C type a value of `dtype` has in registers."""
    return _REGISTER[dtype]


def memory_type(dtype: ScalarType) -> str:
    """The C type an element of `dtype` has in memory."""
    return _MEMORY[dtype]


def itemsize(dtype: ScalarType) -> int:
    return numpy_dtype(dtype).itemsize


def is_float(dtype: ScalarType | None) -> bool:
    return dtype is S.Float or dtype is S.Double


def is_int(dtype: ScalarType | None) -> bool:
    return dtype is S.Int or dtype is S.Long


def math_function(name: str, dtype: ScalarType) -> str:
    """The C math library's `name` for a dtype: `expf` for float32, `exp` for float64."""
    return name + "f" if dtype is S.Float else name


def literal(value: Any, dtype: ScalarType) -> str:
    """A Python number as a C literal of `dtype`, converted as numpy's `astype` converts it."""
    if dtype is S.Bool:
        return "true" if value else "false"
    with np.errstate(all="ignore"):
        converted = np.array(value).astype(numpy_dtype(dtype)).item()
    if dtype is S.Int:
        n = int(converted)
        return "(-2147483647 - 1)" if n == -(2**31) else str(n)
    if dtype is S.Long:
        n = int(converted)
        return "(-9223372036854775807LL - 1)" if n == -(2**63) else f"{n}LL"
    x = float(converted)
    if dtype is S.Float:
        if not math.isfinite(x):
            bits = int(np.array(x, np.float32).view(np.uint32))
            return f"ts_f32_bits(0x{bits:08x}u)"
        f = np.float32(x)
        if x == 0 or 1e-4 <= abs(x) < 1e7:
            return np.format_float_positional(f, unique=True, trim="0") + "f"
        return np.format_float_scientific(f, unique=True, trim="-") + "f"
    if not math.isfinite(x):
        bits = int(np.array(x, np.float64).view(np.uint64))
        return f"ts_f64_bits(0x{bits:016x}ull)"
    text = repr(x)
    return text if ("." in text or "e" in text) else text + ".0"
