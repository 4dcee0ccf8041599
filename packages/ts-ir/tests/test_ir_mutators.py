"""Every mutator of Graph/Block/Node/Value, with use lists recomputed after each."""

import pytest
from ir_helpers import assert_uses_exact, node_of, uses_of
from ts_ir import (
    BoolType,
    FileCheck,
    Graph,
    IntType,
    IRError,
    TensorType,
    Use,
    parse_ir,
)

INT, BOOL, TENSOR = IntType(), BoolType(), TensorType.get()


def three_inputs():
    """`%y = aten::f(%a, %b, %a)` over inputs a, b, c; returns y."""
    g = parse_ir(
        """graph(%a : Tensor, %b : Tensor, %c : Tensor):
  %y : Tensor = aten::f(%a, %b, %a)
  %z : Tensor = aten::g(%y, %b)
  return (%z, %a)
"""
    )
    return g, *g.inputs, node_of(g, "aten::f"), node_of(g, "aten::g")


def names(values):
    return [v.debug_name for v in values]


def checked(g):
    assert_uses_exact(g)
    g.lint()


def test_uses_after_construction():
    g, a, b, c, f, _h = three_inputs()
    checked(g)
    assert uses_of(a) == [("aten::f", 0), ("aten::f", 2), ("prim::Return", 1)]
    assert uses_of(b) == [("aten::f", 1), ("aten::g", 1)]
    assert uses_of(c) == []
    assert Use(f, 0) in a.uses and Use(f, 1) not in a.uses


def test_add_input():
    g, _a, _b, c, f, _h = three_inputs()
    f.add_input(c)
    checked(g)
    assert names(f.inputs) == ["a", "b", "a", "c"]
    assert uses_of(c) == [("aten::f", 3)]


def test_insert_input_shifts_later_uses():
    g, a, b, c, f, _h = three_inputs()
    f.insert_input(1, c)
    checked(g)
    assert names(f.inputs) == ["a", "c", "b", "a"]
    assert uses_of(a) == [("aten::f", 0), ("aten::f", 3), ("prim::Return", 1)]
    assert uses_of(b) == [("aten::f", 2), ("aten::g", 1)]
    assert uses_of(c) == [("aten::f", 1)]


def test_replace_input():
    g, a, _b, c, f, _h = three_inputs()
    old = f.replace_input(2, c)
    checked(g)
    assert old is a
    assert names(f.inputs) == ["a", "b", "c"]
    assert uses_of(a) == [("aten::f", 0), ("prim::Return", 1)]
    assert uses_of(c) == [("aten::f", 2)]
    assert f.replace_input(2, c) is c  # replacing a value with itself changes nothing
    checked(g)


def test_replace_input_with_replaces_every_occurrence():
    g, a, _b, c, f, _h = three_inputs()
    f.replace_input_with(a, c)
    checked(g)
    assert names(f.inputs) == ["c", "b", "c"]
    assert uses_of(a) == [("prim::Return", 1)]
    assert uses_of(c) == [("aten::f", 0), ("aten::f", 2)]


def test_remove_input_shifts_later_uses():
    g, a, b, _c, f, _h = three_inputs()
    removed = f.remove_input(0)
    checked(g)
    assert removed is a
    assert names(f.inputs) == ["b", "a"]
    assert uses_of(a) == [("aten::f", 1), ("prim::Return", 1)]
    assert uses_of(b) == [("aten::f", 0), ("aten::g", 1)]


def test_remove_all_inputs():
    g, a, b, _c, f, _h = three_inputs()
    f.remove_all_inputs()
    checked(g)
    assert f.inputs == []
    assert uses_of(a) == [("prim::Return", 1)]
    assert uses_of(b) == [("aten::g", 1)]


def test_permute_inputs():
    g, a, b, c, f, _h = three_inputs()
    f.add_input(c)
    f.permute_inputs([3, 2, 0, 1])
    checked(g)
    assert names(f.inputs) == ["c", "a", "a", "b"]
    assert uses_of(a) == [("aten::f", 1), ("aten::f", 2), ("prim::Return", 1)]
    assert uses_of(b) == [("aten::f", 3), ("aten::g", 1)]
    with pytest.raises(IRError, match="not a permutation"):
        f.permute_inputs([0, 0, 1, 2])


