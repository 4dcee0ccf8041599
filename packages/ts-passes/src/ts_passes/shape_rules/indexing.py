"""Shape rules of indexing: gather and scatter, index and index_put, masks, nonzero, take."""

from __future__ import annotations

from typing import Any

from ts_ir import ListType, NoneType, ScalarType, TensorType, Type

from .core import (
    ShapeArgs,
    complete_sizes,
    device_of,
    like_input,
    make_tensor,
    register_exact,
    shape_rules,
)


def gather_rule(args: ShapeArgs) -> Type | None:
    """gather: the index's shape, self's dtype."""
    t, idx = args.tensor(0), args.tensor("index")
    if t is None or idx is None:
        return None
    return make_tensor(
        t.scalar_type, device_of([t, idx]), complete_sizes(idx) or idx.dim(), [t], contiguous=True
    )


def take_rule(args: ShapeArgs) -> Type | None:
    """take: the index's shape; take_along_dim: the rank of self (1 without `dim`)."""
    t, idx = args.tensor(0), args.tensor(1)
    if t is None or idx is None:
        return None
    if args.index("dim") is not None:
        dim = args.const("dim")
        return make_tensor(t.scalar_type, t.device, 1 if dim is None else t.dim(), [t])
    return make_tensor(t.scalar_type, t.device, complete_sizes(idx) or idx.dim(), [t])


def index_rule(args: ShapeArgs) -> Type | None:
    """index(self, indices): advanced indexing. The rank is known when the index tensors'
    ranks are and they are adjacent: self's rank, less the dims they index, plus their
    broadcast rank (a bool mask indexes as many dims as it has and gives one)."""
    t = args.tensor(0)
    v = args.value(1)
    if t is None or v is None:
        return None
    rank = t.dim()
    if v.node.kind != "prim::ListConstruct" or rank is None:
        return make_tensor(t.scalar_type, t.device, None, [t])
    consumed, produced, positions = 0, 0, []
    for i, x in enumerate(v.node.inputs):
        xt = x.type
        if isinstance(xt, NoneType):
            consumed += 1  # a full slice
            continue
        if not isinstance(xt, TensorType) or xt.dim() is None or xt.scalar_type is None:
            return make_tensor(t.scalar_type, t.device, None, [t])
        positions.append(i)
        if xt.scalar_type in (ScalarType.Bool, ScalarType.Byte):
            consumed += xt.dim()  # type: ignore[operator]
            produced = max(produced, 1)
        else:
            consumed += 1
            produced = max(produced, xt.dim())  # type: ignore[type-var]
    # separated index tensors move their dims to the front; the rank is the same
    indexed = consumed - (len(v.node.inputs) - len(positions))
    return make_tensor(t.scalar_type, t.device, rank - indexed + produced, [t])


def one_dim(dtype: ScalarType | None = None) -> Any:
    """masked_select (self's dtype), bincount-like results: one dimension."""

    def rule(args: ShapeArgs) -> Type | None:
        t = args.tensor(0)
        if t is None:
            return None
        return make_tensor(dtype or t.scalar_type, device_of(args.tensors()), 1, [t])

    return rule


def nonzero_rule(args: ShapeArgs) -> Type | None:
    """nonzero, argwhere: (count, rank) int64 indices."""
    t = args.tensor(0)
    if t is None:
        return None
    rank = t.dim()
    sizes: Any = 2 if rank is None else (None, rank)
    return make_tensor(ScalarType.Long, t.device, sizes, contiguous=True, requires_grad=False)


def nonzero_numpy_rule(args: ShapeArgs) -> Type | None:
    """where(condition), nonzero_numpy: a list of 1-d int64 index tensors."""
    t = args.tensor(0)
    if t is None:
        return None
    return ListType(make_tensor(ScalarType.Long, t.device, 1, requires_grad=False))


def bincount_rule(args: ShapeArgs) -> Type | None:
    t = args.tensor(0)
    if t is None:
        return None
    weights = args.value("weights")
    dtype: ScalarType | None = ScalarType.Long
    if weights is not None and not isinstance(weights.type, NoneType):
        wt = weights.type
        if isinstance(wt, TensorType) and wt.scalar_type is not None:
            dtype = wt.scalar_type if wt.scalar_type.is_floating_point else ScalarType.Double
        else:
            dtype = None
    return make_tensor(dtype, t.device, 1, contiguous=True, requires_grad=False)


def unique_rule(args: ShapeArgs) -> Any:
    """_unique2, unique_dim, unique_consecutive: (values of self's dtype, int64 inverse and
    counts); values keep the rank along a dim and are 1-d without one."""
    t = args.tensor(0)
    if t is None:
        return None
    along = args.index("dim") is not None and args.const("dim") is not None
    values = make_tensor(t.scalar_type, t.device, t.dim() if along else 1, [t])
    index = make_tensor(ScalarType.Long, t.device, None, requires_grad=False)
    counts = make_tensor(ScalarType.Long, t.device, 1, requires_grad=False)
    return [values, index, counts]


def search_rule(args: ShapeArgs) -> Type | None:
    """searchsorted, bucketize: the values' shape (a scalar gives 0-dim), int64 or int32."""
    values = args.value("self")
    out_int32 = args.const("out_int32")
    dtype = (
        ScalarType.Int if out_int32 is True else (ScalarType.Long if out_int32 is False else None)
    )
    device = None
    for v in args.inputs:
        if isinstance(v.type, TensorType):
            device = v.type.device
            break
    if values is not None and isinstance(values.type, TensorType):
        t = values.type
        return make_tensor(dtype, t.device, complete_sizes(t) or t.dim(), requires_grad=False)
    return make_tensor(dtype, device, (), requires_grad=False)


def histc_rule(args: ShapeArgs) -> Type | None:
    t = args.tensor(0)
    if t is None:
        return None
    bins = args.const("bins")
    shape = (bins,) if isinstance(bins, int) and not isinstance(bins, bool) else 1
    return make_tensor(t.scalar_type, t.device, shape, requires_grad=False)


def _register() -> None:
    r = shape_rules.register
    r("aten::gather", gather_rule)
    for name in (
        "scatter",
        "scatter_add",
        "scatter_reduce",
        "index_put",
        "index_add",
        "index_fill",
        "index_copy",
        "select_scatter",
        "slice_scatter",
        "diagonal_scatter",
        "as_strided_scatter",
    ):
        r(f"aten::{name}", like_input(0))
    for name in ("take", "take_along_dim"):
        r(f"aten::{name}", take_rule)
    r("aten::index", index_rule)
    r("aten::masked_select", one_dim())
    for name in ("nonzero", "argwhere"):
        r(f"aten::{name}", nonzero_rule)
    register_exact("aten::where", nonzero_numpy_rule)
    r("aten::nonzero_numpy", nonzero_numpy_rule)
    r("aten::bincount", bincount_rule)
    for name in ("_unique2", "unique_dim", "unique_consecutive", "unique_dim_consecutive"):
        r(f"aten::{name}", unique_rule)
    for name in ("searchsorted", "bucketize"):
        r(f"aten::{name}", search_rule)
    r("aten::histc", histc_rule)


_register()
