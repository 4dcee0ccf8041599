"""The TorchScript type system.

Types are immutable values compared structurally (class types compare by
qualified name). `str(t)` is the form the IR printer uses (`int[]`,
`Tensor?`, `Float(*, *, requires_grad=0, device=cpu)`); `t.annotation_str()`
is the Python form (`List[int]`, `Optional[Tensor]`). Subtyping and
unification follow TorchScript's rules: lists and dicts are invariant, tuples
and futures covariant, everything is a subtype of `Any`, `None` and `T` are
subtypes of `Optional[T]`, and a refined tensor type is a subtype of the
less refined ones.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar

from .dtypes import ScalarType

# ---------------------------------------------------------------------------
# Devices


class Device:
    """A device: `cpu`, `cuda`, `cuda:0`."""

    __slots__ = ("index", "type")

    def __init__(self, type: str, index: int | None = None) -> None:
        if index is None and ":" in type:
            type, _, idx = type.partition(":")
            if not idx.isdigit():
                raise ValueError(f"invalid device string {type}:{idx!r}")
            index = int(idx)
        if type not in ("cpu", "cuda", "meta"):
            raise ValueError(f"unknown device type {type!r}")
        self.type = type
        self.index = index

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __repr__(self) -> str:
        return (
            f"device(type='{self.type}'"
            + ("" if self.index is None else f", index={self.index}")
            + ")"
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Device) and self.type == other.type and self.index == other.index

    def __hash__(self) -> int:
        return hash((self.type, self.index))


# ---------------------------------------------------------------------------
# Type verbosity (TS_JIT_TYPE_VERBOSITY, as PYTORCH_JIT_TYPE_VERBOSITY)

VERBOSITY_NONE, VERBOSITY_TYPE, VERBOSITY_TYPE_AND_STRIDE, VERBOSITY_FULL = 0, 1, 2, 3
_verbosity_override: list[int] = []


def type_verbosity() -> int:
    """How much of a tensor type the printer shows; read from the environment when asked."""
    if _verbosity_override:
        return _verbosity_override[-1]
    value = os.environ.get("TS_JIT_TYPE_VERBOSITY")
    if value is None:
        return VERBOSITY_FULL
    try:
        return max(VERBOSITY_NONE, min(VERBOSITY_FULL, int(value)))
    except ValueError:
        return VERBOSITY_FULL


# ---------------------------------------------------------------------------
# Base


class Type:
    """Base class of all types."""

    __slots__ = ()
    kind: ClassVar[str] = "Type"

    def __str__(self) -> str:
        raise NotImplementedError

    def annotation_str(self) -> str:
        """The type as a Python annotation: `List[int]`, `Optional[Tensor]`."""
        return str(self)

    def __repr__(self) -> str:
        return f"<{self.kind} {self}>"

    def contained_types(self) -> tuple[Type, ...]:
        return ()

    def with_contained(self, types: Sequence[Type]) -> Type:
        """The same kind of type over different contained types."""
        assert not types, f"{self.kind} contains no types"
        return self

    def is_subtype_of(self, other: Type) -> bool:
        if other is self or isinstance(other, AnyType):
            return True
        if isinstance(self, (OptionalType, UnionType)):
            # a union is a subtype when each of its members is
            members = (
                (self.element, NoneType.get()) if isinstance(self, OptionalType) else self.types
            )
            return all(m.is_subtype_of(other) for m in members)
        if isinstance(other, OptionalType):
            return isinstance(self, NoneType) or self.is_subtype_of(other.element)
        if isinstance(other, UnionType):
            return any(self.is_subtype_of(t) for t in other.types)
        return self._is_subtype_of(other)

    def _is_subtype_of(self, other: Type) -> bool:
        return self == other

    def has_free_variables(self) -> bool:
        return any(t.has_free_variables() for t in self.contained_types())

    def contains_tensor(self) -> bool:
        return isinstance(self, TensorType) or any(
            t.contains_tensor() for t in self.contained_types()
        )

    def is_mutable_container(self) -> bool:
        return False


class _Singleton(Type):
    """A type with exactly one instance; `X.get()` and `X()` return it."""

    __slots__ = ()
    _instances: ClassVar[dict[type, Type]] = {}
    name: ClassVar[str] = ""
    annotation: ClassVar[str | None] = None

    def __new__(cls) -> Any:
        inst = _Singleton._instances.get(cls)
        if inst is None:
            inst = _Singleton._instances[cls] = object.__new__(cls)
        return inst

    @classmethod
    def get(cls) -> Any:
        return cls()

    def __str__(self) -> str:
        return self.name

    def annotation_str(self) -> str:
        return self.annotation or self.name

    def __eq__(self, other: object) -> bool:
        return self is other

    def __hash__(self) -> int:
        return hash(self.name)

    def __reduce__(self):
        return (type(self), ())


class AnyType(_Singleton):
    kind, name = "AnyType", "Any"


class NumberType(_Singleton):
    kind, name, annotation = "NumberType", "Scalar", "number"


class IntType(_Singleton):
    kind, name = "IntType", "int"

    def _is_subtype_of(self, other: Type) -> bool:
        return other is self or isinstance(other, NumberType)


class SymIntType(_Singleton):
    """A symbolic int in schemas; annotations spell it `int`, as PyTorch does."""

    kind, name, annotation = "SymIntType", "SymInt", "int"


class SymBoolType(_Singleton):
    """A symbolic bool in schemas; annotations spell it `bool`, as PyTorch does."""

    kind, name, annotation = "SymBoolType", "SymBool", "bool"


class FloatType(_Singleton):
    kind, name = "FloatType", "float"

    def _is_subtype_of(self, other: Type) -> bool:
        return other is self or isinstance(other, NumberType)


class ComplexType(_Singleton):
    kind, name = "ComplexType", "complex"

    def _is_subtype_of(self, other: Type) -> bool:
        return other is self or isinstance(other, NumberType)


class BoolType(_Singleton):
    kind, name = "BoolType", "bool"


class StringType(_Singleton):
    kind, name = "StringType", "str"


class NoneType(_Singleton):
    kind, name = "NoneType", "NoneType"


class DeviceType(_Singleton):
    kind, name = "DeviceType", "Device"


class StreamType(_Singleton):
    kind, name = "StreamType", "Stream"


class GeneratorType(_Singleton):
    kind, name = "GeneratorType", "Generator"


class StorageType(_Singleton):
    kind, name = "StorageType", "Storage"


class LayoutType(_Singleton):
    kind, name = "LayoutType", "Layout"


class ScalarTypeType(_Singleton):
    kind, name = "ScalarTypeType", "ScalarType"


class MemoryFormatType(_Singleton):
    kind, name = "MemoryFormatType", "MemoryFormat"


class QSchemeType(_Singleton):
    kind, name = "QSchemeType", "QScheme"


class DimnameType(_Singleton):
    kind, name = "DimnameType", "Dimname"


class CapsuleType(_Singleton):
    kind, name = "CapsuleType", "Capsule"


class PyObjectType(_Singleton):
    kind, name = "PyObjectType", "PyObject"


class QuantizerType(_Singleton):
    kind, name = "QuantizerType", "Quantizer"


class AnyListType(_Singleton):
    kind, name = "AnyListType", "list"


class AnyTupleType(_Singleton):
    kind, name = "AnyTupleType", "tuple"


class AnyClassType(_Singleton):
    kind, name = "AnyClassType", "AnyClassType"


class AnyEnumType(_Singleton):
    kind, name = "AnyEnumType", "AnyEnumType"


# ---------------------------------------------------------------------------
# Tensors

Shape = tuple[int | None, ...]


class TensorType(Type):
    """A tensor, optionally refined by dtype, device, requires_grad, rank, sizes and strides.

    `sizes is None` means the rank is unknown; otherwise each entry is a size or
    None for an unknown size. `strides` likewise.
    """

    __slots__ = ("_key", "device", "requires_grad", "scalar_type", "sizes", "strides", "undefined")
    kind = "TensorType"

    def __init__(
        self,
        scalar_type: ScalarType | None = None,
        device: Device | None = None,
        requires_grad: bool | None = None,
        sizes: Iterable[int | None] | None = None,
        strides: Iterable[int | None] | None = None,
        undefined: bool | None = None,
    ) -> None:
        self.scalar_type = scalar_type
        self.device = device
        self.requires_grad = requires_grad
        self.sizes = None if sizes is None else tuple(sizes)
        self.strides = None if strides is None else tuple(strides)
        if (
            self.strides is not None
            and self.sizes is not None
            and len(self.strides) != len(self.sizes)
        ):
            raise ValueError("strides and sizes of a TensorType must have the same rank")
        self.undefined = undefined
        self._key = (scalar_type, device, requires_grad, self.sizes, self.strides, undefined)

    _plain: ClassVar[TensorType]

    @classmethod
    def get(cls) -> TensorType:
        """The unrefined `Tensor` type."""
        return cls._plain

    @classmethod
    def create_contiguous(
        cls,
        scalar_type: ScalarType,
        device: Device,
        sizes: Sequence[int],
        requires_grad: bool | None = None,
    ) -> TensorType:
        return cls(scalar_type, device, requires_grad, sizes, contiguous_strides(sizes))

    def dim(self) -> int | None:
        return None if self.sizes is None else len(self.sizes)

    def is_complete(self) -> bool:
        """Whether dtype, device, sizes and strides are all known."""
        return (
            self.scalar_type is not None
            and self.device is not None
            and self.sizes is not None
            and self.strides is not None
            and None not in self.sizes
            and None not in self.strides
        )

    def is_plain(self) -> bool:
        return self._key == _PLAIN_KEY

    def _replace(self, **changes: Any) -> TensorType:
        fields = {
            "scalar_type": self.scalar_type,
            "device": self.device,
            "requires_grad": self.requires_grad,
            "sizes": self.sizes,
            "strides": self.strides,
            "undefined": self.undefined,
        }
        fields.update(changes)
        return TensorType(**fields)

    def with_requires_grad(self, requires_grad: bool | None) -> TensorType:
        return self._replace(requires_grad=requires_grad)

    def with_scalar_type(self, scalar_type: ScalarType | None) -> TensorType:
        return self._replace(scalar_type=scalar_type)

    def with_device(self, device: Device | None) -> TensorType:
        return self._replace(device=device)

    def with_sizes(self, sizes: Iterable[int | None] | None) -> TensorType:
        return self._replace(sizes=sizes, strides=None)

    def with_rank(self, rank: int | None) -> TensorType:
        return self.with_sizes(None if rank is None else (None,) * rank)

    def with_sizes_strides(
        self, sizes: Iterable[int | None], strides: Iterable[int | None]
    ) -> TensorType:
        return self._replace(sizes=sizes, strides=strides)

    def dimensioned_only(self) -> TensorType:
        """Keep dtype, device, requires_grad and rank; forget sizes and strides."""
        return self._replace(
            sizes=None if self.sizes is None else (None,) * len(self.sizes), strides=None
        )

    def merge(self, other: TensorType) -> TensorType:
        """The most refined type both are subtypes of: fields that disagree become unknown."""

        def pick(a: Any, b: Any) -> Any:
            return a if a == b else None

        def shape(a: Shape | None, b: Shape | None) -> Shape | None:
            if a is None or b is None or len(a) != len(b):
                return None
            return tuple(x if x == y else None for x, y in zip(a, b, strict=True))

        sizes = shape(self.sizes, other.sizes)
        strides = shape(self.strides, other.strides) if sizes is not None else None
        return TensorType(
            pick(self.scalar_type, other.scalar_type),
            pick(self.device, other.device),
            pick(self.requires_grad, other.requires_grad),
            sizes,
            strides,
            pick(self.undefined, other.undefined),
        )

    def _is_subtype_of(self, other: Type) -> bool:
        if not isinstance(other, TensorType):
            return False
        if other._key == _PLAIN_KEY or self._key == other._key:
            return True
        for mine, theirs in (
            (self.scalar_type, other.scalar_type),
            (self.device, other.device),
            (self.requires_grad, other.requires_grad),
            (self.undefined, other.undefined),
        ):
            if theirs is not None and mine != theirs:
                return False
        return _shape_subtype(self.sizes, other.sizes) and _shape_subtype(
            self.strides, other.strides
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TensorType) and self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def annotation_str(self) -> str:
        return "Tensor"

    def __str__(self) -> str:
        return self.to_string(type_verbosity())

    def to_string(self, verbosity: int) -> str:
        """The IR printer's form of this type at a given verbosity."""
        if verbosity == VERBOSITY_NONE:
            return "Tensor"
        parts: list[str] = []
        head = "Tensor" if self.scalar_type is None else self.scalar_type.name
        if self.sizes is not None:
            parts.extend("*" if s is None else str(s) for s in self.sizes)
            strides = self.strides
            if (
                verbosity >= VERBOSITY_TYPE_AND_STRIDE
                and len(self.sizes) > 0
                and strides is not None
                and None not in strides
            ):
                parts.append("strides=[" + ", ".join(str(s) for s in strides) + "]")
        elif self.scalar_type is not None:
            head += "Tensor"
        if verbosity >= VERBOSITY_FULL:
            if self.requires_grad is not None:
                parts.append(f"requires_grad={int(self.requires_grad)}")
            if self.device is not None:
                parts.append(f"device={self.device}")
        text = head
        if self.sizes is not None or parts:
            text += "(" + ", ".join(parts) + ")"
        if self.undefined:
            text += "[Undefined]"
        return text


