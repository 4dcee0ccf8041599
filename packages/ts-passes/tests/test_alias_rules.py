"""Each alias-analysis rule of `ALIAS_RULES` (and the creates_fresh tag), on a graph that needs it.

`test_every_rule_is_tested` keeps the table and these tests in step: a new rule needs a test.
"""

from __future__ import annotations

import pytest
from passes_helpers import parse, values
from ts_passes import AliasDb
from ts_passes import alias_rules as rules


def build(text: str, **kwargs):
    g = parse(text)
    return g, AliasDb(g, **kwargs), values(g)


TESTED: set[str] = set()


def covers(rule):
    def mark(fn):
        TESTED.add(rule.__name__)
        return fn

    return mark


@covers(rules.if_outputs)
def test_if_outputs_point_to_both_blocks():
    _g, db, v = build(
        """
        graph(%a : Tensor, %b : Tensor, %c : bool):
          %r : Tensor = prim::If(%c)
            block0():
              -> (%a)
            block1():
              -> (%b)
          return (%r)
        """
    )
    assert db.may_alias(v["r"], v["a"]) and db.may_alias(v["r"], v["b"])


@covers(rules.loop_carried)
def test_loop_carried_values_point_to_the_start_and_the_body():
    _g, db, v = build(
        """
        graph(%x : Tensor, %n : int):
          %t : bool = prim::Constant[value=1]()
          %o : Tensor = prim::Loop(%n, %t, %x)
            block0(%i : int, %c : Tensor):
              %y : Tensor = aten::relu(%c)
              -> (%t, %y)
          return (%o)
        """
    )
    assert db.may_alias(v["o"], v["x"])  # no iteration
    assert db.may_alias(v["o"], v["y"]) and db.may_alias(v["c"], v["y"])


@covers(rules.subgraph)
def test_a_subgraph_is_analyzed_through():
    g = parse("graph(%a : Tensor):\n  %r : Tensor = prim::FusionGroup(%a)\n  return (%r)\n")
    sub = parse("graph(%s : Tensor):\n  %v : Tensor = aten::view(%s, %s)\n  return (%v)\n".replace(
        "aten::view(%s, %s)", "aten::alias(%s)"))  # fmt: skip
    node = g.outputs[0].node
    node.g_("Subgraph", sub)
    db = AliasDb(g)
    assert db.may_alias(g.outputs[0], g.inputs[0])  # the subgraph returns a view of its input


@covers(rules.container)
def test_a_constructed_list_holds_wildcards_unless_cat_is_its_only_use():
    _g, db, v = build(
        """
        graph(%a : Tensor, %b : Tensor):
          %l : Tensor[] = prim::ListConstruct(%a)
          %m : Tensor[] = prim::ListConstruct(%b)
          %z : int = prim::Constant[value=0]()
          %c : Tensor = aten::cat(%m, %z)
          %e : Tensor = aten::__getitem__(%l, %z)
          return (%l, %c, %e)
        """
    )
    assert db.may_contain_alias(v["l"], v["a"]) and db.may_alias(v["e"], v["a"])
    assert db.may_contain_alias(v["m"], v["b"]) and not db.may_alias(v["c"], v["b"])


@covers(rules.wildcard_outputs)
def test_extracted_elements_are_wildcards():
    _g, db, v = build(
        """
        graph(%a : Tensor, %t : (Tensor, Tensor)):
          %x : Tensor, %y : Tensor = prim::TupleUnpack(%t)
          %b : Tensor = aten::relu(%a)
          return (%x, %b)
        """
    )
    assert db.may_alias(v["x"], v["a"]) and db.may_alias(v["x"], v["y"])
    assert not db.may_alias(v["b"], v["x"])


@covers(rules.point_to_first_input)
def test_a_cast_is_its_input():
    _g, db, v = build(
        """
        graph(%a : Tensor?):
          %b : Tensor = prim::unchecked_cast(%a)
          %c : Tensor = aten::relu(%b)
          return (%b, %c)
        """
    )
    assert db.may_alias(v["b"], v["a"]) and not db.may_alias(v["c"], v["a"])


@covers(rules.constant_chunk)
def test_constant_chunks_view_the_input():
    _g, db, v = build(
        """
        graph(%a : Tensor):
          %x : Tensor, %y : Tensor = prim::ConstantChunk[chunks=2, dim=0](%a)
          return (%x, %y)
        """
    )
    assert db.may_alias(v["x"], v["a"]) and db.may_alias(v["y"], v["a"])


@covers(rules.broadcasting_chunk)
def test_broadcasting_chunks_view_their_own_input():
    g, _db, v = build(
        """
        graph(%a : Tensor, %b : Tensor):
          %a1 : Tensor, %a2 : Tensor, %b1 : Tensor, %b2 : Tensor = prim::BroadcastingChunk[chunks=2, dim=0](%a, %b)
          return (%a1, %b2)
        """
    )
    # graph inputs may alias each other: use fresh inputs to see which input each chunk views
    db = AliasDb(g)
    node = v["a1"].node
    assert db.may_alias(v["a1"], v["a"]) and db.may_alias(v["b2"], v["b"])
    assert node.i("chunks") == 2


