"""The corpus's value encoding, decoded into runtime values, and comparison of results.

Encoding (see corpus/README.md): JSON numbers and strings as themselves,
null for None, {"tensor": {"dtype", "shape", "data"}}, {"tuple": [...]},
{"list": [...]}, {"dict": [[k, v], ...]}, {"float": "nan"|"inf"|"-inf"},
{"dtype": "float64"}, {"device": "cpu"}. `encode` writes it from PyTorch's or
tsjit's values.

Two more forms of a tensor keep larger recordings small (integration_tests/realworld
uses them): `{"tensor": {"dtype", "shape", "b64"}}` holds the elements as base64 of
their little-endian bytes, and `{"gen": {"kind", "dtype", "shape", "seed", ...}}` is a
tensor computed from a seed by `generated_array` (integer hashing and IEEE arithmetic
only, so every platform computes the same elements).

Comparison: float32 tensors within 1e-5 relative (plus a tiny absolute
slack for values near zero), float64 within 1e-10 relative, Python floats
within 1e-6 relative (they are often a float32 tensor's `item()`), every
other value exactly, with matching dtypes, shapes and container kinds.
"""

from __future__ import annotations

import base64
import enum
import math
from typing import Any

import numpy as np


def tensor_array(t: dict) -> np.ndarray:
    """The elements of an encoded tensor (`{"dtype", "shape", "data" | "b64"}`)."""
    dtype = np.dtype(t["dtype"])
    if "b64" in t:
        raw = base64.b64decode(t["b64"])
        return np.frombuffer(raw, dtype=dtype.newbyteorder("<")).astype(dtype).reshape(t["shape"])
    return np.array(t["data"], dtype=dtype).reshape(t["shape"])


def encode_array(arr: np.ndarray, inline: int = 16) -> dict:
    """`arr` as an encoded tensor: a list of numbers up to `inline` elements, else base64."""
    arr = np.asarray(arr)
    t: dict[str, Any] = {"dtype": arr.dtype.name, "shape": list(arr.shape)}
    if arr.size > inline:
        t["b64"] = base64.b64encode(arr.astype(arr.dtype.newbyteorder("<")).tobytes()).decode()
    elif arr.dtype.kind == "f":
        # the shortest decimal that reads back as the same element
        t["data"] = [float(str(x)) for x in arr.reshape(-1)]
    else:
        t["data"] = arr.reshape(-1).tolist()
    return {"tensor": t}


_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def _hash_stream(n: int, seed: int, stream: int = 0) -> np.ndarray:
    """n 64-bit hashes of (seed, stream, index): splitmix64's finalizer over a counter."""
    i = np.arange(n, dtype=np.uint64) * np.uint64(4) + np.uint64(stream)
    h = i * _GOLDEN + np.uint64((seed * 0xBF58476D1CE4E5B9) % (1 << 64))
    h ^= h >> np.uint64(30)
    h *= np.uint64(0xBF58476D1CE4E5B9)
    h ^= h >> np.uint64(27)
    h *= np.uint64(0x94D049BB133111EB)
    h ^= h >> np.uint64(31)
    return h


def _uniform01(n: int, seed: int, stream: int = 0) -> np.ndarray:
    # 24 random bits: exact in float32 and float64
    return (_hash_stream(n, seed, stream) >> np.uint64(40)).astype(np.float64) / float(1 << 24)


def generated_array(spec: dict) -> np.ndarray:
    """The tensor a `{"gen": ...}` value stands for.

    kinds: "uniform" in [low, high); "normal" (mean 0, std `std`, the sum of four
    uniforms, so bounded); "randint" in [low, high); "bool" true with probability `p`.
    """
    shape = [int(s) for s in spec["shape"]]
    n = int(np.prod(shape, dtype=np.int64))
    seed = int(spec["seed"])
    kind = spec["kind"]
    dtype = np.dtype(spec["dtype"])
    if kind == "uniform":
        low, high = float(spec.get("low", 0.0)), float(spec.get("high", 1.0))
        out = low + _uniform01(n, seed) * (high - low)
    elif kind == "normal":
        s = sum(_uniform01(n, seed, k) for k in range(4))
        out = (s - 2.0) * (math.sqrt(3.0) * float(spec.get("std", 1.0)))
    elif kind == "randint":
        low, high = int(spec["low"]), int(spec["high"])
        out = (_hash_stream(n, seed) % np.uint64(high - low)).astype(np.int64) + low
    elif kind == "bool":
        out = _uniform01(n, seed) < float(spec.get("p", 0.5))
    else:
        raise ValueError(f"unknown generated tensor kind {kind!r}")
    return out.astype(dtype).reshape(shape)


def decode(obj: Any, enums: Any = None) -> Any:
    """An encoded value as tsjit's runtime value; `enums` (a module) holds the enum classes
    `{"enum": "Color.RED"}` names."""
    import ts_runtime

    if isinstance(obj, dict):
        if "tensor" in obj:
            return ts_runtime.from_numpy(tensor_array(obj["tensor"]).copy())
        if "gen" in obj:
            return ts_runtime.from_numpy(generated_array(obj["gen"]))
        if "tuple" in obj:
            return tuple(decode(x, enums) for x in obj["tuple"])
        if "list" in obj:
            return [decode(x, enums) for x in obj["list"]]
        if "dict" in obj:
            return {decode(k, enums): decode(v, enums) for k, v in obj["dict"]}
        if "enum" in obj:
            cls, _, member = obj["enum"].partition(".")
            return getattr(getattr(enums, cls), member)
        if "float" in obj:
            return float(obj["float"])
        if "dtype" in obj:
            return getattr(ts_runtime, obj["dtype"])
        if "device" in obj:
            return ts_runtime.device(obj["device"])
        raise ValueError(f"unknown encoded value {obj!r}")
    return obj


