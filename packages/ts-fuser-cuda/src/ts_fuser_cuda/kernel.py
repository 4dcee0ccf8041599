"""Launching a compiled fusion kernel for one specialization.

`bind(spec, code)` returns what a fusion group calls, `kernel(*inputs) ->
outputs | None`: it allocates the outputs on the device (laid out in the
inputs' memory order, as the CPU fuser lays them out), fills the parameter
list (pointers, numbers, and the sizes, strides and chunk offsets fixed by
the specialization, computed once here), takes the vectorized entry when
every operand is aligned for it, and launches a grid-stride grid. A kernel
that may fail (integer division by zero) writes a status word, read back
after the launch (which waits for it); None then sends the group to the
interpreter, which raises the error.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from ts_fuser_cpu import Access, Specialization, numpy_dtype
from ts_ir import ScalarType
from ts_runtime.tensor import wrap

from .codegen import THREADS, VECTOR, GeneratedKernel
from .driver import Module
from .launching import grid_stride
from .storage import CudaArray

S = ScalarType
_STATUS_OK = np.zeros(1, np.int32)


@dataclass
class CompiledKernel:
    """A generated kernel and the module that holds it on one driver."""

    kernel: GeneratedKernel
    module: Module
    source: str


def _static_value(spec: Specialization, role: str, index: int, dim: int) -> int:
    if role == "numel":
        return spec.numel
    if role == "offset":
        return spec.leaves[index].offset
    if role == "size":
        return spec.dims[dim]
    if role == "stride":
        return spec.leaves[index].iter_strides[dim]
    raise AssertionError(role)


def bind(spec: Specialization, code: CompiledKernel) -> Callable[..., Any]:
    """The per-call function of one specialization (see the module docstring)."""
    kernel, module = code.kernel, code.module
    d = module.driver
    params = kernel.params
    template: list[Any] = []
    fill: list[tuple[int, str, int]] = []  # (position, role, index) filled per call
    for position, p in enumerate(params):
        if p.role in ("input", "output", "scalar", "status"):
            template.append(0)
            fill.append((position, p.role, p.index))
        else:
            template.append(_static_value(spec, p.role, p.index, p.dim))
    scalar_kinds = {i: dtype for i, dtype in spec.scalar_args}
    dtypes = [numpy_dtype(dt) for _, dt in spec.outputs]
    layout = spec.output_layout
    alloc_shape, transpose = (spec.shape, None) if layout is None else layout
    # operands the vectorized entry reads four at a time: (input, byte offset, alignment)
    aligned = [
        (leaf.arg, leaf.offset, VECTOR * numpy_dtype(leaf.dtype).itemsize)
        for leaf in spec.leaves
        if leaf.loaded and leaf.access is Access.CONTIGUOUS
    ]
    vector = kernel.vector_name
    numel = spec.numel
    status_word = d.allocate(4) if kernel.uses_status else None

    def run(*inputs: Any) -> Any:
        outs = [CudaArray.empty(d, alloc_shape, dt) for dt in dtypes]
        if numel:
            args = list(template)
            for position, role, index in fill:
                if role == "input":
                    args[position] = inputs[index]._data.data_ptr
                elif role == "output":
                    args[position] = outs[index].data_ptr
                elif role == "scalar":
                    value = inputs[index]
                    args[position] = int(bool(value)) if scalar_kinds[index] is S.Bool else value
                else:
                    assert status_word is not None
                    d.copy_to_device(status_word.ptr, _STATUS_OK)
                    args[position] = status_word.ptr
            name, work = kernel.name, numel
            if vector is not None and all(
                (inputs[i]._data.data_ptr + offset) % alignment == 0
                for i, offset, alignment in aligned
            ):
                name, work = vector, -(-numel // VECTOR)
            grid_stride(module, name, work, args, THREADS)
            if status_word is not None:
                status = np.zeros(1, np.int32)
                d.copy_to_host(status, status_word.ptr)
                if status[0]:
                    return None
        if transpose is not None:
            outs = [
                o.view(tuple(o.shape[p] for p in transpose), tuple(o.strides[p] for p in transpose))
                for o in outs
            ]
        results = [wrap(o) for o in outs]
        return results[0] if len(results) == 1 else tuple(results)

    run.spec = spec  # type: ignore[attr-defined]
    run.code = code  # type: ignore[attr-defined]
    return run
