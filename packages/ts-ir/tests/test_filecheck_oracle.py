"""ts_ir's FileCheck passes and fails where `torch.testing.FileCheck` does.

One deliberate difference is left out of the table: like LLVM's FileCheck, ours does not
let two CHECK-DAG patterns match the same occurrence, where torch's does.
"""

import pytest
from ts_ir import FileCheck, FileCheckError

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.oracle

TEXT = """graph(%x : Tensor):
  %1 : int = prim::Constant[value=1]()
  %2 : int = prim::Constant[value=2]()
  %y : Tensor = aten::add(%x, %x, %1)
  %z : Tensor = aten::mul(%y, %2)
  return (%z)
"""

CASES = [
    [("check", "aten::add"), ("check_next", "aten::mul")],
    [("check", "%1 : int"), ("check_next", "aten::add")],
    [("check", "graph"), ("check_next", "aten::add")],
    [("check_next", "%1")],
    [("check", "return"), ("check_next", "anything")],
    [("check", "aten::add"), ("check_same", "%1)")],
    [("check", "aten::add"), ("check_same", "%y :")],
    [("check", "aten::add"), ("check_same", "%2")],
    [("check_same", "graph")],
    [("check", "Constant"), ("check_same", "value=1"), ("check_next", "value=2")],
    [("check", "graph"), ("check_not", "prim::Constant"), ("check", "aten::add")],
    [("check", "aten::add"), ("check_not", "prim::Constant")],
    [("check", "aten::add"), ("check_not", "return")],
    [("check", "%1"), ("check_not", "aten::add"), ("check", "aten::add")],
    [("check_not", "aten::sub")],
    [("check_count", "prim::Constant", 2, False)],
    [("check_count", "prim::Constant", 3, False)],
    [("check_count", "%x", 2, True)],
    [("check_count", "%x", 3, True)],
    [("check_count", "prim::Constant", 2, True), ("check", "aten::add")],
    [("check_count", "%x", 2, False), ("check_same", "%1")],
    [("check_count", "aten::sub", 0, True)],
    [("check_count", "aten::add", 0, True)],
    [("check_dag", "aten::mul"), ("check_dag", "aten::add"), ("check_next", "return")],
    [("check_dag", "aten::mul"), ("check_dag", "prim::Constant"), ("check", "aten::add")],
    [("check_dag", "prim::Constant"), ("check_dag", "prim::Constant")],
    [("check", "graph"), ("check_not", "%2"), ("check_dag", "aten::mul"), ("check_dag", "%y")],
    [("check", "prim::Constant"), ("check_not", "aten::add"), ("check_dag", "aten::mul")],
    [("check_dag", "%1 : int"), ("check_same", "Constant")],
    [("check_regex", r"%\d+ : int"), ("check_next", "prim::Constant")],
    [("check_regex", r"value=\d{2}")],
]


def build(file_check, case):
    for name, *args in case:
        if name == "check_count":
            pattern, count, exactly = args
            file_check = file_check.check_count(pattern, count, exactly=exactly)
        else:
            file_check = getattr(file_check, name)(*args)
    return file_check


def passes(file_check, errors):
    try:
        file_check.run(TEXT)
    except errors:
        return False
    return True


@pytest.mark.parametrize("case", CASES, ids=lambda case: " ".join(f"{c[0]}:{c[1]}" for c in case))
def test_agrees_with_torch(case):
    expected = passes(build(torch.testing.FileCheck(), case), RuntimeError)
    assert passes(build(FileCheck(), case), FileCheckError) == expected


def test_the_table_holds_passes_and_failures():
    results = [passes(build(FileCheck(), case), FileCheckError) for case in CASES]
    assert any(results) and not all(results)
