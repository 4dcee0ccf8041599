"""Factories: zeros, ones, full, empty, the `*_like` forms, arange, linspace, eye, tensor.

dtypes follow PyTorch: no `dtype` means the default float dtype, except
where PyTorch infers one from a value (`full` and `tensor` from the fill
value or data; `arange` gives int64 when every bound is an integer). `empty`
is zeroed, so programs that read it are deterministic. Tensors live on the
cpu; any other device is a `TensorError`.

The operators' schemas take no `requires_grad`; `EAGER` holds the
eager functions (`tsjit.zeros(2, 3, requires_grad=True)`) that accept it,
as PyTorch's Python bindings do.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ..dtypes import complex64, get_default_dtype, numpy_dtype
from ..tensor import Tensor, TensorError, as_tensor, check_device, tensor, wrap
from .common import result, shape_arg
from .dispatch import call, implements
from .shape import scalar_in


def _dtype(dtype: int | None) -> np.dtype:
    return numpy_dtype(get_default_dtype() if dtype is None else dtype)


@implements("aten::zeros")
def zeros(
    size: list[int],
    dtype: int | None = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: Any = None,
) -> Tensor:
    check_device(device)
    if any(int(s) < 0 for s in size):  # PyTorch's zeros has a message of its own
        raise TensorError("zeros: Dimension size must be non-negative.")
    return result(np.zeros(shape_arg(size), dtype=_dtype(dtype)))


@implements("aten::ones")
def ones(
    size: list[int],
    dtype: int | None = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: Any = None,
) -> Tensor:
    check_device(device)
    return result(np.ones(shape_arg(size), dtype=_dtype(dtype)))


@implements("aten::empty.memory_format")
def empty(
    size: list[int],
    dtype: int | None = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: Any = None,
    memory_format: Any = None,
) -> Tensor:
    check_device(device)
    return result(np.zeros(shape_arg(size), dtype=_dtype(dtype)))


def fill_dtype(value: Any) -> np.dtype:
    """The dtype `torch.full` infers from its fill value."""
    if isinstance(value, bool):
        return np.dtype(np.bool_)
    if isinstance(value, int):
        return np.dtype(np.int64)
    if isinstance(value, complex):
        return numpy_dtype(complex64)
    return _dtype(None)


@implements("aten::full")
def full(
    size: list[int],
    fill_value: Any,
    dtype: int | None = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: Any = None,
) -> Tensor:
    check_device(device)
    dt = fill_dtype(fill_value) if dtype is None else numpy_dtype(dtype)
    return result(np.full(shape_arg(size), scalar_in(fill_value, dt)))


def _like(self: Tensor, dtype: int | None, device: Any) -> np.dtype:
    check_device(device)
    return self._data.dtype if dtype is None else numpy_dtype(dtype)


def _filled_like(make: Callable[..., np.ndarray], name: str) -> Callable[..., Tensor]:
    def kernel(
        self: Tensor,
        dtype: int | None = None,
        layout: Any = None,
        device: Any = None,
        pin_memory: Any = None,
        memory_format: Any = None,
    ) -> Tensor:
        return result(make(self._data.shape, dtype=_like(self, dtype, device)))

    kernel.__name__ = name
    return kernel


implements("aten::zeros_like", "aten::empty_like", autograd=False)(
    _filled_like(np.zeros, "zeros_like")
)
implements("aten::ones_like", autograd=False)(_filled_like(np.ones, "ones_like"))


@implements("aten::full_like", autograd=False)
def full_like(
    self: Tensor,
    fill_value: Any,
    dtype: int | None = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: Any = None,
    memory_format: Any = None,
) -> Tensor:
    return result(np.full(self._data.shape, scalar_in(fill_value, _like(self, dtype, device))))


def _new(make: Callable[..., np.ndarray], name: str) -> Callable[..., Tensor]:
    def kernel(
        self: Tensor,
        size: list[int],
        dtype: int | None = None,
        layout: Any = None,
        device: Any = None,
        pin_memory: Any = None,
    ) -> Tensor:
        return result(make(shape_arg(size), dtype=_like(self, dtype, device)))

    kernel.__name__ = name
    return kernel


implements("aten::new_zeros", autograd=False)(_new(np.zeros, "new_zeros"))
implements("aten::new_ones", autograd=False)(_new(np.ones, "new_ones"))
implements("aten::new_empty", autograd=False)(_new(np.zeros, "new_empty"))


@implements("aten::new_full", autograd=False)
def new_full(
    self: Tensor,
    size: list[int],
    fill_value: Any,
    dtype: int | None = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: Any = None,
) -> Tensor:
    return result(np.full(shape_arg(size), scalar_in(fill_value, _like(self, dtype, device))))


# ---------------------------------------------------------------------------
# Ranges


def _number(x: Any) -> Any:
    return x.item() if isinstance(x, Tensor) else x


def _range_dtype(values: tuple[Any, ...], dtype: int | None) -> np.dtype:
    if dtype is not None:
        return numpy_dtype(dtype)
    if any(isinstance(v, float) for v in values):
        return _dtype(None)
    if any(isinstance(v, complex) for v in values):
        raise TensorError("arange does not support complex bounds")
    return np.dtype(np.int64)


def arange_array(start: Any, end: Any, step: Any, dtype: int | None) -> np.ndarray:
    start, end, step = _number(start), _number(end), _number(step)
    dt = _range_dtype((start, end, step), dtype)
    for v in (start, end):
        if isinstance(v, float) and not math.isfinite(v):
            raise TensorError(f"unsupported range: {start} -> {end}")
    if step == 0:
        raise TensorError("step must be nonzero")
    if (step > 0 and end < start) or (step < 0 and end > start):
        raise TensorError("upper bound and larger bound inconsistent with step sign")
    if dt.kind in "iub" and all(isinstance(v, int) for v in (start, end, step)):
        return np.arange(start, end, step, dtype=np.int64).astype(dt, copy=False)
    n = math.ceil((end - start) / step)
    values = start + np.arange(max(n, 0), dtype=np.float64) * step
    return values.astype(dt)


@implements("aten::arange")
def arange(
    end: Any,
    dtype: int | None = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: Any = None,
) -> Tensor:
    check_device(device)
    return result(arange_array(0, end, 1, dtype))


@implements("aten::arange.start")
def arange_start(
    start: Any,
    end: Any,
    dtype: int | None = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: Any = None,
) -> Tensor:
    check_device(device)
    return result(arange_array(start, end, 1, dtype))


@implements("aten::arange.start_step")
def arange_start_step(
    start: Any,
    end: Any,
    step: Any = 1,
    dtype: int | None = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: Any = None,
) -> Tensor:
    check_device(device)
    return result(arange_array(start, end, step, dtype))


def _triangle_indices(row: int, col: int, offset: int, upper: bool, dtype: int | None) -> Tensor:
    if row < 0 or col < 0:
        which = "row" if row < 0 else "col"
        raise TensorError(f"{which} must be non-negative, got {row if row < 0 else col}")
    rows, cols = np.indices((row, col)).reshape(2, -1)  # row-major, as PyTorch lists them
    keep = (cols - rows >= offset) if upper else (cols - rows <= offset)
    dt = numpy_dtype(4 if dtype is None else dtype)  # int64 unless asked
    if dt.kind not in "iu":
        name = "triu_indices" if upper else "tril_indices"
        raise TensorError(f'"{name}" is implemented for integer dtypes only, not {dt.name}')
    return result(np.stack([rows[keep], cols[keep]]).astype(dt))


@implements("aten::triu_indices")
def triu_indices(
    row: int,
    col: int,
    offset: int = 0,
    dtype: int | None = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: Any = None,
) -> Tensor:
    """The (row, column) coordinates of the upper triangle of a row x col matrix, as a
    2 x N tensor: j - i >= offset."""
    check_device(device)
    return _triangle_indices(row, col, offset, True, dtype)


@implements("aten::tril_indices")
def tril_indices(
    row: int,
    col: int,
    offset: int = 0,
    dtype: int | None = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: Any = None,
) -> Tensor:
    """The lower triangle's coordinates likewise: j - i <= offset."""
    check_device(device)
    return _triangle_indices(row, col, offset, False, dtype)


