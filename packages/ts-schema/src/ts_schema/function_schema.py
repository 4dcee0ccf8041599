"""The schema object model: `FunctionSchema`, `Argument`, `AliasInfo`.

A schema is what an operator declares about itself, as in PyTorch's
`c10::FunctionSchema`:

    aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor

Schemas are immutable and hashable. `str(schema)` prints the text exactly as
PyTorch prints it, so printing a parsed schema gives back PyTorch's text.

Each argument has two types: `real_type` as declared, and `type`, the type
values have at run time (PyTorch's "fake" type): `SymInt`, `ScalarType`,
`Layout` and `MemoryFormat` are ints there. Overload matching uses `type`;
printing uses `real_type`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ts_ir import (
    AwaitType,
    ClassType,
    Device,
    DictType,
    FutureType,
    InterfaceType,
    ListType,
    OptionalType,
    RRefType,
    StringType,
    Symbol,
    TensorType,
    TupleType,
    Type,
    UnionType,
    VarType,
    format_ivalue,
    quote_string,
)

WILDCARD = "*"


class _Immutable:
    """Instances are built once in `__init__` (through `object.__setattr__`) and never change."""

    __slots__ = ()

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")


_set = object.__setattr__


# ---------------------------------------------------------------------------
# Alias annotations


class AliasInfo(_Immutable):
    """An alias annotation: `(a)`, `(a!)`, `(a -> *)`, `(*)`, and those of contained types.

    `before_set` holds the alias sets a value belongs to when the operator is
    called, `after_set` those it belongs to afterwards (they differ for
    `(a -> *)`: the value escapes into the wildcard set). `is_write` says the
    operator writes to it. `contained_types` annotate the elements of a
    container: `Tensor(a)[]` is a list whose elements are in set `a`.
    """

    __slots__ = ("_after_order", "_before_order", "_hash", "contained_types", "is_write")
    _before_order: tuple[str, ...]
    _after_order: tuple[str, ...]
    _hash: int | None
    is_write: bool
    contained_types: tuple[AliasInfo, ...]

    def __init__(
        self,
        before: Iterable[str] = (),
        after: Iterable[str] | None = None,
        *,
        is_write: bool = False,
        contained_types: Iterable[AliasInfo] = (),
    ) -> None:
        before_order = tuple(dict.fromkeys(before))
        _set(self, "_before_order", before_order)
        _set(self, "_after_order", before_order if after is None else tuple(dict.fromkeys(after)))
        _set(self, "is_write", bool(is_write))
        _set(self, "contained_types", tuple(contained_types))
        _set(self, "_hash", None)

    @property
    def before_set(self) -> frozenset[str]:
        return frozenset(self._before_order)

    @property
    def after_set(self) -> frozenset[str]:
        return frozenset(self._after_order)

    @property
    def is_wildcard_before(self) -> bool:
        return WILDCARD in self._before_order

    @property
    def is_wildcard_after(self) -> bool:
        return WILDCARD in self._after_order

    def with_contained(self, info: AliasInfo) -> AliasInfo:
        return AliasInfo(
            self._before_order,
            self._after_order,
            is_write=self.is_write,
            contained_types=(*self.contained_types, info),
        )

    def __str__(self) -> str:
        """PyTorch's form: `(a|b!)`, `(a -> *)`; sets print in the order they were written."""
        text = "(" + "|".join(self._before_order)
        if self.is_write:
            text += "!"
        if self.before_set != self.after_set:
            text += " -> " + "|".join(self._after_order)
        return text + ")"

    def _key(self) -> tuple:
        return (self.before_set, self.after_set, self.is_write, self.contained_types)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, AliasInfo) and self._key() == other._key()

    def __hash__(self) -> int:
        h = self._hash
        if h is None:
            h = hash(self._key())
            _set(self, "_hash", h)
        return h

    def __repr__(self) -> str:
        contained = (
            f", contained_types={list(self.contained_types)!r}" if self.contained_types else ""
        )
        return (
            f"AliasInfo(before={sorted(self.before_set)}, after={sorted(self.after_set)}, "
            f"is_write={self.is_write}{contained})"
        )


# ---------------------------------------------------------------------------
# Arguments

_MISSING: Any = object()


