"""The operator library: kernels and derivatives, registered into the operator registry on import.

One module per family of operators; `dispatch` holds the machinery
(`implements`, `derivative`, eager `call`).
"""

from . import (  # noqa: F401
    aliases,
    array_kernels,
    attention,
    complex_ops,
    counting,
    creation,
    decompositions,
    dicts,
    dispatch,
    distances,
    elementwise,
    fft,
    indexing,
    joins,
    linalg,
    lists,
    losses,
    math_ops,
    nn_composite,
    nn_functional,
    norms,
    out_variants,
    pointwise,
    prims,
    random,
    rearrange,
    recurrent,
    reduction,
    resampling,
    scalars,
    scatter,
    selection,
    sets,
    shape,
    special,
    strings,
    ternary,
    transformer,
    windows,
)

# last: the aliases take the kernels above, then every kernel gets its `out=` overloads
aliases.register_all()
out_variants.register_all()

#: Eager functions whose Python signature differs from their operator's schema:
#: factories taking `requires_grad`, `einsum` and `meshgrid` taking tensors as arguments.
EAGER_FUNCTIONS = {
    **creation.EAGER,
    **indexing.EAGER,
    **joins.EAGER,
    **linalg.EAGER,
    **sets.EAGER,
    **shape.EAGER,
}

__all__ = ["EAGER_FUNCTIONS", "dispatch"]
