"""Calling compiled kernels: the code of one structure, bound to one specialization.

`CompiledCode` is machine code loaded into the process, with its ctypes
prototype and, where available, its CPython `METH_FASTCALL` entry as a
builtin function. `bind(spec, code)` makes the callable a fusion group runs
per call, `kernel(*inputs) -> outputs | None`: it allocates the outputs,
passes the arrays and numbers to the machine code and wraps the results in
tensors. Small launches call the CPython entry (far cheaper than ctypes'
argument conversion; it keeps the GIL for its microseconds); large ones go
through ctypes, which releases the GIL, on the pool's threads. None means the kernel could not compute these
inputs (an integer division by zero): the caller runs the interpreter,
which raises the proper error.

Everything that depends only on the specialization (output shapes and
dtypes, the `info` array, which arguments are tensors) is decided once, in
a small function generated per specialization, so a call costs about as
much as the ctypes call itself, whatever the size of the group.
"""

from __future__ import annotations

import ctypes
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from ts_ir import ScalarType, TensorType
from ts_runtime.tensor import wrap

from . import parallel
from .codegen import NUMPY_DATA_OFFSET, Abi
from .specialization import Path, Specialization

S = ScalarType
_kernel_ids = itertools.count()


#: The CPython functions a `python_entry` calls.
PYTHON_API = (
    "PyFloat_AsDouble",
    "PyLong_AsLongLong",
    "PyObject_IsTrue",
    "PyLong_AsVoidPtr",
    "PyLong_FromLong",
)
METH_FASTCALL = 0x0080


def detect_abi() -> Abi:
    """Pass arrays as objects when numpy's struct keeps the data pointer where expected, else as
    pointers (slower: one attribute lookup per array per call); add the CPython entry when the
    C API it calls is visible to the JIT's linker."""
    samples = [np.arange(6.0), np.arange(12, dtype=np.int32)[3:], np.zeros(()), np.ones((2, 3)).T]
    for a in samples:
        seen = ctypes.c_void_p.from_address(id(a) + NUMPY_DATA_OFFSET).value
        if seen != a.ctypes.data:
            return Abi(pass_objects=False)
    import llvmlite.binding as llvm

    from .compiler import compiler

    compiler()  # the JIT's view of the process's symbols
    visible = all(llvm.address_of_symbol(name) for name in PYTHON_API)
    return Abi(pass_objects=True, python_entry=visible)


class _MethodDef(ctypes.Structure):
    _fields_ = [
        ("ml_name", ctypes.c_char_p),
        ("ml_meth", ctypes.c_void_p),
        ("ml_flags", ctypes.c_int),
        ("ml_doc", ctypes.c_char_p),
    ]


def python_function(address: int, name: str) -> tuple[Callable[..., int], Any]:
    """A builtin function object calling the `METH_FASTCALL` code at `address`, and what must
    stay alive as long as it does (its method definition)."""
    method = _MethodDef(name.encode(), address, METH_FASTCALL, None)
    new = ctypes.pythonapi.PyCFunction_NewEx
    new.restype = ctypes.py_object
    new.argtypes = [ctypes.c_void_p, ctypes.py_object, ctypes.py_object]
    return new(ctypes.addressof(method), None, None), method


def _ctype(dtype: ScalarType) -> Any:
    if dtype is S.Bool:
        return ctypes.c_uint8
    if dtype is S.Double:
        return ctypes.c_double
    return ctypes.c_int64


@dataclass
class CompiledCode:
    """Machine code for one `codegen_key`, loaded into this process."""

    symbol: str
    address: int
    origin: str  # "compiled" or "disk"
    compile_seconds: float
    cfunc: Callable[..., int] = field(repr=False)
    ir: str | None = field(default=None, repr=False)
    pyfunc: Callable[..., int] | None = field(default=None, repr=False)
    _keep: Any = field(default=None, repr=False)

    @classmethod
    def make(
        cls,
        spec: Specialization,
        abi: Abi,
        symbol: str,
        address: int,
        origin: str,
        seconds: float,
        ir: str | None,
        python_entry: int | None = None,
    ) -> CompiledCode:
        array = ctypes.py_object if abi.pass_objects else ctypes.c_void_p
        argtypes = [array for t in spec.inputs if isinstance(t, TensorType)]
        argtypes += [_ctype(d) for _, d in spec.scalar_args]
        argtypes += [array] * len(spec.outputs)
        argtypes += [ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64]
        prototype = ctypes.CFUNCTYPE(ctypes.c_int32, *argtypes)
        code = cls(symbol, address, origin, seconds, prototype(address), ir)
        if python_entry:
            code.pyfunc, code._keep = python_function(python_entry, symbol)
        return code


