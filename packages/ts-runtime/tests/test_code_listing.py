"""The interpreter's instruction listing (`str(Code)`) and what the listed programs compute.

Covers constants (one CONST per constant, values kept in the constant table
and out of the generated source), `move(%r)` on last uses, `DROP`s for values
whose last use is in one branch of a `prim::If` or inside a loop body, the
targets of `JF`/`JMP`/`LOOP`, for-loops and while-loops, `CallFunction` into
another function of a compilation unit, `prim::RaiseException` raising the
original exception class, and nested control flow computing the same answers
as plain Python.
"""

from __future__ import annotations

import numpy as np
import pytest
import ts_ir
import ts_runtime
from ts_runtime import CompilationUnit
from ts_runtime.interpreter.code import Code, CodeError
from ts_runtime.interpreter.exceptions import ScriptError, register_exception_class


def code_of(ir: str) -> Code:
    return Code(ts_ir.parse_ir(ir))


def function(ir: str, *, optimize: bool = False) -> ts_runtime.Function:
    return ts_runtime.Function("f", ts_ir.parse_ir(ir), optimize=optimize)


def listing(code: Code) -> list[str]:
    """The instructions of `str(code)`, checking that they are numbered 0, 1, 2, ..."""
    lines = str(code).splitlines()
    rows = []
    for i, line in enumerate(lines):
        number, text = line.split(None, 1)
        assert int(number) == i, line
        rows.append(text)
    return rows


def moved_registers(code: Code) -> set[int]:
    """Registers some instruction marks as dying (`move(%r)` or a DROP)."""
    return {
        r
        for ins in code.instructions
        for r, moved in zip(ins.inputs, ins.moves, strict=False)
        if moved
    }


def array(t: ts_runtime.Tensor) -> np.ndarray:
    return t.numpy()


# ---------------------------------------------------------------------------
# straight-line code, constants, moves

MATMUL = """
graph(%a : Tensor, %b : Tensor):
  %one : int = prim::Constant[value=1]()
  %t : Tensor = aten::t(%b)
  %m : Tensor = aten::mm(%a, %t)
  %s : Tensor = aten::add(%m, %a, %one)
  return (%s)
"""


def test_straight_line_listing_moves_each_register_at_its_last_use():
    code = code_of(MATMUL)
    assert listing(code) == [
        "%2 = Constant 1",
        "%3 = t move(%1)",  # %b dies here
        "%4 = mm %0, move(%3)",  # %a is still used by the add
        "%5 = add move(%4), move(%0), %2",  # constants are never moved
        "RET %5",
    ]
    assert code.num_registers == 6
    a = np.array([[1.0, 2.0], [3.0, 4.0]], dtype=np.float32)
    b = np.array([[0.5, -1.0], [2.0, 0.0]], dtype=np.float32)
    out = code(ts_runtime.tensor(a), ts_runtime.tensor(b))
    np.testing.assert_allclose(array(out), a @ b.T + a)


def test_a_value_used_twice_by_one_node_moves_at_the_last_slot():
    code = code_of(
        """
graph(%a : Tensor):
  %r : Tensor = aten::mul(%a, %a)
  return (%r)
"""
    )
    assert listing(code) == ["%1 = mul %0, move(%0)", "RET %1"]
    np.testing.assert_array_equal(array(code(ts_runtime.tensor([3.0, -2.0]))), [9.0, 4.0])


def test_an_unused_result_is_dropped_right_after_its_node():
    code = code_of(
        """
graph(%a : Tensor):
  %unused : Tensor = aten::neg(%a)
  %r : Tensor = aten::relu(%a)
  return (%r)
"""
    )
    assert listing(code) == ["%1 = neg %0", "DROP move(%1)", "%2 = relu move(%0)", "RET %2"]
    assert "del r1" in code.python_source
    np.testing.assert_array_equal(array(code(ts_runtime.tensor([-1.0, 2.0]))), [0.0, 2.0])


