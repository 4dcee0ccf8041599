"""Gradients of the corpus programs, the same way in tsjit and in PyTorch.

Every corpus program (function or module) whose cases take floating tensors
is run five times per case ("iterations" 1 to 5, as a training loop would),
in float64: the floating inputs (and a module's parameters) are leaves that
require grad, the floating outputs are contracted with random cotangents,
and the gradients reaching the leaves are taken with `create_graph=True`;
where they depend on the leaves, a random vector contracted with them is
differentiated again (double backward). Iteration 1 uses the recorded
inputs; later ones perturb them by up to 5% (signs kept, so domains such as
`log`'s stay valid).

A program that writes one of its inputs in place gets a copy of each leaf
(`leaf.clone()`), as PyTorch refuses in-place writes to leaves.

`run(lib, ...)` does one iteration with `lib` (`tsjit` or `torch`) and
returns plain numpy arrays; `tools/record_autodiff.py` writes PyTorch's
results to `recorded.json`, which `test_autodiff_corpus.py` checks tsjit
against without PyTorch; the oracle test compares with PyTorch live.
"""

from __future__ import annotations

import importlib.util
import sys
import zlib
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from conftest import load_jsonl  # noqa: E402
from corpus_values import decode, tensor_array  # noqa: E402

ITERATIONS = 5
RTOL = 1e-7


def _is_float_tensor(encoded: Any) -> bool:
    return (
        isinstance(encoded, dict)
        and "tensor" in encoded
        and encoded["tensor"]["dtype"].startswith("float")
    )


def targets() -> list[tuple[str, dict, int]]:
    """(id, program row, case index) for every case with a floating tensor input."""
    out = []
    for row in load_jsonl("programs"):
        if row["kind"] == "function" and not row.get("torchscript_supported", True):
            continue
        for i, case in enumerate(row["cases"]):
            if "error" in case:
                continue
            if any(_is_float_tensor(x) for x in case["inputs"]) or row["kind"] == "module":
                out.append((f"{row['name']}-case{i}", row, i))
    return out


def _load(file: str, name: str, lib: ModuleType) -> ModuleType:
    saved = sys.modules.get("torch")
    sys.modules["torch"] = lib
    try:
        spec = importlib.util.spec_from_file_location(name, ROOT / "corpus" / file)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    finally:
        if saved is None:
            del sys.modules["torch"]
        else:
            sys.modules["torch"] = saved
    return module


@cache
def corpus(lib_name: str, file: str) -> ModuleType:
    """`corpus/<file>` imported with `torch` bound to `lib_name` ("tsjit" or "torch")."""
    lib = importlib.import_module(lib_name)
    return _load(file, f"autodiff_corpus_{lib_name}_{file[:-3]}", lib)


def build(lib: ModuleType, row: dict) -> Any:
    """The program: scripted by tsjit, eager for PyTorch (its reference); modules in float64."""
    name = lib.__name__
    if row["kind"] == "function":
        fn = getattr(corpus(name, "programs.py"), row["name"])
        return lib.jit.script(fn) if name == "tsjit" else fn
    module = getattr(corpus(name, "modules.py"), row["name"])(*row["ctor_args"])
    module = module.double()
    state = {
        k: lib.from_numpy(np.asarray(decode_array(v), dtype=_float64_like(v)))
        for k, v in row["state_dict"].items()
    }
    if name == "tsjit":
        module = lib.jit.script(module)
    module.load_state_dict(state)
    module.eval()
    return module


def decode_array(encoded: dict) -> np.ndarray:
    return tensor_array(encoded["tensor"])


def _float64_like(encoded: dict) -> Any:
    return np.float64 if encoded["tensor"]["dtype"].startswith("float") else None


def _rng(*parts: Any) -> np.random.Generator:
    return np.random.default_rng(zlib.crc32(repr(parts).encode()))


def input_arrays(row: dict, case: int, iteration: int) -> list[Any]:
    """The inputs of one iteration: floating tensors as float64 arrays, the rest decoded."""
    rng = _rng(row["name"], case, iteration, "inputs")
    out: list[Any] = []
    for x in row["cases"][case]["inputs"]:
        if _is_float_tensor(x):
            a = decode_array(x).astype(np.float64)
            if iteration > 1:
                a = a * (1 + 0.05 * np.clip(rng.standard_normal(a.shape), -1, 1))
            out.append(a)
        else:
            out.append(("value", x))
    return out


