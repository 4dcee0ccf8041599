"""Reductions, scans and sorting: sum, mean, max, var, norm, softmax, cumsum, sort, topk, ...

Result dtypes follow PyTorch: sums and products of integers and bools are
int64, `mean` of an integer tensor is an error unless a floating `dtype` is
given, `var`/`std`/`norm` accept only floating point inputs, `all`/`any` give
bool (uint8 for uint8 inputs). An empty dim list reduces every dimension.
Reductions that return (values, indices) return a named tuple, as PyTorch's
`torch.return_types` do.
"""

from __future__ import annotations

import math
from collections import namedtuple
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..dtypes import numpy_dtype
from ..tensor import DimensionError, Tensor, TensorError, normalize_dim, wrap
from .common import floating, grad_like, result
from .dispatch import derivative, implements
from .shape import impl, lazy_impl, zeros_of

ndarray = np.ndarray
_INT64 = np.dtype(np.int64)

ValuesIndices = namedtuple("ValuesIndices", ["values", "indices"])


def _axes(dim: Any, ndim: int) -> tuple[int, ...] | None:
    """Reduced axes for numpy: None for all (dim None or []), else normalized dims."""
    if dim is None:
        return None
    if isinstance(dim, int):
        d = normalize_dim(dim, ndim)
        return None if ndim == 0 else (d,)
    if len(dim) == 0:
        return None
    out = tuple(normalize_dim(d, ndim) for d in dim)
    if len(set(out)) != len(out):
        raise TensorError(f"dim {out[0]} appears multiple times in the list of dims")
    return None if ndim == 0 else out


def _keep_shape(shape: tuple[int, ...], axes: tuple[int, ...] | None) -> list[int]:
    if axes is None:
        return [1] * len(shape)
    return [1 if i in axes else s for i, s in enumerate(shape)]


def _count(shape: tuple[int, ...], axes: tuple[int, ...] | None) -> int:
    if axes is None:
        return math.prod(shape)
    return math.prod(shape[a] for a in axes)


def _accumulate_dtype(a: ndarray, dtype: int | None) -> np.dtype:
    if dtype is not None:
        return numpy_dtype(dtype)
    return _INT64 if a.dtype.kind in "biu" else a.dtype


# ---------------------------------------------------------------------------
# Sums, means, products


@implements("aten::sum")
def sum_(self: Tensor, dtype: int | None = None) -> Tensor:
    a = self._data
    return result(np.add.reduce(a, axis=None, dtype=_accumulate_dtype(a, dtype)))


@implements("aten::sum.dim_IntList")
def sum_dim(
    self: Tensor, dim: list[int] | None, keepdim: bool = False, dtype: int | None = None
) -> Tensor:
    a = self._data
    axes = _axes(dim, a.ndim)
    return result(np.add.reduce(a, axis=axes, dtype=_accumulate_dtype(a, dtype), keepdims=keepdim))


@implements("aten::nansum")
def nansum(
    self: Tensor, dim: list[int] | None = None, keepdim: bool = False, dtype: int | None = None
) -> Tensor:
    a = self._data
    axes = _axes(dim, a.ndim)
    return result(np.nansum(a, axis=axes, dtype=_accumulate_dtype(a, dtype), keepdims=keepdim))


def _mean_input(a: ndarray, dtype: int | None, name: str) -> ndarray:
    if dtype is not None:
        target = numpy_dtype(dtype)
        if target.kind not in "fc":
            raise TensorError(
                f"{name}(): could not infer output dtype. Optional dtype must be either a floating point "
                f"or complex dtype. Got: {_name(np.empty(0, target))}"
            )
        return a.astype(target, copy=False)
    if a.dtype.kind not in "fc":
        raise TensorError(
            f"{name}(): could not infer output dtype. Input dtype must be either a floating point or "
            f"complex dtype. Got: {_name(a)}"
        )
    return a


def _name(a: ndarray) -> str:
    from ..dtypes import scalar_type_of_numpy

    return scalar_type_of_numpy(a.dtype).name


def mean_array(a: np.ndarray, axes: tuple[int, ...] | None, keepdim: bool) -> np.ndarray:
    """The mean over `axes` in `a`'s dtype (numpy's `mean` costs more in Python than the sum)."""
    n = _count(a.shape, axes)
    total = np.add.reduce(a, axis=axes, keepdims=keepdim)
    return np.true_divide(total, n if n else np.nan, dtype=a.dtype)


@implements("aten::mean")
def mean(self: Tensor, dtype: int | None = None) -> Tensor:
    a = _mean_input(self._data, dtype, "mean")
    return result(mean_array(a, None, False))


@implements("aten::mean.dim")
def mean_dim(
    self: Tensor, dim: list[int] | None, keepdim: bool = False, dtype: int | None = None
) -> Tensor:
    a = _mean_input(self._data, dtype, "mean")
    return result(mean_array(a, _axes(dim, a.ndim), keepdim))


