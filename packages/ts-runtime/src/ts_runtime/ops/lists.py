"""Operators on lists: indexing, slicing, the list methods, `len`, `min`/`max`/`sum`, comparisons.

A TorchScript list is a Python `list`, and a reference: mutating operators
(`aten::append.t`, `aten::_set_item.t`, `aten::sort.int`) change the list
they are given, so every alias of it sees the change, and return what the
schema returns (`append` and `_set_item` return the list itself). Almost
every kernel is the Python list operation, inlined by the interpreter;
Python's exceptions apply (`IndexError` for an index out of range,
`ValueError` from `index` and `remove` when the element is missing).

Lists of tensors compare their elements as TorchScript does: `bool(a == b)`,
without Python's identity shortcut, so a tensor of several elements is
ambiguous (a `RuntimeError`) even when compared with itself, where Python's
`[t].index(t)` would return 0. Sorting them uses `<` the same way, as
Python's sort does. For the same reason `index` and `remove` on a list of
floats compare by value only: a nan is never found, as in TorchScript,
where floats have no identity.
"""

from __future__ import annotations

from ..tensor import Tensor
from .scalars import register

_ELEMENTS = ("int", "float", "bool", "str")

# reading
register("len", ("t", "any"), len, "len({0})")
register("__getitem__", ("t",), lambda xs, i: xs[i], "{0}[{1}]")
register("select", ("t",), lambda xs, i: xs[i], "{0}[{1}]")
register("slice", ("t",), lambda xs, start, end, step: xs[start:end:step], "{0}[{1}:{2}:{3}]")
register("list", ("t",), list, "list({0})")
register("copy", ("t",), lambda xs: xs.copy(), "{0}.copy()")
register("add", ("t",), lambda a, b: a + b, "{0} + {1}")
register("mul", ("left_t", "right_"), lambda a, b: a * b, "{0} * {1}")
register(
    "__contains__",
    ("int_list", "float_list", "str_list"),
    lambda xs, x: x in xs,
    "{1} in {0}",
)
register(
    "index", ("list_int", "list_bool", "list_str"), lambda xs, x: xs.index(x), "{0}.index({1})"
)
register("count", _ELEMENTS, lambda xs, x: xs.count(x), "{0}.count({1})")
register("sorted", (*_ELEMENTS, "Tensor", "any"), sorted, "sorted({0})")
register("eq", tuple(f"{e}_list" for e in _ELEMENTS), lambda a, b: a == b, "{0} == {1}")
register("ne", tuple(f"{e}_list" for e in _ELEMENTS), lambda a, b: a != b, "{0} != {1}")


def float_index(xs: list[float], x: float) -> int:
    for i, y in enumerate(xs):
        if y == x:
            return i
    raise ValueError(f"{x} is not in list")


def float_remove(xs: list[float], x: float) -> None:
    del xs[float_index(xs, x)]


def tensor_index(xs: list[Tensor], x: Tensor) -> int:
    for i, y in enumerate(xs):
        if bool(y == x):
            return i
    raise ValueError("Tensor is not in list")


def tensor_count(xs: list[Tensor], x: Tensor) -> int:
    return sum(1 for y in xs if bool(y == x))


def tensor_remove(xs: list[Tensor], x: Tensor) -> None:
    del xs[tensor_index(xs, x)]


def tensor_lists_equal(a: list[Tensor], b: list[Tensor]) -> bool:
    return len(a) == len(b) and all(bool(x == y) for x, y in zip(a, b, strict=True))


def tensor_lists_differ(a: list[Tensor], b: list[Tensor]) -> bool:
    return not tensor_lists_equal(a, b)


register("index", ("list_float",), float_index)
register("remove", ("float",), float_remove)
register("index", ("list_Tensor",), tensor_index)
register("count", ("Tensor",), tensor_count)
register("remove", ("Tensor",), tensor_remove)
register("eq", ("Tensor_list",), tensor_lists_equal)
register("ne", ("Tensor_list",), tensor_lists_differ)

# reductions: sum keeps the schema's result type for an empty list
register("sum", ("int", "bool"), sum, "sum({0})")
register("sum", ("float",), lambda xs: sum(xs, 0.0), "sum({0}, 0.0)")
register("sum", ("complex",), lambda xs: sum(xs, 0j), "sum({0}, 0j)")
register("all", ("int", "float", "bool"), all, "all({0})")
register("any", ("str", "int", "float", "bool"), any, "any({0})")
register("min", ("self_int", "self_float", "self_bool"), min, "min({0})", namespace="prim")
register("max", ("self_int", "self_float", "self_bool"), max, "max({0})", namespace="prim")
# two lists: the lexicographically smaller (larger) one, itself, not a copy
register("min", ("int_list", "float_list", "bool_list"), min, "min({0}, {1})", namespace="prim")
register("max", ("int_list", "float_list", "bool_list"), max, "max({0}, {1})", namespace="prim")
register("rangelist", ("",), lambda n: list(range(n)), "list(range({0}))", namespace="prim")

# mutation
register("append", ("t",), lambda xs, x: xs.append(x) or xs, "{0}.append({1}) or {0}")
register(
    "_set_item",
    ("t",),
    lambda xs, i, x: xs.__setitem__(i, x) or xs,
    "{0}.__setitem__({1}, {2}) or {0}",
)
register("insert", ("t",), lambda xs, i, x: xs.insert(i, x), "{0}.insert({1}, {2})")
register("pop", ("t",), lambda xs, i: xs.pop(i), "{0}.pop({1})")
register("Delete", ("t",), lambda xs, i: xs.__delitem__(i), "{0}.__delitem__({1})")
register("clear", ("t",), lambda xs: xs.clear(), "{0}.clear()")
register("reverse", ("t",), lambda xs: xs.reverse(), "{0}.reverse()")
register("extend", ("t",), lambda xs, ys: xs.extend(ys), "{0}.extend({1})")
register("add_", ("t",), lambda xs, ys: xs.__iadd__(ys), "{0}.__iadd__({1})")
register("mul_", ("t",), lambda xs, n: xs.__imul__(n), "{0}.__imul__({1})")
register("remove", ("int", "bool", "str"), lambda xs, x: xs.remove(x), "{0}.remove({1})")
register(
    "sort",
    (*_ELEMENTS, "Tensor", "any"),
    lambda xs, reverse: xs.sort(reverse=reverse),
    "{0}.sort(reverse={1})",
)
