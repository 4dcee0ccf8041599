"""The operator library: kernels and derivatives, registered into the operator registry on import.

One module per family of operators; `dispatch` holds the machinery
(`implements`, `derivative`, eager `call`).
"""

from . import dispatch, pointwise, scalars  # noqa: F401

__all__ = ["dispatch"]
