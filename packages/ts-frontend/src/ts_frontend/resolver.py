"""Resolvers: what a free name of the program means in Python.

A function's free names are its closure variables, then its globals, then
Python's builtins, exactly where Python would look. A source string has no
function, so it resolves names in a namespace the caller gives (by default:
`math`, the `typing` names and the torch namespace as `torch`). A resolver
answers with the Python object; what the object means in compiled code is
`python_values.to_sugared`'s business.
"""

from __future__ import annotations

import builtins
import math
import typing
from collections.abc import Callable, Mapping
from typing import Any

MISSING: Any = object()


class Resolver:
    """Looks up free names."""

    def lookup(self, name: str) -> Any:
        """The Python object `name` refers to, or `MISSING`."""
        raise NotImplementedError


class FunctionResolver(Resolver):
    """Closure variables, globals and builtins of a Python function."""

    def __init__(self, fn: Callable[..., Any]) -> None:
        fn = getattr(fn, "__func__", fn)
        code = fn.__code__
        self.closure: dict[str, Any] = {}
        if fn.__closure__:
            for name, cell in zip(code.co_freevars, fn.__closure__, strict=True):
                try:
                    self.closure[name] = cell.cell_contents
                except ValueError:  # an empty cell: the variable is not bound yet
                    pass
        self.globals: Mapping[str, Any] = fn.__globals__

    def lookup(self, name: str) -> Any:
        if name in self.closure:
            return self.closure[name]
        if name in self.globals:
            return self.globals[name]
        return getattr(builtins, name, MISSING)


def default_namespace() -> dict[str, Any]:
    import ts_runtime

    ns: dict[str, Any] = {"math": math, "torch": ts_runtime, "Tensor": ts_runtime.Tensor}
    for name in ("List", "Dict", "Tuple", "Optional", "Union", "Any", "Final"):
        ns[name] = getattr(typing, name)
    return ns


class NamespaceResolver(Resolver):
    """Names of a mapping (a module's globals, or one the caller builds), then builtins."""

    def __init__(self, namespace: Mapping[str, Any] | None = None) -> None:
        self.namespace = default_namespace() if namespace is None else namespace

    def lookup(self, name: str) -> Any:
        if name in self.namespace:
            return self.namespace[name]
        return getattr(builtins, name, MISSING)


class ChainedResolver(Resolver):
    """Names a compilation unit defines first (`local` answers MISSING for others), then
    another resolver."""

    def __init__(self, local: Callable[[str], Any], fallback: Resolver) -> None:
        self.local = local
        self.fallback = fallback

    def lookup(self, name: str) -> Any:
        found = self.local(name)
        if found is not MISSING:
            return found
        return self.fallback.lookup(name)
