import pytest
from ir_helpers import assert_uses_exact, node_of
from ts_ir import (
    AttributeKind,
    ClassType,
    IntType,
    IRError,
    IRParseError,
    ListType,
    OptionalType,
    ScalarType,
    SourceLocation,
    TensorLiteral,
    TensorType,
    TupleType,
    parse_ir,
    parse_type,
)

K = AttributeKind


def round_trip(text):
    g = parse_ir(text)
    g.lint()
    assert_uses_exact(g)
    assert str(g) == text
    return g


def test_numeric_names_are_kept():
    g = round_trip(
        "graph(%0 : Tensor,\n      %x.1 : int):\n"
        "  %7 : int = prim::Constant[value=1]()\n"
        "  %3 : int = aten::add(%x.1, %7)\n"
        "  return (%3)\n"
    )
    assert [v.unique for v in (g.inputs[0], node_of(g, "prim::Constant").output())] == [0, 7]
    assert not g.inputs[0].has_debug_name() and g.inputs[1].debug_name == "x.1"
    # new values never collide with the numbers the text used
    fresh = g.insert_constant(2)
    assert fresh.unique > 7


def test_numeric_names_are_normalized():
    g = parse_ir("graph(%007 : int):\n  return (%7)\n")
    assert str(g) == "graph(%7 : int):\n  return (%7)\n"


def test_blocks_and_zero_output_nodes():
    round_trip(
        "graph(%x : Tensor,\n      %c : bool,\n      %n : int):\n"
        "   = prim::If(%c)\n"
        "    block0():\n"
        "       = prim::Print(%x)\n"
        "      -> ()\n"
        "    block1():\n"
        "      -> ()\n"
        "  %r : Tensor = prim::Loop(%n, %c, %x)\n"
        "    block0(%i : int, %h : Tensor):\n"
        "      %h2 : Tensor = prim::If(%c)\n"
        "        block0():\n"
        "          -> (%h)\n"
        "        block1():\n"
        "          %z : Tensor = aten::neg(%x)\n"
        "          -> (%z)\n"
        "      -> (%c, %h2)\n"
        "  return (%r)\n"
    )


def attrs_of(text):
    g = round_trip(f"graph():\n   = aten::n{text}()\n  return ()\n")
    n = next(g.nodes())
    return {name: (n.kind_of(name), n.attr(name)) for name in n.attribute_names()}


@pytest.mark.parametrize(
    ("text", "kind", "value"),
    [
        ("1", K.i, 1),
        ("-3", K.i, -3),
        ("1.", K.f, 1.0),
        ("-0.", K.f, -0.0),
        ("1.0000000000000001e-05", K.f, 1e-05),
        ("inf", K.f, float("inf")),
        ("-inf", K.f, float("-inf")),
        ("1.+2.j", K.c, 1 + 2j),
        ("-1.-0.5j", K.c, complex(-1, -0.5)),
        ('"a\\"b\\n\\303\\251"', K.s, 'a"b\né'),
        ("[1, 2]", K.is_, [1, 2]),
        ("[]", K.is_, []),
        ("[1., 2.5]", K.fs, [1.0, 2.5]),
        ("[1.+1.j, 2.-3.j]", K.cs, [1 + 1j, 2 - 3j]),
        ('["a", "b"]', K.ss, ["a", "b"]),
        ("{0}", K.t, TensorLiteral(0)),
        ("{-2.5}", K.t, TensorLiteral(-2.5)),
        ("{-0}", K.t, TensorLiteral(-0.0)),
        ("int[]", K.ty, ListType(IntType())),
        ("(int, Tensor?)", K.ty, TupleType([IntType(), OptionalType(TensorType.get())])),
        ("Float(2, 3)", K.ty, TensorType(ScalarType.Float, sizes=[2, 3])),
        ("(())", K.ty, TupleType([TupleType([])])),
        ("()?", K.ty, OptionalType(TupleType([]))),
        ("[int]", K.tys, [IntType()]),
        ("[(), int]", K.tys, [TupleType([]), IntType()]),
        ("[()[]]", K.tys, [ListType(TupleType([]))]),
        ("[(int, str), Tensor]", K.tys, [parse_type("(int, str)"), TensorType.get()]),
        ("True", K.ival, True),
        ("None", K.ival, None),
        ("[True, False]", K.ival, [True, False]),
        ('(1, "a", None, [1.])', K.ival, (1, "a", None, [1.0])),
        ("(7,)", K.ival, (7,)),
        ("((),)", K.ival, ((),)),
        ("[()]", K.ival, [()]),
        ("[(), ()]", K.ival, [(), ()]),
        ("[(1, 2)]", K.ival, [(1, 2)]),
        ('{"a": 1, "b": [2]}', K.ival, {"a": 1, "b": [2]}),
        ("{1: 2.5}", K.ival, {1: 2.5}),
        ("{True: 1}", K.ival, {True: 1}),
        ("{}", K.ival, {}),
    ],
)
def test_attribute_kinds(text, kind, value):
    assert attrs_of(f"[value={text}]") == {"value": (kind, value)}


