"""Value names, attributes, copies, constants and node metadata."""

import math

import pytest
from ir_helpers import assert_uses_exact, node_of, renumbered
from ts_ir import (
    HOOKS,
    AttributeKind,
    BoolType,
    ComplexType,
    Device,
    DeviceType,
    FloatType,
    Graph,
    IntType,
    IRError,
    ListType,
    NoneType,
    OptionalType,
    StringType,
    TensorLiteral,
    TensorType,
    TupleType,
    aten,
    attr,
    constant_type_of,
    constant_value,
    is_constant,
    is_valid_name,
    parse_ir,
    prim,
)

INT, BOOL = IntType(), BoolType()

# ---------------------------------------------------------------------------
# Debug names


def new_value(g, name=None):
    n = g.create("aten::v", [])
    g.append_node(n)
    if name is not None:
        n.output().set_debug_name(name)
    return n.output()


def test_unnamed_values_print_their_unique_number():
    g = Graph()
    v = new_value(g)
    assert not v.has_debug_name()
    assert v.debug_name == str(v.unique)
    w = new_value(g)
    assert w.unique != v.unique


def test_taking_a_name_renames_its_owner_like_torchscript():
    g = Graph()
    a = new_value(g, "x")
    b = new_value(g, "x")
    assert (a.debug_name, b.debug_name) == ("x.1", "x")
    c = new_value(g, "x")
    # TorchScript remembers the next suffix per base name and skips the one after it
    assert (a.debug_name, b.debug_name, c.debug_name) == ("x.1", "x.3", "x")
    g.lint()


def test_taken_suffixes_are_skipped():
    g = Graph()
    a = new_value(g, "x")
    b = new_value(g, "x.1")
    c = new_value(g, "x")
    assert (a.debug_name, b.debug_name, c.debug_name) == ("x.2", "x.1", "x")
    g.lint()


def test_a_suffixed_name_continues_its_count():
    g = Graph()
    a = new_value(g, "y.5")
    b = new_value(g, "y.5")
    assert (a.debug_name, b.debug_name) == ("y.6", "y.5")
    assert a.debug_name_base() == "y" and new_value(g, "y.z").debug_name_base() == "y.z"


def test_names_are_freed_when_values_die():
    g = Graph()
    a = new_value(g, "x")
    a.node.destroy()
    b = new_value(g, "x")
    assert b.debug_name == "x"
    assert not a.has_debug_name()
    c = g.add_input("in")
    g.erase_input(0)
    assert new_value(g, "in").debug_name == "in"
    assert c.debug_name != "in"
    g.lint()


def test_renaming_and_clearing():
    g = Graph()
    a = new_value(g, "x")
    a.set_debug_name("y")
    assert new_value(g, "x").debug_name == "x"  # "x" was released
    a.set_debug_name("y")  # taking one's own name again changes nothing
    assert a.debug_name == "y"
    a.set_debug_name(None)
    assert not a.has_debug_name()
    assert new_value(g, "y").debug_name == "y"
    g.lint()


@pytest.mark.parametrize("bad", ["3", "007", "a b", "x-1", "%x", "a:b"])
def test_invalid_names_are_rejected(bad):
    g = Graph()
    with pytest.raises(IRError, match="invalid value name"):
        new_value(g, bad)
    assert not is_valid_name(bad)


@pytest.mark.parametrize("good", ["x", "x.1", "_", "self.weight", "1.5", "a1", "é"])
def test_valid_names(good):
    assert is_valid_name(good)
    assert new_value(Graph(), good).debug_name == good


def test_names_are_per_graph():
    g1, g2 = Graph(), Graph()
    a, b = new_value(g1, "x"), new_value(g2, "x")
    assert (a.debug_name, b.debug_name) == ("x", "x")


# ---------------------------------------------------------------------------
# Attributes


def node():
    g = Graph()
    n = g.create("aten::n", [], 0)
    g.append_node(n)
    return n