CONSTANTS_IN_A_LOOP = """
graph(%n : int, %a : Tensor):
  %true : bool = prim::Constant[value=1]()
  %r : Tensor = prim::Loop(%n, %true, %a)
    block0(%i : int, %acc : Tensor):
      %s : str = prim::Constant[value="a-secret-string"]()
      %k : float = prim::Constant[value=0.5]()
      %x : Tensor = aten::mul(%acc, %k)
      %l : int = aten::len(%s)
      %y : Tensor = aten::add(%x, %l, %k)
      -> (%true, %y)
  return (%r)
"""


def python_constants_in_a_loop(n: int, a: float) -> float:
    for _ in range(n):
        a = a * 0.5 + len("a-secret-string") * 0.5
    return a


def test_constants_are_listed_once_and_kept_out_of_the_generated_source():
    code = code_of(CONSTANTS_IN_A_LOOP)
    rows = listing(code)
    assert code.constants == [True, "a-secret-string", 0.5]
    assert [r for r in rows if " = Constant " in r] == [
        "%2 = Constant True",
        "%5 = Constant 'a-secret-string'",
        "%6 = Constant 0.5",
    ]
    # %k is read twice but has one CONST; both reads name its register
    assert rows.count("%6 = Constant 0.5") == 1
    assert "%9 = add move(%7), move(%8), %6" in rows
    # constants reach the generated function as closure cells, never as text
    assert "a-secret-string" not in code.python_source
    assert "0.5" not in code.python_source
    for n in (0, 1, 4):
        out = code(n, ts_runtime.tensor([2.0]))
        np.testing.assert_allclose(array(out), [python_constants_in_a_loop(n, 2.0)])


def test_the_executor_hoists_loop_constants_ahead_of_the_loops():
    fn = function(CONSTANTS_IN_A_LOOP, optimize=True)
    x = ts_runtime.tensor([2.0])
    rows = listing(fn.code_for(3, x))
    first_loop = next(i for i, r in enumerate(rows) if r.startswith("LOOP"))
    constants = [i for i, r in enumerate(rows) if " = Constant " in r]
    assert constants and max(constants) < first_loop
    np.testing.assert_allclose(array(fn(3, x)), [python_constants_in_a_loop(3, 2.0)])


# ---------------------------------------------------------------------------
# prim::If

BRANCH = """
graph(%c : bool, %a : Tensor, %b : Tensor):
  %one : int = prim::Constant[value=1]()
  %r : Tensor = prim::If(%c)
    block0():
      %x : Tensor = aten::mul(%a, %b)
      -> (%x)
    block1():
      %y : Tensor = aten::neg(%a)
      -> (%y)
  %z : Tensor = aten::add(%r, %a, %one)
  return (%z)
"""


def test_if_listing_jumps_and_drops_on_entry_to_the_other_branch():
    code = code_of(BRANCH)
    assert listing(code) == [
        "%3 = Constant 1",
        "JF 4 move(%0)",  # false: to the else branch
        "%4 = mul %1, move(%2)",  # %b dies in the then branch...
        "JMP 6",  # then branch done: past the else branch
        "DROP move(%2)",  # ...and is dropped on entry to the else branch
        "%4 = neg %1",  # both branches write the If's register
        "%5 = add move(%4), move(%1), %3",
        "RET %5",
    ]
    a, b = np.array([1.0, -2.0], np.float32), np.array([3.0, 5.0], np.float32)
    ta, tb = ts_runtime.tensor(a), ts_runtime.tensor(b)
    np.testing.assert_array_equal(array(code(True, ta, tb)), a * b + a)
    np.testing.assert_array_equal(array(code(False, ta, tb)), -a + a)


def test_jump_targets_are_the_else_branch_and_the_instruction_after_the_if():
    code = code_of(BRANCH)
    jf = next(i for i, ins in enumerate(code.instructions) if ins.opcode == "JF")
    jmp = next(i for i, ins in enumerate(code.instructions) if ins.opcode == "JMP")
    assert code.instructions[jf].target == jmp + 1  # the else branch starts after the JMP
    assert str(code.instructions[code.instructions[jmp].target]).startswith("%5 = add")


