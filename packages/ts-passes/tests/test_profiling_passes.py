"""The profiling executor's passes on IR: profiles, guards, guard elimination, bailouts, type
checks. Running the graphs they make (bailout graphs against the originals) is tested in
ts-runtime's test_profiling_executor.py."""

from __future__ import annotations

import pytest
import ts_passes
from passes_helpers import parse, round_trip, values
from ts_ir import FileCheck, TensorType, prim
from ts_passes import (
    BailOutGraphError,
    bailout_template,
    build_bailout_graph,
    coalesce_guards,
    eliminate_guards,
    insert_bailout_nodes,
    insert_guards,
    insert_profile_nodes,
    insert_type_checks,
    move_guards_to_defs,
    remove_dominated_guards,
    remove_profile_nodes,
)

F4 = "Float(4, strides=[1], requires_grad=0, device=cpu)"
D4 = "Double(4, strides=[1], requires_grad=0, device=cpu)"


def kinds(graph) -> list[str]:
    return [str(n.kind) for n in graph.all_nodes()]


# -- registration


@pytest.mark.parametrize(
    "name",
    [
        "insert_profile_nodes",
        "remove_profile_nodes",
        "insert_guards",
        "move_guards_to_defs",
        "coalesce_guards",
        "remove_dominated_guards",
        "eliminate_guards",
        "eliminate_redundant_guards",
        "insert_bailout_nodes",
        "insert_type_checks",
        "refine_types_from_checks",
    ],
)
def test_every_profiling_pass_runs_by_name(name):
    assert ts_passes.get_pass(name).name == name


def test_the_pipeline_leaves_fusion_out_when_gradients_are_needed():
    with_grad = ts_passes.profiling_pipeline(requires_grad=True)
    without = ts_passes.profiling_pipeline(requires_grad=False)
    assert "fuse_graph" not in with_grad and "insert_type_checks" not in with_grad
    assert without.index("insert_bailout_nodes") < without.index("fuse_graph")


# -- profiles


def test_profiles_are_removed_again():
    g = parse(
        """graph(%x : Tensor):
  %y : Tensor = aten::relu(%x)
  return (%y)
"""
    )
    assert insert_profile_nodes(g)
    assert kinds(g).count("prim::profile") == 2
    assert remove_profile_nodes(g)
    assert "prim::profile" not in kinds(g)
    assert not remove_profile_nodes(g)
    g.lint()


def test_prepare_for_profiling_optimizes_then_instruments():
    g = parse(
        """graph(%x : Tensor):
  %four : int = prim::Constant[value=4]()
  %y : Tensor = aten::mul(%x, %four)
  %dead : Tensor = aten::relu(%x)
  return (%y)
"""
    )
    ts_passes.prepare_for_profiling(g)
    g.lint()
    text = str(g)
    FileCheck().check("prim::profile(%x)").check_next("aten::mul").check_next(
        "prim::profile"
    ).check_next("return").run(text)
    assert "aten::relu" not in text


# -- guards


def test_a_guard_does_not_move_above_a_write_to_its_value():
    g = parse(
        f"""graph(%x : Tensor):
  %one : int = prim::Constant[value=1]()
  %y : Tensor = aten::relu(%x)
  %w : Tensor = aten::add_(%y, %one, %one)
  %y.1 : {F4} = prim::Guard(%y)
  %z : Tensor = aten::neg(%y.1)
  return (%z)
"""
    )
    move_guards_to_defs(g)
    order = kinds(g)
    assert order.index("aten::add_") < order.index("prim::Guard")


def test_coalescing_keeps_the_guard_that_checks_more():
    g = parse(
        f"""graph(%x : Tensor):
  %a : Float(*, requires_grad=0, device=cpu) = prim::Guard(%x)
  %b : {F4} = prim::Guard(%x)
  %c : Tensor = aten::mul(%a, %b)
  return (%c)
"""
    )
    assert coalesce_guards(g)
    (guard,) = [n for n in g.nodes() if n.kind is prim.Guard]
    assert str(guard.output().type) == F4
    assert values(g)["c"].node.inputs == [guard.output(), guard.output()]
    assert not coalesce_guards(g)


def test_guards_of_different_dtypes_are_both_kept():
    g = parse(
        f"""graph(%x : Tensor):
  %a : {F4} = prim::Guard(%x)
  %b : {D4} = prim::Guard(%x)
  %c : Tensor = aten::mul(%a, %b)
  return (%c)
"""
    )
    assert not coalesce_guards(g)
    assert kinds(g).count("prim::Guard") == 2


