"""Bad programs: each raises a FrontendError pointing at the culprit's exact line and column.

Programs are compiled from source strings (line 1 is the blank line after the
opening quotes, so `def` is on line 2). Columns are 1-based. Some errors
come with a hint for a common mistake; a few tests compile Python functions
of this file to check that errors point into the real file and show the
chain of calls that led to the culprit.
"""

from __future__ import annotations

import typing

import numpy
import pytest
import ts_runtime
from ts_frontend import (
    CallError,
    FrontendError,
    FrontendTypeError,
    NotSupportedError,
    ParseError,
    UndefinedNameError,
    UninitializedVariableError,
    script,
    script_source,
)

NAMESPACE = {
    "torch": ts_runtime,
    "List": list,
    "Optional": typing.Optional,
    "CONFIG": object(),
    "np": numpy,
}

# name: (source, error class, line, column, has a hint)
BAD: dict[str, tuple[str, type[FrontendError], int, int, bool]] = {
    "undefined_name": (
        """
def f(x):
    return x + y
""",
        UndefinedNameError,
        3,
        16,
        True,
    ),
    "try_block": (
        """
def f(x):
    try:
        x = x + 1
    except Exception:
        pass
    return x
""",
        NotSupportedError,
        3,
        5,
        False,
    ),
    "lambda": (
        """
def f(x):
    g = lambda v: v + 1
    return g(x)
""",
        NotSupportedError,
        3,
        9,
        False,
    ),
    "nested_def": (
        """
def f(x):
    def g(v):
        return v
    return g(x)
""",
        NotSupportedError,
        3,
        5,
        False,
    ),
    "generator_expression": (
        """
def f(xs: List[int]):
    return sum(v for v in xs)
""",
        ParseError,
        3,
        16,
        False,
    ),
    "set_literal": (
        """
def f(x: int):
    return {x, 1}
""",
        NotSupportedError,
        3,
        12,
        False,
    ),
    "global_statement": (
        """
def f(x: int):
    global G
    return x
""",
        NotSupportedError,
        3,
        5,
        False,
    ),
    "star_args": (
        """
def f(*xs):
    return 1
""",
        ParseError,
        2,
        7,
        False,
    ),
    "syntax_error": (
        """
def f(x: int):
    return x +
""",
        ParseError,
        3,
        15,
        False,
    ),
    "branch_types_differ": (
        """
def f(c: bool):
    if c:
        y = 1
    else:
        y = "one"
    return y
""",
        FrontendTypeError,
        3,
        5,
        True,
    ),
    "reassign_other_type": (
        """
def f(c: bool):
    y = 1
    if c:
        y = "one"
    return y
""",
        FrontendTypeError,
        5,
        9,
        True,
    ),
    "too_many_arguments": (
        """
def f(x):
    return torch.tanh(x, x)
""",
        CallError,
        3,
        12,
        False,
    ),
    "wrong_argument_type": (
        """
def f(x):
    return torch.tanh("x")
""",
        CallError,
        3,
        12,
        False,
    ),
    "unknown_keyword": (
        """
def f(x):
    return torch.sum(x, dims=1)
""",
        CallError,
        3,
        12,
        False,
    ),
    "return_type_mismatch": (
        """
def f(x: int) -> str:
    return x
""",
        FrontendTypeError,
        3,
        12,
        False,
    ),
    "inconsistent_returns": (
        """
def f(c: bool):
    if c:
        return 1
    return "one"
""",
        FrontendTypeError,
        5,
        12,
        True,
    ),
    "missing_return": (
        """
def f(x: int) -> int:
    if x > 0:
        return x
""",
        FrontendTypeError,
        2,
        1,
        False,
    ),
    "defined_in_one_branch": (
        """
def f(c: bool):
    if c:
        y = 1
    return y
""",
        UninitializedVariableError,
        5,
        12,
        True,
    ),
    "defined_in_loop_only": (
        """
def f(n: int):
    for i in range(n):
        last = i
    return last
""",
        UndefinedNameError,
        5,
        12,
        True,
    ),
    "break_outside_loop": (
        """
def f(x: int):
    break
""",
        FrontendError,
        3,
        5,
        False,
    ),
    "continue_in_unrolled_loop": (
        """
def f(x: int):
    for v in (1, 2):
        if v == x:
            continue
    return x
""",
        NotSupportedError,
        5,
        13,
        False,
    ),
    "annotation_mismatch": (
        """
def f(x: int):
    y: str = x
    return y
""",
        FrontendTypeError,
        3,
        14,
        False,
    ),
    "mixed_list": (
        """
def f(x: int):
    return [x, "one"]
""",
        FrontendTypeError,
        3,
        12,
        True,
    ),
    "unknown_annotation": (
        """
def f(x: Foo):
    return x
""",
        FrontendTypeError,
        2,
        10,
        True,
    ),
    "unknown_tensor_method": (
        """
def f(x):
    return x.frobnicate()
""",
        NotSupportedError,
        3,
        12,
        False,
    ),
    "tuple_index_out_of_range": (
        """
def f(x: int):
    t = (x, x)
    return t[5]
""",
        FrontendTypeError,
        4,
        14,
        False,
    ),
    "unpack_mismatch": (
        """
def f(x: int):
    a, b = (x, x, x)
    return a
""",
        FrontendTypeError,
        3,
        12,
        False,
    ),
    "unannotated_int_argument": (
        """
def f(x, n):
    for i in range(n):
        x = x + 1
    return x
""",
        FrontendTypeError,
        3,
        20,
        True,
    ),
    "call_non_callable": (
        """
def f(x: int):
    return x(1)
""",
        NotSupportedError,
        3,
        12,
        False,
    ),
    "optional_without_refinement": (
        """
def f(x: Optional[int]):
    return x + 1
""",
        CallError,
        3,
        12,
        True,
    ),
    "raise_non_exception": (
        """
def f(x: int):
    raise x
""",
        NotSupportedError,
        3,
        11,
        False,
    ),
    "delete_undefined": (
        """
def f(x: int):
    del y
    return x
""",
        FrontendError,
        3,
        9,
        False,
    ),
    "python_object_method": (
        """
def f(x):
    return CONFIG.scale(x)
""",
        NotSupportedError,
        3,
        12,
        True,
    ),
    "library_function": (
        """
def f(x):
    return np.sum(x)
""",
        NotSupportedError,
        3,
        12,
        True,
    ),
}