def test_types_attribute_of_isinstance():
    g = round_trip(
        "graph(%x : Any):\n  %b : bool = prim::isinstance[types=[int]](%x)\n  return (%b)\n"
    )
    assert node_of(g, "prim::isinstance").tys("types") == [IntType()]


def test_refined_tensor_and_class_types():
    g = round_trip(
        "graph(%self : __torch__.M,\n"
        "      %x : Float(*, 3, requires_grad=1, device=cpu)):\n"
        "  %w : Float(3, 3, strides=[3, 1], requires_grad=0, device=cpu) = "
        'prim::GetAttr[name="weight"](%self)\n'
        "  %y : FloatTensor(requires_grad=1) = aten::mm(%x, %w)\n"
        "  %u : Tensor[Undefined] = prim::AutogradZero()\n"
        "  return (%y)\n"
    )
    self_type = g.inputs[0].type
    assert isinstance(self_type, ClassType) and self_type.qualified_name == "__torch__.M"
    w = node_of(g, "prim::GetAttr").output()
    assert w.type.is_complete() and w.type.strides == (3, 1)


def test_comments_become_source_locations():
    g = round_trip(
        "graph(%x : Tensor):\n"
        "  %y : Tensor = aten::relu(%x) # corpus/programs.py:12:4\n"
        "  %z : Tensor = aten::neg(%y)\n"
        "  return (%z)\n"
    )
    assert node_of(g, "aten::relu").source_range == SourceLocation("corpus/programs.py", 12, 4)
    assert node_of(g, "aten::neg").source_range is None


def test_comments_that_are_not_locations_are_ignored():
    g = parse_ir(
        "# a leading comment\n"
        "graph(%x : Tensor): # not a location\n"
        "  # on its own line: test.py:1:2\n"
        "  %y : Tensor = aten::relu(%x) # just words\n"
        "  return (%y)\n"
    )
    assert node_of(g, "aten::relu").source_range is None
    assert str(g) == "graph(%x : Tensor):\n  %y : Tensor = aten::relu(%x)\n  return (%y)\n"


def test_nested_subgraph_sections():
    text = (
        "graph(%x : Tensor):\n"
        "  %y : Tensor = prim::FusionGroup_0(%x)\n"
        "   = prim::Other_1[n=1](%y)\n"
        "  return (%y)\n"
        "with prim::FusionGroup_0 = graph(%a : Tensor):\n"
        "  %b : Tensor = prim::Inner_0(%a)\n"
        "  return (%b)\n"
        "with prim::Inner_0 = graph(%c : Tensor):\n"
        "  return (%c)\n"
        "with prim::Other_1 = graph():\n"
        "  return ()\n"
    )
    g = round_trip(text)
    fused, other = node_of(g, "prim::FusionGroup"), node_of(g, "prim::Other")
    assert other.i("n") == 1 and other.attribute_names() == ["Subgraph", "n"]
    inner = node_of(fused.g("Subgraph"), "prim::Inner")
    assert str(inner.g("Subgraph")) == "graph(%c : Tensor):\n  return (%c)\n"


def test_kinds_ending_in_a_number_without_a_section_stay_as_they_are():
    g = round_trip("graph():\n   = aten::foo_1()\n   = aten::bar_0()\n  return ()\n")
    assert [n.kind for n in g.nodes()] == ["aten::foo_1", "aten::bar_0"]


