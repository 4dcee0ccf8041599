"""`Upsample` and its fixed-mode forms: resize by a size or a scale factor."""

from __future__ import annotations

from typing import Any

from ...tensor import Tensor
from .. import functional as F
from ..module import Module


def _listed(value: Any) -> Any:
    """A sequence as a list (the type `interpolate` declares); a number or None as is."""
    return list(value) if isinstance(value, (tuple, list)) else value


class Upsample(Module):
    """Resamples (N, C, *spatial) input to `size`, or by `scale_factor`, in `mode`
    ("nearest", "linear", "bilinear", "bicubic", "trilinear", "nearest-exact")."""

    __constants__ = ("mode", "align_corners", "name", "recompute_scale_factor")

    def __init__(
        self,
        size: Any = None,
        scale_factor: Any = None,
        mode: str = "nearest",
        align_corners: bool | None = None,
        recompute_scale_factor: bool | None = None,
    ) -> None:
        super().__init__()
        self.name = type(self).__name__
        self.size = _listed(size)
        if isinstance(scale_factor, (tuple, list)):
            self.scale_factor = [float(f) for f in scale_factor]
        else:
            self.scale_factor = float(scale_factor) if scale_factor else None
        self.mode = mode
        self.align_corners = align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input: Tensor) -> Tensor:
        return F.interpolate(
            input,
            self.size,
            self.scale_factor,
            self.mode,
            self.align_corners,
            recompute_scale_factor=self.recompute_scale_factor,
        )

    def extra_repr(self) -> str:
        if self.scale_factor is not None:
            info = f"scale_factor={self.scale_factor!r}"
        else:
            info = f"size={self.size!r}"
        return info + f", mode={self.mode!r}"


class UpsamplingNearest2d(Upsample):
    def __init__(self, size: Any = None, scale_factor: Any = None) -> None:
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    def __init__(self, size: Any = None, scale_factor: Any = None) -> None:
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)


__all__ = ["Upsample", "UpsamplingBilinear2d", "UpsamplingNearest2d"]