def test_a_condition_also_read_in_a_branch_is_dropped_after_the_if():
    code = code_of(
        """
graph(%c : bool, %a : Tensor):
  %r : Tensor = prim::If(%c)
    block0():
      %x : Tensor = aten::mul(%a, %c)
      -> (%x)
    block1():
      %y : Tensor = aten::neg(%a)
      -> (%y)
  return (%r)
"""
    )
    assert listing(code) == [
        "JF 3 %0",  # not moved: the then branch still reads it
        "%2 = mul move(%1), %0",
        "JMP 4",
        "%2 = neg move(%1)",
        "DROP move(%0)",
        "RET %2",
    ]
    a = ts_runtime.tensor([2.0, -3.0])
    np.testing.assert_array_equal(array(code(True, a)), [2.0, -3.0])
    np.testing.assert_array_equal(array(code(False, a)), [-2.0, 3.0])


def test_an_else_branch_that_only_copies_its_result():
    code = code_of(
        """
graph(%x : int):
  %zero : int = prim::Constant[value=0]()
  %pos : bool = aten::gt(%x, %zero)
  %r : int = prim::If(%pos)
    block0():
      %n : int = aten::neg(%x)
      -> (%n)
    block1():
      -> (%x)
  return (%r)
"""
    )
    rows = listing(code)
    jf = rows.index("JF 5 move(%2)")
    jmp = rows.index("JMP 6")
    assert rows[jf + 1] == "%3 = neg move(%0)"  # the then branch computes into the result
    assert rows[jmp + 1] == "%3 = MOVE %0"  # the else branch only copies %x into the result
    assert code.instructions[jf].target == jmp + 1
    assert rows[code.instructions[jmp].target] == "RET %3"
    assert [code(v) for v in (-4, 0, 5)] == [-4, 0, -5]


# ---------------------------------------------------------------------------
# prim::Loop

FOR_LOOP = """
graph(%n : int, %a : Tensor, %b : Tensor):
  %true : bool = prim::Constant[value=1]()
  %one : int = prim::Constant[value=1]()
  %r : Tensor = prim::Loop(%n, %true, %a)
    block0(%i : int, %acc : Tensor):
      %x : Tensor = aten::add(%acc, %b, %one)
      -> (%true, %x)
  return (%r)
"""


def test_for_loop_listing_and_a_value_last_used_in_the_body_dropped_after_it():
    code = code_of(FOR_LOOP)
    assert listing(code) == [
        "%3 = Constant True",
        "%4 = Constant 1",
        "%5 = MOVE move(%1)",  # the carried value starts as %a, which dies there
        "LOOP 8 move(%0), %3",  # trip count %n (dies), condition True; exit to 8
        "DROP move(%6)",  # the unused iteration number
        "%7 = add move(%5), %2, %4",  # %b is read on every iteration: never moved inside
        "%5 = MOVE %7",
        "JMP 3",  # back to the LOOP
        "%8 = MOVE %5",
        "DROP move(%2)",  # %b dies after the loop
        "RET %8",
    ]
    assert "for r6 in range(r0):" in code.python_source  # a counted loop is a Python for
    a, b = np.array([1.0, 2.0], np.float32), np.array([0.5, -1.0], np.float32)
    for n in (0, 1, 3):
        out = code(n, ts_runtime.tensor(a), ts_runtime.tensor(b))
        np.testing.assert_allclose(array(out), a + n * b)


WHILE_LOOP = """
graph(%x0 : int, %limit : int):
  %max : int = prim::Constant[value=9223372036854775807]()
  %one : int = prim::Constant[value=1]()
  %go : bool = aten::lt(%x0, %limit)
  %r : int = prim::Loop(%max, %go, %x0)
    block0(%i : int, %x : int):
      %y : int = aten::add(%x, %one)
      %more : bool = aten::lt(%y, %limit)
      -> (%more, %y)
  return (%r)
"""


