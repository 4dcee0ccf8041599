"""The schema parser: every form of PyTorch's schema language, and its errors."""

from __future__ import annotations

import math
import re

import pytest
from ts_ir import (
    AnyType,
    AwaitType,
    BoolType,
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
    ListType,
    MemoryFormatType,
    NoneType,
    NumberType,
    OptionalType,
    RRefType,
    ScalarTypeType,
    SourceError,
    StorageType,
    StreamType,
    StringType,
    SymBoolType,
    SymIntType,
    TensorType,
    TorchScriptError,
    TupleType,
    VarType,
)
from ts_schema import OperatorName, SchemaParseError, parse_schema, parse_schema_or_name

TENSOR = TensorType.get()


def arg(text: str, index: int = 0):
    """Argument `index` of a schema made of `text` as its argument list."""
    return parse_schema(f"test::f({text}) -> ()").arguments[index]


# -- names


def test_name_and_overload():
    s = parse_schema("aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor")
    assert s.name == "aten::add"
    assert s.overload_name == "Tensor"
    assert s.key == "aten::add.Tensor"
    assert s.namespace == "aten"


def test_name_without_overload_or_namespace():
    assert parse_schema("aten::relu(Tensor self) -> Tensor").overload_name == ""
    s = parse_schema("forward(Tensor x) -> Tensor")
    assert s.name == "forward"
    assert s.key == "forward"
    assert s.namespace == ""


def test_parse_schema_or_name():
    assert parse_schema_or_name("aten::add.Tensor") == OperatorName("aten::add", "Tensor")
    assert parse_schema_or_name("aten::relu").key == "aten::relu"
    schema = parse_schema_or_name("aten::relu(Tensor self) -> Tensor")
    assert str(schema) == "aten::relu(Tensor self) -> Tensor"


@pytest.mark.parametrize("overload", ["default", "__magic"])
def test_illegal_overload_names(overload):
    with pytest.raises(SchemaParseError, match="not a legal overload name"):
        parse_schema(f"aten::f.{overload}(Tensor self) -> Tensor")


# -- arguments


def test_positional_and_keyword_only():
    s = parse_schema("aten::f(Tensor a, int b, *, bool c, float d=1.) -> Tensor")
    assert [a.kwarg_only for a in s.arguments] == [False, False, True, True]
    assert str(s) == "aten::f(Tensor a, int b, *, bool c, float d=1.) -> Tensor"


def test_varargs_and_varret():
    s = parse_schema("prim::TupleConstruct(...) -> ...")
    assert s.is_vararg and s.is_varret
    assert s.arguments == () and s.returns == ()
    assert str(s) == "prim::TupleConstruct(...) -> ..."
    s = parse_schema("prim::f(Tensor a, ...) -> (Tensor, ...)")
    assert s.is_vararg and s.is_varret and len(s.returns) == 1
    assert str(s) == "prim::f(Tensor a, ...) -> (Tensor, ...)"
    assert parse_schema("prim::f(...) -> (...)") == parse_schema("prim::f(...) -> ...")


@pytest.mark.parametrize(
    ("text", "fake", "real"),
    [
        ("Tensor", TENSOR, TENSOR),
        ("Tensor?", OptionalType(TENSOR), OptionalType(TENSOR)),
        ("Tensor[]", ListType(TENSOR), ListType(TENSOR)),
        ("Tensor?[]", ListType(OptionalType(TENSOR)), ListType(OptionalType(TENSOR))),
        ("int", IntType(), IntType()),
        ("SymInt", IntType(), SymIntType()),
        ("SymInt[]", ListType(IntType()), ListType(SymIntType())),
        ("SymBool", BoolType(), SymBoolType()),
        ("Scalar", NumberType(), NumberType()),
        ("ScalarType", IntType(), ScalarTypeType()),
        ("ScalarType?", OptionalType(IntType()), OptionalType(ScalarTypeType())),
        ("Layout", IntType(), LayoutType()),
        ("MemoryFormat", IntType(), MemoryFormatType()),
        ("Device", DeviceType(), DeviceType()),
        ("Generator?", OptionalType(GeneratorType()), OptionalType(GeneratorType())),
        ("Storage", StorageType(), StorageType()),
        ("Stream", StreamType(), StreamType()),
        ("str", StringType(), StringType()),
        ("bool", BoolType(), BoolType()),
        ("float", FloatType(), FloatType()),
        ("complex", ComplexType(), ComplexType()),
        ("Any", AnyType(), AnyType()),
        ("NoneType", NoneType(), NoneType()),
        ("t", VarType("t"), VarType("t")),
        ("t1[]", ListType(VarType("t1")), ListType(VarType("t1"))),
        (
            "Dict(str, t)",
            DictType(StringType(), VarType("t")),
            DictType(StringType(), VarType("t")),
        ),
        ("Future(t)", FutureType(VarType("t")), FutureType(VarType("t"))),
        ("Await(t)", AwaitType(VarType("t")), AwaitType(VarType("t"))),
        ("RRef(t)", RRefType(VarType("t")), RRefType(VarType("t"))),
        ("(int, str)", TupleType([IntType(), StringType()]), TupleType([IntType(), StringType()])),
    ],
)
def test_types(text, fake, real):
    a = arg(f"{text} x")
    assert a.type == fake
    assert a.real_type == real
    assert str(parse_schema(f"test::f({text} x) -> ()")) == f"test::f({text} x) -> ()"


