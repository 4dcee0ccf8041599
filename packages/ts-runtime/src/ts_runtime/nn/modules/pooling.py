"""Pooling layers: max, average, adaptive and power-average, in one to three dimensions.

The geometry is kept as given (an int or a tuple), as PyTorch keeps it; a
missing stride is the kernel size. With `return_indices=True`, max pooling
returns the maxima and their flat indices in each input plane, which
`MaxUnpool` takes.
"""

from __future__ import annotations

from typing import Any

from ...ops.dispatch import call
from ...tensor import Tensor
from .. import functional as F
from ..module import Module


class _MaxPoolNd(Module):
    __constants__ = ("kernel_size", "stride", "padding", "dilation", "return_indices", "ceil_mode")

    def __init__(
        self,
        kernel_size: Any,
        stride: Any = None,
        padding: Any = 0,
        dilation: Any = 1,
        return_indices: bool = False,
        ceil_mode: bool = False,
    ) -> None:
        super().__init__()
        self.kernel_size = _plain(kernel_size)
        self.stride = _plain(stride) if stride is not None else self.kernel_size
        self.padding = _plain(padding)
        self.dilation = _plain(dilation)
        self.return_indices = return_indices
        self.ceil_mode = ceil_mode

    def extra_repr(self) -> str:
        return (
            f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
            f"dilation={self.dilation}, ceil_mode={self.ceil_mode}"
        )


def _plain(value: Any) -> Any:
    """An int stays an int; a list becomes a tuple (a constant of compiled code)."""
    return tuple(value) if isinstance(value, list) else value


class MaxPool1d(_MaxPoolNd):
    def forward(self, input: Tensor):
        if self.return_indices:
            return F.max_pool1d_with_indices(
                input, self.kernel_size, self.stride, self.padding, self.dilation, self.ceil_mode
            )
        return F.max_pool1d(
            input, self.kernel_size, self.stride, self.padding, self.dilation, self.ceil_mode
        )


class MaxPool2d(_MaxPoolNd):
    def forward(self, input: Tensor):
        if self.return_indices:
            return F.max_pool2d_with_indices(
                input, self.kernel_size, self.stride, self.padding, self.dilation, self.ceil_mode
            )
        return F.max_pool2d(
            input, self.kernel_size, self.stride, self.padding, self.dilation, self.ceil_mode
        )


class MaxPool3d(_MaxPoolNd):
    def forward(self, input: Tensor):
        if self.return_indices:
            return F.max_pool3d_with_indices(
                input, self.kernel_size, self.stride, self.padding, self.dilation, self.ceil_mode
            )
        return F.max_pool3d(
            input, self.kernel_size, self.stride, self.padding, self.dilation, self.ceil_mode
        )


class _AvgPoolNd(Module):
    __constants__ = ("kernel_size", "stride", "padding", "ceil_mode", "count_include_pad")

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AvgPool1d(_AvgPoolNd):
    def __init__(
        self,
        kernel_size: Any,
        stride: Any = None,
        padding: Any = 0,
        ceil_mode: bool = False,
        count_include_pad: bool = True,
    ) -> None:
        super().__init__()
        self.kernel_size = _one(kernel_size)
        self.stride = _one(stride if stride is not None else kernel_size)
        self.padding = _one(padding)
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad

    def forward(self, input: Tensor) -> Tensor:
        return F.avg_pool1d(
            input,
            self.kernel_size,
            self.stride,
            self.padding,
            self.ceil_mode,
            self.count_include_pad,
        )


def _one(value: Any) -> tuple[int]:
    return (value,) if isinstance(value, int) else tuple(value)


class AvgPool2d(_AvgPoolNd):
    __constants__ = (
        "kernel_size",
        "stride",
        "padding",
        "ceil_mode",
        "count_include_pad",
        "divisor_override",
    )

    def __init__(
        self,
        kernel_size: Any,
        stride: Any = None,
        padding: Any = 0,
        ceil_mode: bool = False,
        count_include_pad: bool = True,
        divisor_override: int | None = None,
    ) -> None:
        super().__init__()
        self.kernel_size = _plain(kernel_size)
        self.stride = _plain(stride) if stride is not None else self.kernel_size
        self.padding = _plain(padding)
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def forward(self, input: Tensor) -> Tensor:
        return F.avg_pool2d(
            input,
            self.kernel_size,
            self.stride,
            self.padding,
            self.ceil_mode,
            self.count_include_pad,
            self.divisor_override,
        )


class AvgPool3d(AvgPool2d):
    def forward(self, input: Tensor) -> Tensor:
        return F.avg_pool3d(
            input,
            self.kernel_size,
            self.stride,
            self.padding,
            self.ceil_mode,
            self.count_include_pad,
            self.divisor_override,
        )


class _AdaptivePoolNd(Module):
    __constants__ = ("output_size",)

    def __init__(self, output_size: Any) -> None:
        super().__init__()
        self.output_size = _plain(output_size)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class AdaptiveAvgPool1d(_AdaptivePoolNd):
    def forward(self, input: Tensor) -> Tensor:
        return F.adaptive_avg_pool1d(input, self.output_size)


