"""Shape rules of complex tensors, Fourier transforms, resampling and distances.

fft, ifft (of n)      complex, the dim n long (complex64 for float32 and integers)
rfft                  complex, the dim n // 2 + 1 long
irfft, hfft           real, the dim n long (default 2 (m - 1))
upsample_*            the spatial dims from output_size, or floor(size * scale)
grid_sampler          (N, C) of the input, the grid's (H_out, W_out)
affine_grid_generator (N, H, W, 2) from theta (N, 2, 3) and size [N, C, H, W]
cdist                 (..., P, R) of x1's and x2's rows
"""

from __future__ import annotations

import math
from typing import Any

from ts_ir import ScalarType, TensorType, Type

from .core import (
    CPU,
    ShapeArgs,
    agreed_dtype,
    broadcast_shapes,
    complete_sizes,
    device_of,
    dims_of,
    int_const,
    int_list_const,
    known,
    like_input,
    make_tensor,
    shape_rules,
    size_list,
    to_float,
)

_COMPLEX = {
    ScalarType.Float: ScalarType.ComplexFloat,
    ScalarType.Double: ScalarType.ComplexDouble,
    ScalarType.ComplexFloat: ScalarType.ComplexFloat,
    ScalarType.ComplexDouble: ScalarType.ComplexDouble,
}
_REAL = {
    ScalarType.ComplexFloat: ScalarType.Float,
    ScalarType.ComplexDouble: ScalarType.Double,
    ScalarType.Float: ScalarType.Float,
    ScalarType.Double: ScalarType.Double,
}


def complex_of(d: ScalarType | None) -> ScalarType | None:
    if d is None:
        return None
    return _COMPLEX.get(d, ScalarType.ComplexFloat)


def real_of(d: ScalarType | None) -> ScalarType | None:
    if d is None:
        return None
    return _REAL.get(d, ScalarType.Float)


# -- complex


def real_part_rule(args: ShapeArgs) -> Type | None:
    """real, angle: the real dtype of a complex input (a real input keeps its own)."""
    t = args.tensor(0)
    if t is None:
        return None
    d = t.scalar_type
    d = real_of(d) if d is not None and d.is_complex else d
    if args.node.kind == "aten::angle":
        d = to_float(d)
    return make_tensor(d, t.device, complete_sizes(t) or t.dim(), [t], contiguous=False)


def imag_rule(args: ShapeArgs) -> Type | None:
    t = args.tensor(0)
    if t is None:
        return None
    return make_tensor(
        real_of(t.scalar_type), t.device, complete_sizes(t) or t.dim(), [t], contiguous=False
    )


def view_as_real_rule(args: ShapeArgs) -> Type | None:
    t = args.tensor(0)
    if t is None:
        return None
    sizes = complete_sizes(t)
    rank = t.dim()
    shape: Any = (*sizes, 2) if sizes is not None else (None if rank is None else rank + 1)
    return make_tensor(real_of(t.scalar_type), t.device, shape, [t], contiguous=False)


def view_as_complex_rule(args: ShapeArgs) -> Type | None:
    t = args.tensor(0)
    if t is None:
        return None
    sizes = complete_sizes(t)
    rank = t.dim()
    shape: Any = sizes[:-1] if sizes else (None if rank is None else max(rank - 1, 0))
    return make_tensor(complex_of(t.scalar_type), t.device, shape, [t], contiguous=False)


def complex_from_parts_rule(args: ShapeArgs) -> Type | None:
    """complex(real, imag), polar(abs, angle): the broadcast, complex of the parts' dtype."""
    ts = args.tensors()
    if not ts:
        return None
    return make_tensor(
        complex_of(agreed_dtype(ts)), device_of(ts), broadcast_shapes(ts), ts, contiguous=True
    )


# -- Fourier transforms


def _fft_rule(kind: str) -> Any:
    """kind: "c2c" (fft, ifft), "r2c" (rfft, ihfft), "c2r" (irfft, hfft)."""

    def rule(args: ShapeArgs) -> Type | None:
        t = args.tensor(0)
        if t is None:
            return None
        base = t.scalar_type
        dtype = real_of(base) if kind == "c2r" else complex_of(to_float(base))
        sizes = complete_sizes(t)
        rank = t.dim()
        d = dims_of(args.const("dim"), rank)
        n = args.const("n") if args.index("n") is not None else None
        if sizes is None or d is None or not known(n):
            return make_tensor(dtype, t.device, rank, [t], contiguous=True)
        out = list(sizes)
        length = sizes[d[0]] if n is None else n
        if kind == "r2c":
            length = length // 2 + 1
        elif kind == "c2r" and n is None:
            length = 2 * (sizes[d[0]] - 1)
        out[d[0]] = length
        return make_tensor(dtype, t.device, tuple(out), [t], contiguous=True)

    return rule


