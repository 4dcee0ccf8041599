"""What every kernel uses: dtype promotion, numpy results as tensors, argument helpers.

Promotion goes through ts-ir's one table (`result_type`), with the result for
each combination of operand dtypes and categories cached, so kernels pay a
dictionary lookup and nothing more. Numpy's own promotion is never relied on
where it differs from PyTorch's (numpy makes float64 of an int array and a
Python float; PyTorch makes float32).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
from ts_ir import Category, ScalarType, result_type, scalar_dtype

from ..dtypes import get_default_dtype, numpy_dtype, scalar_type_of_numpy
from ..tensor import Tensor, TensorError, normalize_dim, wrap

# PyTorch computes silently with IEEE semantics (1/0 is inf); numpy warns. Keep
# kernels quiet without touching the user's numpy settings elsewhere.
warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"ts_runtime\.")

ndarray = np.ndarray
asarray = np.asarray


def result(r: Any) -> Tensor:
    """Wrap a numpy result; ufuncs return numpy scalars for 0-d inputs, which become 0-d arrays."""
    return wrap(r if type(r) is ndarray else asarray(r))


def pointwise_result(r: Any, self: Any, other: Any) -> Tensor:
    """`result` for a binary pointwise op of `self` and `other`: laid out as PyTorch lays it
    out (`follow_layout`)."""
    if type(r) is not ndarray:
        return wrap(asarray(r))
    if r.ndim > 1 and (
        not isinstance(self, Tensor)
        or not isinstance(other, Tensor)
        or self._data.strides != other._data.strides
    ):
        r = follow_layout(
            r,
            self._data if isinstance(self, Tensor) else None,
            other._data if isinstance(other, Tensor) else None,
        )
    return wrap(r)


def follow_layout(r: ndarray, *arrays: Any) -> ndarray:
    """`r`, the result of a pointwise op over `arrays`, in the memory layout PyTorch gives it.

    PyTorch's TensorIterator lays a result out as its operands are laid out: it orders the
    dimensions by the operands' strides, asking them in turn and taking the first that tells
    two dimensions apart (a broadcast dimension tells nothing; equal strides put the smaller
    dimension first), and allocates the result in that order. numpy's `order="K"` follows one
    operand as well, but keeps C order where the operands disagree: the transposed first
    operand of `a.t() - b` makes PyTorch's result transposed (so `view(-1)` refuses it) and
    numpy's C-contiguous. Results whose operands are all C-contiguous (the common case) are
    returned at once; callers skip the call where two operands have the same strides (numpy's
    order then is PyTorch's).
    """
    ndim = r.ndim
    if ndim < 2 or type(r) is not ndarray:
        return r
    for a in arrays:
        if type(a) is ndarray and not a.flags.c_contiguous:
            break
    else:
        return r
    shape = r.shape
    strides = []
    for a in arrays:
        if type(a) is not ndarray or a.ndim == 0:
            continue
        lead = ndim - a.ndim
        strides.append(
            [0] * lead
            + [
                0 if a.shape[i] == 1 and shape[lead + i] != 1 else a.strides[i]
                for i in range(a.ndim)
            ]
        )

    def should_swap(d0: int, d1: int) -> int:
        for st in strides:
            s0, s1 = st[d0], st[d1]
            if s0 == 0 or s1 == 0:
                continue
            if s0 < s1:
                return -1
            if s0 > s1:
                return 1
            if shape[d0] > shape[d1]:
                return 1
        return 0

    perm = list(range(ndim - 1, -1, -1))  # perm[0] is the innermost dimension
    for i in range(1, ndim):
        d1 = i
        for d0 in range(i - 1, -1, -1):
            c = should_swap(perm[d0], perm[d1])
            if c > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif c < 0:
                break
    order = perm[::-1]  # outermost first
    if order == list(range(ndim)):
        if r.flags.c_contiguous:
            return r
    else:
        want = r.transpose(order)
        if want.flags.c_contiguous:
            return r
    out = np.empty(tuple(shape[d] for d in order), dtype=r.dtype).transpose(np.argsort(order))
    out[...] = r
    return out


def _operand_key(x: Any) -> Any:
    if isinstance(x, Tensor):
        d = x._data
        return (d.dtype, d.ndim == 0)
    return type(x)


def _operand(x: Any) -> tuple[ScalarType, Category]:
    if isinstance(x, Tensor):
        d = x._data
        return scalar_type_of_numpy(d.dtype), Category.ZERO_DIM if d.ndim == 0 else Category.DIM
    if isinstance(x, (np.generic,)):
        x = x.item()
    return scalar_dtype(x), Category.SCALAR


_PROMOTION: dict[Any, np.dtype] = {}


def promote(*operands: Any) -> np.dtype:
    """The numpy dtype PyTorch's type promotion gives these tensors and Python scalars."""
    key = tuple(map(_operand_key, operands))
    dt = _PROMOTION.get(key)
    if dt is None:
        dt = _PROMOTION[key] = numpy_dtype(result_type([_operand(x) for x in operands]))
    return dt


def floating(dt: np.dtype) -> np.dtype:
    """`dt` if floating or complex, else the default float dtype (int and bool inputs of float ops)."""
    return dt if dt.kind in "fc" else numpy_dtype(get_default_dtype())


_INT_BOUNDS: dict[np.dtype, tuple[int, int]] = {}


def operand(x: Any, dt: np.dtype) -> Any:
    """A tensor's array in dtype `dt`, or a Python scalar as is (numpy treats it as weak).

    A Python int outside an integer dtype's range wraps around, as PyTorch's C casts do
    (`uint8_tensor & -32` is `& 224`); numpy would refuse it.
    """
    if isinstance(x, Tensor):
        a = x._data
        return a if a.dtype is dt else a.astype(dt)
    if isinstance(x, bool):
        return int(x) if dt.kind != "b" else x
    if type(x) is int and dt.kind in "iu":
        bounds = _INT_BOUNDS.get(dt)
        if bounds is None:
            info = np.iinfo(dt)
            bounds = _INT_BOUNDS[dt] = (int(info.min), int(info.max))
        if not bounds[0] <= x <= bounds[1]:
            return np.asarray(x).astype(dt)[()]
    return x


def array_of(x: Any, dt: np.dtype) -> ndarray:
    """An array in dtype `dt` for a tensor or scalar (for kernels that need an array)."""
    if isinstance(x, Tensor):
        a = x._data
        return a if a.dtype is dt else a.astype(dt)
    return np.asarray(x, dtype=dt)


def check_floating(dt: np.dtype, kernel: str) -> None:
    """Kernels PyTorch has for floating types only refuse others, naming the kernel:
    `"silu_cpu" not implemented for 'Long'`."""
    if dt.kind not in "fc":
        raise TensorError(f"\"{kernel}\" not implemented for '{_torch_name(dt)}'")


def check_inplace_cast(target: Tensor, dt: np.dtype, name: str) -> None:
    """In-place ops may not change their target's category (int tensor += float is an error)."""
    have = target._data.dtype
    if have is not dt and not np.can_cast(dt, have, casting="same_kind"):
        raise TensorError(
            f"result type {_torch_name(dt)} can't be cast to the desired output type {_torch_name(have)} ({name})"
        )


def _non_overlapping_and_dense(a: ndarray) -> bool:
    """Whether `a`'s elements fill its memory exactly once, in some order of its dims."""
    flags = a.flags
    if flags.c_contiguous or flags.f_contiguous:
        return True
    expected = a.itemsize
    for stride, size in sorted(
        (st, sz) for st, sz in zip(a.strides, a.shape, strict=True) if sz != 1
    ):
        if stride != expected:
            return False
        expected *= size
    return True


def _byte_bounds(a: ndarray) -> tuple[int, int]:
    """The first byte of `a`'s elements and one past its last (strides may be negative)."""
    lo = hi = a.__array_interface__["data"][0]
    for stride, size in zip(a.strides, a.shape, strict=True):
        if stride < 0:
            lo += stride * (size - 1)
        else:
            hi += stride * (size - 1)
    return lo, hi + a.itemsize


_OVERLAP_MESSAGE = (
    "unsupported operation: some elements of the input tensor and the written-to tensor refer "
    "to a single memory location. Please clone() the tensor before performing the operation."
)


def check_inplace_overlap(target: Tensor, args: Sequence[Any]) -> None:
    """PyTorch's memory-overlap checks of an in-place op: the target may not write one memory
    location twice (an expanded tensor), and may share memory with an operand only as the very
    same view (`x.add_(x)`), never in part (`x.sub_(x.t())`, `x[1:].add_(x[:-1])`), whose
    result would depend on the order elements are written in. Where the layouts make the
    question hard (neither operand dense), PyTorch does not check, and neither does this."""
    a = target._data
    if a.size == 0:
        return
    dense = _non_overlapping_and_dense(a)
    if not dense and any(st == 0 and sz > 1 for st, sz in zip(a.strides, a.shape, strict=True)):
        raise TensorError(
            "unsupported operation: more than one element of the written-to tensor refers to a "
            "single memory location. Please clone() the tensor before performing the operation."
        )
    if not dense:
        return
    lo, hi = _byte_bounds(a)
    for arg in args:
        if type(arg) is not Tensor or arg is target:
            continue
        b = arg._data
        if b.size == 0 or not _non_overlapping_and_dense(b):
            continue
        b_lo, b_hi = _byte_bounds(b)
        if b_lo == lo and b_hi == hi:
            if b.strides != a.strides:
                raise TensorError(_OVERLAP_MESSAGE)
        elif b_lo < hi and lo < b_hi:
            raise TensorError(_OVERLAP_MESSAGE)


def write_inplace(target: Tensor, out: ndarray, name: str) -> None:
    """Store an in-place op's result in its target, as PyTorch checks it: an in-place op
    never broadcasts its target (`x.add_(y)` with `x` of shape [3] and `y` of [3, 3] is an
    error, not a [3, 3] result) nor changes its dtype category."""
    have = target._data
    if out.shape != have.shape:
        raise TensorError(
            f"output with shape {list(have.shape)} doesn't match the broadcast shape "
            f"{list(out.shape)} ({name})"
        )
    check_inplace_cast(target, out.dtype, name)
    have[...] = out


def _torch_name(dt: np.dtype) -> str:
    return scalar_type_of_numpy(dt).name


def dims(dim: Any, ndim: int) -> tuple[int, ...]:
    """Normalize an int or list of ints (or None: all dims) to a tuple of dims."""
    if dim is None:
        return tuple(range(ndim))
    if isinstance(dim, int):
        return (normalize_dim(dim, ndim),)
    if len(dim) == 0:
        return tuple(range(ndim))
    out = tuple(normalize_dim(d, ndim) for d in dim)
    if len(set(out)) != len(out):
        raise TensorError(f"dim {list(dim)} appears multiple times in the list of dims")
    return out


def shape_arg(size: Sequence[int]) -> tuple[int, ...]:
    """A size argument as a tuple, rejecting negative sizes."""
    shape = tuple(int(s) for s in size)
    negative = next((s for s in shape if s < 0), None)
    if negative is not None:
        raise TensorError(
            f"Trying to create tensor with negative dimension {negative}: {list(shape)}"
        )
    return shape


def grad_like(grad: Tensor, like: Tensor) -> Tensor | None:
    """A gradient for input `like`: in its dtype, or None where it has none (integer, bool)."""
    dt = like._data.dtype
    if dt.kind not in "fc":
        return None
    if grad._data.dtype is dt:
        return grad
    from ..dtypes import dtype_of_numpy

    return grad.to(dtype_of_numpy(dt))


def sum_to(grad: Tensor, like: Tensor) -> Tensor:
    """`grad`, of the shape of an operator's result, summed to `like`'s shape where `like`
    was broadcast. In a formula evaluated symbolically this writes
    `aten::_grad_sum_to_size` (see `ts_runtime.autodiff.symbolic`)."""
    symbolic = getattr(grad, "symbolic_sum_to", None)
    if symbolic is not None:
        return symbolic(like)
    return sum_to_shape(grad, like._data.shape)


def reduce_to(grad: Tensor, like: Tensor) -> Tensor:
    """`grad` summed to `like`'s shape over the dimensions it has more of or broadcast (any
    shape, unlike `sum_to`: symbolically the comparison is made where `grad` is known)."""
    symbolic = getattr(grad, "symbolic_reduce_to", None)
    if symbolic is not None:
        return symbolic(like)
    return sum_to_shape(grad, like._data.shape)


def sum_to_shape(grad: Tensor, shape: tuple[int, ...]) -> Tensor:
    """Reduce a broadcast gradient back to `shape` (PyTorch's sum_to_size)."""
    g = grad._data
    if g.shape == tuple(shape):
        return grad
    lead = g.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(
        lead + i for i, s in enumerate(shape) if s == 1 and g.shape[lead + i] != 1
    )
    from .dispatch import call

    if grad._ag is not None:  # keep the reduction differentiable (double backward)
        out = call("aten::sum", grad, list(axes), True) if axes else grad
        return call("aten::reshape", out, list(shape))
    r = g.sum(axis=axes, keepdims=True) if axes else g
    return result(r.reshape(shape))
