"""Convolutions: the functional forms are the operators themselves, as in PyTorch.

`conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1)`
takes an int or a sequence for each geometry argument (the schemas' `int[2]`),
and `padding` may also be "valid" or "same".
"""

from __future__ import annotations

from ...ops.dispatch import eager_function

conv1d = eager_function("aten::conv1d")
conv2d = eager_function("aten::conv2d")
conv3d = eager_function("aten::conv3d")
conv_transpose1d = eager_function("aten::conv_transpose1d")
conv_transpose2d = eager_function("aten::conv_transpose2d")
conv_transpose3d = eager_function("aten::conv_transpose3d")

__all__ = [
    "conv1d",
    "conv2d",
    "conv3d",
    "conv_transpose1d",
    "conv_transpose2d",
    "conv_transpose3d",
]
