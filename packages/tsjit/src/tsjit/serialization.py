"""`tsjit.save`/`tsjit.load` and `tsjit.jit.save`/`tsjit.jit.load`, as torch's.

`torch.jit.save(m, f, _extra_files=...)` takes a scripted module or function;
`torch.save(obj, f)` takes tensors and containers of them (a state dict).
Both write a tsjit archive (docs/serialization.md); both loaders read tsjit
archives and TorchScript's `.pt` zip archives, never running pickle.
"""

from __future__ import annotations

from typing import Any

import ts_runtime
import ts_serialize
from ts_frontend import ScriptFunction


def jit_save(m: Any, f: Any, _extra_files: dict[str, Any] | None = None, **kwargs: Any) -> None:
    """Save a scripted module or function (`torch.jit.save`)."""
    compiled = getattr(m, "__dict__", {}).get("_actual_script_module", m)
    if not isinstance(compiled, (ts_runtime.ScriptModule, ScriptFunction)):
        raise ts_serialize.SaveError(
            f"jit.save expects a scripted module or function, not {type(m).__name__} "
            "(use tsjit.save for tensors and state dicts)"
        )
    extra = kwargs.pop("extra_files", None) if _extra_files is None else _extra_files
    if kwargs:
        raise TypeError(f"jit.save() got unexpected keyword arguments {sorted(kwargs)}")
    ts_serialize.save(m, f, extra_files=extra)


def jit_load(
    f: Any,
    map_location: Any = None,
    _extra_files: dict[str, Any] | None = None,
    **kwargs: Any,
) -> Any:
    """Load a scripted program from a tsjit archive or a TorchScript `.pt` file (`torch.jit.load`)."""
    extra = kwargs.pop("extra_files", None) if _extra_files is None else _extra_files
    return ts_serialize.load(f, map_location=map_location, extra_files=extra, **kwargs)


def save(obj: Any, f: Any, **kwargs: Any) -> None:
    """Save tensors, containers of them, or a scripted program (`torch.save`)."""
    ts_serialize.save(obj, f, **kwargs)


def load(f: Any, map_location: Any = None, **kwargs: Any) -> Any:
    """Load what `save` wrote (or a TorchScript `.pt` archive) (`torch.load`).

    `weights_only` is accepted for compatibility: loading never runs code either way.
    """
    kwargs.pop("weights_only", None)
    return ts_serialize.load(f, map_location=map_location, **kwargs)
