"""AliasDb: aliasing, containers, wildcards, control flow, writes, and topologically valid moves."""

from __future__ import annotations

import pytest
from passes_helpers import order, parse, values
from ts_passes import AliasAnalysisError, AliasDb


def db_and_values(text: str):
    g = parse(text)
    return g, AliasDb(g), values(g)


# -- inputs and fresh values


def test_graph_inputs_of_one_type_may_alias_each_other():
    _g, db, v = db_and_values(
        """
        graph(%a : Tensor, %b : Tensor, %l : int[], %m : int[]):
          return (%a)
        """
    )
    assert db.may_alias(v["a"], v["b"])
    assert db.may_alias(v["l"], v["m"])
    assert not db.may_alias(v["a"], v["l"])


def test_fresh_values_never_alias():
    _g, db, v = db_and_values(
        """
        graph(%a : Tensor, %b : Tensor):
          %one : int = prim::Constant[value=1]()
          %c : Tensor = aten::add(%a, %b, %one)
          %d : Tensor = aten::mul(%a, %b)
          %e : Tensor = aten::relu(%c)
          return (%c, %d, %e)
        """
    )
    for x, y in [("c", "d"), ("c", "e"), ("d", "e"), ("c", "a"), ("e", "b")]:
        assert not db.may_alias(v[x], v[y]), (x, y)
    assert db.may_alias(v["c"], v["c"])


def test_immutable_values_have_no_element_and_never_alias():
    _g, db, v = db_and_values(
        """
        graph(%i : int, %s : str):
          %j : int = aten::add(%i, %i)
          return (%j)
        """
    )
    assert not db.is_mutable_type(v["i"])
    assert not db.may_alias(v["i"], v["j"])
    assert db.element_of(v["j"]) is None


# -- views and writes

VIEWS = """
graph(%x : Tensor, %i : int):
  %zero : int = prim::Constant[value=0]()
  %one : int = prim::Constant[value=1]()
  %none : NoneType = prim::Constant()
  %m1 : int = prim::Constant[value=-1]()
  %size : int[] = prim::ListConstruct(%m1)
  %base : Tensor = aten::mul(%x, %x)
  %other : Tensor = aten::mul(%x, %x)
  %v : Tensor = aten::view(%base, %size)
  %s : Tensor = aten::select(%base, %zero, %i)
  %sl : Tensor = aten::slice(%base, %zero, %none, %none, %one)
  %t : Tensor = aten::t(%base)
  %vv : Tensor = aten::view(%t, %size)
  return (%v, %s, %sl, %vv, %other)
"""


@pytest.mark.parametrize("view", ["v", "s", "sl", "t", "vv"])
def test_views_alias_their_base(view):
    _g, db, v = db_and_values(VIEWS)
    assert db.may_alias(v[view], v["base"])
    assert not db.may_alias(v[view], v["other"])
    assert not db.may_alias(v[view], v["x"])


def test_views_of_the_same_base_alias_each_other():
    _g, db, v = db_and_values(VIEWS)
    assert db.may_alias(v["s"], v["vv"])


def test_in_place_write_through_a_view_writes_the_base():
    _g, db, v = db_and_values(
        """
        graph(%x : Tensor):
          %zero : int = prim::Constant[value=0]()
          %one : int = prim::Constant[value=1]()
          %base : Tensor = aten::mul(%x, %x)
          %other : Tensor = aten::mul(%x, %x)
          %s : Tensor = aten::select(%base, %zero, %zero)
          %w : Tensor = aten::add_(%s, %one, %one)
          return (%base, %other)
        """
    )
    write = v["w"].node
    assert db.has_writers(v["base"])
    assert db.has_writers(v["s"])
    assert not db.has_writers(v["other"])
    assert not db.has_writers(v["x"])
    assert db.writes_to_alias(write, [v["base"]])
    assert not db.writes_to_alias(write, [v["other"]])
    assert db.is_mutable(write)
    assert not db.is_mutable(v["base"].node)
    assert db.may_alias(v["w"], v["base"])


def test_out_argument_is_written_and_aliased_by_the_result():
    _g, db, v = db_and_values(
        """
        graph(%a : Tensor, %b : Tensor):
          %one : int = prim::Constant[value=1]()
          %out : Tensor = aten::mul(%a, %b)
          %r : Tensor = aten::add(%a, %b, %one, %out)
          return (%r)
        """
    )
    node = v["r"].node
    assert node.schema().overload_name == "out"
    assert db.writes_to_alias(node, [v["out"]])
    assert not db.writes_to_alias(node, [v["a"]]) or db.may_alias(v["a"], v["out"])
    assert db.may_alias(v["r"], v["out"])
    assert db.has_writers(v["out"])


