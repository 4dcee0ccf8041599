"""Inliner cases: PyTorch's test/cpp/jit/test_inliner.cpp (steps as in `scripted.py`)."""

from __future__ import annotations

from scripted import Case

_SOURCE = """
def foo1(x):
    print("one")
    return x

def foo2(x):
    print("two")
    return foo1(x)

def foo3(x):
    print("three")
    return foo2(x)
"""

CASES: list[Case] = [
    Case(
        "Basic",
        _SOURCE,
        "foo3",
        (
            ("check", 'FileCheck().check_count("prim::Print", 1, exactly=True).run(graph)'),
            ("pass", "inline"),
            ("check", 'FileCheck().check_count("prim::Print", 3).run(graph)'),
            ("check", 'FileCheck().check_not("prim::CallFunction").run(graph)'),
            ("call", "(torch.ones(2),)"),
        ),
        origin="InlinerTest",
    ),
]