def test_while_loop_listing_loops_on_the_condition():
    code = code_of(WHILE_LOOP)
    assert listing(code) == [
        "%2 = Constant 9223372036854775807",
        "%3 = Constant 1",
        "%4 = lt %0, %1",
        "%5 = MOVE move(%0)",
        "LOOP 10 %2, move(%4)",  # trip count "forever", the condition computed before the loop
        "DROP move(%6)",  # the unused iteration number
        "%7 = add move(%5), %3",
        "%8 = lt %7, %1",
        "%5 = MOVE %7",
        "JMP 4",
        "%9 = MOVE %5",
        "DROP move(%1)",  # %limit is read in the body: it dies after the loop
        "RET %9",
    ]
    # an endless trip count with an unused iteration number needs no counter at all
    assert "while _c0:" in code.python_source and "range(" not in code.python_source

    def python(x: int, limit: int) -> int:
        while x < limit:
            x += 1
        return x

    for x, limit in ((3, 10), (12, 10), (10, 10), (-5, 0)):
        assert code(x, limit) == python(x, limit)


BOUNDED_WHILE = """
graph(%n : int, %limit : int):
  %zero : int = prim::Constant[value=0]()
  %true : bool = prim::Constant[value=1]()
  %r : int = prim::Loop(%n, %true, %zero)
    block0(%i : int, %acc : int):
      %a : int = aten::add(%acc, %i)
      %go : bool = aten::lt(%a, %limit)
      -> (%go, %a)
  return (%r)
"""


def test_a_counted_loop_that_can_stop_early_keeps_both_tests():
    code = code_of(BOUNDED_WHILE)
    rows = listing(code)
    loop = rows.index("LOOP 8 move(%0), %3")
    assert rows[loop - 1] == "%4 = MOVE %2"
    assert rows[loop + 1] == "%6 = add move(%4), move(%5)"  # %5 is the iteration number
    assert rows[7] == f"JMP {loop}"
    assert "while _c0 and _i0 < r0:" in code.python_source

    def python(n: int, limit: int) -> int:
        acc = 0
        for i in range(n):
            acc += i
            if not acc < limit:
                break
        return acc

    for n, limit in ((10, 100), (10, 12), (0, 5), (5, 0)):
        assert code(n, limit) == python(n, limit)


def test_every_jump_lands_on_an_instruction_and_loops_jump_back_to_their_head():
    for ir in (MATMUL, BRANCH, FOR_LOOP, WHILE_LOOP, BOUNDED_WHILE, NESTED, SWAPS):
        instructions = code_of(ir).instructions
        assert instructions[-1].opcode == "RET"
        for i, ins in enumerate(instructions):
            if ins.opcode in ("JF", "JMP", "LOOP"):
                assert 0 <= ins.target < len(instructions), (ir, i)
            if ins.opcode == "LOOP":
                back = instructions[ins.target - 1]
                assert (back.opcode, back.target) == ("JMP", i), (ir, i)
            if ins.opcode == "JMP" and ins.target < i:
                assert instructions[ins.target].opcode == "LOOP", (ir, i)


# ---------------------------------------------------------------------------
# nested control flow

NESTED = """
graph(%n : int, %a : Tensor, %b : Tensor):
  %true : bool = prim::Constant[value=1]()
  %one : int = prim::Constant[value=1]()
  %two : int = prim::Constant[value=2]()
  %zero : int = prim::Constant[value=0]()
  %r : Tensor = prim::Loop(%n, %true, %a)
    block0(%i : int, %acc : Tensor):
      %m : int = aten::remainder(%i, %two)
      %even : bool = aten::eq(%m, %zero)
      %x : Tensor = prim::If(%even)
        block0():
          %p : Tensor = aten::add(%acc, %b, %one)
          -> (%p)
        block1():
          %q : Tensor = aten::mul(%acc, %b)
          -> (%q)
      -> (%true, %x)
  return (%r)
"""