def bind(spec: Specialization, code: CompiledCode, abi: Abi) -> Callable[..., Any]:
    """The per-call function of one specialization (see the module docstring)."""
    info = (ctypes.c_int64 * max(1, len(spec.info)))(*spec.info)
    cells: dict[str, Any] = {
        "_fn": code.cfunc,
        "_small": code.pyfunc or code.cfunc,
        "_empty": np.empty,
        "_wrap": wrap,
        "_shape": spec.shape,
        "_info": ctypes.addressof(info),  # an int: both entries take it as an address
        "_work": spec.work_items,
        "_pool": parallel.POOL,
        "_plan": _share_planner(spec),
        "_keep": info,
    }
    params = [f"a{i}" for i in range(len(spec.inputs))]
    if abi.pass_objects:
        arrays = [f"a{i}._data" for i, t in enumerate(spec.inputs) if isinstance(t, TensorType)]
    else:
        arrays = [
            f"a{i}._data.ctypes.data"
            for i, t in enumerate(spec.inputs)
            if isinstance(t, TensorType)
        ]
    scalars = [f"a{i}" for i, _ in spec.scalar_args]
    outs = [f"o{k}" for k in range(len(spec.outputs))]
    out_args = outs if abi.pass_objects else [f"{o}.ctypes.data" for o in outs]
    lines = [f"def kernel({', '.join(params)}):"]
    layout = spec.output_layout
    for k, dtype in enumerate(spec.output_numpy_dtypes):
        cells[f"_dt{k}"] = dtype
        shape = "_shape"
        if spec.output_shapes and spec.output_shapes[k] != spec.shape:
            shape = f"_shape{k}"
            cells[shape] = spec.output_shapes[k]
        lines.append(f"    o{k} = _empty({shape}, _dt{k})")
    if layout is not None:
        cells["_shape"], cells["_transpose"] = layout
    wrapped = [
        f"_wrap({o})" if layout is None else f"_wrap({o}.transpose(_transpose))" for o in outs
    ]
    args = ", ".join([*arrays, *scalars, *out_args, "_info"])
    elements_per_item = spec.elements_per_item
    if spec.numel == 0:
        pass
    elif spec.work_items * elements_per_item < parallel.PARALLEL_THRESHOLD:
        lines.append(f"    if _small({args}, 0, _work):")
        lines.append("        return None")
    else:
        lines.append("    bounds = _plan()")
        lines.append("    if len(bounds) == 1:")
        lines.append(f"        status = _fn({args}, 0, _work)")
        lines.append("    else:")
        lines.append(f"        status = _pool.run(_fn, ({args},), bounds)")
        lines.append("    if status:")
        lines.append("        return None")
    lines.append(
        f"    return {wrapped[0]}" if len(wrapped) == 1 else f"    return ({', '.join(wrapped)},)"
    )
    source = "\n".join(lines) + "\n"
    namespace: dict[str, Any] = dict(cells)
    exec(compile(source, f"<ts_fuser_cpu kernel {next(_kernel_ids)}>", "exec"), namespace)
    kernel = namespace["kernel"]
    kernel.spec = spec
    kernel.code = code
    kernel.source = source
    return kernel


def _share_planner(spec: Specialization) -> Callable[[], list[tuple[int, int]]]:
    """Shares of the work for the current thread count (recomputed when it changes)."""
    per_item = spec.elements_per_item
    align = parallel.ALIGNMENT if spec.path is Path.FLAT else 1
    cached: list[Any] = [None, None]

    def plan() -> list[tuple[int, int]]:
        threads = parallel.get_num_threads()
        if cached[0] != threads:
            cached[0] = threads
            cached[1] = parallel.shares(spec.work_items, per_item, align=align)
        return cached[1]

    return plan
