"""Copies on the device: between layouts and dtypes, and to and from the host.

    contiguous(a)             # a C-ordered copy (a itself if it is one already)
    copy_into(dst, src)       # dst[...] = src, broadcast and converted, any layouts
    convert(a, dtype)         # a new contiguous array of another dtype

One kernel does all of it: `copy_<src>_<dst>_r<rank>_i<bits>` walks the
(coalesced) index space with a grid-stride loop, reads the source with its
strides, converts the element as numpy's `astype` does (`codegen.cast`, the
conversion fused kernels use) and writes it with the destination's strides.
Host transfers copy contiguous bytes only: a strided host array is made
contiguous by numpy first, a strided device array by this kernel.
"""

from __future__ import annotations

import numpy as np
from ts_fuser_cpu import broadcast_shapes, coalesce
from ts_ir import ScalarType

from ..c_types import kernel_dtype, memory_type, register_type
from ..codegen import THREADS, Entry, Param, cast
from ..launching import SourceCache, grid_stride, index_bits, reach
from ..storage import CudaArray

S = ScalarType


def copy_kernel(src: ScalarType, dst: ScalarType, rank: int, bits: int) -> tuple[str, list[Entry]]:
    """The source and entry of the strided copy kernel for two dtypes and a rank."""
    name = f"tsjit_copy_{src.name.lower()}_{dst.name.lower()}_r{rank}_i{bits}"
    idx = "int" if bits == 32 else "ts_i64"
    fmt = "i" if bits == 32 else "q"
    params = [
        Param("src", f"const {memory_type(src)}* __restrict__", "src"),
        Param("dst", f"{memory_type(dst)}* __restrict__", "dst"),
        Param("n", idx, "numel", format=fmt),
    ]
    params += [Param(f"size{d}", idx, "size", dim=d, format=fmt) for d in range(rank)]
    params += [Param(f"ss{d}", idx, "stride", 0, d, format=fmt) for d in range(rank)]
    params += [Param(f"ds{d}", idx, "stride", 1, d, format=fmt) for d in range(rank)]
    body = [f"{idx} rest = i;", f"{idx} so = 0;", f"{idx} dout = 0;"]
    for d in range(rank - 1, -1, -1):
        if d == 0:
            body.append(f"const {idx} d{d} = rest;")
        else:
            body += [f"const {idx} d{d} = rest % size{d};", f"rest = rest / size{d};"]
        body += [f"so += d{d} * ss{d};", f"dout += d{d} * ds{d};"]
    value = "(src[so] != 0)" if src is S.Bool else "src[so]"
    body.append(f"const {register_type(src)} x = {value};")
    body.append(f"dst[dout] = ({memory_type(dst)}){cast('x', src, dst)};")
    decl = ",\n    ".join(f"{p.ctype} {p.name}" for p in params)
    lines = [
        f'extern "C" __global__ void __launch_bounds__({THREADS}) {name}(\n    {decl}) {{',
        f"    for ({idx} i = ({idx})blockIdx.x * ({idx})blockDim.x + ({idx})threadIdx.x; "
        f"i < n; i += ({idx})blockDim.x * ({idx})gridDim.x) {{",
        *[f"        {line}" for line in body],
        "    }",
        "}",
    ]
    return "\n".join(lines) + "\n", [Entry(name, tuple(params))]


COPIES = SourceCache(copy_kernel)


def _elements(strides: tuple[int, ...], itemsize: int) -> list[int]:
    return [s // itemsize for s in strides]


def copy_into(dst: CudaArray, src: CudaArray) -> None:
    """dst[...] = src: `src` broadcast to `dst`'s shape and converted to its dtype."""
    if broadcast_shapes([src.shape, dst.shape]) != dst.shape:
        from ts_runtime.tensor import TensorError

        raise TensorError(
            f"the source of a copy of shape {list(src.shape)} does not broadcast to the "
            f"destination's shape {list(dst.shape)}"
        )
    n = dst.size
    if n == 0:
        return
    lead = dst.ndim - src.ndim
    src_strides = [0] * lead + [
        0 if size == 1 and full != 1 else stride
        for size, stride, full in zip(
            src.shape, _elements(src.strides, src.itemsize), dst.shape[lead:], strict=True
        )
    ]
    dst_strides = _elements(dst.strides, dst.itemsize)
    same_type = src.dtype == dst.dtype
    if same_type and src.is_contiguous() and dst.is_contiguous() and src.shape == dst.shape:
        dst.driver.copy_on_device(dst.data_ptr, src.data_ptr, dst.nbytes)
        return
    sizes, (ss, ds) = coalesce(dst.shape, [src_strides, dst_strides])
    if not sizes:
        sizes, ss, ds = [1], [0], [0]
    bits = index_bits(n, [reach(sizes, ss), reach(sizes, ds)])
    src_type, dst_type = kernel_dtype(src.dtype, "copying"), kernel_dtype(dst.dtype, "copying")
    module = COPIES.module(dst.driver, (src_type, dst_type, len(sizes), bits))
    (entry,) = module.entries.values()
    grid_stride(module, entry.name, n, [src.data_ptr, dst.data_ptr, n, *sizes, *ss, *ds])


def contiguous(a: CudaArray, *, force: bool = False) -> CudaArray:
    """`a` in C order: itself when it already is (unless `force`), else a copy."""
    if a.is_contiguous() and not force:
        return a
    out = CudaArray.empty(a.driver, a.shape, a.dtype)
    copy_into(out, a)
    return out


def convert(a: CudaArray, dtype: np.dtype) -> CudaArray:
    """A contiguous copy of `a` with another dtype (numpy's conversion rules)."""
    out = CudaArray.empty(a.driver, a.shape, dtype)
    copy_into(out, a)
    return out


def upload(driver: object, array: np.ndarray) -> CudaArray:
    """A host array copied to the device (contiguous)."""
    return CudaArray.from_host(driver, array)  # type: ignore[arg-type]


def download(a: CudaArray) -> np.ndarray:
    """A device array copied to a new host array (C order)."""
    return a.to_host()