@implements("aten::nanmean")
def nanmean(
    self: Tensor, dim: list[int] | None = None, keepdim: bool = False, dtype: int | None = None
) -> Tensor:
    a = _mean_input(self._data, dtype, "nanmean")
    return result(np.nanmean(a, axis=_axes(dim, a.ndim), keepdims=keepdim).astype(a.dtype))


@implements("aten::prod")
def prod(self: Tensor, dtype: int | None = None) -> Tensor:
    a = self._data
    return result(np.multiply.reduce(a, axis=None, dtype=_accumulate_dtype(a, dtype)))


@implements("aten::prod.dim_int")
def prod_dim(self: Tensor, dim: int, keepdim: bool = False, dtype: int | None = None) -> Tensor:
    a = self._data
    axes = _axes(dim, a.ndim)
    return result(
        np.multiply.reduce(a, axis=axes, dtype=_accumulate_dtype(a, dtype), keepdims=keepdim)
    )


# ---------------------------------------------------------------------------
# Max, min, arg-reductions


def _full_extreme(fn: Any, name: str) -> Any:
    def kernel(self: Tensor) -> Tensor:
        a = self._data
        if a.size == 0:
            raise TensorError(
                f"{name}(): Expected reduction dim to be specified for input.numel() == 0. Specify "
                "the reduction dim with the 'dim' argument."
            )
        return result(fn(a))

    kernel.__name__ = name
    return kernel


max_ = implements("aten::max")(_full_extreme(np.max, "max"))
min_ = implements("aten::min")(_full_extreme(np.min, "min"))


def _reduced_dim(a: ndarray, dim: int, name: str) -> int:
    d = normalize_dim(dim, a.ndim)
    if a.ndim and a.shape[d] == 0:
        raise DimensionError(f"{name}(): Expected reduction dim {d} to have non-zero size.")
    return d


def _extreme_dim(pick: Any, arg: Any, name: str) -> Any:
    def kernel(self: Tensor, dim: int, keepdim: bool = False) -> tuple[Tensor, Tensor]:
        a = self._data
        d = _reduced_dim(a, dim, name)
        if a.ndim == 0:
            return ValuesIndices(wrap(a.copy()), wrap(np.zeros((), np.int64)))
        values = pick(a, axis=d, keepdims=keepdim)
        idx = arg(a, axis=d, keepdims=keepdim)
        return ValuesIndices(result(values), result(idx.astype(np.int64, copy=False)))

    kernel.__name__ = name
    return kernel


max_dim = implements("aten::max.dim")(_extreme_dim(np.maximum.reduce, np.argmax, "max"))
min_dim = implements("aten::min.dim")(_extreme_dim(np.minimum.reduce, np.argmin, "min"))


def _arg_extreme(arg: Any, name: str) -> Any:
    def kernel(self: Tensor, dim: int | None = None, keepdim: bool = False) -> Tensor:
        a = self._data
        if dim is None:
            if a.size == 0:
                raise DimensionError(
                    f"{name}(): Expected reduction dim to be specified for input.numel() == 0."
                )
            r = np.asarray(arg(a), dtype=np.int64)
            return result(r.reshape((1,) * a.ndim) if keepdim else r)
        d = _reduced_dim(a, dim, name)
        if a.ndim == 0:
            return result(np.zeros((), np.int64))
        return result(arg(a, axis=d, keepdims=keepdim).astype(np.int64, copy=False))

    kernel.__name__ = name
    return kernel


argmax = implements("aten::argmax")(_arg_extreme(np.argmax, "argmax"))
argmin = implements("aten::argmin")(_arg_extreme(np.argmin, "argmin"))


def _amax_like(fn: Any, name: str) -> Any:
    def kernel(self: Tensor, dim: Sequence[int] = (), keepdim: bool = False) -> Tensor:
        a = self._data
        axes = _axes(list(dim), a.ndim)
        if a.size == 0 and axes is None:
            # no dim given: a RuntimeError in PyTorch, as for max()
            raise TensorError(
                f"{name}(): Expected reduction dim to be specified for input.numel() == 0. Specify "
                "the reduction dim with the 'dim' argument."
            )
        if a.size == 0:
            for d, x in zip(dim, axes, strict=False):
                if a.shape[x] == 0:
                    raise DimensionError(
                        f"{name}(): Expected reduction dim {d} to have non-zero size."
                    )
        return result(fn(a, axis=axes, keepdims=keepdim))

    kernel.__name__ = name
    return kernel


amax = implements("aten::amax")(_amax_like(np.max, "amax"))
amin = implements("aten::amin")(_amax_like(np.min, "amin"))


@implements("aten::aminmax", autograd=False)
def aminmax(self: Tensor, dim: int | None = None, keepdim: bool = False) -> tuple[Tensor, Tensor]:
    dims = [] if dim is None else [dim]
    out = namedtuple("aminmax", ["min", "max"])
    return out(_amin(self, dims, keepdim), _amax(self, dims, keepdim))