def test_containers_hold_run_time_types():
    # as in PyTorch's parser: only an argument's own type keeps `ScalarType`
    a = arg("(ScalarType, int) x")
    assert a.real_type == a.type == TupleType([IntType(), IntType()])
    assert str(a) == "(int, int) x"


def test_custom_class_types():
    name = "__torch__.torch.classes.quantized.Conv2dPackedParamsBase"
    a = arg(f"{name} packed")
    assert isinstance(a.type, ClassType)
    assert a.type.qualified_name == name
    # every schema naming the class shares one type
    assert arg(f"{name} other").type is a.type


def test_fixed_size_lists():
    a = arg("int[2] stride")
    assert a.N == 2
    assert a.type == ListType(IntType())
    a = arg("SymInt[1]? dim=None")
    assert a.N == 1
    assert a.type == OptionalType(ListType(IntType()))
    assert a.real_type == OptionalType(ListType(SymIntType()))


@pytest.mark.parametrize("name", ["Dimname", "double", "Foo", "List"])
def test_unknown_types(name):
    with pytest.raises(SchemaParseError) as info:
        parse_schema(f"test::f({name} x) -> ()")
    assert info.value.column == 9


def test_double_suggests_float():
    with pytest.raises(SchemaParseError, match="use 'float'"):
        parse_schema("test::f(double x) -> ()")


def test_annotation_forms_of_containers():
    assert arg("List[int] x").type == ListType(IntType())
    assert arg("Optional[Tensor] x").type == OptionalType(TENSOR)
    assert arg("Tuple[int, str] x").type == TupleType([IntType(), StringType()])
    assert arg("Tuple[()] x").type == TupleType([])


# -- defaults


@pytest.mark.parametrize(
    ("text", "value", "printed"),
    [
        ("int a=0", 0, "int a=0"),
        ("int a=-1", -1, "int a=-1"),
        ("float a=1.", 1.0, "float a=1."),
        ("float a=1", 1.0, "float a=1."),
        ("float a=1e-05", 1e-05, "float a=1.0000000000000001e-05"),
        ("float a=-inf", -math.inf, "float a=-inf"),
        ("float a=inf", math.inf, "float a=inf"),
        ("float? a=1", 1, "float? a=1"),
        ("Scalar a=1", 1, "Scalar a=1"),
        ("Scalar a=0.5", 0.5, "Scalar a=0.5"),
        ("complex a=1j", 1j, "complex a=0.+1.j"),
        ("complex a=0.+1.j", 1j, "complex a=0.+1.j"),
        ("complex a=2.-3.j", 2 - 3j, "complex a=2.-3.j"),
        ("bool a=True", True, "bool a=True"),
        ("bool a=False", False, "bool a=False"),
        ("Tensor? a=None", None, "Tensor? a=None"),
        ("Generator? a=None", None, "Generator? a=None"),
        ('str a="mean"', "mean", 'str a="mean"'),
        ("str a='mean'", "mean", 'str a="mean"'),
        ('str a=" \\n\\t"', " \n\t", 'str a=" \\n\\t"'),
        ('str? a="x"', "x", 'str? a="x"'),
        ("int[] a=[]", [], "int[] a=[]"),
        ("int[] a=[0, 1]", [0, 1], "int[] a=[0, 1]"),
        ("int[2] a=1", [1, 1], "int[2] a=1"),
        ("int[2] a=[1, 1]", [1, 1], "int[2] a=1"),
        ("int[2] a=[1, 2]", [1, 2], "int[2] a=[1, 2]"),
        ("SymInt[2] a=[1, 1]", [1, 1], "SymInt[2] a=[1, 1]"),
        ("float[2] a=1.5", [1.5, 1.5], "float[2] a=[1.5, 1.5]"),
        ("float[] a=[1, 2.5]", [1.0, 2.5], "float[] a=[1., 2.5]"),
        ("bool[3] a=[True, False, True]", [True, False, True], "bool[3] a=[True, False, True]"),
        ("int[]? a=None", None, "int[]? a=None"),
        ("ScalarType a=float", 6, "ScalarType a=6"),
        ("ScalarType? a=float64", 7, "ScalarType? a=7"),
        ("ScalarType? a=long", 4, "ScalarType? a=4"),
        ("Layout a=strided", 0, "Layout a=0"),
        ("MemoryFormat a=contiguous_format", 0, "MemoryFormat a=0"),
        ("int reduction=Mean", 1, "int reduction=1"),
        ('Device a="cuda:1"', Device("cuda", 1), "Device a=cuda:1"),
        ("Device a=cpu", Device("cpu"), "Device a=cpu"),
    ],
)
def test_defaults(text, value, printed):
    a = arg(text)
    assert a.has_default_value
    assert a.default_value == value
    assert type(a.default_value) is type(value)
    assert str(a) == printed
    # the printed form reads back to the same argument
    assert arg(printed) == a


