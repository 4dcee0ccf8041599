"""TorchScript's dtype, layout and memory format names and their codes.

`torch.float32` compiles to `prim::Constant[value=6]`.

A dtype in compiled code is an int: the code of its `c10::ScalarType`. The
table holds every name PyTorch 2.13 defines, aliases included, so a program
naming a dtype the runtime cannot compute with (`torch.uint16`) still
compiles; the kernels decide what they accept.
"""

from __future__ import annotations

DTYPE_CODES: dict[str, int] = {
    "uint8": 0,
    "int8": 1,
    "int16": 2,
    "short": 2,
    "int32": 3,
    "int": 3,
    "int64": 4,
    "long": 4,
    "float16": 5,
    "half": 5,
    "float32": 6,
    "float": 6,
    "float64": 7,
    "double": 7,
    "complex32": 8,
    "chalf": 8,
    "complex64": 9,
    "cfloat": 9,
    "complex128": 10,
    "cdouble": 10,
    "bool": 11,
    "qint8": 12,
    "quint8": 13,
    "qint32": 14,
    "bfloat16": 15,
    "quint4x2": 16,
    "quint2x4": 17,
    "bits1x8": 18,
    "bits2x4": 19,
    "bits4x2": 20,
    "bits8": 21,
    "bits16": 22,
    "float8_e5m2": 23,
    "float8_e4m3fn": 24,
    "float8_e5m2fnuz": 25,
    "float8_e4m3fnuz": 26,
    "uint16": 27,
    "uint32": 28,
    "uint64": 29,
    "uint1": 30,
    "bit": 30,
    "uint2": 31,
    "uint3": 32,
    "uint4": 33,
    "uint5": 34,
    "uint6": 35,
    "uint7": 36,
    "int1": 37,
    "int2": 38,
    "int3": 39,
    "int4": 40,
    "int5": 41,
    "int6": 42,
    "int7": 43,
    "float8_e8m0fnu": 44,
    "float4_e2m1fn_x2": 45,
}

#: codes of the floating point and complex dtypes (`dtype.is_floating_point`, `.is_complex`)
FLOATING_CODES = frozenset({5, 6, 7, 15, 23, 24, 25, 26, 44, 45})
COMPLEX_CODES = frozenset({8, 9, 10})

#: layouts and memory formats are ints in compiled code too
LAYOUT_CODES: dict[str, int] = {
    "strided": 0,
    "sparse_coo": 1,
    "sparse_csr": 2,
    "sparse_csc": 4,
    "sparse_bsr": 5,
    "sparse_bsc": 6,
    "_mkldnn": 3,
    "jagged": 7,
}
MEMORY_FORMAT_CODES: dict[str, int] = {
    "contiguous_format": 0,
    "preserve_format": 1,
    "channels_last": 2,
    "channels_last_3d": 3,
}
