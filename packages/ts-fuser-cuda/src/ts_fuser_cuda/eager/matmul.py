"""Matrix products of CUDA tensors: a tiled kernel, and mm/bmm/matmul/addmm/linear over it.

The kernel computes C[b] = A[b] @ B[b] for a batch of matrices with any
strides, in 16x16 output tiles: the 256 threads of a block each own one
element of the tile, and step through K sixteen columns at a time, loading
a 16x16 tile of A and of B into shared memory together (each thread one
element of each, zero past the edges), synchronizing, and accumulating the
products from shared memory. Blocks stride over the tiles of every matrix
of the batch. Products of float32 accumulate in float32 in order of k, so
results agree with numpy's BLAS to rounding, not bit for bit. Integer
matrices are refused, as PyTorch's CUDA matmul refuses them.

`matmul` follows `torch.matmul`: vectors are promoted to matrices and the
extra dimension removed again, batch dimensions broadcast.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from ts_fuser_cpu import broadcast_shapes
from ts_ir import ScalarType
from ts_runtime.devices import DeviceError
from ts_runtime.tensor import Tensor, TensorError, wrap

from ..c_types import kernel_dtype, literal, memory_type, register_type
from ..codegen import Entry, Param
from ..launching import SourceCache, index_bits, reach
from ..storage import CudaArray
from . import views

S = ScalarType
TILE = 16


def matmul_kernel(dtype: ScalarType, bits: int) -> tuple[str, list[Entry]]:
    name = f"tsjit_matmul_{dtype.name.lower()}_i{bits}"
    idx = "int" if bits == 32 else "ts_i64"
    fmt = "i" if bits == 32 else "q"
    mem, reg = memory_type(dtype), register_type(dtype)
    names = ["batch", "m", "n", "k", "sab", "sam", "sak", "sbb", "sbk", "sbn"]
    params = [
        Param("a", f"const {mem}* __restrict__", "a"),
        Param("b", f"const {mem}* __restrict__", "b"),
        Param("c", f"{mem}* __restrict__", "c"),
        *[Param(n, idx, n, format=fmt) for n in names],
    ]
    zero = literal(0, dtype)
    decl = ",\n    ".join(f"{p.ctype} {p.name}" for p in params)
    source = f"""extern "C" __global__ void __launch_bounds__({TILE * TILE}) {name}(
    {decl}) {{
    __shared__ {reg} as[{TILE}][{TILE}];
    __shared__ {reg} bs[{TILE}][{TILE}];
    const int tx = (int)(threadIdx.x % {TILE});
    const int ty = (int)(threadIdx.x / {TILE});
    const {idx} tiles_m = (m + {TILE - 1}) / {TILE};
    const {idx} tiles_n = (n + {TILE - 1}) / {TILE};
    const {idx} tiles = batch * tiles_m * tiles_n;
    for ({idx} tile = ({idx})blockIdx.x; tile < tiles; tile += ({idx})gridDim.x) {{
        const {idx} tn = tile % tiles_n;
        const {idx} tm = (tile / tiles_n) % tiles_m;
        const {idx} bi = tile / (tiles_n * tiles_m);
        const {idx} row = tm * {TILE} + ty;
        const {idx} col = tn * {TILE} + tx;
        const {mem}* ab = a + bi * sab;
        const {mem}* bb = b + bi * sbb;
        {reg} acc = {zero};
        for ({idx} k0 = 0; k0 < k; k0 += {TILE}) {{
            as[ty][tx] = (row < m && k0 + tx < k) ? ab[row * sam + (k0 + tx) * sak] : {zero};
            bs[ty][tx] = (k0 + ty < k && col < n) ? bb[(k0 + ty) * sbk + col * sbn] : {zero};
            __syncthreads();
            for (int kk = 0; kk < {TILE}; ++kk) {{
                acc = acc + as[ty][kk] * bs[kk][tx];
            }}
            __syncthreads();
        }}
        if (row < m && col < n) c[(bi * m + row) * n + col] = acc;
    }}
}}
"""
    return source, [Entry(name, tuple(params), barriers=True)]


MATMULS = SourceCache(matmul_kernel)


def _elements(a: CudaArray) -> list[int]:
    return [s // a.itemsize for s in a.strides]


def batched(a: CudaArray, b: CudaArray) -> CudaArray:
    """C[i] = A[i] @ B[i] for 3-d arrays of one dtype (batch, m, k) and (batch, k, n)."""
    dtype = kernel_dtype(a.dtype, "matmul")
    if a.dtype != b.dtype:
        raise TensorError(
            f"expected m1 and m2 to have the same dtype, but got: {a.dtype} != {b.dtype}"
        )
    if dtype not in (S.Float, S.Double):
        raise DeviceError(f"matmul of {a.dtype} tensors is not implemented on cuda")
    batch, m, k = a.shape
    _, k2, n = b.shape
    if k != k2:
        raise TensorError(f"mat1 and mat2 shapes cannot be multiplied ({m}x{k} and {k2}x{n})")
    out = CudaArray.empty(a.driver, (batch, m, n), a.dtype)
    if out.size == 0:
        return out
    if k == 0:
        a.driver.copy_to_device(out.data_ptr, np.zeros(out.shape, out.dtype))
        return out
    sa, sb = _elements(a), _elements(b)
    bits = index_bits(out.size, [reach(a.shape, sa), reach(b.shape, sb), out.size])
    module = MATMULS.module(a.driver, (dtype, bits))
    (entry,) = module.entries.values()
    tiles = batch * -(-m // TILE) * -(-n // TILE)
    blocks = max(1, min(tiles, a.driver.max_blocks()))
    args = [a.data_ptr, b.data_ptr, out.data_ptr, batch, m, n, k, *sa, *sb]
    module.launch(entry.name, (blocks, 1, 1), (TILE * TILE, 1, 1), args)
    return out


def _mm(a: CudaArray, b: CudaArray) -> CudaArray:
    if a.ndim != 2 or b.ndim != 2:
        raise TensorError(
            f"mm: expected 2-D tensors, got {a.ndim}-D and {b.ndim}-D"
            if a.ndim != 2
            else f"mat2 must be a matrix, got {b.ndim}-D tensor"
        )
    out = batched(views.unsqueeze(a, 0), views.unsqueeze(b, 0))
    return views.select(out, 0, 0)


def matmul_arrays(a: CudaArray, b: CudaArray) -> CudaArray:
    """`torch.matmul` of two arrays (see the module docstring)."""
    if a.ndim == 0 or b.ndim == 0:
        raise TensorError(
            f"both arguments to matmul need to be at least 1D, but they are {a.ndim}D and {b.ndim}D"
        )
    a2 = views.unsqueeze(a, 0) if a.ndim == 1 else a
    b2 = views.unsqueeze(b, 1) if b.ndim == 1 else b
    batch = broadcast_shapes([a2.shape[:-2], b2.shape[:-2]])
    m, k = a2.shape[-2:]
    n = b2.shape[-1]
    count = 1
    for s in batch:
        count *= s
    a3 = views.reshape(views.expand(a2, [*batch, m, k]), [count, m, k])
    b3 = views.reshape(views.expand(b2, [*batch, b2.shape[-2], n]), [count, b2.shape[-2], n])
    out = views.reshape(batched(a3, b3), [*batch, m, n])
    if a.ndim == 1:
        out = views.squeeze(out, [-2])
    if b.ndim == 1:
        out = views.squeeze(out, [-1])
    return out


def _array(t: Tensor, name: str) -> CudaArray:
    if not isinstance(t._data, CudaArray):
        raise DeviceError(
            f"{name}: expected all tensors to be on the same device, but found at least two "
            f"devices, cuda:0 and {t.device}"
        )
    return t._data


def _matmul(self: Tensor, other: Tensor) -> Tensor:
    return wrap(matmul_arrays(_array(self, "matmul"), _array(other, "matmul")))


def _mm_kernel(self: Tensor, mat2: Tensor) -> Tensor:
    return wrap(_mm(_array(self, "mm"), _array(mat2, "mm")))


def _bmm(self: Tensor, mat2: Tensor) -> Tensor:
    a, b = _array(self, "bmm"), _array(mat2, "bmm")
    if a.ndim != 3 or b.ndim != 3:
        raise TensorError(f"batch1 must be a 3D tensor, got {a.ndim}-D and {b.ndim}-D")
    if a.shape[0] != b.shape[0]:
        raise TensorError(
            f"batch1 and batch2 must have same number of batches, got {a.shape[0]} and {b.shape[0]}"
        )
    return wrap(batched(a, b))


def _scaled_sum(base: Tensor, beta: Any, product: Tensor, alpha: Any) -> Tensor:
    """beta * base + alpha * product, with the eager pointwise kernels (PyTorch ignores `base`
    when beta is 0, NaNs included)."""
    from ts_runtime.ops.dispatch import call

    if alpha != 1:
        product = call("aten::mul", product, alpha)
    if beta == 0:
        return product
    scaled = base if beta == 1 else call("aten::mul", base, beta)
    return call("aten::add", product, scaled)


def _addmm(self: Tensor, mat1: Tensor, mat2: Tensor, beta: Any = 1, alpha: Any = 1) -> Tensor:
    _array(self, "addmm")
    return _scaled_sum(self, beta, _mm_kernel(mat1, mat2), alpha)


def _linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    w = _array(weight, "linear")
    out = wrap(matmul_arrays(_array(input, "linear"), views.t(w) if w.ndim == 2 else w))
    if bias is None:
        return out
    return _scaled_sum(bias, 1, out, 1)


def _dot(self: Tensor, other: Tensor) -> Tensor:
    a, b = _array(self, "dot"), _array(other, "dot")
    if a.ndim != 1 or b.ndim != 1:
        raise TensorError(f"1D tensors expected, but got {a.ndim}D and {b.ndim}D tensors")
    return wrap(matmul_arrays(a, b))


def _mv(self: Tensor, vec: Tensor) -> Tensor:
    a, b = _array(self, "mv"), _array(vec, "mv")
    if a.ndim != 2 or b.ndim != 1:
        raise TensorError(f"vector + matrix @ vector expected, got {a.ndim}, {b.ndim}")
    return wrap(matmul_arrays(a, b))


KERNELS: dict[str, Callable[..., Any]] = {
    "aten::mm": _mm_kernel,
    "aten::bmm": _bmm,
    "aten::matmul": _matmul,
    "aten::addmm": _addmm,
    "aten::linear": _linear,
    "aten::dot": _dot,
    "aten::mv": _mv,
}