@implements(
    "aten::linspace",
    "aten::linspace.Tensor_Tensor",
    "aten::linspace.Tensor_Scalar",
    "aten::linspace.Scalar_Tensor",
)
def linspace(
    start: Any,
    end: Any,
    steps: int,
    dtype: int | None = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: Any = None,
) -> Tensor:
    check_device(device)
    if steps < 0:
        raise TensorError("number of steps must be non-negative")
    start, end = _number(start), _number(end)
    dt = _dtype(dtype)
    # PyTorch's kernel: the first half counts up from start, the second down from end
    work = dt if dt.kind in "fc" else np.dtype(np.float64)
    s, e = work.type(start), work.type(end)
    if steps == 1:
        return result(np.full(1, s, dtype=work).astype(dt))
    idx = np.arange(steps)
    step = (e - s) / work.type(max(steps - 1, 1))
    half = steps // 2
    lo = s + step * idx[:half].astype(work)
    hi = e - step * (steps - idx[half:] - 1).astype(work)
    out = np.concatenate([lo, hi]).astype(work, copy=False)
    return result(out.astype(dt))


@implements(
    "aten::logspace",
    "aten::logspace.Tensor_Tensor",
    "aten::logspace.Tensor_Scalar",
    "aten::logspace.Scalar_Tensor",
)
def logspace(
    start: Any,
    end: Any,
    steps: int,
    base: float = 10.0,
    dtype: int | None = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: Any = None,
) -> Tensor:
    """base ** linspace(start, end, steps), computed in floating point, then in `dtype`."""
    check_device(device)
    dt = _dtype(dtype)
    exponents = linspace(start, end, steps, 7).numpy()  # float64
    return result(np.power(float(base), exponents).astype(dt))


