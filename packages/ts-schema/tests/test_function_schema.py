"""The schema object model: construction, immutability, equality, printing."""

from __future__ import annotations

import pytest
from ts_ir import (
    DictType,
    FutureType,
    IntType,
    ListType,
    NumberType,
    OptionalType,
    StringType,
    Symbol,
    SymIntType,
    TensorType,
    TupleType,
    VarType,
)
from ts_schema import AliasInfo, Argument, FunctionSchema, format_type, parse_schema

TENSOR = TensorType.get()


def test_building_a_schema_by_hand_prints_like_pytorch():
    write_a = AliasInfo(["a"], is_write=True)
    schema = FunctionSchema(
        "aten::add",
        "out",
        [
            Argument("self", TENSOR),
            Argument("other", TENSOR),
            Argument("alpha", NumberType(), default_value=1, kwarg_only=True),
            Argument("out", TENSOR, kwarg_only=True, alias_info=write_a),
        ],
        [Argument("", TENSOR, alias_info=write_a)],
    )
    text = (
        "aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)"
    )
    assert str(schema) == text
    assert schema == parse_schema(text)
    assert hash(schema) == hash(parse_schema(text))


def test_name_is_an_interned_symbol():
    schema = parse_schema("aten::relu(Tensor self) -> Tensor")
    assert isinstance(schema.name, Symbol)
    assert schema.name is Symbol("aten::relu")


def test_schemas_are_immutable():
    schema = parse_schema("aten::relu(Tensor self) -> Tensor")
    with pytest.raises(AttributeError):
        schema.name = "aten::gelu"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        schema.arguments[0].name = "x"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del schema.returns
    info = AliasInfo(["a"])
    with pytest.raises(AttributeError):
        info.is_write = True  # type: ignore[misc]
    assert isinstance(schema.arguments, tuple)


def test_equality_and_hashing_distinguish_every_field():
    base = "aten::f(Tensor a, int b=1) -> Tensor"
    variants = [
        "aten::f.x(Tensor a, int b=1) -> Tensor",
        "aten::g(Tensor a, int b=1) -> Tensor",
        "aten::f(Tensor c, int b=1) -> Tensor",
        "aten::f(Tensor a, int b=2) -> Tensor",
        "aten::f(Tensor a, int b) -> Tensor",
        "aten::f(Tensor a, float b=1.) -> Tensor",
        "aten::f(Tensor a, *, int b=1) -> Tensor",
        "aten::f(Tensor(a) a, int b=1) -> Tensor",
        "aten::f(Tensor a, int b=1) -> Tensor(a)",
        "aten::f(Tensor a, int b=1, ...) -> Tensor".replace("b=1", "b"),
        "aten::f(Tensor a, int b=1) -> (Tensor, Tensor)",
        "aten::f(Tensor a, SymInt b=1) -> Tensor",
        "aten::f(Tensor a, int[2] b=1) -> Tensor",
    ]
    schemas = {parse_schema(base)} | {parse_schema(v) for v in variants}
    assert len(schemas) == len(variants) + 1


def test_float_and_int_defaults_differ():
    assert parse_schema("aten::f(Scalar a=1) -> ()") != parse_schema("aten::f(Scalar a=1.) -> ()")


def test_alias_set_order_does_not_matter_for_equality():
    a = parse_schema("aten::f(Tensor(a) x) -> Tensor(a|b)")
    b = parse_schema("aten::f(Tensor(a) x) -> Tensor(b|a)")
    assert a == b and hash(a) == hash(b)
    assert str(a) != str(b)


def test_argument_fields():
    a = Argument("size", ListType(IntType()), real_type=ListType(SymIntType()), N=2)
    assert a.type == ListType(IntType())
    assert a.real_type == ListType(SymIntType())
    assert a.N == 2
    assert not a.has_default_value and a.default_value is None
    assert not a.kwarg_only and not a.is_out and not a.is_write
    assert str(a) == "SymInt[2] size"
    plain = Argument("x", TENSOR)
    assert plain.real_type is TENSOR


def test_none_default_is_a_default():
    a = Argument("x", OptionalType(TENSOR), default_value=None)
    assert a.has_default_value
    assert str(a) == "Tensor? x=None"


def test_is_out_needs_keyword_only_and_a_write():
    write = AliasInfo(["a"], is_write=True)
    assert Argument("out", TENSOR, kwarg_only=True, alias_info=write).is_out
    assert not Argument("out", TENSOR, alias_info=write).is_out
    assert not Argument("out", TENSOR, kwarg_only=True, alias_info=AliasInfo(["a"])).is_out


def test_is_mutable_looks_at_arguments_only():
    assert parse_schema("aten::f(Tensor(a!) x) -> Tensor(a!)").is_mutable
    assert not parse_schema("aten::f(Tensor(a) x) -> Tensor(a)").is_mutable
    assert not parse_schema("aten::f(Tensor x) -> Tensor(a!)").is_mutable
    assert parse_schema("aten::f(Tensor(a!)[] x) -> ()").is_mutable


def test_alias_info_model():
    info = AliasInfo(["a", "b"], ["*"], is_write=True)
    assert info.before_set == frozenset({"a", "b"})
    assert info.after_set == frozenset({"*"})
    assert info.is_wildcard_after and not info.is_wildcard_before
    assert str(info) == "(a|b! -> *)"
    assert str(AliasInfo(["a"])) == "(a)"
    assert str(AliasInfo(["*"])) == "(*)"
    element = AliasInfo(["a"])
    container = AliasInfo().with_contained(element)
    assert container.contained_types == (element,)
    assert container != AliasInfo()
    assert hash(AliasInfo(["a", "b"])) == hash(AliasInfo(["b", "a"]))


def test_key_and_with_name():
    schema = parse_schema("aten::add.Tensor(Tensor self, Tensor other) -> Tensor")
    assert schema.key == "aten::add.Tensor"
    renamed = schema.with_name("my::add", "")
    assert renamed.key == "my::add"
    assert renamed.arguments == schema.arguments
    assert schema.argument_index_with_name("other") == 1
    assert schema.argument_index_with_name("nope") is None


@pytest.mark.parametrize(
    ("t", "text"),
    [
        (ListType(OptionalType(TENSOR)), "Tensor?[]"),
        (DictType(StringType(), VarType("t")), "Dict(str, t)"),
        (FutureType(VarType("t")), "Future(t)"),
        (TupleType([IntType(), StringType()]), "(int, str)"),
        (NumberType(), "Scalar"),
        (SymIntType(), "SymInt"),
    ],
)
def test_format_type(t, text):
    assert format_type(t) == text


def test_repr():
    schema = parse_schema("aten::relu(Tensor self) -> Tensor")
    assert repr(schema) == "FunctionSchema('aten::relu(Tensor self) -> Tensor')"
    assert repr(schema.arguments[0]) == "Argument('Tensor self')"


@pytest.mark.parametrize(
    "text",
    [
        "aten::f(Tensor(a!)[](b!)[] self) -> ()",
        "aten::f(Tensor[](a!)[] self) -> ()",
        "aten::f(Tensor(a!)[](a!)[] self) -> ()",
    ],
)
def test_alias_annotations_of_nested_lists_print_at_every_level(text):
    schema = parse_schema(text)
    assert str(schema) == text
    assert parse_schema(str(schema)) == schema