def test_a_dominating_guard_replaces_the_guards_in_nested_blocks():
    g = parse(
        f"""graph(%x : Tensor, %c : bool):
  %a : {F4} = prim::Guard(%x)
  %r : Tensor = prim::If(%c)
    block0():
      %b : {F4} = prim::Guard(%x)
      %n : Tensor = aten::neg(%b)
      -> (%n)
    block1():
      -> (%a)
  return (%r)
"""
    )
    assert remove_dominated_guards(g)
    assert kinds(g).count("prim::Guard") == 1
    assert values(g)["n"].node.input(0) is values(g)["a"]
    round_trip(g)


def test_a_guard_stays_where_the_derived_type_disagrees():
    # mul of two float tensors derives Float; a (wrongly) profiled Double is kept checked
    g = parse(
        f"""graph(%x : Tensor, %y : Tensor):
  %x.1 : {F4} = prim::Guard(%x)
  %y.1 : {F4} = prim::Guard(%y)
  %m : Tensor = aten::mul(%x.1, %y.1)
  %m.1 : {D4} = prim::Guard(%m)
  %n : Tensor = aten::neg(%m.1)
  %n.1 : {D4} = prim::Guard(%n)
  return (%n.1)
"""
    )
    assert eliminate_guards(g)
    guarded = [n.input(0).debug_name for n in g.nodes() if n.kind is prim.Guard]
    assert guarded == ["x", "y", "m"]  # neg derives exactly what its guard checked
    assert str(values(g)["n"].type) == D4


def test_a_guard_on_a_value_something_writes_stays():
    g = parse(
        f"""graph(%x : Tensor):
  %one : int = prim::Constant[value=1]()
  %x.1 : {F4} = prim::Guard(%x)
  %y : Tensor = aten::neg(%x.1)
  %y.1 : {F4} = prim::Guard(%y)
  %w : Tensor = aten::add_(%y, %one, %one)
  return (%y.1)
"""
    )
    assert not eliminate_guards(g)
    assert kinds(g).count("prim::Guard") == 2


def test_a_layout_the_rules_cannot_tell_is_left_unchecked():
    # relu of a transposed tensor: its strides follow no rule, its sizes do
    g = parse(
        """graph(%x : Tensor):
  %x.1 : Float(4, 3, strides=[1, 4], requires_grad=0, device=cpu) = prim::Guard(%x)
  %r : Tensor = aten::relu(%x.1)
  %r.1 : Float(4, 3, strides=[3, 1], requires_grad=0, device=cpu) = prim::Guard(%r)
  return (%r.1)
"""
    )
    assert eliminate_guards(g)
    assert str(values(g)["r"].type) == "Float(4, 3, requires_grad=0, device=cpu)"


def test_profiles_in_a_block_a_bailout_cannot_resume_in_make_no_guards():
    g = parse(
        f"""graph(%x : Tensor):
  %f : Future[Tensor] = prim::fork_0(%x)
  %r : Tensor = aten::wait(%f)
  return (%r)
with prim::fork_0 = graph(%y : Tensor):
  %p : Tensor = prim::profile[profiled_type={F4}, seen_none=0](%y)
  %z : Tensor = aten::neg(%p)
  return (%z)
"""
    )
    insert_guards(g)
    assert "prim::Guard" not in kinds(g)


# -- bailouts


LOOP = f"""graph(%x : Tensor, %y : Tensor, %n : int):
  %one : int = prim::Constant[value=1]()
  %true : bool = prim::Constant[value=1]()
  %x.1 : {F4} = prim::Guard(%x)
  %r : Tensor = prim::Loop(%n, %true, %x.1)
    block0(%i : int, %acc : Tensor):
      %acc.1 : {F4} = prim::Guard(%acc)
      %c : Tensor = aten::add(%acc.1, %y, %i)
      -> (%true, %c)
  %s : Tensor = aten::neg(%r)
  return (%s)
"""


def test_a_graph_without_guards_gets_no_bailouts():
    g = parse(
        """graph(%x : Tensor):
  %y : Tensor = aten::relu(%x)
  return (%y)
"""
    )
    assert not insert_bailout_nodes(g)
    assert bailout_template(g) is None


def test_bailout_graphs_continue_from_their_bailout():
    g = parse(LOOP)
    assert insert_bailout_nodes(g)
    g.lint()
    round_trip(g)
    template = bailout_template(g)
    assert template is not None
    # from the guard before the loop: the whole loop, then the rest
    first = build_bailout_graph(template, 0)
    first.lint()
    assert [v.debug_name_base() for v in first.inputs] == ["x", "n", "y"]
    FileCheck().check("prim::Loop(%n").check("aten::neg").run(str(first))
    # from the guard in the loop body: the rest of the iteration, then a loop of the
    # remaining n - i - 1 iterations whose counter starts at i + 1
    second = build_bailout_graph(template, 1)
    second.lint()
    assert [v.debug_name_base() for v in second.inputs] == ["acc", "y", "i", "n"]
    FileCheck().check("aten::add(%acc").check("aten::sub(%n, %i)").check_next("aten::sub(").check(
        "aten::add(%i"
    ).check("prim::Loop(").check("aten::add(").check("aten::add(").check("aten::neg").run(
        str(second)
    )
    assert "prim::BailOut" not in str(second)
    assert all(
        not isinstance(v.type, TensorType) or v.type.is_plain()
        for n in second.all_nodes()
        for v in n.outputs
        if n.kind is not prim.Constant
    )