_PLAIN_KEY = (None, None, None, None, None, None)
TensorType._plain = TensorType()


def _shape_subtype(mine: Shape | None, theirs: Shape | None) -> bool:
    if theirs is None:
        return True
    if mine is None or len(mine) != len(theirs):
        return False
    return all(t is None or m == t for m, t in zip(mine, theirs, strict=True))


def contiguous_strides(sizes: Sequence[int]) -> tuple[int, ...]:
    """Row-major strides, in elements, of a tensor with these sizes."""
    strides = [1] * len(sizes)
    acc = 1
    for i in range(len(sizes) - 1, -1, -1):
        strides[i] = acc
        acc *= max(sizes[i], 1)
    return tuple(strides)


# ---------------------------------------------------------------------------
# Containers


class _Structural(Type):
    """A type compared and hashed by its kind and contained types."""

    __slots__ = ("_hash",)

    def _key(self) -> tuple:
        return (self.kind, self.contained_types())

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._key() == other._key()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        try:
            return self._hash
        except AttributeError:
            self._hash = hash(self._key())
            return self._hash


class ListType(_Structural):
    __slots__ = ("element",)
    kind = "ListType"

    def __init__(self, element: Type) -> None:
        self.element = element

    @classmethod
    def of_tensors(cls) -> ListType:
        return cls(TensorType.get())

    @classmethod
    def of_ints(cls) -> ListType:
        return cls(IntType.get())

    def __str__(self) -> str:
        return f"{self.element}[]"

    def annotation_str(self) -> str:
        return f"List[{self.element.annotation_str()}]"

    def contained_types(self) -> tuple[Type, ...]:
        return (self.element,)

    def with_contained(self, types: Sequence[Type]) -> Type:
        return ListType(types[0])

    def _is_subtype_of(self, other: Type) -> bool:
        return self == other or isinstance(other, AnyListType)

    def is_mutable_container(self) -> bool:
        return True


