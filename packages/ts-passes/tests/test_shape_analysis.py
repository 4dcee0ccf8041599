"""Shape, dtype and device propagation."""

from __future__ import annotations

import pytest
import ts_passes
from passes_helpers import parse, round_trip, values
from ts_ir import Device, ScalarType, TensorType


def types_after(text: str) -> dict[str, str]:
    g = parse(text)
    ts_passes.propagate_shapes(g)
    g.lint()
    round_trip(g)
    return {k: str(v.type) for k, v in values(g).items()}


def test_pointwise_with_broadcasting_and_promotion():
    t = types_after(
        """
        graph(%a : Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu),
              %b : Double(3, strides=[1], requires_grad=0, device=cpu),
              %i : Long(2, 1, strides=[1, 1], requires_grad=0, device=cpu)):
          %one : int = prim::Constant[value=1]()
          %half : float = prim::Constant[value=0.5]()
          %c : Tensor = aten::add(%a, %b, %one)
          %d : Tensor = aten::mul(%i, %half)
          %e : Tensor = aten::mul(%i, %one)
          %f : Tensor = aten::div(%i, %i)
          %g : Tensor = aten::lt(%a, %i)
          %h : Tensor = aten::sigmoid(%i)
          return (%c, %d, %e, %f, %g, %h)
        """
    )
    assert t["c"] == "Double(2, 3, strides=[3, 1], requires_grad=0, device=cpu)"
    assert t["d"] == "Float(2, 1, strides=[1, 1], requires_grad=0, device=cpu)"
    assert t["e"] == "Long(2, 1, strides=[1, 1], requires_grad=0, device=cpu)"
    assert t["f"].startswith("Float(2, 1")
    assert t["g"].startswith("Bool(2, 3")
    assert t["h"].startswith("Float(2, 1")


def test_rank_only_inputs_give_rank_only_results():
    t = types_after(
        """
        graph(%a : Float(*, *, requires_grad=1, device=cpu), %b : Float(*, requires_grad=0, device=cpu)):
          %one : int = prim::Constant[value=1]()
          %c : Tensor = aten::add(%a, %b, %one)
          %m : Tensor = aten::mm(%a, %a)
          %s : Tensor = aten::sum(%c, %one)
          %t : Tensor = aten::t(%m)
          return (%c, %m, %s, %t)
        """.replace("aten::sum(%c, %one)", "aten::relu(%c)")
    )
    assert t["c"] == "Float(*, *, requires_grad=1, device=cpu)"
    assert t["m"] == "Float(*, *, requires_grad=1, device=cpu)"
    assert t["t"] == "Float(*, *, requires_grad=1, device=cpu)"


def test_reductions_views_and_creation():
    t = types_after(
        """
        graph(%a : Float(4, 6, strides=[6, 1], requires_grad=0, device=cpu)):
          %zero : int = prim::Constant[value=0]()
          %one : int = prim::Constant[value=1]()
          %m1 : int = prim::Constant[value=-1]()
          %true : bool = prim::Constant[value=1]()
          %none : NoneType = prim::Constant()
          %dims : int[] = prim::ListConstruct(%one)
          %s : Tensor = aten::sum(%a, %dims, %true, %none)
          %m : Tensor = aten::mean(%a, %dims, %zero, %none)
          %shape : int[] = prim::ListConstruct(%m1, %zero)
          %sz : int[] = prim::ListConstruct(%one, %m1)
          %v : Tensor = aten::view(%a, %sz)
          %tr : Tensor = aten::transpose(%a, %zero, %one)
          %sel : Tensor = aten::select(%a, %zero, %one)
          %z : Tensor = aten::zeros(%sz, %none, %none, %none, %none)
          %u : Tensor = aten::unsqueeze(%a, %zero)
          return (%s, %m, %v, %tr, %sel, %z, %u)
        """.replace("aten::mean(%a, %dims, %zero, %none)", "aten::mean(%a, %dims, %true, %none)")
    )
    assert t["s"] == "Float(4, 1, strides=[1, 1], requires_grad=0, device=cpu)"
    assert t["v"] == "Float(1, 24, strides=[24, 1], requires_grad=0, device=cpu)"
    assert t["tr"] == "Float(6, 4, strides=[1, 6], requires_grad=0, device=cpu)"
    assert t["sel"] == "Float(6, strides=[1], requires_grad=0, device=cpu)"
    assert t["z"] == "Float(*, *, requires_grad=0, device=cpu)"
    assert t["u"] == "Float(1, 4, 6, strides=[24, 6, 1], requires_grad=0, device=cpu)"