def python_nested(n: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    for i in range(n):
        a = a + b if i % 2 == 0 else a * b
    return a


def test_if_inside_a_loop_listing():
    code = code_of(NESTED)
    assert listing(code) == [
        "%3 = Constant True",
        "%4 = Constant 1",
        "%5 = Constant 2",
        "%6 = Constant 0",
        "%7 = MOVE move(%1)",
        "LOOP 14 move(%0), %3",
        "%9 = remainder move(%8), %5",
        "%10 = eq move(%9), %6",
        "JF 11 move(%10)",
        "%11 = add move(%7), %2, %4",  # %b (%2) is used on every iteration: no move
        "JMP 12",
        "%11 = mul move(%7), %2",
        "%7 = MOVE %11",
        "JMP 5",
        "%12 = MOVE %7",
        "DROP move(%2)",
        "RET %12",
    ]


@pytest.mark.parametrize("optimize", [False, True], ids=["interpreted", "optimized"])
def test_if_inside_a_loop_computes_what_python_computes(optimize):
    fn = function(NESTED, optimize=optimize)
    a = np.array([1.0, -2.0, 0.5], np.float32)
    b = np.array([2.0, 3.0, -1.0], np.float32)
    for n in range(7):
        out = fn(n, ts_runtime.tensor(a), ts_runtime.tensor(b))
        np.testing.assert_allclose(array(out), python_nested(n, a, b), rtol=1e-6)


SWAPS = """
graph(%n : int):
  %true : bool = prim::Constant[value=1]()
  %zero : int = prim::Constant[value=0]()
  %one : int = prim::Constant[value=1]()
  %three : int = prim::Constant[value=3]()
  %a.end : int, %b.end : int = prim::Loop(%n, %true, %zero, %one)
    block0(%i : int, %a : int, %b : int):
      %m : int = aten::remainder(%i, %three)
      %swap : bool = aten::eq(%m, %zero)
      %a.next : int, %b.next : int = prim::If(%swap)
        block0():
          -> (%b, %a)
        block1():
          %s : int = aten::add(%a, %b)
          -> (%b, %s)
      -> (%true, %a.next, %b.next)
  %r : (int, int) = prim::TupleConstruct(%a.end, %b.end)
  return (%r)
"""


def python_swaps(n: int) -> tuple[int, int]:
    a, b = 0, 1
    for i in range(n):
        a, b = (b, a) if i % 3 == 0 else (b, a + b)
    return a, b


@pytest.mark.parametrize("optimize", [False, True], ids=["interpreted", "optimized"])
def test_branches_that_swap_loop_carried_values(optimize):
    fn = function(SWAPS, optimize=optimize)
    assert [fn(n) for n in range(15)] == [python_swaps(n) for n in range(15)]
    # the swap is one parallel copy, not two sequential ones
    assert "%10, %11 = MOVE %6, %5" in listing(code_of(SWAPS))


# ---------------------------------------------------------------------------
# calls

SQUARE = """
graph(%x : int):
  %r : int = aten::mul(%x, %x)
  return (%r)
"""

CALLS_SQUARE = """
graph(%n : int):
  %f : Function = prim::Constant[name="square"]()
  %one : int = prim::Constant[value=1]()
  %s : int = prim::CallFunction(%f, %n)
  %r : int = aten::add(%s, %one)
  return (%r)
"""


def test_call_function_listing_and_result():
    cu = CompilationUnit()
    cu.create_function("square", ts_ir.parse_ir(SQUARE), optimize=False)
    main = cu.create_function("main", ts_ir.parse_ir(CALLS_SQUARE), optimize=False)
    assert [main(n) for n in (-3, 0, 7)] == [10, 1, 50]
    code = main.code_for(7)
    assert listing(code) == [
        "%1 = Constant <function square>",
        "%2 = Constant 1",
        "%3 = CallFunction %1, move(%0)",
        "%4 = add move(%3), %2",
        "RET %4",
    ]


def test_calling_a_function_without_a_compilation_unit_names_it():
    code = code_of(CALLS_SQUARE)  # builds: function constants are resolved on first call
    with pytest.raises(CodeError, match=r"'square'.*no compilation unit"):
        code(3)


# ---------------------------------------------------------------------------
# prim::RaiseException

RAISES = """
graph(%x : int):
  %cls : str = prim::Constant[value="CLASS"]()
  %prefix : str = prim::Constant[value="too big: "]()
  %zero : int = prim::Constant[value=0]()
  %big : bool = aten::gt(%x, %zero)
   = prim::If(%big)
    block0():
      %s : str = aten::str(%x)
      %msg : str = aten::add(%prefix, %s)
       = prim::RaiseException(%msg, %cls)
      -> ()
    block1():
      -> ()
  return (%x)
"""


class QuotaError(Exception):
    """A user-defined exception class a program may raise once registered."""


register_exception_class("__torch__.test_code_listing.QuotaError", QuotaError)


@pytest.mark.parametrize(
    ("qualified", "cls"),
    [
        ("builtins.ValueError", ValueError),
        ("builtins.KeyError", KeyError),
        ("builtins.ZeroDivisionError", ZeroDivisionError),
        ("__torch__.test_code_listing.QuotaError", QuotaError),
    ],
)
@pytest.mark.parametrize("optimize", [False, True], ids=["interpreted", "optimized"])
def test_raise_exception_raises_the_original_class_with_its_message(qualified, cls, optimize):
    fn = function(RAISES.replace("CLASS", qualified), optimize=optimize)
    assert fn(-2) == -2  # the branch not taken raises nothing
    with pytest.raises(cls) as info:
        fn(7)
    assert type(info.value) is cls
    assert info.value.args == ("too big: 7",)


def test_an_unknown_exception_class_becomes_a_script_error_naming_it():
    fn = function(RAISES.replace("CLASS", "some.module.QuotaExceeded"))
    with pytest.raises(ScriptError) as info:
        fn(3)
    assert isinstance(info.value, RuntimeError)
    assert str(info.value) == "some.module.QuotaExceeded: too big: 3"


def test_an_assert_message_raises_assertion_error():
    fn = function(
        """
graph(%x : int):
  %msg : str = prim::Constant[value="AssertionError: x must be even"]()
  %none : NoneType = prim::Constant()
  %two : int = prim::Constant[value=2]()
  %zero : int = prim::Constant[value=0]()
  %m : int = aten::remainder(%x, %two)
  %ok : bool = aten::eq(%m, %zero)
   = prim::If(%ok)
    block0():
      -> ()
    block1():
       = prim::RaiseException(%msg, %none)
      -> ()
  return (%x)
"""
    )
    assert fn(4) == 4
    with pytest.raises(AssertionError) as info:
        fn(5)
    assert info.value.args == ("x must be even",)


def test_raise_exception_listing():
    rows = listing(code_of(RAISES.replace("CLASS", "builtins.ValueError")))
    assert rows == [
        "%1 = Constant 'builtins.ValueError'",
        "%2 = Constant 'too big: '",
        "%3 = Constant 0",
        "%4 = gt %0, %3",
        "JF 9 move(%4)",
        "%5 = str %0",  # %x is returned: never moved
        "%6 = add %2, move(%5)",
        "= RaiseException move(%6), %1",  # no outputs
        "JMP 9",  # the else branch is empty: both jumps land on the RET
        "RET %0",
    ]


# ---------------------------------------------------------------------------
# listing bugs


def test_an_unused_tensor_input_is_dropped():
    code = code_of(
        """
graph(%a : Tensor, %unused : Tensor):
  %r : Tensor = aten::relu(%a)
  return (%r)
"""
    )
    assert 1 in moved_registers(code)
    assert "del r1" in code.python_source


def test_a_tensor_whose_last_use_seeds_a_loop_is_shown_dying():
    code = code_of(FOR_LOOP)
    assert "del r1" in code.python_source  # the generated code frees %a after the loop
    assert 1 in moved_registers(code)  # and the listing shows %1 dying there