def _fft_nd_rule(kind: str) -> Any:
    def rule(args: ShapeArgs) -> Type | None:
        t = args.tensor(0)
        if t is None:
            return None
        base = t.scalar_type
        dtype = real_of(base) if kind == "c2r" else complex_of(to_float(base))
        return make_tensor(dtype, t.device, t.dim(), [t], contiguous=True)

    return rule


def frequencies_rule(args: ShapeArgs) -> Type | None:
    n = int_const(args, "n")
    dtype_value = args.const("dtype")
    dtype = (
        ScalarType.Float
        if dtype_value is None
        else (ScalarType(dtype_value) if isinstance(dtype_value, int) else None)
    )
    length = None
    if n is not None:
        length = n if args.node.kind == "aten::fft_fftfreq" else n // 2 + 1
    return make_tensor(
        dtype, CPU, (length,) if length is not None else 1, contiguous=True, requires_grad=False
    )


# -- resampling


def upsample_rule(spatial: int) -> Any:
    """upsample_*: the spatial dims from output_size, or floor(size * scale factor)."""

    def rule(args: ShapeArgs) -> Type | None:
        x = args.tensor("self") or args.tensor("input")
        if x is None:
            return None
        sizes = complete_sizes(x)
        out = size_list(args, "output_size")
        if out is None and args.index("scale_factors") is not None and sizes is not None:
            factors = args.const("scale_factors")
            if isinstance(factors, list) and len(factors) == spatial:
                out = [math.floor(s * f) for s, f in zip(sizes[-spatial:], factors, strict=True)]
        if out is None or sizes is None or len(out) != spatial or None in out:
            return make_tensor(x.scalar_type, x.device, x.dim(), [x], contiguous=True)
        return make_tensor(x.scalar_type, x.device, (*sizes[:-spatial], *out), [x], contiguous=True)

    return rule


def grid_sampler_rule(args: ShapeArgs) -> Type | None:
    """grid_sampler: (N, C) of the input and the grid's (H_out, W_out) (its last dim is 2)."""
    x, grid = args.tensor("input"), args.tensor("grid")
    if x is None or grid is None:
        return None
    xs, gs = complete_sizes(x), complete_sizes(grid)
    if xs is None or gs is None or len(xs) != 4 or len(gs) != 4:
        return make_tensor(x.scalar_type, x.device, x.dim(), [x], contiguous=True)
    return make_tensor(x.scalar_type, x.device, (*xs[:2], *gs[1:3]), [x], contiguous=True)


def affine_grid_rule(args: ShapeArgs) -> Type | None:
    """affine_grid_generator: (N, *spatial, rank) of `size` [N, C, *spatial], theta's dtype."""
    theta = args.tensor("theta")
    if theta is None:
        return None
    size = int_list_const(args, "size")
    if size is None or len(size) < 3:
        return make_tensor(theta.scalar_type, theta.device, None, [theta], contiguous=True)
    spatial = size[2:]
    shape = (size[0], *spatial, len(spatial))
    return make_tensor(theta.scalar_type, theta.device, shape, [theta], contiguous=True)


# -- distances


def cross_rule(args: ShapeArgs) -> Type | None:
    ts = args.tensors()
    if not ts:
        return None
    return make_tensor(agreed_dtype(ts), device_of(ts), broadcast_shapes(ts), ts, contiguous=True)


def cosine_similarity_rule(args: ShapeArgs) -> Type | None:
    ts = args.tensors()
    if len(ts) != 2:
        return None
    shape = broadcast_shapes(ts)
    rank = len(shape) if isinstance(shape, tuple) else shape
    dtype = to_float(agreed_dtype(ts))
    d = dims_of(args.const("dim"), rank) if rank is not None else None
    if isinstance(shape, tuple) and d is not None:
        return make_tensor(
            dtype, device_of(ts), tuple(s for i, s in enumerate(shape) if i != d[0]), ts
        )
    return make_tensor(dtype, device_of(ts), None if rank is None else max(rank - 1, 0), ts)