def test_float_default_keeps_int_type_where_pytorch_does():
    # an Optional's default is read by its spelling, as PyTorch does
    assert repr(arg("float? a=1").default_value) == "1"
    assert repr(arg("float? a=1.").default_value) == "1.0"


def test_no_default():
    a = arg("Tensor? a")
    assert not a.has_default_value
    assert a.default_value is None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Tensor a=1", "expected the default None"),
        ("int a=foo", "invalid default value 'foo'"),
        ("ScalarType a=foo", "invalid default value 'foo'"),
        ("int[] a=[1.5]", "not a valid element"),
        ("bool[] a=[1]", "not a valid element"),
        ("str[] a=['x']", "list defaults are only supported"),
        ("Any a=None", "cannot have a default value"),
        ('Device a="tpu"', "invalid device"),
        ("int[100000] a=1", "too long"),
    ],
)
def test_bad_defaults(text, message):
    with pytest.raises(SchemaParseError, match=message):
        arg(text)


# -- alias annotations


def test_alias_annotations_on_arguments_and_returns():
    s = parse_schema(
        "aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)"
    )
    info = s.arguments[0].alias_info
    assert info.before_set == {"a"} and info.after_set == {"a"} and info.is_write
    assert s.arguments[1].alias_info is None
    assert s.returns[0].alias_info == info
    assert s.is_mutable


def test_alias_into_wildcard():
    info = arg("Tensor(a -> *) x").alias_info
    assert info.before_set == {"a"}
    assert info.after_set == {"*"}
    assert not info.is_write
    assert info.is_wildcard_after and not info.is_wildcard_before
    info = arg("t(*) x").alias_info
    assert info.before_set == info.after_set == {"*"}


def test_alias_set_unions_keep_their_written_order():
    s = parse_schema("aten::cpu(Tensor(a) self) -> Tensor(b|a)")
    assert s.returns[0].alias_info.before_set == {"a", "b"}
    assert str(s) == "aten::cpu(Tensor(a) self) -> Tensor(b|a)"


def test_alias_of_list_elements():
    a = arg("Tensor(a!)[] tensors")
    outer = a.alias_info
    assert outer.before_set == frozenset() and outer.after_set == frozenset()
    assert outer.is_write  # the container takes the elements' write flag
    (inner,) = outer.contained_types
    assert inner.before_set == {"a"} and inner.is_write
    assert str(a) == "Tensor(a!)[] tensors"
    ret = parse_schema("aten::unbind.int(Tensor(a -> *) self, int dim=0) -> Tensor(a)[]").returns[0]
    assert ret.alias_info.contained_types[0].before_set == {"a"}


def test_alias_of_the_list_itself():
    a = arg("t[](a!) self")
    assert a.alias_info.before_set == {"a"} and a.alias_info.is_write
    assert a.alias_info.contained_types == ()
    assert str(a) == "t[](a!) self"


def test_alias_on_optional_and_dict():
    a = arg("Tensor(a!)? out")
    assert a.real_type == OptionalType(TENSOR)
    assert a.alias_info.is_write
    assert str(a) == "Tensor(a!)? out"
    a = arg("Dict(int, t)(a) self")
    assert a.alias_info.before_set == {"a"}
    assert str(a) == "Dict(int, t)(a) self"


def test_bare_write_annotation_gets_a_fresh_set():
    # PyTorch prints this form as `Tensor($0! -> )`
    a = arg("Tensor! x")
    assert a.alias_info.is_write
    assert a.alias_info.before_set == {"$0"}
    assert a.alias_info.after_set == frozenset()
    assert str(a) == "Tensor($0! -> ) x"