class OptionalType(_Structural):
    __slots__ = ("element",)
    kind = "OptionalType"

    def __init__(self, element: Type) -> None:
        self.element = element

    @classmethod
    def create(cls, element: Type) -> Type:
        """`Optional[T]`, flattening `Optional[Optional[T]]` and `Optional[None]`."""
        if isinstance(element, (OptionalType, NoneType)):
            return element
        return cls(element)

    def __str__(self) -> str:
        return f"{self.element}?"

    def annotation_str(self) -> str:
        return f"Optional[{self.element.annotation_str()}]"

    def contained_types(self) -> tuple[Type, ...]:
        return (self.element,)

    def with_contained(self, types: Sequence[Type]) -> Type:
        return OptionalType(types[0])

    def _is_subtype_of(self, other: Type) -> bool:
        return False  # Optional targets were handled by Type.is_subtype_of


class UnionType(_Structural):
    """`Union[A, B, ...]`; a union of one type and None is an `OptionalType`."""

    __slots__ = ("types",)
    kind = "UnionType"

    def __init__(self, types: Sequence[Type]) -> None:
        self.types = tuple(types)

    @classmethod
    def create(cls, types: Iterable[Type]) -> Type:
        flat: list[Type] = []
        for t in types:
            members: Iterable[Type]
            if isinstance(t, UnionType):
                members = t.types
            elif isinstance(t, OptionalType):
                members = (t.element, NoneType.get())
            else:
                members = (t,)
            for m in members:
                if not any(m.is_subtype_of(f) for f in flat):
                    flat = [f for f in flat if not f.is_subtype_of(m)] + [m]
        non_none = [t for t in flat if not isinstance(t, NoneType)]
        if len(flat) == 1:
            return flat[0]
        if len(non_none) == 1:
            return OptionalType(non_none[0])
        return cls(flat)

    def __str__(self) -> str:
        return "Union(" + ", ".join(str(t) for t in self.types) + ")"

    def annotation_str(self) -> str:
        return "Union[" + ", ".join(t.annotation_str() for t in self.types) + "]"

    def contained_types(self) -> tuple[Type, ...]:
        return self.types

    def with_contained(self, types: Sequence[Type]) -> Type:
        return UnionType.create(types)

    def _is_subtype_of(self, other: Type) -> bool:
        return all(t.is_subtype_of(other) for t in self.types)