ATTRIBUTE_CASES = [
    ("i", "i_", 3, 3),
    ("i", "i_", True, 1),
    ("f", "f_", 1.5, 1.5),
    ("f", "f_", 2, 2.0),
    ("c", "c_", 1 + 2j, 1 + 2j),
    ("s", "s_", "hi", "hi"),
    ("ints", "is_", (1, 2), [1, 2]),
    ("fs", "fs_", [1, 2.5], [1.0, 2.5]),
    ("cs", "cs_", [1j, 2], [1j, 2 + 0j]),
    ("ss", "ss_", ("a", "b"), ["a", "b"]),
    ("t", "t_", TensorLiteral(2.0), TensorLiteral(2.0)),
    ("ty", "ty_", ListType(INT), ListType(INT)),
    ("tys", "tys_", (INT, BOOL), [INT, BOOL]),
    ("ival", "ival_", (1, "a", None), (1, "a", None)),
]


@pytest.mark.parametrize(("getter", "setter", "value", "stored"), ATTRIBUTE_CASES)
def test_attribute_setters_and_getters(getter, setter, value, stored):
    n = node()
    assert getattr(n, setter)("a", value) is n
    got = getattr(n, getter)("a")
    assert got == stored and type(got) is type(stored)
    assert n.has_attribute("a") and n.has_attribute("attr::a")
    assert n.attr("a") == stored


@pytest.mark.parametrize(("getter", "setter", "value", "stored"), ATTRIBUTE_CASES)
def test_getters_check_the_kind(getter, setter, value, stored):
    n = node()
    getattr(n, setter)("a", value)
    wrong = "s" if getter != "s" else "i"
    with pytest.raises(IRError, match=r"attribute 'a' of aten::n is of kind \w+, not"):
        getattr(n, wrong)("a")


@pytest.mark.parametrize(
    ("setter", "value"),
    [
        ("i_", 1.5),
        ("i_", "1"),
        ("f_", True),
        ("f_", "x"),
        ("c_", False),
        ("s_", 3),
        ("is_", [1, 2.5]),
        ("fs_", [1.0, "x"]),
        ("ss_", ["a", 1]),
        ("g_", "not a graph"),
        ("gs_", [Graph(), 1]),
        ("ty_", int),
        ("tys_", [INT, "int"]),
        ("t_", None),
    ],
)
def test_setters_check_values(setter, value):
    n = node()
    with pytest.raises(IRError, match="cannot hold"):
        getattr(n, setter)("a", value)
    assert not n.has_attribute("a")


def test_graph_attributes():
    n = node()
    sub, sub2 = Graph(), Graph()
    n.g_("Subgraph", sub).gs_("graphs", [sub, sub2])
    assert n.g("Subgraph") is sub
    assert n.gs("graphs") == [sub, sub2]
    assert n.kind_of("Subgraph") is AttributeKind.g and n.kind_of("graphs") is AttributeKind.gs


def test_attribute_bookkeeping():
    n = node()
    assert not n.has_attributes() and n.attribute_names() == []
    n.i_("b", 1).s_(attr.a, "x").i_("b", 2)
    assert n.attribute_names() == ["b", "a"]
    assert n.i("b") == 2
    n.remove_attribute("attr::b")
    assert n.attribute_names() == ["a"]
    with pytest.raises(IRError, match="has no attribute 'b'"):
        n.remove_attribute("b")
    with pytest.raises(IRError, match="has no attribute 'zz'"):
        n.i("zz")


def test_copy_attributes():
    src, dst = node(), node()
    sub = parse_ir("graph(%x : Tensor):\n  return (%x)\n")
    src.is_("ints", [1, 2]).g_("Subgraph", sub)
    dst.i_("old", 1)
    dst.copy_attributes(src)
    assert dst.attribute_names() == ["ints", "Subgraph"]
    dst.ints("ints").append(3)
    assert src.ints("ints") == [1, 2]  # lists are copied
    assert dst.g("Subgraph") is not sub and str(dst.g("Subgraph")) == str(sub)
    shallow = node().copy_attributes(src, deep_graphs=False)
    assert shallow.g("Subgraph") is sub


