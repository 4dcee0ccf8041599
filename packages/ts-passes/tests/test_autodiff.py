"""Autodiff passes: differentiable subgraphs, differentiate, and the backward graph's own passes.

ts-passes alone has no derivative formulas (the runtime installs the default
rule), so these tests write their own symbolic rules, as graph nodes through a
`GradientBuilder`, into a table of their own. The checks are on structure
(FileCheck, the Gradient's bookkeeping), with print → parse round trips; what
the graphs compute is checked by ts-runtime's and the integration tests.
"""

from __future__ import annotations

import pytest
import ts_passes
from passes_helpers import parse, round_trip, values
from ts_ir import FileCheck, Graph, Node, NoneType, TensorType, Value
from ts_passes import GradientBuilder, NotDifferentiableError
from ts_schema import RuleTable

RULES: RuleTable = RuleTable("test gradients", default=None)


@RULES.rule("aten::mul.Tensor")
def _mul(b: GradientBuilder, node: Node, grads: list[Value | None]) -> list:
    x, y = node.inputs
    g = grads[0]
    return [b.insert("aten::mul", [g, y]), b.insert("aten::mul", [g, x])]


@RULES.rule("aten::tanh")
def _tanh(b: GradientBuilder, node: Node, grads: list[Value | None]) -> list:
    y = node.output()
    one_minus = b.insert("aten::rsub", [b.insert("aten::mul", [y, y]), 1])
    return [b.insert("aten::mul", [grads[0], one_minus])]


@RULES.rule("aten::mm")
def _mm(b: GradientBuilder, node: Node, grads: list[Value | None]) -> list:
    x, w = node.inputs
    g = grads[0]
    return [
        b.insert("aten::mm", [g, b.insert("aten::t", [w])]),
        b.insert("aten::mm", [b.insert("aten::t", [x]), g]),
    ]


@RULES.rule("aten::t")
def _t(b: GradientBuilder, node: Node, grads: list[Value | None]) -> list:
    return [b.insert("aten::t", [grads[0]])]


@RULES.rule("aten::add.Tensor")
def _add(b: GradientBuilder, node: Node, grads: list[Value | None]) -> list:
    x, y, _ = node.inputs
    g = grads[0]
    result = node.output()
    return [b.sum_to(g, x, result), b.sum_to(g, y, result), None]


T = "Float(*, *, requires_grad=1, device=cpu)"
N = "Float(*, *, requires_grad=0, device=cpu)"

CHAIN = f"""
graph(%x : {T}, %w : {T}):
  %t : {T} = aten::t(%w)
  %h : {T} = aten::mm(%x, %t)
  %y : {T} = aten::tanh(%h)
  return (%y)
"""


def _groups(g: Graph) -> list[Node]:
    return [n for n in g.all_nodes() if n.kind == "prim::DifferentiableGraph"]


def test_adjacent_differentiable_nodes_form_one_group():
    g = parse(CHAIN)
    assert ts_passes.create_autodiff_subgraphs(g, rules=RULES) is True
    g.lint()
    round_trip(g)
    (group,) = _groups(g)
    FileCheck().check("prim::DifferentiableGraph_0(").check("return").check(
        "with prim::DifferentiableGraph_0 = graph("
    ).check("aten::t").check("aten::mm").check("aten::tanh").run(str(g))
    assert [v.debug_name for v in group.inputs] == ["x", "w"]


def test_groups_smaller_than_the_threshold_are_inlined():
    g = parse(f"""
graph(%x : {T}):
  %y : {T} = aten::tanh(%x)
  return (%y)
""")
    assert ts_passes.create_autodiff_subgraphs(g, rules=RULES) is False
    assert not _groups(g)
    g = parse(CHAIN)
    ts_passes.create_autodiff_subgraphs(g, 4, rules=RULES)
    assert not _groups(g), "three nodes are below a threshold of 4"


def test_a_node_without_a_rule_splits_the_graph():
    g = parse(f"""
graph(%x : {T}, %w : {T}):
  %a : {T} = aten::tanh(%x)
  %b : {T} = aten::mul(%a, %w)
  %c : {T} = aten::sigmoid(%b)
  %d : {T} = aten::tanh(%c)
  %e : {T} = aten::mul(%d, %d)
  return (%e)
""")
    ts_passes.create_autodiff_subgraphs(g, rules=RULES)
    g.lint()
    groups = _groups(g)
    assert len(groups) == 2
    FileCheck().check("prim::DifferentiableGraph").check("aten::sigmoid").check(
        "prim::DifferentiableGraph"
    ).run(str(g))


def test_nodes_move_only_where_alias_analysis_allows():
    # moving the mul down to the tanh would read %x after the in-place add changed it
    g = parse(f"""
graph(%x : {T}, %w : {T}):
  %one : int = prim::Constant[value=1]()
  %a : {T} = aten::mul(%x, %w)
  %x2 : {T} = aten::add_(%x, %one, %one)
  %b : {T} = aten::tanh(%x2)
  %c : {T} = aten::mul(%a, %b)
  %d : {T} = aten::tanh(%c)
  return (%d)
""")
    ts_passes.create_autodiff_subgraphs(g, rules=RULES)
    g.lint()
    v = values(g)
    # the first mul stays before the in-place add (it may form no group of its own)
    assert v["a"].node.is_before(v["x2"].node)
    for group in _groups(g):
        assert group.is_after(v["x2"].node)


