"""Names in graphs and printed code, as TorchScript gives them.

Values are named after the variable they are assigned to only when the name
is meaningful (TorchScript's `meaningfulName`: not `$...`, not `_` or `_`
followed by digits, the temporaries of printed code); the unchecked cast a
refinement inserts is named after the refined variable; a compiled Python
function's qualified name is `__torch__.<module>.<name>`.
"""

from __future__ import annotations

import pytest
from ts_frontend import script, script_source
from ts_frontend.environment import meaningful_name


@pytest.mark.parametrize(
    ("name", "meaningful"),
    [
        ("x", True),
        ("_x", True),
        ("__", True),
        ("_0a", True),
        ("_", False),
        ("_0", False),
        ("_12", False),
        ("$iter", False),
        ("", False),
    ],
)
def test_meaningful_name_follows_torchscript(name, meaningful):
    assert meaningful_name(name) is meaningful


def test_temporaries_of_printed_code_do_not_name_values():
    g = script_source("def f(x: int) -> int:\n    _0 = x + 1\n    _y = _0 * 2\n    return _y\n")
    text = g.graph.to_string(source_locations=False)
    assert "%_0" not in text
    assert "%_y" in text
    assert g(3) == 8


def test_a_refinement_cast_is_named_after_the_variable():
    g = script_source(
        "def f(x: Optional[int]) -> int:\n    if x is not None:\n        return x + 1\n    return 0\n"
    )
    cast = next(n for n in g.graph.all_nodes() if str(n.kind) == "prim::unchecked_cast")
    assert cast.output().debug_name.split(".")[0] == "x"
    assert (g(4), g(None)) == (5, 0)


def helper_for_names(x: int) -> int:
    return x + 1


def uses_helper(x: int) -> int:
    return helper_for_names(x) * 2


def test_a_compiled_python_function_has_torchscripts_qualified_name():
    f = script(uses_helper)
    assert f.qualified_name == f"__torch__.{__name__}.uses_helper"
    assert f(3) == 8


def test_a_function_of_source_text_keeps_its_plain_name():
    g = script_source("def g(x: int) -> int:\n    return x\n")
    assert g.qualified_name == "g"
