"""Resampling operators of the nn layers: upsampling, pixel and channel shuffles, 3-d and
adaptive max pooling, max pooling with indices and max unpooling.

All are composite (registered with `autograd=False`): they call `index_select`,
`reshape`, `permute`, `amax` and pointwise operators, which record their own
history, so each has the gradient of its parts.

Upsampling is separable: each spatial dim is resampled in turn, taking for
each output position the source rows that PyTorch's kernels take, with the
weights they compute (in the input's precision):

    nearest        src = min(floor(dst * s), in - 1)              s = in/out, or 1/scale
    nearest-exact  src = min(floor((dst + 0.5) * s), in - 1)
    linear         src = s * (dst + 0.5) - 0.5, at least 0        (align_corners: s * dst,
                   s = (in - 1)/(out - 1)); out = (1 - t) x[i] + t x[i + 1]
    cubic          the same source position, four taps i-1 .. i+2 (clamped to the input),
                   weighted by the cubic convolution kernel with A = -0.75
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..tensor import Tensor, TensorError, wrap
from .dispatch import call, implements
from .nn_functional import _adaptive_avg_pool, _avg_pool, _max_pool, _pool_params, _windows

ndarray = np.ndarray

implements("aten::max_pool3d", autograd=False)(_max_pool(3))
implements("aten::avg_pool3d", autograd=False)(_avg_pool(3))
implements("aten::adaptive_avg_pool3d", autograd=False)(_adaptive_avg_pool(3))


# ---------------------------------------------------------------------------
# Upsampling


def _spatial(input: Tensor, nd: int, name: str) -> tuple[int, ...]:
    shape = input._data.shape
    if len(shape) != nd + 2:
        raise TensorError(
            f"{name}: expected input of {nd + 2} dimensions (N, C, *spatial), got {list(shape)}"
        )
    if input._data.dtype.kind not in "fc":
        raise TensorError(f"\"{name}\" not implemented for '{input._data.dtype.name}'")
    return shape[2:]


def _geometry(
    input: Tensor,
    nd: int,
    output_size: Sequence[int] | None,
    scales: Sequence[float | None] | None,
    name: str,
) -> tuple[list[int], list[float | None]]:
    """Output sizes and the scale factors given for each spatial dim."""
    spatial = _spatial(input, nd, name)
    if output_size is not None:
        if len(output_size) != nd:
            raise TensorError(f"{name}: output_size must have {nd} elements, got {output_size}")
        sizes = [int(s) for s in output_size]
        factors: list[float | None] = list(scales) if scales is not None else [None] * nd
    else:
        if scales is None or len(scales) != nd:
            raise TensorError(f"{name}: either output_size or {nd} scale_factors must be given")
        sizes = [math.floor(s * f) for s, f in zip(spatial, scales, strict=True)]  # type: ignore[operator]
        factors = list(scales)
    if any(s <= 0 for s in sizes):
        raise TensorError(
            f"{name}: input ({list(spatial)}) and output ({sizes}) sizes should be greater than 0"
        )
    return sizes, factors


def _scale(size_in: int, size_out: int, factor: float | None, align_corners: bool) -> float:
    """PyTorch's `area_pixel_compute_scale`."""
    if align_corners:
        return (size_in - 1) / (size_out - 1) if size_out > 1 else 0.0
    if factor is not None and factor > 0:
        return 1.0 / factor
    return size_in / size_out


def _nearest_sources(size_in: int, size_out: int, factor: float | None, exact: bool) -> ndarray:
    if not exact and size_out == size_in:
        return np.arange(size_out)
    if not exact and size_out == 2 * size_in:
        return np.arange(size_out) >> 1
    scale = np.float32(_scale(size_in, size_out, factor, False))
    dst = np.arange(size_out, dtype=np.float32)
    src = np.floor(((dst + np.float32(0.5)) if exact else dst) * scale).astype(np.int64)
    return np.minimum(src, size_in - 1)


def _linear_sources(
    size_in: int,
    size_out: int,
    factor: float | None,
    align_corners: bool,
    dt: np.dtype,
    *,
    cubic: bool,
) -> ndarray:
    scale = dt.type(_scale(size_in, size_out, factor, align_corners))
    dst = np.arange(size_out, dtype=dt)
    if align_corners:
        return scale * dst
    src = scale * (dst + dt.type(0.5)) - dt.type(0.5)
    return src if cubic else np.maximum(src, dt.type(0))