def pairwise_distance_rule(args: ShapeArgs) -> Type | None:
    ts = args.tensors()
    if len(ts) != 2:
        return None
    shape = broadcast_shapes(ts)
    keepdim = args.const("keepdim")
    dtype = to_float(agreed_dtype(ts))
    if isinstance(shape, tuple) and isinstance(keepdim, bool):
        if not shape:
            return make_tensor(dtype, device_of(ts), (), ts)
        out = (*shape[:-1], 1) if keepdim else shape[:-1]
        return make_tensor(dtype, device_of(ts), out, ts)
    return make_tensor(dtype, device_of(ts), None, ts)


def cdist_rule(args: ShapeArgs) -> Type | None:
    a, b = args.tensor("x1"), args.tensor("x2")
    if a is None or b is None:
        return None
    sa, sb = complete_sizes(a), complete_sizes(b)
    dtype = agreed_dtype([a, b])
    if sa is not None and sb is not None and len(sa) >= 2 and len(sb) >= 2:
        batch = broadcast_shapes([TensorType(sizes=sa[:-2]), TensorType(sizes=sb[:-2])])
        if isinstance(batch, tuple):
            return make_tensor(dtype, device_of([a, b]), (*batch, sa[-2], sb[-2]), [a, b])
    ra, rb = a.dim(), b.dim()
    return make_tensor(
        dtype, device_of([a, b]), None if ra is None or rb is None else max(ra, rb), [a, b]
    )


def dist_rule(args: ShapeArgs) -> Type | None:
    ts = args.tensors()
    if not ts:
        return None
    return make_tensor(agreed_dtype(ts), device_of(ts), (), ts)


def _register() -> None:
    r = shape_rules.register
    for name in ("real", "angle"):
        r(f"aten::{name}", real_part_rule)
    r("aten::imag", imag_rule)
    for name in ("conj", "conj_physical", "resolve_conj", "resolve_neg"):
        r(f"aten::{name}", like_input(0))
    r("aten::view_as_real", view_as_real_rule)
    r("aten::view_as_complex", view_as_complex_rule)
    for name in ("complex", "polar"):
        r(f"aten::{name}", complex_from_parts_rule)
    for name, kind in (
        ("fft", "c2c"), ("ifft", "c2c"), ("rfft", "r2c"), ("ihfft", "r2c"),
        ("irfft", "c2r"), ("hfft", "c2r"),
    ):  # fmt: skip
        r(f"aten::fft_{name}", _fft_rule(kind))
    for name, kind in (("fft", "c2c"), ("ifft", "c2c"), ("rfft", "r2c"), ("irfft", "c2r")):
        r(f"aten::fft_{name}2", _fft_nd_rule(kind))
        r(f"aten::fft_{name}n", _fft_nd_rule(kind))
    for name in ("fft_fftfreq", "fft_rfftfreq"):
        r(f"aten::{name}", frequencies_rule)
    for name in ("fft_fftshift", "fft_ifftshift"):
        r(f"aten::{name}", like_input(0))
    for n in (1, 2, 3):
        r(f"aten::upsample_nearest{n}d", upsample_rule(n))
        r(f"aten::_upsample_nearest_exact{n}d", upsample_rule(n))
    r("aten::upsample_linear1d", upsample_rule(1))
    r("aten::upsample_bilinear2d", upsample_rule(2))
    r("aten::upsample_bicubic2d", upsample_rule(2))
    r("aten::_upsample_bilinear2d_aa", upsample_rule(2))
    r("aten::_upsample_bicubic2d_aa", upsample_rule(2))
    for name in ("grid_sampler", "grid_sampler_2d"):
        r(f"aten::{name}", grid_sampler_rule)
    r("aten::affine_grid_generator", affine_grid_rule)
    r("aten::upsample_trilinear3d", upsample_rule(3))
    for name in ("cross", "linalg_cross"):
        r(f"aten::{name}", cross_rule)
    r("aten::cosine_similarity", cosine_similarity_rule)
    r("aten::pairwise_distance", pairwise_distance_rule)
    for name in ("cdist", "_cdist_forward"):
        r(f"aten::{name}", cdist_rule)
    r("aten::dist", dist_rule)


_register()