def test_views_of_inputs_are_not_returned_by_a_group():
    g = parse(f"""
graph(%x : {T}, %w : {T}):
  %t : {T} = aten::t(%w)
  %h : {T} = aten::mm(%x, %t)
  %y : {T} = aten::tanh(%h)
  return (%y, %t)
""")
    ts_passes.create_autodiff_subgraphs(g, rules=RULES)
    g.lint()
    (group,) = _groups(g)
    sub = group.g("Subgraph")
    assert len(sub.outputs) == 1, "the transpose of an input is computed outside the group"
    t_out = g.outputs[1]
    assert t_out.node.kind == "aten::t" and t_out.node.owning_block is g.block


def test_differentiate_bookkeeping():
    g = parse(CHAIN)
    grad = ts_passes.differentiate(g, rules=RULES)
    f, df = grad.f, grad.df
    f.lint()
    df.lint()
    round_trip(f)
    round_trip(df)
    assert grad.f_real_outputs == 1
    # the output's vjp, then the temporaries that require grad (the transpose of w)
    assert grad.df_input_vjps[0] == 0
    assert grad.df_output_vjps == [0, 1]
    assert grad.df_input_captured_inputs == [0]  # x, for w's gradient
    # captured outputs: tanh's result (its own derivative), the transpose of w
    assert sorted(grad.df_input_captured_outputs) == sorted(set(grad.df_input_captured_outputs))
    captured = [f.outputs[i] for i in grad.df_input_captured_outputs]
    assert f.outputs[0] in captured and any(v.node.kind == "aten::t" for v in captured)
    n_inputs = len(grad.df_input_vjps) + len(grad.df_input_captured_inputs)
    assert len(df.inputs) == n_inputs + len(grad.df_input_captured_outputs)
    assert len(df.outputs) == 2
    FileCheck().check("aten::rsub").check("aten::mm").check("aten::mm").run(str(df))
    # f runs on detached inputs: nothing in it requires grad
    for v in [*f.inputs, *(o for n in f.nodes() for o in n.outputs)]:
        if isinstance(v.type, TensorType):
            assert v.type.requires_grad is False


def test_temporaries_that_require_grad_take_a_vjp_for_double_backward():
    g = parse(CHAIN)
    grad = ts_passes.differentiate(g, rules=RULES)
    temporaries = [i for i in grad.df_input_vjps if i >= grad.f_real_outputs]
    assert temporaries, "the transpose of w is captured and requires grad"
    adds = [n for n in grad.df.all_nodes() if n.kind == "prim::AutogradAdd"]
    assert len(adds) == len(temporaries)


def test_broadcast_sums_are_sized_in_f():
    g = parse(f"""
graph(%x : {T}, %b : Float(*, requires_grad=1, device=cpu)):
  %one : int = prim::Constant[value=1]()
  %y : {T} = aten::add(%x, %b, %one)
  %z : {T} = aten::tanh(%y)
  return (%z)
""")
    grad = ts_passes.differentiate(g, rules=RULES)
    FileCheck().check("aten::size").check("aten::_size_if_not_equal").run(str(grad.f))
    FileCheck().check_count("aten::_grad_sum_to_size", 2, exactly=True).run(str(grad.df))
    sizes = [v for v in grad.df.inputs if str(v.type) == "int[]?"]
    assert len(sizes) == 2, "df takes the sizes (None when no sum is needed) as inputs"


def test_an_output_read_again_inside_accumulates_both_gradients():
    # %y is an output and also feeds %z: its gradient is its vjp plus what flows from %z
    g = parse(f"""
graph(%x : {T}):
  %y : {T} = aten::tanh(%x)
  %z : {T} = aten::mul(%y, %y)
  return (%y, %z)
""")
    grad = ts_passes.differentiate(g, rules=RULES)
    assert grad.df_input_vjps[:2] == [0, 1]
    FileCheck().check("aten::add").check("aten::rsub").run(str(grad.df))


def test_missing_rule_raises_a_typed_error():
    g = parse(f"""
graph(%x : {T}):
  %y : {T} = aten::sigmoid(%x)
  %z : {T} = aten::tanh(%y)
  return (%z)
""")
    with pytest.raises(NotDifferentiableError, match="sigmoid"):
        ts_passes.differentiate(g, rules=RULES)


def test_differentiate_graphs_packs_and_reads_back_the_gradient():
    g = parse(CHAIN)
    ts_passes.create_autodiff_subgraphs(g, rules=RULES)
    assert ts_passes.differentiate_graphs(g, rules=RULES) is True
    (node,) = _groups(g)
    grad = ts_passes.gradient_of(node)
    assert grad.f is node.g("Subgraph") and grad.df is node.g("ReverseSubgraph")
    assert node.ints("df_output_vjps") == grad.df_output_vjps == [0, 1]
    text = round_trip(g)
    assert "ReverseSubgraph" not in text  # printed as TorchScript prints them: f only
    assert ts_passes.differentiate_graphs(g, rules=RULES) is False  # already done