def _weights_shape(ndim: int, dim: int, n: int) -> list[int]:
    shape = [1] * ndim
    shape[dim] = n
    return shape


def _select(x: Tensor, dim: int, index: ndarray) -> Tensor:
    return call("aten::index_select", x, dim, wrap(np.ascontiguousarray(index, dtype=np.int64)))


def _resample_dim(x: Tensor, dim: int, taps: list[tuple[ndarray, ndarray]]) -> Tensor:
    """sum over taps (index, weight) of weight * x[index] along `dim`."""
    out: Tensor | None = None
    ndim = x._data.ndim
    for index, weight in taps:
        w = wrap(weight.astype(x._data.dtype).reshape(_weights_shape(ndim, dim, len(weight))))
        term = call("aten::mul", _select(x, dim, index), w)
        out = term if out is None else call("aten::add", out, term)
    assert out is not None
    return out


def _nearest(nd: int, exact: bool) -> Callable[..., Tensor]:
    name = f"{'_upsample_nearest_exact' if exact else 'upsample_nearest'}{nd}d"

    def kernel(input: Tensor, output_size: Sequence[int] | None, scales: Any) -> Tensor:
        sizes, factors = _geometry(input, nd, output_size, scales, name)
        out = input
        for i, (size_out, factor) in enumerate(zip(sizes, factors, strict=True)):
            size_in = input._data.shape[2 + i]
            if exact or size_out != size_in:
                out = _select(out, 2 + i, _nearest_sources(size_in, size_out, factor, exact))
        return out if out is not input else call("aten::clone", input)

    kernel.__name__ = name
    return kernel


def _linear(nd: int, *, cubic: bool = False) -> Callable[..., Tensor]:
    name = (
        "upsample_bicubic2d"
        if cubic
        else ("upsample_" + ["linear1d", "bilinear2d", "trilinear3d"][nd - 1])
    )

    def kernel(
        input: Tensor, output_size: Sequence[int] | None, align_corners: bool, scales: Any
    ) -> Tensor:
        sizes, factors = _geometry(input, nd, output_size, scales, name)
        dt = input._data.dtype
        out = input
        for i, (size_out, factor) in enumerate(zip(sizes, factors, strict=True)):
            size_in = input._data.shape[2 + i]
            if size_out == size_in and not cubic:
                continue
            src = _linear_sources(size_in, size_out, factor, align_corners, dt, cubic=cubic)
            taps = _cubic_taps(src, size_in) if cubic else _linear_taps(src, size_in)
            out = _resample_dim(out, 2 + i, taps)
        return out if out is not input else call("aten::clone", input)

    kernel.__name__ = name
    return kernel


def _index_and_lambda(src: ndarray, size_in: int) -> tuple[ndarray, ndarray]:
    """PyTorch's `guard_index_and_lambda`: floor(src) at most in - 1, and t in [0, 1]."""
    index = np.minimum(np.floor(src).astype(np.int64), size_in - 1)
    t = np.clip(src - index.astype(src.dtype), 0, 1).astype(src.dtype)
    return index, t


def _linear_taps(src: ndarray, size_in: int) -> list[tuple[ndarray, ndarray]]:
    lo, t = _index_and_lambda(src, size_in)
    step = (lo < size_in - 1).astype(np.int64)
    return [(lo, src.dtype.type(1) - t), (lo + step, t)]


_A = -0.75


def _cubic_taps(src: ndarray, size_in: int) -> list[tuple[ndarray, ndarray]]:
    dt = src.dtype
    base_i, t = _index_and_lambda(src, size_in)
    a = dt.type(_A)

    def near(x: ndarray) -> ndarray:  # |x| <= 1
        return ((a + 2) * x - (a + 3)) * x * x + 1

    def far(x: ndarray) -> ndarray:  # 1 < |x| < 2
        return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a

    one = dt.type(1)
    weights = [far(t + one), near(t), near(one - t), far(one - t + one)]
    return [(np.clip(base_i + k - 1, 0, size_in - 1), w) for k, w in enumerate(weights)]


