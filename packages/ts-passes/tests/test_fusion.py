"""FuseGraph with a fake backend; the backend protocol, registration and entry point discovery."""

from __future__ import annotations

import pytest
import ts_passes
from passes_helpers import parse, round_trip
from ts_ir import FileCheck, ScalarType, TensorType
from ts_passes import fusion_backend, fusion_groups

POINTWISE = frozenset(
    f"aten::{k}"
    for k in (
        "add",
        "sub",
        "mul",
        "div",
        "sigmoid",
        "tanh",
        "relu",
        "exp",
        "max",
        "min",
        "clamp",
        "where",
    )
) | {"prim::ConstantChunk"}


class FakeBackend:
    """Accepts pointwise ops whose outputs are float32 tensors."""

    device = "cpu"

    def __init__(self) -> None:
        self.asked: list[str] = []

    def can_fuse(self, node):
        self.asked.append(str(node.kind))
        return node.kind in POINTWISE and all(
            isinstance(o.type, TensorType) and o.type.scalar_type is ScalarType.Float
            for o in node.outputs
        )

    def compile(self, subgraph, input_specs):
        return lambda *args: None


@pytest.fixture
def backend():
    b = FakeBackend()
    previous = ts_passes.unregister_fusion_backend("cpu")
    ts_passes.register_fusion_backend(b)
    yield b
    ts_passes.unregister_fusion_backend("cpu")
    if previous is not None:
        ts_passes.register_fusion_backend(previous)


def fuse(text: str) -> object:
    g = parse(text)
    ts_passes.propagate_shapes(g)
    changed = ts_passes.fuse_graph(g)
    g.lint()
    round_trip(g)
    return g, changed


def test_a_chain_of_pointwise_ops_becomes_one_group(backend):
    g, changed = fuse(
        """
        graph(%a : Float(*, *, device=cpu), %b : Float(*, *, device=cpu)):
          %one : int = prim::Constant[value=1]()
          %c : Tensor = aten::mul(%a, %b)
          %d : Tensor = aten::add(%c, %a, %one)
          %e : Tensor = aten::sigmoid(%d)
          return (%e)
        """
    )
    assert changed
    assert len(fusion_groups(g)) == 1
    FileCheck().check("prim::FusionGroup_0(%").check("with prim::FusionGroup_0 = graph(").check(
        "aten::mul"
    ).check("aten::add").check("aten::sigmoid").run(g)
    FileCheck().check("with prim::FusionGroup_0").check("prim::Constant[value=1]").run(g)


def test_non_fusible_nodes_split_groups_and_producers_used_later_become_outputs(backend):
    g, _changed = fuse(
        """
        graph(%a : Float(*, *, device=cpu), %b : Float(*, *, device=cpu)):
          %c : Tensor = aten::mul(%a, %b)
          %d : Tensor = aten::tanh(%c)
          %m : Tensor = aten::mm(%d, %c)
          %e : Tensor = aten::relu(%m)
          %f : Tensor = aten::mul(%e, %c)
          return (%f)
        """
    )
    groups = fusion_groups(g)
    assert len(groups) == 2
    first = groups[0]
    assert len(first.outputs) == 2  # %d for the mm, and %c, still read after it
    FileCheck().check("prim::FusionGroup_0").check("aten::mm").check("prim::FusionGroup_1").run(g)


def test_scalars_are_inputs_or_constants_inside(backend):
    g, _ = fuse(
        """
        graph(%a : Float(*, device=cpu), %s : float, %i : int):
          %half : float = prim::Constant[value=0.5]()
          %c : Tensor = aten::mul(%a, %s)
          %d : Tensor = aten::mul(%c, %half)
          %e : Tensor = aten::mul(%d, %i)
          return (%e)
        """
    )
    (group,) = fusion_groups(g)
    assert next(str(v.type) for v in group.inputs).startswith("Float")
    assert len(group.inputs) == 3
    FileCheck().check("with prim::FusionGroup_0").check("prim::Constant[value=0.5]").run(g)