def run(
    lib: ModuleType,
    program: Any,
    row: dict,
    arrays: list[Any],
    seed: Any,
    *,
    clone: bool,
) -> dict[str, Any]:
    """One iteration: outputs, first-order gradients and the double-backward products."""
    leaves = []
    inputs = []
    for a in arrays:
        if isinstance(a, tuple) and a and a[0] == "value":
            inputs.append(decode(a[1]) if lib.__name__ == "tsjit" else _torch_value(lib, a[1]))
            continue
        leaf = lib.from_numpy(a.copy()).requires_grad_(True)
        leaves.append(leaf)
        inputs.append(leaf.clone() if clone else leaf)
    if row["kind"] == "module":
        leaves += [p for _, p in sorted(program.named_parameters())]
    out = program(*inputs)
    floats = [o for o in _flatten(out) if _is_float(lib, o)]
    result: dict[str, Any] = {"outputs": [o.detach().numpy().copy() for o in floats]}
    differentiable = [o for o in floats if o.requires_grad]
    if not differentiable:
        result["grads"] = None
        return result
    rng = _rng(seed, "cotangents")
    loss = None
    for o in differentiable:
        c = lib.from_numpy(rng.standard_normal(tuple(o.shape)))
        term = (o * c).sum()
        loss = term if loss is None else loss + term
    grads = lib.autograd.grad(loss, leaves, create_graph=True, allow_unused=True)
    result["grads"] = [None if g is None else g.detach().numpy().copy() for g in grads]
    second = [g for g in grads if g is not None and g.requires_grad]
    if not second:
        result["hvp"] = None
        return result
    rng = _rng(seed, "vectors")
    s = None
    for g in grads:
        if g is None:
            continue
        v = lib.from_numpy(rng.standard_normal(tuple(g.shape)))
        if not g.requires_grad:
            continue
        term = (g * v).sum()
        s = term if s is None else s + term
    hvp = lib.autograd.grad(s, leaves, allow_unused=True)
    result["hvp"] = [None if h is None else h.detach().numpy().copy() for h in hvp]
    return result


def _torch_value(torch: Any, encoded: Any) -> Any:
    value = decode(encoded)
    if isinstance(value, np.ndarray):
        return torch.from_numpy(value.copy())
    return _map_arrays(torch, value)


def _map_arrays(torch: Any, value: Any) -> Any:
    if hasattr(value, "numpy") and not isinstance(value, np.ndarray):
        return torch.from_numpy(np.array(value.numpy()))
    if isinstance(value, list):
        return [_map_arrays(torch, v) for v in value]
    if isinstance(value, tuple):
        return tuple(_map_arrays(torch, v) for v in value)
    return value


def _flatten(value: Any) -> list[Any]:
    if isinstance(value, (list, tuple)):
        return [x for v in value for x in _flatten(v)]
    return [value]


def _is_float(lib: Any, value: Any) -> bool:
    return isinstance(value, lib.Tensor) and value.dtype in (lib.float64, lib.float32)


def last_plan_graph(program: Any) -> Any:
    """The optimized graph tsjit's last call of `program` (a function or a module) ran."""
    fn = program.forward.function if hasattr(program, "forward") else program
    return fn.last_executed_optimized_graph()


def compare(actual: dict[str, Any], expected: dict[str, Any]) -> list[str]:
    """Where tsjit's results differ from the expected ones (empty: they agree)."""
    problems: list[str] = []
    for key in ("outputs", "grads", "hvp"):
        a, e = actual.get(key), expected.get(key)
        if e is None:
            if a is not None and key != "outputs" and any(x is not None and np.any(x) for x in a):
                problems.append(f"{key}: PyTorch has none, tsjit has some")
            continue
        if a is None:
            problems.append(f"{key}: tsjit has none")
            continue
        if len(a) != len(e):
            problems.append(f"{key}: {len(a)} values, expected {len(e)}")
            continue
        for i, (x, y) in enumerate(zip(a, e, strict=True)):
            if y is None:
                if x is not None and np.any(x):
                    problems.append(f"{key}[{i}]: expected no gradient")
                continue
            if x is None:
                if np.any(y):
                    problems.append(f"{key}[{i}]: no gradient, expected one")
                continue
            x, y = np.asarray(x), np.asarray(y)
            if x.shape != y.shape:
                problems.append(f"{key}[{i}]: shape {x.shape}, expected {y.shape}")
                continue
            scale = float(np.max(np.abs(y))) if y.size else 0.0
            if not np.allclose(x, y, rtol=RTOL, atol=1e-12 * max(scale, 1.0), equal_nan=True):
                worst = float(np.max(np.abs(x - y)))
                problems.append(f"{key}[{i}]: max abs difference {worst:.3g} (scale {scale:.3g})")
    return problems