# ---------------------------------------------------------------------------
# copy and create_clone

WITH_EVERYTHING = """graph(%x : Tensor,
      %n : int,
      %c : bool):
  %one : int = prim::Constant[value=1]()
  %r : Tensor = prim::Loop(%n, %c, %x)
    block0(%i : int, %h : Tensor):
      %t : Tensor = prim::If(%c)
        block0():
          %u : Tensor = aten::mul(%h, %one) # f.py:3:4
          -> (%u)
        block1():
          -> (%h)
      -> (%c, %t)
  %5 : Tensor = prim::FusionGroup_0(%r)
  return (%5)
with prim::FusionGroup_0 = graph(%a : Tensor):
  %b : Tensor = prim::FusionGroup_0(%a)
  return (%b)
with prim::FusionGroup_0 = graph(%p : Tensor):
  %q : Tensor = aten::neg(%p)
  return (%q)
"""


def test_copy_is_deep_and_keeps_names():
    g = parse_ir(WITH_EVERYTHING)
    c = g.copy()
    c.lint()
    assert_uses_exact(c)
    assert renumbered(str(c)) == renumbered(str(g))
    originals = {id(n) for n in g.all_nodes()}
    assert not any(id(n) in originals for n in c.all_nodes())
    fg, cfg = node_of(g, "prim::FusionGroup"), node_of(c, "prim::FusionGroup")
    assert cfg.g("Subgraph") is not fg.g("Subgraph")
    inner, cinner = (node_of(x.g("Subgraph"), "prim::FusionGroup") for x in (fg, cfg))
    assert cinner.g("Subgraph") is not inner.g("Subgraph")
    assert node_of(c, "aten::mul").source_range == node_of(g, "aten::mul").source_range


def test_copy_is_independent_afterwards():
    g = parse_ir(WITH_EVERYTHING)
    text = str(g)
    c = g.copy()
    node_of(c, "aten::mul").output().set_debug_name("changed")
    node_of(c, "prim::FusionGroup").g("Subgraph").inputs[0].set_debug_name("z")
    mul = node_of(c, "aten::mul")
    mul.replace_input(1, c.inputs[1])
    c.erase_output(0)
    assert str(g) == text
    assert_uses_exact(g)
    assert_uses_exact(c)
    g.lint()
    c.lint()


def test_copy_renumbers_unnamed_values_consistently():
    g = parse_ir(
        "graph(%0 : int):\n  %7 : int = aten::neg(%0)\n  %3 : int = aten::neg(%7)\n  return (%3)\n"
    )
    c = g.copy()
    assert renumbered(str(c)) == renumbered(str(g))


def test_create_clone_maps_inputs_and_copies_blocks():
    g = parse_ir(WITH_EVERYTHING)
    loop = node_of(g, "prim::Loop")
    target = Graph()
    env = {v: target.add_input(v.debug_name, v.type) for v in g.inputs}
    one = target.insert_constant(1)
    one.set_debug_name("one")
    env[node_of(g, "prim::Constant").output()] = one
    clone = target.create_clone(loop, lambda v: env[v])
    target.append_node(clone)
    target.register_output(clone.output())
    target.lint()
    assert_uses_exact(target)
    assert [v.debug_name for v in clone.inputs] == ["n", "c", "x"]
    assert clone.output().debug_name == "r"
    assert str(node_of(target, "aten::mul")) == str(node_of(g, "aten::mul"))
    bare = target.create_clone(loop, lambda v: env[v], copy_blocks=False)
    assert bare.blocks == [] and bare.output().debug_name == "r"


