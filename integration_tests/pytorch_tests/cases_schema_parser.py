"""Schema parser cases: PyTorch's `SchemaParserTest`s (test/cpp/jit/test_misc.cpp) and the
parsing cases of test/test_function_schema.py.

Each case is a schema and what the test asserts of it, as data: for
arguments by position, `N` (a fixed list size), `is_out`, and the alias
annotation (before sets, after sets, whether it writes), and for a list
argument its contained alias annotation; `error` for a schema that must
not parse. Everything else PyTorch shows of the parsed schema (its printed
form, each argument's type) is recorded by `record.py` and compared too.
"""

from __future__ import annotations

from typing import Any

CASES: list[tuple[str, str, dict[str, Any]]] = [
    ("NestedArrays/fixed", "at::what(int[][4] foo) -> ()", {"args": {0: {"N": 4}}}),
    ("NestedArrays/nested", "at::what(int[][] foo) -> ()", {}),
    (
        "OutVariant/with_out",
        "at::foo(Tensor self, *, Tensor(a!) f, Tensor(b!) l) -> (Tensor(a!) f, Tensor(b!) l)",
        {"args": {1: {"is_out": True}, 2: {"is_out": True}}},
    ),
    (
        "OutVariant/without_out",
        "at::foo(Tensor self, *, int scalar) -> (int)",
        {"args": {0: {"is_out": False}, 1: {"is_out": False}}},
    ),
    (
        "OutVariant/write_is_not_out",
        "aten::ne_.Scalar(Tensor(a!) self, Scalar other) -> (Tensor(a!))",
        {"args": {0: {"is_out": False}, 1: {"is_out": False}}},
    ),
    ("NamedReturns/written", "at::what(Tensor! i_will_be_written_to) -> ()", {}),
    (
        "NamedReturns/names",
        "at::what() -> (Tensor the_return, Tensor the_return2)",
        {"returns": ["the_return", "the_return2"]},
    ),
    ("Futures", "at::what(Future(int) foo) -> ()", {}),
    ("AnnotatedAliasSets", "at::what(Tensor(a) foo) -> (Tensor(a))", {}),
    (
        "TensorListAnnotatedAliasSets",
        "at::foo(Tensor(a!) self, Tensor(b!)[] out) -> ()",
        {
            "args": {
                0: {"alias": (["a"], None, True)},
                1: {"alias": ([], None, True), "contained": [(["b"], None, True)]},
            }
        },
    ),
    ("AnnotatedAliasWithoutBeforeSet", "at::foo(Tensor(!) self) -> Tensor", {"error": True}),
    (
        "BeforeAfterSets",
        "at::what(Tensor(b|c)[](a!) list, Tensor(c) element) -> (Tensor(b|c)[](a!))",
        {
            "args": {
                0: {"alias": (["a"], None, True), "contained": [(["b", "c"], ["b", "c"], False)]}
            }
        },
    ),
    (
        "BeforeAfterSets2",
        "at::what(Tensor(b -> b|c)[](a!) list, Tensor(c) element) -> (Tensor(b|c)[](a!))",
        {"args": {0: {"alias": (["a"], ["a"], True), "contained": [(["b"], ["b", "c"], False)]}}},
    ),
]

# test/test_function_schema.py: out arguments, printing back, equality (hash) of schemas
CASES += [
    (
        "test_out_schema/out",
        "any.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)",
        {"args": {1: {"is_out": True}}},
    ),
    (
        "test_out_schema/not_out",
        "any.not_out(Tensor self, Tensor b) -> Tensor",
        {"args": {1: {"is_out": False}}},
    ),
    (
        "test_string_optional_parameter_default_value",
        'example::op(str? order="NCHW") -> (Tensor)',
        {"reparse": True},
    ),
]

#: test_hash_schema: pairs of schemas that are equal (True) or different (False)
EQUALITY: list[tuple[str, str, bool]] = [
    ("any.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", "any.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", True),
    ("any.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", "any.not_out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", False),
    ("any.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", "foo(Tensor self, *, int a, Tensor(a!) out) -> Tensor(a!)", False),
    ("foo(Tensor self, int a = 2) -> Tensor(a!)", "foo(Tensor self, int a = 3) -> Tensor(a!)", False),
    ("foo(Tensor self, int a = 2) -> Tensor(a!)", "foo(Tensor self, *, int a = 2) -> Tensor(a!)", False),
    ("foo(Tensor self, int a = 2) -> Tensor(a!)", "foo(Tensor(a!) self, int a = 2) -> Tensor(a!)", False),
    ("foo(Tensor(a!) self, int a = 2) -> Tensor(a!)", "foo(Tensor(b!) self, int a = 2) -> Tensor(a!)", False),
    (
        "foo(Tensor self, *, int a, int b=1, Tensor(a!) out, Tensor(b!) b) -> Tensor(a!)",
        "foo(Tensor self, *, int a, int b=1, Tensor(a!) out, Tensor(b!) b) -> Tensor(b!)",
        False,
    ),
    (
        "foo(Tensor self, *, int a, int b=1, Tensor(a!) out, Tensor(b!) b) -> Tensor(a!)",
        "foo(Tensor self, *, int a, int b=1, Tensor(b!) out, Tensor(a!) b) -> Tensor(a!)",
        False,
    ),
]  # fmt: skip
