"""Node attributes: their kinds, checks on set, and how they print.

Attributes are keyed by their unqualified name (`value`, `Subgraph`); a
`Symbol` like `attr::value` is accepted wherever a name is. Each attribute has
a kind, as in TorchScript: `i`, `f`, `c`, `s`, `t`, `g`, `ty`, `ival` and their
list forms `is`, `fs`, `cs`, `ss`, `ts`, `gs`, `tys`.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from .errors import IRError
from .tensor_text import MAX_DISPLAY, format_tensor_values
from .types import Device, Type

if TYPE_CHECKING:
    from .ir import Graph, Node


class AttributeKind(enum.Enum):
    f = "f"
    fs = "fs"
    c = "c"
    cs = "cs"
    i = "i"
    is_ = "is"
    s = "s"
    ss = "ss"
    t = "t"
    ts = "ts"
    g = "g"
    gs = "gs"
    ty = "ty"
    tys = "tys"
    ival = "ival"


def attr_name(name: str) -> str:
    """The unqualified attribute name (`value` for `attr::value`)."""
    return name.rpartition("::")[2] if ":" in name else name


def _is_int(x: Any) -> bool:
    return isinstance(x, int)


def _is_float(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _is_complex(x: Any) -> bool:
    return isinstance(x, (int, float, complex)) and not isinstance(x, bool)


def _list_of(pred: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda xs: isinstance(xs, (list, tuple)) and all(pred(x) for x in xs)


def _is_graph(x: Any) -> bool:
    from .ir import Graph

    return isinstance(x, Graph)


def _normalize(kind: AttributeKind, value: Any) -> Any:
    if kind is AttributeKind.i:
        return int(value)
    if kind is AttributeKind.f:
        return float(value)
    if kind is AttributeKind.c:
        return complex(value)
    if kind is AttributeKind.is_:
        return [int(x) for x in value]
    if kind is AttributeKind.fs:
        return [float(x) for x in value]
    if kind is AttributeKind.cs:
        return [complex(x) for x in value]
    if kind in (AttributeKind.ss, AttributeKind.ts, AttributeKind.gs, AttributeKind.tys):
        return list(value)
    return value


CHECKS: dict[AttributeKind, Callable[[Any], bool]] = {
    AttributeKind.i: _is_int,
    AttributeKind.f: _is_float,
    AttributeKind.c: _is_complex,
    AttributeKind.s: lambda x: isinstance(x, str),
    AttributeKind.t: lambda x: x is not None,
    AttributeKind.g: _is_graph,
    AttributeKind.ty: lambda x: isinstance(x, Type),
    AttributeKind.ival: lambda x: True,
    AttributeKind.is_: _list_of(_is_int),
    AttributeKind.fs: _list_of(_is_float),
    AttributeKind.cs: _list_of(_is_complex),
    AttributeKind.ss: _list_of(lambda x: isinstance(x, str)),
    AttributeKind.ts: _list_of(lambda x: x is not None),
    AttributeKind.gs: _list_of(_is_graph),
    AttributeKind.tys: _list_of(lambda x: isinstance(x, Type)),
}


def check_and_normalize(name: str, kind: AttributeKind, value: Any) -> Any:
    if not CHECKS[kind](value):
        raise IRError(f"attribute '{name}' of kind {kind.value} cannot hold {value!r}")
    return _normalize(kind, value)


# ---------------------------------------------------------------------------
# Printing values the way TorchScript prints them


def format_double(d: float) -> str:
    """IValue's printing of a double: `1.`, `-2.`, `0.5`, `1.0000000000000001e-05`, `inf`."""
    if math.isfinite(d) and abs(d) < 1e10 and d == int(d):
        i = int(d)
        if i == 0 and math.copysign(1.0, d) < 0:
            return "-0."
        return f"{i}."
    if math.isnan(d):
        return "nan"
    if math.isinf(d):
        return "inf" if d > 0 else "-inf"
    return f"{d:.17g}"


def format_complex(c: complex) -> str:
    imag = c.imag
    sign = "-" if imag < 0 or (imag == 0 and math.copysign(1.0, imag) < 0) else "+"
    return f"{format_double(c.real)}{sign}{format_double(abs(imag))}j"


_QUOTE_ESCAPES = {
    "\\": "\\\\", "'": "\\'", '"': '\\"', "\a": "\\a", "\b": "\\b", "\f": "\\f",
    "\n": "\\n", "\r": "\\r", "\t": "\\t", "\v": "\\v",
}  # fmt: skip


