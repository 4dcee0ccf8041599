"""Values of the real-world corpus, decoded for PyTorch or for tsjit, and encoded back.

`decode(obj, torch_ns, source)` turns an encoded value into a runtime value of the
namespace `torch_ns` (the `torch` module, or `tsjit`); `source` is the item's source file
as a loaded module, for the forms that name its definitions (`ref`, `object`).
`encode(value)` writes a runtime value (of either namespace) in the encoding; the recorder
writes PyTorch's results with it, and the oracle tests compare tsjit's with PyTorch's live.
"""

from __future__ import annotations

import math
import types
from typing import Any

import numpy as np
from corpus_values import encode_array, generated_array, tensor_array


def _boxes(spec: dict) -> np.ndarray:
    n, size, seed = int(spec["n"]), float(spec["size"]), int(spec["seed"])
    corner = generated_array(
        {
            "kind": "uniform",
            "shape": [n, 2],
            "dtype": "float64",
            "seed": seed,
            "low": 0.0,
            "high": 0.6 * size,
        }
    )
    extent = generated_array(
        {
            "kind": "uniform",
            "shape": [n, 2],
            "dtype": "float64",
            "seed": seed + 7919,
            "low": 0.05 * size,
            "high": 0.4 * size,
        }
    )
    return np.concatenate([corner, corner + extent], axis=1).astype(np.float32)


def decode(obj: Any, torch_ns: Any, source: Any = None) -> Any:
    """The runtime value of an encoded value, in the namespace `torch_ns`."""
    if isinstance(obj, list):
        return [decode(x, torch_ns, source) for x in obj]
    if not isinstance(obj, dict):
        return obj
    if "tensor" in obj:
        return torch_ns.from_numpy(tensor_array(obj["tensor"]).copy())
    if "gen" in obj:
        return torch_ns.from_numpy(generated_array(obj["gen"]))
    if "boxes" in obj:
        return torch_ns.from_numpy(_boxes(obj["boxes"]))
    if "tuple" in obj:
        return tuple(decode(x, torch_ns, source) for x in obj["tuple"])
    if "list" in obj:
        return [decode(x, torch_ns, source) for x in obj["list"]]
    if "dict" in obj:
        return {decode(k, torch_ns, source): decode(v, torch_ns, source) for k, v in obj["dict"]}
    if "float" in obj:
        return float(obj["float"])
    if "dtype" in obj:
        return getattr(torch_ns, obj["dtype"])
    if "device" in obj:
        return torch_ns.device(obj["device"])
    if "ref" in obj:
        return getattr(source, obj["ref"])
    if "object" in obj:
        spec = obj["object"]
        cls = getattr(source, spec["class"])
        return cls(*[decode(a, torch_ns, source) for a in spec["args"]])
    if "namespace" in obj:
        return types.SimpleNamespace(
            **{k: decode(v, torch_ns, source) for k, v in obj["namespace"].items()}
        )
    raise ValueError(f"unknown encoded value {obj!r}")


_DTYPE_NAMES = {
    "torch.float32": "float32",
    "torch.float64": "float64",
    "torch.float16": "float16",
    "torch.int64": "int64",
    "torch.int32": "int32",
    "torch.int16": "int16",
    "torch.int8": "int8",
    "torch.uint8": "uint8",
    "torch.bool": "bool",
}


def encode(value: Any) -> Any:
    """`value` (a PyTorch or tsjit runtime value) in the corpus value encoding."""
    if hasattr(value, "detach") and hasattr(value, "numpy"):
        return encode_array(value.detach().numpy())
    if isinstance(value, bool) or value is None or isinstance(value, (int, str)):
        return value
    if isinstance(value, float):
        if math.isnan(value):
            return {"float": "nan"}
        if math.isinf(value):
            return {"float": "inf" if value > 0 else "-inf"}
        return value
    if isinstance(value, tuple):
        return {"tuple": [encode(v) for v in value]}
    if isinstance(value, list):
        return {"list": [encode(v) for v in value]}
    if isinstance(value, dict):
        return {"dict": [[encode(k), encode(v)] for k, v in value.items()]}
    text = str(value)
    if text in _DTYPE_NAMES:
        return {"dtype": _DTYPE_NAMES[text]}
    raise TypeError(f"cannot encode a value of type {type(value).__name__}: {value!r}")
