"""`fusion_rewrites`: the pointwise work inside linear, convolution, inference batch norm and
non-keepdim reductions, exposed to the fuser (with a fake backend that fuses pointwise float32
operations and keepdim sums)."""

from __future__ import annotations

import pytest
import ts_passes
from passes_helpers import parse, round_trip
from ts_ir import FileCheck, ScalarType, TensorType, constant_value
from ts_passes import fusion_groups

POINTWISE = frozenset(
    f"aten::{k}" for k in ("add", "sub", "mul", "div", "relu", "gelu", "sqrt", "reciprocal", "neg")
)


class FakeBackend:
    device = "cpu"

    def can_fuse(self, node):
        if not all(
            isinstance(o.type, TensorType) and o.type.scalar_type is ScalarType.Float
            for o in node.outputs
        ):
            return False
        if str(node.kind) == "aten::sum":
            keep = node.inputs[2]
            return keep.node.kind == "prim::Constant" and constant_value(keep) is True
        return node.kind in POINTWISE

    def compile(self, subgraph, input_specs):
        return lambda *args: None


@pytest.fixture(autouse=True)
def backend():
    b = FakeBackend()
    previous = ts_passes.unregister_fusion_backend("cpu")
    ts_passes.register_fusion_backend(b)
    yield b
    ts_passes.unregister_fusion_backend("cpu")
    if previous is not None:
        ts_passes.register_fusion_backend(previous)


def fuse(text: str):
    g = parse(text)
    ts_passes.propagate_shapes(g)
    ts_passes.fuse_graph(g)
    g.lint()
    round_trip(g)
    return g


def outer(g) -> str:
    return str(g).split("with prim::FusionGroup")[0]


def test_a_linear_bias_joins_the_activation_after_it():
    g = fuse(
        """
        graph(%x : Float(*, *, device=cpu), %w : Float(*, *, device=cpu), %b : Float(*, device=cpu)):
          %y : Tensor = aten::linear(%x, %w, %b)
          %z : Tensor = aten::relu(%y)
          return (%z)
        """
    )
    (group,) = fusion_groups(g)
    FileCheck().check("prim::Constant()").check("aten::linear(%x, %w, %").check(
        "prim::FusionGroup_0"
    ).run(outer(g))
    kinds = [str(n.kind) for n in group.g("Subgraph").nodes() if n.kind != "prim::Constant"]
    assert kinds == ["aten::add", "aten::relu"]


@pytest.mark.parametrize(
    "case",
    [
        # the result only feeds another product: nothing to fuse the bias with
        "%z : Tensor = aten::mm(%y, %w)",
        # a bias of another dtype: linear rejects it, an add would promote
        "%z : Tensor = aten::relu(%y)",
    ],
)
def test_a_linear_stays_whole_where_its_bias_would_not_fuse(case):
    bias = "Double(*, device=cpu)" if "relu" in case else "Float(*, device=cpu)"
    g = fuse(
        f"""
        graph(%x : Float(*, *, device=cpu), %w : Float(*, *, device=cpu), %b : {bias}):
          %y : Tensor = aten::linear(%x, %w, %b)
          {case}
          return (%z)
        """
    )
    assert "aten::linear(%x, %w, %b)" in str(g)
    assert not fusion_groups(g)


def test_a_convolution_bias_is_viewed_per_channel_and_joins_the_activation():
    g = fuse(
        """
        graph(%x : Float(*, *, *, *, device=cpu), %w : Float(*, *, *, *, device=cpu), %b : Float(*, device=cpu)):
          %one : int[] = prim::Constant[value=[1, 1]]()
          %zero : int[] = prim::Constant[value=[0, 0]]()
          %g : int = prim::Constant[value=1]()
          %y : Tensor = aten::conv2d(%x, %w, %b, %one, %zero, %one, %g)
          %z : Tensor = aten::relu(%y)
          return (%z)
        """
    )
    (group,) = fusion_groups(g)
    FileCheck().check("aten::conv2d(%x, %w, %").check("prim::Constant[value=[-1, 1, 1]]").check(
        "aten::reshape(%b"
    ).check("prim::FusionGroup_0").run(outer(g))
    assert len(group.inputs) == 2


BATCH_NORM = """
graph(%x : Float(*, *, *, *, device=cpu), %w : Float(*, device=cpu), %b : Float(*, device=cpu),
      %m : Float(*, device=cpu), %v : Float(*, device=cpu), %training : bool):
  %false : bool = prim::Constant[value=0]()
  %momentum : float = prim::Constant[value=0.1]()
  %eps : float = prim::Constant[value=1e-05]()
  %y : Tensor = aten::batch_norm(%x, %w, %b, %m, %v, TRAINING, %momentum, %eps, %false)
  %z : Tensor = aten::relu(%y)
  return (%z)
"""


def test_inference_batch_norm_becomes_a_per_channel_scale_and_shift():
    g = fuse(BATCH_NORM.replace("TRAINING", "%false"))
    assert "aten::batch_norm" not in str(g)
    groups = fusion_groups(g)
    # the per-channel scale and shift (a small group), and x * alpha + beta with the relu
    big = groups[-1].g("Subgraph")
    kinds = [str(n.kind) for n in big.nodes() if n.kind != "prim::Constant"]
    assert kinds == ["aten::mul", "aten::add", "aten::relu"]
    assert str(g).count("aten::reshape") == 2


def test_batch_norm_that_may_train_is_left_alone():
    g = fuse(BATCH_NORM.replace("TRAINING", "%training"))
    assert "aten::batch_norm" in outer(g)


def test_a_reduction_without_keepdim_fuses_with_its_producer_and_squeezes_outside():
    g = fuse(
        """
        graph(%x : Float(*, *, device=cpu), %y : Float(*, *, device=cpu)):
          %dims : int[] = prim::Constant[value=[-1]]()
          %false : bool = prim::Constant[value=0]()
          %none : NoneType = prim::Constant()
          %p : Tensor = aten::mul(%x, %y)
          %s : Tensor = aten::sum(%p, %dims, %false, %none)
          return (%s)
        """
    )
    (group,) = fusion_groups(g)
    FileCheck().check("prim::FusionGroup_0").check("aten::squeeze(").run(outer(g))
    kinds = [str(n.kind) for n in group.g("Subgraph").nodes() if n.kind != "prim::Constant"]
    assert kinds == ["aten::mul", "aten::sum"]
    assert str(group.output().type).startswith("Float(*, *,")
    assert str(g.outputs[0].type).startswith("Float(*,")


def test_a_reduction_of_an_input_is_left_alone():
    g = fuse(
        """
        graph(%x : Float(*, *, device=cpu)):
          %dims : int[] = prim::Constant[value=[-1]]()
          %false : bool = prim::Constant[value=0]()
          %none : NoneType = prim::Constant()
          %s : Tensor = aten::sum(%x, %dims, %false, %none)
          return (%s)
        """
    )
    assert not fusion_groups(g)
    assert "aten::squeeze" not in str(g)