def _with_scales(vec_kernel: Callable[..., Tensor], *, corners: bool) -> Callable[..., Tensor]:
    """The overload taking an output size and one optional scale per dim."""

    if corners:

        def kernel(
            input: Tensor, output_size: Sequence[int], align_corners: bool, *scales: Any
        ) -> Tensor:
            return vec_kernel(input, output_size, align_corners, _scales(scales))

    else:

        def kernel(input: Tensor, output_size: Sequence[int], *scales: Any) -> Tensor:
            return vec_kernel(input, output_size, _scales(scales))

    kernel.__name__ = vec_kernel.__name__
    return kernel


def _scales(scales: Sequence[float | None]) -> list[float | None] | None:
    return list(scales) if any(s is not None for s in scales) else None


for _nd in (1, 2, 3):
    for _exact in (False, True):
        _vec = _nearest(_nd, _exact)
        _key = f"aten::{_vec.__name__}"
        implements(f"{_key}.vec", autograd=False)(_vec)
        implements(_key, autograd=False)(_with_scales(_vec, corners=False))
    _vec = _linear(_nd)
    implements(f"aten::{_vec.__name__}.vec", autograd=False)(_vec)
    implements(f"aten::{_vec.__name__}", autograd=False)(_with_scales(_vec, corners=True))
_vec = _linear(2, cubic=True)
implements("aten::upsample_bicubic2d.vec", autograd=False)(_vec)
implements("aten::upsample_bicubic2d", autograd=False)(_with_scales(_vec, corners=True))


# ---------------------------------------------------------------------------
# Pixel and channel shuffles