def test_out_arguments():
    s = parse_schema("aten::abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)")
    assert [a.is_out for a in s.arguments] == [False, True]
    # written but positional: not an out argument
    assert not parse_schema("aten::abs_(Tensor(a!) self) -> Tensor(a!)").arguments[0].is_out


# -- returns


def test_named_returns():
    s = parse_schema(
        "aten::max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)"
    )
    assert [r.name for r in s.returns] == ["values", "indices"]
    assert not any(r.kwarg_only for r in s.returns)


def test_return_forms():
    assert parse_schema("aten::f() -> ()").returns == ()
    assert str(parse_schema("aten::f() -> ()")) == "aten::f() -> ()"
    s = parse_schema("aten::items.str(Dict(str, t) self) -> ((str, t)[])")
    assert s.returns[0].type == ListType(TupleType([StringType(), VarType("t")]))
    assert str(s) == "aten::items.str(Dict(str, t) self) -> ((str, t)[])"
    s = parse_schema("aten::f() -> ((int, int))")
    assert len(s.returns) == 1 and isinstance(s.returns[0].type, TupleType)
    assert str(s) == "aten::f() -> ((int, int))"
    s = parse_schema("aten::f() -> (int, int)")
    assert len(s.returns) == 2


# -- errors


def test_errors_are_source_errors_with_line_column_and_caret():
    text = "aten::add(Tensor self, Tensr other) -> Tensor"
    with pytest.raises(SchemaParseError) as info:
        parse_schema(text)
    error = info.value
    assert isinstance(error, SourceError) and isinstance(error, TorchScriptError)
    assert error.line == 1
    assert error.column == text.index("Tensr") + 1
    assert str(error) == (
        "unknown type 'Tensr'\n"
        "  at line 1, column 24:\n"
        "    aten::add(Tensor self, Tensr other) -> Tensor\n"
        "                           ~~~~~"
    )


def test_error_on_a_later_line_points_there():
    text = "aten::add(Tensor self,\n          Tensor other ->\n Tensor"
    with pytest.raises(SchemaParseError) as info:
        parse_schema(text)
    assert info.value.line == 2
    assert "Tensor other ->" in str(info.value)


@pytest.mark.parametrize(
    ("text", "message", "column"),
    [
        ("", "expected an operator name", 1),
        ("aten::", "expected an operator name after '::'", 7),
        ("aten::f", "expected '(' and the arguments", 8),
        ("aten::f(", "expected a type", 9),
        ("aten::f(Tensor)", "expected an argument name", 15),
        ("aten::f(Tensor x", "expected ',' or ')'", 17),
        ("aten::f(Tensor x)", "expected '->' and the returns", 18),
        ("aten::f(Tensor x) ->", "expected a type", 21),
        ("aten::f(Tensor x) -> Tensor y z", "expected end of the schema", 31),
        ("aten::f(Tensor(a x) -> Tensor", "expected ')' closing the alias annotation", 18),
        ("aten::f(Tensor(!) x) -> Tensor", "expected an alias set name", 16),
        ("aten::f(..., Tensor x) -> Tensor", "must be the last element", 14),
        ("aten::f(Tensor x) -> (..., Tensor)", "must be the last element", 28),
        ("aten::f(int a=1, ...) -> Tensor", "cannot have default values", 18),
        ("aten::f(int a=1, int b) -> Tensor", "non-default positional argument 'b'", 18),
        ("aten::f(int[x] a) -> Tensor", "expected a list size", 13),
        ("aten::f(Dict(str) a) -> Tensor", "Dict takes 2 type arguments, got 1", 9),
        ("aten::f(Tensor a) -> Tensor $", "unexpected character '$'", 29),
        ('aten::f(str a="x) -> Tensor', "unterminated string literal", 15),
    ],
)
def test_error_messages_and_columns(text, message, column):
    with pytest.raises(SchemaParseError, match=re.escape(message)) as info:
        parse_schema(text)
    assert info.value.column == column
    assert "^" in str(info.value) or "~" in str(info.value)


def test_default_after_default_is_fine_for_lists_and_keywords():
    # PyTorch allows lists (broadcasting lists were serialized without defaults)
    parse_schema("aten::f(int a=1, int[] b) -> Tensor")
    parse_schema("aten::f(int a=1, *, int b) -> Tensor")


def test_deep_nesting_is_a_parse_error():
    text = "aten::f(" + "(" * 5000 + "int" + ")" * 5000 + " x) -> ()"
    with pytest.raises(SchemaParseError, match="nested too deeply"):
        parse_schema(text)


def test_parse_is_cached_and_schemas_are_shared():
    text = "aten::relu(Tensor self) -> Tensor"
    assert parse_schema(text) is parse_schema(text)