@implements("aten::eye")
def eye(
    n: int, dtype: int | None = None, layout: Any = None, device: Any = None, pin_memory: Any = None
) -> Tensor:
    return eye_m(n, n, dtype, layout, device, pin_memory)


@implements("aten::eye.m")
def eye_m(
    n: int,
    m: int,
    dtype: int | None = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: Any = None,
) -> Tensor:
    check_device(device)
    if n < 0:
        raise TensorError(f"n must be greater or equal to 0, got {n}")
    if m < 0:
        raise TensorError(f"m must be greater or equal to 0, got {m}")
    return result(np.eye(n, m, dtype=_dtype(dtype)))


# ---------------------------------------------------------------------------
# From data


@implements(
    "aten::tensor",
    "aten::tensor.bool",
    "aten::tensor.float",
    "aten::tensor.int",
    "aten::tensor.complex",
)
def tensor_(
    data: Any, dtype: int | None = None, device: Any = None, requires_grad: bool = False
) -> Tensor:
    try:
        return tensor(data, dtype=dtype, device=device, requires_grad=requires_grad)
    except (OverflowError, TensorError):
        if not isinstance(data, (int, float)) or dtype is None:
            raise
        # a number out of an integer dtype's range (or nan, inf) is cast as C++ casts it, as
        # TorchScript's aten::tensor.float does: ints wrap around, nan becomes INT64_MIN
        with np.errstate(all="ignore"):
            out = wrap(np.asarray(data).astype(numpy_dtype(dtype)))
        return out.requires_grad_(True) if requires_grad else out


@implements(
    "aten::as_tensor",
    "aten::as_tensor.list",
    "aten::as_tensor.bool",
    "aten::as_tensor.float",
    "aten::as_tensor.int",
    "aten::as_tensor.complex",
    autograd=False,
)
def as_tensor_(data: Any, dtype: int | None = None, device: Any = None) -> Tensor:
    if isinstance(data, Tensor):
        check_device(device)
        if dtype is None or numpy_dtype(dtype) == data._data.dtype:
            return data
        return call("aten::to", data, dtype)
    if dtype is not None and isinstance(data, (bool, int, float, complex)):
        check_device(device)
        return result(scalar_in(data, numpy_dtype(dtype)))
    return as_tensor(data, dtype, device)


@implements("aten::scalar_tensor")
def scalar_tensor(
    s: Any, dtype: int | None = None, layout: Any = None, device: Any = None, pin_memory: Any = None
) -> Tensor:
    check_device(device)
    return result(scalar_in(s, _dtype(dtype)))


# ---------------------------------------------------------------------------
# Eager functions that take `requires_grad`


def _factory(name: str) -> Callable[..., Tensor]:
    qualified = f"aten::{name}"

    def fn(*args: Any, requires_grad: bool = False, **kwargs: Any) -> Tensor:
        out = call(qualified, *args, **kwargs)
        return out.requires_grad_(True) if requires_grad else out

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"Calls the operator {qualified}; `requires_grad=True` makes the result a leaf that requires grad."
    return fn


EAGER: dict[str, Callable[..., Tensor]] = {
    name: _factory(name)
    for name in (
        "zeros",
        "ones",
        "full",
        "empty",
        "zeros_like",
        "ones_like",
        "full_like",
        "empty_like",
        "arange",
        "linspace",
        "eye",
        "rand",
        "randn",
        "randint",
        "rand_like",
        "randn_like",
        "randint_like",
        "randperm",
        "scalar_tensor",
        "normal",
    )
}


__all__ = ["EAGER", "arange_array", "fill_dtype"]
