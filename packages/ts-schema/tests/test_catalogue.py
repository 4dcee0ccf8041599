"""The builtin catalogue: lazily read, PyTorch's order, the special prims."""

from __future__ import annotations

import subprocess
import sys

from ts_ir import parse_ir
from ts_schema import AliasAnalysisKind, Catalogue, EntryPointDiscovery, OperatorRegistry


def test_every_line_parses_and_prints_back():
    fresh = OperatorRegistry(Catalogue(), EntryPointDiscovery(lambda: []))
    ops = list(fresh.operators())
    assert len(ops) > 4300
    keys = [op.key for op in ops]
    assert len(keys) == len(set(keys))


def test_names_are_handed_out_once_and_parsed_on_request():
    catalogue = Catalogue()
    assert catalogue.has("aten::add")
    entries = catalogue.take("aten::add")
    assert (
        entries[0].text
        == "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"
    )
    assert not catalogue.has("aten::add")
    assert catalogue.take("aten::add") == []
    assert "aten" in catalogue.namespaces()


def test_special_prims_are_there_with_varargs_and_side_effects():
    fresh = OperatorRegistry(Catalogue(), EntryPointDiscovery(lambda: []))
    required = """Constant If Loop Param Return TupleConstruct TupleUnpack TupleIndex TupleSlice
    ListConstruct ListUnpack DictConstruct GetAttr SetAttr CallFunction CallMethod Uninitialized
    unchecked_cast isinstance Load Store Enter Exit FusionGroup DifferentiableGraph ConstantChunk
    BroadcastSizes fork Guard BailOut TypeCheck RequiresGradCheck AutogradZero AutogradAdd
    RaiseException Print MMBatchSide MMTreeReduce""".split()
    for name in required:
        assert fresh.has(f"prim::{name}"), name
    (construct,) = fresh.lookup("prim::TupleConstruct")
    assert str(construct.schema) == "prim::TupleConstruct(...) -> ..."
    assert construct.alias_analysis is AliasAnalysisKind.INTERNAL_SPECIAL_CASE
    for name in ("SetAttr", "CallFunction", "CallMethod", "Enter", "Exit", "Store", "Load"):
        (op,) = fresh.lookup(f"prim::{name}")
        assert op.has_side_effects, name
    assert not fresh.lookup("prim::If")[0].has_side_effects


def test_structural_nodes_have_schemas():
    graph = parse_ir(
        """
graph(%c : bool, %x : Tensor, %y : Tensor):
  %t : (Tensor, Tensor) = prim::TupleConstruct(%x, %y)
  %a : Tensor, %b : Tensor = prim::TupleUnpack(%t)
  %l : Tensor[] = prim::ListConstruct(%a, %b)
  %r : Tensor = prim::If(%c)
    block0():
      -> (%a)
    block1():
      -> (%b)
  return (%r)
"""
    )
    keys = [n.schema().key for n in graph.nodes()]
    assert keys == ["prim::TupleConstruct", "prim::TupleUnpack", "prim::ListConstruct", "prim::If"]


def test_importing_reads_no_catalogue():
    code = (
        "import ts_schema;"
        "print(ts_schema.registry.catalogue._index is None,"
        " ts_schema.registry.discovery._entry_points is None)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "True"]
