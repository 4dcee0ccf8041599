"""Pooling: max, average, adaptive and power-average, in one, two and three dimensions.

The geometry arguments are `BroadcastingListN[int]`, as in PyTorch: one int
or N of them. `stride=None` means the kernel size (the operators take an
empty list for it).
"""

from __future__ import annotations

from ...ops.dispatch import call
from ...tensor import Tensor
from ._utils import BroadcastingList1, BroadcastingList2, BroadcastingList3, _list_with_default


def max_pool1d(
    input: Tensor,
    kernel_size: BroadcastingList1[int],
    stride: BroadcastingList1[int] | None = None,
    padding: BroadcastingList1[int] = 0,
    dilation: BroadcastingList1[int] = 1,
    ceil_mode: bool = False,
    return_indices: bool = False,
) -> Tensor:
    if stride is None:
        stride = []
    if return_indices:
        return call(
            "aten::max_pool1d_with_indices",
            input,
            kernel_size,
            stride,
            padding,
            dilation,
            ceil_mode,
        )
    return call("aten::max_pool1d", input, kernel_size, stride, padding, dilation, ceil_mode)


def max_pool1d_with_indices(
    input: Tensor,
    kernel_size: BroadcastingList1[int],
    stride: BroadcastingList1[int] | None = None,
    padding: BroadcastingList1[int] = 0,
    dilation: BroadcastingList1[int] = 1,
    ceil_mode: bool = False,
    return_indices: bool = False,
) -> tuple[Tensor, Tensor]:
    """The maxima and their flat indices in each input plane (for `max_unpool1d`)."""
    if stride is None:
        stride = []
    return call(
        "aten::max_pool1d_with_indices", input, kernel_size, stride, padding, dilation, ceil_mode
    )


def max_pool2d(
    input: Tensor,
    kernel_size: BroadcastingList2[int],
    stride: BroadcastingList2[int] | None = None,
    padding: BroadcastingList2[int] = 0,
    dilation: BroadcastingList2[int] = 1,
    ceil_mode: bool = False,
    return_indices: bool = False,
) -> Tensor:
    if stride is None:
        stride = []
    if return_indices:
        return call(
            "aten::max_pool2d_with_indices",
            input,
            kernel_size,
            stride,
            padding,
            dilation,
            ceil_mode,
        )
    return call("aten::max_pool2d", input, kernel_size, stride, padding, dilation, ceil_mode)


def max_pool2d_with_indices(
    input: Tensor,
    kernel_size: BroadcastingList2[int],
    stride: BroadcastingList2[int] | None = None,
    padding: BroadcastingList2[int] = 0,
    dilation: BroadcastingList2[int] = 1,
    ceil_mode: bool = False,
    return_indices: bool = False,
) -> tuple[Tensor, Tensor]:
    """The maxima and their flat indices in each input plane (for `max_unpool2d`)."""
    if stride is None:
        stride = []
    return call(
        "aten::max_pool2d_with_indices", input, kernel_size, stride, padding, dilation, ceil_mode
    )


def max_pool3d(
    input: Tensor,
    kernel_size: BroadcastingList3[int],
    stride: BroadcastingList3[int] | None = None,
    padding: BroadcastingList3[int] = 0,
    dilation: BroadcastingList3[int] = 1,
    ceil_mode: bool = False,
    return_indices: bool = False,
) -> Tensor:
    if stride is None:
        stride = []
    if return_indices:
        return call(
            "aten::max_pool3d_with_indices",
            input,
            kernel_size,
            stride,
            padding,
            dilation,
            ceil_mode,
        )
    return call("aten::max_pool3d", input, kernel_size, stride, padding, dilation, ceil_mode)


def max_pool3d_with_indices(
    input: Tensor,
    kernel_size: BroadcastingList3[int],
    stride: BroadcastingList3[int] | None = None,
    padding: BroadcastingList3[int] = 0,
    dilation: BroadcastingList3[int] = 1,
    ceil_mode: bool = False,
    return_indices: bool = False,
) -> tuple[Tensor, Tensor]:
    """The maxima and their flat indices in each input plane (for `max_unpool3d`)."""
    if stride is None:
        stride = []
    return call(
        "aten::max_pool3d_with_indices", input, kernel_size, stride, padding, dilation, ceil_mode
    )


