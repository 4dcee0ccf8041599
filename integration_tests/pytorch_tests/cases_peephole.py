"""Peephole cases: the programs and checks of PyTorch's test/jit/test_peephole.py, as data.

One case per program a test scripts (a test that scripts several gives several cases,
named `test/what`); steps as in `scripted.py`. Not harvested: test_peephole_cuda (needs
CUDA tensors) and test_peephole_with_non_output_writes (calls back into an `@ignore`d
Python function). test_conv_dim_folding scripts nn.Conv{1,2,3}d modules; here the
convolution is the functional one on a weight input, which is what the module's
inlined graph holds.
"""

from __future__ import annotations

from scripted import Case


def _case(name: str, source: str, *steps: tuple, entry: str = "foo", trace: str | None = None):
    test = "test_" + name.split("/")[0]
    return Case(name, source, entry, tuple(steps), origin=test, trace=trace)


PEEPHOLE = ("pass", "peephole")
CONSTPROP = ("pass", "constant_propagation")
DCE = ("pass", "dce")
LIST_IDIOMS = ("pass", "peephole_list_idioms", {"refine_list_len": True})
REFINE_INT = ("pass", "refine_integer_values")


def check(statement: str) -> tuple:
    return ("check", statement)


def call(args: str) -> tuple:
    return ("call", args)


_REFINE_LEN_TUPLE = """
def foo(x: List[int], b: List[int]):
    if len(x) {c0} 5:
        x1 = {then}
    else:
        x1 = {orelse}
    assert {a}
    return len(x), len(b)
"""

_CONV_DIM = """
def foo(x, w):
    x = torch.{op}(x, w, None, 2)
    {mutate}return x.dim()
"""