def test_whitespace_and_newlines_are_free():
    g = parse_ir("graph(%x:Tensor):%y:Tensor=aten::relu(%x)\n\n\treturn(%y)")
    assert str(g) == "graph(%x : Tensor):\n  %y : Tensor = aten::relu(%x)\n  return (%y)\n"


def test_filename_appears_in_errors():
    with pytest.raises(IRParseError) as info:
        parse_ir("graph(%x : Tensor):\n  return (%q)\n", filename="my.ir")
    assert "at my.ir:2:11:" in str(info.value)


UNDEFINED = "graph(%x : Tensor):\n  %y : Tensor = aten::relu(%z)\n  return (%y)\n"
OUT_OF_BLOCK = """graph(%c : bool):
  %y : int = prim::If(%c)
    block0():
      %a : int = prim::Constant[value=1]()
      -> (%a)
    block1():
      -> (%a)
  return (%y)
"""
USED_AFTER_BLOCK = """graph(%c : bool):
  %y : int = prim::If(%c)
    block0():
      %a : int = prim::Constant[value=1]()
      -> (%a)
    block1():
      -> (%c)
  return (%a)
"""
OWN_BLOCK_USES_OUTPUT = """graph(%c : bool):
  %y : bool = prim::If(%c)
    block0():
      -> (%y)
    block1():
      -> (%c)
  return (%y)
"""
LOOP_ARITY = """graph(%n : int, %c : bool):
  %y : int = prim::Loop(%n, %c, %n)
    block0(%i : int):
      -> (%c, %i)
  return (%y)
"""


@pytest.mark.parametrize(
    ("text", "line", "column", "message"),
    [
        (UNDEFINED, 2, 28, "value %z is used but not defined in scope"),
        (OUT_OF_BLOCK, 7, 11, "value %a is used but not defined in scope"),
        (USED_AFTER_BLOCK, 8, 11, "value %a is used but not defined in scope"),
        (OWN_BLOCK_USES_OUTPUT, 4, 11, "value %y is used but not defined in scope"),
        ("graph(%x : Tensr):\n  return (%x)\n", 1, 12, "unknown type 'Tensr'"),
        ("graph(%x : Dict(int)):\n  return (%x)\n", 1, 12, "Dict takes 2 type arguments"),
        (
            "graph(%x : Float(2, strides=[1, 1])):\n  return (%x)\n",
            1,
            21,
            "2 strides given for 1 sizes",
        ),
        ("graph(%x : int[):\n  return (%x)\n", 1, 15, "expected ',' or ')' but found '['"),
        (
            'graph():\n  %s : str = prim::Constant[value="abc]()\n  return (%s)\n',
            2,
            35,
            "unterminated string literal",
        ),
        (
            'graph():\n  %s : str = prim::Constant[value="\\U00110000"]()\n  return (%s)\n',
            2,
            35,
            "invalid string literal",
        ),
        (
            "graph():\n  %s : int = prim::Constant[value=1]() $\n  return (%s)\n",
            2,
            40,
            "unexpected character '$'",
        ),
        (
            "graph():\n  %s : int = prim::Constant[value=<Tensor>]()\n  return (%s)\n",
            2,
            35,
            "cannot be read back",
        ),
        (
            "graph():\n  %s : int = prim::Constant[value=]()\n  return (%s)\n",
            2,
            35,
            "expected an attribute value but found ']'",
        ),
        (
            "graph():\n  %s : int = prim::Constant[value={1, 2}]()\n  return (%s)\n",
            2,
            37,
            "expected '}' but found ','",
        ),
        (
            "graph():\n  %s : int = prim::Constant[value=0x_]()\n  return (%s)\n",
            2,
            36,
            "expected ',' or ']'",
        ),
        (
            "graph():\n  %s : int = prim::Constant[value=1, value=2]()\n  return (%s)\n",
            2,
            38,
            "attribute 'value' given twice",
        ),
        (
            "graph(%x : Tensor):\n  %y : Tensor = aten::relu(%x)\n",
            3,
            1,
            "expected a statement or 'return' but found end of input",
        ),
        (
            "graph(%x : Tensor):\n  return (%x)\nfoo\n",
            3,
            1,
            "expected end of input but found 'foo'",
        ),
        (
            "graph(%x : Tensor):\n  %y : Tensor = aten::relu(%x\n  return (%y)\n",
            3,
            3,
            "expected ',' or ')' but found 'return'",
        ),
        ("grph(%x : Tensor):\n  return (%x)\n", 1, 1, "expected 'graph' but found 'grph'"),
        ("", 1, 1, "expected 'graph' but found end of input"),
        ("graph(%² : int):\n  return ()\n", 1, 7, "invalid value name %²"),
        (
            "graph(%x : Tensor):\n  %y : Tensor = relu(%x)\n  return (%y)\n",
            2,
            21,
            "expected '::' but found '('",
        ),
        (
            "graph(%c : bool):\n  %y : int = prim::If(%c)\n    block0():\n      -> ()\n"
            "    block1():\n      -> ()\n  return (%y)\n",
            2,
            14,
            "a prim::If block returns 0 values for 1 outputs",
        ),
        (LOOP_ARITY, 2, 14, "a prim::Loop body takes 1 inputs, not 1 + 1"),
        (
            "graph():\n  %y : int = prim::Constant[value=1]()\n  %z : int = prim::Constant(%y)\n"
            "  return (%z)\n",
            3,
            14,
            "prim::Constant takes no inputs",
        ),
        (
            "graph(%x : Tensor):\n  %y : Tensor = prim::FusionGroup_0(%x)\n  return (%y)\n"
            "with prim::Other_0 = graph(%a : Tensor):\n  return (%a)\n",
            4,
            6,
            "expected the subgraph of prim::FusionGroup_0 but found one for prim::Other_0",
        ),
    ],
)
def test_errors_point_at_the_culprit(text, line, column, message):
    with pytest.raises(IRParseError) as info:
        parse_ir(text)
    err = info.value
    assert (err.line, err.column) == (line, column), str(err)
    assert message in err.message
    # the message shows the offending line with a caret or underline below the culprit
    lines = str(err).split("\n")
    assert lines[0] == err.message
    assert lines[1] == f"  at line {line}, column {column}:"
    source_line = text.split("\n")[line - 1]
    assert lines[2] == "    " + source_line
    marker = lines[3][4:]
    assert marker.index(marker.strip()) == column - 1
    assert set(marker.strip()) <= {"^", "~"}