class TupleType(_Structural):
    """A tuple; `names` is set for a NamedTuple (`qualified_name` names its class)."""

    __slots__ = ("elements", "names", "qualified_name")
    kind = "TupleType"

    def __init__(
        self,
        elements: Sequence[Type],
        names: Sequence[str] | None = None,
        qualified_name: str | None = None,
    ) -> None:
        self.elements = tuple(elements)
        self.names = None if names is None else tuple(names)
        self.qualified_name = qualified_name

    def _key(self) -> tuple:
        return (self.kind, self.elements, self.names, self.qualified_name)

    def __str__(self) -> str:
        if self.names is not None:
            inner = ", ".join(f"{n} : {t}" for n, t in zip(self.names, self.elements, strict=True))
            return f"NamedTuple({inner})"
        return "(" + ", ".join(str(t) for t in self.elements) + ")"

    def annotation_str(self) -> str:
        if self.qualified_name is not None:
            return self.qualified_name
        if not self.elements:
            return "Tuple[()]"
        return "Tuple[" + ", ".join(t.annotation_str() for t in self.elements) + "]"

    def contained_types(self) -> tuple[Type, ...]:
        return self.elements

    def with_contained(self, types: Sequence[Type]) -> Type:
        return TupleType(types, self.names, self.qualified_name)

    def _is_subtype_of(self, other: Type) -> bool:
        if isinstance(other, AnyTupleType):
            return True
        if not isinstance(other, TupleType) or len(other.elements) != len(self.elements):
            return False
        if other.names is not None and other.names != self.names:
            return False
        return all(a.is_subtype_of(b) for a, b in zip(self.elements, other.elements, strict=True))