def test_at_least_25_bad_programs():
    assert len(BAD) >= 25


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_program_points_at_the_culprit(name):
    source, cls, line, column, hinted = BAD[name]
    with pytest.raises(FrontendError) as info:
        script_source(source, namespace=NAMESPACE)
    err = info.value
    assert type(err) is cls, f"{type(err).__name__}: {err}"
    assert (err.line, err.column) == (line, column), str(err)
    assert bool(err.hint) == hinted, str(err)
    text = str(err)
    # the message shows the offending line with its span underlined
    offending = source.split("\n")[line - 1]
    assert offending in text
    marker_line = text.split(offending, 1)[1].split("\n")[1]
    assert marker_line.strip()[0] in "^~"
    assert (
        marker_line.index(marker_line.strip()[0]) - (len(marker_line) - len(marker_line.lstrip()))
        >= 0
    )


def test_hint_for_unannotated_argument_names_it():
    with pytest.raises(FrontendTypeError, match="range") as info:
        script_source(BAD["unannotated_int_argument"][0], namespace=NAMESPACE)
    assert "'n' has no type annotation" in info.value.hint


# -- errors in Python functions point into this file


def helper_with_bad_call(x):
    return torch_namespace.tanh(x, 1, 2)


def caller_of_helper(x):
    return helper_with_bad_call(x) * 2


torch_namespace = ts_runtime


def test_error_in_a_called_function_shows_the_call_chain():
    with pytest.raises(CallError) as info:
        script(caller_of_helper)
    err = info.value
    assert err.range.source.filename == __file__
    assert err.line == helper_with_bad_call.__code__.co_firstlineno + 1
    assert err.column == 12
    assert [(callee, caller) for callee, caller, _ in err.call_stack] == [
        ("helper_with_bad_call", "caller_of_helper")
    ]
    site = err.call_stack[0][2]
    assert site.file_line_col()[1] == caller_of_helper.__code__.co_firstlineno + 1
    text = str(err)
    assert "'helper_with_bad_call' is being compiled because 'caller_of_helper' calls it" in text


def uses_branch_types(flag: bool):
    if flag:
        value = 1
    else:
        value = 2.5
    return value + 1


def test_branch_type_mismatch_in_a_file_points_at_the_if():
    with pytest.raises(FrontendTypeError) as info:
        script(uses_branch_types)
    err = info.value
    assert err.line == uses_branch_types.__code__.co_firstlineno + 1
    assert err.column == 5
    assert "Union" in err.hint
    assert f"{__file__}:{err.line}:5" in str(err)
