"""Loop unrolling cases: the programs and checks of the test_loop_unroll* and
test_loop_unrolling* tests of PyTorch's test/test_jit.py, as data (steps as in `scripted.py`).

The tests compare results with `checkScript`, which runs the function through the graph
executor; here the graph the pass left is called, on the tests' inputs and a few more
trip counts (0, 1, 7, 8, 9 and 17 around the unroll factor of 8). test_loop_unrolling_const
checks `check_not("prim::Loop'")` (the quote makes it pass whatever the graph); the case
keeps it and adds the check meant, `check_not("prim::Loop")`.
"""

from __future__ import annotations

from scripted import Case

UNROLL = ("pass", "loop_unrolling")


def _case(name: str, source: str, *steps: tuple) -> Case:
    return Case(name, source, "fn", tuple(steps), origin="test_" + name.split("/")[0])


def check(statement: str) -> tuple:
    return ("check", statement)


def calls(*counts: int) -> tuple:
    return tuple(("call", f"(torch.tensor({n}),)") for n in counts)


_TRIPS = (-1, 0, 1, 7, 8, 9, 10, 17)

CASES: list[Case] = [
    _case(
        "loop_unrolling",
        """
def fn(x):
    y = 0
    for i in range(int(x)):
        y -= i
    return y
""",
        UNROLL,
        check(
            'FileCheck().check("prim::Loop").check_count("aten::sub", 8)'
            '.check("prim::Loop").check("aten::sub").run(graph)'
        ),
        *calls(*_TRIPS),
    ),
    *(
        _case(
            f"loop_unrolling_const/{name}",
            f"""
def fn():
    y = 0
    for {var} in range(10):
        y -= {step}
    return y
""",
            UNROLL,
            check('FileCheck().check_not("prim::Loop\'").run(graph)'),
            check('FileCheck().check_not("prim::Loop").run(graph)'),
            ("call", "()"),
        )
        for name, var, step in (("add_const", "_", "1"), ("add_iter", "i", "i"))
    ),
    _case(
        "loop_unrolling_nested",
        """
def fn(x):
    y = 0
    for _ in range(10):
        for j in range(int(x)):
            y -= j
    return y
""",
        UNROLL,
        check(
            'FileCheck().check("prim::Loop").check("prim::Loop").check_count("aten::sub", 8)'
            '.check("prim::Loop").check("aten::sub").run(graph)'
        ),
        *calls(*_TRIPS),
    ),
    _case(
        "loop_unroll_unused_counter",
        """
def fn(x):
    y = 0
    for _ in range(int(x)):
        y -= 1
    return y
""",
        UNROLL,
        check('FileCheck().check("prim::Loop").check_not("aten::add").check("return").run(graph)'),
        *calls(*_TRIPS),
    ),
    _case(
        "loop_unroll_negative",
        """
def fn(x):
    y = 0
    for _ in range(int(x)):
        y += 1
    return y
""",
        UNROLL,
        *calls(-20, -2, -1, 0, 1, 2, 9),
    ),
]