def test_writes_to_an_input_reach_every_input_that_may_alias_it():
    _g, db, v = db_and_values(
        """
        graph(%a : Tensor, %b : Tensor):
          %one : int = prim::Constant[value=1]()
          %w : Tensor = aten::add_(%a, %one, %one)
          return (%w)
        """
    )
    assert db.has_writers(v["b"])  # %b may be %a


# -- lists and containers

LISTS = """
graph(%x : Tensor):
  %zero : int = prim::Constant[value=0]()
  %a : Tensor = aten::mul(%x, %x)
  %b : Tensor = aten::mul(%x, %x)
  %c : Tensor = aten::mul(%x, %x)
  %l : Tensor[] = prim::ListConstruct(%a)
  %l2 : Tensor[] = aten::append(%l, %b)
  %e : Tensor = aten::__getitem__(%l, %zero)
  %p : Tensor = aten::pop(%l, %zero)
  return (%e, %p, %c, %l2)
"""


def test_list_elements_become_wildcards():
    _g, db, v = db_and_values(LISTS)
    assert db.may_alias_wildcard(v["a"])
    assert db.may_alias_wildcard(v["b"])  # appended: `t(c -> *)`
    assert not db.may_alias_wildcard(v["c"])


def test_list_indexing_and_pop_may_alias_what_went_in():
    _g, db, v = db_and_values(LISTS)
    for out in ("e", "p"):
        assert db.may_alias(v[out], v["a"])
        assert db.may_alias(v[out], v["b"])
        assert db.may_alias(v[out], v["x"])  # the wildcard includes graph inputs
        assert not db.may_alias(v[out], v["c"])


def test_append_and_pop_write_the_list_and_the_result_aliases_it():
    _g, db, v = db_and_values(LISTS)
    assert db.writes_to_alias(v["l2"].node, [v["l"]])
    assert db.writes_to_alias(v["p"].node, [v["l"]])
    assert db.may_alias(v["l2"], v["l"])
    assert db.has_writers(v["l"])


def test_a_list_contains_aliases_of_its_elements():
    _g, db, v = db_and_values(LISTS)
    assert db.may_contain_alias(v["l"], v["a"])
    assert db.may_contain_alias(v["l"], v["e"])
    assert not db.may_contain_alias(v["l"], v["c"])
    assert not db.may_alias(v["l"], v["a"])  # the list itself is not a tensor


def test_a_tuple_holding_a_view_contains_an_alias_of_the_base():
    _g, db, v = db_and_values(
        """
        graph(%x : Tensor):
          %zero : int = prim::Constant[value=0]()
          %base : Tensor = aten::mul(%x, %x)
          %other : Tensor = aten::mul(%x, %x)
          %s : Tensor = aten::select(%base, %zero, %zero)
          %t : (Tensor, int) = prim::TupleConstruct(%s, %zero)
          %u : Tensor, %k : int = prim::TupleUnpack(%t)
          return (%u, %other)
        """
    )
    assert db.may_contain_alias(v["t"], v["base"])
    assert db.may_alias(v["u"], v["base"])
    assert not db.may_alias(v["u"], v["other"])


def test_a_list_used_only_by_cat_keeps_its_elements_precise():
    _g, db, v = db_and_values(
        """
        graph(%x : Tensor):
          %zero : int = prim::Constant[value=0]()
          %a : Tensor = aten::mul(%x, %x)
          %b : Tensor = aten::mul(%x, %x)
          %l : Tensor[] = prim::ListConstruct(%a, %b)
          %c : Tensor = aten::cat(%l, %zero)
          return (%c)
        """
    )
    assert not db.may_alias_wildcard(v["a"])
    assert db.may_contain_alias(v["l"], v["a"])
    assert not db.may_alias(v["c"], v["a"])


def test_returned_tuples_do_not_send_their_elements_to_the_wildcard():
    _g, db, v = db_and_values(
        """
        graph(%x : Tensor):
          %a : Tensor = aten::mul(%x, %x)
          %t : (Tensor, Tensor) = prim::TupleConstruct(%a, %x)
          return (%t)
        """
    )
    assert not db.may_alias(v["a"], v["x"])
    assert db.may_contain_alias(v["t"], v["a"])


