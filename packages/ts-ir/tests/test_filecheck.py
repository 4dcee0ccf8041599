"""ts_ir.testing: FileCheck and checks written as comments, including IR files with checks."""

import gc
from pathlib import Path

import pytest
from ts_ir import (
    FileCheck,
    FileCheckError,
    FileCheckNotRunWarning,
    parse_ir,
    run_checks_from_comments,
)

TEXT = """graph(%x : Tensor):
  %1 : int = prim::Constant[value=1]()
  %2 : int = prim::Constant[value=2]()
  %y : Tensor = aten::add(%x, %x, %1)
  %z : Tensor = aten::mul(%y, %2)
  return (%z)
"""


def fails(check, text=TEXT):
    with pytest.raises(FileCheckError) as info:
        check.run(text)
    assert isinstance(info.value, AssertionError)
    return info.value


def test_a_passing_chain():
    FileCheck().check("aten::add").check_next("aten::mul").check_same("(%y, %2)").check_not(
        "aten::sub"
    ).check("return").run(TEXT)


def test_check_is_ordered():
    FileCheck().check("prim::Constant").check("aten::add").run(TEXT)
    err = fails(FileCheck().check("aten::add").check("prim::Constant"))
    assert err.directive == "CHECK: prim::Constant"
    assert err.reason == "not found after the previous match"


def test_run_accepts_a_graph():
    FileCheck().check("aten::mul").run(parse_ir(TEXT))


def test_check_next_means_the_following_line():
    FileCheck().check("%1 : int").check_next("%2 : int").run(TEXT)
    err = fails(FileCheck().check("%1 : int").check_next("aten::add"))
    assert err.reason == "the match is not on the expected line"
    assert str(err).startswith('Expected to not find "\\n" but found it')
    err = fails(FileCheck().check("return").check_next("anything"), TEXT.rstrip("\n"))
    assert err.reason == "there is no line after the previous match"
    # the match must be on the next line even when the pattern occurs later
    fails(FileCheck().check("graph").check_next("aten::add"))


def test_check_same_means_the_rest_of_the_line():
    FileCheck().check("aten::add").check_same("%1)").run(TEXT)
    err = fails(FileCheck().check("aten::add").check_same("%2)"))
    assert err.reason == "the match is not on the expected line"
    # only after the previous match
    fails(FileCheck().check("aten::add").check_same("%y :"))


def test_check_not_between_matches_and_at_the_end():
    FileCheck().check("aten::add").check_not("prim::Constant").check("return").run(TEXT)
    err = fails(FileCheck().check("graph").check_not("prim::Constant").check("aten::add"))
    assert err.directive == "CHECK-NOT: prim::Constant"
    assert err.reason == "found where it must not be"
    assert err.position == TEXT.index("prim::Constant")
    FileCheck().check_not("aten::sub").run(TEXT)
    fails(FileCheck().check("aten::add").check_not("return"))
    # the forbidden region ends where the next match starts
    FileCheck().check("%1").check_not("aten::add").check("aten::add").run(TEXT)


def test_check_count():
    FileCheck().check_count("prim::Constant", 2).run(TEXT)
    FileCheck().check_count("prim::Constant", 2, exactly=True).check("aten::add").run(TEXT)
    FileCheck().check_count("%x", 2).check_same("%1").run(TEXT)
    err = fails(FileCheck().check_count("prim::Constant", 3))
    assert err.directive == "CHECK-COUNT-3: prim::Constant"
    assert err.reason == "found only 2 of 3 occurrences"
    err = fails(FileCheck().check_count("%x", 2, exactly=True))
    assert err.directive == "CHECK-COUNT-EXACTLY-2: %x"
    assert err.reason == "found more than 2 occurrences"
    assert err.position == TEXT.index("%x, %1")
    FileCheck().check_count("aten::sub", 0, exactly=True).run(TEXT)
    fails(FileCheck().check_count("aten::add", 0, exactly=True))
    with pytest.raises(ValueError):
        FileCheck().check_count("x", 0)
    with pytest.raises(ValueError):
        FileCheck().check_count("x", -1, exactly=True)