def avg_pool1d(
    input: Tensor,
    kernel_size: BroadcastingList1[int],
    stride: BroadcastingList1[int] | None = None,
    padding: BroadcastingList1[int] = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
) -> Tensor:
    if stride is None:
        stride = []
    return call(
        "aten::avg_pool1d", input, kernel_size, stride, padding, ceil_mode, count_include_pad
    )


def avg_pool2d(
    input: Tensor,
    kernel_size: BroadcastingList2[int],
    stride: BroadcastingList2[int] | None = None,
    padding: BroadcastingList2[int] = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
    divisor_override: int | None = None,
) -> Tensor:
    if stride is None:
        stride = []
    return call(
        "aten::avg_pool2d",
        input,
        kernel_size,
        stride,
        padding,
        ceil_mode,
        count_include_pad,
        divisor_override,
    )


def avg_pool3d(
    input: Tensor,
    kernel_size: BroadcastingList3[int],
    stride: BroadcastingList3[int] | None = None,
    padding: BroadcastingList3[int] = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
    divisor_override: int | None = None,
) -> Tensor:
    if stride is None:
        stride = []
    return call(
        "aten::avg_pool3d",
        input,
        kernel_size,
        stride,
        padding,
        ceil_mode,
        count_include_pad,
        divisor_override,
    )


def adaptive_avg_pool1d(input: Tensor, output_size: BroadcastingList1[int]) -> Tensor:
    return call("aten::adaptive_avg_pool1d", input, output_size)


def adaptive_avg_pool2d(input: Tensor, output_size: BroadcastingList2[int]) -> Tensor:
    return call(
        "aten::adaptive_avg_pool2d", input, _list_with_default(output_size, list(input.shape))
    )


def adaptive_avg_pool3d(input: Tensor, output_size: BroadcastingList3[int]) -> Tensor:
    return call(
        "aten::adaptive_avg_pool3d", input, _list_with_default(output_size, list(input.shape))
    )


def adaptive_max_pool1d(
    input: Tensor, output_size: BroadcastingList1[int], return_indices: bool = False
) -> Tensor:
    out = call("aten::adaptive_max_pool1d", input, output_size)
    return out if return_indices else out[0]


def adaptive_max_pool2d(
    input: Tensor, output_size: BroadcastingList2[int], return_indices: bool = False
) -> Tensor:
    out = call(
        "aten::adaptive_max_pool2d", input, _list_with_default(output_size, list(input.shape))
    )
    return out if return_indices else out[0]


def adaptive_max_pool3d(
    input: Tensor, output_size: BroadcastingList3[int], return_indices: bool = False
) -> Tensor:
    out = call(
        "aten::adaptive_max_pool3d", input, _list_with_default(output_size, list(input.shape))
    )
    return out if return_indices else out[0]


def _unpool_output_size(
    input: Tensor,
    kernel_size: list[int],
    stride: list[int],
    padding: list[int],
    output_size: list[int] | None,
) -> list[int]:
    """The unpooled size: (in - 1) * stride - 2 * padding + kernel per dim, or `output_size`
    (with or without its batch and channel dims) when it is within a stride of that."""
    n = len(kernel_size)
    default: list[int] = []
    for d in range(n):
        default.append(
            (input.size(input.dim() - n + d) - 1) * stride[d] + kernel_size[d] - 2 * padding[d]
        )
    if output_size is None:
        return default
    if len(output_size) == n + 2:
        output_size = output_size[2:]
    if len(output_size) != n:
        raise ValueError(
            "output_size should be a sequence containing "
            + str(n)
            + " or "
            + str(n + 2)
            + " elements, but it has a length of "
            + str(len(output_size))
        )
    for d in range(n):
        low = default[d] - stride[d]
        high = default[d] + stride[d]
        if not low < output_size[d] < high:
            raise ValueError(
                "invalid output_size "
                + str(output_size)
                + " (dim "
                + str(d)
                + " must be between "
                + str(low)
                + " and "
                + str(high)
                + ")"
            )
    return list(output_size)


def _unpool_geometry(
    kernel_size: int | list[int], stride: int | list[int] | None, padding: int | list[int], n: int
) -> tuple[list[int], list[int], list[int]]:
    k = _expand(kernel_size, n)
    s = k if stride is None else _expand(stride, n)
    return k, s, _expand(padding, n)


