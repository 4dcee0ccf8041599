"""`ts_runtime.linalg`: PyTorch's `torch.linalg` namespace, the `aten::linalg_*` operators.

`ts_runtime.linalg.NAME(...)` calls `aten::linalg_NAME` through eager dispatch, and
scripted code that calls it compiles to that operator's node.
"""

from __future__ import annotations

from .ops.dispatch import prefixed_functions

__getattr__ = prefixed_functions("linalg_", __name__)
