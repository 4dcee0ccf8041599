"""Insertion points, node order across blocks, dominance and topological positions."""

import itertools
import random

import pytest
from ir_helpers import assert_uses_exact, node_of
from ts_ir import FileCheck, Graph, IRError, parse_ir

NESTED = """graph(%x : Tensor, %c : bool):
  %a : Tensor = aten::a(%x)
  %r : Tensor = prim::If(%c)
    block0():
      %b : Tensor = aten::b(%x)
      %s : Tensor = prim::If(%c)
        block0():
          %d : Tensor = aten::d(%b)
          -> (%d)
        block1():
          -> (%b)
      -> (%s)
    block1():
      %e : Tensor = aten::e(%x)
      -> (%e)
  %f : Tensor = aten::f(%r)
  return (%f)
"""


def kinds(nodes):
    return [str(n.kind) for n in nodes]


def test_all_nodes_visits_every_nested_node_once_in_program_order():
    g = parse_ir(NESTED)
    assert kinds(g.all_nodes()) == [
        "aten::a",
        "prim::If",
        "aten::b",
        "prim::If",
        "aten::d",
        "aten::e",
        "aten::f",
    ]
    assert kinds(g.nodes()) == ["aten::a", "prim::If", "aten::f"]


def test_all_nodes_three_levels_deep():
    g = Graph()
    c = g.insert_constant(True)
    block = g.block
    for depth in range(4):
        n = g.create("prim::If", [c], 0)
        block.append_node(n)
        block.append_node(g.create(f"aten::after{depth}", [], 0))
        n.add_block()
        n.add_block()
        block = n.blocks[0]
    block.append_node(g.create("aten::deepest", [], 0))
    g.lint()
    got = kinds(g.all_nodes())
    assert got.count("aten::deepest") == 1
    assert got == [
        "prim::Constant",
        "prim::If",
        "prim::If",
        "prim::If",
        "prim::If",
        "aten::deepest",
        "aten::after3",
        "aten::after2",
        "aten::after1",
        "aten::after0",
    ]


def test_is_before_and_is_after_across_blocks():
    g = parse_ir(NESTED)
    a, b, d, e, f = (node_of(g, k) for k in ("aten::a", "aten::b", "aten::d", "aten::e", "aten::f"))
    outer_if, inner_if = node_of(g, "prim::If", 0), node_of(g, "prim::If", 1)
    ordered = [a, b, d, f]
    for i, m in enumerate(ordered):
        for j, n in enumerate(ordered):
            assert m.is_before(n) == (i < j), (m.kind, n.kind)
            assert m.is_after(n) == (i > j), (m.kind, n.kind)
    # nodes in sibling blocks compare through their owning nodes' block: neither is first
    assert not b.is_before(e) and not e.is_before(b)
    assert d.is_before(f) and e.is_before(f) and a.is_before(e)
    # a node is neither before nor after the nodes inside its own blocks
    assert not outer_if.is_before(d) and not d.is_after(outer_if)
    assert inner_if.is_after(b) and d.is_after(b)
    # the block's return node comes after everything in the block
    assert f.is_before(g.return_node) and d.is_before(g.return_node)


def test_is_before_needs_the_same_graph():
    g1, g2 = parse_ir(NESTED), parse_ir(NESTED)
    with pytest.raises(IRError, match="not in the same graph"):
        node_of(g1, "aten::d").is_before(node_of(g2, "aten::d"))


def test_is_dominated_by():
    g = parse_ir(NESTED)
    a, b, d, e, f = (node_of(g, k) for k in ("aten::a", "aten::b", "aten::d", "aten::e", "aten::f"))
    outer_if = node_of(g, "prim::If", 0)
    assert b.is_dominated_by(a) and d.is_dominated_by(a) and f.is_dominated_by(outer_if)
    assert d.is_dominated_by(b)
    assert not e.is_dominated_by(b)  # a sibling block
    assert not b.is_dominated_by(d)  # an inner block does not dominate what encloses it
    assert not f.is_dominated_by(d)
    assert not a.is_dominated_by(a)  # strictly: a node does not dominate itself
    assert not b.is_dominated_by(outer_if)  # nor what its blocks hold
    assert not a.is_dominated_by(f)


def test_insert_point_and_insert_node():
    g = parse_ir(NESTED)
    f = node_of(g, "aten::f")
    assert g.insert_point is g.return_node
    g.insert_node(g.create("aten::at_end", [], 0))
    g.set_insert_point(f)
    g.insert_node(g.create("aten::before_f1", [], 0))
    g.insert_node(g.create("aten::before_f2", [], 0))
    inner = node_of(g, "prim::If", 1).blocks[1]
    g.set_insert_point(inner)
    v = g.insert_constant(3)
    g.lint()
    assert kinds(g.nodes())[-4:] == [
        "aten::before_f1",
        "aten::before_f2",
        "aten::f",
        "aten::at_end",
    ]
    assert v.node.owning_block is inner
    with pytest.raises(IRError, match="in this graph"):
        g.set_insert_point(parse_ir(NESTED).return_node)


