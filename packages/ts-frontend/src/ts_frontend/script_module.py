"""Script modules written the old way: `torch.jit.ScriptModule` subclasses and `@script_method`.

    class LSTMLayer(torch.jit.ScriptModule):
        __constants__ = ["layers"]
        def __init__(self, ...):
            super().__init__()
            ...                                   # an nn.Module while it is built
        @torch.jit.script_method
        def forward(self, input, state): ...      # compiled once __init__ has run

When an instance's `__init__` returns, its `@script_method` methods (and what
they call) are compiled as a scripted module's are: the instance's
parameters, buffers, submodules and constants (`__constants__`, `Final`)
make its ClassType. Calling a script method, `forward` through `m(x)`
included, runs the compiled method; `.graph` and `.code` are the compiled
forward's. The instance is still the Python module it was built as (its
tensors are the compiled module's), so `state_dict`, `parameters()`,
`train()` and `eval()` keep working on both.

`isinstance(x, ScriptModule)` also holds for every module `script()` made,
as it does for TorchScript's `RecursiveScriptModule`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import ts_runtime

from .module_compiler import script_module_methods
from .script import default_compiler


class ScriptMethodStub:
    """What `@script_method` leaves in the class: the Python method, compiled per instance."""

    _ts_script_method = True

    def __init__(self, fn: Callable[..., Any]) -> None:
        self.original_fn = fn
        functools.update_wrapper(self, fn)  # type: ignore[arg-type]

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        if instance is None:
            return self
        actual = instance.__dict__.get("_actual_script_module")
        if actual is None:
            raise RuntimeError(
                f"script method '{self.original_fn.__name__}' is called before "
                f"{type(instance).__name__}.__init__ finished"
            )
        return getattr(actual, self.original_fn.__name__)


def script_method(fn: Callable[..., Any]) -> Any:
    """Compile this method of a `ScriptModule` subclass when an instance is built."""
    return ScriptMethodStub(fn)


class _ScriptModuleMeta(type):
    """Compiles the script methods once an instance is built; `isinstance` as TorchScript."""

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        obj = super().__call__(*args, **kwargs)
        if isinstance(obj, ScriptModule) and "_actual_script_module" not in obj.__dict__:
            obj._compile_script_methods()
        return obj

    def __instancecheck__(cls, obj: Any) -> bool:
        if cls is ScriptModule and isinstance(obj, ts_runtime.ScriptModule):
            return True
        return super().__instancecheck__(obj)


class ScriptModule(ts_runtime.nn.Module, metaclass=_ScriptModuleMeta):
    """Base class of modules whose `@script_method` methods are compiled (see the module doc)."""

    def _compile_script_methods(self) -> None:
        names = [
            name
            for klass in type(self).__mro__
            for name, member in vars(klass).items()
            if getattr(member, "_ts_script_method", False)
        ]
        actual = script_module_methods(self, default_compiler(), sorted(set(names)))
        self.__dict__["_actual_script_module"] = actual

    def __getattr__(self, name: str) -> Any:
        try:
            return super().__getattr__(name)
        except AttributeError:
            actual = self.__dict__.get("_actual_script_module")
            if actual is None:
                raise
            return getattr(actual, name)

    def train(self, mode: bool = True) -> ScriptModule:
        super().train(mode)
        actual = self.__dict__.get("_actual_script_module")
        if actual is not None:
            actual.train(mode)
        return self

    @property
    def graph(self) -> Any:
        return self.__dict__["_actual_script_module"].graph

    @property
    def code(self) -> str:
        return self.__dict__["_actual_script_module"].code