def quote_string(s: str) -> str:
    """c10::printQuotedString: double quotes, C escapes, octal for non-printable bytes."""
    out = ['"']
    for ch in s:
        esc = _QUOTE_ESCAPES.get(ch)
        if esc is not None:
            out.append(esc)
        elif " " <= ch <= "~":
            out.append(ch)
        else:
            for byte in ch.encode("utf-8", errors="surrogateescape"):
                out.append(f"\\{byte:03o}")
    out.append('"')
    return "".join(out)


def format_tensor(t: Any) -> str:
    """A tensor as PyTorch's IR printer writes it: one element as `{value}` (C++ default
    float precision); up to ten as ATen prints the tensor on one line
    (` 1  2 [ CPUFloatType{2} ]`, see `tensor_text`); more as `<Tensor>`."""
    try:
        numel = t.numel()
    except AttributeError:
        return "<Tensor>"
    if numel != 1:
        return _format_tensor_elements(t, numel)
    item = t.item() if not hasattr(t, "literal") else t.literal
    if isinstance(item, bool):
        return "{" + str(int(item)) + "}"
    if isinstance(item, float):
        return "{" + _cpp_default_double(item) + "}"
    if isinstance(item, complex):
        return "{" + format_complex(item) + "}"
    return "{" + str(item) + "}"


def _format_tensor_elements(t: Any, numel: int) -> str:
    if numel > MAX_DISPLAY:
        return "<Tensor>"
    if isinstance(t, TensorLiteral):
        if t.text is not None:
            return t.text
        values, shape, scalar_type, device = t.values, t.shape, t.scalar_type, t.device
    else:
        try:
            from .dtypes import ScalarType

            scalar_type = ScalarType(int(t.dtype)).name
            shape = tuple(int(d) for d in t.shape)
            values = _flatten(t.tolist())
            device = getattr(t.device, "type", str(t.device))
        except Exception:  # not a tensor this module can read
            return "<Tensor>"
    if scalar_type.startswith("Complex") or values is None:
        return "<Tensor>"
    prefix = "CUDA" if str(device).startswith("cuda") else "CPU"
    return format_tensor_values(values, shape, f"{prefix}{scalar_type}Type")


def _flatten(x: Any) -> list[float]:
    if isinstance(x, list):
        return [v for item in x for v in _flatten(item)]
    return [float(x)]


def _cpp_default_double(d: float) -> str:
    if math.isnan(d):
        return "nan"
    if math.isinf(d):
        return "inf" if d > 0 else "-inf"
    return f"{d:g}"


def _annotation_needed(elem: Any) -> bool:
    """Whether PyTorch prints a container of these elements as `annotate(T, ...)`: the
    element type cannot be inferred from the members (`elementTypeCanBeInferredFromMembers`)."""
    return getattr(elem, "kind", None) in ("UnionType", "OptionalType", "NumberType", "AnyType")


def format_ivalue(v: Any, type: Any = None) -> str:
    """A constant value as TorchScript prints an IValue. With its `type` (a `Type`), a list or
    dict whose type the members do not tell (an empty one, or of Optional elements) prints
    as `annotate(List[int], [])`, as PyTorch prints it."""
    if type is not None and isinstance(v, (list, dict)):
        contained = type.contained_types() if hasattr(type, "contained_types") else ()
        if isinstance(v, list) and len(contained) == 1:
            items = ", ".join(format_ivalue(x, contained[0]) for x in v)
            if not v or _annotation_needed(contained[0]):
                return f"annotate({type.annotation_str()}, [{items}])"
            return f"[{items}]"
        if isinstance(v, dict) and len(contained) == 2:
            key_t, value_t = contained
            items = ", ".join(
                f"{format_ivalue(k, key_t)}: {format_ivalue(x, value_t)}" for k, x in v.items()
            )
            if not v or _annotation_needed(value_t):
                return f"annotate({type.annotation_str()},{{{items}}})"
            return "{" + items + "}"
    if type is not None and isinstance(v, tuple):
        contained = type.contained_types() if hasattr(type, "contained_types") else ()
        if len(contained) == len(v):
            inner = ", ".join(format_ivalue(x, t) for x, t in zip(v, contained, strict=True))
            return f"({inner},)" if len(v) == 1 else f"({inner})"
    if v is None:
        return "None"
    if isinstance(v, enum.Enum):  # an enum member, named as TorchScript names it
        cls = v.__class__
        module = "__torch__" if cls.__module__ == "__main__" else f"__torch__.{cls.__module__}"
        return f"Enum<{module}.{cls.__qualname__}.{v.name}>"
    if isinstance(v, bool):
        return "True" if v else "False"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return format_double(v)
    if isinstance(v, complex):
        return format_complex(v)
    if isinstance(v, str):
        return quote_string(v)
    if isinstance(v, Device):
        return quote_string(str(v))
    if isinstance(v, list):
        return "[" + ", ".join(format_ivalue(x) for x in v) + "]"
    if isinstance(v, tuple):
        inner = ", ".join(format_ivalue(x) for x in v)
        return f"({inner},)" if len(v) == 1 else f"({inner})"
    if isinstance(v, dict):
        return (
            "{" + ", ".join(f"{format_ivalue(k)}: {format_ivalue(x)}" for k, x in v.items()) + "}"
        )
    if hasattr(v, "numel"):
        return format_tensor(v)
    return f"<{type(v).__name__}>"