class DictType(_Structural):
    __slots__ = ("key", "value")
    kind = "DictType"

    def __init__(self, key: Type, value: Type) -> None:
        self.key = key
        self.value = value

    def __str__(self) -> str:
        return f"Dict({self.key}, {self.value})"

    def annotation_str(self) -> str:
        return f"Dict[{self.key.annotation_str()}, {self.value.annotation_str()}]"

    def contained_types(self) -> tuple[Type, ...]:
        return (self.key, self.value)

    def with_contained(self, types: Sequence[Type]) -> Type:
        return DictType(types[0], types[1])

    def is_mutable_container(self) -> bool:
        return True


class FutureType(_Structural):
    __slots__ = ("element",)
    kind = "FutureType"

    def __init__(self, element: Type) -> None:
        self.element = element

    def __str__(self) -> str:
        return f"Future[{self.element}]"

    def annotation_str(self) -> str:
        return f"Future[{self.element.annotation_str()}]"

    def contained_types(self) -> tuple[Type, ...]:
        return (self.element,)

    def with_contained(self, types: Sequence[Type]) -> Type:
        return FutureType(types[0])

    def _is_subtype_of(self, other: Type) -> bool:
        return isinstance(other, FutureType) and self.element.is_subtype_of(other.element)


class AwaitType(_Structural):
    """The result of `torch.jit._awaitable`: a lazily computed value."""

    __slots__ = ("element",)
    kind = "AwaitType"

    def __init__(self, element: Type) -> None:
        self.element = element

    def __str__(self) -> str:
        return f"Await[{self.element}]"

    def annotation_str(self) -> str:
        return f"Await[{self.element.annotation_str()}]"

    def contained_types(self) -> tuple[Type, ...]:
        return (self.element,)

    def with_contained(self, types: Sequence[Type]) -> Type:
        return AwaitType(types[0])

    def _is_subtype_of(self, other: Type) -> bool:
        return isinstance(other, AwaitType) and self.element.is_subtype_of(other.element)


