"""convert_to_ssa and exit_transform: graph shapes as TorchScript makes them.

Each function is compiled from source and its graph checked with FileCheck:
variables become block inputs and outputs, `break`/`continue`/`return`
disappear into loop conditions and `prim::If` outputs, a branch that raises
gives `prim::Uninitialized`, and a `for` loop with a `break` is rewritten as
a counted while loop. Every graph also prints, parses and prints again
identically.
"""

from __future__ import annotations

import itertools

import pytest
from ts_frontend import script_source
from ts_ir import FileCheck, parse_ir


def graph_of(source: str):
    g = script_source(source).graph
    g.lint()
    text = g.to_string(source_locations=False)
    assert str(parse_ir(text)) == text
    for kind in (
        "prim::Store",
        "prim::Load",
        "prim::ReturnStmt",
        "prim::BreakStmt",
        "prim::ContinueStmt",
        "prim::LoopContinuation",
        "prim::ComprehensionScope",
    ):
        assert kind not in text
    return text


def test_if_outputs_are_named_after_the_variable():
    text = graph_of(
        "def f(x, c: bool):\n"
        "    if c:\n"
        "        y = x + 1\n"
        "    else:\n"
        "        y = x - 1\n"
        "    return y\n"
    )
    FileCheck().check("%y : Tensor = prim::If(%c.1)").check("block0():").check("aten::add").check(
        "block1():"
    ).check("aten::sub").check("return (%y)").run(text)


def test_loop_carried_variable():
    text = graph_of("def f(x, n: int):\n    for i in range(n):\n        x = x * 2\n    return x\n")
    FileCheck().check("%x : Tensor = prim::Loop(%n.1, %").check("block0(%i : int, %x.").check(
        "aten::mul"
    ).check("-> (%").check("return (%x)").run(text)


def test_break_becomes_a_counted_while_loop():
    text = graph_of(
        "def f(n: int):\n"
        "    acc = 0\n"
        "    for i in range(n):\n"
        "        if i > 3:\n"
        "            break\n"
        "        acc += i\n"
        "    return acc\n"
    )
    FileCheck().check("aten::gt(%n.1").check("prim::Loop(%").check("prim::If").check(
        "aten::add"
    ).check("aten::lt").check("aten::__and__").run(text)
    assert "9223372036854775807" in text


def test_continue_reevaluates_the_while_condition():
    text = graph_of(
        "def f(i: int):\n"
        "    while i < 5:\n"
        "        if i == 3:\n"
        "            i += 2\n"
        "            continue\n"
        "        i += 1\n"
        "    return i\n"
    )
    FileCheck().check("aten::lt").check("prim::Loop").check("prim::If").check("aten::add").check(
        "aten::lt"
    ).check("aten::add").check("aten::lt").run(text)


def test_early_return_moves_the_rest_into_the_else_branch():
    text = graph_of(
        "def f(x, c: bool):\n    if c:\n        return x * 2\n    y = x + 1\n    return y * y\n"
    )
    FileCheck().check_count("prim::If", 1, exactly=True).check("aten::mul").check(
        "block1():"
    ).check("aten::add").check("aten::mul").run(text)


def test_return_inside_a_loop_stops_it():
    fn = script_source(
        "def f(xs: List[int]) -> int:\n"
        "    for x in xs:\n"
        "        if x > 2:\n"
        "            return x\n"
        "    return -1\n"
    )
    assert fn([1, 5, 7]) == 5 and fn([1, 2]) == -1 and fn([]) == -1
    graph_of(
        "def f(xs: List[int]) -> int:\n"
        "    for x in xs:\n"
        "        if x > 2:\n"
        "            return x\n"
        "    return -1\n"
    )


def test_raising_branch_gives_uninitialized():
    text = graph_of(
        "def f(x: int):\n"
        "    if x > 0:\n"
        "        y = x * 2\n"
        "    else:\n"
        "        raise RuntimeError('bad')\n"
        "    return y + 1\n"
    )
    FileCheck().check("prim::Uninitialized()").check("%y : int = prim::If").check(
        "prim::RaiseException(%"
    ).run(text)


def test_refinement_is_an_unchecked_cast():
    text = graph_of(
        "def f(x: Optional[int]) -> int:\n    if x is None:\n        return 0\n    return x + 1\n"
    )
    FileCheck().check("aten::__is__").check("prim::If").check(
        "int = prim::unchecked_cast(%x.1)"
    ).run(text)


def test_static_conditions_compile_one_branch():
    text = graph_of(
        "def f(x: int):\n    if isinstance(x, int):\n        return x + 1\n    return x.nothing()\n"
    )
    assert "prim::If" not in text


def test_comprehension_is_a_loop_with_appends():
    text = graph_of("def f(n: int):\n    return [i * i for i in range(n) if i % 2 == 1]\n")
    FileCheck().check("int[] = prim::ListConstruct()").check("prim::Loop").check("prim::If").check(
        "aten::append"
    ).run(text)