# -- wildcards


def test_a_wildcard_annotated_output_may_alias_anything_of_its_type():
    _g, db, v = db_and_values(
        """
        graph(%x : Tensor):
          %a : Tensor = aten::mul(%x, %x)
          %g : Tensor = prim::grad(%a)
          %b : Tensor = aten::mul(%x, %x)
          return (%g, %b)
        """
    )
    assert db.may_alias_wildcard(v["g"])
    assert db.may_alias(v["g"], v["x"])
    assert not db.may_alias(v["g"], v["b"])


def test_unknown_operators_are_conservative():
    _g, db, v = db_and_values(
        """
        graph(%x : Tensor):
          %a : Tensor = aten::mul(%x, %x)
          %r : Tensor = my_ns::mystery(%a)
          %b : Tensor = aten::mul(%x, %x)
          return (%r, %b)
        """
    )
    mystery = v["r"].node
    assert db.writes_to_alias(mystery, [v["a"]])
    assert db.writes_to_wildcard(mystery)
    assert db.may_alias(v["r"], v["x"])
    assert db.has_writers(v["x"])
    assert not db.has_writers(v["b"])


def test_any_may_alias_every_mutable_type():
    _g, db, v = db_and_values(
        """
        graph(%x : Tensor, %any : Any, %l : int[]):
          return (%x)
        """
    )
    assert db.may_alias(v["any"], v["x"])
    assert db.may_alias(v["any"], v["l"])
    assert not db.may_alias(v["x"], v["l"])


# -- control flow

IF_GRAPH = """
graph(%x : Tensor, %c : bool):
  %zero : int = prim::Constant[value=0]()
  %a : Tensor = aten::mul(%x, %x)
  %b : Tensor = aten::mul(%x, %x)
  %d : Tensor = aten::mul(%x, %x)
  %r : Tensor = prim::If(%c)
    block0():
      %s : Tensor = aten::select(%a, %zero, %zero)
      -> (%s)
    block1():
      -> (%b)
  return (%r, %d)
"""


def test_if_outputs_alias_both_branches():
    _g, db, v = db_and_values(IF_GRAPH)
    assert db.may_alias(v["r"], v["a"])
    assert db.may_alias(v["r"], v["b"])
    assert db.may_alias(v["r"], v["s"])
    assert not db.may_alias(v["r"], v["d"])
    assert not db.may_alias(v["a"], v["b"])


LOOP_GRAPH = """
graph(%x : Tensor, %n : int):
  %true : bool = prim::Constant[value=1]()
  %zero : int = prim::Constant[value=0]()
  %init : Tensor = aten::mul(%x, %x)
  %other : Tensor = aten::mul(%x, %x)
  %outer : Tensor = aten::mul(%x, %x)
  %r : Tensor = prim::Loop(%n, %true, %init)
    block0(%i : int, %h : Tensor):
      %s : Tensor = aten::select(%outer, %zero, %zero)
      -> (%true, %s)
  return (%r, %other)
"""


def test_loop_carried_values_alias_the_initial_value_and_the_body_output():
    _g, db, v = db_and_values(LOOP_GRAPH)
    assert db.may_alias(v["r"], v["init"])
    assert db.may_alias(v["r"], v["outer"])
    assert db.may_alias(v["h"], v["init"])
    # the second iteration's carried value is the first iteration's view of %outer
    assert db.may_alias(v["h"], v["outer"])
    assert not db.may_alias(v["r"], v["other"])


def test_writes_inside_blocks_count_for_the_enclosing_node():
    _g, db, v = db_and_values(
        """
        graph(%x : Tensor, %c : bool):
          %one : int = prim::Constant[value=1]()
          %a : Tensor = aten::mul(%x, %x)
          %b : Tensor = aten::mul(%x, %x)
           = prim::If(%c)
            block0():
              %w : Tensor = aten::add_(%a, %one, %one)
              -> ()
            block1():
              -> ()
          return (%a, %b)
        """
    )
    if_node = v["w"].node.owning_block.owning_node
    assert db.writes_to_alias(if_node, [v["a"]])
    assert not db.writes_to_alias(if_node, [v["b"]])


# -- queries that passes use