# ---------------------------------------------------------------------------
# Constants


CONSTANTS = [
    (None, NoneType(), "prim::Constant()"),
    (True, BOOL, "prim::Constant[value=1]()"),
    (False, BOOL, "prim::Constant[value=0]()"),
    (3, INT, "prim::Constant[value=3]()"),
    (-2, INT, "prim::Constant[value=-2]()"),
    (1.5, FloatType(), "prim::Constant[value=1.5]()"),
    (2.0, FloatType(), "prim::Constant[value=2.]()"),
    (1 - 2j, ComplexType(), "prim::Constant[value=1.-2.j]()"),
    ("hi", StringType(), 'prim::Constant[value="hi"]()'),
    (Device("cuda:1"), DeviceType(), 'prim::Constant[value="cuda:1"]()'),
    ([1, 2], ListType(INT), "prim::Constant[value=[1, 2]]()"),
    ([1.0, 2.5], ListType(FloatType()), "prim::Constant[value=[1., 2.5]]()"),
    (["a"], ListType(StringType()), 'prim::Constant[value=["a"]]()'),
    ([True, False], ListType(BOOL), "prim::Constant[value=[True, False]]()"),
    ((1, "a", 2.5), TupleType([INT, StringType(), FloatType()]), 'value=(1, "a", 2.5)'),
    ((7,), TupleType([INT]), "prim::Constant[value=(7,)]()"),
    ((), TupleType([]), "prim::Constant[value=()]()"),
]


@pytest.mark.parametrize(("value", "expected_type", "printed"), CONSTANTS, ids=repr)
def test_insert_constant_and_read_it_back(value, expected_type, printed):
    g = Graph()
    v = g.insert_constant(value)
    assert v.type == expected_type
    assert is_constant(v)
    back = constant_value(v)
    assert back == value and type(back) is type(value)
    assert printed in str(v.node)
    assert constant_type_of(value) == expected_type
    # and the same after a print/parse round trip
    g.register_output(v)
    again = constant_value(parse_ir(str(g)).outputs[0])
    assert again == value and type(again) is type(value)


class OneElementTensor:
    """The little of a tensor that constants need: numel, dim and item."""

    def __init__(self, value):
        self.value = value

    def numel(self):
        return 1

    def dim(self):
        return 0

    def item(self):
        return self.value


def test_constants_with_explicit_types():
    g = Graph()
    empty = g.insert_constant([], ListType(INT))
    assert empty.type == ListType(INT) and constant_value(empty) == []
    none = g.insert_constant(None, OptionalType(INT))
    assert none.type == OptionalType(INT) and constant_value(none) is None
    floats = g.insert_constant([1, 2], ListType(FloatType()))
    assert constant_value(floats) == [1.0, 2.0]
    tensor = g.insert_constant(OneElementTensor(1.5))
    assert tensor.type == TensorType.get() and "[value={1.5}]" in str(tensor.node)
    assert constant_value(tensor).item() == 1.5
    g.lint()


@pytest.mark.parametrize("bad", [[], [1, "a"], object(), {1, 2}])
def test_unrepresentable_constants_raise(bad):
    with pytest.raises(IRError):
        Graph().insert_constant(bad)


def test_constant_value_of_a_non_constant():
    g = parse_ir("graph(%x : int):\n  return (%x)\n")
    assert not is_constant(g.inputs[0])
    with pytest.raises(IRError, match="not a constant"):
        constant_value(g.inputs[0])


def test_insert_constant_places_it_at_the_insert_point():
    g = parse_ir("graph(%x : int):\n  %y : int = aten::neg(%x)\n  return (%y)\n")
    neg = node_of(g, "aten::neg")
    with g.inserting_before(neg):
        v = g.insert_constant(math.pi, source_range="loc")
    assert v.node.next is neg and v.node.source_range == "loc"


# ---------------------------------------------------------------------------
# Node kinds and metadata


