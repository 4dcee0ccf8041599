import math

import pytest
from ir_helpers import node_of
from ts_ir import (
    AttributeKind,
    BoolType,
    Graph,
    IntType,
    ListType,
    OptionalType,
    SourceLocation,
    TensorLiteral,
    TensorType,
    format_double,
    format_ivalue,
    parse_ir,
    print_node,
    quote_string,
)
from ts_ir.attributes import format_complex


@pytest.fixture(autouse=True)
def _default_verbosity(monkeypatch):
    monkeypatch.delenv("TS_JIT_TYPE_VERBOSITY", raising=False)


def test_graph_with_blocks_and_zero_output_nodes():
    g = Graph()
    x = g.add_input("x.1")
    c = g.add_input("c", BoolType())
    one = g.insert_constant(1)
    add = g.insert_node(g.create("aten::add", [x, x, one]))
    add.output().set_debug_name("y")
    if_node = g.insert_node(g.create("prim::If", [c], 0))
    then, other = if_node.add_block(), if_node.add_block()
    then.append_node(g.create("prim::Print", [add.output()], 0))
    g.register_output(add.output())
    assert other.is_empty()
    assert str(g) == (
        "graph(%x.1 : Tensor,\n"
        "      %c : bool):\n"
        "  %2 : int = prim::Constant[value=1]()\n"
        "  %y : Tensor = aten::add(%x.1, %x.1, %2)\n"
        "   = prim::If(%c)\n"
        "    block0():\n"
        "       = prim::Print(%y)\n"
        "      -> ()\n"
        "    block1():\n"
        "      -> ()\n"
        "  return (%y)\n"
    )


def test_loop_blocks_print_their_inputs_and_multiple_outputs():
    g = parse_ir(
        """graph(%n : int, %c : bool, %x : Tensor):
  %a : Tensor, %k : int = prim::Loop(%n, %c, %x, %n)
    block0(%i : int, %h : Tensor, %m : int):
      -> (%c, %h, %i)
  return (%a, %k)
"""
    )
    loop = node_of(g, "prim::Loop")
    assert str(loop) == (
        "%a : Tensor, %k : int = prim::Loop(%n, %c, %x, %n)\n"
        "  block0(%i : int, %h : Tensor, %m : int):\n"
        "    -> (%c, %h, %i)\n"
    )


def one_attribute(kind, value):
    g = Graph()
    n = g.create("aten::n", [], 0)
    g.append_node(n)
    n.set_attr("value", kind, value)
    return print_node(n).strip()


K = AttributeKind


@pytest.mark.parametrize(
    ("kind", "value", "printed"),
    [
        (K.f, 1.0, "[value=1.]"),
        (K.f, 1e-05, "[value=1.0000000000000001e-05]"),
        (K.f, -0.0, "[value=-0.]"),
        (K.f, 0.1, "[value=0.10000000000000001]"),
        (K.f, -2.5, "[value=-2.5]"),
        (K.f, 1e20, "[value=1e+20]"),
        (K.f, math.inf, "[value=inf]"),
        (K.f, -math.inf, "[value=-inf]"),
        (K.f, math.nan, "[value=nan]"),
        (K.i, -7, "[value=-7]"),
        (K.c, 1 + 2j, "[value=1.+2.j]"),
        (K.c, complex(0.5, -0.0), "[value=0.5-0.j]"),
        (K.s, 'a"b\\c\n\t', '[value="a\\"b\\\\c\\n\\t"]'),
        (K.s, "it's", '[value="it\\\'s"]'),
        (K.s, "é€", '[value="\\303\\251\\342\\202\\254"]'),
        (K.s, "\x01\x7f", '[value="\\001\\177"]'),
        (K.is_, [1, -2, 3], "[value=[1, -2, 3]]"),
        (K.is_, [], "[value=[]]"),
        (K.fs, [1.0, 2.5], "[value=[1., 2.5]]"),
        (K.cs, [1j], "[value=[0.+1.j]]"),
        (K.ss, ["a", "b"], '[value=["a", "b"]]'),
        (K.t, TensorLiteral(0), "[value={0}]"),
        (K.t, TensorLiteral(1.5), "[value={1.5}]"),
        (K.t, TensorLiteral(True), "[value={1}]"),
        (K.t, TensorLiteral(1e-05), "[value={1e-05}]"),
        (K.t, object(), "[value=<Tensor>]"),
        (K.ts, [TensorLiteral(0)], "[value=[<Tensors>]]"),
        (K.g, Graph(), "[value=<Graph>]"),
        (K.gs, [Graph()], "[value=[<Graphs>]]"),
        (K.ty, ListType(IntType()), "[value=int[]]"),
        (K.tys, [IntType(), OptionalType(TensorType.get())], "[value=[int, Tensor?]]"),
        (K.ival, (1, "a", None, [1.0], True), '[value=(1, "a", None, [1.], True)]'),
        (K.ival, (7,), "[value=(7,)]"),
        (K.ival, {"a": 1}, '[value={"a": 1}]'),
    ],
)
def test_attribute_forms(kind, value, printed):
    assert one_attribute(kind, value) == f"= aten::n{printed}()"


def test_several_attributes_print_in_insertion_order():
    g = Graph()
    n = g.create("aten::n", [], 0)
    n.s_("name", "w").i_("dim", 1)
    assert print_node(n) == ' = aten::n[name="w", dim=1]()\n'


