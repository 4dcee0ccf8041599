"""Plans specialized to what a graph reads from its module (`attribute_guard`).

Tensor attributes give their dtype and rank to the plan, settings (bools,
numbers, strings, tuples of them) become constants; a call whose attributes
differ compiles a new plan; attributes the graph writes, and graphs that call
other code, are not specialized.
"""

from __future__ import annotations

import numpy as np
import ts_ir
import ts_runtime
from ts_ir import BoolType, ClassType, FloatType, IntType, TensorType, TupleType
from ts_runtime import Function, ScriptModule

SCALED = """
graph(%self : __torch__.Scaled, %x : Tensor):
  %w : Tensor = prim::GetAttr[name="weight"](%self)
  %training : bool = prim::GetAttr[name="training"](%self)
  %scale : float = prim::GetAttr[name="scale"](%self)
  %y : Tensor = aten::mul(%x, %w)
  %r : Tensor = prim::If(%training)
    block0():
      %z : Tensor = aten::mul(%y, %scale)
      -> (%z)
    block1():
      -> (%y)
  return (%r)
"""


def scaled_module(weight, *, training=True, scale=2.0) -> ScriptModule:
    cls = ClassType("__torch__.Scaled", is_module=True)
    cls.add_attribute("weight", TensorType.get(), is_parameter=True)
    cls.add_attribute("training", BoolType.get())
    cls.add_attribute("scale", FloatType.get())
    cls.methods["forward"] = Function("forward", ts_ir.parse_ir(SCALED))
    attributes = {"weight": weight, "training": training, "scale": scale}
    return ScriptModule(cls, attributes, parameters={"weight"})


def t(values, dtype=None, requires_grad=False):
    return ts_runtime.tensor(values, dtype=dtype, requires_grad=requires_grad)


def kinds(graph: ts_ir.Graph) -> list[str]:
    return [str(n.kind) for n in graph.all_nodes()]


def test_parameters_give_their_types_and_settings_become_constants():
    m = scaled_module(t([1.0, 2.0]))
    x = t([3.0, 4.0])
    with ts_runtime.no_grad(), ts_runtime.fuser("none"):
        np.testing.assert_array_equal(m(x).numpy(), [6.0, 16.0])
        graph = m.forward.graph_for(x)
    assert "prim::If" not in kinds(graph)  # `training` folded
    (weight,) = [n.output() for n in graph.all_nodes() if n.kind == "prim::GetAttr"]
    assert str(weight.type) == "Float(*, requires_grad=0, device=cpu)"
    products = [n for n in graph.all_nodes() if n.kind == "aten::mul"]
    assert len(products) == 2
    assert all(str(n.output().type).startswith("Float(*,") for n in products)


def test_changed_attributes_compile_a_new_plan():
    m = scaled_module(t([1.0, 2.0]))
    x = t([3.0, 4.0])
    with ts_runtime.no_grad():
        m(x)
        executor = m.forward.function.executor
        assert executor.compiles == 1
        m(x)
        assert executor.compiles == 1
        m.training = False
        np.testing.assert_array_equal(m(x).numpy(), [3.0, 8.0])
        m.scale = 3.0  # not read when not training, but part of the key
        m(x)
        m.training = True
        np.testing.assert_array_equal(m(x).numpy(), [9.0, 24.0])
        m.weight = t([1.0, 2.0], dtype=ts_runtime.float64)
        out = m(x)
        assert out.dtype == ts_runtime.float64
        np.testing.assert_array_equal(out.numpy(), [9.0, 24.0])
        reasons = [p.reason for p in executor.debug_state()]
    assert reasons[1:] == ["new argument spec: attributes read changed"] * 4


def test_parameters_that_need_no_grad_compile_without_autograd():
    calls: list[dict] = []

    def optimizer(graph, **flags):
        calls.append(flags)

    m = scaled_module(t([1.0, 2.0]))
    m._type.methods["forward"] = Function("forward", ts_ir.parse_ir(SCALED), optimizer=optimizer)
    m(t([1.0, 1.0]))
    m.weight = t([1.0, 2.0], requires_grad=True)
    m(t([1.0, 1.0]))
    assert calls == [
        {"requires_grad": False, "grad_enabled": True},
        {"requires_grad": True, "grad_enabled": True},
    ]


COUNTER = """
graph(%self : __torch__.Counter, %x : Tensor):
  %n : int = prim::GetAttr[name="count"](%self)
  %one : int = prim::Constant[value=1]()
  %m : int = aten::add(%n, %one)
  = prim::SetAttr[name="count"](%self, %m)
  %k : int = prim::GetAttr[name="count"](%self)
  %stride : (int, int) = prim::GetAttr[name="stride"](%self)
  %s : int = prim::TupleIndex(%stride, %one)
  %ks : int = aten::mul(%k, %s)
  %r : Tensor = aten::mul(%x, %ks)
  return (%r)
"""


def test_attributes_the_graph_writes_are_read_at_run_time():
    cls = ClassType("__torch__.Counter", is_module=True)
    cls.add_attribute("count", IntType.get())
    cls.add_attribute("stride", TupleType([IntType.get(), IntType.get()]))
    cls.methods["forward"] = Function("forward", ts_ir.parse_ir(COUNTER))
    m = ScriptModule(cls, {"count": 0, "stride": (1, 5)})
    x = t([1.0])
    assert [m(x).numpy()[0] for _ in range(3)] == [5.0, 10.0, 15.0]
    graph = m.forward.graph_for(x)
    reads = [n.s("name") for n in graph.all_nodes() if n.kind == "prim::GetAttr"]
    # the written attribute is read from the module (a store may forward to a later load);
    # the tuple nothing writes is specialized to a constant
    assert "count" in reads and "stride" not in reads
    assert m.forward.function.executor.compiles == 1


def test_settings_that_keep_changing_stop_being_specialized():
    from ts_runtime.attribute_guard import MAX_VALUE_PLANS

    m = scaled_module(t([1.0, 2.0]))
    x = t([1.0, 1.0])
    with ts_runtime.no_grad():
        for step in range(3 * MAX_VALUE_PLANS):
            m.scale = float(step)
            np.testing.assert_array_equal(m(x).numpy(), [step, 2.0 * step])
        executor = m.forward.function.executor
    # one plan per value until the limit, then one reading the settings at run time
    assert executor.compiles == MAX_VALUE_PLANS + 2
