"""Resolvers: what a free name of the program means in Python.

A function's free names are its closure variables, then its globals, then
Python's builtins, exactly where Python would look. A source string has no
function, so it resolves names in a namespace the caller gives (by default:
`math`, the `typing` names and the torch namespace as `torch`).
"""

from __future__ import annotations

import builtins
import math
import typing
from collections.abc import Callable, Mapping
from typing import Any

from ts_ir import SourceRange

from .python_values import to_sugared
from .sugared_value import SugaredValue

MISSING: Any = object()


class Resolver:
    """Looks up free names; `resolve` turns the Python object into a sugared value."""

    def lookup(self, name: str) -> Any:
        """The Python object `name` refers to, or `MISSING`."""
        raise NotImplementedError

    def resolve(self, name: str, loc: SourceRange) -> SugaredValue | None:
        obj = self.lookup(name)
        if obj is MISSING:
            return None
        return to_sugared(obj, loc, name)


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
    """Names defined by a compilation unit first, then another resolver."""

    def __init__(self, local: Callable[[str], SugaredValue | None], fallback: Resolver) -> None:
        self.local = local
        self.fallback = fallback

    def lookup(self, name: str) -> Any:
        return self.fallback.lookup(name)

    def resolve(self, name: str, loc: SourceRange) -> SugaredValue | None:
        found = self.local(name)
        if found is not None:
            return found
        return self.fallback.resolve(name, loc)
