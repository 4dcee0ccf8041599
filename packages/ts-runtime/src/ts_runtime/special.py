"""`ts_runtime.special`: PyTorch's `torch.special` namespace, the `aten::special_*` operators.

`ts_runtime.special.NAME(...)` calls `aten::special_NAME` through eager dispatch, and
scripted code that calls it compiles to that operator's node.
"""

from __future__ import annotations

from .ops.dispatch import prefixed_functions

__getattr__ = prefixed_functions("special_", __name__)