@implements("aten::pixel_shuffle", autograd=False)
def pixel_shuffle(self: Tensor, upscale_factor: int) -> Tensor:
    """(*, C r^2, H, W) -> (*, C, H r, W r)."""
    shape = list(self._data.shape)
    if len(shape) < 3:
        raise TensorError(
            f"pixel_shuffle expects input to have at least 3 dimensions, but got input with "
            f"{len(shape)} dimension(s)"
        )
    r = upscale_factor
    if r <= 0:
        raise TensorError(f"pixel_shuffle expects a positive upscale_factor, but got {r}")
    *lead, c, h, w = shape
    if c % (r * r):
        raise TensorError(
            f"pixel_shuffle expects its input's 'channel' dimension to be divisible by the square "
            f"of upscale_factor, but input.size(-3)={c} is not divisible by {r * r}"
        )
    n = len(lead)
    x = self.reshape([*lead, c // (r * r), r, r, h, w])
    x = x.permute([*range(n), n, n + 3, n + 1, n + 4, n + 2])
    return x.reshape([*lead, c // (r * r), h * r, w * r])


@implements("aten::pixel_unshuffle", autograd=False)
def pixel_unshuffle(self: Tensor, downscale_factor: int) -> Tensor:
    """(*, C, H r, W r) -> (*, C r^2, H, W)."""
    shape = list(self._data.shape)
    if len(shape) < 3:
        raise TensorError(
            f"pixel_unshuffle expects input to have at least 3 dimensions, but got input with "
            f"{len(shape)} dimension(s)"
        )
    r = downscale_factor
    if r <= 0:
        raise TensorError(f"pixel_unshuffle expects a positive downscale_factor, but got {r}")
    *lead, c, h, w = shape
    if h % r or w % r:
        raise TensorError(
            f"pixel_unshuffle expects height and width to be divisible by downscale_factor, but "
            f"got {h} and {w} for downscale_factor={r}"
        )
    n = len(lead)
    x = self.reshape([*lead, c, h // r, r, w // r, r])
    x = x.permute([*range(n), n, n + 2, n + 4, n + 1, n + 3])
    return x.reshape([*lead, c * r * r, h // r, w // r])


@implements("aten::channel_shuffle", "aten::native_channel_shuffle", autograd=False)
def channel_shuffle(self: Tensor, groups: int) -> Tensor:
    """(N, C, *) -> the channels regrouped: g groups of C/g become C/g groups of g."""
    shape = list(self._data.shape)
    if len(shape) < 3:
        raise TensorError(
            f"channel_shuffle expects input to have at least 3 dimensions, but got input with "
            f"{len(shape)} dims"
        )
    if groups <= 0:
        raise TensorError(
            f"Number of groups to divide channels in must be positive. Value of groups:{groups}"
        )
    n, c, *rest = shape
    if c % groups:
        raise TensorError(
            f"Number of channels must be divisible by groups. Got {c} channels and {groups} groups."
        )
    x = self.reshape([n, groups, c // groups, *rest]).transpose(1, 2)
    return x.reshape(shape)


# ---------------------------------------------------------------------------
# Adaptive max pooling (separable: a box's maximum is the maximum of its rows' maxima)


def _adaptive_bounds(size_in: int, size_out: int) -> list[tuple[int, int]]:
    return [
        ((i * size_in) // size_out, -((-(i + 1) * size_in) // size_out)) for i in range(size_out)
    ]


def _adaptive_max_pool(nd: int) -> Callable[..., tuple[Tensor, Tensor]]:
    name = f"adaptive_max_pool{nd}d"

    def kernel(self: Tensor, output_size: Sequence[int]) -> tuple[Tensor, Tensor]:
        x = self._data
        if x.ndim not in (nd + 1, nd + 2):
            raise TensorError(
                f"{name}(): Expected {nd + 1}D or {nd + 2}D tensor, but got {list(x.shape)}"
            )
        sizes = list(output_size) * nd if len(output_size) == 1 else list(output_size)
        if len(sizes) != nd:
            raise TensorError(f"{name}(): internal error: output_size.size() must be {nd}")
        first = x.ndim - nd
        if any(x.shape[first + i] == 0 for i in range(nd)):
            raise TensorError(
                f"{name}(): Expected input to have non-zero size for non-batch dimensions"
            )
        out = self
        for i, size_out in enumerate(sizes):
            d = first + i
            parts = [
                call("aten::amax", call("aten::narrow", out, d, lo, hi - lo), [d], True)
                for lo, hi in _adaptive_bounds(x.shape[d], size_out)
            ]
            out = call("aten::cat", parts, d)
        return out, wrap(_adaptive_argmax(x, nd, sizes))

    kernel.__name__ = name
    return kernel


def _adaptive_argmax(x: ndarray, nd: int, sizes: list[int]) -> ndarray:
    """For each output cell, the flat index (within its input plane) of its window's maximum."""
    first = x.ndim - nd
    spatial = x.shape[first:]
    lead = x.shape[:first]
    flat = x.reshape(-1, *spatial)
    out = np.zeros((flat.shape[0], *sizes), dtype=np.int64)
    bounds = [_adaptive_bounds(spatial[i], sizes[i]) for i in range(nd)]
    for cell in np.ndindex(*sizes):
        box = tuple(slice(*bounds[i][cell[i]]) for i in range(nd))
        window = flat[(slice(None), *box)].reshape(flat.shape[0], -1)
        local = np.argmax(window, axis=1)
        coords = np.unravel_index(local, [b.stop - b.start for b in box])
        global_coords = [c + b.start for c, b in zip(coords, box, strict=True)]
        out[(slice(None), *cell)] = np.ravel_multi_index(global_coords, spatial)
    return out.reshape(*lead, *sizes)


implements("aten::adaptive_max_pool1d", autograd=False)(_adaptive_max_pool(1))
implements("aten::adaptive_max_pool2d", autograd=False)(_adaptive_max_pool(2))
implements("aten::adaptive_max_pool3d", autograd=False)(_adaptive_max_pool(3))

# ---------------------------------------------------------------------------
# Max pooling with indices, and its inverse


def _max_pool_with_indices(nd: int) -> Callable[..., tuple[Tensor, Tensor]]:
    """Each window's maximum and, as PyTorch returns it, its flat index in the input plane
    (the first maximum in the window's row-major order). The values are gathered at those
    indices, so the gradient goes to the maximum alone, as in PyTorch."""

    def kernel(
        self: Tensor,
        kernel_size: Sequence[int],
        stride: Sequence[int] = (),
        padding: Sequence[int] = (0,),
        dilation: Sequence[int] = (1,),
        ceil_mode: bool = False,
    ) -> tuple[Tensor, Tensor]:
        k = _pool_params(list(kernel_size), nd, "kernel_size", positive=True)
        st = _pool_params(list(stride), nd, "stride", k, positive=True)
        pad = _pool_params(list(padding), nd, "padding")
        dil = _pool_params(list(dilation), nd, "dilation", positive=True)
        view, _ = _windows(self, nd, k, st, pad, dil, ceil_mode, -math.inf)
        windows = view._data
        lead = windows.shape[: windows.ndim - 2 * nd]
        out = windows.shape[windows.ndim - 2 * nd : windows.ndim - nd]
        flat = windows.reshape(*lead, *out, -1)
        if flat.dtype.kind == "f":
            # a NaN is the maximum, as in PyTorch
            local = np.where(np.isnan(flat).any(-1), np.isnan(flat).argmax(-1), flat.argmax(-1))
        else:
            local = flat.argmax(-1)
        offsets = np.unravel_index(local, k)
        spatial = self._data.shape[self._data.ndim - nd :]
        coords = []
        for i in range(nd):
            grid_shape = [1] * len(lead) + [1] * nd
            grid_shape[len(lead) + i] = out[i]
            starts = (np.arange(out[i]) * st[i] - pad[i]).reshape(grid_shape)
            coords.append(starts + offsets[i] * dil[i])
        index = np.ravel_multi_index(
            [np.broadcast_to(c, local.shape) for c in coords], spatial
        ).astype(np.int64)
        planes = self.flatten(self._data.ndim - nd) if nd > 1 else self
        values = planes.gather(-1, wrap(index.reshape(*lead, -1)))
        return values.reshape([*lead, *out]), wrap(index)

    kernel.__name__ = f"max_pool{nd}d_with_indices"
    return kernel


for _nd in (1, 2, 3):
    implements(f"aten::max_pool{_nd}d_with_indices", autograd=False)(_max_pool_with_indices(_nd))


def _max_unpool(self: Tensor, indices: Tensor, output_size: Sequence[int], name: str) -> Tensor:
    """Each value written at its index of a zero plane of `output_size` (the inverse of max
    pooling with indices)."""
    nd = len(output_size)
    x, idx = self._data, indices._data
    if idx.dtype != np.int64:
        raise TensorError(f"{name}(): Expected indices to have type Long, got {indices.dtype}")
    if x.shape != idx.shape:
        raise TensorError(
            f"Expected shape of indices to be same as that of the input tensor ({list(x.shape)}) "
            f"but got indices tensor with shape: {list(idx.shape)}"
        )
    if x.ndim not in (nd + 1, nd + 2):
        raise TensorError(f"{name}(): Expected {nd + 1}D or {nd + 2}D tensor, got {list(x.shape)}")
    plane = math.prod(output_size)
    if idx.size and (idx.min() < 0 or idx.max() >= plane):
        raise TensorError(
            f"Found an invalid max index: {int(idx.max())} (output volumes are of size "
            f"{'x'.join(str(s) for s in output_size)}"
        )
    lead = list(x.shape[: x.ndim - nd])
    zeros = wrap(np.zeros((*lead, plane), dtype=x.dtype))
    flat = self.reshape([*lead, -1])
    out = zeros.scatter(-1, wrap(idx.reshape(*lead, -1)), flat)
    return out.reshape([*lead, *output_size])


@implements("aten::max_unpool2d", autograd=False)
def max_unpool2d(self: Tensor, indices: Tensor, output_size: Sequence[int]) -> Tensor:
    if len(output_size) != 2:
        raise TensorError("There should be exactly two elements (height, width) in output_size")
    return _max_unpool(self, indices, list(output_size), "max_unpool2d")


@implements("aten::max_unpool3d", autograd=False)
def max_unpool3d(
    self: Tensor,
    indices: Tensor,
    output_size: Sequence[int],
    stride: Sequence[int],
    padding: Sequence[int],
) -> Tensor:
    if len(output_size) != 3:
        raise TensorError(
            "There should be exactly three elements (depth, height, width) in output_size"
        )
    return _max_unpool(self, indices, list(output_size), "max_unpool3d")


__all__ = ["channel_shuffle", "pixel_shuffle", "pixel_unshuffle"]