@pytest.mark.parametrize(
    ("d", "text"),
    [
        (1.0, "1."),
        (-3.0, "-3."),
        (0.0, "0."),
        (-0.0, "-0."),
        (1e10, "10000000000"),
        (9999999999.0, "9999999999."),
        (0.5, "0.5"),
        (1 / 3, "0.33333333333333331"),
        (1e-300, "1e-300"),
        (2.5e-7, "2.4999999999999999e-07"),
        (math.inf, "inf"),
    ],
)
def test_format_double(d, text):
    assert format_double(d) == text
    if math.isfinite(d):
        assert float(text) == d


def test_format_complex_and_ivalue():
    assert format_complex(complex(-1, 2)) == "-1.+2.j"
    assert format_complex(complex(1, -0.5)) == "1.-0.5j"
    assert format_ivalue([1, [2.0, "x"]]) == '[1, [2., "x"]]'
    assert format_ivalue({1: (2,)}) == "{1: (2,)}"
    assert format_ivalue(None) == "None"
    assert quote_string("") == '""'


SUBGRAPHS = """graph(%x : Tensor,
      %c : bool):
  %y : Tensor = prim::If(%c)
    block0():
      %a : Tensor = prim::FusionGroup_0(%x)
      -> (%a)
    block1():
      -> (%x)
  %b : Tensor = prim::DifferentiableGraph_1(%y)
  %d : Tensor = prim::FusionGroup_2[inline=1](%b)
  return (%d)
with prim::FusionGroup_0 = graph(%p : Tensor):
  %q : Tensor = prim::FusionGroup_0(%p)
  %r : Tensor = prim::FusionGroup_1(%q)
  return (%r)
with prim::FusionGroup_0 = graph(%s : Tensor):
  %t : Tensor = aten::neg(%s)
  return (%t)
with prim::FusionGroup_1 = graph(%s : Tensor):
  %t : Tensor = prim::CudaFusionGroup_0(%s)
  return (%t)
with prim::CudaFusionGroup_0 = graph(%u : Tensor):
  %v : Tensor = aten::relu(%u)
  return (%v)
with prim::DifferentiableGraph_1 = graph(%e : Tensor):
  %f : Tensor = aten::sigmoid(%e)
  return (%f)
with prim::FusionGroup_2 = graph(%g : Tensor):
  %h : Tensor = aten::tanh(%g)
  return (%h)
"""


def test_subgraph_sections_numbered_per_graph_and_printed_depth_first():
    g = parse_ir(SUBGRAPHS)
    assert str(g) == SUBGRAPHS
    # the numbers are not part of the kinds: they come from the order of printing
    kinds = [n.kind for n in g.all_nodes()]
    assert kinds == [
        "prim::If",
        "prim::FusionGroup",
        "prim::DifferentiableGraph",
        "prim::FusionGroup",
    ]
    fused = node_of(g, "prim::FusionGroup")
    assert str(fused.g("Subgraph")).startswith(
        "graph(%p : Tensor):\n  %q : Tensor = prim::FusionGroup_0"
    )


def test_subgraph_numbers_follow_the_nodes_not_the_text():
    g = parse_ir(SUBGRAPHS)
    # moving the last group to the front renumbers every section
    last = node_of(g, "prim::FusionGroup", 1)
    last.replace_input(0, g.inputs[0])
    node_of(g, "prim::DifferentiableGraph").output().replace_all_uses_with(g.inputs[0])
    last.move_before(node_of(g, "prim::If"))
    text = str(g)
    assert text.index("prim::FusionGroup_0[inline=1](%x)") < text.index("prim::If")
    assert "with prim::FusionGroup_0 = graph(%g : Tensor)" in text
    assert "with prim::FusionGroup_1 = graph(%p : Tensor)" in text
    assert "prim::DifferentiableGraph_2" in text
    assert str(parse_ir(text)) == text


def test_differentiable_graph_hides_its_other_attributes():
    g = Graph()
    n = g.create_with_subgraph("prim::DifferentiableGraph")
    n.g("Subgraph").register_output(n.g("Subgraph").add_input("a"))
    n.i_("extra", 1)
    g.append_node(n)
    assert "prim::DifferentiableGraph_0()" in str(g)
    # printed alone, a node shows its subgraph attribute as a placeholder
    assert print_node(n) == " = prim::DifferentiableGraph[Subgraph=<Graph>, extra=1]()\n"


def test_source_location_comments():
    g = parse_ir("graph(%x : Tensor):\n  %y : Tensor = aten::relu(%x)\n  return (%y)\n")
    relu = node_of(g, "aten::relu")
    relu.source_range = SourceLocation("model.py", 12, 4)
    assert "aten::relu(%x) # model.py:12:4\n" in str(g)
    assert "# model.py" not in g.to_string(source_locations=False)
    assert print_node(relu, source_locations=False) == "%y : Tensor = aten::relu(%x)\n"


def test_types_print_with_the_current_verbosity(monkeypatch):
    g = parse_ir(
        "graph(%x : Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu)):\n  return (%x)\n"
    )
    monkeypatch.setenv("TS_JIT_TYPE_VERBOSITY", "2")
    assert str(g) == "graph(%x : Float(2, 3, strides=[3, 1])):\n  return (%x)\n"