class Argument(_Immutable):
    """One argument or return of a schema.

    `type` is the type values have (`int` for a declared `SymInt`,
    `ScalarType`, `Layout` or `MemoryFormat`); `real_type` is the type as
    declared. `N` is the size of a fixed-size list (`int[2]`), which also
    accepts a single int. `is_out` marks a keyword-only argument the
    operator writes to (an `out=` argument).
    """

    __slots__ = (
        "N",
        "_hash",
        "alias_info",
        "default_value",
        "has_default_value",
        "is_out",
        "kwarg_only",
        "name",
        "real_type",
        "type",
    )
    name: str
    type: Type
    real_type: Type
    N: int | None
    default_value: Any
    has_default_value: bool
    kwarg_only: bool
    alias_info: AliasInfo | None
    is_out: bool
    _hash: int | None

    def __init__(
        self,
        name: str,
        type: Type,
        *,
        real_type: Type | None = None,
        N: int | None = None,
        default_value: Any = _MISSING,
        kwarg_only: bool = False,
        alias_info: AliasInfo | None = None,
    ) -> None:
        _set(self, "name", name)
        _set(self, "type", type)
        _set(self, "real_type", type if real_type is None else real_type)
        _set(self, "N", N)
        has_default = default_value is not _MISSING
        _set(self, "has_default_value", has_default)
        _set(self, "default_value", default_value if has_default else None)
        _set(self, "kwarg_only", bool(kwarg_only))
        _set(self, "alias_info", alias_info)
        _set(self, "is_out", bool(kwarg_only) and alias_info is not None and alias_info.is_write)
        _set(self, "_hash", None)

    @property
    def is_write(self) -> bool:
        """Whether the operator writes to this argument (its alias annotation has `!`)."""
        return self.alias_info is not None and self.alias_info.is_write

    def __str__(self) -> str:
        return format_argument(self)

    def _key(self) -> tuple:
        return (
            self.name,
            self.type,
            self.real_type,
            self.N,
            self.has_default_value,
            _freeze(self.default_value),
            self.kwarg_only,
            self.alias_info,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Argument) and self._key() == other._key()

    def __hash__(self) -> int:
        h = self._hash
        if h is None:
            h = hash(self._key())
            _set(self, "_hash", h)
        return h

    def __repr__(self) -> str:
        return f"Argument({format_argument(self)!r})"


def _freeze(value: Any) -> Any:
    """A hashable stand-in for a default value; floats keep their type (1 != 1.0 here)."""
    if isinstance(value, list):
        return ("list", tuple(_freeze(v) for v in value))
    if isinstance(value, tuple):
        return ("tuple", tuple(_freeze(v) for v in value))
    return (type(value).__name__, value)


# ---------------------------------------------------------------------------
# Schemas


class FunctionSchema(_Immutable):
    """An operator's (or a compiled function's) signature.

    `name` is the qualified name (`aten::add`, a `Symbol`; a plain string for
    a function without a namespace), `overload_name` tells overloads apart
    (`Tensor`). `is_vararg`/`is_varret` mark a trailing `...` among the
    arguments/returns.
    """

    __slots__ = (
        "_hash",
        "_text",
        "arguments",
        "is_vararg",
        "is_varret",
        "name",
        "overload_name",
        "returns",
    )
    name: str
    overload_name: str
    arguments: tuple[Argument, ...]
    returns: tuple[Argument, ...]
    is_vararg: bool
    is_varret: bool
    _text: str | None
    _hash: int | None

    def __init__(
        self,
        name: str,
        overload_name: str = "",
        arguments: Iterable[Argument] = (),
        returns: Iterable[Argument] = (),
        *,
        is_vararg: bool = False,
        is_varret: bool = False,
    ) -> None:
        _set(self, "name", Symbol(name) if "::" in name else name)
        _set(self, "overload_name", overload_name)
        _set(self, "arguments", tuple(arguments))
        _set(self, "returns", tuple(returns))
        _set(self, "is_vararg", bool(is_vararg))
        _set(self, "is_varret", bool(is_varret))
        _set(self, "_text", None)
        _set(self, "_hash", None)

    @property
    def namespace(self) -> str:
        return self.name.partition("::")[0] if "::" in self.name else ""

    @property
    def key(self) -> str:
        """`aten::add.Tensor`, or `aten::add` for the overload with no name."""
        return f"{self.name}.{self.overload_name}" if self.overload_name else str(self.name)

    @property
    def is_mutable(self) -> bool:
        """Whether the operator writes to any of its arguments."""
        return any(a.alias_info is not None and a.alias_info.is_write for a in self.arguments)

    def argument_index_with_name(self, name: str) -> int | None:
        for i, arg in enumerate(self.arguments):
            if arg.name == name:
                return i
        return None

    def with_name(self, name: str, overload_name: str | None = None) -> FunctionSchema:
        return FunctionSchema(
            name,
            self.overload_name if overload_name is None else overload_name,
            self.arguments,
            self.returns,
            is_vararg=self.is_vararg,
            is_varret=self.is_varret,
        )

    def __str__(self) -> str:
        text = self._text
        if text is None:
            text = format_schema(self)
            _set(self, "_text", text)
        return text

    def _key(self) -> tuple:
        return (
            self.name,
            self.overload_name,
            self.arguments,
            self.returns,
            self.is_vararg,
            self.is_varret,
        )

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        return isinstance(other, FunctionSchema) and self._key() == other._key()

    def __hash__(self) -> int:
        h = self._hash
        if h is None:
            h = hash(self._key())
            _set(self, "_hash", h)
        return h

    def __repr__(self) -> str:
        return f"FunctionSchema({str(self)!r})"


