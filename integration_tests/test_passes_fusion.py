"""FuseGraph on the corpus: `ratio_iou` and `lstm_cell` each become exactly one FusionGroup.

Inputs get `Float(*, *, device=cpu)` types (1-d for the LSTM biases), as the
executor's specialization would give them; a fake backend accepts pointwise
float32 ops and `prim::ConstantChunk`. Every pointwise node must end inside
the one group. The fused graphs are then unfused again (each group's
subgraph copied back in place, chunks restored) and run on the recorded
cases: the rewrites on the way (chunk motion, broadcasting) keep results.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import ts_ir
import ts_passes
from passes.harness import check_cases, make_unit, program, round_trip
from ts_ir import Device, FileCheck, ScalarType, TensorType

POINTWISE = frozenset(
    f"aten::{k}"
    for k in ("add", "sub", "mul", "div", "sigmoid", "tanh", "relu", "max", "min", "clamp")
) | {"prim::ConstantChunk"}
NOT_POINTWISE = {"aten::mm", "aten::t", "prim::TupleConstruct", "prim::ListConstruct",
                 "aten::broadcast_tensors", "prim::ListUnpack", "prim::Constant"}  # fmt: skip


class PointwiseFloatBackend:
    device = "cpu"

    def can_fuse(self, node):
        return node.kind in POINTWISE and all(
            isinstance(o.type, TensorType) and o.type.scalar_type is ScalarType.Float
            for o in node.outputs
        )

    def compile(self, subgraph, input_specs):
        raise NotImplementedError("the fake backend does not generate code")


@pytest.fixture
def backend():
    previous = ts_passes.unregister_fusion_backend("cpu")
    ts_passes.register_fusion_backend(PointwiseFloatBackend())
    yield
    ts_passes.unregister_fusion_backend("cpu")
    if previous is not None:
        ts_passes.register_fusion_backend(previous)


def specialized(name: str) -> ts_ir.Graph:
    g = ts_ir.parse_ir(program(name)["inlined_graph"])
    for v in g.inputs:
        rank = 1 if v.debug_name.startswith("b_") else 2
        v.set_type(TensorType(ScalarType.Float, Device("cpu"), None, (None,) * rank))
    return g


def unfuse(g: ts_ir.Graph) -> ts_ir.Graph:
    from ts_passes.graph_fuser import _restore_chunk

    for group in ts_passes.fusion_groups(g):
        with g.inserting_before(group):
            outs = ts_passes.insert_graph(g, group.g("Subgraph"), list(group.inputs))
        for old, new in zip(group.outputs, outs, strict=True):
            old.replace_all_uses_with(new)
        group.destroy()
    for n in list(g.all_nodes()):
        if n.kind == "prim::ConstantChunk":
            _restore_chunk(g, n)
    g.lint()
    return g


@pytest.mark.parametrize("name", ["ratio_iou", "lstm_cell"])
@pytest.mark.parametrize("how", ["fuse_graph", "optimize_for_execution"])
def test_one_group_holds_all_pointwise_work(backend, name, how):
    g = specialized(name)
    if how == "fuse_graph":
        ts_passes.propagate_shapes(g)
        assert ts_passes.fuse_graph(g)
    else:
        ts_passes.optimize_for_execution(g, requires_grad=False, grad_enabled=False)
    g.lint()
    round_trip(g)
    groups = ts_passes.fusion_groups(g)
    assert len(groups) == 1, str(g)
    outside = {str(n.kind) for n in g.nodes()} - {"prim::FusionGroup"}
    assert outside <= NOT_POINTWISE, f"pointwise work left outside the group: {outside}"
    inside = [str(n.kind) for n in groups[0].g("Subgraph").nodes()]
    assert all(k in POINTWISE or k == "prim::Constant" for k in inside)


def test_lstm_cell_fuses_with_four_chunked_inputs(backend):
    g = specialized("lstm_cell")
    ts_passes.propagate_shapes(g)
    ts_passes.fuse_graph(g)
    (group,) = ts_passes.fusion_groups(g)
    sub = group.g("Subgraph")
    chunks = [n for n in sub.nodes() if n.kind == "prim::ConstantChunk"]
    assert len(chunks) == 4
    assert all(n.i("chunks") == 4 and n.i("dim") == 1 for n in chunks)
    assert {c.input() for c in chunks} <= set(sub.inputs)
    assert len(group.outputs) == 2  # hy and cy
    FileCheck().check("aten::mm").check("aten::mm").check("aten::broadcast_tensors").check(
        "prim::FusionGroup_0"
    ).check("prim::TupleConstruct").run(g)


def test_no_fusion_when_a_gradient_is_needed(backend):
    g = specialized("ratio_iou")
    ts_passes.optimize_for_execution(g, requires_grad=True, grad_enabled=True)
    assert not ts_passes.fusion_groups(g)


@pytest.mark.parametrize("name", ["ratio_iou", "lstm_cell"])
def test_fused_then_unfused_graph_reproduces_cases(backend, name):
    def transform(prog: str, g: ts_ir.Graph) -> ts_ir.Graph:
        if prog != name:
            return g
        s = specialized(name)
        ts_passes.propagate_shapes(s)
        ts_passes.fuse_graph(s)
        return unfuse(s)

    fn = make_unit(transform, optimize=False).find_function(name)
    row = program(name)
    check_cases(fn, row, [v.type for v in ts_ir.parse_ir(row["inlined_graph"]).inputs])