class RRefType(_Structural):
    __slots__ = ("element",)
    kind = "RRefType"

    def __init__(self, element: Type) -> None:
        self.element = element

    def __str__(self) -> str:
        return f"RRef[{self.element}]"

    def contained_types(self) -> tuple[Type, ...]:
        return (self.element,)

    def with_contained(self, types: Sequence[Type]) -> Type:
        return RRefType(types[0])


class VarType(_Structural):
    """A type variable of a schema (`t`, `t1`), bound during overload matching."""

    __slots__ = ("name",)
    kind = "VarType"

    def __init__(self, name: str) -> None:
        self.name = name

    def _key(self) -> tuple:
        return (self.kind, self.name)

    def __str__(self) -> str:
        return self.name

    def has_free_variables(self) -> bool:
        return True


# ---------------------------------------------------------------------------
# Classes and functions


class ClassType(Type):
    """A TorchScript class or module type, named like `__torch__.M`; compared by name.

    Attributes keep insertion order, as TorchScript's slots do; `methods` maps
    names to compiled functions (owned by the runtime; opaque here).
    """

    __slots__ = (
        "attributes",
        "constants",
        "is_module",
        "methods",
        "parameter_names",
        "qualified_name",
    )
    kind = "ClassType"

    def __init__(self, qualified_name: str, *, is_module: bool = False) -> None:
        self.qualified_name = qualified_name
        self.is_module = is_module
        self.attributes: dict[str, Type] = {}
        self.parameter_names: set[str] = set()
        self.constants: dict[str, Any] = {}
        self.methods: dict[str, Any] = {}

    def add_attribute(self, name: str, type: Type, *, is_parameter: bool = False) -> None:
        self.attributes[name] = type
        if is_parameter:
            self.parameter_names.add(name)

    def has_attribute(self, name: str) -> bool:
        return name in self.attributes

    def get_attribute(self, name: str) -> Type:
        return self.attributes[name]

    def attribute_slot(self, name: str) -> int:
        """O(attributes): the position of an attribute, as TorchScript's slot index."""
        return list(self.attributes).index(name)

    @property
    def name(self) -> str:
        return self.qualified_name.rsplit(".", 1)[-1]

    def __str__(self) -> str:
        return self.qualified_name

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ClassType) and other.qualified_name == self.qualified_name

    def __hash__(self) -> int:
        return hash(("ClassType", self.qualified_name))

    def _is_subtype_of(self, other: Type) -> bool:
        if isinstance(other, AnyClassType):
            return True
        if isinstance(other, InterfaceType):
            return other.is_implemented_by(self)
        return self == other


class InterfaceType(Type):
    """A structural interface: any class with methods of these names satisfies it."""

    __slots__ = ("method_names", "qualified_name")
    kind = "InterfaceType"

    def __init__(self, qualified_name: str, method_names: Iterable[str]) -> None:
        self.qualified_name = qualified_name
        self.method_names = frozenset(method_names)

    def is_implemented_by(self, cls: ClassType) -> bool:
        return self.method_names <= set(cls.methods)

    def __str__(self) -> str:
        return self.qualified_name

    def __eq__(self, other: object) -> bool:
        return isinstance(other, InterfaceType) and other.qualified_name == self.qualified_name

    def __hash__(self) -> int:
        return hash(("InterfaceType", self.qualified_name))


class EnumType(Type):
    """A Python `enum.Enum` class, named like `__torch__.m.Color`; compared by name.

    Its values are the Python enum members themselves; `value_type` is the type of
    their `.value` (int, float or str), `names` the members' names in order.
    """

    __slots__ = ("names", "qualified_name", "value_type")
    kind = "EnumType"

    def __init__(self, qualified_name: str, value_type: Type, names: Iterable[str]) -> None:
        self.qualified_name = qualified_name
        self.value_type = value_type
        self.names = tuple(names)

    def __str__(self) -> str:
        return f"Enum<{self.qualified_name}>"

    def annotation_str(self) -> str:
        return self.qualified_name

    def __eq__(self, other: object) -> bool:
        return isinstance(other, EnumType) and other.qualified_name == self.qualified_name

    def __hash__(self) -> int:
        return hash(("EnumType", self.qualified_name))

    def _is_subtype_of(self, other: Type) -> bool:
        return self == other or isinstance(other, AnyEnumType)


