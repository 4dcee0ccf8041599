"""ts-serialize: tsjit's archives, and TorchScript's `.pt` archives loaded without pickle.

    import ts_serialize

    ts_serialize.save(scripted_module, "model.tsj", extra_files={"meta.json": b"{}"})
    m = ts_serialize.load("model.tsj")            # tensors memory-mapped, code compiled
    ts_serialize.save({"w": tensor}, "state.tsj")  # tensors and containers of them too

See docs/serialization.md for the format. Loading never executes anything
from the archive: code is compiled by the frontend, tensors are views of
the file checked against its size, and every error is an `ArchiveError`.
"""

from __future__ import annotations

from typing import Any

from .container import DEFAULT_LIMITS, FORMAT_VERSION, Limits
from .errors import (
    ArchiveError,
    ForbiddenGlobalError,
    MissingOperatorError,
    SaveError,
    UnsupportedArchiveError,
)
from .graph_compare import graph_difference, structure
from .loading import LoadArgumentError, extra_file_names, load
from .writer import save

__all__ = [
    "DEFAULT_LIMITS",
    "FORMAT_VERSION",
    "ArchiveError",
    "ForbiddenGlobalError",
    "Limits",
    "LoadArgumentError",
    "MissingOperatorError",
    "SaveError",
    "UnsupportedArchiveError",
    "extra_file_names",
    "graph_difference",
    "load",
    "save",
    "structure",
]


def _install_methods() -> None:
    """`ScriptModule.save(f)` and `ScriptFunction.save(f)`, as TorchScript's objects have."""
    import ts_frontend
    import ts_runtime

    def save_method(
        self: Any, f: Any, *, extra_files: Any = None, _extra_files: Any = None
    ) -> None:
        save(self, f, extra_files=extra_files if extra_files is not None else _extra_files)

    save_method.__doc__ = "Save this scripted program to `f` (see `ts_serialize.save`)."
    classes = [ts_runtime.ScriptModule, ts_frontend.ScriptFunction]
    if hasattr(ts_frontend, "ScriptModule"):  # `torch.jit.ScriptModule` subclasses
        classes.append(ts_frontend.ScriptModule)
    for cls in classes:
        if "save" not in cls.__dict__:
            cls.save = save_method  # type: ignore[attr-defined,union-attr]


_install_methods()
