"""Builtin functions written in the script language, inlined where they match.

TorchScript defines a few operators for a scalar on the left of a tensor
(`2 * x`, `1.0 - x`), and `key in s` for strings, as small script functions; a call that matches one is
replaced by its body, so `0.5 * x` becomes `aten::mul(x, 0.5)` with a
`<string>` source range, exactly as in TorchScript's graphs. They are
compiled from source by the frontend's own parser, once per scalar type.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_TEMPLATE = """
def mul(a : {scalar}, b : Tensor) -> Tensor:
  return b * a
def add(a : {scalar}, b : Tensor) -> Tensor:
  return b + a
def ne(a : {scalar}, b : Tensor) -> Tensor:
  return b != a
def eq(a : {scalar}, b : Tensor) -> Tensor:
  return b == a
def sub(a : {scalar}, b : Tensor) -> Tensor:
  return torch.neg(b) + a
def div(a : {scalar}, b : Tensor) -> Tensor:
  return torch.reciprocal(b) * a
def lt(a : {scalar}, b : Tensor) -> Tensor:
  return b > a
def le(a : {scalar}, b : Tensor) -> Tensor:
  return b >= a
def gt(a : {scalar}, b : Tensor) -> Tensor:
  return b < a
def ge(a : {scalar}, b : Tensor) -> Tensor:
  return b <= a
"""
# Python's `key in s` for strings; no operator takes a str, so TorchScript defines it here
_STRING_TEMPLATE = """
def __contains__(self : str, key : str) -> bool:
  return self.find(key, 0, len(self)) != -1
"""
_NAMES = frozenset(["mul", "add", "ne", "eq", "sub", "div", "lt", "le", "gt", "ge", "__contains__"])
_cache: dict[str, list[Any]] | None = None
_compiling = False


def reflected_functions(symbol: str, compile_source: Callable[[str], list[Any]]) -> list[Any]:
    """The builtin script functions named like `symbol` (`aten::mul`): candidates for a call.

    `compile_source` compiles the definitions of a source text (once, on first use) and
    returns the compiled functions.
    """
    global _cache, _compiling
    if not symbol.startswith("aten::"):
        return []
    name = symbol[6:]
    if name not in _NAMES or _compiling:
        return []
    if _cache is None:
        _compiling = True
        try:
            _cache = _compile_all(compile_source)
        finally:
            _compiling = False
    return _cache.get(name, [])


def _compile_all(compile_source: Callable[[str], list[Any]]) -> dict[str, list[Any]]:
    out: dict[str, list[Any]] = {}
    for scalar in ("float", "int", "complex"):
        for fn in compile_source(_TEMPLATE.format(scalar=scalar)):
            out.setdefault(fn.name, []).append(fn)
    for fn in compile_source(_STRING_TEMPLATE):
        out.setdefault(fn.name, []).append(fn)
    return out
