"""Graphs broken behind the IR's back, one invariant at a time."""

import pytest
from ir_helpers import node_of
from ts_ir import Graph, IntType, LintError, Use, parse_ir, prim

BASE = """graph(%x : Tensor,
      %n : int,
      %c : bool):
  %one : int = prim::Constant[value=1]()
  %a : Tensor = aten::relu(%x)
  %r : Tensor = prim::If(%c)
    block0():
      %b : Tensor = aten::neg(%a)
      -> (%b)
    block1():
      -> (%a)
  %l : Tensor = prim::Loop(%n, %c, %r)
    block0(%i : int, %h : Tensor):
      %s : Tensor = aten::add(%h, %x, %one)
      -> (%c, %s)
  %y : Tensor = aten::mul(%l, %a)
  return (%y)
"""


def base():
    g = parse_ir(BASE)
    g.lint()
    return g


def assert_lint_fails(g, invariant):
    with pytest.raises(LintError) as info:
        g.lint()
    err = info.value
    assert invariant in err.invariant
    assert str(err).startswith(f"graph lint failed: {err.invariant}\n")
    assert err.graph_text.startswith("graph(")
    assert err.graph_text in str(err)
    return err


def test_the_base_graph_is_valid():
    assert str(base()) == BASE


# ---------------------------------------------------------------------------
# use lists


def test_use_missing_from_a_use_list():
    g = base()
    mul = node_of(g, "aten::mul")
    a = mul.inputs[1]
    a.uses = [u for u in a.uses if u.user is not mul]
    assert_lint_fails(g, "use lists record 15 uses but nodes have 16 input slots")


def test_use_pointing_at_another_value():
    g = base()
    relu = node_of(g, "aten::relu")
    relu.inputs[0].uses.append(Use(node_of(g, "aten::mul"), 0))
    assert_lint_fails(g, "%x records a use as input 0 of aten::mul, which is another value")


def test_use_recorded_twice():
    g = base()
    x = g.inputs[0]
    x.uses.append(Use(node_of(g, "aten::relu"), 0))
    assert_lint_fails(g, "%x records the same use twice")


def test_use_by_a_node_outside_the_graph():
    g = base()
    stray = g.create("aten::stray")
    g.inputs[0].uses.append(Use(stray, 0))
    assert_lint_fails(g, "%x records a use by a aten::stray that is not in the graph")


def test_input_rewired_without_updating_uses():
    g = base()
    node_of(g, "aten::mul").inputs[1] = g.inputs[0]
    assert_lint_fails(g, "which is another value")


# ---------------------------------------------------------------------------
# scoping


def test_value_used_outside_its_block():
    g = base()
    b = node_of(g, "aten::neg").output()
    node_of(g, "aten::mul").replace_input(1, b)
    assert_lint_fails(g, "input 1 (%b) of aten::mul is used outside the block that defines it")


def test_block_input_used_after_the_loop():
    g = base()
    h = node_of(g, "prim::Loop").blocks[0].inputs[1]
    node_of(g, "aten::mul").replace_input(1, h)
    assert_lint_fails(g, "input 1 (%h) of aten::mul is used outside the block")


def test_value_used_before_its_definition():
    g = base()
    y = node_of(g, "aten::mul").output()
    node_of(g, "aten::relu").replace_input(0, y)
    assert_lint_fails(g, "input 0 (%y) of aten::relu is used before it is defined")


def test_value_used_by_its_own_node():
    g = base()
    relu = node_of(g, "aten::relu")
    relu.replace_input(0, relu.output())
    assert_lint_fails(g, "input 0 (%a) of aten::relu is used before it is defined")


def test_nested_use_of_a_later_value():
    g = base()
    y = node_of(g, "aten::mul").output()
    node_of(g, "aten::neg").replace_input(0, y)
    assert_lint_fails(g, "input 0 (%y) of aten::neg is used before it is defined")


def test_value_of_a_destroyed_node():
    g = base()
    dead = g.create("aten::dead")
    g.append_node(dead)
    node_of(g, "aten::mul").replace_input(1, dead.output())
    dead._remove_from_list()
    assert_lint_fails(g, "is defined by a node that is not in the graph")


def test_value_from_another_graph():
    g = base()
    other = Graph().add_input("alien")
    mul = node_of(g, "aten::mul")
    old = mul.inputs[1]
    old.uses = [u for u in old.uses if u.user is not mul]
    mul.inputs[1] = other
    other.uses.append(Use(mul, 1))
    assert_lint_fails(g, "input 1 (%alien) of aten::mul is defined in another graph")


# ---------------------------------------------------------------------------
# ownership and the node list


def test_node_from_another_graph():
    g = base()
    foreign = Graph().create("aten::foreign", [], 0)
    foreign.insert_before(g.return_node)  # insert_after does not look at graphs
    assert_lint_fails(g, "aten::foreign belongs to another graph")


def test_node_with_a_wrong_owning_block():
    g = base()
    node_of(g, "aten::relu").owning_block = node_of(g, "prim::If").blocks[0]
    assert_lint_fails(g, "aten::relu: owning_block is not the block that lists it")


def test_broken_prev_link():
    g = base()
    node_of(g, "aten::mul").prev = node_of(g, "prim::Constant")
    assert_lint_fails(g, "aten::mul: prev link does not point at the previous node")