def max_unpool1d(
    input: Tensor,
    indices: Tensor,
    kernel_size: int | list[int],
    stride: int | list[int] | None = None,
    padding: int | list[int] = 0,
    output_size: list[int] | None = None,
) -> Tensor:
    """The inverse of `max_pool1d(..., return_indices=True)`: values at their indices, zeros
    elsewhere."""
    k, s, p = _unpool_geometry(kernel_size, stride, padding, 1)
    size = _unpool_output_size(input, k, s, p, output_size)
    size.append(1)
    out = call("aten::max_unpool2d", input.unsqueeze(-1), indices.unsqueeze(-1), size)
    return out.squeeze(-1)


def max_unpool2d(
    input: Tensor,
    indices: Tensor,
    kernel_size: int | list[int],
    stride: int | list[int] | None = None,
    padding: int | list[int] = 0,
    output_size: list[int] | None = None,
) -> Tensor:
    k, s, p = _unpool_geometry(kernel_size, stride, padding, 2)
    size = _unpool_output_size(input, k, s, p, output_size)
    return call("aten::max_unpool2d", input, indices, size)


def max_unpool3d(
    input: Tensor,
    indices: Tensor,
    kernel_size: int | list[int],
    stride: int | list[int] | None = None,
    padding: int | list[int] = 0,
    output_size: list[int] | None = None,
) -> Tensor:
    k, s, p = _unpool_geometry(kernel_size, stride, padding, 3)
    size = _unpool_output_size(input, k, s, p, output_size)
    return call("aten::max_unpool3d", input, indices, size, s, p)


def _lp_pool(pooled: Tensor, norm_type: float, kernel_elements: int) -> Tensor:
    # (sum of x^p over the window)^(1/p), from the window's average of x^p
    scaled = pooled.sign() * call("aten::relu", pooled.abs()) * kernel_elements
    return scaled.pow(1.0 / norm_type)


def _expand(value: int | list[int], n: int) -> list[int]:
    if isinstance(value, int):
        return [value] * n
    return list(value)


def _stride_or_empty(stride: int | list[int] | None, n: int) -> list[int]:
    if stride is None:
        return []
    return _expand(stride, n)


def lp_pool1d(
    input: Tensor,
    norm_type: float,
    kernel_size: int,
    stride: int | None = None,
    ceil_mode: bool = False,
) -> Tensor:
    steps: list[int] = []
    if stride is not None:
        steps = [stride]
    pooled = call("aten::avg_pool1d", input.pow(norm_type), [kernel_size], steps, [0], ceil_mode)
    return _lp_pool(pooled, norm_type, kernel_size)


def lp_pool2d(
    input: Tensor,
    norm_type: float,
    kernel_size: int | list[int],
    stride: int | list[int] | None = None,
    ceil_mode: bool = False,
) -> Tensor:
    k = _expand(kernel_size, 2)
    steps = _stride_or_empty(stride, 2)
    pooled = call("aten::avg_pool2d", input.pow(norm_type), k, steps, [0, 0], ceil_mode)
    return _lp_pool(pooled, norm_type, k[0] * k[1])


def lp_pool3d(
    input: Tensor,
    norm_type: float,
    kernel_size: int | list[int],
    stride: int | list[int] | None = None,
    ceil_mode: bool = False,
) -> Tensor:
    k = _expand(kernel_size, 3)
    steps = _stride_or_empty(stride, 3)
    pooled = call("aten::avg_pool3d", input.pow(norm_type), k, steps, [0, 0, 0], ceil_mode)
    return _lp_pool(pooled, norm_type, k[0] * k[1] * k[2])


__all__ = [
    "adaptive_avg_pool1d",
    "adaptive_avg_pool2d",
    "adaptive_avg_pool3d",
    "adaptive_max_pool1d",
    "adaptive_max_pool2d",
    "adaptive_max_pool3d",
    "avg_pool1d",
    "avg_pool2d",
    "avg_pool3d",
    "lp_pool1d",
    "lp_pool2d",
    "lp_pool3d",
    "max_pool1d",
    "max_pool1d_with_indices",
    "max_pool2d",
    "max_pool2d_with_indices",
    "max_pool3d",
    "max_pool3d_with_indices",
    "max_unpool1d",
    "max_unpool2d",
    "max_unpool3d",
]
