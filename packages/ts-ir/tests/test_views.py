"""LoopView, IfView and maybe_constant."""

from __future__ import annotations

import pytest
import ts_ir
from ts_ir import NOT_CONSTANT, IfView, IRError, LoopView, maybe_constant

LOOP = """
graph(%n : int, %x : Tensor, %k : int):
  %true : bool = prim::Constant[value=1]()
  %y : Tensor, %m : int = prim::Loop(%n, %true, %x, %k)
    block0(%i : int, %a : Tensor, %b : int):
      %a2 : Tensor = aten::mul(%a, %a)
      -> (%true, %a2, %b)
  %r : Tensor = prim::If(%true)
    block0():
      -> (%y)
    block1():
      -> (%x)
  return (%r, %m)
"""


def _nodes(g):
    loop, if_ = (n for n in g.nodes() if n.kind in ("prim::Loop", "prim::If"))
    return loop, if_


def _values(g):
    return {v.debug_name: v for n in g.all_nodes() for v in n.outputs} | {
        v.debug_name: v for v in g.inputs
    }


def test_loop_view_names_the_positions():
    g = ts_ir.parse_ir(LOOP)
    loop_node, _ = _nodes(g)
    loop = LoopView(loop_node)
    v = _values(g)
    assert loop.max_trip_count is v["n"] and loop.input_cond is v["true"]
    assert loop.next_cond is v["true"]
    assert loop.current_trip_count.debug_name == "i"
    assert loop.carried_inputs == (v["x"], v["k"])
    assert [b.debug_name for b in loop.body_carried_inputs] == ["a", "b"]
    assert [b.debug_name for b in loop.body_carried_outputs] == ["a2", "b"]
    assert loop.carried_outputs == (v["y"], v["m"])
    second = loop.carried(1)
    assert (second.initial, second.final) == (v["k"], v["m"])
    assert second.body_input is second.body_output
    assert [c.initial for c in loop.all_carried()] == [v["x"], v["k"]]


def test_loop_view_removes_and_inserts_a_carried_value():
    g = ts_ir.parse_ir(LOOP)
    loop_node, _ = _nodes(g)
    loop = LoopView(loop_node)
    v = _values(g)
    c = loop.carried(1)
    c.final.replace_all_uses_with(c.initial)
    c.body_input.replace_all_uses_with(c.initial)
    loop.remove_carried(1)
    g.lint()
    assert loop.num_carried() == 1 and loop.carried_inputs == (v["x"],)
    loop.insert_carried_input(0, v["k"])
    b = loop.insert_body_carried_input(0, ts_ir.IntType.get())
    loop.insert_body_carried_output(0, b)
    loop_node.insert_output(0, ts_ir.IntType.get())
    g.lint()
    assert loop.carried(0).initial is v["k"] and loop.carried(0).body_input is b
    loop.replace_max_trip_count(v["k"])
    assert loop.max_trip_count is v["k"]


def test_if_view():
    g = ts_ir.parse_ir(LOOP)
    _, if_node = _nodes(g)
    view = IfView(if_node)
    v = _values(g)
    assert view.cond is v["true"]
    assert view.then_outputs == (v["y"],) and view.else_outputs == (v["x"],)
    assert view.outputs == (v["r"],)
    v["r"].replace_all_uses_with(v["x"])
    view.remove_output(0)
    g.lint()
    assert view.outputs == () and view.then_block.outputs == []


def test_views_of_the_wrong_kind():
    g = ts_ir.parse_ir(LOOP)
    loop_node, if_node = _nodes(g)
    with pytest.raises(IRError, match="LoopView of a prim::If"):
        LoopView(if_node)
    with pytest.raises(IRError, match="IfView of a prim::Loop"):
        IfView(loop_node)


def test_maybe_constant():
    g = ts_ir.parse_ir(
        """
        graph(%x : Tensor):
          %a : int = prim::Constant[value=3]()
          %b : bool = prim::Constant[value=0]()
          %c : NoneType = prim::Constant()
          %d : int[] = prim::Constant[value=[1, 2]]()
          %f : Function = prim::Constant[name="helper"]()
          %s : str = prim::Constant[value="hi"]()
          %r : Tensor = aten::relu(%x)
          return (%r)
        """
    )
    v = _values(g)
    assert maybe_constant(v["a"]) == 3
    assert maybe_constant(v["b"]) is False
    assert maybe_constant(v["c"]) is None
    assert maybe_constant(v["d"]) == [1, 2]
    assert maybe_constant(v["s"]) == "hi"
    assert maybe_constant(v["f"]) is NOT_CONSTANT
    assert maybe_constant(v["r"]) is NOT_CONSTANT
    assert maybe_constant(v["x"]) is NOT_CONSTANT
    with pytest.raises(TypeError):
        bool(NOT_CONSTANT)