def test_inputs_from_another_graph_are_refused():
    g, a, _b, _c, f, _h = three_inputs()
    other = Graph().add_input("q")
    for mutate in (
        lambda: f.add_input(other),
        lambda: f.insert_input(0, other),
        lambda: f.replace_input(0, other),
        lambda: a.replace_all_uses_with(other),
        lambda: a.replace_first_use_with(other),
        lambda: a.replace_all_uses_after_node_with(f, other),
    ):
        with pytest.raises(IRError, match="another graph"):
            mutate()
    checked(g)


def test_add_and_insert_outputs():
    g, _a, _b, _c, f, _h = three_inputs()
    y = f.output()
    extra = f.add_output(INT)
    first = f.insert_output(0, BOOL)
    checked(g)
    assert f.outputs == [first, y, extra]
    assert [v.offset for v in f.outputs] == [0, 1, 2]
    assert (first.type, extra.type) == (BOOL, INT)
    assert all(v.node is f for v in f.outputs)
    assert uses_of(y) == [("aten::g", 0)]


def test_erase_output():
    g, _a, _b, _c, f, _h = three_inputs()
    first = f.insert_output(0, BOOL)
    y = f.output(1)
    f.erase_output(0)
    checked(g)
    assert f.outputs == [y] and y.offset == 0
    assert first.node is f  # the erased value is detached, not reused
    with pytest.raises(IRError, match="still has 1 uses"):
        f.erase_output(0)


def test_value_replace_all_uses_with():
    g, a, _b, c, _f, _h = three_inputs()
    a.replace_all_uses_with(c)
    checked(g)
    assert uses_of(a) == []
    assert uses_of(c) == [("aten::f", 0), ("aten::f", 2), ("prim::Return", 1)]
    assert names(g.outputs) == ["z", "c"]
    c.replace_all_uses_with(c)
    checked(g)
    assert len(c.uses) == 3


def test_value_replace_first_use_with():
    g, a, _b, c, f, _h = three_inputs()
    a.replace_first_use_with(c)
    checked(g)
    assert names(f.inputs) == ["c", "b", "a"]


def test_node_replace_all_uses_with():
    g = parse_ir(
        """graph(%x : Tensor):
  %a : Tensor, %b : int = aten::one(%x)
  %c : Tensor, %d : int = aten::two(%x)
  %e : Tensor = aten::use(%a, %b, %a)
  return (%b)
"""
    )
    one, two = node_of(g, "aten::one"), node_of(g, "aten::two")
    one.replace_all_uses_with(two)
    checked(g)
    assert not one.has_uses()
    assert names(node_of(g, "aten::use").inputs) == ["c", "d", "c"]
    assert names(g.outputs) == ["d"]
    with pytest.raises(IRError, match="same number of outputs"):
        two.replace_all_uses_with(node_of(g, "aten::use"))


NESTED = """graph(%x : Tensor, %c : bool):
  %y : Tensor = aten::before(%x)
  %r : Tensor = prim::If(%c)
    block0():
      %i : Tensor = aten::inside(%x)
      -> (%x)
    block1():
      -> (%y)
  %new : Tensor = aten::fresh(%x)
  %z : Tensor = aten::after(%x, %r)
  return (%z, %x)
"""


def test_replace_all_uses_after_node_with():
    g = parse_ir(
        """graph(%x : Tensor, %c : bool):
  %new : Tensor = aten::fresh()
  %y : Tensor = aten::before(%x)
  %r : Tensor = prim::If(%c)
    block0():
      %i : Tensor = aten::inside(%x)
      -> (%x)
    block1():
      -> (%y)
  %z : Tensor = aten::after(%x, %r)
  return (%z, %x)
"""
    )
    x = g.inputs[0]
    new = node_of(g, "aten::fresh").output()
    # uses after `aten::before`, the If's blocks and the return included, move to %new
    x.replace_all_uses_after_node_with(node_of(g, "aten::before"), new)
    checked(g)
    assert uses_of(x) == [("aten::before", 0)]
    assert uses_of(new) == [
        ("aten::after", 0),
        ("aten::inside", 0),
        ("prim::Return", 0),
        ("prim::Return", 1),
    ]
    new.replace_all_uses_after_node_with(node_of(g, "aten::before"), new)  # a no-op
    checked(g)
    assert len(new.uses) == 4


