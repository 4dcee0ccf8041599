"""Helpers for ts-fuser-cpu's tests: input specs from arrays, fused and interpreted runs.

(A module of its own, not conftest.py: test directories of several packages
are collected together, and each has a conftest.)
"""

from __future__ import annotations

import numpy as np
import ts_fuser_cpu
import ts_runtime
from ts_ir import BoolType, Device, FloatType, Graph, IntType, TensorType, Type, parse_ir
from ts_runtime.dtypes import scalar_type_of_numpy

CPU = Device("cpu")


def spec_of(value: object) -> Type:
    """The input spec the runtime would pass for a value (array, or Python number)."""
    if isinstance(value, np.ndarray):
        strides = tuple(s // value.itemsize for s in value.strides)
        return TensorType(scalar_type_of_numpy(value.dtype), CPU, False, value.shape, strides)
    if isinstance(value, bool):
        return BoolType.get()
    if isinstance(value, int):
        return IntType.get()
    if isinstance(value, float):
        return FloatType.get()
    raise TypeError(value)


def as_runtime(value: object) -> object:
    return ts_runtime.from_numpy(value) if isinstance(value, np.ndarray) else value


def graph_of(ir: str | Graph) -> Graph:
    return parse_ir(ir) if isinstance(ir, str) else ir


def fused(ir: str | Graph, *values: object, backend=None):
    """The group compiled for these values and called: numpy outputs (a list), or None when the
    kernel asks for the interpreter."""
    g = graph_of(ir)
    kernel = (backend or ts_fuser_cpu.backend).compile(g, [spec_of(v) for v in values])
    out = kernel(*map(as_runtime, values))
    if out is None:
        return None
    outs = out if isinstance(out, tuple) else (out,)
    return [o.numpy() for o in outs]


def interpreted(ir: str | Graph, *values: object):
    """The subgraph run by ts-runtime's interpreter: numpy outputs (a list)."""
    g = graph_of(ir)
    out = ts_runtime.Code(g, grad_enabled=False).fn(*map(as_runtime, values))
    outs = out if isinstance(out, tuple) else (out,)
    return [o.numpy() for o in outs]


def ulp_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """How many representable values lie between a and b (same float dtype; NaNs match NaNs)."""
    assert a.dtype == b.dtype and a.dtype.kind == "f"
    ints = np.int32 if a.dtype == np.float32 else np.int64

    def ordered(x: np.ndarray) -> np.ndarray:
        i = x.view(ints).astype(np.int64)
        return np.where(i < 0, np.iinfo(ints).min - i, i)

    d = np.abs(ordered(a) - ordered(b))
    both_nan = np.isnan(a) & np.isnan(b)
    return np.where(both_nan, 0, d)
