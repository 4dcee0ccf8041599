"""Remove-mutation cases: the programs and checks of PyTorch's
test/jit/test_remove_mutation.py, as data (steps as in `scripted.py`).

test_common_pytorch_list_ops scripts a module per op whose `forward` calls the op
through an attribute; here each is the function calling the op directly. Its last
check ran the pass on another graph than the one it checks; here the pass runs on
the graph checked. test_list_indexing_removal's `unknown` program was likewise never
passed; here it is.
"""

from __future__ import annotations

from scripted import Case

REMOVE = ("pass", "remove_mutation")
CONSTPROP = ("pass", "constant_propagation")


def _case(name: str, source: str, *steps: tuple, entry: str = "foo") -> Case:
    return Case(name, source, entry, tuple(steps), origin="test_" + name.split("/")[0])


def check(statement: str) -> tuple:
    return ("check", statement)


def call(args: str = "()") -> tuple:
    return ("call", args)


_LIST_OP = """
def foo():
    x = torch.tensor([1, 2, 3, 4])
    x.add_(3)
    y = [x, x]
    return torch.{op}(y) + 3
"""

CASES: list[Case] = [
    _case(
        "aten_inplace/not_new_alias",
        """
def foo(x):
    y = x[0]
    y.add_(2)
    return y
""",
        REMOVE,
        check('FileCheck().check("aten::add_").run(graph)'),
        call("(torch.ones([2, 2]),)"),
    ),
    _case(
        "aten_inplace/no_lowering",
        """
def foo():
    x = torch.tensor([2, 2])
    x[0] = 3
    return x
""",
        REMOVE,
        check('FileCheck().check("aten::copy_").run(graph)'),
        call(),
    ),
    _case(
        "aten_inplace/move_before_not_valid",
        """
def foo():
    y = torch.tensor([2, 2])
    z = y + 2
    y.add_(2)
    return y, z
""",
        REMOVE,
        check('FileCheck().check("aten::add_").run(graph)'),
        call(),
    ),
    _case(
        "aten_inplace/successful",
        """
def foo():
    x = torch.tensor([2, 2])
    x.add_(1)
    x.add_(3)
    y = x + 4
    return x, y
""",
        REMOVE,
        check('FileCheck().check_not("aten::add_").run(graph)'),
        call(),
    ),
    _case(
        "aten_inplace/intermediary_use",
        """
def foo():
    x = torch.tensor([2, 2])
    x.add_(1)
    y = x + 4
    x.add_(3)
    return x, y
""",
        check('FileCheck().check_count("aten::add_", 2).run(graph)'),
        REMOVE,
        check('FileCheck().check_count("aten::add_", 1).run(graph)'),
        call(),
    ),
    _case(
        "if_output",
        """
def foo(x, cond: bool):
    if cond:
        y = x + 5
    else:
        y = x + 2
    y.add_(4)
    return y
""",
        check('FileCheck().check("aten::add_").run(graph)'),
        REMOVE,
        check('FileCheck().check_not("aten::add_").run(graph)'),
        call("(torch.tensor(5), True)"),
        call("(torch.tensor(5), False)"),
    ),
    _case(
        "if_output_fail/appended_in_branch",
        """
def foo(cond: bool):
    li = []
    if cond:
        x = torch.tensor(1)
        li.append(x)
    else:
        x = torch.tensor(2)
    y = x.add_(2)
    return y, li
""",
        ("pass", "inline"),
        REMOVE,
        check('FileCheck().check("aten::add_").run(graph)'),
        call("(True,)"),
        call("(False,)"),
    ),
    _case(
        "if_output_fail/input_in_branch",
        """
def foo(cond: bool, y):
    if cond:
        x = y
    else:
        x = torch.tensor(2)
    z = x.add_(2)
    return z
""",
        ("pass", "inline"),
        REMOVE,
        check('FileCheck().check("aten::add_").run(graph)'),
        call("(True, torch.tensor(3))"),
        call("(False, torch.tensor(3))"),
    ),
    _case(
        "special_mapped_op/zero_fill",
        """
def foo():
    x = torch.tensor([2, 2])
    y = torch.tensor([2, 4])
    x.zero_()
    y.fill_(3)
    return x, y
""",
        REMOVE,
        check('FileCheck().check_not("aten::zero_").check_not("aten::fill_").run(graph)'),
        call(),
    ),
    _case(
        "special_mapped_op/fill_tensor",
        """
def foo():
    x = torch.tensor([2, 2])
    y = torch.tensor([2, 4])
    x.fill_(y)
    return x + x
""",
        REMOVE,
        check('FileCheck().check("aten::fill_").run(graph)'),
        call(),
    ),
    _case(
        "special_mapped_op/normal",
        "def foo():\n    return torch.rand(2, 1, 3, 4).normal_()\n",
        REMOVE,
        check('FileCheck().check_not("normal_").run(graph)'),
        ("shape", "()"),
    ),
    _case(
        "lists_append/comprehension_unrolled",
        "def foo():\n    return [i for i in range(5)]\n",
        ("pass", "loop_unrolling"),
        REMOVE,
        CONSTPROP,
        check('FileCheck().check("graph").check_next("Constant").check_next("return").run(graph)'),
        call(),
    ),
    _case(
        "lists_append/intermediary_use",
        """
def foo():
    a = [1, 2]
    b = len(a)
    a.append(3)
    return a
""",
        check('FileCheck().check("append").run(graph)'),
        REMOVE,
        check('FileCheck().check_not("append").run(graph)'),
        call(),
    ),
    _case(
        "lists_insert",
        """
def foo():
    a : List[int] = []
    a.insert(0, 1)
    a.insert(0, 2)
    a.insert(-10, 3)
    a.insert(-9, 4)
    a.insert(10, 5)
    return a
""",
        REMOVE,
        CONSTPROP,
        check('FileCheck().check("graph").check_next("Constant").check_next("return").run(graph)'),
        call(),
    ),
    _case(
        "list_indexing_removal/out_of_bounds",
        """
def foo():
    x = [1, 2]
    x[4] = 3
    return x
""",
        REMOVE,
        check('FileCheck().check("set_item").run(graph)'),
        call(),
    ),
    _case(
        "list_indexing_removal/unknown_index",
        """
def foo(y: int):
    x = [1, 2]
    x[y] = 3
    return x
""",
        REMOVE,
        check('FileCheck().check("set_item").run(graph)'),
        call("(1,)"),
        call("(-2,)"),
    ),
    _case(
        "list_indexing_removal/first_and_last",
        """
def foo():
    x = [1, 2, 3]
    x[0] = 4
    x[-1] = 0
    return x
""",
        REMOVE,
        check('FileCheck().check_not("set_item").run(graph)'),
        call(),
    ),
    _case(
        "list_indexing_removal/single",
        """
def foo():
    x = [1]
    x[-1] = 3
    return x
""",
        REMOVE,
        check('FileCheck().check_not("set_item").run(graph)'),
        call(),
    ),
    *[
        _case(
            f"common_pytorch_list_ops/{op}",
            _LIST_OP.format(op=op),
            REMOVE,
            check('FileCheck().check_not("aten::add_").run(graph)'),
            call(),
        )
        for op in ["cat", "stack", "vstack", "hstack", "dstack"]
    ],
    _case(
        "common_pytorch_list_ops/multiple_uses",
        """
def foo():
    x = torch.tensor([1, 2, 3, 4])
    x.add_(3)
    y = [x, x]
    return torch.cat(y), y
""",
        REMOVE,
        check('FileCheck().check("aten::add_").run(graph)'),
        call(),
    ),
]
