"""The Python printer (`.code`) and importing printed source back (`import_source`).

Expected texts are what PyTorch 2.13's `torch.jit.script(f).code` prints for
the same functions (recorded in integration_tests/corpus/programs.jsonl).
"""

from __future__ import annotations

from typing import Any

import pytest
import ts_runtime as torch
from ts_frontend import script
from ts_frontend.import_source import (
    SourceImporter,
    parse_archive_source,
    read_class,
)
from ts_frontend.python_printer import (
    ConstantTable,
    PrintError,
    print_for_archive,
    qualified_function_name,
)


def gelu_approx(x):
    return 0.5 * x * (1.0 + torch.tanh(0.7978845608 * (x + 0.044715 * x * x * x)))


def break_loop(n: int) -> int:
    acc = 0
    for i in range(n):
        if i * i > 20:
            break
        acc += i
    return acc


def optional_refine(x: torch.Tensor, scale: float | None = None) -> torch.Tensor:
    if scale is None:
        return x
    return x * scale


def dict_ops(keys: list[str], vals: list[int]) -> tuple[int, int, bool]:
    d: dict[str, int] = {}
    for k, v in zip(keys, vals, strict=False):
        d[k] = d.get(k, 0) + v
    total = 0
    for k in sorted(d.keys()):
        total = total * 10 + d[k]
    return total, len(d), "b" in d


EXPECTED = {
    gelu_approx: """\
def gelu_approx(x: Tensor) -> Tensor:
  _0 = torch.mul(x, 0.5)
  _1 = torch.mul(torch.mul(x, 0.044714999999999998), x)
  _2 = torch.mul(torch.add(x, torch.mul(_1, x)), 0.79788456080000003)
  _3 = torch.mul(_0, torch.add(torch.tanh(_2), 1.))
  return _3
""",
    break_loop: """\
def break_loop(n: int) -> int:
  acc = 0
  _0 = 0
  _1 = torch.gt(n, 0)
  while _1:
    if torch.gt(torch.mul(_0, _0), 20):
      _2, _3 = False, acc
    else:
      _2, _3 = True, torch.add(acc, _0)
    _4 = torch.add(_0, 1)
    _1, acc, _0 = torch.__and__(torch.lt(_4, n), _2), _3, _4
  return acc
""",
}


@pytest.mark.parametrize("fn", list(EXPECTED), ids=lambda f: f.__name__)
def test_code_is_torchscripts(fn) -> None:
    assert script(fn).code == EXPECTED[fn]


def importer_for(fn: Any) -> tuple[SourceImporter, str, str]:
    constants = ConstantTable()
    source, deps = print_for_archive(fn, constants)
    root = qualified_function_name(fn)
    functions = {root: parse_archive_source(source, root)[0]}
    for q, dep in deps.items():
        dep_source, _ = print_for_archive(dep, constants)
        functions[q] = parse_archive_source(dep_source, q)[0]
    return (
        SourceImporter(classes={}, functions=functions, constants=constants.values),
        source,
        root,
    )


@pytest.mark.parametrize("py", [gelu_approx, break_loop, optional_refine, dict_ops])
def test_printed_source_imports_back_and_prints_the_same(py) -> None:
    fn = script(py)
    importer, source, name = importer_for(fn)
    imported = importer.function(name)
    again, _ = print_for_archive(imported, ConstantTable())
    assert again == source
    assert str(imported.schema) == str(fn.schema)


def test_imported_code_runs() -> None:
    fn = script(dict_ops)
    importer, _, name = importer_for(fn)
    imported = importer.function(name)
    assert imported(["b", "a", "b"], [1, 2, 3]) == fn(["b", "a", "b"], [1, 2, 3]) == (24, 2, True)


def test_torchscript_class_syntax_is_read() -> None:
    text = """\
class Linear(Module):
  __parameters__ = ["weight", "bias", ]
  __buffers__ = []
  weight : Tensor
  bias : Tensor
  training : bool
  out_features : Final[int] = 2
  def forward(self: __torch__.m.Linear,
    input: Tensor) -> Tensor:
    return torch.add(torch.matmul(input, torch.t(self.weight)), self.bias)
"""
    version, cls = parse_archive_source("import __torch__.m\nop_version_set = 8\n" + text, "m.py")
    assert version.targets[0].id == "op_version_set"
    spec = read_class(cls, "__torch__.m.Linear", lambda e: e.value)
    assert spec.is_module and spec.parameters == {"weight", "bias"}
    assert spec.constants == {"out_features": 2} and list(spec.methods) == ["forward"]
    importer = SourceImporter(classes={"__torch__.m.Linear": spec}, functions={})
    importer.compile_all()
    forward = importer.method("__torch__.m.Linear", "forward")
    assert "aten::matmul" in str(forward.graph)


def test_python_calls_cannot_be_printed_for_archives() -> None:
    from ts_frontend import ignore

    @ignore
    def py(x: torch.Tensor) -> torch.Tensor:
        return x

    def f(x):
        return py(x)

    with pytest.raises(PrintError, match="Python"):
        print_for_archive(script(f), ConstantTable())


def test_unknown_names_in_printed_code_are_errors() -> None:
    from ts_frontend import FrontendError

    (d,) = parse_archive_source("def f(x: Tensor) -> Tensor:\n  return torch.no_such_op(x)\n", "f")
    with pytest.raises(FrontendError, match="aten::no_such_op"):
        SourceImporter(classes={}, functions={"__torch__.f": d}).function("__torch__.f")
    (d,) = parse_archive_source("def f(x: Tensor) -> Tensor:\n  return CONSTANTS.c4\n", "f")
    with pytest.raises(FrontendError, match=r"CONSTANTS\.c4 does not exist"):
        SourceImporter(classes={}, functions={"__torch__.f": d}).function("__torch__.f")
    (d,) = parse_archive_source("def f(x: Tensor) -> Tensor:\n  return __import__(x)\n", "f")
    with pytest.raises(FrontendError, match="__import__"):
        SourceImporter(classes={}, functions={"__torch__.f": d}).function("__torch__.f")


def test_imported_classes_answer_everything_module_value_asks() -> None:
    """`ModuleValue` asks a class's `ModuleInfo`; the importer's must answer every question."""
    from ts_frontend.import_source import ClassSpec
    from ts_frontend.module_value import ModuleInfo

    asked = [n for n, v in vars(ModuleInfo).items() if isinstance(v, property)]
    assert asked
    importer = SourceImporter(
        classes={"__torch__.m.C": ClassSpec("__torch__.m.C", True, attributes={"n": "int"})},
        functions={},
    )
    concrete = importer.concrete("__torch__.m.C", None)
    missing = [n for n in asked if not hasattr(concrete, n)]
    assert missing == []