def format_attribute(kind: AttributeKind, value: Any, type: Any = None) -> str:
    """An attribute value as PyTorch prints it; `type`, the value's type where known (a
    constant's output), lets containers that need it print annotated."""
    K = AttributeKind
    if kind is K.i:
        return str(value)
    if kind is K.f:
        return format_double(value)
    if kind is K.c:
        return format_complex(value)
    if kind is K.s:
        return quote_string(value)
    if kind is K.is_:
        return "[" + ", ".join(str(x) for x in value) + "]"
    if kind is K.fs:
        return "[" + ", ".join(format_double(x) for x in value) + "]"
    if kind is K.cs:
        return "[" + ", ".join(format_complex(x) for x in value) + "]"
    if kind is K.ss:
        return "[" + ", ".join(quote_string(x) for x in value) + "]"
    if kind is K.t:
        return format_tensor(value)
    if kind is K.ts:
        return "[<Tensors>]"
    if kind is K.g:
        return "<Graph>"
    if kind is K.gs:
        return "[<Graphs>]"
    if kind is K.ty:
        return str(value)
    if kind is K.tys:
        return "[" + ", ".join(str(x) for x in value) + "]"
    return format_ivalue(value, type)


class TensorLiteral:
    """A tensor read from IR text where no runtime makes real tensors: one element
    (`{0}`, `literal`), or several as PyTorch prints them (` 1  2 [ CPULongType{2} ]`:
    row-major `values`, `shape`, `scalar_type` name, `device`).

    The runtime turns literals into real tensors when it runs a graph holding them.
    """

    __slots__ = ("device", "literal", "scalar_type", "shape", "text", "values")

    def __init__(
        self,
        literal: int | float | complex | None,
        *,
        values: list[float] | None = None,
        shape: tuple[int, ...] = (),
        scalar_type: str = "",
        device: str = "cpu",
        text: str | None = None,
    ) -> None:
        self.literal = literal
        # as it was printed: its digits are rounded, so printing the values again could
        # choose another layout (a common factor the rounded values no longer need)
        self.text = text
        self.values = values
        self.shape = shape
        self.scalar_type = scalar_type
        self.device = device

    def numel(self) -> int:
        return 1 if self.values is None else len(self.values)

    def item(self) -> int | float | complex:
        if self.literal is None:
            raise ValueError("only a one-element tensor literal has an item")
        return self.literal

    def key(self) -> tuple:
        """What the literal holds, as a hashable value (equal literals, equal keys)."""
        values = None if self.values is None else tuple(self.values)
        return (self.literal, values, self.shape, self.scalar_type, self.device)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TensorLiteral) and other.key() == self.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        if self.values is None:
            return f"TensorLiteral({self.literal!r})"
        return f"TensorLiteral({self.values!r}, shape={self.shape}, {self.scalar_type})"


_tensor_factory: list[Callable[[int | float | complex], Any]] = []


def set_tensor_factory(factory: Callable[[int | float | complex], Any]) -> None:
    """Make tensor attributes parsed from IR text (`{0}`) with `factory(scalar)`."""
    _tensor_factory[:] = [factory]


def make_tensor_literal(value: int | float | complex) -> Any:
    if _tensor_factory:
        return _tensor_factory[0](value)
    return TensorLiteral(value)