def test_safe_to_change_aliasing_relationship():
    _g, db, v = db_and_values(
        """
        graph(%x : Tensor):
          %one : int = prim::Constant[value=1]()
          %a : Tensor = aten::mul(%x, %x)
          %b : Tensor = aten::mul(%x, %x)
          %c : Tensor = aten::mul(%x, %x)
          %w : Tensor = aten::add_(%c, %one, %one)
          return (%a, %b)
        """
    )
    # both escape through the graph's outputs: making them alias would be visible
    assert not db.safe_to_change_aliasing_relationship(v["a"], v["b"])
    # %x escapes, %a does not go anywhere but the output: still two escaping values
    assert not db.safe_to_change_aliasing_relationship(v["a"], v["x"])
    # written values are never safe
    assert not db.safe_to_change_aliasing_relationship(v["c"], v["one"])


def test_an_unknown_value_is_a_typed_error():
    g, db, v = db_and_values("graph(%x : Tensor):\n  return (%x)\n")
    late = g.insert_node(g.create("aten::relu", [v["x"]])).output()
    with pytest.raises(AliasAnalysisError, match="no element"):
        db.may_alias(late, v["x"])
    db.create_value(late)
    assert not db.may_alias(late, v["x"])


def test_dump_names_elements_and_writes():
    _g, db, _v = db_and_values(
        """
        graph(%x : Tensor):
          %one : int = prim::Constant[value=1]()
          %a : Tensor = aten::mul(%x, %x)
          %w : Tensor = aten::add_(%a, %one, %one)
          return (%w)
        """
    )
    text = db.dump()
    assert "%x points to: WILDCARD for Tensor" in text
    assert "%w points to: %a" in text
    assert "aten::add_: %a" in text


# -- topologically valid moves

CHAIN = """
graph(%x : Tensor, %y : Tensor):
  %one : int = prim::Constant[value=1]()
  %a : Tensor = aten::mul(%x, %x)
  %b : Tensor = aten::mul(%y, %y)
  %c : Tensor = aten::add(%a, %one, %one)
  %d : Tensor = aten::relu(%b)
  %e : Tensor = aten::add(%c, %d, %one)
  return (%e)
"""


def move(text, name, where, point, *, dry=False):
    g = parse(text)
    db = AliasDb(g)
    v = values(g)
    n, p = v[name].node, v[point].node
    if dry:
        fn = (
            db.could_move_after_topologically
            if where == "after"
            else db.could_move_before_topologically
        )
    else:
        fn = (
            db.move_after_topologically_valid
            if where == "after"
            else db.move_before_topologically_valid
        )
    ok = fn(n, p)
    g.lint()
    return ok, order(g)


def test_move_an_independent_node_later():
    ok, o = move(CHAIN, "b", "after", "c")
    assert ok
    assert o == ["one", "a", "c", "b", "d", "e"]


def test_move_an_independent_node_earlier():
    ok, o = move(CHAIN, "d", "before", "a")
    assert ok
    assert o == ["one", "b", "d", "a", "c", "e"]


def test_move_after_its_user_drags_the_user_along():
    ok, o = move(CHAIN, "a", "after", "d")
    assert ok
    assert o.index("a") < o.index("c") and o.index("d") < o.index("a")


def test_move_before_a_use_of_a_producer_drags_the_producer():
    ok, o = move(CHAIN, "d", "before", "c")
    assert ok
    assert o.index("b") < o.index("d") < o.index("c")


def test_refused_before_its_own_producer():
    ok, o = move(CHAIN, "c", "before", "a")
    assert not ok
    assert o == ["one", "a", "b", "c", "d", "e"]


def test_refused_after_its_own_user():
    ok, o = move(CHAIN, "c", "after", "e")
    assert not ok
    assert o == ["one", "a", "b", "c", "d", "e"]


def test_moving_to_itself_or_where_it_already_is_changes_nothing():
    assert move(CHAIN, "c", "after", "c") == (True, ["one", "a", "b", "c", "d", "e"])
    assert move(CHAIN, "b", "before", "c") == (True, ["one", "a", "b", "c", "d", "e"])
    assert move(CHAIN, "c", "after", "b") == (True, ["one", "a", "b", "c", "d", "e"])


def test_a_dry_run_changes_nothing():
    assert move(CHAIN, "b", "after", "c", dry=True) == (True, ["one", "a", "b", "c", "d", "e"])
    assert move(CHAIN, "c", "before", "a", dry=True)[0] is False


