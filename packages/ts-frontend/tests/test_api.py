"""The public API: script(), script_source(), CompilationUnit, decorators, ScriptFunction."""

from __future__ import annotations

import pytest
import ts_runtime as torch
from ts_frontend import (
    CompilationUnit,
    NotSupportedError,
    ScriptFunction,
    ignore,
    is_scripting,
    script,
    script_source,
    unused,
)


def test_compilation_unit_functions_call_each_other():
    cu = CompilationUnit(
        "def double(x: int) -> int:\n"
        "    return helper(x) * 2\n"
        "def helper(x: int) -> int:\n"
        "    return x + 1\n"
    )
    assert cu.double(3) == 8
    assert isinstance(cu.helper, ScriptFunction)
    assert 'prim::Constant[name="helper"]' in str(cu.double.graph)
    assert "prim::CallFunction" not in str(cu.double.inlined_graph)


def test_recursion_is_reported():
    with pytest.raises(NotSupportedError, match="recursive"):
        CompilationUnit("def f(n: int) -> int:\n    return f(n - 1)\n")


def test_script_of_a_string_and_of_a_script_function():
    fn = script("def g(x: float) -> float:\n    return x * 2.0\n")
    assert fn(1.5) == 3.0
    assert script(fn) is fn


def python_only(x: int) -> int:
    return int(str(x) + "0")


@ignore
def ignored(x: int) -> int:
    return python_only(x)


def calls_ignored(x: int) -> int:
    return ignored(x) + 1


@unused
def not_compiled(x: int) -> int:
    return {x}.pop()


def calls_unused(x: int, flag: bool) -> int:
    if flag:
        return not_compiled(x)
    return x


def test_ignored_functions_run_in_python():
    assert script(calls_ignored)(4) == 41


def test_unused_functions_raise_when_called():
    fn = script(calls_unused)
    assert fn(3, False) == 3
    with pytest.raises(RuntimeError, match="unused"):
        fn(3, True)


def scripting_flag() -> bool:
    return is_scripting()


def test_is_scripting():
    assert scripting_flag() is False
    assert script(scripting_flag)() is True


def test_code_is_python_like():
    fn = script_source(
        "def f(x, n: int):\n    for i in range(n):\n        x = x * 2\n    return x\n"
    )
    assert fn.code == (
        "def f(x: Tensor,\n"
        "    n: int) -> Tensor:\n"
        "  x0 = x\n"
        "  for i in range(n):\n"
        "    x0 = torch.mul(x0, 2)\n"
        "  return x0\n"
    )


def test_calls_check_arguments():
    fn = script_source("def f(x, n: int = 2):\n    return x * n\n")
    assert fn(torch.ones(2), n=3).tolist() == [3.0, 3.0]
    with pytest.raises(TypeError):
        fn(torch.ones(2), "three")