def encode(value: Any) -> Any:
    """A value of PyTorch or of tsjit (tensors, numbers, strings, containers, dtypes,
    devices) in the corpus's encoding."""
    if hasattr(value, "detach") and hasattr(value, "numpy"):
        arr = value.detach()
        arr = (arr.cpu() if hasattr(arr, "cpu") else arr).numpy()
        data = arr.reshape(-1).tolist()  # JSON's NaN and Infinity stand for themselves here
        return {"tensor": {"dtype": str(arr.dtype), "shape": list(arr.shape), "data": data}}
    if isinstance(value, enum.Enum):
        return {"enum": f"{type(value).__name__}.{value.name}"}
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return _encode_float(value)
    if isinstance(value, tuple):
        return {"tuple": [encode(x) for x in value]}
    if isinstance(value, list):
        return {"list": [encode(x) for x in value]}
    if isinstance(value, dict):
        return {"dict": [[encode(k), encode(v)] for k, v in value.items()]}
    kind = type(value).__name__
    if kind == "dtype":
        return {"dtype": str(value).rpartition(".")[2]}
    if kind in ("device", "Device"):
        return {"device": str(value)}
    raise TypeError(f"cannot encode a value of type {kind}")


def _encode_float(x: float) -> Any:
    if math.isnan(x):
        return {"float": "nan"}
    if math.isinf(x):
        return {"float": "inf" if x > 0 else "-inf"}
    return x


def mismatch(actual: Any, expected: Any, path: str = "output") -> str | None:
    """None when `actual` matches the encoded `expected`, else a description of the difference."""
    import ts_runtime

    if isinstance(expected, dict) and "tensor" in expected:
        if not isinstance(actual, ts_runtime.Tensor):
            return f"{path}: expected a tensor, got {type(actual).__name__}"
        want = tensor_array(expected["tensor"])
        got = actual.detach().numpy()
        if got.dtype != want.dtype:
            return f"{path}: dtype {got.dtype} != {want.dtype}"
        if got.shape != want.shape:
            return f"{path}: shape {got.shape} != {want.shape}"
        if want.dtype.kind == "f":
            rtol, atol = (1e-5, 1e-6) if want.dtype == np.float32 else (1e-10, 1e-12)
            if not np.allclose(got, want, rtol=rtol, atol=atol, equal_nan=True):
                worst = np.nanmax(np.abs(got.astype(np.float64) - want))
                return f"{path}: values differ (max abs difference {worst:.3g})\n got  {got}\n want {want}"
            return None
        if not np.array_equal(got, want):
            return f"{path}: values differ\n got  {got}\n want {want}"
        return None
    if isinstance(expected, dict) and ("tuple" in expected or "list" in expected):
        kind = "tuple" if "tuple" in expected else "list"
        items = expected[kind]
        if not isinstance(actual, tuple if kind == "tuple" else list):
            return f"{path}: expected a {kind}, got {type(actual).__name__}"
        if len(actual) != len(items):
            return f"{path}: {kind} of {len(actual)} items, expected {len(items)}"
        for i, (a, e) in enumerate(zip(actual, items, strict=True)):
            problem = mismatch(a, e, f"{path}[{i}]")
            if problem:
                return problem
        return None
    if isinstance(expected, dict) and "dict" in expected:
        if not isinstance(actual, dict) or len(actual) != len(expected["dict"]):
            return f"{path}: expected a dict of {len(expected['dict'])} items, got {actual!r}"
        for k, v in expected["dict"]:
            problem = mismatch(actual.get(decode(k)), v, f"{path}[{k!r}]")
            if problem:
                return problem
        return None
    if isinstance(expected, dict) and "float" in expected:
        want = float(expected["float"])
        ok = isinstance(actual, float) and (
            (math.isnan(want) and math.isnan(actual)) or actual == want
        )
        return None if ok else f"{path}: {actual!r} != {want!r}"
    if isinstance(expected, dict) and "enum" in expected:
        got = f"{type(actual).__name__}.{getattr(actual, 'name', '?')}"
        return None if got == expected["enum"] else f"{path}: {actual!r} != {expected['enum']}"
    if isinstance(expected, dict) and "device" in expected:
        ok = type(actual).__name__ in ("device", "Device") and str(actual) == expected["device"]
        return None if ok else f"{path}: {actual!r} != device {expected['device']}"
    if isinstance(expected, dict) and "dtype" in expected:
        return (
            None
            if actual == decode(expected)
            else f"{path}: {actual!r} != dtype {expected['dtype']}"
        )
    if isinstance(expected, float):
        if not isinstance(actual, float) or not math.isclose(
            actual, expected, rel_tol=1e-6, abs_tol=1e-9
        ):
            return f"{path}: {actual!r} != {expected!r}"
        return None
    if type(actual) is not type(expected) or actual != expected:
        return f"{path}: {actual!r} ({type(actual).__name__}) != {expected!r} ({type(expected).__name__})"
    return None


def eager_error_class(program: dict) -> str | None:
    """The exception class eager Python raises where TorchScript raised `torch.jit.Error`."""
    for entry in program.get("eager_disagrees") or []:
        if entry.get("script") == "Error":
            return entry["eager"]
    return None


# `fork_wait` forks `fork_wait_fn`, which the corpus does not record as a program
# of its own; its graph, written from corpus/programs.py
# (`def fork_wait_fn(x): return torch.tanh(x) * 2`), for harnesses that run
# recorded graphs in a compilation unit.
HELPER_GRAPHS = {
    "fork_wait_fn": """graph(%x : Tensor):
  %two : int = prim::Constant[value=2]()
  %t : Tensor = aten::tanh(%x)
  %y : Tensor = aten::mul(%t, %two)
  return (%y)
""",
}
