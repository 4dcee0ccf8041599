"""Running one real-world item under a torch-shaped namespace: PyTorch's or tsjit's.

The recorder (`tools/record_realworld.py`) runs items under PyTorch; the harness
(`integration_tests/test_realworld.py`) under tsjit, and in the oracle session under both.
Both go through the same steps:

- `load_source(file, torch_ns)` imports a source file of this folder with the name
  `torch` (and its submodules) bound to `torch_ns` while it loads;
- `build(item, torch_ns, source, state)` makes the callable: a scripted function, a
  module (constructed, its state loaded from the recording, eval mode, scripted) or a
  bound method of an instance of a scripted class;
- `call(fn, case, torch_ns, source)` decodes a case's inputs and calls.
"""

from __future__ import annotations

import builtins
import importlib.util
import math
import sys
from collections import OrderedDict
from pathlib import Path
from types import ModuleType
from typing import Any

from values import decode

HERE = Path(__file__).parent
_SUBMODULES = ("jit", "nn", "nn.functional", "nn.init", "nn.parameter")
_LOADED: dict[tuple[str, str], ModuleType] = {}


def load_source(file: str, torch_ns: ModuleType) -> ModuleType:
    """The source file `sources/{file}.py`, imported with `torch` bound to `torch_ns`."""
    key = (file, torch_ns.__name__)
    if key in _LOADED:
        return _LOADED[key]
    aliases = {"torch": torch_ns}
    for sub in _SUBMODULES:
        target: Any = torch_ns
        for part in sub.split("."):
            target = getattr(target, part, None)
        if isinstance(target, ModuleType):
            aliases[f"torch.{sub}"] = target
    saved = {name: sys.modules.get(name) for name in aliases}
    name = f"realworld_{torch_ns.__name__}.{file}"
    try:
        sys.modules.update(aliases)
        spec = importlib.util.spec_from_file_location(name, HERE / "sources" / f"{file}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    finally:
        for alias, previous in saved.items():
            if previous is None:
                sys.modules.pop(alias, None)
            else:
                sys.modules[alias] = previous
    _LOADED[key] = module
    return module


def state_spec(
    name: str, shape: list[int], dtype: str, seed: int, is_parameter: bool
) -> dict | None:
    """How a module's state entry is filled: a seeded tensor, or None to keep its value."""
    if not dtype.startswith("float"):
        return None
    spec: dict[str, Any] = {"shape": shape, "dtype": dtype, "seed": seed}
    leaf = name.rsplit(".", 1)[-1]
    if leaf == "running_var":
        return {"gen": {"kind": "uniform", "low": 0.5, "high": 1.5, **spec}}
    if leaf == "running_mean":
        return {"gen": {"kind": "normal", "std": 0.1, **spec}}
    if not is_parameter:
        return None
    fan_in = math.prod(shape[1:]) if len(shape) >= 2 else 4
    return {"gen": {"kind": "normal", "std": 1.0 / math.sqrt(max(fan_in, 1)), **spec}}


def construct(item: dict, torch_ns: ModuleType, source: ModuleType) -> Any:
    """The eager object an item's constructor arguments make (modules and methods)."""
    factory = getattr(source, item["name"])
    args = [decode(a, torch_ns, source) for a in item["args"]]
    kwargs = {k: decode(v, torch_ns, source) for k, v in item["kwargs"].items()}
    return factory(*args, **kwargs)


def load_state(module: Any, state: dict, torch_ns: ModuleType) -> None:
    """Load a recorded state (encoded values; missing entries keep their value)."""
    if not state:
        return
    current = module.state_dict()
    full = OrderedDict(
        (k, decode(state[k], torch_ns) if k in state else v) for k, v in current.items()
    )
    metadata = getattr(current, "_metadata", None)
    if metadata is not None:  # the versions a module's `_load_from_state_dict` may check
        full._metadata = metadata  # type: ignore[attr-defined]
    module.load_state_dict(full)


def build(item: dict, torch_ns: ModuleType, source: ModuleType, state: dict | None = None) -> Any:
    """The callable an item runs: scripted with `torch_ns.jit.script`."""
    script = torch_ns.jit.script
    kind = item["kind"]
    if kind == "function":
        return script(getattr(source, item["name"]))
    if kind == "module":
        module = construct(item, torch_ns, source)
        load_state(module, state or {}, torch_ns)
        module.eval()
        if isinstance(module, torch_ns.jit.ScriptModule):
            return module
        return script(module)
    if kind == "method":
        cls = getattr(source, item["name"])
        if torch_ns.__name__ == "torch":
            # as a decorator at the class's definition would: names resolve in its module
            # (called from here, torch.jit.script would resolve them in this frame)
            script(cls, _rcb=lambda name: getattr(source, name, getattr(builtins, name, None)))
        else:
            script(cls)
        instance = construct(item, torch_ns, source)
        return getattr(instance, item["method"])
    raise ValueError(f"unknown item kind {kind!r}")


def eager_module(item: dict, torch_ns: ModuleType, source: ModuleType, state: dict | None) -> Any:
    """The item's eager module (state loaded, eval mode), for tracing."""
    module = construct(item, torch_ns, source)
    load_state(module, state or {}, torch_ns)
    module.eval()
    return module


def inputs(
    case: dict, torch_ns: ModuleType, source: ModuleType
) -> tuple[list[Any], dict[str, Any]]:
    args = [decode(x, torch_ns, source) for x in case["inputs"]]
    kwargs = {k: decode(v, torch_ns, source) for k, v in case.get("kwargs", {}).items()}
    return args, kwargs


def call(fn: Any, case: dict, torch_ns: ModuleType, source: ModuleType) -> Any:
    args, kwargs = inputs(case, torch_ns, source)
    return fn(*args, **kwargs)


def all_tensors(value: Any, torch_ns: ModuleType) -> bool:
    """Whether a (decoded) input is a tensor or a tuple/list of them, as tracing takes."""
    if isinstance(value, torch_ns.Tensor):
        return True
    if isinstance(value, (tuple, list)) and value:
        return all(all_tensors(v, torch_ns) for v in value)
    return False
