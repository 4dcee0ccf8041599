"""The schema parser: schema text to `FunctionSchema`, as PyTorch's function_schema_parser.

    aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
    aten::append.t(t[](a!) self, t(c -> *) el) -> t[](a!)
    aten::max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)
    prim::TupleConstruct(...) -> ...

It reads every form PyTorch's schemas use, and what PyTorch prints back
(`float eps=1.0000000000000001e-05`, `ScalarType? dtype=4`, `complex c=0.+1.j`)
as well as the forms of native_functions.yaml (`int[2] stride=1`,
`MemoryFormat memory_format=contiguous_format`, `int reduction=Mean`), plus
`inf`/`nan`/`-inf` defaults. Tokens come from ts-ir's shared `Lexer` (flat
mode); types from a `TypeParser` that reads alias annotations where IR text
has tensor refinements. Malformed text raises `SchemaParseError` pointing at
the offending token, and nothing else.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, NamedTuple

from ts_ir import (
    AnyClassType,
    AnyEnumType,
    AnyType,
    AwaitType,
    BoolType,
    CapsuleType,
    ClassType,
    ComplexType,
    Device,
    DeviceType,
    DictType,
    FloatType,
    FutureType,
    GeneratorType,
    IntType,
    LayoutType,
    Lexer,
    ListType,
    MemoryFormatType,
    NoneType,
    NumberType,
    OptionalType,
    QSchemeType,
    QuantizerType,
    RRefType,
    ScalarType,
    ScalarTypeType,
    Source,
    StorageType,
    StreamType,
    StringType,
    SymBoolType,
    SymIntType,
    TensorType,
    Token,
    TupleType,
    Type,
    TypeParser,
    UnionType,
    VarType,
    parse_number,
)

from .errors import SchemaParseError
from .function_schema import _MISSING, AliasInfo, Argument, FunctionSchema

# The base types schemas name, as PyTorch's SchemaTypeParser::parseBaseType.
_BASE_TYPES: dict[str, Type] = {
    "Generator": GeneratorType(),
    "ScalarType": ScalarTypeType(),
    "Layout": LayoutType(),
    "MemoryFormat": MemoryFormatType(),
    "Storage": StorageType(),
    "QScheme": QSchemeType(),
    "Quantizer": QuantizerType(),
    "ConstQuantizerPtr": IntType(),
    "Device": DeviceType(),
    "DeviceIndex": IntType(),
    "Stream": StreamType(),
    "Scalar": NumberType(),
    "str": StringType(),
    "float": FloatType(),
    "complex": ComplexType(),
    "int": IntType(),
    "SymInt": SymIntType(),
    "SymBool": SymBoolType(),
    "bool": BoolType(),
    "None": NoneType(),
    "NoneType": NoneType(),
    "Capsule": CapsuleType(),
    "Any": AnyType(),
    "AnyClassType": AnyClassType(),
    "AnyEnumType": AnyEnumType(),
}
# Declared types whose values are plain ints (or bools) at run time: the "fake" type.
_FAKE_TYPES: dict[type, Type] = {
    ScalarTypeType: IntType(),
    LayoutType: IntType(),
    MemoryFormatType: IntType(),
    SymIntType: IntType(),
    SymBoolType: BoolType(),
}
# Named defaults: enum values PyTorch's schemas spell by name.
_NAMED_DEFAULTS: dict[str, int] = {
    "float": int(ScalarType.Float),
    "complex": int(ScalarType.ComplexFloat),
    "long": int(ScalarType.Long),
    "strided": 0,
    "Mean": 1,
    "Sum": 2,
    "contiguous_format": 0,
    "preserve_format": 1,
    "channels_last": 2,
    "channels_last_3d": 3,
}
_GENERIC_WITH_ALIAS = ("Dict", "Union")
_ANNOTATION_GENERICS = ("List", "Optional", "Tuple")
_CONTAINERS = ("Future", "Await", "RRef")
_ARITY = {"Dict": 2, "List": 1, "Optional": 1, "Future": 1, "Await": 1, "RRef": 1}
_GENERIC_MAKERS: dict[str, Callable[..., Type]] = {
    "Dict": DictType,
    "List": ListType,
    "Optional": OptionalType.create,
    "Future": FutureType,
    "Await": AwaitType,
    "RRef": RRefType,
}
_CLASSES: dict[str, Type] = {}
_MAX_REPEATED_DEFAULT = 1 << 16


def _class_type(name: str) -> Type:
    """Custom classes (`__torch__.torch.classes.quantized.Conv2dPackedParamsBase`), shared by
    every schema so that equal names give the same type object."""
    cls = _CLASSES.get(name)
    if cls is None:
        cls = _CLASSES[name] = ClassType(name)
    return cls


class SchemaTypeParser(TypeParser):
    """Schema types: reads each type's alias annotation and its run-time ("fake") type.

    `parse_type` (used for the types inside containers) returns the fake
    type, as PyTorch's parser does; `parse_fake_and_real_type` returns the
    fake type, the declared type and the alias annotation of an argument.
    """

    def __init__(self, lexer: Lexer) -> None:
        super().__init__(lexer, _class_type)
        self._fresh_alias = 0

    def parse_type(self) -> Type:
        return self.parse_fake_and_real_type()[0]

    def parse_fake_and_real_type(self) -> tuple[Type, Type, AliasInfo | None]:
        L = self.L
        tok = L.cur
        alias: AliasInfo | None = None
        fake: Type
        real: Type
        if tok.kind == "(":
            L.next()
            fake = real = TupleType(self._type_list(")"))
        elif tok.kind != "ident":
            L.error(f"expected a type but found {tok.describe()}")
            raise AssertionError  # unreachable
        else:
            name = tok.text
            if name == "Tensor":
                L.next()
                fake = real = TensorType.get()
                alias = self.parse_alias_annotation()
            elif name in _CONTAINERS and L.lookahead().kind == "(":
                L.next()
                fake = real = self._generic(name, tok, ")")
            elif name in _GENERIC_WITH_ALIAS and L.lookahead().kind == "(":
                L.next()
                fake = real = self._generic(name, tok, ")")
                alias = self.parse_alias_annotation()
            elif name in _ANNOTATION_GENERICS and L.lookahead().kind == "[":
                L.next()
                fake = real = self._generic(name, tok, "]")
                alias = self.parse_alias_annotation()
            elif name == "__torch__":
                fake = real = self._parse_class_name()
            else:
                L.next()
                real = _BASE_TYPES.get(name)  # type: ignore[assignment]
                if real is None:
                    if name == "double":
                        L.error("unknown type 'double': use 'float' for doubles", tok)
                    if not name[0].islower():
                        L.error(f"unknown type {name!r}", tok)
                    # lower-case names that are no type are type variables: `t`, `t1`, `tVal`
                    real = VarType(name)
                fake = _FAKE_TYPES.get(type(real), real)
                alias = self.parse_alias_annotation()
        while True:
            if L.cur.kind == "[" and L.lookahead().kind == "]":
                L.next()
                L.next()
                fake, real = ListType(fake), ListType(real)
                alias = self._container_alias(alias)
            elif L.cur.kind == "?":
                L.next()
                fake, real = OptionalType.create(fake), OptionalType.create(real)
            else:
                return fake, real, alias

    def _type_list(self, close: str) -> list[Type]:
        """Types separated by commas up to `close` (the opening bracket is consumed)."""
        L = self.L
        types: list[Type] = []
        if L.next_if(close):
            return types
        while True:
            types.append(self.parse_type())
            if L.next_if(close):
                return types
            L.expect(",", f"',' or '{close}'")

    def _generic(self, name: str, name_tok: Token, close: str) -> Type:
        """`Dict(str, t)`, `Future(t)`, `Union(int, str)`; and `List[int]`, `Optional[int]`,
        `Tuple[int, str]` as annotations write them."""
        L = self.L
        L.next()  # the opening bracket
        if name == "Tuple" and L.cur.kind == "(" and L.lookahead().kind == ")":
            L.next()
            L.next()
            L.expect(close)
            return TupleType([])
        args = self._type_list(close)
        arity = _ARITY.get(name)
        if arity is not None and len(args) != arity:
            plural = "s" if arity > 1 else ""
            L.error(f"{name} takes {arity} type argument{plural}, got {len(args)}", name_tok)
        if name == "Union":
            if not args:
                L.error("Union needs at least one type", name_tok)
            return UnionType.create(args)
        if name == "Tuple":
            return TupleType(args)
        return _GENERIC_MAKERS[name](*args)

    def _container_alias(self, element_alias: AliasInfo | None) -> AliasInfo | None:
        """The alias annotation after `[]` (`t[](a!)`), holding the elements' (`Tensor(a)[]`)."""
        container = self.parse_alias_annotation()
        if element_alias is not None:
            if container is None:
                container = AliasInfo(is_write=element_alias.is_write)
            container = container.with_contained(element_alias)
        return container

    def _parse_class_name(self) -> Type:
        L = self.L
        parts = [L.next().text]
        while L.cur.kind == "." and L.lookahead().kind == "ident":
            L.next()
            parts.append(L.next().text)
        if len(parts) < 2:
            L.error("expected a class name like __torch__.torch.classes.ns.Name")
        return self.class_resolver(".".join(parts))

    def parse_alias_annotation(self) -> AliasInfo | None:
        """`(a)`, `(a!)`, `(a|b)`, `(a -> *)`, `(*)`, or a bare `!` (a fresh set, written to)."""
        L = self.L
        if L.cur.kind == "!":
            L.next()
            name = f"${self._fresh_alias}"
            self._fresh_alias += 1
            return AliasInfo((name,), (), is_write=True)
        if L.cur.kind != "(":
            return None
        L.next()
        before = self._alias_sets()
        is_write = L.next_if("!") is not None
        after = self._alias_sets() if L.next_if("->") else None
        L.expect(")", "')' closing the alias annotation")
        return AliasInfo(before, after, is_write=is_write)

    def _alias_sets(self) -> list[str]:
        L = self.L
        sets: list[str] = []
        while True:
            if L.next_if("*"):
                sets.append("*")
            else:
                sets.append(L.expect("ident", "an alias set name like 'a' or '*'").text)
            if not L.next_if("|"):
                return sets