def test_never_fused_across_a_write_to_an_alias(backend):
    g, _ = fuse(
        """
        graph(%a : Float(*, device=cpu), %b : Float(*, device=cpu)):
          %one : int = prim::Constant[value=1]()
          %c : Tensor = aten::mul(%a, %b)
          %w : Tensor = aten::add_(%c, %one, %one)
          %d : Tensor = aten::sigmoid(%c)
          %e : Tensor = aten::relu(%d)
          return (%e, %w)
        """
    )
    FileCheck().check("aten::mul").check("aten::add_").check("prim::FusionGroup").run(g)
    (group,) = fusion_groups(g)
    assert [str(n.kind) for n in group.g("Subgraph").nodes()] == ["aten::sigmoid", "aten::relu"]


def test_other_devices_and_dtypes_are_left_alone(backend):
    g, changed = fuse(
        """
        graph(%a : Long(*, device=cpu), %b : Float(*, device=cuda:0)):
          %c : Tensor = aten::mul(%a, %a)
          %d : Tensor = aten::mul(%b, %b)
          return (%c, %d)
        """
    )
    assert not changed
    assert not fusion_groups(g)


def test_chunks_of_fused_results_are_pushed_into_the_group(backend):
    g, _ = fuse(
        """
        graph(%x : Float(*, *, device=cpu), %y : Float(*, *, device=cpu)):
          %one : int = prim::Constant[value=1]()
          %two : int = prim::Constant[value=2]()
          %s : Tensor = aten::add(%x, %y, %one)
          %l : Tensor[] = aten::chunk(%s, %two, %one)
          %p : Tensor, %q : Tensor = prim::ListUnpack(%l)
          %r : Tensor = aten::mul(%p, %q)
          %t : Tensor = aten::sigmoid(%r)
          return (%t)
        """
    )
    (group,) = fusion_groups(g)
    sub = group.g("Subgraph")
    kinds = [str(n.kind) for n in sub.nodes()]
    assert kinds.count("prim::ConstantChunk") == 2
    assert "aten::chunk" not in str(g) and "aten::add" not in str(g).split("with")[0]
    FileCheck().check("aten::broadcast_tensors").check("prim::FusionGroup_0").run(g)


def test_no_backend_no_fusion():
    previous = ts_passes.unregister_fusion_backend("cpu")
    try:
        g = parse(
            "graph(%a : Float(*, device=cpu)):\n  %b : Tensor = aten::relu(%a)\n  return (%b)\n"
        )
        if ts_passes.fusion_backends():
            pytest.skip("another fusion backend is installed")
        assert not ts_passes.fuse_graph(g)
    finally:
        if previous is not None:
            ts_passes.register_fusion_backend(previous)


def test_backend_registration_checks_the_protocol():
    class NoDevice:
        def can_fuse(self, node):
            return False

        def compile(self, subgraph, specs):
            return None

    with pytest.raises(ts_passes.FusionBackendError, match="device"):
        ts_passes.register_fusion_backend(NoDevice())
    assert isinstance(FakeBackend(), ts_passes.FusionBackend)


def test_entry_point_discovery_on_first_query(monkeypatch):
    class EP:
        name = "fake"

        def load(self):
            class Meta(FakeBackend):
                device = "meta"

            return Meta

    class Broken:
        name = "broken"

        def load(self):
            raise ImportError("nope")

    monkeypatch.setattr(fusion_backend, "_entry_points_loaded", False)
    monkeypatch.setattr(
        fusion_backend.metadata,
        "entry_points",
        lambda group: [EP(), Broken()] if group == "ts.fusers" else [],
    )
    try:
        backend = ts_passes.backend_for("meta")
        assert backend is not None and backend.device == "meta"
        assert backend in ts_passes.fusion_backends()
    finally:
        ts_passes.unregister_fusion_backend("meta")