def test_to_and_comparisons():
    t = types_after(
        """
        graph(%a : Float(*, device=cpu)):
          %six : int = prim::Constant[value=4]()
          %false : bool = prim::Constant[value=0]()
          %none : NoneType = prim::Constant()
          %l : Tensor = aten::to(%a, %six, %false, %false, %none)
          %e : Tensor = aten::eq(%l, %l)
          return (%l, %e)
        """
    )
    assert t["l"] == "Long(*, requires_grad=0, device=cpu)"
    assert t["e"] == "Bool(*, requires_grad=0, device=cpu)"


def test_through_if_loop_and_tuples():
    t = types_after(
        """
        graph(%a : Float(*, *, requires_grad=0, device=cpu), %c : bool, %n : int):
          %true : bool = prim::Constant[value=1]()
          %r : Tensor = prim::If(%c)
            block0():
              %x : Tensor = aten::relu(%a)
              -> (%x)
            block1():
              %y : Tensor = aten::tanh(%a)
              -> (%y)
          %l : Tensor = prim::Loop(%n, %true, %r)
            block0(%i : int, %h : Tensor):
              %h2 : Tensor = aten::mul(%h, %h)
              -> (%true, %h2)
          %t : (Tensor, Tensor) = prim::TupleConstruct(%l, %r)
          %u : Tensor, %w : Tensor = prim::TupleUnpack(%t)
          return (%u)
        """
    )
    assert t["r"] == "Float(*, *, requires_grad=0, device=cpu)"
    assert t["h"] == "Float(*, *, requires_grad=0, device=cpu)"
    assert t["l"] == "Float(*, *, requires_grad=0, device=cpu)"
    assert t["u"] == "Float(*, *, requires_grad=0, device=cpu)"


def test_loops_that_change_the_rank_fall_back_to_what_is_common():
    t = types_after(
        """
        graph(%a : Float(*, *, requires_grad=0, device=cpu), %n : int):
          %true : bool = prim::Constant[value=1]()
          %zero : int = prim::Constant[value=0]()
          %l : Tensor = prim::Loop(%n, %true, %a)
            block0(%i : int, %h : Tensor):
              %h2 : Tensor = aten::unsqueeze(%h, %zero)
              -> (%true, %h2)
          return (%l)
        """
    )
    assert t["l"] in (
        "Float(requires_grad=0, device=cpu)",
        "FloatTensor(requires_grad=0, device=cpu)",
    )


def test_nothing_known_nothing_changed():
    g = parse("graph(%a : Tensor):\n  %b : Tensor = aten::relu(%a)\n  return (%b)\n")
    assert not ts_passes.propagate_shapes(g)


@pytest.mark.parametrize("dtype", [ScalarType.Float, ScalarType.Double, ScalarType.Long])
def test_erase_shape_information(dtype):
    g = parse("graph(%a : Tensor):\n  %b : Tensor = aten::relu(%a)\n  return (%b)\n")
    g.inputs[0].set_type(TensorType(dtype, Device("cpu"), False, (2,)))
    assert ts_passes.propagate_shapes(g)
    assert ts_passes.erase_shape_information(g)
    assert all(v.type == TensorType.get() for v in values(g).values())