def test_replace_all_uses_after_node_leaves_earlier_uses():
    g = parse_ir(NESTED)
    x = g.inputs[0]
    after = node_of(g, "aten::after")
    with g.inserting_before(after):
        n = g.insert_node(g.create("aten::later", [x]))
    x.replace_all_uses_after_node_with(n, n.output())
    checked(g)
    assert uses_of(n.output()) == [("aten::after", 0), ("prim::Return", 1)]
    assert ("aten::inside", 0) in uses_of(x)


def test_replace_all_uses_dominated_by_node_with():
    g = parse_ir(
        """graph(%x : Tensor, %c : bool):
  %r : Tensor = prim::If(%c)
    block0():
      %i : Tensor = aten::first(%x)
      %j : Tensor = aten::second(%x)
      -> (%x)
    block1():
      -> (%x)
  %z : Tensor = aten::after(%x)
  return (%z)
"""
    )
    x = g.inputs[0]
    first = node_of(g, "aten::first")
    # refine %x after aten::first: only what runs after it inside block0 sees %i
    x.replace_all_uses_dominated_by_node_with(first, first.output())
    checked(g)
    assert names(first.inputs) == ["x"]  # a node does not dominate itself
    assert names(node_of(g, "aten::second").inputs) == ["i"]
    assert names(node_of(g, "prim::If").blocks[0].outputs) == ["i"]
    assert names(node_of(g, "prim::If").blocks[1].outputs) == ["x"]
    assert names(node_of(g, "aten::after").inputs) == ["x"]


def test_dominated_uses_exclude_the_nodes_own_blocks():
    g = parse_ir(
        """graph(%x : Tensor, %c : bool):
  %r : Tensor = prim::If(%c)
    block0():
      %i : Tensor = aten::inside(%x)
      -> (%i)
    block1():
      -> (%x)
  %z : Tensor = aten::after(%x)
  return (%z)
"""
    )
    x = g.inputs[0]
    if_node = node_of(g, "prim::If")
    x.replace_all_uses_dominated_by_node_with(if_node, if_node.output())
    checked(g)
    assert names(node_of(g, "aten::inside").inputs) == ["x"]
    assert names(node_of(g, "aten::after").inputs) == ["r"]


def test_insert_before_and_after():
    g, _a, _b, c, f, h = three_inputs()
    n1 = g.create("aten::n1", [c])
    n1.insert_before(f)
    n2 = g.create("aten::n2", [n1.output()])
    n2.insert_after(h)
    n3 = g.create("aten::n3", [])
    n3.insert_after(g.param_node)  # after the parameters: first in the block
    checked(g)
    assert [n.kind for n in g.nodes()] == ["aten::n3", "aten::n1", "aten::f", "aten::g", "aten::n2"]
    assert n1.owning_block is g.block
    with pytest.raises(IRError, match="already in a block"):
        n1.insert_after(h)
    with pytest.raises(IRError, match="parameter node"):
        g.create("aten::x").insert_before(g.param_node)


def test_move_before_and_after_keep_uses():
    g, _a, _b, c, f, h = three_inputs()
    n = g.create("aten::n", [c])
    g.append_node(n)
    n.move_before(f)
    checked(g)
    assert [k.kind for k in g.nodes()] == ["aten::n", "aten::f", "aten::g"]
    assert uses_of(c) == [("aten::n", 0)]
    n.move_after(h)
    checked(g)
    assert [k.kind for k in g.nodes()] == ["aten::f", "aten::g", "aten::n"]
    assert n.is_after(h) and h.is_before(n)


def test_move_into_a_nested_block():
    g = parse_ir(NESTED)
    fresh = node_of(g, "aten::fresh")
    inside = node_of(g, "aten::inside")
    fresh.move_after(inside)
    checked(g)
    assert fresh.owning_block is inside.owning_block
    FileCheck().check("aten::inside").check_next("aten::fresh").check_next("-> (%x)").run(g)


def test_destroy():
    g, a, _b, c, _f, _h = three_inputs()
    n = g.create("aten::dead", [a, c, a])
    g.append_node(n)
    n.output().set_debug_name("dead")
    n.destroy()
    checked(g)
    assert not n.in_block_list()
    assert uses_of(a) == [("aten::f", 0), ("aten::f", 2), ("prim::Return", 1)]
    assert uses_of(c) == []
    assert "dead" not in str(g)