# ---------------------------------------------------------------------------
# Printing, as c10's operator<< for FunctionSchema and Argument


def format_type(t: Type) -> str:
    """A type as schemas write it: `Tensor?[]`, `Dict(str, t)`, `Future(t)`, `(int, str)`."""
    if isinstance(t, TensorType):
        return "Tensor"
    if isinstance(t, ListType):
        return format_type(t.element) + "[]"
    if isinstance(t, OptionalType):
        return format_type(t.element) + "?"
    if isinstance(t, TupleType):
        return "(" + ", ".join(format_type(e) for e in t.elements) + ")"
    if isinstance(t, DictType):
        return f"Dict({format_type(t.key)}, {format_type(t.value)})"
    if isinstance(t, FutureType):
        return f"Future({format_type(t.element)})"
    if isinstance(t, AwaitType):
        return f"Await({format_type(t.element)})"
    if isinstance(t, RRefType):
        return f"RRef({format_type(t.element)})"
    if isinstance(t, UnionType):
        return "Union(" + ", ".join(format_type(e) for e in t.types) + ")"
    if isinstance(t, (VarType, ClassType, InterfaceType)):
        return str(t)
    return str(t)


def format_argument(arg: Argument) -> str:
    real = arg.real_type
    is_opt = isinstance(real, OptionalType)
    unopt = real.element if isinstance(real, OptionalType) else real
    alias = arg.alias_info
    if isinstance(unopt, ListType):
        inner = alias.contained_types[0] if alias is not None and alias.contained_types else None
        text = _annotated(unopt.element, inner) + "[" + ("" if arg.N is None else str(arg.N)) + "]"
    else:
        text = format_type(unopt)
    if alias is not None and alias._before_order:
        text += str(alias)
    if is_opt:
        text += "?"
    if arg.name:
        text += " " + arg.name
    if arg.has_default_value:
        text += "=" + format_default(arg)
    return text


def _annotated(t: Type, alias: AliasInfo | None) -> str:
    """A list element's type with its alias annotation, at every level of nesting
    (`Tensor(a!)[](b!)` for a list of lists)."""
    if isinstance(t, ListType):
        inner = alias.contained_types[0] if alias is not None and alias.contained_types else None
        text = _annotated(t.element, inner) + "[]"
    else:
        text = format_type(t)
    if alias is not None and alias._before_order:
        text += str(alias)
    return text


def format_default(arg: Argument) -> str:
    """The default as PyTorch prints it: `1`, `1.`, `None`, `"mean"`, `[0, 1]`; a fixed-size int
    list whose entries are all equal prints as one int (`int[2] stride=1`)."""
    value = arg.default_value
    real = arg.real_type
    unopt = real.element if isinstance(real, OptionalType) else real
    if isinstance(value, str) and isinstance(unopt, StringType):
        return quote_string(value)
    if (
        isinstance(real, ListType)
        and isinstance(value, list)
        and real.element.kind == "IntType"
        and len(value) > 1
        and all(v == value[0] for v in value)
    ):
        return format_ivalue(value[0])
    if isinstance(value, Device):
        return str(value)
    return format_ivalue(value)


def format_schema(schema: FunctionSchema) -> str:
    parts: list[str] = []
    seen_kwarg_only = False
    for arg in schema.arguments:
        text = format_argument(arg)
        if arg.kwarg_only and not seen_kwarg_only:
            text = "*, " + text
            seen_kwarg_only = True
        parts.append(text)
    if schema.is_vararg:
        parts.append("...")
    head = schema.key + "(" + ", ".join(parts) + ") -> "
    returns = [format_argument(r) for r in schema.returns]
    if schema.is_varret:
        returns.append("...")
    single = len(schema.returns) == 1 and not schema.is_varret
    need_paren = not (single or (not schema.returns and schema.is_varret))
    # `-> ((str, t)[])`: a lone return that starts with `(` is parenthesized so it
    # does not read as a list of returns
    if single and returns[0].startswith("("):
        need_paren = True
    body = ", ".join(returns)
    return head + (f"({body})" if need_paren else body)
