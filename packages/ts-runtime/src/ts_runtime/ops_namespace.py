"""`ops.<namespace>.<name>`: any registered operator as a Python function, as `torch.ops` offers.

    import ts_runtime as torch
    torch.ops.aten.add(x, y)
    torch.ops.my_ns.scale(x, 3.0)   # a third-party operator: its package is found by entry point

Each function resolves the overload from its arguments, as eager calls do,
and scripted code that calls it compiles to the operator's node.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ts_schema import registry

from .ops.dispatch import eager_function


class OperatorNamespace:
    """The operators of one namespace (`ops.aten`); attributes are operator functions."""

    def __init__(self, namespace: str) -> None:
        self._namespace = namespace
        self._functions: dict[str, Callable[..., Any]] = {}

    def __getattr__(self, name: str) -> Callable[..., Any]:
        if name.startswith("__"):
            raise AttributeError(name)
        fn = self._functions.get(name)
        if fn is None:
            qualified = f"{self._namespace}::{name}"
            registry.lookup(qualified)  # raises UnknownOperatorError naming the namespace
            fn = self._functions[name] = eager_function(qualified, name)
        return fn

    def __repr__(self) -> str:
        return f"<operators of namespace {self._namespace!r}>"


class Operators:
    """`ops`: one `OperatorNamespace` per namespace, made on first use."""

    def __init__(self) -> None:
        self._namespaces: dict[str, OperatorNamespace] = {}

    def __getattr__(self, namespace: str) -> OperatorNamespace:
        if namespace.startswith("__"):
            raise AttributeError(namespace)
        ns = self._namespaces.get(namespace)
        if ns is None:
            ns = self._namespaces[namespace] = OperatorNamespace(namespace)
        return ns

    def __repr__(self) -> str:
        return "<tsjit operators: ops.<namespace>.<name>>"


ops = Operators()