MUTATION = """
graph(%x : Tensor):
  %one : int = prim::Constant[value=1]()
  %a : Tensor = aten::mul(%x, %x)
  %b : Tensor = aten::mul(%x, %x)
  %r1 : Tensor = aten::relu(%a)
  %w1 : Tensor = aten::add_(%a, %one, %one)
  %r2 : Tensor = aten::relu(%a)
  %w2 : Tensor = aten::mul_(%a, %one)
  %f : Tensor = aten::relu(%b)
  return (%r1, %r2, %w1, %w2, %f)
"""


def test_read_after_write_is_kept():
    ok, o = move(MUTATION, "r2", "before", "w1")
    assert not ok
    assert o == ["one", "a", "b", "r1", "w1", "r2", "w2", "f"]


def test_write_after_read_is_kept():
    ok, o = move(MUTATION, "w1", "before", "r1")
    assert not ok
    assert o == ["one", "a", "b", "r1", "w1", "r2", "w2", "f"]


def test_write_after_write_is_kept():
    ok, o = move(MUTATION, "w2", "before", "w1")
    assert not ok
    assert o == ["one", "a", "b", "r1", "w1", "r2", "w2", "f"]
    ok, o = move(MUTATION, "w1", "after", "w2")
    assert not ok
    assert o == ["one", "a", "b", "r1", "w1", "r2", "w2", "f"]


def test_unrelated_memory_moves_across_writes():
    ok, o = move(MUTATION, "f", "before", "r1")
    assert ok
    assert o == ["one", "a", "b", "f", "r1", "w1", "r2", "w2"]


def test_writes_to_an_input_do_not_cross_reads_of_inputs_that_may_alias_it():
    text = """
    graph(%x : Tensor, %y : Tensor):
      %one : int = prim::Constant[value=1]()
      %r : Tensor = aten::relu(%y)
      %w : Tensor = aten::add_(%x, %one, %one)
      return (%r, %w)
    """
    ok, _o = move(text, "w", "before", "r")
    assert not ok


SIDE_EFFECTS = """
graph(%x : Tensor):
  %a : Tensor = aten::mul(%x, %x)
   = prim::Print(%x)
  %b : Tensor = aten::relu(%x)
  return (%a, %b)
"""


def test_nothing_moves_across_a_side_effect():
    ok, o = move(SIDE_EFFECTS, "b", "before", "a")
    assert not ok
    assert o == ["a", "prim::Print", "b"]


def test_a_side_effect_does_not_move():
    g = parse(SIDE_EFFECTS)
    db = AliasDb(g)
    v = values(g)
    printer = v["a"].node.next
    assert not db.move_after_topologically_valid(printer, v["b"].node)
    assert order(g) == ["a", "prim::Print", "b"]


def test_no_moves_between_blocks():
    _g, db, v = db_and_values(IF_GRAPH)
    assert not db.move_before_topologically_valid(v["s"].node, v["a"].node)
    assert not db.move_after_topologically_valid(v["d"].node, v["s"].node)


def test_a_node_with_blocks_moves_with_its_reads_and_writes():
    text = """
    graph(%x : Tensor, %c : bool):
      %one : int = prim::Constant[value=1]()
      %a : Tensor = aten::mul(%x, %x)
      %b : Tensor = aten::mul(%x, %x)
      %r : Tensor = aten::relu(%a)
      %k : Tensor = prim::If(%c)
        block0():
          %w : Tensor = aten::add_(%a, %one, %one)
          -> (%w)
        block1():
          -> (%b)
      %s : Tensor = aten::relu(%b)
      return (%r, %k, %s)
    """
    ok, _ = move(text, "k", "before", "r")  # the branch writes %a, which %r reads
    assert not ok
    ok, o = move(text, "s", "before", "r")  # only %b, read by both: fine
    assert ok
    assert o.index("s") < o.index("r")


def test_a_returned_dict_lets_its_values_escape_a_returned_list_does_not():
    # PyTorch 2.13: a dict the graph returns may be written into by the caller
    _g, db, v = db_and_values(
        """
        graph(%inp : Tensor):
          %k : str = prim::Constant[value="a"]()
          %y : Tensor = prim::Constant()
          %z : Tensor = prim::Constant()
          %d : Dict(str, Tensor) = prim::DictConstruct(%k, %y)
          %l : Tensor[] = prim::ListConstruct(%z)
          return (%d, %l)
        """
    )
    assert db.may_contain_alias(v["y"], v["inp"])
    assert not db.may_contain_alias(v["z"], v["inp"])
