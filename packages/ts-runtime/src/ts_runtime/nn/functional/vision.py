"""Padding, resizing and channel rearrangement: `pad`, `interpolate`, `pixel_shuffle`, ...

`interpolate` picks the resampling operator from the mode and the input's
rank, as PyTorch does: `upsample_nearest2d` for a 4-D input in "nearest"
mode, `upsample_bilinear2d` for "bilinear", adaptive average pooling for
"area", and so on.
"""

from __future__ import annotations

import math

from ...ops.dispatch import call, eager_function
from ...tensor import Tensor

pixel_shuffle = eager_function("aten::pixel_shuffle")
pixel_unshuffle = eager_function("aten::pixel_unshuffle")
channel_shuffle = eager_function("aten::channel_shuffle")


def pad(
    input: Tensor, pad: list[int], mode: str = "constant", value: float | None = None
) -> Tensor:
    """Pad the last len(pad) // 2 dims: `pad` is (left, right) of the last, then of the one
    before, ...; `mode` is "constant", "reflect", "replicate" or "circular"."""
    return call("aten::pad", input, pad, mode, value)


def _output_geometry(
    input: Tensor,
    size: int | list[int] | None,
    scale_factor: float | list[float] | None,
) -> tuple[list[int] | None, list[float] | None]:
    """The output sizes or the scale factors per spatial dim, exactly one of them given."""
    dim = input.dim() - 2
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        if not isinstance(size, (list, tuple)):
            return [size] * dim, None
        if len(size) != dim:
            raise ValueError(
                "Input and output must have the same number of spatial dimensions, but got input "
                + "with spatial dimensions of "
                + str(list(input.shape[2:]))
                + " and output size of "
                + str(size)
                + ". Please provide input tensor in (N, C, d1, d2, ...,dK) format and output size "
                + "in (o1, o2, ...,oK) format."
            )
        return list(size), None
    if scale_factor is not None:
        if not isinstance(scale_factor, (list, tuple)):
            return None, [float(scale_factor)] * dim
        if len(scale_factor) != dim:
            raise ValueError(
                "Input and scale_factor must have the same number of spatial dimensions, but "
                + "got input with spatial dimensions of "
                + str(list(input.shape[2:]))
                + " and scale_factor of shape "
                + str(scale_factor)
                + ". Please provide input tensor in (N, C, d1, d2, ...,dK) format and "
                + "scale_factor in (s1, s2, ...,sK) format."
            )
        return None, list(scale_factor)
    raise ValueError("either size or scale_factor should be defined")


def interpolate(
    input: Tensor,
    size: int | list[int] | None = None,
    scale_factor: float | list[float] | None = None,
    mode: str = "nearest",
    align_corners: bool | None = None,
    recompute_scale_factor: bool | None = None,
    antialias: bool = False,
) -> Tensor:
    """Resample the spatial dims of (N, C, *spatial) `input` to `size`, or by `scale_factor`."""
    if mode == "nearest" or mode == "area" or mode == "nearest-exact":
        if align_corners is not None:
            raise ValueError(
                "align_corners option can only be set with the interpolating modes: "
                + "linear | bilinear | bicubic | trilinear"
            )
        corners = False
    else:
        corners = False if align_corners is None else align_corners
    output_size, scale_factors = _output_geometry(input, size, scale_factor)
    recompute = recompute_scale_factor is not None and recompute_scale_factor
    if recompute and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if mode == "area" and output_size is None:
        recompute = True
    if recompute and scale_factors is not None:
        sizes: list[int] = []
        for i in range(len(scale_factors)):
            sizes.append(math.floor(float(input.size(i + 2)) * scale_factors[i]))
        output_size = sizes
        scale_factors = None
    if antialias:
        raise NotImplementedError("interpolate with antialias=True is not supported")
    rank = input.dim()
    if mode == "nearest":
        if rank == 3:
            return call("aten::upsample_nearest1d", input, output_size, scale_factors)
        if rank == 4:
            return call("aten::upsample_nearest2d", input, output_size, scale_factors)
        if rank == 5:
            return call("aten::upsample_nearest3d", input, output_size, scale_factors)
    if mode == "nearest-exact":
        if rank == 3:
            return call("aten::_upsample_nearest_exact1d", input, output_size, scale_factors)
        if rank == 4:
            return call("aten::_upsample_nearest_exact2d", input, output_size, scale_factors)
        if rank == 5:
            return call("aten::_upsample_nearest_exact3d", input, output_size, scale_factors)
    if mode == "area":
        if output_size is None:
            raise ValueError("area interpolation needs an output size")
        if rank == 3:
            return call("aten::adaptive_avg_pool1d", input, output_size)
        if rank == 4:
            return call("aten::adaptive_avg_pool2d", input, output_size)
        if rank == 5:
            return call("aten::adaptive_avg_pool3d", input, output_size)
    if mode == "linear" and rank == 3:
        return call("aten::upsample_linear1d", input, output_size, corners, scale_factors)
    if mode == "bilinear" and rank == 4:
        return call("aten::upsample_bilinear2d", input, output_size, corners, scale_factors)
    if mode == "trilinear" and rank == 5:
        return call("aten::upsample_trilinear3d", input, output_size, corners, scale_factors)
    if mode == "bicubic" and rank == 4:
        return call("aten::upsample_bicubic2d", input, output_size, corners, scale_factors)
    if rank == 3 and (mode == "bilinear" or mode == "trilinear" or mode == "bicubic"):
        raise NotImplementedError("Got 3D input, but " + mode + " mode needs 4D or 5D input")
    if rank == 4 and (mode == "linear" or mode == "trilinear"):
        raise NotImplementedError("Got 4D input, but " + mode + " mode needs 3D or 5D input")
    if rank == 5 and (mode == "linear" or mode == "bilinear" or mode == "bicubic"):
        raise NotImplementedError("Got 5D input, but " + mode + " mode needs 3D or 4D input")
    raise NotImplementedError(
        "Input Error: Only 3D, 4D and 5D input Tensors supported (got "
        + str(rank)
        + "D) for the modes: nearest | linear | bilinear | bicubic | trilinear | area | "
        + "nearest-exact (got "
        + mode
        + ")"
    )


def upsample(
    input: Tensor,
    size: int | list[int] | None = None,
    scale_factor: float | list[float] | None = None,
    mode: str = "nearest",
    align_corners: bool | None = None,
) -> Tensor:
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(
    input: Tensor, size: int | list[int] | None = None, scale_factor: float | None = None
) -> Tensor:
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(
    input: Tensor, size: int | list[int] | None = None, scale_factor: float | None = None
) -> Tensor:
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


__all__ = [
    "channel_shuffle",
    "interpolate",
    "pad",
    "pixel_shuffle",
    "pixel_unshuffle",
    "upsample",
    "upsample_bilinear",
    "upsample_nearest",
]
