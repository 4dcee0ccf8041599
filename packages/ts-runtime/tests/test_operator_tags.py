"""The runtime asks an operator's tags, never a list of names: an operator registered
elsewhere with a tag gets the behaviour the tag drives, and the same operator untagged
does not.

    Tag.calls        attribute_guard.attribute_reads, executor._may_create_grad
    Tag.type_check   fusion.checked_specs
    Tag.to_cuda      the interpreter's device check, device dispatch
"""

from __future__ import annotations

import ts_ir
from ts_ir import Device
from ts_runtime.attribute_guard import attribute_reads
from ts_runtime.executor import _may_create_grad
from ts_runtime.fusion import checked_specs
from ts_runtime.interpreter.code import _names_a_device
from ts_runtime.ops.dispatch import _DevicePlan
from ts_schema import Tag, registry


def _identity(x):
    return x


for _name, _tags in (
    ("hook", {Tag.calls}),
    ("check", {Tag.type_check}),
    ("to_accel", {Tag.to_cuda}),
    ("plain", set()),
):
    registry.register(f"tagtest_rt::{_name}(Tensor x) -> Tensor", _identity, tags=_tags)


def _graph(op: str) -> ts_ir.Graph:
    return ts_ir.parse_ir(
        f"""
graph(%self : __torch__.TagTest, %x : Tensor):
  %w : Tensor = prim::GetAttr[name="weight"](%self)
  %y : Tensor = tagtest_rt::{op}(%x)
  %z : Tensor = aten::mul(%y, %w)
  return (%z)
"""
    )


def test_a_node_tagged_calls_stops_attribute_specialization():
    plain = attribute_reads(_graph("plain"))
    assert plain is not None and [p.dotted for p in plain.values()] == ["weight"]
    # the callee could write the module's attributes: nothing is specialized
    assert attribute_reads(_graph("hook")) is None


def test_a_node_tagged_calls_may_create_tensors_that_require_grad():
    def graph(op: str) -> ts_ir.Graph:
        return ts_ir.parse_ir(
            f"graph(%x : Tensor):\n  %y : Tensor = tagtest_rt::{op}(%x)\n  return (%y)"
        )

    assert not _may_create_grad(graph("plain"))
    assert _may_create_grad(graph("hook"))


CHECKED = """
graph(%x : Tensor):
  %c : Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu) = tagtest_rt::{op}(%x)
  %r : Tensor = aten::relu(%c)
  return (%r)
"""


def _relu_of(op: str) -> ts_ir.Node:
    g = ts_ir.parse_ir(CHECKED.replace("{op}", op))
    return next(n for n in g.nodes() if n.kind == "aten::relu")


def test_values_from_a_node_tagged_type_check_need_no_per_call_key():
    specs = checked_specs(_relu_of("check"))
    assert specs is not None and [str(t) for t in specs] == [
        "Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu)"
    ]
    # the same complete type from an unchecked node proves nothing at run time
    assert checked_specs(_relu_of("plain")) is None


def test_a_node_tagged_to_cuda_makes_the_graph_name_a_device():
    g = ts_ir.parse_ir(CHECKED.replace("{op}", "to_accel"))
    assert _names_a_device(g)
    assert not _names_a_device(ts_ir.parse_ir(CHECKED.replace("{op}", "plain")))
    assert _names_a_device(
        ts_ir.parse_ir("graph(%x : Tensor):\n  %y : Tensor = aten::cuda(%x)\n  return (%y)")
    )


def test_dispatch_runs_an_operator_tagged_to_cuda_on_the_cuda_device():
    assert _DevicePlan(registry.get("tagtest_rt::to_accel")).named == Device("cuda")
    assert _DevicePlan(registry.get("tagtest_rt::plain")).named is None
    assert _DevicePlan(registry.get("aten::cuda")).named == Device("cuda")
