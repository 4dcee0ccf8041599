"""Constant propagation cases: the programs and checks of the test_constant_prop* tests and
test_constant_insertion of PyTorch's test/test_jit.py, as data (steps as in `scripted.py`).

Where a test asserts on the graph from Python (`findNode(...).outputsSize()`, an input's
`toIValue()`), the case records the same facts with the `control_flow` and `inputs_of`
steps. test_constant_insertion scripts a function returning each of its constants and
checks that constant propagation leaves one `prim::Constant`: here every constant of its
list is a case, and of its tuples (every pair, 231) and dicts (every key with every value,
176) a sample of 22 each: each constant paired with the next, and each value under a key
taken in turn. Its node-hashing part (one `print` of a tuple of every constant, counted
before and after CSE) is one case over that sample. Its export/import round trip is not
harvested (archives have their own suite).
"""

from __future__ import annotations

from scripted import Case

CONSTPROP = ("pass", "constant_propagation")


def _case(name: str, source: str, *steps: tuple, entry: str = "foo", test: str = "") -> Case:
    return Case(name, source, entry, tuple(steps), origin=test or "test_" + name.split("/")[0])


def check(statement: str) -> tuple:
    return ("check", statement)


def call(args: str = "()") -> tuple:
    return ("call", args)


CONTROL_FLOW = ("control_flow",)


def _scripted_tests() -> list[Case]:
    return [
        _case(
            "constant_prop_simple",
            """
def foo(input_int: int) -> int:
    a = 2 * 3
    b = a + 2
    return b - input_int
""",
            call("(2,)"),
            CONSTPROP,
            call("(2,)"),
            check('FileCheck().check_not("aten::add").check_not("aten::mul").run(graph)'),
            check('FileCheck().check("prim::Constant[value=8]").check("aten::sub").run(graph)'),
            ("inputs_of", "aten::sub"),
        ),
        _case(
            "constant_prop_nested",
            """
def foo(a):
    b = 2 + 1
    if bool(a < 2):
        c = b + 2
    else:
        c = b - 2
    return c
""",
            call("(torch.tensor(2),)"),
            CONSTPROP,
            call("(torch.tensor(2),)"),
            call("(torch.tensor(1),)"),
            CONTROL_FLOW,
        ),
        _case(
            "constant_prop_print",
            """
def foo(input_tensor):
    a = 2 * 3
    print(a)
    b = a + 2
    return b + input_tensor
""",
            CONSTPROP,
            ("inputs_of", "prim::Print"),
            check('FileCheck().check_not("aten::mul").run(graph)'),
            call("(torch.tensor([1.0, 2.0]),)"),
        ),
        _case(
            "constant_prop_rand",
            """
def foo():
    a = torch.randn([3])
    b = a + 2
    return b
""",
            CONSTPROP,
            check('FileCheck().check("aten::randn").check("aten::add").run(graph)'),
            ("shape", "()"),
        ),
        _case(
            "constant_prop_none",
            """
def typed_none() -> Optional[int]:
    return None

def foo():
    a = typed_none()
    b = typed_none()
    if (a is None and b is None):
        a = 2
    else:
        a = 1
    return a
""",
            CONSTPROP,
            check('FileCheck().check("prim::Constant").run(graph)'),
            call(),
        ),
        _case(
            "constant_prop_if_inline",
            """
def foo():
    cond = True
    a = 1
    if cond:
        a = 1 * 2
    else:
        a = 1 // 0
    return a
""",
            CONSTPROP,
            check('FileCheck().check_not("prim::If").check_not("aten::floordiv").run(graph)'),
            call(),
        ),
        _case(
            "constant_prop_exception",
            """
def foo(x: bool):
    y = 0
    if x:
        a = [1, 2, 3]
        y = a[4]
    return y
""",
            call("(False,)"),
            CONSTPROP,
            call("(False,)"),
            call("(True,)"),
        ),
        _case(
            "constant_prop_aliasing_type/len",
            """
def foo():
    return len([1]), len(torch.tensor([2]))
""",
            check('FileCheck().check_dag("aten::tensor").check_dag("aten::len").run(graph)'),
            call(),
        ),
        _case(
            "constant_prop_aliasing_type/if",
            """
def foo():
    if 1 == 1:
        return 1
    else:
        return 2
""",
            check('FileCheck().check_not("prim::If").run(graph)'),
            call(),
        ),
        _case(
            "constant_prop_if_constant",
            """
def foo(a, b):
    c0 = 1
    c1 = 1
    c2 = 1
    if bool(a):  # -> c0, c1
        if bool(b):  # -> c0
            if True:  # -> c0
                c0 = c0 + 1
                if False:
                    c1 = c1 + 1
                    c2 = c2 + 1
    else:  # -> c0, c1
        c1 = c1 + 1

    if True:  # inlined
        c0 = c0 + 1  # dynamic
        c2 = c2 + 4  # set to 5
    return a + c0 + c1 + c2
""",
            CONSTPROP,
            CONTROL_FLOW,
            call("(torch.tensor(1), torch.tensor(1))"),
            call("(torch.tensor(1), torch.tensor(0))"),
            call("(torch.tensor(0), torch.tensor(1))"),
        ),
        _case(
            "constant_prop_loop_constant",
            """
def foo(cond: bool, iter: int) -> int:
    b = 0
    while True:
        print("stays")
    for _ in range(2):
        print("stays")
    for _ in range(iter):
        print("stays")
    while cond:
        print("stays")
    while False:
        print("removed")
    for _i in range(0):
        print("removed")
    for _i in range(-4):
        print("removed")
    return b
""",
            CONSTPROP,
            check('FileCheck().check_not("removed").run(graph)'),
            check('FileCheck().check_count("stays", 1, exactly=True).run(graph)'),
            check('FileCheck().check_count("prim::Print", 4, exactly=True).run(graph)'),
            CONTROL_FLOW,
        ),
        _case(
            "constant_prop_remove_output",
            """
def foo(iter: int) -> None:
    a = 1
    b = 1
    c = 1
    for i in range(iter):
        if False:
            a = 10
        if i == 5:
            b = 2
            c = 3
    print(a, b, c)
""",
            CONSTPROP,
            CONTROL_FLOW,
            call("(7,)"),
        ),
    ]


