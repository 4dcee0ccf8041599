"""`ts_runtime.fft`: PyTorch's `torch.fft` namespace, the `aten::fft_*` operators.

`ts_runtime.fft.NAME(...)` calls `aten::fft_NAME` through eager dispatch, and
scripted code that calls it compiles to that operator's node.
"""

from __future__ import annotations

from .ops.dispatch import prefixed_functions

__getattr__ = prefixed_functions("fft_", __name__)
