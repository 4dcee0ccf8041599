"""FileCheck tests for every transform: IR in, pass, checks on IR out, round trips throughout."""

from __future__ import annotations

import ts_passes
from passes_helpers import parse, round_trip, values
from ts_ir import FileCheck, FloatType, FunctionType, Graph, IntType, TensorType


def run(text: str, fn, *args, expect_change: bool = True, **kwargs) -> Graph:
    g = parse(text)
    round_trip(g)
    changed = fn(g, *args, **kwargs)
    g.lint()
    round_trip(g)
    assert changed is expect_change, f"{fn.__name__} returned {changed}"
    return g


# -- constant propagation


def test_constant_propagation_folds_through_registry_implementations():
    from ts_schema import registry

    op = registry.get("aten::add.int")
    saved = (op.impl, op.factory)
    op.impl, op.factory = (lambda a, b: a + b), None
    try:
        g = run(
            """
            graph(%x : int):
              %a : int = prim::Constant[value=2]()
              %b : int = prim::Constant[value=3]()
              %c : int = aten::add(%a, %b)
              %d : int = aten::add(%c, %x)
              %l : int[] = prim::ListConstruct(%a, %c)
              %t : (int, int) = prim::TupleConstruct(%a, %b)
              %u : int, %v : int = prim::TupleUnpack(%t)
              %r : (int, int[], int, int) = prim::TupleConstruct(%d, %l, %u, %v)
              return (%r)
            """,
            ts_passes.constant_propagation,
        )
    finally:
        op.impl, op.factory = saved
    FileCheck().check("prim::Constant[value=5]").check("aten::add(%").check(
        "int[] = prim::Constant[value=[2, 5]]()"
    ).check_not("prim::TupleUnpack").run(g)


# -- batch mm


TREE = """
graph(%a : Tensor, %b : Tensor, %c : Tensor, %d : Tensor):
  %one : int = prim::Constant[value=1]()
  %m1 : Tensor = aten::mm(%a, %b)
  %m2 : Tensor = aten::mm(%c, %d)
  %m3 : Tensor = aten::mm(%a, %d)
  %m4 : Tensor = aten::mm(%c, %b)
  %s1 : Tensor = aten::add(%m1, %m2, %one)
  %s2 : Tensor = aten::add(%m3, %m4, %one)
  %s : Tensor = aten::add(%s1, %s2, %one)
  return (%s)
"""


def test_batch_mm_tree_reduce():
    g = run(TREE, ts_passes.batch_mm, require_implementation=False)
    FileCheck().check("prim::MMTreeReduce(%c, %a, %c, %a, %b, %d, %d, %b)").check_not(
        "aten::mm"
    ).run(g)


def test_batch_mm_needs_an_implementation_by_default():
    # ts-runtime implements prim::MMTreeReduce; with it imported (a shared test process),
    # the default rewrites, and without it it must not
    from ts_schema import registry

    implemented = any(op.has_implementation for op in registry.lookup("prim::MMTreeReduce"))
    run(TREE, ts_passes.batch_mm, expect_change=implemented)


def test_batch_mm_side():
    mms = "\n".join(f"  %m{k} : Tensor = aten::mm(%w, %x{k})" for k in range(8))
    ins = ", ".join(f"%x{k} : Tensor" for k in range(8))
    outs = ", ".join(f"%m{k}" for k in range(8))
    g = run(
        f"graph(%w : Tensor, {ins}):\n{mms}\n  return ({outs})\n",
        ts_passes.batch_mm,
        require_implementation=False,
    )
    FileCheck().check("prim::MMBatchSide[side=0](%w, %x0").check_not("aten::mm").run(g)


# -- inlining


def test_inline_calls_with_a_known_callee_graph():
    callee = parse(
        """
        graph(%a : Tensor, %b : Tensor):
          %c : Tensor = aten::mul(%a, %b)
          return (%c)
        """
    )

    class Fn:
        graph = callee

    g = parse(
        """
        graph(%x : Tensor):
          %f : Function = prim::Constant[name="helper"]()
          %y : Tensor = prim::CallFunction(%f, %x, %x)
          return (%y)
        """
    )
    values(g)["f"].set_type(FunctionType(Fn(), "helper"))
    assert ts_passes.inline_calls(g)
    g.lint()
    FileCheck().check("aten::mul(%x, %x)").check_not("prim::CallFunction").run(g)


def test_inline_calls_through_a_resolver_and_unknown_callees_stay():
    callee = parse("graph(%a : Tensor):\n  %c : Tensor = aten::relu(%a)\n  return (%c)\n")
    text = """
    graph(%x : Tensor):
      %f : Function = prim::Constant[name="helper"]()
      %y : Tensor = prim::CallFunction(%f, %x)
      return (%y)
    """
    g = parse(text)
    assert not ts_passes.inline_calls(g)
    assert ts_passes.inline_calls(g, resolver=lambda name: callee if name == "helper" else None)
    round_trip(g)
    FileCheck().check("aten::relu(%x)").check_not("prim::CallFunction").run(g)


# -- canonicalize


def test_canonicalize_can_keep_names():
    g = parse("graph(%x : Tensor):\n  %y : Tensor = aten::relu(%x)\n  return (%y)\n")
    ts_passes.canonicalize(g, keep_unique_names=True)
    FileCheck().check("%y : Tensor = aten::relu(%x)").run(g)


# -- shape propagation feeding the others


def test_types_of_scalar_inputs_are_kept():
    g = parse("graph(%x : int, %y : float):\n  %z : float = aten::mul(%x, %y)\n  return (%z)\n")
    assert not ts_passes.propagate_shapes(g)
    assert values(g)["z"].type == FloatType.get()
    assert values(g)["x"].type == IntType.get()
    assert not isinstance(values(g)["z"].type, TensorType)
