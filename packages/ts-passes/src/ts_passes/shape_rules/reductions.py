"""Shape rules of reductions, scans, sorting and softmax.

A reduction's result dtype follows one of a few policies, named per family
below (`sum` makes integers int64, `mean` makes them float, `argmax` is
int64, ...); its sizes drop (or keep as 1, with `keepdim`) the reduced dims,
and an empty `dim` list reduces every dim.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ts_ir import ScalarType, TensorType, Type

from .core import (
    ShapeArgs,
    dims_of,
    int_const,
    known,
    make_tensor,
    register_exact,
    same_as,
    shape_rules,
    to_float,
)

DtypePolicy = Callable[[ScalarType | None], ScalarType | None]


def _keep(d: ScalarType | None) -> ScalarType | None:
    return d


def _integers_to_long(d: ScalarType | None) -> ScalarType | None:
    if d is None:
        return None
    return d if d.is_floating_point or d.is_complex else ScalarType.Long


def _to_real_float(d: ScalarType | None) -> ScalarType | None:
    """norms: floating results, the real dtype of a complex input."""
    d = to_float(d)
    if d is ScalarType.ComplexFloat:
        return ScalarType.Float
    if d is ScalarType.ComplexDouble:
        return ScalarType.Double
    return d


def _logical(d: ScalarType | None) -> ScalarType | None:
    return ScalarType.Byte if d is ScalarType.Byte else ScalarType.Bool


def _long(d: ScalarType | None) -> ScalarType:
    return ScalarType.Long


def _explicit_dtype(args: ShapeArgs, policy: DtypePolicy, d: ScalarType | None) -> Any:
    if args.index("dtype") is None:
        return policy(d)
    explicit = args.const("dtype")
    if not known(explicit):
        return None
    return policy(d) if explicit is None else ScalarType(explicit)


def reduced_sizes(args: ShapeArgs, t: TensorType) -> tuple[int | None, ...] | int | None:
    """The result sizes (or rank, or None) of reducing `t` over the node's `dim`/`keepdim`."""
    if args.index("dim") is None:
        return ()
    dim_value = args.const("dim")
    if dim_value is None:
        keepdim = args.const("keepdim") if args.index("keepdim") is not None else False
        rank = t.dim()
        if keepdim is True and rank is not None:
            return (1,) * rank
        return () if keepdim is False else None
    keepdim = args.const("keepdim") if args.index("keepdim") is not None else False
    rank = t.dim()
    dims = dims_of(dim_value, rank)
    if dims is None or not known(keepdim) or rank is None:
        return None
    if dims == []:
        dims = list(range(rank))
    sizes = t.sizes or ()
    if keepdim:
        out = tuple(1 if i in dims else sizes[i] for i in range(rank))
    else:
        out = tuple(sizes[i] for i in range(rank) if i not in dims)
    return out if None not in out else len(out)


def reduction(policy: DtypePolicy) -> Callable[[ShapeArgs], Type | None]:
    """A reduction's rule: `policy` maps the input dtype to the result's (an explicit
    `dtype` argument wins)."""

    def rule(args: ShapeArgs) -> Type | None:
        t = args.tensor(0)
        if t is None:
            return None
        dtype = _explicit_dtype(args, policy, t.scalar_type)
        return make_tensor(dtype, t.device, reduced_sizes(args, t), [t])

    rule.__name__ = f"reduction_{policy.__name__.strip('_')}"
    return rule


keep_reduction = reduction(_keep)
sum_reduction = reduction(_integers_to_long)
mean_reduction = reduction(to_float)
norm_reduction = reduction(_to_real_float)
logical_reduction = reduction(_logical)
index_reduction = reduction(_long)


def values_and_indices(args: ShapeArgs) -> Any:
    """max.dim, min.dim, median.dim, mode, kthvalue: (values, int64 indices)."""
    values = keep_reduction(args)
    if not isinstance(values, TensorType):
        return None
    return [values, values.with_scalar_type(ScalarType.Long).with_requires_grad(False)]


