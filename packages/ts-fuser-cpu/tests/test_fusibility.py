"""What the CPU fuser offers to fuse, and how ts-passes finds it."""

from __future__ import annotations

from importlib import metadata

import pytest
import ts_fuser_cpu
import ts_passes
from ts_ir import parse_ir

NODES = """graph(%a : Tensor, %b : Tensor, %n : int, %l : int[]):
  %one : int = prim::Constant[value=1]()
  %mode : str = prim::Constant[value="floor"]()
  %add : Tensor = aten::add(%a, %b, %one)
  %add_ : Tensor = aten::add_(%a, %b, %one)
  %mm : Tensor = aten::mm(%a, %b)
  %sig : Tensor = aten::sigmoid(%a)
  %div : Tensor = aten::div(%a, %b, %mode)
  %int_add : int = aten::add(%n, %one)
  %c0 : Tensor, %c1 : Tensor = prim::ConstantChunk[chunks=2, dim=0](%a)
  %sum : Tensor = aten::sum(%a, %l)
  %pow : Tensor = aten::pow(%a, %n)
  %wh : Tensor = aten::where(%a, %b, %n)
  return (%add, %add_, %mm, %sig, %div, %int_add, %c0, %c1, %sum, %pow, %wh)
"""


@pytest.fixture(scope="module")
def nodes():
    g = parse_ir(NODES)
    return {
        n.output(0).debug_name: n for n in g.nodes() if n.outputs and n.kind != "prim::Constant"
    }


@pytest.mark.parametrize(
    "name,fusible",
    [
        ("add", True),
        ("add_", False),
        ("mm", False),
        ("sig", True),
        ("div", True),
        ("int_add", False),
        ("c0", True),
        ("sum", False),
        ("pow", True),
        ("wh", True),
    ],
)
def test_can_fuse(nodes, name, fusible):
    assert ts_fuser_cpu.backend.can_fuse(nodes[name]) is fusible


def test_reasons(nodes):
    assert ts_fuser_cpu.why_not_fusible(nodes["mm"]) == "aten::mm has no CPU lowering"
    assert ts_fuser_cpu.why_not_fusible(nodes["add_"]) == "aten::add_ has no CPU lowering"


def test_a_rounding_mode_must_be_constant():
    g = parse_ir(
        "graph(%a : Tensor, %m : str):\n  %r : Tensor = aten::div(%a, %a, %m)\n  return (%r)\n"
    )
    (node,) = [n for n in g.nodes() if n.kind == "aten::div"]
    assert "not a constant" in ts_fuser_cpu.why_not_fusible(node)


def test_registered_for_the_cpu():
    assert ts_passes.backend_for("cpu") is ts_fuser_cpu.backend
    assert ts_fuser_cpu.backend in ts_passes.fusion_backends()
    assert isinstance(ts_fuser_cpu.backend, ts_passes.FusionBackend)


def test_declared_as_an_entry_point():
    (entry,) = [e for e in metadata.entry_points(group="ts.fusers") if e.name == "cpu"]
    assert entry.load() is ts_fuser_cpu.backend


def test_every_lowering_is_keyed_by_a_known_schema():
    from ts_schema import registry

    for key in ts_fuser_cpu.CPU_LOWERINGS.keys():
        assert registry.find(key) is not None, key