class AttributeAccessors:
    """Typed attribute access for `Node`, named as in TorchScript (`i` reads, `i_` writes).

    The int-list getter is `ints` because `is` is a Python keyword; `is_` writes.
    Getting an attribute with the wrong kind raises `IRError`.
    """

    __slots__ = ()
    _attrs: dict[str, tuple[AttributeKind, Any]] | None
    kind: str

    def has_attribute(self, name: str) -> bool:
        return self._attrs is not None and attr_name(name) in self._attrs

    def has_attributes(self) -> bool:
        return bool(self._attrs)

    def attribute_names(self) -> list[str]:
        return list(self._attrs) if self._attrs else []

    def kind_of(self, name: str) -> AttributeKind:
        return self._attr_entry(name)[0]

    def attr(self, name: str) -> Any:
        """The value of an attribute of any kind."""
        return self._attr_entry(name)[1]

    def set_attr(self, name: str, kind: AttributeKind, value: Any) -> Node:
        key = attr_name(name)
        value = check_and_normalize(key, kind, value)
        if self._attrs is None:
            self._attrs = {}
        self._attrs[key] = (kind, value)
        return self

    def remove_attribute(self, name: str) -> Node:
        if not self.has_attribute(name):
            raise IRError(f"{self.kind} has no attribute '{attr_name(name)}'")
        assert self._attrs is not None
        del self._attrs[attr_name(name)]
        return self

    def copy_attributes(self, other: AttributeAccessors, *, deep_graphs: bool = True) -> Node:
        """Take every attribute of `other`; graph attributes are copied unless `deep_graphs=False`."""
        self._attrs = None
        for name in other.attribute_names():
            kind, value = other._attr_entry(name)
            if deep_graphs and kind is AttributeKind.g:
                value = value.copy()
            elif deep_graphs and kind is AttributeKind.gs:
                value = [g.copy() for g in value]
            elif isinstance(value, list):
                value = list(value)
            self.set_attr(name, kind, value)
        return self

    def _attr_entry(self, name: str) -> tuple[AttributeKind, Any]:
        key = attr_name(name)
        if self._attrs is None or key not in self._attrs:
            raise IRError(f"{self.kind} has no attribute '{key}'")
        return self._attrs[key]

    def _get(self, name: str, kind: AttributeKind) -> Any:
        k, v = self._attr_entry(name)
        if k is not kind:
            raise IRError(
                f"attribute '{attr_name(name)}' of {self.kind} is of kind {k.value}, not {kind.value}"
            )
        return v

    def i(self, name: str) -> int:
        return self._get(name, AttributeKind.i)

    def i_(self, name: str, v: int) -> Node:
        return self.set_attr(name, AttributeKind.i, v)

    def f(self, name: str) -> float:
        return self._get(name, AttributeKind.f)

    def f_(self, name: str, v: float) -> Node:
        return self.set_attr(name, AttributeKind.f, v)

    def c(self, name: str) -> complex:
        return self._get(name, AttributeKind.c)

    def c_(self, name: str, v: complex) -> Node:
        return self.set_attr(name, AttributeKind.c, v)

    def s(self, name: str) -> str:
        return self._get(name, AttributeKind.s)

    def s_(self, name: str, v: str) -> Node:
        return self.set_attr(name, AttributeKind.s, v)

    def t(self, name: str) -> Any:
        return self._get(name, AttributeKind.t)

    def t_(self, name: str, v: Any) -> Node:
        return self.set_attr(name, AttributeKind.t, v)

    def g(self, name: str) -> Graph:
        return self._get(name, AttributeKind.g)

    def g_(self, name: str, v: Graph) -> Node:
        return self.set_attr(name, AttributeKind.g, v)

    def ty(self, name: str) -> Type:
        return self._get(name, AttributeKind.ty)

    def ty_(self, name: str, v: Type) -> Node:
        return self.set_attr(name, AttributeKind.ty, v)

    def ival(self, name: str) -> Any:
        return self._get(name, AttributeKind.ival)

    def ival_(self, name: str, v: Any) -> Node:
        return self.set_attr(name, AttributeKind.ival, v)

    def ints(self, name: str) -> list[int]:
        return self._get(name, AttributeKind.is_)

    def is_(self, name: str, v: Iterable[int]) -> Node:
        return self.set_attr(name, AttributeKind.is_, list(v))

    def fs(self, name: str) -> list[float]:
        return self._get(name, AttributeKind.fs)

    def fs_(self, name: str, v: Iterable[float]) -> Node:
        return self.set_attr(name, AttributeKind.fs, list(v))

    def cs(self, name: str) -> list[complex]:
        return self._get(name, AttributeKind.cs)

    def cs_(self, name: str, v: Iterable[complex]) -> Node:
        return self.set_attr(name, AttributeKind.cs, list(v))

    def ss(self, name: str) -> list[str]:
        return self._get(name, AttributeKind.ss)

    def ss_(self, name: str, v: Iterable[str]) -> Node:
        return self.set_attr(name, AttributeKind.ss, list(v))

    def ts(self, name: str) -> list[Any]:
        return self._get(name, AttributeKind.ts)

    def ts_(self, name: str, v: Iterable[Any]) -> Node:
        return self.set_attr(name, AttributeKind.ts, list(v))

    def gs(self, name: str) -> list[Graph]:
        return self._get(name, AttributeKind.gs)

    def gs_(self, name: str, v: Iterable[Graph]) -> Node:
        return self.set_attr(name, AttributeKind.gs, list(v))

    def tys(self, name: str) -> list[Type]:
        return self._get(name, AttributeKind.tys)

    def tys_(self, name: str, v: Iterable[Type]) -> Node:
        return self.set_attr(name, AttributeKind.tys, list(v))