class FunctionType(Type):
    """The type of a first-class function constant (`prim::Constant[name="f"]`)."""

    __slots__ = ("function", "function_name")
    kind = "FunctionType"

    def __init__(self, function: Any = None, function_name: str | None = None) -> None:
        self.function = function
        self.function_name = function_name

    def __str__(self) -> str:
        return "Function"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, FunctionType):
            return False
        if self.function is not None and other.function is not None:
            return self.function is other.function
        return self.function_name == other.function_name

    def __hash__(self) -> int:
        return hash(("FunctionType", self.function_name))


# ---------------------------------------------------------------------------
# Unification


def unshaped_type(t: Type) -> Type:
    """`t` with every refined tensor type replaced by plain `Tensor`."""
    if isinstance(t, TensorType):
        return TensorType.get()
    contained = t.contained_types()
    if not contained:
        return t
    return t.with_contained([unshaped_type(c) for c in contained])


def unify_types(
    a: Type, b: Type, *, default_to_union: bool = False, type_hint: Type | None = None
) -> Type | None:
    """The type both `a` and `b` are subtypes of, by TorchScript's rules, or None."""
    if a.is_subtype_of(b):
        return b
    if b.is_subtype_of(a):
        return a
    if isinstance(a, TensorType) and isinstance(b, TensorType):
        return a.merge(b)
    if isinstance(a, NoneType) and not isinstance(b, NoneType):
        return OptionalType.create(b)
    if isinstance(b, NoneType) and not isinstance(a, NoneType):
        return OptionalType.create(a)
    if isinstance(a, OptionalType):
        elem = unify_types(a.element, b)
        if elem is not None:
            return OptionalType.create(elem)
    elif isinstance(b, OptionalType):
        elem = unify_types(b.element, a)
        if elem is not None:
            return OptionalType.create(elem)
    if isinstance(a, TupleType) and isinstance(b, TupleType) and len(a.elements) == len(b.elements):
        elems = [unify_types(x, y) for x, y in zip(a.elements, b.elements, strict=True)]
        if all(e is not None for e in elems):
            return TupleType(elems)  # type: ignore[arg-type]
    if isinstance(a, FutureType) and isinstance(b, FutureType):
        elem = unify_types(a.element, b.element)
        if elem is not None:
            return FutureType(elem)
    ua, ub = unshaped_type(a), unshaped_type(b)
    if ua.is_subtype_of(ub):
        return ub
    if ub.is_subtype_of(ua):
        return ua
    if type_hint is not None and a.is_subtype_of(type_hint) and b.is_subtype_of(type_hint):
        return type_hint
    if default_to_union:
        return UnionType.create([a, b])
    return None


def unify_type_list(types: Iterable[Type], *, default_to_union: bool = False) -> Type | None:
    result: Type | None = None
    for t in types:
        result = t if result is None else unify_types(result, t, default_to_union=default_to_union)
        if result is None:
            return None
    return result


def map_types(t: Type, fn: Callable[[Type], Type]) -> Type:
    """Apply `fn` bottom-up to every type inside `t` and to `t` itself."""
    contained = t.contained_types()
    if contained:
        t = t.with_contained([map_types(c, fn) for c in contained])
    return fn(t)


# The names by which the IR text and schemas refer to the singleton types.
SINGLETON_TYPES: dict[str, Type] = {
    cls.name: cls()
    for cls in (
        AnyType,
        NumberType,
        IntType,
        SymIntType,
        SymBoolType,
        FloatType,
        ComplexType,
        BoolType,
        StringType,
        NoneType,
        DeviceType,
        StreamType,
        GeneratorType,
        StorageType,
        LayoutType,
        ScalarTypeType,
        MemoryFormatType,
        QSchemeType,
        DimnameType,
        CapsuleType,
        PyObjectType,
        QuantizerType,
        AnyListType,
        AnyTupleType,
        AnyClassType,
        AnyEnumType,
    )
}
SINGLETON_TYPES["Tensor"] = TensorType.get()
SINGLETON_TYPES["number"] = NumberType()
SINGLETON_TYPES["None"] = NoneType()  # as Python annotations write it: `Union[int, None]`