# ---------------------------------------------------------------------------
# Variance, standard deviation, norms


def _float_only(a: ndarray) -> None:
    if a.dtype.kind not in "fc":
        raise TensorError("std and var only support floating point and complex dtypes")


def _correction(unbiased: bool | None, correction: Any) -> Any:
    if correction is not None:
        return correction
    return 1 if unbiased is None or unbiased else 0


def _var_array(a: ndarray, dim: Any, correction: Any, keepdim: bool) -> ndarray:
    _float_only(a)
    axes = _axes(dim, a.ndim)
    n = _count(a.shape, axes)
    d = a - mean_array(a, axes, True)
    sq = (d * np.conj(d)).real if a.dtype.kind == "c" else d * d
    denom = max(n - correction, 0)
    total = np.add.reduce(sq, axis=axes, keepdims=keepdim)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.asarray(np.true_divide(total, denom), dtype=sq.dtype)


@implements("aten::var")
def var(self: Tensor, unbiased: bool = True) -> Tensor:
    return result(_var_array(self._data, None, _correction(unbiased, None), False))


@implements("aten::var.dim")
def var_dim(
    self: Tensor, dim: list[int] | None, unbiased: bool = True, keepdim: bool = False
) -> Tensor:
    return result(_var_array(self._data, dim, _correction(unbiased, None), keepdim))


@implements("aten::var.correction")
def var_correction(
    self: Tensor, dim: list[int] | None = None, correction: Any = None, keepdim: bool = False
) -> Tensor:
    return result(_var_array(self._data, dim, _correction(None, correction), keepdim))


@implements("aten::std")
def std(self: Tensor, unbiased: bool = True) -> Tensor:
    return result(np.sqrt(_var_array(self._data, None, _correction(unbiased, None), False)))


@implements("aten::std.dim")
def std_dim(
    self: Tensor, dim: list[int] | None, unbiased: bool = True, keepdim: bool = False
) -> Tensor:
    return result(np.sqrt(_var_array(self._data, dim, _correction(unbiased, None), keepdim)))


@implements("aten::std.correction")
def std_correction(
    self: Tensor, dim: list[int] | None = None, correction: Any = None, keepdim: bool = False
) -> Tensor:
    return result(np.sqrt(_var_array(self._data, dim, _correction(None, correction), keepdim)))


def _with_mean(stat: Any) -> Any:
    def kernel(self: Tensor, *args: Any) -> tuple[Tensor, Tensor]:
        dims, keepdim, correction = _stat_args(args)
        s = stat(self, dims, correction=correction, keepdim=keepdim)
        return s, _mean_dim(self, dims, keepdim, None)

    return kernel


def _stat_args(args: tuple[Any, ...]) -> tuple[Any, bool, Any]:
    # (unbiased) | (dim, unbiased, keepdim) | (dim, correction, keepdim)
    if len(args) == 1:
        return None, False, 1 if args[0] else 0
    dim, second, keepdim = args
    if isinstance(second, bool):
        return dim, keepdim, 1 if second else 0
    return dim, keepdim, _correction(None, second)


def _var_stat(self: Tensor, dims: Any, *, correction: Any, keepdim: bool) -> Tensor:
    return _var_correction(self, dims, correction, keepdim)


def _std_stat(self: Tensor, dims: Any, *, correction: Any, keepdim: bool) -> Tensor:
    return _std_correction(self, dims, correction, keepdim)


implements("aten::var_mean", "aten::var_mean.dim", "aten::var_mean.correction", autograd=False)(
    _with_mean(_var_stat)
)
implements("aten::std_mean", "aten::std_mean.dim", "aten::std_mean.correction", autograd=False)(
    _with_mean(_std_stat)
)


def _norm_array(a: ndarray, p: Any, axes: tuple[int, ...] | None, keepdim: bool) -> ndarray:
    x = np.abs(a)
    if p == 2:
        return np.sqrt(np.add.reduce(x * x, axis=axes, keepdims=keepdim))
    if p == 1:
        return np.add.reduce(x, axis=axes, keepdims=keepdim)
    if p == math.inf:
        return np.max(x, axis=axes, keepdims=keepdim, initial=0)
    if p == -math.inf:
        return np.min(x, axis=axes, keepdims=keepdim)
    if p == 0:
        return np.add.reduce((x != 0).astype(x.dtype), axis=axes, keepdims=keepdim)
    return np.power(np.add.reduce(np.power(x, p), axis=axes, keepdims=keepdim), 1.0 / p).astype(
        x.dtype
    )


def _norm(self: Tensor, p: Any, dim: Any, keepdim: bool, dtype: int | None, name: str) -> Tensor:
    a = self._data
    if dtype is not None:
        a = a.astype(numpy_dtype(dtype), copy=False)
    if a.dtype.kind not in "fc":
        raise TensorError(
            f"{name}: Expected a floating point or complex tensor as input. Got {_name(a)}"
        )
    if p is None:
        p = 2
    return result(np.asarray(_norm_array(a, p, _axes(dim, a.ndim), keepdim)))


