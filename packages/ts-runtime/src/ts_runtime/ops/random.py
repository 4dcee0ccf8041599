"""Random numbers: one global numpy `Generator`, seeded by `aten::manual_seed`.

Sequences are reproducible under a seed but are not PyTorch's (its
generator is a Mersenne Twister with its own transformations). Sampling
operators take the generator from here; an explicit `generator` argument
other than None is an error, as this runtime has one generator only.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..dtypes import get_default_dtype, numpy_dtype
from ..tensor import Tensor, TensorError, bump_version, check_device
from .common import check_floating, result, shape_arg, sum_to_shape
from .dispatch import ArgumentError, derivative, implements

DEFAULT_SEED = 67280421310721


class _State:
    __slots__ = ("generator", "seed")

    def __init__(self) -> None:
        self.seed = DEFAULT_SEED
        self.generator = np.random.Generator(np.random.PCG64(DEFAULT_SEED))


_STATE = _State()


def generator() -> np.random.Generator:
    """The global generator every sampling operator draws from."""
    return _STATE.generator


def manual_seed(seed: int) -> None:
    """Reset the global generator to a fixed state."""
    seed = int(seed)
    if seed < 0:
        seed &= (1 << 64) - 1
    _STATE.seed = seed
    _STATE.generator = np.random.Generator(np.random.PCG64(seed))


def initial_seed() -> int:
    return _STATE.seed


def get_rng_state() -> dict[str, Any]:
    return _STATE.generator.bit_generator.state


def set_rng_state(state: dict[str, Any]) -> None:
    _STATE.generator.bit_generator.state = state


implements("aten::manual_seed")(manual_seed)


def _no_generator(g: Any) -> None:
    if g is not None:
        raise ArgumentError("explicit generators are not supported: use manual_seed() instead")


def _float_dtype(dtype: int | None, name: str) -> np.dtype:
    dt = numpy_dtype(get_default_dtype() if dtype is None else dtype)
    if dt.kind not in "fc":
        raise TensorError(f"\"{name}\" not implemented for '{np.dtype(dt).name}'")
    return dt


def _uniform(
    shape: tuple[int, ...], dt: np.dtype, low: float = 0.0, high: float = 1.0
) -> np.ndarray:
    g = _STATE.generator
    if dt.kind == "c":
        part = np.dtype(np.float32 if dt == np.complex64 else np.float64)
        return (g.random(shape, dtype=part) + 1j * g.random(shape, dtype=part)).astype(dt)
    if dt == np.float16:
        r = g.random(shape, dtype=np.float32).astype(dt)
    else:
        r = g.random(shape, dtype=dt)
    if low != 0.0 or high != 1.0:
        r = (r * (high - low) + low).astype(dt, copy=False)
    return r


def _normal(shape: tuple[int, ...], dt: np.dtype, mean: Any = 0.0, std: Any = 1.0) -> np.ndarray:
    g = _STATE.generator
    if dt.kind == "c":
        part = np.dtype(np.float32 if dt == np.complex64 else np.float64)
        scale = math.sqrt(0.5)
        r = (
            g.standard_normal(shape, dtype=part) + 1j * g.standard_normal(shape, dtype=part)
        ) * scale
        return r.astype(dt)
    if dt in (np.float32, np.float64):
        r = g.standard_normal(shape, dtype=dt)
    else:
        r = g.standard_normal(shape).astype(dt)
    if not (
        isinstance(mean, (int, float)) and mean == 0 and isinstance(std, (int, float)) and std == 1
    ):
        r = (r * std + mean).astype(dt, copy=False)
    return r


# ---------------------------------------------------------------------------
# Factories


@implements("aten::rand")
def rand(
    size: list[int],
    dtype: int | None = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: Any = None,
) -> Tensor:
    check_device(device)
    return result(_uniform(shape_arg(size), _float_dtype(dtype, "check_uniform_bounds")))


@implements("aten::rand.generator")
def rand_generator(size: list[int], generator: Any, dtype: int | None = None, *rest: Any) -> Tensor:
    _no_generator(generator)
    return rand(size, dtype, *rest)


@implements("aten::randn")
def randn(
    size: list[int],
    dtype: int | None = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: Any = None,
) -> Tensor:
    check_device(device)
    return result(_normal(shape_arg(size), _float_dtype(dtype, "normal_kernel_cpu")))


@implements("aten::randn.generator")
def randn_generator(
    size: list[int], generator: Any, dtype: int | None = None, *rest: Any
) -> Tensor:
    _no_generator(generator)
    return randn(size, dtype, *rest)


def _randint(low: int, high: int, shape: tuple[int, ...], dtype: int | None) -> Tensor:
    if low >= high:
        raise TensorError(
            f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}"
        )
    dt = numpy_dtype(4 if dtype is None else dtype)
    values = _STATE.generator.integers(low, high, size=shape, dtype=np.int64)
    return result(values.astype(dt, copy=False))


@implements("aten::randint")
def randint(
    high: int,
    size: list[int],
    dtype: int | None = 4,
    layout: Any = None,
    device: Any = None,
    pin_memory: Any = None,
) -> Tensor:
    check_device(device)
    return _randint(0, high, shape_arg(size), dtype)


@implements("aten::randint.low")
def randint_low(
    low: int,
    high: int,
    size: list[int],
    dtype: int | None = 4,
    layout: Any = None,
    device: Any = None,
    pin_memory: Any = None,
) -> Tensor:
    check_device(device)
    return _randint(low, high, shape_arg(size), dtype)


@implements("aten::randint.generator")
def randint_generator(
    high: int, size: list[int], generator: Any, dtype: int | None = 4, *rest: Any
) -> Tensor:
    _no_generator(generator)
    return randint(high, size, dtype, *rest)


@implements("aten::randint.low_generator")
def randint_low_generator(
    low: int, high: int, size: list[int], generator: Any, dtype: int | None = 4, *rest: Any
) -> Tensor:
    _no_generator(generator)
    return randint_low(low, high, size, dtype, *rest)


def _like_dtype(self: Tensor, dtype: int | None) -> np.dtype:
    return self._data.dtype if dtype is None else numpy_dtype(dtype)


@implements("aten::rand_like", autograd=False)
def rand_like(
    self: Tensor, dtype: int | None = None, layout: Any = None, device: Any = None, *rest: Any
) -> Tensor:
    check_device(device)
    dt = _like_dtype(self, dtype)
    if dt.kind not in "fc":
        raise TensorError(f"\"check_uniform_bounds\" not implemented for '{dt.name}'")
    return result(_uniform(self._data.shape, dt))


@implements("aten::randn_like", autograd=False)
def randn_like(
    self: Tensor, dtype: int | None = None, layout: Any = None, device: Any = None, *rest: Any
) -> Tensor:
    check_device(device)
    dt = _like_dtype(self, dtype)
    if dt.kind not in "fc":
        raise TensorError(f"\"normal_kernel_cpu\" not implemented for '{dt.name}'")
    return result(_normal(self._data.shape, dt))


@implements("aten::randint_like", autograd=False)
def randint_like(
    self: Tensor,
    high: int,
    dtype: int | None = None,
    layout: Any = None,
    device: Any = None,
    *rest: Any,
) -> Tensor:
    check_device(device)
    return _randint(0, high, self._data.shape, _like_code(self, dtype))


@implements("aten::randint_like.Tensor", autograd=False)
def randint_like_tensor(
    self: Tensor,
    high: Tensor,
    dtype: int | None = None,
    layout: Any = None,
    device: Any = None,
    *rest: Any,
) -> Tensor:
    check_device(device)
    return _randint(0, int(high.item()), self._data.shape, _like_code(self, dtype))  # type: ignore[arg-type]


@implements("aten::randint_like.low_dtype", autograd=False)
def randint_like_low(
    self: Tensor,
    low: int,
    high: int,
    dtype: int | None = None,
    layout: Any = None,
    device: Any = None,
    *rest: Any,
) -> Tensor:
    check_device(device)
    return _randint(low, high, self._data.shape, _like_code(self, dtype))


def _like_code(self: Tensor, dtype: int | None) -> int:
    from ..dtypes import dtype_of_numpy

    return dtype_of_numpy(self._data.dtype) if dtype is None else dtype


@implements("aten::randperm")
def randperm(
    n: int, dtype: int | None = 4, layout: Any = None, device: Any = None, pin_memory: Any = None
) -> Tensor:
    check_device(device)
    if n < 0:
        raise TensorError(f"n must be non-negative, got{n}")
    return result(
        _STATE.generator.permutation(n).astype(numpy_dtype(4 if dtype is None else dtype))
    )


@implements("aten::randperm.generator")
def randperm_generator(n: int, generator: Any, dtype: int | None = 4, *rest: Any) -> Tensor:
    _no_generator(generator)
    return randperm(n, dtype, *rest)


@implements("aten::normal.float_float")
def normal_float_float(
    mean: float,
    std: float,
    size: list[int],
    generator: Any = None,
    dtype: int | None = None,
    layout: Any = None,
    device: Any = None,
    pin_memory: Any = None,
) -> Tensor:
    _no_generator(generator)
    check_device(device)
    _check_std(std)
    return result(_normal(shape_arg(size), _float_dtype(dtype, "normal_kernel_cpu"), mean, std))


def _check_std(std: Any) -> None:
    bad = (std._data < 0).any() if isinstance(std, Tensor) else std < 0
    if bad:
        raise TensorError(f"normal expects std >= 0.0, but found std {std}")


@implements("aten::normal.Tensor_float", "aten::normal.float_Tensor", "aten::normal.Tensor_Tensor")
def normal(mean: Any, std: Any = 1.0, generator: Any = None) -> Tensor:
    _no_generator(generator)
    _check_std(std)
    m = mean._data if isinstance(mean, Tensor) else mean
    s = std._data if isinstance(std, Tensor) else std
    try:
        shape = np.broadcast_shapes(np.shape(m), np.shape(s))
    except ValueError:
        raise TensorError(
            f"normal: mean of shape {list(np.shape(m))} and std of shape {list(np.shape(s))} cannot be broadcast"
        ) from None
    dts = [t._data.dtype for t in (mean, std) if isinstance(t, Tensor)]
    dt = np.result_type(*dts)
    check_floating(dt, "normal_kernel_cpu")
    return result(_normal(shape, dt, m, s))


# ---------------------------------------------------------------------------
# In-place samplers (and their functional forms)


@implements("aten::uniform_")
def uniform_(self: Tensor, from_: float = 0.0, to: float = 1.0, generator: Any = None) -> Tensor:
    _no_generator(generator)
    check_floating(self._data.dtype, "check_uniform_bounds")
    self._data[...] = _uniform(self._data.shape, self._data.dtype, from_, to)
    bump_version(self)
    return self


@implements("aten::uniform")
def uniform(self: Tensor, from_: float = 0.0, to: float = 1.0, generator: Any = None) -> Tensor:
    _no_generator(generator)
    check_floating(self._data.dtype, "check_uniform_bounds")
    return result(_uniform(self._data.shape, self._data.dtype, from_, to))


@implements("aten::normal_")
def normal_(self: Tensor, mean: float = 0.0, std: float = 1.0, generator: Any = None) -> Tensor:
    _no_generator(generator)
    _check_std(std)
    check_floating(self._data.dtype, "normal_kernel_cpu")
    self._data[...] = _normal(self._data.shape, self._data.dtype, mean, std)
    bump_version(self)
    return self


@implements("aten::normal_functional")
def normal_functional(
    self: Tensor, mean: float = 0.0, std: float = 1.0, generator: Any = None
) -> Tensor:
    _no_generator(generator)
    _check_std(std)
    check_floating(self._data.dtype, "normal_kernel_cpu")
    return result(_normal(self._data.shape, self._data.dtype, mean, std))


def _bernoulli_array(p: Any, shape: tuple[int, ...], dt: np.dtype) -> np.ndarray:
    pa = p._data if isinstance(p, Tensor) else p
    if np.any((np.asarray(pa) < 0) | (np.asarray(pa) > 1)):
        raise TensorError("bernoulli_ expects p to be in [0, 1]")
    try:
        pa = np.broadcast_to(pa, shape)
    except ValueError:
        raise TensorError(
            f"bernoulli: p of shape {list(np.shape(pa))} cannot be broadcast to the shape {list(shape)}"
        ) from None
    return (_STATE.generator.random(shape) < pa).astype(dt)


@implements("aten::bernoulli")
def bernoulli(self: Tensor, generator: Any = None) -> Tensor:
    _no_generator(generator)
    return result(_bernoulli_array(self, self._data.shape, self._data.dtype))


@implements("aten::bernoulli.p")
def bernoulli_p(self: Tensor, p: float, generator: Any = None) -> Tensor:
    _no_generator(generator)
    return result(_bernoulli_array(p, self._data.shape, self._data.dtype))


@implements("aten::bernoulli.Tensor")
def bernoulli_tensor(self: Tensor, p: Tensor, generator: Any = None) -> Tensor:
    _no_generator(generator)
    return result(_bernoulli_array(p, self._data.shape, self._data.dtype))


@implements("aten::bernoulli_.float", "aten::bernoulli_.Tensor")
def bernoulli_(self: Tensor, p: Any = 0.5, generator: Any = None) -> Tensor:
    _no_generator(generator)
    self._data[...] = _bernoulli_array(p, self._data.shape, self._data.dtype)
    bump_version(self)
    return self


@implements("aten::multinomial")
def multinomial(
    self: Tensor, num_samples: int, replacement: bool = False, generator: Any = None
) -> Tensor:
    _no_generator(generator)
    probs = self._data
    if probs.ndim not in (1, 2):
        raise TensorError("prob_dist must be 1 or 2 dim")
    if probs.dtype.kind != "f":
        raise TensorError("multinomial only supports floating-point dtypes for input")
    if probs.shape[-1] == 0:
        raise TensorError("cannot sample from an empty distribution")
    if num_samples <= 0:
        raise TensorError(f"cannot sample n_sample <= 0 samples, got {num_samples}")
    rows = probs.reshape(-1, probs.shape[-1]).astype(np.float64)
    if (rows < 0).any() or not np.isfinite(rows).all():
        raise TensorError("probability tensor contains either `inf`, `nan` or element < 0")
    n = rows.shape[1]
    if not replacement and num_samples > n:
        raise TensorError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
    out = np.empty((rows.shape[0], num_samples), dtype=np.int64)
    g = _STATE.generator
    for i, row in enumerate(rows):
        total = row.sum()
        if total <= 0:
            raise TensorError("invalid multinomial distribution (sum of probabilities <= 0)")
        p = row / total
        if not replacement and np.count_nonzero(p) < num_samples:
            raise TensorError(
                "invalid multinomial distribution (with replacement=False, not enough non-negative category to sample)"
            )
        out[i] = g.choice(n, size=num_samples, replace=replacement, p=p)
    return result(out.reshape((*probs.shape[:-1], num_samples)))


@derivative(
    "aten::uniform", "aten::normal_functional", "aten::bernoulli", "aten::bernoulli.p", saves=()
)
def _d_sample(grad, self, *rest, result):
    return (grad * 0,)


@derivative(
    "aten::normal.Tensor_float",
    "aten::normal.float_Tensor",
    "aten::normal.Tensor_Tensor",
    saves=("mean", "std", "result"),
)
def _d_normal(grad, mean, std=1.0, generator=None, *, result):
    g_mean = sum_to_shape(grad, mean._data.shape) if isinstance(mean, Tensor) else None
    g_std = None
    if isinstance(std, Tensor):
        g_std = sum_to_shape(grad * (result - mean) / std, std._data.shape)
    return g_mean, g_std


# ---------------------------------------------------------------------------
# random_: integers drawn uniformly


def _random_bounds(dt: np.dtype, low: int | None, high: int | None) -> tuple[int, int]:
    """[low, high) of random_: by default [0, 2^mantissa] for floats, the type's range for
    integers (bool: 0 or 1)."""
    if high is not None:
        low = 0 if low is None else low
        if low >= high:
            raise TensorError(
                f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}"
            )
        return low, high
    if low is not None:
        return low, int(np.iinfo(np.int64).max) if dt.kind != "f" else 2 ** (
            np.finfo(dt).nmant + 1
        ) + 1
    if dt.kind == "b":
        return 0, 2
    if dt.kind == "f":
        return 0, 2 ** (np.finfo(dt).nmant + 1) + 1
    return 0, int(np.iinfo(dt).max)


def _random(self: Tensor, low: int | None, high: int | None) -> np.ndarray:
    dt = self._data.dtype
    lo, hi = _random_bounds(dt, low, high)
    return _STATE.generator.integers(lo, hi, size=self._data.shape).astype(dt)


@implements("aten::random_")
def random_(self: Tensor, generator: Any = None) -> Tensor:
    _no_generator(generator)
    self._data[...] = _random(self, None, None)
    bump_version(self)
    return self


@implements("aten::random_.to")
def random_to(self: Tensor, to: int, generator: Any = None) -> Tensor:
    _no_generator(generator)
    self._data[...] = _random(self, None, to)
    bump_version(self)
    return self


@implements("aten::random_.from")
def random_from(self: Tensor, from_: int, to: int | None, generator: Any = None) -> Tensor:
    _no_generator(generator)
    self._data[...] = _random(self, from_, to)
    bump_version(self)
    return self


@implements("aten::random")
def random(self: Tensor, generator: Any = None) -> Tensor:
    _no_generator(generator)
    return result(_random(self, None, None))


@implements("aten::random.to")
def random_to_functional(self: Tensor, to: int, generator: Any = None) -> Tensor:
    _no_generator(generator)
    return result(_random(self, None, to))


@implements("aten::random.from")
def random_from_functional(
    self: Tensor, from_: int, to: int | None, generator: Any = None
) -> Tensor:
    _no_generator(generator)
    return result(_random(self, from_, to))