def test_deep_nesting_is_a_parse_error():
    text = "graph(%x : " + "(" * 5000 + "int" + ")" * 5000 + "):\n  return ()\n"
    with pytest.raises(IRParseError, match="nested too deeply") as info:
        parse_ir(text)
    assert info.value.line == 1


def test_what_pytorchs_parser_accepts_parses():
    # a value without a type is a Tensor; a name defined again names the new value (which
    # prints unnamed, as in PyTorch); an unknown lowercase type name is a type variable
    g = parse_ir("graph(%x):\n  %x = a::a(%x)\n  %x = b::b(%x)\n  return (%x)\n")
    assert str(g) == (
        "graph(%x : Tensor):\n  %1 : Tensor = a::a(%x)\n  %2 : Tensor = b::b(%1)\n  return (%2)\n"
    )
    assert str(parse_ir("graph(%a : string):\n  return (%a)\n")).startswith("graph(%a : string)")


def test_an_if_with_one_block_or_a_tensor_condition_parses_and_fails_lint():
    text = (
        "graph(%c : Tensor, %x : Tensor):\n  %y : Tensor = prim::If(%c)\n    block0():\n"
        "      -> (%x)\n  return (%y)\n"
    )
    g = parse_ir(text)
    assert "prim::If(%c)" in str(g)
    with pytest.raises(IRError, match="two blocks"):
        g.lint()


def test_node_without_outputs_may_leave_out_the_equals_sign():
    # PyTorch's parser takes `prim::Print(%a)` bare; the printer writes ` = prim::Print(%a)`
    bare = parse_ir("graph(%a : Tensor):\n  prim::Print(%a)\n  return ()\n")
    printed = parse_ir("graph(%a : Tensor):\n   = prim::Print(%a)\n  return ()\n")
    assert str(bare) == str(printed) == "graph(%a : Tensor):\n   = prim::Print(%a)\n  return ()\n"
    with pytest.raises(IRParseError):
        parse_ir("graph(%a : Tensor):\n  prim::Print\n  return ()\n")
    with pytest.raises(IRParseError):  # outputs still need their ` = `
        parse_ir("graph(%a : Tensor):\n  %b : Tensor aten::neg(%a)\n  return (%b)\n")
