"""create_autodiff_subgraphs: which nodes go into `prim::DifferentiableGraph`s."""

from __future__ import annotations

import ts_ir
from ts_passes import create_autodiff_subgraphs, differentiable_graphs
from ts_passes.subgraph_utils import subgraph_of

GRAPH = """
graph(%x : Float(4, requires_grad=0, device=cpu)):
  %one : int = prim::Constant[value=1]()
  %none : NoneType = prim::Constant()
  %size : int[] = prim::Constant[value=[4]]()
  %k : Float(4, requires_grad=0, device=cpu) = aten::ones(%size, %none, %none, %none, %none)
  %a : Float(4, requires_grad=0, device=cpu) = aten::mul(%x, %x)
  %b : Float(4, requires_grad=0, device=cpu) = aten::sigmoid(%a)
  %c : Float(4, requires_grad=0, device=cpu) = aten::add(%b, %x, %one)
  %s : Float(requires_grad=0, device=cpu) = aten::sum(%k, %none)
  %w : Float(4, requires_grad=0, device=cpu) = aten::div_(%k, %s)
  %r : Float(4, requires_grad=0, device=cpu) = aten::add(%w, %c, %one)
  return (%r)
"""


def kinds(graph) -> list[str]:
    return [str(n.kind) for n in graph.nodes() if str(n.kind) != "prim::Constant"]


def test_pure_chains_become_one_group():
    g = ts_ir.parse_ir(GRAPH)
    create_autodiff_subgraphs(g)
    (group,) = differentiable_graphs(g)
    assert kinds(subgraph_of(group)) == ["aten::mul", "aten::sigmoid", "aten::add", "aten::add"]
    g.lint()


def test_a_tensor_written_in_place_later_is_made_outside_the_groups():
    """`k = ones(...); k /= k.sum()`: made inside a group, whose graph is optimized alone, the
    `ones` could become one constant tensor that every call hands out and the caller writes."""
    g = ts_ir.parse_ir(GRAPH)
    create_autodiff_subgraphs(g)
    assert "aten::ones" in kinds(g)
    for group in differentiable_graphs(g):
        assert "aten::ones" not in kinds(subgraph_of(group))
