"""The Python the interpreter writes for scalar control flow: lean, and still exact.

Three rewrites keep integer loops close to hand-written Python: scalars are
never `del`eted (freeing them frees nothing), a branch's result is computed
straight into the `prim::If` output register, and an inlined scalar
expression used only by the next node is written into that node. Each test
runs the program too, so a rewrite that changed what it computes fails.
"""

from __future__ import annotations

import ts_ir
import ts_runtime
from ts_runtime.interpreter.code import Code

COLLATZ_STEPS = """
graph(%x.0 : int):
  %true : bool = prim::Constant[value=1]()
  %max : int = prim::Constant[value=9223372036854775807]()
  %zero : int = prim::Constant[value=0]()
  %one : int = prim::Constant[value=1]()
  %two : int = prim::Constant[value=2]()
  %three : int = prim::Constant[value=3]()
  %go : bool = aten::ne(%x.0, %one)
  %steps : int, %x.end : int = prim::Loop(%max, %go, %zero, %x.0)
    block0(%i : int, %s : int, %x : int):
      %rem : int = aten::remainder(%x, %two)
      %even : bool = aten::eq(%rem, %zero)
      %next : int = prim::If(%even)
        block0():
          %half : int = aten::floordiv(%x, %two)
          -> (%half)
        block1():
          %triple : int = aten::mul(%three, %x)
          %odd : int = aten::add(%triple, %one)
          -> (%odd)
      %s.1 : int = aten::add(%s, %one)
      %more : bool = aten::ne(%next, %one)
      -> (%more, %s.1, %next)
  return (%steps)
"""


def python_steps(x: int) -> int:
    steps = 0
    while x != 1:
        x = x // 2 if x % 2 == 0 else 3 * x + 1
        steps += 1
    return steps


def test_scalar_loop_runs_and_its_source_is_lean():
    fn = ts_runtime.Function("steps", ts_ir.parse_ir(COLLATZ_STEPS), optimize=False)
    for x in (1, 2, 3, 7, 27, 97):
        assert fn(x) == python_steps(x)
    source = fn.code_for(27).python_source
    assert "del " not in source  # every register holds a scalar
    # the branch results are written into the If's register: no copy after either branch
    branch_lines = [line.strip() for line in source.splitlines()]
    if_out = next(line.split(" = ")[0] for line in branch_lines if "// " in line)
    assert sum(line.startswith(f"{if_out} = ") for line in branch_lines) == 2
    # `remainder` and `eq` are written into the `if` that uses them
    assert any(line.startswith("if ((") and "%" in line for line in branch_lines)


def test_listing_still_shows_every_operation():
    code = Code(ts_ir.parse_ir(COLLATZ_STEPS), grad_enabled=False)
    listing = str(code)
    for op in ("remainder", "eq", "floordiv", "mul", "add", "ne", "JF", "LOOP"):
        assert op in listing, op


CONDITION_READS_OLD_VALUE = """
graph(%n : int):
  %max : int = prim::Constant[value=9223372036854775807]()
  %true : bool = prim::Constant[value=1]()
  %one : int = prim::Constant[value=1]()
  %x.end : int = prim::Loop(%max, %true, %n)
    block0(%i : int, %x : int):
      %y : int = aten::sub(%x, %one)
      %again : bool = aten::gt(%x, %one)
      -> (%again, %y)
  return (%x.end)
"""


def test_forwarded_loop_condition_reads_the_values_of_this_iteration():
    # `x > 1` is written into the loop's condition; it must see this iteration's
    # x, not the value the carried-register update assigns next.
    fn = ts_runtime.Function("down", ts_ir.parse_ir(CONDITION_READS_OLD_VALUE), optimize=False)
    for n in (1, 2, 5, 10):
        x = n
        while True:
            y, again = x - 1, x > 1
            x = y
            if not again:
                break
        assert fn(n) == x == 0


TENSOR_BRANCH = """
graph(%a : Tensor, %flag : bool):
  %one : int = prim::Constant[value=1]()
  %r : Tensor = prim::If(%flag)
    block0():
      %b : Tensor = aten::add(%a, %a, %one)
      -> (%b)
    block1():
      -> (%a)
  %c : Tensor = aten::mul(%r, %a)
  return (%c)
"""


def test_tensor_results_of_branches_and_their_inputs_are_still_freed():
    fn = ts_runtime.Function("f", ts_ir.parse_ir(TENSOR_BRANCH), optimize=False)
    a = ts_runtime.tensor([1.0, 2.0])
    assert fn(a, True).tolist() == [2.0, 8.0]
    assert fn(a, False).tolist() == [1.0, 4.0]
    source = fn.code_for(a, True).python_source
    assert "del " in source  # tensors die where their last use is
