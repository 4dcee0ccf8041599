"""Pooling: max, average, adaptive and power-average, in one, two and three dimensions.

The geometry arguments are `BroadcastingListN[int]`, as in PyTorch: one int
or N of them. `stride=None` means the kernel size (the operators take an
empty list for it).
"""

from __future__ import annotations

from ...ops.dispatch import call
from ...tensor import Tensor
from ._utils import BroadcastingList1, BroadcastingList2, BroadcastingList3, _list_with_default


def _no_indices(return_indices: bool) -> None:
    if return_indices:
        raise NotImplementedError(
            "max pooling with return_indices=True is not supported by this runtime"
        )


def max_pool1d(
    input: Tensor,
    kernel_size: BroadcastingList1[int],
    stride: BroadcastingList1[int] | None = None,
    padding: BroadcastingList1[int] = 0,
    dilation: BroadcastingList1[int] = 1,
    ceil_mode: bool = False,
    return_indices: bool = False,
) -> Tensor:
    _no_indices(return_indices)
    if stride is None:
        stride = []
    return call("aten::max_pool1d", input, kernel_size, stride, padding, dilation, ceil_mode)


def max_pool2d(
    input: Tensor,
    kernel_size: BroadcastingList2[int],
    stride: BroadcastingList2[int] | None = None,
    padding: BroadcastingList2[int] = 0,
    dilation: BroadcastingList2[int] = 1,
    ceil_mode: bool = False,
    return_indices: bool = False,
) -> Tensor:
    _no_indices(return_indices)
    if stride is None:
        stride = []
    return call("aten::max_pool2d", input, kernel_size, stride, padding, dilation, ceil_mode)


def max_pool3d(
    input: Tensor,
    kernel_size: BroadcastingList3[int],
    stride: BroadcastingList3[int] | None = None,
    padding: BroadcastingList3[int] = 0,
    dilation: BroadcastingList3[int] = 1,
    ceil_mode: bool = False,
    return_indices: bool = False,
) -> Tensor:
    _no_indices(return_indices)
    if stride is None:
        stride = []
    return call("aten::max_pool3d", input, kernel_size, stride, padding, dilation, ceil_mode)


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
    _no_indices(return_indices)
    return call("aten::adaptive_max_pool1d", input, output_size)[0]


def adaptive_max_pool2d(
    input: Tensor, output_size: BroadcastingList2[int], return_indices: bool = False
) -> Tensor:
    _no_indices(return_indices)
    size = _list_with_default(output_size, list(input.shape))
    return call("aten::adaptive_max_pool2d", input, size)[0]


def adaptive_max_pool3d(
    input: Tensor, output_size: BroadcastingList3[int], return_indices: bool = False
) -> Tensor:
    _no_indices(return_indices)
    size = _list_with_default(output_size, list(input.shape))
    return call("aten::adaptive_max_pool3d", input, size)[0]


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
    "max_pool2d",
    "max_pool3d",
]