@pytest.mark.parametrize("n", [0, 1, 4, 10])
def test_exits_compute_what_python_computes(n):
    source = (
        "def f(n: int) -> int:\n"
        "    total = 0\n"
        "    for i in range(n):\n"
        "        if i == 2:\n"
        "            continue\n"
        "        j = 0\n"
        "        while True:\n"
        "            j += 1\n"
        "            if j > i:\n"
        "                break\n"
        "            if i * j == 12:\n"
        "                return -total\n"
        "            total += j\n"
        "    return total\n"
    )
    namespace: dict = {}
    exec(source, namespace)
    assert script_source(source)(n) == namespace["f"](n)


# -- every combination of exits in an if/elif/else chain
#
# Each branch of `if a == 0: ... elif a == 1: ... else: ...` ends in one of
# these statements, at the top of the function or inside a loop; the value a
# branch returns is computed inside the branch, so the exit transform must
# carry it out of the branch's block. Each compiled graph must lint, copy
# (as the executor copies it before its first run) and compute what Python
# computes, raising where Python raises.

_BRANCH_ENDS = {
    "return": "            r = x * {k} + i\n            return r\n",
    "raise": "            raise ValueError('branch {k}')\n",
    "fall": "            x = x + {k}\n",
    "continue": "            x = x - {k}\n            continue\n",
    "break": "            x = x + 10 * {k}\n            break\n",
}


def _exit_program(ends: tuple[str, ...], in_loop: bool) -> str:
    lines = ["def f(x: int, a: int) -> int:\n"]
    if in_loop:
        lines.append("    for i in range(3):\n")
    else:
        lines.append("    i = 0\n    if True:\n")
    for k, (word, end) in enumerate(zip(("if a == 0", "elif a == 1", "else"), ends, strict=True)):
        lines.append(f"        {word}:\n")
        lines.append(_BRANCH_ENDS[end].format(k=k + 1))
    lines.append("        x = x + 100\n")
    lines.append("    return x\n")
    return "".join(lines)


_EXIT_CASES = [
    (ends, in_loop)
    for in_loop in (False, True)
    for ends in itertools.product(
        ("return", "raise", "fall", "continue", "break")
        if in_loop
        else ("return", "raise", "fall"),
        repeat=3,
    )
]


@pytest.mark.parametrize(
    ("ends", "in_loop"), _EXIT_CASES, ids=lambda c: "-".join(c) if isinstance(c, tuple) else str(c)
)
def test_every_combination_of_exits_in_a_chain(ends, in_loop):
    source = _exit_program(ends, in_loop)
    namespace: dict = {}
    exec(source, namespace)
    fn = script_source(source)
    fn.graph.lint()
    fn.graph.copy().lint()
    for a in (0, 1, 2):
        try:
            want = namespace["f"](5, a)
        except ValueError:
            with pytest.raises(ValueError):
                fn(5, a)
            continue
        assert fn(5, a) == want, source


# -- behaviour PyTorch has and Python has, found by the differential fuzzer


def test_a_variable_may_be_assigned_in_the_none_branch_of_a_refinement():
    # only `x is not None`'s true branch is refined; the None branch keeps Optional[int]
    source = (
        "def f(x: Optional[int], c: bool) -> int:\n"
        "    if x is not None:\n"
        "        pass\n"
        "    elif c:\n"
        "        pass\n"
        "    else:\n"
        "        x = 2\n"
        "    return 1 if x is None else x\n"
    )
    f = script_source(source)
    assert [f(None, False), f(None, True), f(5, False)] == [2, 1, 5]


def test_a_loop_whose_body_runs_is_kept_with_what_feeds_it():
    # the loop's results are unused, but it runs (its condition is computed), so the
    # select feeding it runs and raises, as in PyTorch and Python
    import ts_runtime as torch

    f = script_source(
        "def f(x: Tensor) -> int:\n"
        "    w = x[2]\n"
        "    k = 0\n"
        "    while k < 3:\n"
        "        k += 1\n"
        "        w = w * 0.5\n"
        "    return 0\n",
        optimize=False,
    )
    assert "prim::Loop" in str(f.graph)
    with pytest.raises(Exception, match="out of range"):
        f(torch.ones(2))
    g = script_source(
        "def g(s: str) -> int:\n    for i in range(1):\n        s = s[i]\n    return 0\n",
        optimize=False,
    )
    with pytest.raises(IndexError):
        g("")


def test_a_constant_condition_compiles_one_branch():
    text = graph_of(
        "def f(a: bool, xs: List[int]) -> int:\n"
        "    if True:\n"
        "        if a:\n"
        "            return len(xs)\n"
        "    for i in range(3):\n"
        "        xs[0] = i\n"
        "    return 0\n"
    )
    assert text.count("prim::If") == 1
    f = script_source(
        "def f(a: bool, xs: List[int]) -> int:\n"
        "    if True:\n"
        "        if a:\n"
        "            return len(xs)\n"
        "    for i in range(3):\n"
        "        xs[0] = i\n"
        "    return 0\n"
    )
    with pytest.raises(IndexError):
        f(False, [])