def test_side_effect_hook():
    g = Graph()
    n = g.create("my_ns::mutate")
    saved = HOOKS.has_side_effects
    HOOKS.has_side_effects = lambda node: node.kind == "my_ns::mutate"
    try:
        assert n.has_side_effects()
        assert not g.create("aten::add").has_side_effects()
    finally:
        HOOKS.has_side_effects = saved


def test_registry_hooks_are_required():
    g = Graph()
    n = g.create("aten::add")
    saved = (HOOKS.schema_of, HOOKS.matches, HOOKS.inserter, HOOKS.has_side_effects)
    HOOKS.schema_of = HOOKS.matches = HOOKS.inserter = HOOKS.has_side_effects = None
    try:
        calls = (n.schema, n.maybe_schema, lambda: n.matches("x"), lambda: g.insert(aten.add))
        # what an operator does (its side effects) is the registry's to say, not the IR's
        for call in (*calls, n.has_side_effects):
            with pytest.raises(IRError, match="import ts_schema"):
                call()
    finally:
        HOOKS.schema_of, HOOKS.matches, HOOKS.inserter, HOOKS.has_side_effects = saved


def test_create_helpers():
    g = Graph()
    x, n = g.add_input("x"), g.add_input("n", INT)
    tup = g.insert_node(g.create_tuple([x, n])).output()
    assert tup.type == TupleType([TensorType.get(), INT])
    unpack = g.insert_node(g.create_tuple_unpack(tup))
    assert [o.type for o in unpack.outputs] == [TensorType.get(), INT]
    lst = g.insert_node(g.create_list(INT, [n, n])).output()
    assert lst.type == ListType(INT)
    assert len(g.insert_node(g.create_list_unpack(lst, 2)).outputs) == 2
    d = g.insert_node(g.create_dict(StringType(), INT, [g.insert_constant("k")], [n])).output()
    assert str(d.type) == "Dict(str, int)"
    assert g.insert_node(g.create_none()).output().type == NoneType()
    u = g.insert_node(g.create_uninitialized(INT))
    assert u.kind is prim.Uninitialized
    cast = g.insert_node(g.create_unchecked_cast(x, TensorType.get()))
    assert cast.kind == "prim::unchecked_cast"
    isinst = g.insert_node(g.create_isinstance(x, [INT, TensorType.get()]))
    assert isinst.tys("types") == [INT, TensorType.get()] and isinst.output().type == BOOL
    idx = g.insert_node(g.create_tuple_index(tup, g.insert_constant(0), TensorType.get()))
    assert idx.output().type == TensorType.get()
    g.lint()
    assert_uses_exact(g)
    with pytest.raises(IRError, match="needs a tuple"):
        g.create_tuple_unpack(n)
    with pytest.raises(IRError, match="needs a list"):
        g.create_list_unpack(n, 1)


def test_get_and_set_attr_nodes():
    g = parse_ir("graph(%self : __torch__.M, %v : Tensor):\n  return ()\n")
    get = g.insert_node(g.create_get_attr(g.inputs[0], "weight", TensorType.get()))
    g.insert_node(g.create_set_attr(g.inputs[0], "weight", g.inputs[1]))
    assert 'prim::GetAttr[name="weight"](%self)' in str(g)
    assert ' = prim::SetAttr[name="weight"](%self, %v)' in str(g)
    assert get.s("name") == "weight"
    g.lint()


def test_node_reprs():
    g = parse_ir("graph(%x : Tensor):\n  %y : Tensor = aten::relu(%x)\n  return (%y)\n")
    n = node_of(g, "aten::relu")
    assert repr(n) == "<Node %y = aten::relu(%x)>"
    assert repr(n.output()) == "%y : Tensor"
    assert str(n) == "%y : Tensor = aten::relu(%x)\n"
    assert repr(g) == "<Graph with 1 inputs, 1 outputs>"
