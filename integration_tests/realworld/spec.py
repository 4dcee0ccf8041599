"""How the real-world corpus's items and their inputs are written down (see README.md).

An item names a definition in one of the source files of this folder and how to call it:

    fn("kornia_color", "rgb_to_hsv", case(img(2, 3, 4, 5)), trace=True)
    mod("timm_layers", "Mlp", [8, 16], case(randn(2, 4, 8)))
    meth("torchvision_ops", "BoxCoder", [[10.0, 10.0, 5.0, 5.0]], "decode_single", case(...))

Input values are written in the corpus value encoding (integration_tests/corpus/README.md,
`corpus_values.py`), mostly as `{"gen": ...}` tensors computed from a seed, plus four
forms that need the item's source file: `ref(name)` (a definition of the file),
`obj(name, *args)` (an instance of one of its classes), `namespace(**fields)` (a
configuration object) and `device(name)`.

Seeds are handed out in order, so the same file always writes the same inputs.
"""

from __future__ import annotations

import itertools
from typing import Any

_SEEDS = itertools.count(1)


def _gen(kind: str, shape: tuple[int, ...], dtype: str, **params: Any) -> dict:
    return {
        "gen": {"kind": kind, "shape": list(shape), "dtype": dtype, "seed": next(_SEEDS), **params}
    }


def randn(*shape: int, std: float = 1.0, dtype: str = "float32") -> dict:
    """A tensor of roughly normal values (bounded by 2*sqrt(3)*std)."""
    return _gen("normal", shape, dtype, std=std)


def rand(*shape: int, low: float = 0.0, high: float = 1.0, dtype: str = "float32") -> dict:
    """A tensor of values uniform in [low, high)."""
    return _gen("uniform", shape, dtype, low=low, high=high)


def randint(low: int, high: int, *shape: int, dtype: str = "int64") -> dict:
    return _gen("randint", shape, dtype, low=low, high=high)


def full(*shape: int, value: float = 0.0, dtype: str = "float32") -> dict:
    """A tensor of one value (`torch.zeros`, `torch.ones`): an interval of width 0."""
    if dtype.startswith(("int", "uint")):
        return _gen("randint", shape, dtype, low=int(value), high=int(value) + 1)
    if dtype == "bool":
        return _gen("bool", shape, dtype, p=1.0 if value else 0.0)
    return _gen("uniform", shape, dtype, low=float(value), high=float(value))


def randbool(*shape: int, p: float = 0.5) -> dict:
    return _gen("bool", shape, "bool", p=p)


def img(*shape: int) -> dict:
    """An image-like float tensor in [0, 1)."""
    return rand(*shape)


def tensor(data: Any, dtype: str = "float32") -> dict:
    """A tensor with the given elements (nested lists)."""
    flat: list[Any] = []
    shape: list[int] = []

    def walk(x: Any, depth: int) -> None:
        if isinstance(x, (list, tuple)):
            if len(shape) <= depth:
                shape.append(len(x))
            for y in x:
                walk(y, depth + 1)
        else:
            flat.append(x)

    walk(data, 0)
    if dtype.startswith("float"):
        flat = [float(x) for x in flat]
    return {"tensor": {"dtype": dtype, "shape": shape, "data": flat}}


def boxes(n: int, size: float = 10.0) -> dict:
    """n boxes (x1, y1, x2, y2) with 0 <= x1 < x2 <= size and 0 <= y1 < y2 <= size."""
    return {"boxes": {"n": n, "size": size, "seed": next(_SEEDS)}}


def tup(*items: Any) -> dict:
    return {"tuple": list(items)}


def lst(*items: Any) -> dict:
    return {"list": list(items)}


def dct(*pairs: tuple[Any, Any]) -> dict:
    """A dict of the given (key, value) pairs, in order."""
    return {"dict": [list(p) for p in pairs]}


def dtype(name: str) -> dict:
    return {"dtype": name}


def device(name: str = "cpu") -> dict:
    return {"device": name}


def ref(name: str) -> dict:
    return {"ref": name}


def obj(cls: str, *args: Any) -> dict:
    return {"object": {"class": cls, "args": list(args)}}


def namespace(**fields: Any) -> dict:
    return {"namespace": fields}


def case(*args: Any, **kwargs: Any) -> dict:
    """One call: positional and keyword arguments."""
    out: dict[str, Any] = {"inputs": list(args)}
    if kwargs:
        out["kwargs"] = kwargs
    return out


def fn(file: str, name: str, *cases: dict, trace: bool = False, id: str | None = None) -> dict:
    """A function of `file`, scripted and called on each case."""
    return {
        "id": id or f"{file}.{name}",
        "kind": "function",
        "file": file,
        "name": name,
        "cases": list(cases),
        "trace": trace,
    }


def mod(
    file: str,
    name: str,
    args: list[Any],
    *cases: dict,
    kwargs: dict[str, Any] | None = None,
    trace: bool = False,
    id: str | None = None,
) -> dict:
    """A module made by calling `name(*args, **kwargs)` (a class or a factory function of
    `file`), its state filled from a seed, put in eval mode, scripted and called."""
    return {
        "id": id or f"{file}.{name}",
        "kind": "module",
        "file": file,
        "name": name,
        "args": args,
        "kwargs": kwargs or {},
        "cases": list(cases),
        "trace": trace,
    }


def meth(
    file: str,
    cls: str,
    args: list[Any],
    method: str,
    *cases: dict,
    id: str | None = None,
) -> dict:
    """A method of an instance of the class `cls` (scripted as a class) made with `args`."""
    return {
        "id": id or f"{file}.{cls}.{method}",
        "kind": "method",
        "file": file,
        "name": cls,
        "args": args,
        "kwargs": {},
        "method": method,
        "cases": list(cases),
        "trace": False,
    }