def test_broken_next_link():
    g = base()
    node_of(g, "prim::Constant").next = None
    assert_lint_fails(g, "a block's node list is broken (a node has no next)")


def test_topological_positions_out_of_order():
    g = base()
    relu = node_of(g, "aten::relu")
    relu.topo_position = node_of(g, "aten::mul").topo_position + 1
    assert_lint_fails(g, "prim::If: topological positions are not increasing")


def test_block_with_a_wrong_owner():
    g = base()
    node_of(g, "prim::If").blocks[1].owning_node = node_of(g, "prim::Loop")
    assert_lint_fails(g, "a block's owning_node is not the node that holds it")


def test_output_with_a_wrong_offset():
    g = base()
    node_of(g, "aten::relu").output().offset = 3
    assert_lint_fails(g, "output 0 of aten::relu (%a) does not point back to its node and offset")


def test_return_node_not_a_return():
    g = base()
    g.block.return_node.kind = prim.Bogus
    assert_lint_fails(g, "a block's sentinels are not prim::Param and prim::Return")


# ---------------------------------------------------------------------------
# prim::If, prim::Loop and prim::Constant


def test_if_with_one_block():
    g = base()
    node_of(g, "prim::If").erase_block(1)
    assert_lint_fails(g, "prim::If needs exactly one condition input and two blocks")


def test_if_with_a_non_bool_condition():
    g = base()
    node_of(g, "prim::If").replace_input(0, g.inputs[1])
    assert_lint_fails(g, "prim::If condition %n is int, not bool")


def test_if_block_with_too_few_outputs():
    g = base()
    node_of(g, "prim::If").blocks[1].erase_output(0)
    assert_lint_fails(g, "a prim::If block returns 0 values for 1 outputs")


def test_if_block_with_inputs():
    g = base()
    node_of(g, "prim::If").blocks[0].add_input("p", IntType())
    assert_lint_fails(g, "prim::If blocks take no inputs")


def test_loop_without_its_condition():
    g = base()
    loop = node_of(g, "prim::Loop")
    loop.remove_input(1)
    loop.remove_input(1)
    assert_lint_fails(g, "prim::Loop needs a trip count, a condition and one block")


def test_loop_with_a_carried_value_but_no_output():
    g = base()
    loop = node_of(g, "prim::Loop")
    loop.add_input(g.inputs[0])
    assert_lint_fails(g, "prim::Loop has 2 loop-carried inputs but 1 outputs")


def test_loop_body_with_a_missing_input():
    g = base()
    body = node_of(g, "prim::Loop").blocks[0]
    body.erase_input(0)
    assert_lint_fails(g, "a prim::Loop body takes 1 inputs, not 1 + 1")


def test_loop_body_with_a_missing_output():
    g = base()
    node_of(g, "prim::Loop").blocks[0].erase_output(0)
    assert_lint_fails(g, "a prim::Loop body returns 1 values, not 1 + 1")


def test_loop_with_a_non_int_trip_count():
    g = base()
    node_of(g, "prim::Loop").replace_input(0, g.inputs[2])
    assert_lint_fails(g, "prim::Loop trip count %c is bool, not int")


def test_constant_with_inputs():
    g = base()
    node_of(g, "prim::Constant").add_input(g.inputs[1])
    assert_lint_fails(g, "prim::Constant takes no inputs or blocks and has one output")


def test_constant_with_two_outputs():
    g = base()
    node_of(g, "prim::Constant").add_output()
    assert_lint_fails(g, "prim::Constant takes no inputs or blocks and has one output")


# ---------------------------------------------------------------------------
# the name table


def test_name_missing_from_the_table():
    g = base()
    del g._unique_names["a"]
    assert_lint_fails(g, "%a is not recorded in the graph's name table")


def test_name_table_pointing_at_a_renamed_value():
    g = base()
    g.inputs[0]._debug_name = "renamed"
    g._unique_names["renamed"] = g.inputs[0]
    assert_lint_fails(g, "the name table maps 'x' to a value named 'renamed'")


def test_name_table_holding_a_dead_value():
    g = base()
    ghost = g.create("aten::ghost")
    ghost.output()._debug_name = "ghost"
    g._unique_names["ghost"] = ghost.output()
    assert_lint_fails(g, "the name table holds 13 names but the graph has 12 named values")


def test_two_values_claiming_one_name():
    g = base()
    node_of(g, "aten::neg").output()._debug_name = "a"
    assert_lint_fails(g, "%a is not recorded in the graph's name table")


# ---------------------------------------------------------------------------
# subgraphs


def test_broken_subgraph():
    g = parse_ir(
        "graph(%x : Tensor):\n  %y : Tensor = prim::FusionGroup_0(%x)\n  return (%y)\n"
        "with prim::FusionGroup_0 = graph(%a : Tensor):\n"
        "  %b : Tensor = aten::neg(%a)\n  return (%b)\n"
    )
    g.lint()
    sub = node_of(g, "prim::FusionGroup").g("Subgraph")
    node_of(sub, "aten::neg").inputs[0].uses.clear()
    err = assert_lint_fails(g, "in the Subgraph subgraph of prim::FusionGroup: use lists record")
    assert "with prim::FusionGroup_0 = graph(%a : Tensor)" in err.graph_text