CASES: list[Case] = [
    _case(
        "peephole_with_writes",
        """
def foo(x):
    s = 0
    s += x
    s += x
    return s
""",
        call("(torch.ones(4, 4),)"),
        PEEPHOLE,
        call("(torch.ones(4, 4),)"),
    ),
    _case(
        "peephole_no_output_aliasing",
        """
def foo(x):
    y = x + 0
    return x, y
""",
        PEEPHOLE,
        check('FileCheck().check("aten::add").run(graph)'),
        call("(torch.ones(4, 4),)"),
    ),
    _case(
        "peephole/same_type",
        "def foo(x, y):\n    return x.type_as(y)\n",
        check('FileCheck().check("type_as").run(graph)'),
        PEEPHOLE,
        check('FileCheck().check_not("type_as").run(graph)'),
        call("(torch.tensor([0.4]), torch.tensor([0.7]))"),
        trace="(torch.tensor([0.4]), torch.tensor([0.7]))",
    ),
    _case(
        "peephole/other_type",
        "def foo(x, y):\n    return x.type_as(y)\n",
        PEEPHOLE,
        check('FileCheck().check("type_as").run(graph)'),
        call("(torch.tensor([0.4]), torch.tensor([0], dtype=torch.int32))"),
        trace="(torch.tensor([0.4]), torch.tensor([0], dtype=torch.int32))",
    ),
    _case(
        "peephole_dynamic",
        "def foo(x, y):\n    return x.type_as(y)\n",
        PEEPHOLE,
        check('FileCheck().check("aten::type_as").run(graph)'),
    ),
    _case(
        "peephole_list_ops/len_of_literal",
        "def foo(x, y, z):\n    return len([x, y, z])\n",
        PEEPHOLE,
        check('FileCheck().check("value=3").check_next("return").run(graph)'),
        call("(torch.ones(2), torch.ones(2), torch.ones(2))"),
    ),
    _case(
        "peephole_list_ops/len_of_other_literal",
        """
def foo(x, y, z):
    li = [x, y, z]
    for i in range(len(x)):
        li.append(x)
    return len([x, y, z])
""",
        PEEPHOLE,
        check('FileCheck().check_not("aten::len").run(graph)'),
        call("(torch.ones(2), torch.ones(2), torch.ones(2))"),
    ),
    _case(
        "peephole_list_ops/getitem",
        """
def foo(x, y, z):
    li = [x, y, z]
    return li[1], li[-2]
""",
        check('FileCheck().check("aten::__getitem__").run(graph)'),
        PEEPHOLE,
        check('FileCheck().check_not("aten::__getitem__").run(graph)'),
        call("(torch.ones(2), torch.zeros(2), torch.ones(3))"),
    ),
    _case(
        "peephole_list_ops/getitem_out_of_range",
        """
def foo(x, y, z):
    li = [x, y, z]
    return li[-7]
""",
        PEEPHOLE,
        check('FileCheck().check("aten::__getitem__").run(graph)'),
        call("(torch.ones(2), torch.zeros(2), torch.ones(3))"),
    ),
    _case(
        "peephole_list_ops/getitem_of_mutated",
        """
def foo(x, y, z):
    li = [x, y, z]
    for i in range(len(x)):
        li.append(x)
    return li[-2]
""",
        PEEPHOLE,
        check('FileCheck().check("aten::__getitem__").run(graph)'),
        call("(torch.ones(2), torch.zeros(2), torch.ones(3))"),
    ),
    _case(
        "peephole_type_refinements/inlined_optional",
        """
def refine(x: Optional[torch.Tensor]) -> torch.Tensor:
    return x if x is not None else torch.tensor(3)

def foo():
    return refine(torch.tensor(4))
""",
        ("pass", "inline"),
        check('FileCheck().check("prim::unchecked_cast").run(graph)'),
        PEEPHOLE,
        check('FileCheck().check_not("prim::unchecked_cast").run(graph)'),
        call("()"),
    ),
    _case(
        "peephole_type_refinements/isinstance_of_item",
        """
def foo(x):
    scalar = x.item()
    if isinstance(scalar, int):
        return scalar + 3
    else:
        return 8
""",
        call("(torch.tensor(2),)"),
        call("(torch.tensor(2.5),)"),
        PEEPHOLE,
        check('FileCheck().check("prim::unchecked_cast").run(graph)'),
        call("(torch.tensor(2),)"),
        call("(torch.tensor(2.5),)"),
    ),
    _case(
        "short_circuit_optimization/constant",
        """
def foo(x: int) -> Tuple[bool, bool]:
    return x == 1 and False, x == 1 or True
""",
        CONSTPROP,
        check('FileCheck().check_not("prim::If").check_not("aten::eq").run(graph)'),
        call("(1,)"),
    ),
    _case(
        "short_circuit_optimization/redundant",
        """
def foo(x: int) -> Tuple[bool, bool]:
    return x == 1 and True, x == 1 or False
""",
        PEEPHOLE,
        call("(1,)"),
        call("(0,)"),
        check('FileCheck().check("aten::eq").check_not("prim::If").run(graph)'),
    ),
    *[
        _case(
            f"conv_dim_folding/{op}{'_resized' if mutate else ''}",
            _CONV_DIM.format(op=op, mutate="x.resize_([4, 4])\n    " if mutate else ""),
            PEEPHOLE,
            check(
                'FileCheck().check("conv").check("dim").run(graph)'
                if mutate
                else 'FileCheck().check_not("conv").check_not("dim").run(graph)'
            ),
            call(f"(torch.ones({shape}), torch.ones({wshape}))"),
        )
        for op, shape, wshape in [
            ("conv1d", "1, 3, 9", "4, 3, 3"),
            ("conv2d", "1, 3, 9, 9", "4, 3, 3, 3"),
            ("conv3d", "1, 3, 9, 9, 9", "4, 3, 3, 3, 3"),
        ]
        for mutate in (False, True)
    ],
    _case(
        "normalized_is_op",
        """
def foo(x: bool, y: bool):
    return x is True, False is x, x is y
""",
        call("(True, False)"),
        check('FileCheck().check_count("aten::eq", 3, exactly=True).run(graph)'),
        check('FileCheck().check_count("aten::__is__", 0, exactly=True).run(graph)'),
    ),
    _case(
        "normalized_isnot_op",
        """
def foo(x: bool, y: bool):
    return x is not True, False is not x, x is not y
""",
        call("(True, False)"),
        check('FileCheck().check_count("aten::ne", 3, exactly=True).run(graph)'),
        check('FileCheck().check_count("aten::__isnot__", 0, exactly=True).run(graph)'),
    ),
    _case(
        "peephole_list_len/or_raise",
        """
def foo(x: List[int], y: List[int]):
    if len(x) != 4 or len(y) != 5:
        raise Exception("")
    return len(x) + len(y)
""",
        LIST_IDIOMS,
        CONSTPROP,
        check('FileCheck().check("value=9").check_next("return").run(graph)'),
        call("([0] * 4, [0] * 5)"),
        call("([0] * 2, [0] * 4)"),
    ),
    _case(
        "peephole_list_len/and_else_raise",
        """
def foo(x: List[int], y: List[int]):
    if len(x) == 4 and len(y) == 5:
        pass
    else:
        raise Exception("hi")
    return len(x) + len(y)
""",
        LIST_IDIOMS,
        CONSTPROP,
        check('FileCheck().check("value=9").check_next("return").run(graph)'),
        call("([0] * 4, [0] * 5)"),
        call("([0] * 2, [0] * 4)"),
    ),
    _case(
        "peephole_list_len/nested",
        """
def foo(x: List[int], y: List[int], z: List[int]):
    if len(x) != 4:
        raise Exception("..")
    else:
        if len(y) != 8:
            raise Exception("...")
        else:
            if len(z) == 3:
                pass
            else:
                raise Exception("...")
    return len(x) + len(y) * len(z)
""",
        LIST_IDIOMS,
        CONSTPROP,
        check('FileCheck().check("value=28").check_next("return").run(graph)'),
        call("([0] * 4, [0] * 8, [0] * 3)"),
        call("([0], [0] * 2, [0] * 3)"),
    ),
    _case(
        "peephole_list_len/persists_into_block",
        """
def foo(x: List[int], cond: bool):
    if len(x) == 4:
        if cond:
            return len(x)
        return 4
    return 4
""",
        LIST_IDIOMS,
        CONSTPROP,
        check('FileCheck().check("value=4").check_next("return").run(graph)'),
        call("([0] * 4, True)"),
    ),
    *[
        _case(
            f"peephole_list_len/{name}",
            _REFINE_LEN_TUPLE.format(c0=c0, then=then, orelse=orelse, a=a),
            LIST_IDIOMS,
            CONSTPROP,
            ("constant_tuple",),
            call("([0] * 3, [0] * 4)"),
        )
        # (the test's fourth program repeats its first)
        for name, c0, then, orelse, a in [
            ("then_true_ne", "==", "True", "len(b) != 4", "x1 == False"),
            ("then_false", "==", "False", "len(b) != 4", "x1 == False"),
            ("then_true_eq", "==", "True", "len(b) == 4", "x1 == False"),
            ("swapped_branches", "!=", "len(b) != 4", "True", "x1 == False"),
            ("swapped_branches_not", "!=", "len(b) != 4", "True", "not x1"),
        ]
    ],
    _case(
        "peephole_list_len/list_appended",
        """
def foo(x: List[int]):
    assert len(x) == 4
    x.append(3)
    return len(x)
""",
        LIST_IDIOMS,
        CONSTPROP,
        check('FileCheck().check_count("aten::len", 2).run(graph)'),
        call("([0] * 4,)"),
    ),
    _case(
        "peephole_list_len/assert_or",
        """
def foo(x: List[int], y: List[int]):
    assert len(x) == 4 or len(y) == 5
    return len(x) + len(y)
""",
        LIST_IDIOMS,
        CONSTPROP,
        check('FileCheck().check_count("aten::len", 4).run(graph)'),
        call("([0] * 4, [0] * 2)"),
    ),
    _case(
        "integer_refinement/or_raise",
        """
def foo(x: int, y: int):
    if x != 4 or y != 5:
        raise Exception("")
    return x + y
""",
        REFINE_INT,
        CONSTPROP,
        DCE,
        check('FileCheck().check("value=9").check_next("return").run(graph)'),
        call("(4, 5)"),
        call("(2, 4)"),
    ),
    _case(
        "integer_refinement/and_else_raise",
        """
def foo(x: int, y: int):
    if x == 4 and y == 5:
        pass
    else:
        raise Exception("hi")
    return x + y
""",
        REFINE_INT,
        CONSTPROP,
        DCE,
        check('FileCheck().check("value=9").check_next("return").run(graph)'),
        call("(4, 5)"),
        call("(2, 4)"),
    ),
    _case(
        "integer_refinement/nested",
        """
def foo(x: int, y: int, z: int):
    if x != 4:
        raise Exception("..")
    else:
        if y != 8:
            raise Exception("...")
        else:
            if z == 3:
                pass
            else:
                raise Exception("...")
    return x + y * z
""",
        REFINE_INT,
        CONSTPROP,
        DCE,
        check('FileCheck().check("value=28").check_next("return").run(graph)'),
        call("(4, 8, 3)"),
        call("(1, 2, 3)"),
    ),
    _case(
        "integer_refinement/persists_into_block",
        """
def foo(x: int, cond: bool):
    if x == 4:
        if cond:
            return x
        return 4
    return 4
""",
        REFINE_INT,
        CONSTPROP,
        DCE,
        check('FileCheck().check("value=4").check_next("return").run(graph)'),
        call("(4, True)"),
        call("(3, True)"),
    ),
    _case(
        "integer_refinement/assert_or",
        """
def foo(x: int, y: int):
    assert x == 4 or y == 5
    return x + y
""",
        LIST_IDIOMS,
        CONSTPROP,
        check('FileCheck().check("aten::add").run(graph)'),
        call("(4, 2)"),
    ),
    _case(
        "optimize_out_comparison_same_value/int",
        "def foo(x: int):\n    return x == x, x != x\n",
        PEEPHOLE,
        check('FileCheck().check_not("aten::eq").check_not("aten::neq").run(graph)'),
        call("(1,)"),
    ),
    _case(
        "optimize_out_comparison_same_value/int_list",
        "def foo(x: List[int]):\n    return x == x, x != x\n",
        PEEPHOLE,
        check('FileCheck().check_not("aten::eq").check_not("aten::neq").run(graph)'),
        call("([2, 3],)"),
    ),
    _case(
        "refine_integer_values",
        """
def foo(x: int):
    y = 1
    if x == 1:
        return y
    else:
        return x
""",
        REFINE_INT,
        CONSTPROP,
        DCE,
        check('FileCheck().check("graph").check_next("return").run(graph)'),
        call("(2,)"),
        call("(1,)"),
    ),
    _case(
        "peephole_len_list/of_size",
        "def foo(x):\n    return len(x.size())\n",
        PEEPHOLE,
        check('FileCheck().check("aten::len").run(graph)'),
        ("rank", 0, 2),
        PEEPHOLE,
        check('FileCheck().check_not("aten::len").run(graph)'),
        call("(torch.rand([3, 1]),)"),
    ),
    _case(
        "peephole_len_list/of_appended_size",
        """
def foo(x):
    li = x.size()
    li.append(4)
    return len(li)
""",
        ("rank", 0, 2),
        PEEPHOLE,
        check('FileCheck().check("aten::len").run(graph)'),
        call("(torch.rand([3, 1]),)"),
    ),
    _case(
        "peephole_int",
        "def foo(x: int):\n    return int(x)\n",
        check('FileCheck().check("aten::Int").run(graph)'),
        PEEPHOLE,
        check('FileCheck().check_not("aten::Int").run(graph)'),
        call("(3,)"),
    ),
    _case(
        "peephole_arith",
        """
def foo(input0: int, input1: int, input2: int, input3: int):
    _1 = torch.add(input1, 2)
    _3 = torch.add(input3, 2)
    _5 = torch.add(1, torch.sub(_1, 3) // 1)
    _6 = torch.add(1 * torch.sub(_3, 3) // 1, 1) / 1
    return [_5, int(_6)]
""",
        check(
            'FileCheck().check("aten::add").check("aten::sub").check("aten::mul")'
            '.check("aten::floordiv").check("aten::div").run(graph)'
        ),
        PEEPHOLE,
        check(
            'FileCheck().check("graph").check("):").check_next("aten::Int")'
            '.check_next("ListConstruct").check_next("return").run(graph)'
        ),
        call("(0, 1, 2, 3)"),
    ),
]