def test_a_bailout_graph_for_an_unknown_index_is_an_error():
    g = parse(LOOP)
    insert_bailout_nodes(g)
    template = bailout_template(g)
    assert template is not None
    with pytest.raises(BailOutGraphError, match="no bailout with index 7"):
        build_bailout_graph(template, 7)


def test_a_bailout_graph_after_an_if_branch_continues_after_the_if():
    g = parse(
        """graph(%x : Tensor, %c : bool):
  %r : Tensor = prim::If(%c)
    block0():
      %n : Tensor = aten::nonzero(%x)
      %n.1 : Long(2, 1, strides=[1, 1], requires_grad=0, device=cpu) = prim::Guard(%n)
      %f : Tensor = aten::relu(%n.1)
      -> (%f)
    block1():
      -> (%x)
  %s : Tensor = aten::neg(%r)
  return (%s)
"""
    )
    insert_bailout_nodes(g)
    template = bailout_template(g)
    assert template is not None
    graph = build_bailout_graph(template, 0)
    graph.lint()
    assert [v.debug_name_base() for v in graph.inputs] == ["n"]
    FileCheck().check("aten::relu(%n").check_next("aten::neg(").check("return").run(str(graph))


# -- type checks


def test_a_guard_also_read_outside_the_group_stays_and_is_not_rechecked():
    g = parse(
        f"""graph(%x : Tensor, %y : Tensor):
  %x.1 : {F4} = prim::Guard(%x)
  %y.1 : {F4} = prim::Guard(%y)
  %r : {F4} = prim::FusionGroup_0(%x.1, %y.1)
  %s : Tensor = aten::neg(%x.1)
  return (%r, %s)
with prim::FusionGroup_0 = graph(%a : {F4}, %b : {F4}):
  %m : {F4} = aten::mul(%a, %b)
  return (%m)
"""
    )
    assert insert_type_checks(g)
    g.lint()
    text = str(g)
    FileCheck().check("prim::Guard(%x)").check(f"prim::TypeCheck[types=[{F4}]](%y)").check(
        "prim::If"
    ).check("prim::FusionGroup").check("prim::FallbackGraph").check("aten::neg").run(text)
    assert "prim::Guard(%y)" not in text
    assert not insert_type_checks(g)  # guarded already


def test_a_group_with_an_input_of_unknown_size_gets_no_type_check():
    g = parse(
        f"""graph(%x : Tensor, %y : Tensor):
  %x.1 : Float(*, requires_grad=0, device=cpu) = prim::Guard(%x)
  %y.1 : {F4} = prim::Guard(%y)
  %r : Tensor = prim::FusionGroup_0(%x.1, %y.1)
  return (%r)
with prim::FusionGroup_0 = graph(%a : Float(*, requires_grad=0, device=cpu), %b : {F4}):
  %m : Tensor = aten::mul(%a, %b)
  return (%m)
"""
    )
    assert not insert_type_checks(g)
    assert kinds(g).count("prim::Guard") == 2


def test_broadcast_pieces_get_their_layout_and_join_the_type_check():
    b, m = (
        "Float(8, strides=[1], requires_grad=0, device=cpu)",
        ("Float(4, 8, strides=[8, 1], requires_grad=0, device=cpu)"),
    )
    g = parse(
        f"""graph(%b : Tensor, %m : Tensor):
  %b.1 : {b} = prim::Guard(%b)
  %m.1 : {m} = prim::Guard(%m)
  %l : Tensor[] = prim::ListConstruct(%b.1, %m.1)
  %bt : Tensor[] = aten::broadcast_tensors(%l)
  %p : Tensor, %q : Tensor = prim::ListUnpack(%bt)
  %r : Tensor = prim::FusionGroup_0(%p, %q)
  return (%r)
with prim::FusionGroup_0 = graph(%x : Tensor, %y : Tensor):
  %s : Tensor = aten::mul(%x, %y)
  return (%s)
"""
    )
    assert insert_type_checks(g)
    expanded = "Float(4, 8, strides=[0, 1], requires_grad=0, device=cpu)"
    FileCheck().check(f"prim::TypeCheck[types=[{expanded}, {m}]](%p, %q)").run(str(g))
    assert kinds(g).count("prim::Guard") == 2  # read by the list: they stay
