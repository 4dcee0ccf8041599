"""The operator library: kernels and derivatives, registered into the operator registry on import.

One module per family of operators; `dispatch` holds the machinery
(`implements`, `derivative`, eager `call`).
"""

from . import (  # noqa: F401
    array_kernels,
    attention,
    counting,
    creation,
    dicts,
    dispatch,
    indexing,
    joins,
    linalg,
    lists,
    losses,
    math_ops,
    nn_functional,
    out_variants,
    pointwise,
    prims,
    random,
    reduction,
    scalars,
    shape,
    special,
    strings,
    ternary,
)

# last: every kernel above gets its `out=` overloads
out_variants.register_all()

#: Eager functions whose Python signature differs from their operator's schema:
#: factories taking `requires_grad`, `einsum` and `meshgrid` taking tensors as arguments.
EAGER_FUNCTIONS = {**creation.EAGER, **joins.EAGER, **linalg.EAGER, **shape.EAGER}

__all__ = ["EAGER_FUNCTIONS", "dispatch"]
