"""Interned qualified names: `aten::add`, `prim::Constant`, `attr::value`.

A `Symbol` is a `str` (so `node.kind == "aten::add"` works and hashing is
cheap) that is interned: equal symbols are the same object. The universe of
namespaces is open; `Namespace` objects give attribute access to symbols in a
namespace (`prim.If`, `aten.add`).
"""

from __future__ import annotations

from typing import ClassVar


class Symbol(str):
    """An interned `namespace::name` string."""

    __slots__ = ()
    _table: ClassVar[dict[str, Symbol]] = {}

    def __new__(cls, qualified: str) -> Symbol:
        sym = cls._table.get(qualified)
        if sym is None:
            if "::" not in qualified:
                raise ValueError(f"symbol {qualified!r} has no namespace (expected 'ns::name')")
            sym = super().__new__(cls, qualified)
            cls._table[str(qualified)] = sym
        return sym

    @classmethod
    def from_parts(cls, namespace: str, name: str) -> Symbol:
        return cls(f"{namespace}::{name}")

    @property
    def ns(self) -> str:
        return self.partition("::")[0]

    @property
    def name(self) -> str:
        """The unqualified name (`add` for `aten::add`)."""
        return self.partition("::")[2]

    def to_qual_string(self) -> str:
        return str.__str__(self)

    def to_unqual_string(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Symbol({str.__repr__(self)})"

    def __reduce__(self):  # keep interning across pickling
        return (Symbol, (str(self),))


class Namespace:
    """Attribute access to the symbols of one namespace: `prim.Constant`.

    A symbol is made on its first access and stored as an instance attribute,
    so later accesses (passes test `node.kind is prim.Constant` constantly)
    are plain attribute lookups that never reach `__getattr__`.
    """

    def __init__(self, ns: str) -> None:
        self.__dict__["__namespace"] = ns  # "__" names are never symbols (see __getattr__)

    def __getattr__(self, name: str) -> Symbol:
        if name.startswith("__"):
            raise AttributeError(name)
        sym = Symbol(f"{self.__dict__['__namespace']}::{name}")
        self.__dict__[name] = sym
        return sym

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"symbols of {self!r} cannot be assigned")

    def __getitem__(self, name: str) -> Symbol:
        return getattr(self, name)

    def __repr__(self) -> str:
        return f"Namespace({self.__dict__['__namespace']!r})"


aten = Namespace("aten")
prim = Namespace("prim")
attr = Namespace("attr")
onnx = Namespace("onnx")