class AdaptiveAvgPool2d(_AdaptivePoolNd):
    def forward(self, input: Tensor) -> Tensor:
        return F.adaptive_avg_pool2d(input, self.output_size)


class AdaptiveAvgPool3d(_AdaptivePoolNd):
    def forward(self, input: Tensor) -> Tensor:
        return F.adaptive_avg_pool3d(input, self.output_size)


class _AdaptiveMaxPoolNd(_AdaptivePoolNd):
    __constants__ = ("output_size", "return_indices")

    def __init__(self, output_size: Any, return_indices: bool = False) -> None:
        super().__init__(output_size)
        self.return_indices = return_indices


class AdaptiveMaxPool1d(_AdaptiveMaxPoolNd):
    def forward(self, input: Tensor):
        out = call("aten::adaptive_max_pool1d", input, self.output_size)
        if self.return_indices:
            return out
        return out[0]


class AdaptiveMaxPool2d(_AdaptiveMaxPoolNd):
    def forward(self, input: Tensor):
        out = call("aten::adaptive_max_pool2d", input, self.output_size)
        if self.return_indices:
            return out
        return out[0]


class AdaptiveMaxPool3d(_AdaptiveMaxPoolNd):
    def forward(self, input: Tensor):
        out = call("aten::adaptive_max_pool3d", input, self.output_size)
        if self.return_indices:
            return out
        return out[0]


class _LPPoolNd(Module):
    __constants__ = ("norm_type", "ceil_mode")

    def __init__(
        self, norm_type: float, kernel_size: Any, stride: Any = None, ceil_mode: bool = False
    ) -> None:
        super().__init__()
        self.norm_type = norm_type
        self.kernel_size = _listed(kernel_size)
        self.stride = _listed(stride)
        self.ceil_mode = ceil_mode

    def extra_repr(self) -> str:
        return (
            f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, stride={self.stride}, "
            f"ceil_mode={self.ceil_mode}"
        )


def _listed(value: Any) -> Any:
    """A sequence as a list (the type `lp_pool*d` declares), an int or None as is."""
    return list(value) if isinstance(value, (tuple, list)) else value


class LPPool1d(_LPPoolNd):
    def forward(self, input: Tensor) -> Tensor:
        return F.lp_pool1d(
            input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode
        )


class LPPool2d(_LPPoolNd):
    def forward(self, input: Tensor) -> Tensor:
        return F.lp_pool2d(
            input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode
        )


class LPPool3d(_LPPoolNd):
    def forward(self, input: Tensor) -> Tensor:
        return F.lp_pool3d(
            input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode
        )


class _MaxUnpoolNd(Module):
    def __init__(self, kernel_size: Any, stride: Any, padding: Any, n: int) -> None:
        super().__init__()
        self.kernel_size = _as_list(kernel_size, n)
        self.stride = _as_list(stride if stride is not None else kernel_size, n)
        self.padding = _as_list(padding, n)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


def _as_list(value: Any, n: int) -> list[int]:
    return [value] * n if isinstance(value, int) else list(value)


class MaxUnpool1d(_MaxUnpoolNd):
    """The inverse of `MaxPool1d(..., return_indices=True)`: zeros except at the indices."""

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0) -> None:
        super().__init__(kernel_size, stride, padding, 1)

    def forward(
        self, input: Tensor, indices: Tensor, output_size: list[int] | None = None
    ) -> Tensor:
        return F.max_unpool1d(
            input, indices, self.kernel_size, self.stride, self.padding, output_size
        )


class MaxUnpool2d(_MaxUnpoolNd):
    """The inverse of `MaxPool2d(..., return_indices=True)`."""

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0) -> None:
        super().__init__(kernel_size, stride, padding, 2)

    def forward(
        self, input: Tensor, indices: Tensor, output_size: list[int] | None = None
    ) -> Tensor:
        return F.max_unpool2d(
            input, indices, self.kernel_size, self.stride, self.padding, output_size
        )


class MaxUnpool3d(_MaxUnpoolNd):
    """The inverse of `MaxPool3d(..., return_indices=True)`."""

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0) -> None:
        super().__init__(kernel_size, stride, padding, 3)

    def forward(
        self, input: Tensor, indices: Tensor, output_size: list[int] | None = None
    ) -> Tensor:
        return F.max_unpool3d(
            input, indices, self.kernel_size, self.stride, self.padding, output_size
        )


__all__ = [
    "AdaptiveAvgPool1d",
    "AdaptiveAvgPool2d",
    "AdaptiveAvgPool3d",
    "AdaptiveMaxPool1d",
    "AdaptiveMaxPool2d",
    "AdaptiveMaxPool3d",
    "AvgPool1d",
    "AvgPool2d",
    "AvgPool3d",
    "LPPool1d",
    "LPPool2d",
    "LPPool3d",
    "MaxPool1d",
    "MaxPool2d",
    "MaxPool3d",
    "MaxUnpool1d",
    "MaxUnpool2d",
    "MaxUnpool3d",
]