def test_check_dag_matches_in_any_order():
    FileCheck().check_dag("aten::mul").check_dag("aten::add").check_next("return").run(TEXT)
    FileCheck().check("graph").check_dag("%2 : int").check_dag("%1 : int").check("aten::add").run(
        TEXT
    )
    # the next check starts after the last of the group
    fails(FileCheck().check_dag("aten::mul").check_dag("prim::Constant").check("aten::add"))
    err = fails(FileCheck().check_dag("aten::add").check_dag("aten::sub"))
    assert err.directive == "CHECK-DAG: aten::sub"


def test_check_dag_matches_do_not_overlap():
    FileCheck().check_dag("prim::Constant").check_dag("prim::Constant").run(TEXT)
    err = fails(
        FileCheck()
        .check_dag("prim::Constant")
        .check_dag("prim::Constant")
        .check_dag("prim::Constant")
    )
    assert "apart from the other CHECK-DAG matches" in err.reason


def test_check_not_before_a_dag_group():
    FileCheck().check("%2 : int").check_not("aten::sub").check_dag("aten::mul").check_dag(
        "aten::add"
    ).run(TEXT)
    fails(FileCheck().check("graph").check_not("%2").check_dag("aten::mul").check_dag("aten::add"))


def test_check_regex():
    FileCheck().check_regex(r"%\d+ : int = prim::Constant\[value=2\]").check("aten::add").run(TEXT)
    err = fails(FileCheck().check_regex(r"value=\d{2}"))
    assert err.directive == r"CHECK-REGEX: value=\d{2}"


def test_a_filecheck_needs_checks():
    with pytest.raises(ValueError, match="no checks"):
        FileCheck().run(TEXT)
    with pytest.raises(ValueError, match="non-empty"):
        FileCheck().check("")


def test_the_failure_message_shows_the_directive_and_the_text_around_it():
    err = fails(FileCheck().check("%1 : int").check_next("aten::add"))
    # as PyTorch's message starts, then where: the newline before the match
    assert str(err) == (
        'Expected to not find "\\n" but found it\n'
        "From CHECK-NEXT: aten::add\n"
        "  the match is not on the expected line\n"
        "  in the input, line 3, column 39:\n"
        "  1 | graph(%x : Tensor):\n"
        "  2 |   %1 : int = prim::Constant[value=1]()\n"
        "  3 |   %2 : int = prim::Constant[value=2]()\n"
        "    |                                       ^\n"
        "  4 |   %y : Tensor = aten::add(%x, %x, %1)\n"
        "  5 |   %z : Tensor = aten::mul(%y, %2)"
    )


def test_the_caret_marks_the_column():
    err = fails(FileCheck().check("aten::mul").check_not("%z"))
    lines = str(err).split("\n")
    (caret,) = [i for i, line in enumerate(lines) if line.endswith("^")]
    assert lines[caret - 1] == "  6 |   return (%z)"
    assert lines[caret].index("^") == lines[caret - 1].index("%z")
    assert lines[0] == 'Expected to not find "%z" but found it'
    assert "line 6, column 11" in lines[3]


def test_repr_lists_the_checks():
    fc = FileCheck().check("a").check_count("b", 2, exactly=True)
    assert repr(fc) == "FileCheck(CHECK: a; CHECK-COUNT-EXACTLY-2: b)"
    # dropped without running, it says so, as PyTorch's does
    with pytest.warns(FileCheckNotRunWarning, match="You have not run this instance of FileCheck"):
        del fc
        gc.collect()


CHECKED_SOURCE = """
def test_something():
    # CHECK-DAG: prim::Constant[value=2]
    # CHECK-DAG: prim::Constant[value=1]
    # CHECK: aten::add
    # CHECK-SAME: %x, %x
    # CHECK-NEXT:   %z : Tensor = aten::mul
    # CHECK-NOT: aten::sub
    z = 1  # CHECK: return (%z)
"""