def two_reductions(policy: DtypePolicy) -> Callable[[ShapeArgs], Any]:
    """var_mean, std_mean, aminmax: two results of one reduction's shape."""
    one = reduction(policy)

    def rule(args: ShapeArgs) -> Any:
        r = one(args)
        return None if r is None else [r, r]

    return rule


def max_min_rule(args: ShapeArgs) -> Any:
    """max/min: of a tensor (0-dim), against another tensor (binary), or over a dim (pair)."""
    from .pointwise import binary_promote

    if len(args.node.outputs) == 2:
        return values_and_indices(args)
    if args.index("other") is not None:
        return binary_promote(args)
    t = args.tensor(0)
    if t is None:
        return None
    return make_tensor(t.scalar_type, t.device, (), [t])


def softmax_rule(args: ShapeArgs) -> Type | None:
    t = args.tensor(0)
    if t is None:
        return None
    return same_as(t, _explicit_dtype(args, _keep, t.scalar_type))


def scan_rule(args: ShapeArgs) -> Type | None:
    """cumsum, cumprod: the input's shape; integers accumulate in int64."""
    t = args.tensor(0)
    if t is None:
        return None
    return same_as(t, _explicit_dtype(args, _integers_to_long, t.scalar_type))


def scan_pair_rule(args: ShapeArgs) -> Any:
    """cummax, cummin: (values like the input, int64 indices)."""
    t = args.tensor(0)
    if t is None:
        return None
    return [same_as(t), same_as(t, ScalarType.Long).with_requires_grad(False)]


def sort_rule(args: ShapeArgs) -> Any:
    """sort: (sorted values, int64 indices), both of the input's shape."""
    return scan_pair_rule(args)


def argsort_rule(args: ShapeArgs) -> Type | None:
    t = args.tensor(0)
    return None if t is None else same_as(t, ScalarType.Long).with_requires_grad(False)


def topk_rule(args: ShapeArgs) -> Any:
    """topk, kthvalue-like selections along `dim`: that dim becomes `k` long."""
    t = args.tensor(0)
    if t is None:
        return None
    rank = t.dim()
    k = int_const(args, "k")
    dims = dims_of(args.const("dim"), rank) if rank is not None else None
    sizes: Any = rank
    if t.sizes is not None and dims is not None and k is not None and rank:
        out = list(t.sizes)
        out[dims[0]] = k
        sizes = tuple(out) if None not in out else rank
    values = make_tensor(t.scalar_type, t.device, sizes, [t])
    return [values, values.with_scalar_type(ScalarType.Long).with_requires_grad(False)]


def _register() -> None:
    r = shape_rules.register
    families: tuple[tuple[tuple[str, ...], Callable[[ShapeArgs], Any]], ...] = (
        (("amax", "amin"), keep_reduction),
        (("sum", "prod", "nansum"), sum_reduction),
        (("mean", "nanmean", "std", "var", "logsumexp"), mean_reduction),
        (
            ("norm", "linalg_vector_norm", "linalg_norm", "frobenius_norm", "linalg_matrix_norm"),
            norm_reduction,
        ),
        (("all", "any"), logical_reduction),
        (("argmax", "argmin", "count_nonzero"), index_reduction),
        (("max", "min"), max_min_rule),
        (("mode", "kthvalue"), values_and_indices),
        (("var_mean", "std_mean"), two_reductions(to_float)),
        (("aminmax",), two_reductions(_keep)),
        (("softmax", "log_softmax", "_softmax", "_log_softmax", "special_softmax"), softmax_rule),
        (("cumsum", "cumprod"), scan_rule),
        (("cummax", "cummin"), scan_pair_rule),
        (("logcumsumexp",), softmax_rule),
        (("sort",), sort_rule),
        (("argsort",), argsort_rule),
        (("topk",), topk_rule),
    )
    for names, rule in families:
        for name in names:
            r(f"aten::{name}", rule)
    register_exact("aten::median", keep_reduction)
    r("aten::median.dim", values_and_indices)
    register_exact("aten::nanmedian", keep_reduction)
    r("aten::nanmedian.dim", values_and_indices)


_register()