def test_inserting_before_and_after_restore_the_insert_point():
    g = parse_ir(NESTED)
    a, d, f = node_of(g, "aten::a"), node_of(g, "aten::d"), node_of(g, "aten::f")
    g.set_insert_point(f)
    with g.inserting_after(a):
        g.insert_node(g.create("aten::after_a1", [], 0))
        g.insert_node(g.create("aten::after_a2", [], 0))
        with g.inserting_before(d):
            g.insert_constant(1)
        g.insert_node(g.create("aten::after_a3", [], 0))
    assert g.insert_point is f
    with g.inserting_after(g.param_node):
        g.insert_node(g.create("aten::first", [], 0))
    with g.inserting_before(node_of(g, "prim::If", 0).blocks[1]):
        g.insert_node(g.create("aten::end_of_block1", [], 0))
    with pytest.raises(RuntimeError), g.inserting_after(f):
        raise RuntimeError
    assert g.insert_point is f
    g.insert_node(g.create("aten::before_f", [], 0))
    g.lint()
    FileCheck().check("aten::first").check_next("aten::a").check_next("aten::after_a1").check_next(
        "aten::after_a2"
    ).check_next("aten::after_a3").check_next("prim::If").check(
        "prim::Constant[value=1]"
    ).check_next("aten::d").check("aten::e").check_next("aten::end_of_block1").check_next(
        "->"
    ).check_next("aten::before_f").check_next("aten::f").run(g)


def test_inserting_after_an_unlisted_node_raises():
    g = Graph()
    with pytest.raises(IRError, match="not in a block"), g.inserting_after(g.create("aten::x")):
        pass


def test_append_and_prepend():
    g = Graph()
    g.append_node(g.create("aten::mid", [], 0))
    g.append_node(g.create("aten::last", [], 0))
    g.prepend_node(g.create("aten::first", [], 0))
    assert kinds(g.nodes()) == ["aten::first", "aten::mid", "aten::last"]
    assert kinds(g.block.nodes_reversed()) == ["aten::last", "aten::mid", "aten::first"]
    assert not g.block.is_empty() and Graph().block.is_empty()


def positions_increase(block):
    pos = [n.topo_position for n in block.nodes()]
    return all(p < q for p, q in itertools.pairwise(pos))


def test_many_insertions_between_the_same_two_nodes_renumber():
    g = Graph()
    left = g.append_node(g.create("aten::left", [], 0))
    right = g.append_node(g.create("aten::right", [], 0))
    first_right = right.topo_position
    gap = first_right - left.topo_position
    inserted = []
    # always insert just after `left`: each insertion halves the gap it lands in,
    # so far fewer than 200 exhaust it and force the block to be renumbered
    for i in range(200):
        n = g.create(f"aten::n{i}", [], 0)
        n.insert_after(left)
        inserted.append(n)
        assert left.is_before(n) and n.is_before(right)
    assert positions_increase(g.block)
    assert 200 > gap.bit_length()
    assert right.topo_position != first_right  # the block was renumbered
    expected = ["aten::left", *[f"aten::n{i}" for i in reversed(range(200))], "aten::right"]
    assert kinds(g.nodes()) == expected
    assert inserted[0].is_after(inserted[1]) and inserted[-1].is_before(inserted[-2])
    g.lint()


def test_positions_survive_front_and_back_insertions_and_moves():
    rng = random.Random(7)
    g = Graph()
    order = []
    for i in range(300):
        n = g.create(f"aten::n{i}", [], 0)
        where = rng.randrange(4)
        if where == 0 or not order:
            g.prepend_node(n)
            order.insert(0, n)
        elif where == 1:
            g.append_node(n)
            order.append(n)
        else:
            k = rng.randrange(len(order))
            n.insert_before(order[k])
            order.insert(k, n)
        if i % 10 == 9:
            m = order.pop(rng.randrange(len(order)))
            k = rng.randrange(len(order))
            m.move_after(order[k])
            order.insert(k + 1, m)
    assert list(g.nodes()) == order
    assert positions_increase(g.block)
    for _ in range(200):
        i, j = rng.randrange(len(order)), rng.randrange(len(order))
        assert order[i].is_before(order[j]) == (i < j)
    g.lint()


def test_iterating_nodes_while_destroying_them():
    g = parse_ir(NESTED)
    g.erase_output(0)
    for n in g.block.nodes_reversed():
        n.destroy()
    assert g.block.is_empty()
    g2 = parse_ir(
        "graph(%x : Tensor):\n"
        "  %a : int = prim::Constant[value=1]()\n"
        "  %b : int = prim::Constant[value=2]()\n"
        "  return (%x)\n"
    )
    for n in g2.nodes():
        n.destroy()
    assert g2.block.is_empty()
    assert_uses_exact(g2)
    g2.lint()