def test_a_group_that_cannot_be_differentiated_goes_back_into_the_graph():
    g = parse(CHAIN)
    ts_passes.create_autodiff_subgraphs(g, rules=RULES)
    empty: RuleTable = RuleTable("no gradients", default=None)
    assert ts_passes.differentiate_graphs(g, rules=empty) is True
    assert not _groups(g)
    FileCheck().check("aten::t").check("aten::mm").check("aten::tanh").run(str(g))


def test_specialize_autograd_zero():
    g = parse(f"""
graph(%a : NoneType, %b : {N}, %c : {N}, %s : NoneType):
  %x : Tensor = prim::AutogradAdd(%a, %b)
  %y : Tensor = prim::AutogradAdd(%x, %c)
  %z : Tensor = aten::_grad_sum_to_size(%y, %s)
  return (%z)
""")
    assert ts_passes.specialize_autograd_zero(g) is True
    g.lint()
    FileCheck().check_not("prim::AutogradAdd").check("aten::add(%b, %c").check_not(
        "_grad_sum_to_size"
    ).run(str(g))


def test_transpose_products():
    g = parse(f"""
graph(%g : {N}, %x : {N}, %h : {N}, %gh : {N}):
  %gt : {N} = aten::t(%g)
  %p : {N} = aten::mm(%x, %gt)
  %ght : {N} = aten::t(%gh)
  %q : {N} = aten::mm(%h, %ght)
  %one : int = prim::Constant[value=1]()
  %s : {N} = aten::add(%p, %q, %one)
  %r : {N} = aten::t(%s)
  return (%r)
""")
    assert ts_passes.transpose_products(g) is True
    g.lint()
    round_trip(g)
    text = str(g)
    FileCheck().check("aten::mm(%g, ").check("aten::mm(%gh, ").check("aten::add").run(text)
    assert "aten::t(%g)" not in text and "aten::t(%gh)" not in text
    out = g.outputs[0].node
    assert out.kind == "aten::add"
    assert all(v.node.kind == "aten::mm" for v in out.inputs[:2])


def test_fusion_group_outputs_read_only_for_their_size():
    g = parse(f"""
graph(%a : {N}, %b : {N}):
  %y : {N}, %t : {N} = prim::FusionGroup_0(%a, %b)
  %s : int[] = aten::size(%t)
  return (%y, %s)
with prim::FusionGroup_0 = graph(%0 : {N}, %1 : {N}):
  %t : {N} = aten::mul(%0, %1)
  %y : {N} = aten::tanh(%t)
  return (%y, %t)
""")
    assert ts_passes.run_pass(g, "remove_outputs_used_only_in_size") is True
    g.lint()
    (group,) = [n for n in g.nodes() if n.kind == "prim::FusionGroup"]
    assert len(group.outputs) == 1
    FileCheck().check("aten::size(%a)").check("aten::size(%b)").check("prim::BroadcastSizes").run(
        str(g)
    )


def test_the_size_of_a_fused_reduction_is_not_its_operands_broadcast():
    # `x - x.mean(-1, keepdim=True)`: the mean's size is not x's; the backward graph's sum of
    # the gradient of the mean needs its real size, so the group keeps the output
    g = parse(f"""
graph(%x : {N}):
  %y : {N}, %m : {N} = prim::FusionGroup_0(%x)
  %s : int[] = aten::size(%m)
  return (%y, %s)
with prim::FusionGroup_0 = graph(%0 : {N}):
  %dims : int[] = prim::Constant[value=[-1]]()
  %keep : bool = prim::Constant[value=1]()
  %none : NoneType = prim::Constant()
  %one : int = prim::Constant[value=1]()
  %m : {N} = aten::mean(%0, %dims, %keep, %none)
  %y : {N} = aten::sub(%0, %m, %one)
  return (%y, %m)
""")
    assert ts_passes.run_pass(g, "remove_outputs_used_only_in_size") is False
    (group,) = [n for n in g.nodes() if n.kind == "prim::FusionGroup"]
    assert len(group.outputs) == 2
    assert "prim::BroadcastSizes" not in str(g)


def test_passes_are_registered_by_name():
    names = ts_passes.pass_names()
    for name in (
        "create_autodiff_subgraphs",
        "differentiate_graphs",
        "specialize_autograd_zero",
        "transpose_products",
        "remove_outputs_used_only_in_size",
    ):
        assert name in names


def test_none_values_are_typed_none():
    g = parse(f"""
graph(%a : NoneType, %b : {N}):
  %x : Tensor = prim::AutogradAdd(%b, %a)
  return (%x)
""")
    ts_passes.specialize_autograd_zero(g)
    assert g.outputs[0] is values(g)["b"]
    assert isinstance(g.inputs[0].type, NoneType)
