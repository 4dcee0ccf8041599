"""Constant pooling cases: PyTorch's test/cpp/jit/test_constant_pooling.cpp (all four
tests), as IR graphs with the passes and FileCheck statements of the tests (steps as in
`scripted.py`)."""

from __future__ import annotations

from scripted import Case


def _case(name: str, ir: str, *steps: tuple) -> Case:
    return Case(name, "", "", tuple(steps), origin="ConstantPoolingTest", ir=ir)


POOL = ("pass", "constant_pooling")
CONSTPROP = ("pass", "constant_propagation")

CASES: list[Case] = [
    _case(
        "Int",
        """graph():
  %8 : int = prim::Constant[value=1]()
  %10 : int = prim::Constant[value=1]()
  return (%8, %10)
""",
        POOL,
        ("check", 'FileCheck().check_count("prim::Constant", 1, exactly=True).run(graph)'),
    ),
    _case(
        "PoolingAcrossBlocks",
        """graph(%cond : Tensor):
  %a : str = prim::Constant[value="bcd"]()
  %3 : bool = aten::Bool(%cond)
  %b : str = prim::If(%3)
    block0():
      %b.1 : str = prim::Constant[value="abc"]()
      -> (%b.1)
    block1():
      %b.2 : str = prim::Constant[value="abc"]()
      -> (%b.2)
  %7 : (str, str) = prim::TupleConstruct(%a, %b)
  return (%7)
""",
        POOL,
        (
            "check",
            "FileCheck().check_count('prim::Constant[value=\"abc\"]', 1, exactly=True)"
            ".check_count('prim::Constant[value=\"bcd\"]', 1, exactly=True).run(graph)",
        ),
    ),
    _case(
        "PoolingDifferentDevices",
        """graph():
  %2 : int = prim::Constant[value=2]()
  %1 : int = prim::Constant[value=1]()
  %5 : int? = prim::Constant()
  %7 : Device? = prim::Constant()
  %15: bool = prim::Constant[value=0]()
  %10 : int = prim::Constant[value=6]()
  %3 : int[] = prim::ListConstruct(%1, %2)
  %x : Tensor = aten::tensor(%3, %5, %7, %15)
  %y : Tensor = aten::tensor(%3, %10, %7, %15)
  %9 : int[] = prim::ListConstruct(%1, %2)
  %z : Tensor = aten::tensor(%9, %10, %7, %15)
   = prim::Print(%x, %y, %z)
  return (%1)
""",
        CONSTPROP,
        POOL,
        (
            "check",
            'FileCheck().check_count("Float(2, strides=[1], requires_grad=0, device=cpu) = '
            'prim::Constant", 1, exactly=True).check_count("Long(2, strides=[1], '
            'requires_grad=0, device=cpu) = prim::Constant", 1, exactly=True).run(graph)',
        ),
    ),
    _case(
        "DictConstantPooling",
        """graph():
  %0 : int = prim::Constant[value=1]()
  %1 : int = prim::Constant[value=2]()
  %a.1 : Dict(int, int) = prim::DictConstruct(%0, %1)
  %b.1 : Dict(int, int) = prim::DictConstruct(%1, %1)
  return (%a.1, %b.1)
""",
        CONSTPROP,
        POOL,
        (
            "check",
            'FileCheck().check_count("Dict(int, int) = prim::Constant", 2, exactly=True).run(graph)',
        ),
    ),
]