@implements("aten::norm.Scalar")
def norm(self: Tensor, p: Any = 2) -> Tensor:
    return _norm(self, p, None, False, None, "linalg.vector_norm")


@implements("aten::norm.ScalarOpt_dim")
def norm_dim(self: Tensor, p: Any, dim: list[int], keepdim: bool = False) -> Tensor:
    return _norm(self, p, dim, keepdim, None, "linalg.vector_norm")


@implements("aten::norm.ScalarOpt_dim_dtype")
def norm_dim_dtype(self: Tensor, p: Any, dim: list[int], keepdim: bool, dtype: int) -> Tensor:
    return _norm(self, p, dim, keepdim, dtype, "linalg.vector_norm")


@implements("aten::norm.ScalarOpt_dtype")
def norm_dtype(self: Tensor, p: Any, dtype: int) -> Tensor:
    return _norm(self, p, None, False, dtype, "linalg.vector_norm")


@implements("aten::linalg_vector_norm")
def linalg_vector_norm(
    self: Tensor,
    ord: Any = 2,
    dim: list[int] | None = None,
    keepdim: bool = False,
    dtype: int | None = None,
) -> Tensor:
    return _norm(self, ord, dim, keepdim, dtype, "linalg.vector_norm")


@implements("aten::logsumexp")
def logsumexp(self: Tensor, dim: list[int], keepdim: bool = False) -> Tensor:
    a = self._data
    if a.dtype.kind not in "fc":
        a = a.astype(floating(a.dtype))
    axes = _axes(dim, a.ndim)
    if a.size == 0:
        return result(np.log(np.add.reduce(np.exp(a), axis=axes, keepdims=keepdim)))
    m = np.max(a, axis=axes, keepdims=True)
    m = np.where(np.isfinite(m), m, 0).astype(a.dtype)
    s = np.log(np.add.reduce(np.exp(a - m), axis=axes, keepdims=True)) + m
    return result(s if keepdim else (s.reshape(()) if axes is None else s.squeeze(axes)))


# ---------------------------------------------------------------------------
# Softmax


def _softmax_input(self: Tensor, dtype: int | None, name: str) -> ndarray:
    a = self._data
    if dtype is not None:
        a = a.astype(numpy_dtype(dtype), copy=False)
    if a.dtype.kind not in "fc":
        raise TensorError(f"\"{name}_lastdim_kernel_impl\" not implemented for '{_name(a)}'")
    return a


@implements("aten::softmax.int")
def softmax(self: Tensor, dim: int, dtype: int | None = None) -> Tensor:
    a = _softmax_input(self, dtype, "softmax")
    d = normalize_dim(dim, a.ndim)
    if a.ndim == 0:
        return result(np.ones((), a.dtype))
    if a.size == 0:
        return result(a.copy())
    e = np.subtract(a, np.maximum.reduce(a, axis=d, keepdims=True))
    np.exp(e, out=e)
    e /= np.add.reduce(e, axis=d, keepdims=True)
    return result(e)


@implements("aten::log_softmax.int")
def log_softmax(self: Tensor, dim: int, dtype: int | None = None) -> Tensor:
    a = _softmax_input(self, dtype, "log_softmax")
    d = normalize_dim(dim, a.ndim)
    if a.ndim == 0:
        return result(np.zeros((), a.dtype))
    if a.size == 0:
        return result(a.copy())
    shifted = np.subtract(a, np.maximum.reduce(a, axis=d, keepdims=True))
    shifted -= np.log(np.add.reduce(np.exp(shifted), axis=d, keepdims=True))
    return result(shifted)


@implements("aten::_softmax")
def softmax_internal(self: Tensor, dim: int, half_to_float: bool) -> Tensor:
    return softmax(self, dim, None)


@implements("aten::_log_softmax")
def log_softmax_internal(self: Tensor, dim: int, half_to_float: bool) -> Tensor:
    return log_softmax(self, dim, None)


# ---------------------------------------------------------------------------
# Scans


def _scan(ufunc: Any, name: str) -> Any:
    def kernel(self: Tensor, dim: int, dtype: int | None = None) -> Tensor:
        a = self._data
        d = normalize_dim(dim, a.ndim)
        dt = _accumulate_dtype(a, dtype)
        if a.ndim == 0:
            return result(a.astype(dt, copy=True))
        return result(ufunc.accumulate(a, axis=d, dtype=dt))

    kernel.__name__ = name
    return kernel


cumsum = implements("aten::cumsum")(_scan(np.add, "cumsum"))
cumprod = implements("aten::cumprod")(_scan(np.multiply, "cumprod"))


def _scan_inplace(functional: Any) -> Any:
    def kernel(self: Tensor, dim: int, dtype: int | None = None) -> Tensor:
        from ..tensor import bump_version

        self._data[...] = functional(self, dim, dtype)._data
        bump_version(self)
        return self

    return kernel