class OperatorName(NamedTuple):
    """A schema's name without its signature: `aten::add` and overload `Tensor`."""

    name: str
    overload_name: str

    @property
    def key(self) -> str:
        return f"{self.name}.{self.overload_name}" if self.overload_name else self.name


class SchemaParser:
    """Recursive descent over one schema's tokens."""

    def __init__(self, text: str, filename: str | None = None) -> None:
        self.L = Lexer(Source(text, filename), error_class=SchemaParseError)
        self.types = SchemaTypeParser(self.L)

    def parse(self) -> FunctionSchema:
        result = self.parse_declaration()
        if isinstance(result, OperatorName):
            self.L.error(f"expected '(' and the arguments but found {self.L.cur.describe()}")
        self.L.expect("eof", "end of the schema")
        return result  # type: ignore[return-value]

    def parse_declaration(self) -> FunctionSchema | OperatorName:
        L = self.L
        name = self.parse_name()
        if L.cur.kind != "(":
            return name
        L.next()
        arguments: list[Argument] = []
        kwarg_only = is_vararg = False
        default_seen: Token | None = None
        if not L.next_if(")"):
            while True:
                if is_vararg:
                    L.error("'...' must be the last element of the argument list")
                if L.next_if("*"):
                    kwarg_only = True
                elif L.cur.kind == "...":
                    dots = L.next()
                    is_vararg = True
                    if default_seen is not None:
                        L.error("schemas with varargs (...) cannot have default values", dots)
                else:
                    start = L.cur
                    arg = self.parse_argument(is_return=False, kwarg_only=kwarg_only)
                    if arg.has_default_value:
                        default_seen = start
                        if is_vararg:
                            L.error("schemas with varargs (...) cannot have default values", start)
                    elif (
                        default_seen is not None
                        and not kwarg_only
                        and not isinstance(arg.type, ListType)
                    ):
                        L.error(
                            f"non-default positional argument '{arg.name}' follows an argument "
                            "with a default value",
                            start,
                        )
                    arguments.append(arg)
                if L.next_if(")"):
                    break
                L.expect(",", "',' or ')'")
        L.expect("->", "'->' and the returns")
        returns: list[Argument] = []
        is_varret = False
        if L.next_if("..."):
            is_varret = True
        elif L.next_if("("):
            if not L.next_if(")"):
                while True:
                    if is_varret:
                        L.error("'...' must be the last element of the return list")
                    if L.next_if("..."):
                        is_varret = True
                    else:
                        returns.append(self.parse_argument(is_return=True, kwarg_only=False))
                    if L.next_if(")"):
                        break
                    L.expect(",", "',' or ')'")
        else:
            returns.append(self.parse_argument(is_return=True, kwarg_only=False))
        return FunctionSchema(
            name.name,
            name.overload_name,
            arguments,
            returns,
            is_vararg=is_vararg,
            is_varret=is_varret,
        )

    def parse_name(self) -> OperatorName:
        L = self.L
        first = L.expect("ident", "an operator name like aten::add")
        name = first.text
        if L.next_if("::"):
            name += "::" + L.expect("ident", "an operator name after '::'").text
        overload = ""
        if L.next_if("."):
            tok = L.expect("ident", "an overload name")
            overload = tok.text
            if overload == "default" or overload.startswith("__"):
                L.error(f"'{overload}' is not a legal overload name", tok)
        return OperatorName(name, overload)

    def parse_argument(self, *, is_return: bool, kwarg_only: bool) -> Argument:
        L = self.L
        fake, real, alias = self.types.parse_fake_and_real_type()
        N: int | None = None
        if L.cur.kind == "[":
            # a fixed-size list, `int[2]`; only arguments (not nested types) have these
            L.next()
            size = L.expect("number", "a list size")
            if not size.text.isdigit():
                L.error(f"expected a list size but found {size.describe()}", size)
            N = int(size.text)
            L.expect("]")
            fake, real = ListType(fake), ListType(real)
            alias = self.types._container_alias(alias)
            if L.next_if("?"):
                fake, real = OptionalType.create(fake), OptionalType.create(real)
        default: Any = _MISSING
        if is_return:
            name = L.next().text if L.cur.kind == "ident" else ""
        else:
            name = L.expect("ident", "an argument name").text
            if L.next_if("="):
                default = self.parse_default(fake, real, N)
        return Argument(
            name,
            fake,
            real_type=real,
            N=N,
            default_value=default,
            kwarg_only=kwarg_only and not is_return,
            alias_info=alias,
        )

    # -- default values, as PyTorch's parseDefaultValue

    def parse_default(self, fake: Type, real: Type, N: int | None) -> Any:
        L = self.L
        tok = L.cur
        if isinstance(fake, (TensorType, GeneratorType, QuantizerType)):
            self._expect_none()
            return None
        if isinstance(
            fake,
            (
                StringType,
                OptionalType,
                NumberType,
                IntType,
                BoolType,
                FloatType,
                ComplexType,
            ),
        ):
            return self.parse_single_constant(fake, real)
        if isinstance(fake, DeviceType):
            return self._device(tok)
        if isinstance(fake, ListType):
            elem = fake.element
            real_elem = real.element if isinstance(real, ListType) else elem
            if tok.kind == "ident" and tok.text == "None":
                L.next()
                return None
            if N is not None and tok.kind != "[":
                value = self.parse_single_constant(elem, real_elem)
                if N > _MAX_REPEATED_DEFAULT:
                    L.error(f"a default repeated {N} times is too long", tok)
                return self._convert_list(elem, [value] * N, tok)
            L.expect("[", "a list default like [0, 1]")
            items: list[Any] = []
            if not L.next_if("]"):
                while True:
                    items.append(self.parse_single_constant(elem, real_elem))
                    if L.next_if("]"):
                        break
                    L.expect(",", "',' or ']'")
            return self._convert_list(elem, items, tok)
        L.error(f"arguments of type {fake.annotation_str()} cannot have a default value", tok)
        raise AssertionError  # unreachable

    def _expect_none(self) -> None:
        tok = self.L.cur
        if not (tok.kind == "ident" and tok.text == "None"):
            self.L.error(f"expected the default None but found {tok.describe()}")
        self.L.next()

    def _device(self, tok: Token) -> Device:
        L = self.L
        if tok.kind == "string" or tok.kind == "ident":
            text = self._string(L.next()) if tok.kind == "string" else L.next().text
            if tok.kind == "ident" and L.cur.kind == ":" and L.lookahead().kind == "number":
                L.next()
                text += ":" + L.next().text
            try:
                return Device(text)
            except ValueError:
                L.error(f"invalid device {text!r}", tok)
        L.error(f"expected a device string but found {tok.describe()}", tok)
        raise AssertionError  # unreachable

    def parse_single_constant(self, fake: Type, real: Type) -> Any:
        L = self.L
        tok = L.cur
        if tok.kind == "string":
            return self._string(L.next())
        if tok.kind == "ident":
            text = tok.text
            if text == "True":
                L.next()
                return True
            if text == "False":
                L.next()
                return False
            if text == "None":
                L.next()
                return None
            if text in ("inf", "nan"):
                L.next()
                return float(text)
            if text in _NAMED_DEFAULTS:
                L.next()
                return _NAMED_DEFAULTS[text]
            if _is_scalar_type(real):
                dtype = _dtype_by_name(text)
                if dtype is not None:
                    L.next()
                    return dtype
            L.error(f"invalid default value {text!r}")
        negative = L.next_if("-") is not None
        tok = L.cur
        if tok.kind == "ident" and tok.text in ("inf", "nan"):
            L.next()
            value: Any = float(tok.text)
        else:
            value = self._number(L.expect("number", "a default value"))
        if negative:
            value = -value
        # PyTorch prints complex defaults as `1.+2.j`
        if not isinstance(value, complex) and L.cur.kind in ("+", "-"):
            nxt = L.lookahead()
            if nxt.kind == "number" and nxt.text[-1] in "jJ":
                sign = -1.0 if L.next().kind == "-" else 1.0
                value = complex(value, sign * self._number(L.next()).imag)
        try:
            if isinstance(fake, ComplexType):
                return complex(value)
            if isinstance(fake, FloatType) and not isinstance(value, complex):
                return float(value)
        except OverflowError:
            L.error(f"{value} is too large for a {fake.annotation_str()}", tok)
        return value

    def _number(self, tok: Token) -> Any:
        try:
            return parse_number(tok.text)
        except ValueError:
            self.L.error(f"invalid number {tok.text!r}", tok)
            raise AssertionError from None  # unreachable

    def _convert_list(self, elem: Type, values: list[Any], tok: Token) -> list[Any]:
        """A list default's elements as the element type, as PyTorch's convertToList."""
        checks: tuple[tuple[type, ...], Callable[[Any], Any]]
        if isinstance(elem, ComplexType):
            checks = ((int, float, complex), complex)
        elif isinstance(elem, FloatType):
            checks = ((int, float), float)
        elif isinstance(elem, IntType):
            checks = ((int,), int)
        elif isinstance(elem, BoolType):
            checks = ((bool,), bool)
        else:
            self.L.error(
                "list defaults are only supported for float, int, complex and bool lists", tok
            )
            raise AssertionError  # unreachable
        kinds, convert = checks
        out: list[Any] = []
        for v in values:
            if not isinstance(v, kinds) or (convert is not bool and isinstance(v, bool)):
                self.L.error(f"{v!r} is not a valid element of a {elem.annotation_str()} list", tok)
            try:
                out.append(convert(v))
            except OverflowError:
                self.L.error(f"{v} is too large for a {elem.annotation_str()}", tok)
        return out

    def _string(self, tok: Token) -> str:
        try:
            value = tok.value
            # every default must print back: no lone surrogates
            value.encode("utf-8", errors="surrogateescape")  # type: ignore[union-attr]
        except (ValueError, OverflowError, UnicodeError):
            self.L.error(f"invalid string literal {tok.text}", tok)
        if isinstance(value, bytes):  # pragma: no cover - the flat lexer has no prefixes
            self.L.error("byte strings are not schema defaults", tok)
        return value  # type: ignore[return-value]


