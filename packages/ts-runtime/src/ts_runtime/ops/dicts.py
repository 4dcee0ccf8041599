"""Operators on dicts: indexing, the dict methods, `len`, `in`, and the `dict()` constructors.

A TorchScript dict is a Python `dict`, insertion-ordered and a reference:
mutating operators change the dict they are given. Each operator has one
overload per key type (`aten::get.str`, `aten::get.int`, ...,
`aten::get.Tensor`), all with the same kernel. A missing key is a
`KeyError`. `keys`, `values` and `items` return new lists, as TorchScript's
do. `popitem` removes the last item inserted, as Python's does (TorchScript
removes the first).

Tensor keys are hashed by identity, as in TorchScript.
"""

from __future__ import annotations

from .scalars import register

_KEYS = ("str", "int", "bool", "float", "complex", "Tensor")
_DICT_KEYS = tuple(f"Dict_{k}" for k in _KEYS)
_DEFAULT_KEYS = tuple(f"default_{k}" for k in _KEYS)
_DICT_DEFAULT_KEYS = tuple(f"Dict_default_{k}" for k in _KEYS)

# reading
register("__getitem__", _DICT_KEYS, lambda d, k: d[k], "{0}[{1}]")
register("len", _DICT_KEYS, len, "len({0})")
register("__contains__", _KEYS, lambda d, k: k in d, "{1} in {0}")
register("get", _KEYS, lambda d, k: d.get(k), "{0}.get({1})")
register("get", _DEFAULT_KEYS, lambda d, k, default: d.get(k, default), "{0}.get({1}, {2})")
register("keys", _KEYS, list, "list({0})")
register("values", _KEYS, lambda d: list(d.values()), "list({0}.values())")
register("items", _KEYS, lambda d: list(d.items()), "list({0}.items())")

# copies and constructors
register("copy", _DICT_KEYS, lambda d: d.copy(), "{0}.copy()")
register("dict", _DICT_KEYS, dict, "dict({0})")
register("dict", _KEYS, dict, "dict({0})")
register("dict", ("",), dict, "dict()")

# mutation
register("_set_item", _KEYS, lambda d, k, v: d.__setitem__(k, v), "{0}.__setitem__({1}, {2})")
register("setdefault", _KEYS, lambda d, k, v: d.setdefault(k, v), "{0}.setdefault({1}, {2})")
register("pop", _DICT_KEYS, lambda d, k: d.pop(k), "{0}.pop({1})")
register("pop", _DICT_DEFAULT_KEYS, lambda d, k, default: d.pop(k, default), "{0}.pop({1}, {2})")
register("popitem", _KEYS, lambda d: d.popitem(), "{0}.popitem()")
register("Delete", _DICT_KEYS, lambda d, k: d.__delitem__(k), "{0}.__delitem__({1})")
register("clear", _KEYS, lambda d: d.clear(), "{0}.clear()")
register("update", _KEYS, lambda d, other: d.update(other), "{0}.update({1})")