def test_destroying_a_used_node_raises_and_changes_nothing():
    g, _a, _b, _c, f, _h = three_inputs()
    before = str(g)
    with pytest.raises(IRError, match=r"cannot destroy aten::f \(output %y\): it still has 1 uses"):
        f.destroy()
    assert str(g) == before
    checked(g)


def test_destroy_node_with_blocks_removes_nested_uses():
    g = parse_ir(NESTED)
    r = node_of(g, "prim::If")
    after = node_of(g, "aten::after")
    after.replace_input(1, g.inputs[0])
    r.destroy()
    checked(g)
    assert [n.kind for n in g.all_nodes()] == ["aten::before", "aten::fresh", "aten::after"]
    assert ("aten::inside", 0) not in uses_of(g.inputs[0])
    assert uses_of(node_of(g, "aten::before").output()) == []


def test_add_and_erase_blocks():
    g = parse_ir(NESTED)
    r = node_of(g, "prim::If")
    extra = r.add_block()
    v = extra.add_input("p", INT)
    n = g.create("aten::in_extra", [v, g.inputs[0]])
    extra.append_node(n)
    extra.register_output(n.output())
    assert extra.owning_node is r and extra.owning_block is g.block
    assert_uses_exact(g)
    r.erase_block(2)
    checked(g)
    assert len(r.blocks) == 2
    assert ("aten::in_extra", 1) not in uses_of(g.inputs[0])
    r.erase_block(0)
    assert ("aten::inside", 0) not in uses_of(g.inputs[0])
    assert_uses_exact(g)


def test_block_inputs_and_outputs():
    g = Graph()
    n = g.create("prim::Loopish", [], 0)
    g.append_node(n)
    b = n.add_block()
    p = b.add_input("p", INT)
    q = b.insert_input(0, "q", BOOL)
    s = b.add_input("s")
    assert b.inputs == [q, p, s]
    assert names(b.inputs) == ["q", "p", "s"]
    assert [v.offset for v in b.inputs] == [0, 1, 2]
    assert s.type == TENSOR
    b.permute_inputs([2, 0, 1])
    assert names(b.inputs) == ["s", "q", "p"]
    assert [v.offset for v in b.inputs] == [0, 1, 2]
    b.erase_input(1)
    assert names(b.inputs) == ["s", "p"]
    assert "q" not in str(g)  # its name was freed
    assert b.register_output(p) == 0
    b.register_output(s)
    b.insert_output(1, p)
    assert names(b.outputs) == ["p", "p", "s"]
    b.replace_output(2, p)
    b.permute_outputs([2, 0, 1])
    assert_uses_exact(g)
    assert uses_of(p) == [("prim::Return", 0), ("prim::Return", 1), ("prim::Return", 2)]
    b.erase_output(0)
    assert_uses_exact(g)
    assert names(b.outputs) == ["p", "p"]
    with pytest.raises(IRError, match="still has"):
        b.erase_input(1)


def test_graph_inputs_and_outputs():
    g = Graph()
    x = g.add_input("x")
    n = g.add_input("n", INT)
    first = g.insert_input(0, "first", BOOL)
    assert g.inputs == [first, x, n]
    assert [v.offset for v in g.inputs] == [0, 1, 2]
    assert g.register_output(n) == 0
    g.register_output(x)
    assert_uses_exact(g)
    g.erase_output(0)
    assert g.outputs == [x]
    g.erase_input(2)
    g.erase_input(0)
    assert g.inputs == [x] and x.offset == 0
    checked(g)
    assert str(g) == "graph(%x : Tensor):\n  return (%x)\n"


def test_node_input_and_output_accessors():
    g, a, b, _c, f, _h = three_inputs()
    assert f.input(1) is b and f.output() is f.outputs[0]
    with pytest.raises(IRError, match="3 inputs, not exactly one"):
        f.input()
    f.add_output()
    with pytest.raises(IRError, match="2 outputs, not exactly one"):
        f.output()
    assert f.has_uses() and not f.output(1).has_uses()
    assert f.owning_graph is g and a.owning_graph is g


def test_set_type_and_copy_metadata():
    g, a, _b, _c, _f, _h = three_inputs()
    n = g.create("aten::n", [a])
    g.append_node(n)
    n.output().copy_metadata(a)
    assert n.output().debug_name == "a" and a.debug_name == "a.1"
    assert n.output().set_type(INT).type == INT
    checked(g)