@covers(rules.set_attr)
def test_set_attr_writes_the_object_and_lets_the_value_escape():
    _g, db, v = build(
        """
        graph(%self : __torch__.M, %x : Tensor):
           = prim::SetAttr[name="w"](%self, %x)
          %y : Tensor = aten::relu(%x)
          return (%y)
        """
    )
    node = next(n for n in _g.nodes() if n.kind == "prim::SetAttr")
    assert db.writes_to_alias(node, v["self"])
    assert db.may_alias_wildcard(v["x"])


@covers(rules.fork)
def test_fork_lets_its_inputs_escape_and_makes_a_fresh_future():
    _g, db, v = build(
        """
        graph(%x : Tensor):
          %f : Future(Tensor) = prim::fork[name="g"](%x)
          return (%f)
        """.replace('[name="g"]', "")
    )
    assert db.may_alias_wildcard(v["x"])
    assert not db.may_alias(v["f"], v["x"])


@covers(rules.wait)
def test_wait_returns_anything_and_may_write_every_wildcard():
    _g, db, v = build(
        """
        graph(%f : Future(Tensor), %x : Tensor):
          %r : Tensor = aten::wait(%f)
          return (%r)
        """
    )
    node = v["r"].node
    assert db.may_alias(v["r"], v["x"])
    assert db.writes_to_alias(node, v["x"])  # %x is a graph input: a wildcard


@covers(rules.conservative)
def test_a_call_may_write_everything_it_is_given():
    _g, db, v = build(
        """
        graph(%x : Tensor, %l : int[]):
          %fn : Function = prim::Constant[name="f"]()
          %r : Tensor = prim::CallFunction(%fn, %x, %l)
          return (%r)
        """
    )
    node = v["r"].node
    assert db.writes_to_alias(node, v["x"]) and db.writes_to_alias(node, v["l"])
    assert db.may_alias(v["r"], v["x"])


@covers(rules.fresh_outputs)
def test_prints_and_creators_make_fresh_values():
    _g, db, v = build(
        """
        graph(%x : Tensor):
          %c : Tensor = prim::Constant()
           = prim::Print(%x)
          %u : Tensor = prim::Uninitialized()
          return (%c, %u)
        """.replace("%c : Tensor = prim::Constant()", "%c : Tensor = prim::AutogradZero()")
    )
    assert not db.may_alias(v["c"], v["x"]) and not db.may_alias(v["u"], v["x"])
    assert not db.may_alias(v["c"], v["u"])
    print_node = next(n for n in _g.nodes() if n.kind == "prim::Print")
    assert not db.get_writes(print_node)


@covers(rules.norm)
@pytest.mark.parametrize(("training", "writes"), [(1, True), (0, False)])
def test_batch_norm_writes_its_running_statistics_when_training(training, writes):
    _g, db, v = build(
        f"""
        graph(%x : Tensor, %w : Tensor, %b : Tensor, %rm : Tensor, %rv : Tensor):
          %t : bool = prim::Constant[value={training}]()
          %m : float = prim::Constant[value=0.1]()
          %e : float = prim::Constant[value=1e-05]()
          %c : bool = prim::Constant[value=0]()
          %y : Tensor = aten::batch_norm(%x, %w, %b, %rm, %rv, %t, %m, %e, %c)
          return (%y)
        """
    )
    node = v["y"].node
    assert db.writes_to_alias(node, v["rm"]) is writes
    assert not db.may_alias(v["y"], v["x"])


@covers(rules.check_outputs)
def test_profiling_checks_return_the_values_they_check():
    _g, db, v = build(
        """
        graph(%x : Tensor):
          %y : Tensor = aten::mul(%x, %x)
          %a : Tensor, %b : Tensor, %ok : bool = prim::TypeCheck[types=[Tensor, Tensor]](%x, %y)
          %i : int = prim::Constant[value=0]()
          %g : Tensor = prim::BailOut[index=0](%i, %x)
          return (%a, %b, %ok, %g)
        """
    )
    assert db.may_alias(v["a"], v["x"]) and db.may_alias(v["b"], v["y"])
    assert not db.may_alias(v["a"], v["y"])
    assert db.may_alias(v["g"], v["x"])
    assert not db.may_alias(v["g"], v["y"])


@covers(rules.from_schema)
def test_other_kinds_follow_their_schema():
    _g, db, v = build(
        """
        graph(%x : Tensor):
          %y : Tensor = aten::t(%x)
          %z : Tensor = aten::relu(%x)
          return (%y, %z)
        """
    )
    assert db.may_alias(v["y"], v["x"]) and not db.may_alias(v["z"], v["x"])


def test_kinds_tagged_creates_fresh_get_fresh_outputs_without_a_rule():
    from ts_ir import Graph
    from ts_schema import Tag, registry

    g = Graph()
    node = g.create("prim::MMTreeReduce")
    assert "prim::MMTreeReduce" not in rules.ALIAS_RULES
    assert Tag.creates_fresh in registry.tags_of(node)
    assert rules.rule_for(node) is rules.fresh_outputs


def test_every_rule_is_tested():
    used = {rule.__name__ for rule in rules.ALIAS_RULES.values()} | {"fresh_outputs", "from_schema"}
    assert used <= TESTED, f"rules without a test: {sorted(used - TESTED)}"