#: test_constant_insertion's constants (Python expressions, in its order)
INSERTED = [
    "None", "-.5", "0", "1", "True", "False", "''", "'a'", "'b'", "torch.tensor(1)",
    "[True, False]", "[0., .5]", "[torch.tensor(4), torch.tensor(2)]", "[0, 1]", "['0', '1']",
    "[True, None]", "[.5, None, .2]",
    *(f"torch.jit.annotate(List[{t}], [])" for t in ("Tensor", "str", "int", "float", "bool")),
]  # fmt: skip

#: the constants that key a dict in test_constant_insertion (str, int, float, bool)
_KEYS = ["-.5", "0", "1", "True", "False", "''", "'a'", "'b'"]

_EMPTY_DICTS = [
    f"torch.jit.annotate(Dict[{k}, {v}], {{}})"
    for k in ("str", "int", "float")
    for vt in ("Tensor", "bool", "str", "int", "float")
    for v in (vt, f"Optional[{vt}]")
]
_TUPLES = [f"{a}, {b}" for a, b in zip(INSERTED, INSERTED[1:] + INSERTED[:1], strict=True)]
_DICTS = ["{ " + _KEYS[i % len(_KEYS)] + ": " + v + "}" for i, v in enumerate(INSERTED)]


def _insertion_cases() -> list[Case]:
    cases = []
    for group, constants in (
        ("constant", INSERTED),
        ("empty_dict", _EMPTY_DICTS),
        ("tuple", _TUPLES),
        ("dict", _DICTS),
    ):
        for i, constant in enumerate(constants):
            cases.append(
                _case(
                    f"constant_insertion/{group}_{i}",
                    f"def foo():\n    return {constant}\n",
                    CONSTPROP,
                    check('FileCheck().check_count("prim::Constant", 1, exactly=True).run(graph)'),
                    call(),
                    test="test_constant_insertion",
                )
            )
    every = ", ".join(f"({c},)" for c in INSERTED + _EMPTY_DICTS + _DICTS)
    n = len(INSERTED) + len(_EMPTY_DICTS) + len(_DICTS) + 1  # and the None returned
    count = f'FileCheck().check_count("prim::Constant", {n}, exactly=True).run(graph)'
    cases.append(
        _case(
            "constant_insertion/node_hashing",
            f"def foo():\n    print({every})\n",
            CONSTPROP,
            check(count),
            ("pass", "cse"),
            check(count),
            test="test_constant_insertion",
        )
    )
    return cases


CASES: list[Case] = _scripted_tests() + _insertion_cases()
