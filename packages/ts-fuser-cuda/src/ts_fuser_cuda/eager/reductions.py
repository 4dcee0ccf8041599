"""Reductions of CUDA tensors: sum, mean, prod, amax/amin, max/min, any/all.

The reduced dimensions go last, the kept ones first (each group coalesced);
one block computes one output element (blocks stride over the outputs): its
threads stride over the reduced elements, then combine their partial
results in shared memory, halving the active threads at each step
(`__syncthreads` between steps). Result dtypes and errors are the CPU
kernels' (`ts_runtime.ops.reduction`): sums and products of integers and
bools are int64, `mean` needs a floating dtype, an empty max is an error.

Partial results are kept in the result dtype, as PyTorch's CUDA kernels
keep float32 sums in float32: results agree with numpy's to rounding, not
bit for bit (the order of additions differs). A reduction of everything
runs in one block; that is correct but not yet the two-pass reduction a
large tensor deserves.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from ts_fuser_cpu import coalesce
from ts_ir import ScalarType
from ts_runtime.dtypes import numpy_dtype, scalar_type_of_numpy
from ts_runtime.tensor import DimensionError, Tensor, TensorError, normalize_dim, wrap

from ..c_types import is_float, kernel_dtype, literal, memory_type, register_type
from ..codegen import THREADS, Entry, Param, cast
from ..launching import SourceCache, index_bits, reach
from ..storage import CudaArray

S = ScalarType

_INF = float("inf")
_INT_LIMITS = {S.Int: (-(2**31), 2**31 - 1), S.Long: (-(2**63), 2**63 - 1)}


def _identity(kind: str, acc: ScalarType) -> str:
    if kind in ("sum", "mean"):
        return literal(0, acc)
    if kind == "prod":
        return literal(1, acc)
    if kind == "any":
        return "false"
    if kind == "all":
        return "true"
    if acc is S.Bool:
        return "false" if kind == "max" else "true"
    if is_float(acc):
        return literal(-_INF if kind == "max" else _INF, acc)
    low, high = _INT_LIMITS[acc]
    return literal(low if kind == "max" else high, acc)


def _combine(kind: str, acc: ScalarType, x: str, y: str) -> str:
    if kind in ("sum", "mean"):
        return f"{x} + {y}" if is_float(acc) else f"ts_iadd({x}, {y})"
    if kind == "prod":
        return f"{x} * {y}" if is_float(acc) else f"ts_imul({x}, {y})"
    if kind == "max":
        return f"ts_maximum({x}, {y})"
    if kind == "min":
        return f"ts_minimum({x}, {y})"
    return f"{x} || {y}" if kind == "any" else f"{x} && {y}"


def reduction_kernel(
    kind: str, src: ScalarType, acc: ScalarType, kept: int, reduced: int, bits: int
) -> tuple[str, list[Entry]]:
    """The source and entry of a reduction for dtypes and ranks (see the module docstring)."""
    name = f"tsjit_reduce_{kind}_{src.name.lower()}_{acc.name.lower()}_k{kept}_r{reduced}_i{bits}"
    idx = "int" if bits == 32 else "ts_i64"
    fmt = "i" if bits == 32 else "q"
    params = [
        Param("src", f"const {memory_type(src)}* __restrict__", "src"),
        Param("dst", f"{memory_type(acc)}* __restrict__", "dst"),
        Param("outer", idx, "outer", format=fmt),
        Param("inner", idx, "inner", format=fmt),
    ]
    params += [Param(f"ks{d}", idx, "size", 0, d, format=fmt) for d in range(kept)]
    params += [Param(f"kst{d}", idx, "stride", 0, d, format=fmt) for d in range(kept)]
    params += [Param(f"rs{d}", idx, "size", 1, d, format=fmt) for d in range(reduced)]
    params += [Param(f"rst{d}", idx, "stride", 1, d, format=fmt) for d in range(reduced)]
    if kind == "mean":
        params.append(Param("count", "ts_i64", "count", format="q"))

    def walk(var: str, prefix: str, rank: int, target: str) -> list[str]:
        lines = [f"{idx} {var}_rest = {var};"]
        for d in range(rank - 1, -1, -1):
            if d == 0:
                lines.append(f"{target} += {var}_rest * {prefix}st{d};")
            else:
                lines.append(f"{target} += ({var}_rest % {prefix}s{d}) * {prefix}st{d};")
                lines.append(f"{var}_rest = {var}_rest / {prefix}s{d};")
        return lines

    reg = register_type(acc)
    load = "(src[off] != 0)" if src is S.Bool else "src[off]"
    final = "partial[0]"
    if kind == "mean":
        final = f"partial[0] / (({reg})count)"
    body = [
        f"{idx} base = 0;",
        *walk("o", "k", kept, "base"),
        f"{reg} total = {_identity(kind, acc)};",
        f"for ({idx} r = ({idx})threadIdx.x; r < inner; r += ({idx})blockDim.x) {{",
        f"    {idx} off = base;",
        *[f"    {line}" for line in walk("r", "r", reduced, "off")],
        f"    const {register_type(src)} x = {load};",
        f"    total = {_combine(kind, acc, 'total', cast('x', src, acc))};",
        "}",
        "partial[threadIdx.x] = total;",
        "__syncthreads();",
        "for (unsigned step = blockDim.x / 2; step > 0; step >>= 1) {",
        "    if (threadIdx.x < step) {",
        f"        partial[threadIdx.x] = {_combine(kind, acc, 'partial[threadIdx.x]', 'partial[threadIdx.x + step]')};",
        "    }",
        "    __syncthreads();",
        "}",
        f"if (threadIdx.x == 0) dst[o] = ({memory_type(acc)})({final});",
        "__syncthreads();",
    ]
    decl = ",\n    ".join(f"{p.ctype} {p.name}" for p in params)
    lines = [
        f'extern "C" __global__ void __launch_bounds__({THREADS}) {name}(\n    {decl}) {{',
        f"    __shared__ {reg} partial[{THREADS}];",
        f"    for ({idx} o = ({idx})blockIdx.x; o < outer; o += ({idx})gridDim.x) {{",
        *[f"        {line}" for line in body],
        "    }",
        "}",
    ]
    return "\n".join(lines) + "\n", [Entry(name, tuple(params), barriers=True)]


REDUCTIONS = SourceCache(reduction_kernel)


def _elements(a: CudaArray) -> list[int]:
    return [s // a.itemsize for s in a.strides]


def reduce(a: CudaArray, kind: str, axes: Sequence[int], keepdim: bool, acc: np.dtype) -> CudaArray:
    """`a` reduced over `axes` (all when empty... the caller normalizes) into dtype `acc`."""
    axes = sorted(set(axes))
    kept_dims = [d for d in range(a.ndim) if d not in axes]
    strides = _elements(a)
    kept_sizes, (kept_strides,) = coalesce(
        tuple(a.shape[d] for d in kept_dims), [[strides[d] for d in kept_dims]]
    )
    red_sizes, (red_strides,) = coalesce(
        tuple(a.shape[d] for d in axes), [[strides[d] for d in axes]]
    )
    outer = 1
    for d in kept_dims:
        outer *= a.shape[d]
    inner = 1
    for d in axes:
        inner *= a.shape[d]
    out_shape = (
        tuple(1 if d in axes else s for d, s in enumerate(a.shape))
        if keepdim
        else tuple(a.shape[d] for d in kept_dims)
    )
    src_type, acc_type = kernel_dtype(a.dtype, kind), kernel_dtype(acc, kind)
    out = CudaArray.empty(a.driver, out_shape, acc)
    if outer == 0:
        return out
    extent = reach(kept_sizes, kept_strides) + reach(red_sizes, red_strides)
    bits = index_bits(max(outer, inner), [extent])
    module = REDUCTIONS.module(
        a.driver, (kind, src_type, acc_type, len(kept_sizes), len(red_sizes), bits)
    )
    (entry,) = module.entries.values()
    args: list[Any] = [a.data_ptr, out.data_ptr, outer, inner]
    args += [*kept_sizes, *kept_strides, *red_sizes, *red_strides]
    if kind == "mean":
        args.append(inner)
    grid, block = a.driver.launch_shape(outer * THREADS, THREADS)
    module.launch(entry.name, grid, block, args)
    return out


# ---------------------------------------------------------------------------
# the operators


def _array(t: Tensor) -> CudaArray:
    return t._data  # type: ignore[return-value]


def _axes(dim: Any, ndim: int) -> list[int]:
    """The reduced dims: every dim for None or []; normalized and checked otherwise."""
    if dim is None:
        return list(range(ndim))
    if isinstance(dim, int):
        dim = [dim]
    if len(dim) == 0:
        return list(range(ndim))
    out = [normalize_dim(d, ndim) for d in dim]
    if len(set(out)) != len(out):
        raise TensorError(f"dim {out[0]} appears multiple times in the list of dims")
    return out if ndim else []


def _accumulate(a: CudaArray, dtype: int | None) -> np.dtype:
    if dtype is not None:
        return numpy_dtype(dtype)
    return np.dtype(np.int64) if a.dtype.kind in "biu" else a.dtype


def _sum(kind: str) -> Callable[..., Tensor]:
    def kernel(
        self: Tensor, dim: Any = None, keepdim: bool = False, dtype: int | None = None
    ) -> Tensor:
        a = _array(self)
        return wrap(reduce(a, kind, _axes(dim, a.ndim), keepdim, _accumulate(a, dtype)))

    return kernel


def _sum_all(kind: str) -> Callable[..., Tensor]:
    def kernel(self: Tensor, dtype: int | None = None) -> Tensor:
        a = _array(self)
        return wrap(reduce(a, kind, list(range(a.ndim)), False, _accumulate(a, dtype)))

    return kernel


def _mean_dtype(a: CudaArray, dtype: int | None) -> np.dtype:
    name = scalar_type_of_numpy(a.dtype).name
    if dtype is not None:
        target = numpy_dtype(dtype)
        if target.kind not in "fc":
            raise TensorError(
                "mean(): could not infer output dtype. Optional dtype must be either a floating "
                f"point or complex dtype. Got: {scalar_type_of_numpy(target).name}"
            )
        return target
    if a.dtype.kind not in "fc":
        raise TensorError(
            "mean(): could not infer output dtype. Input dtype must be either a floating point "
            f"or complex dtype. Got: {name}"
        )
    return a.dtype


def _mean_dim(self: Tensor, dim: Any, keepdim: bool = False, dtype: int | None = None) -> Tensor:
    a = _array(self)
    acc = _mean_dtype(a, dtype)
    axes = _axes(dim, a.ndim)
    if any(a.shape[d] == 0 for d in axes) or (not axes and a.size == 0):
        return _empty_mean(a, axes, keepdim, acc)
    return wrap(reduce(a, "mean", axes, keepdim, acc))


def _empty_mean(a: CudaArray, axes: list[int], keepdim: bool, acc: np.dtype) -> Tensor:
    """The mean of no elements is NaN (computed on the host: it reads no device memory)."""
    shape = (
        tuple(1 if d in axes else s for d, s in enumerate(a.shape))
        if keepdim
        else tuple(s for d, s in enumerate(a.shape) if d not in axes)
    )
    return wrap(CudaArray.from_host(a.driver, np.full(shape, np.nan, acc)))


def _mean(self: Tensor, dtype: int | None = None) -> Tensor:
    return _mean_dim(self, None, False, dtype)


def _extreme(kind: str, name: str) -> Callable[..., Tensor]:
    def kernel(self: Tensor, dim: Sequence[int] = (), keepdim: bool = False) -> Tensor:
        a = _array(self)
        axes = _axes(list(dim), a.ndim)
        if a.size == 0 and (not axes or any(a.shape[d] == 0 for d in axes)):
            raise DimensionError(
                f"{name}(): Expected reduction dim to be specified for input.numel() == 0. "
                "Specify the reduction dim with the 'dim' argument."
            )
        return wrap(reduce(a, kind, axes, keepdim, a.dtype))

    return kernel


def _extreme_all(kind: str, name: str) -> Callable[..., Tensor]:
    def kernel(self: Tensor) -> Tensor:
        a = _array(self)
        if a.size == 0:
            raise TensorError(
                f"{name}(): Expected reduction dim to be specified for input.numel() == 0. "
                "Specify the reduction dim with the 'dim' argument."
            )
        return wrap(reduce(a, kind, list(range(a.ndim)), False, a.dtype))

    return kernel


def _logical(kind: str) -> Callable[..., Tensor]:
    def kernel(self: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
        a = _array(self)
        out_dtype = np.dtype(np.uint8) if a.dtype == np.uint8 else np.dtype(np.bool_)
        return wrap(reduce(a, kind, _axes(dim, a.ndim), keepdim, out_dtype))

    return kernel


def _prod_dim(self: Tensor, dim: int, keepdim: bool = False, dtype: int | None = None) -> Tensor:
    return _sum("prod")(self, [dim], keepdim, dtype)


KERNELS: dict[str, Callable[..., Any]] = {
    "aten::sum": _sum_all("sum"),
    "aten::sum.dim_IntList": _sum("sum"),
    "aten::prod": _sum_all("prod"),
    "aten::prod.dim_int": _prod_dim,
    "aten::mean": _mean,
    "aten::mean.dim": _mean_dim,
    "aten::amax": _extreme("max", "amax"),
    "aten::amin": _extreme("min", "amin"),
    "aten::max": _extreme_all("max", "max"),
    "aten::min": _extreme_all("min", "min"),
    "aten::any": _logical("any"),
    "aten::any.dim": _logical("any"),
    "aten::any.dims": _logical("any"),
    "aten::all": _logical("all"),
    "aten::all.dim": _logical("all"),
    "aten::all.dims": _logical("all"),
}