def _is_scalar_type(t: Type) -> bool:
    return isinstance(t, ScalarTypeType) or (
        isinstance(t, OptionalType) and isinstance(t.element, ScalarTypeType)
    )


def _dtype_by_name(name: str) -> int | None:
    try:
        return int(ScalarType.from_python_name(name))
    except ValueError:
        pass
    member = ScalarType.__members__.get(name)
    return None if member is None else int(member)


@functools.lru_cache(maxsize=8192)
def parse_schema(text: str) -> FunctionSchema:
    """Parse one schema: `parse_schema("aten::relu(Tensor self) -> Tensor")`.

    Raises `SchemaParseError` (with line, column and a caret) for malformed text.
    Results are cached: schemas are immutable, so equal texts share one object.
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_schema needs a str, got {type(text).__name__}")
    try:
        return SchemaParser(text).parse()
    except RecursionError:
        raise SchemaParseError("schema nested too deeply") from None


def parse_schema_or_name(text: str) -> FunctionSchema | OperatorName:
    """A schema, or only an operator name (`aten::add.Tensor`) when no arguments follow."""
    parser = SchemaParser(text)
    try:
        result = parser.parse_declaration()
        parser.L.expect("eof", "end of the schema")
    except RecursionError:
        raise SchemaParseError("schema nested too deeply") from None
    return result


__all__ = [
    "OperatorName",
    "SchemaParser",
    "SchemaTypeParser",
    "parse_schema",
    "parse_schema_or_name",
]