implements("aten::cumsum_")(_scan_inplace(cumsum))
implements("aten::cumprod_")(_scan_inplace(cumprod))


# ---------------------------------------------------------------------------
# Logical reductions and counting


def _logical(fn: Any) -> Any:
    def kernel(self: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
        a = self._data
        r = fn(a, axis=_axes(dim, a.ndim), keepdims=keepdim)
        return result(np.asarray(r, dtype=np.uint8 if a.dtype == np.uint8 else np.bool_))

    return kernel


all_ = implements("aten::all", "aten::all.dim", "aten::all.dims")(_logical(np.all))
any_ = implements("aten::any", "aten::any.dim", "aten::any.dims")(_logical(np.any))


@implements("aten::count_nonzero", "aten::count_nonzero.dim_IntList")
def count_nonzero(self: Tensor, dim: Any = None) -> Tensor:
    a = self._data
    return result(np.asarray(np.count_nonzero(a, axis=_axes(dim, a.ndim)), dtype=np.int64))


# ---------------------------------------------------------------------------
# Sorting and selection


def _argsort(a: ndarray, d: int, descending: bool) -> ndarray:
    """Stable argsort along `d` (NaN sorts as the largest value, as in PyTorch)."""
    if a.dtype.kind == "b":
        a = a.view(np.uint8)
    if not descending:
        return np.argsort(a, axis=d, kind="stable")
    n = a.shape[d]
    flipped = np.flip(a, axis=d)
    order = np.argsort(flipped, axis=d, kind="stable")
    return (n - 1) - np.flip(order, axis=d)


def _sort(self: Tensor, dim: int, descending: bool) -> tuple[Tensor, Tensor]:
    a = self._data
    d = normalize_dim(dim, a.ndim)
    if a.ndim == 0:
        return ValuesIndices(wrap(a.copy()), wrap(np.zeros((), np.int64)))
    idx = _argsort(a, d, descending)
    return ValuesIndices(
        result(np.take_along_axis(a, idx, axis=d)), result(idx.astype(np.int64, copy=False))
    )


@implements("aten::sort")
def sort(self: Tensor, dim: int = -1, descending: bool = False) -> tuple[Tensor, Tensor]:
    return _sort(self, dim, descending)


@implements("aten::sort.stable")
def sort_stable(
    self: Tensor, stable: bool | None, dim: int = -1, descending: bool = False
) -> tuple[Tensor, Tensor]:
    return _sort(self, dim, descending)


@implements("aten::argsort", autograd=False)
def argsort(self: Tensor, dim: int = -1, descending: bool = False) -> Tensor:
    return _sort(self, dim, descending)[1]


@implements("aten::argsort.stable", autograd=False)
def argsort_stable(self: Tensor, stable: bool, dim: int = -1, descending: bool = False) -> Tensor:
    return _sort(self, dim, descending)[1]


@implements("aten::topk")
def topk(
    self: Tensor, k: int, dim: int = -1, largest: bool = True, sorted: bool = True
) -> tuple[Tensor, Tensor]:
    a = self._data
    d = normalize_dim(dim, a.ndim)
    size = a.shape[d] if a.ndim else 1
    if not 0 <= k <= size:
        raise TensorError("selected index k out of range")
    if a.ndim == 0:
        return ValuesIndices(wrap(a.copy()), wrap(np.zeros((), np.int64)))
    idx = _argsort(a, d, largest)
    idx = np.ascontiguousarray(idx[(slice(None),) * d + (slice(0, k),)], dtype=np.int64)
    return ValuesIndices(result(np.take_along_axis(a, idx, axis=d)), result(idx))


@implements("aten::median")
def median(self: Tensor) -> Tensor:
    a = self._data.reshape(-1)
    if a.size == 0:
        return result(np.full((), np.nan, dtype=floating(a.dtype)))
    if a.dtype.kind in "fc" and np.isnan(a).any():
        return result(np.full((), np.nan, dtype=a.dtype))
    return result(np.asarray(np.sort(a)[(a.size - 1) // 2]))


@implements("aten::median.dim")
def median_dim(self: Tensor, dim: int, keepdim: bool = False) -> tuple[Tensor, Tensor]:
    a = self._data
    d = _reduced_dim(a, dim, "median")
    if a.ndim == 0:
        return ValuesIndices(wrap(a.copy()), wrap(np.zeros((), np.int64)))
    order = np.argsort(a, axis=d, kind="stable")
    n = a.shape[d]
    pos = np.full((*a.shape[:d], 1, *a.shape[d + 1 :]), (n - 1) // 2, dtype=np.int64)
    if a.dtype.kind in "fc":
        nans = np.add.reduce(np.isnan(a), axis=d, keepdims=True)
        pos = np.where(nans > 0, n - nans, pos)
    idx = np.take_along_axis(order, pos, axis=d)
    values = np.take_along_axis(a, idx, axis=d)
    if not keepdim:
        values, idx = values.squeeze(d), idx.squeeze(d)
    return ValuesIndices(result(values), result(idx.astype(np.int64, copy=False)))


# ---------------------------------------------------------------------------
# Comparison of whole tensors


@implements("aten::equal", autograd=False)
def equal(self: Tensor, other: Tensor) -> bool:
    a, b = self._data, other._data
    return a.shape == b.shape and bool(np.array_equal(a, b))


def _check_same_dtype(a: ndarray, b: ndarray) -> None:
    if a.dtype is not b.dtype and a.dtype != b.dtype:
        raise TensorError(f"{_name(a)} did not match {_name(b)}")


def _isclose(a: ndarray, b: ndarray, rtol: float, atol: float, equal_nan: bool) -> ndarray:
    _check_same_dtype(a, b)
    if a.dtype.kind in "biu":
        a = a.astype(np.float64)
        b = b.astype(np.float64)
    try:
        return np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)
    except ValueError:
        raise TensorError(
            f"The size of tensor a ({a.shape}) must match the size of tensor b ({b.shape})"
        ) from None


@implements("aten::isclose", autograd=False)
def isclose(
    self: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False
) -> Tensor:
    return result(np.asarray(_isclose(self._data, other._data, rtol, atol, equal_nan)))


@implements("aten::allclose", autograd=False)
def allclose(
    self: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False
) -> bool:
    return bool(np.all(_isclose(self._data, other._data, rtol, atol, equal_nan)))


# ---------------------------------------------------------------------------
# Derivatives


def _kept(grad: Tensor, shape: tuple[int, ...], dim: Any, keepdim: bool) -> Tensor:
    """`grad` of a reduction over `dim`, reshaped with the reduced dims kept as size 1."""
    if keepdim:
        return grad
    return grad.reshape(_keep_shape(shape, _axes(dim, len(shape))))


def _expanded(grad: Tensor, shape: tuple[int, ...], dim: Any, keepdim: bool) -> Tensor:
    return _kept(grad, shape, dim, keepdim).expand(list(shape))


@derivative("aten::sum", saves=())
def _d_sum(grad, self, dtype=None, *, result):
    return (grad_like(grad.expand(self.size()), self),)


@derivative("aten::sum.dim_IntList", saves=())
def _d_sum_dim(grad, self, dim, keepdim=False, dtype=None, *, result):
    return (grad_like(_expanded_like(grad, self, dim, keepdim), self),)


@derivative("aten::nansum", saves=("self",))
def _d_nansum(grad, self, dim=None, keepdim=False, dtype=None, *, result):
    g = _expanded(grad, self._data.shape, dim, keepdim)
    return (grad_like(g.masked_fill(self.isnan(), 0), self),)


@derivative("aten::mean", saves=())
def _d_mean(grad, self, dtype=None, *, result):
    return (grad_like(grad.expand(self.size()) / _reduced_count(self, None), self),)


@derivative("aten::mean.dim", saves=())
def _d_mean_dim(grad, self, dim, keepdim=False, dtype=None, *, result):
    n = _reduced_count(self, _axes(dim, self.dim()))
    return (grad_like(_expanded_like(grad, self, dim, keepdim) / n, self),)


def _expanded_like(grad: Tensor, self: Tensor, dim: Any, keepdim: bool) -> Tensor:
    """The gradient of a reduction of `self` over `dim`, broadcast back to `self`'s size."""
    if not keepdim and self.dim() > 0:
        axes = _axes(dim, self.dim())
        for a in sorted(range(self.dim()) if axes is None else axes):
            grad = grad.unsqueeze(a)
    return grad.expand(self.size())


def _reduced_count(self: Tensor, axes: tuple[int, ...] | None) -> Any:
    """How many elements of `self` each result of a reduction over `axes` (None: all) sums;
    at least 1 when there are none (the gradient is empty then). Symbolically the product of
    sizes, which the graph computes when it runs."""
    if getattr(self, "_ts_symbolic", False):
        if axes is None:
            return self.numel()
        n = self.size(axes[0])
        for a in axes[1:]:
            n = n * self.size(a)
        return n
    return max(_count(self._data.shape, axes), 1)


def _exclusive_products(x: Tensor, d: int) -> Tensor:
    """For each position along `d`, the product of all the other elements there."""
    n = x._data.shape[d]
    if n == 1:
        return x * 0 + 1
    ones = wrap(np.ones((*x._data.shape[:d], 1, *x._data.shape[d + 1 :]), dtype=x._data.dtype))
    left = _cat([ones, x.narrow(d, 0, n - 1).cumprod(d)], d)
    flipped = x.flip([d])
    right = _cat([ones, flipped.narrow(d, 0, n - 1).cumprod(d)], d).flip([d])
    return left * right


@derivative("aten::prod", saves=("self",))
def _d_prod(grad, self, dtype=None, *, result):
    if self._data.size == 0:
        return (zeros_of(self._data.shape, grad),)
    flat = self.reshape([-1])
    g = grad.reshape([1]) * _exclusive_products(flat, 0)
    return (grad_like(g.reshape(list(self._data.shape)), self),)


@derivative("aten::prod.dim_int", saves=("self",))
def _d_prod_dim(grad, self, dim, keepdim=False, dtype=None, *, result):
    if self._data.ndim == 0:
        return (grad_like(grad, self),)
    d = normalize_dim(dim, self._data.ndim)
    g = _kept(grad, self._data.shape, dim, keepdim)
    return (grad_like(g * _exclusive_products(self, d), self),)


def _evenly(grad: Tensor, self: Tensor, value: Tensor, dim: Any, keepdim: bool) -> Tensor:
    """The gradient of a reduction selecting `value`, shared evenly among the elements equal to it."""
    shape = self._data.shape
    v = _kept(value, shape, dim, keepdim)
    mask = self.eq(v) if not np.isnan(v._data).any() else (self.eq(v) | (self.isnan() & v.isnan()))
    maskf = mask.to(_dtype(grad))
    counts = maskf.sum(list(_axes(dim, len(shape)) or range(len(shape))), True) if shape else maskf
    return _kept(grad, shape, dim, keepdim) * maskf / counts


def _dtype(t: Tensor) -> Any:
    from ..dtypes import dtype_of_numpy

    return dtype_of_numpy(t._data.dtype)


@derivative("aten::max", "aten::min", "aten::median", saves=("self", "result"))
def _d_extreme(grad, self, *, result):
    return (_evenly(grad, self, result, None, False),)


@derivative("aten::amax", "aten::amin", saves=("self", "result"))
def _d_amax(grad, self, dim=(), keepdim=False, *, result):
    return (_evenly(grad, self, result, list(dim), keepdim),)


def _selected(grad: Any, self: Tensor, indices: Tensor, dim: int, keepdim: bool) -> Tensor:
    """The gradient of (values, indices) = reduce(self, dim): values' gradient put back at indices."""
    g = grad[0] if isinstance(grad, tuple) else grad
    if self._data.ndim == 0:
        return g
    d = normalize_dim(dim, self._data.ndim)
    if not keepdim:
        g = g.unsqueeze(d)
        indices = indices.unsqueeze(d)
    return _scatter(zeros_of(self._data.shape, g), d, indices, g)


@derivative("aten::max.dim", "aten::min.dim", "aten::median.dim", saves=("result",))
def _d_extreme_dim(grad, self, dim, keepdim=False, *, result):
    return (_selected(grad, self, result[1], dim, keepdim),)


@derivative("aten::sort", saves=("result",))
def _d_sort(grad, self, dim=-1, descending=False, *, result):
    return (_selected(grad, self, result[1], dim, True),)


@derivative("aten::sort.stable", saves=("result",))
def _d_sort_stable(grad, self, stable, dim=-1, descending=False, *, result):
    return (_selected(grad, self, result[1], dim, True),)


@derivative("aten::topk", saves=("result",))
def _d_topk(grad, self, k, dim=-1, largest=True, sorted=True, *, result):
    return (_selected(grad, self, result[1], dim, True),)


def _var_grad(grad, self, dim, correction, keepdim):
    shape = self._data.shape
    axes = _axes(dim, len(shape))
    n = _count(shape, axes)
    mean = (
        self.mean(list(axes) if axes is not None else list(range(len(shape))), True)
        if shape
        else self
    )
    return _kept(grad, shape, dim, keepdim) * 2 * (self - mean) / max(n - correction, 0)


@derivative("aten::var", saves=("self",))
def _d_var(grad, self, unbiased=True, *, result):
    return (_var_grad(grad, self, None, _correction(unbiased, None), False),)


@derivative("aten::var.dim", saves=("self",))
def _d_var_dim(grad, self, dim, unbiased=True, keepdim=False, *, result):
    return (_var_grad(grad, self, dim, _correction(unbiased, None), keepdim),)


@derivative("aten::var.correction", saves=("self",))
def _d_var_correction(grad, self, dim=None, correction=None, keepdim=False, *, result):
    return (_var_grad(grad, self, dim, _correction(None, correction), keepdim),)


def _std_grad(grad, self, dim, correction, keepdim, std):
    shape = self._data.shape
    s = _kept(std, shape, dim, keepdim)
    return _var_grad(grad, self, dim, correction, keepdim) / (2 * s)


@derivative("aten::std", saves=("self", "result"))
def _d_std(grad, self, unbiased=True, *, result):
    return (_std_grad(grad, self, None, _correction(unbiased, None), False, result),)


@derivative("aten::std.dim", saves=("self", "result"))
def _d_std_dim(grad, self, dim, unbiased=True, keepdim=False, *, result):
    return (_std_grad(grad, self, dim, _correction(unbiased, None), keepdim, result),)


@derivative("aten::std.correction", saves=("self", "result"))
def _d_std_correction(grad, self, dim=None, correction=None, keepdim=False, *, result):
    return (_std_grad(grad, self, dim, _correction(None, correction), keepdim, result),)


def _norm_grad(grad, self, p, dim, keepdim, norm):
    shape = self._data.shape
    if p is None:
        p = 2
    g = _kept(grad, shape, dim, keepdim)
    n = _kept(norm, shape, dim, keepdim)
    if p == 0:
        return self * 0
    if p == 1:
        return self.sign() * g
    if p == 2:
        return self * (g / n).masked_fill(n.eq(0), 0)
    if math.isinf(p):
        return _evenly(grad, self.abs(), norm, dim, keepdim) * self.sign()
    scale = (g / n.pow(p - 1)).masked_fill(n.eq(0), 0)
    if p < 1:
        return (self.sign() * self.abs().pow(p - 1) * scale).masked_fill(self.eq(0), 0)
    return self * self.abs().pow(p - 2) * scale


@derivative("aten::norm.Scalar", saves=("self", "result"))
def _d_norm(grad, self, p=2, *, result):
    return (_norm_grad(grad, self, p, None, False, result),)


@derivative("aten::norm.ScalarOpt_dim", saves=("self", "result"))
def _d_norm_dim(grad, self, p, dim, keepdim=False, *, result):
    return (_norm_grad(grad, self, p, dim, keepdim, result),)


@derivative("aten::norm.ScalarOpt_dim_dtype", saves=("self", "result"))
def _d_norm_dim_dtype(grad, self, p, dim, keepdim, dtype, *, result):
    return (grad_like(_norm_grad(grad, self, p, dim, keepdim, result), self),)


@derivative("aten::norm.ScalarOpt_dtype", saves=("self", "result"))
def _d_norm_dtype(grad, self, p, dtype, *, result):
    return (grad_like(_norm_grad(grad, self, p, None, False, result), self),)


@derivative("aten::linalg_vector_norm", saves=("self", "result"))
def _d_vector_norm(grad, self, ord=2, dim=None, keepdim=False, dtype=None, *, result):
    return (grad_like(_norm_grad(grad, self, ord, dim, keepdim, result), self),)


@derivative("aten::logsumexp", saves=("self", "result"))
def _d_logsumexp(grad, self, dim, keepdim=False, *, result):
    shape = self._data.shape
    return (_kept(grad, shape, dim, keepdim) * (self - _kept(result, shape, dim, keepdim)).exp(),)


@derivative("aten::softmax.int", "aten::_softmax", saves=("result",))
def _d_softmax(grad, self, dim, dtype=None, *, result):
    g = grad * result
    return (grad_like(g - result * g.sum([dim], True), self),)


@derivative("aten::log_softmax.int", "aten::_log_softmax", saves=("result",))
def _d_log_softmax(grad, self, dim, dtype=None, *, result):
    return (grad_like(grad - result.exp() * grad.sum([dim], True), self),)


@derivative("aten::cumsum", saves=())
def _d_cumsum(grad, self, dim, dtype=None, *, result):
    if self._data.ndim == 0:
        return (grad_like(grad, self),)
    d = normalize_dim(dim, self._data.ndim)
    return (grad_like(grad.flip([d]).cumsum(d).flip([d]), self),)


@derivative("aten::cumprod", saves=("self", "result"))
def _d_cumprod(grad, self, dim, dtype=None, *, result):
    if self._data.ndim == 0:
        return (grad_like(grad, self),)
    d = normalize_dim(dim, self._data.ndim)
    if not self._data.all():
        return (grad_like(_cumprod_grad_with_zeros(grad, self, d), self),)
    return (grad_like((grad * result).flip([d]).cumsum(d).flip([d]) / self, self),)


def _cumprod_grad_with_zeros(grad: Tensor, self: Tensor, d: int) -> Tensor:
    """d out_j / d x_k = prod_{i <= j, i != k} x_i for j >= k, summed against grad: O(n^2),
    for inputs holding zeros, where dividing the result by the input cannot be used."""
    n = self._data.shape[d]
    ones = wrap(np.ones((*self._data.shape[:d], 1, *self._data.shape[d + 1 :]), self._data.dtype))
    parts = []
    for k in range(n):
        after = self.narrow(d, k + 1, n - k - 1)
        partial = _cat([ones, after.cumprod(d)], d) if k < n - 1 else ones
        term = (grad.narrow(d, k, n - k) * partial).sum([d], True)
        parts.append(term * self.narrow(d, 0, k).prod(d, True) if k else term)
    return _cat(parts, d)


_cat = lazy_impl("aten::cat")  # registered by ops.joins
_scatter = lazy_impl("aten::scatter.src")
_amin = impl("aten::amin")
_amax = impl("aten::amax")
_mean_dim = impl("aten::mean.dim")
_var_correction = impl("aten::var.correction")
_std_correction = impl("aten::std.correction")

__all__ = ["ValuesIndices"]