def test_run_checks_from_comments():
    run_checks_from_comments(CHECKED_SOURCE, TEXT)
    # the constants come before aten::mul, so CHECK-DAG after it cannot match
    lines = CHECKED_SOURCE.split("\n")
    reordered = "\n".join(lines[:2] + lines[4:8] + lines[2:4])
    with pytest.raises(FileCheckError) as info:
        run_checks_from_comments(reordered, TEXT)
    assert info.value.directive == "CHECK-DAG: prim::Constant[value=2] (line 7 of the checks)"
    with pytest.raises(FileCheckError, match="CHECK: return"):
        run_checks_from_comments(CHECKED_SOURCE, TEXT.replace("return", "retrun"))


def test_counts_from_comments():
    run_checks_from_comments("# CHECK-COUNT-2: prim::Constant\n# CHECK-NEXT: aten::add", TEXT)
    run_checks_from_comments("#CHECK-COUNT-EXACTLY-1: aten::mul", TEXT)
    with pytest.raises(FileCheckError, match="CHECK-COUNT-EXACTLY-1: %x"):
        run_checks_from_comments("# CHECK-COUNT-EXACTLY-1: %x", TEXT)


def test_comment_checks_are_validated():
    with pytest.raises(ValueError, match="line 2: unknown FileCheck directive CHECK-NXT"):
        run_checks_from_comments("# CHECK: a\n# CHECK-NXT: b\n", TEXT)
    with pytest.raises(ValueError, match="no checks"):
        run_checks_from_comments("# nothing to check here\n", TEXT)
    # as in PyTorch: one space after the colon, then the pattern, its spaces included
    with pytest.raises(ValueError, match="could not parse check"):
        run_checks_from_comments("# CHECK:\n", TEXT)
    with pytest.raises(ValueError, match="could not parse check"):
        run_checks_from_comments("# CHECK:aten::add\n", TEXT)
    with pytest.raises(FileCheckError, match='Expected to find "aten::add " but did not find it'):
        run_checks_from_comments("# CHECK: aten::add \n", TEXT)
    run_checks_from_comments("# CHECK:   %y\n", TEXT)  # the pattern is "  %y"


IR_FILES = sorted((Path(__file__).parent / "filecheck").glob("*.ir"))


@pytest.mark.parametrize("path", IR_FILES, ids=[p.name for p in IR_FILES])
def test_ir_files_with_checks(path):
    """Each file is IR text with its expected printed form written as CHECK comments."""
    text = path.read_text()
    g = parse_ir(text, filename=path.name)
    g.lint()
    printed = str(g)
    run_checks_from_comments(text, printed)
    assert str(parse_ir(printed)) == printed


def test_there_are_ir_files():
    assert len(IR_FILES) >= 3


# -- multi-case files


def test_split_cases_with_a_header_and_lines():
    from ts_ir import CASE_MARKER, split_cases

    text = (
        "# PASSES: dce\n# a header\n"
        f"{CASE_MARKER}\n# CASE: one\ngraph():\n  return ()\n"
        f"{CASE_MARKER}\n# PASSES: cse\n# CASE: two\ngraph():\n  return ()\n"
    )
    one, two = split_cases(text)
    assert (one.line, two.line) == (4, 8)
    assert one.text.startswith("# PASSES: dce\n# a header\n# CASE: one\n")
    assert (one.directive("CASE"), one.directive("PASSES")) == ("one", "dce")
    assert two.directive("PASSES") == "cse"  # the case's own line wins over the header's
    assert one.directive("CHANGED") is None


def test_split_cases_without_a_header_or_markers():
    from ts_ir import split_cases

    text = "graph():\n  return ()\n"
    (only,) = split_cases(text)
    assert (only.text, only.line) == (text, 1)
    first, second = split_cases(f"{text}# -----\n{text}# -----\n\n")
    assert (first.line, second.line) == (1, 4)
