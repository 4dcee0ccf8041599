"""FileCheck cases: PyTorch's FileCheck tests (test_filecheck and test_filecheck_parse in
test/test_jit.py, test/test_file_check.py), as data.

Each case is a statement over `FileCheck` and what the test expects: None (it runs), or
a regular expression the error's message must match (the test's `assertRaisesRegex`).
"""

from __future__ import annotations

CASES: list[tuple[str, str, str | None]] = [
    # test_filecheck / test_check
    ("check/in_order", 'FileCheck().check("2").check("3").check("2").run("232")', None),
    ("check/whole", 'FileCheck().check("232").run("232")', None),
    ("check/missing", 'FileCheck().check("22").run("232")', 'Expected to find "22"'),
    ("check/names_the_directive", 'FileCheck().check("3").check("3").run("232")', "CHECK: 3"),
    # test_check_count
    ("check_count/5", 'FileCheck().check_count("2", 5).run("22222")', None),
    ("check_count/22", 'FileCheck().check_count("22", 2).run("22222")', None),
    ("check_count/222", 'FileCheck().check_count("222", 1).run("22222")', None),
    ("check_count/exactly_too_few", 'FileCheck().check_count("2", 4, exactly=True).run("22222")', "Expected to not find"),
    ("check_count/too_many", 'FileCheck().check_count("22", 3).run("22222")', 'Expected to find "22"'),
    ("check_count/names_the_directive", 'FileCheck().check_count("2", 6).run("22222")', "CHECK-COUNT-6: 2"),
    # test_check_same
    ("check_same/first_line", 'FileCheck().check_same("22").run("22\\n33")', None),
    ("check_same/other_line", 'FileCheck().check_same("33").run("22\\n33")', "Expected to not find"),
    ("check_same/after_check", 'FileCheck().check("2").check_same("3").run("22  1  3")', None),
    ("check_same/after_count", 'FileCheck().check_count("2", 2).check_same("3").run("22  1  3")', None),
    # test_check_next
    ("check_next/chain", 'FileCheck().check("1").check_next("2").check_next("3").run("\\n1\\n2\\n3")', None),
    ("check_next/first", 'FileCheck().check_next("1").check_next("2").check_next("3").run("\\n1\\n2\\n3")', None),
    ("check_next/same_line", 'FileCheck().check("1").check_next("2").run("12")', "Expected to find"),
    ("check_next/two_lines_down", 'FileCheck().check("1").check_next("2").run("1\\n\\n2")', "Expected to not find"),
    # test_check_dag
    ("check_dag/12", 'FileCheck().check_dag("1").check_dag("2").check_not("2").run("12")', None),
    ("check_dag/21", 'FileCheck().check_dag("1").check_dag("2").check_not("2").run("21")', None),
    ("check_dag/not_around_132", 'FileCheck().check_not("3").check_dag("1").check_dag("2").check_not("3").run("1 3 2")', None),
    ("check_dag/not_around_231", 'FileCheck().check_not("3").check_dag("1").check_dag("2").check_not("3").run("2 3 1")', None),
    ("check_dag/then_check", 'FileCheck().check_dag("1").check_dag("2").check("3").run("1 3 2")', 'Expected to find "3" but did not find it'),
    # test_check_not
    ("check_not/before", 'FileCheck().check_not("2").check("1").run("12")', None),
    ("check_not/after", 'FileCheck().check("2").check_not("2").run("12")', None),
    ("check_not/found_before", 'FileCheck().check_not("2").check("1").run("21")', 'Expected to not find "2"'),
    ("check_not/found_after", 'FileCheck().check("2").check_not("1").run("21")', 'Expected to not find "1"'),
    ("check_not/distinct_ranges", 'FileCheck().check_count("2", 2).check_count("2", 2).check_not("2").run("22 2 22")', 'Expected to not find "2"'),
    ("check_not/between_counts", 'FileCheck().check_count("2", 2).check_not("1").check_count("2", 2).run("22 1 22")', 'Expected to not find "1"'),
    # test_filecheck_parse / test_check
    ("parse/same_file", 'FileCheck().run(checks_file=F, test_file=F)', None),
    ("parse/232", 'FileCheck().run(G, "232")', None),
    ("parse/232_missing", 'FileCheck().run(G, "22")', 'Expected to find "232"'),
    ("parse/22_missing", 'FileCheck().run("# CHECK: 22", "23")', 'Expected to find "22"'),
    # test_filecheck_parse / test_check_count
    ("parse/count_5", 'FileCheck().run("# CHECK-COUNT-5: 2", "22222")', None),
    ("parse/count_exactly_5", 'FileCheck().run("# CHECK-COUNT-EXACTLY-5: 2", "22222")', None),
    ("parse/count_2", 'FileCheck().run("# CHECK-COUNT-2: 22", "22222")', None),
    ("parse/count_1", 'FileCheck().run("# CHECK-COUNT-1: 222", "22222")', None),
    ("parse/count_exactly_2", 'FileCheck().run("# CHECK-COUNT-EXACTLY-2: 2", "22222")', "Expected to not find"),
    # test_filecheck_parse / test_check_same
    ("parse/same_first_line", 'FileCheck().run("# CHECK-SAME: 22", "22\\n33")', None),
    ("parse/same_other_line", 'FileCheck().run("# CHECK-SAME: 33", "22\\n33")', "Expected to not find"),
    ("parse/same_after_check", 'FileCheck().run("# CHECK: 2\\n # CHECK-SAME: 3", "22  1  3")', None),
    ("parse/same_after_count", 'FileCheck().run("# CHECK-COUNT-2: 2\\n # CHECK-SAME: 3", "22  1  3")', None),
    # test_filecheck_parse / test_bad_input
    ("parse/no_checks", 'FileCheck().run("", "1")', "Check for bad input"),
    ("parse/unparsable", 'FileCheck().run("# CHECK1", "")', "Check for bad input"),
    # test/test_file_check.py: test_all_python_api
    (
        "all_python_api/methods",
        'FileCheck().check("check").check_not("check_not").check_same("check_same").check_next("check_next")'
        '.check_count("check_count", 1).check_dag("check_dag").check_source_highlighted("check_source_highlighted")'
        '.check_regex(r"check_.+").run(T)',
        None,
    ),
    ("all_python_api/comments", "FileCheck().run(C, T)", None),
    # check_source_highlighted: underlined exactly, or an error
    ("source_highlighted/exact", 'FileCheck().check_source_highlighted("foo").run("some foo here\\n     ~~~\\nnext")', None),
    ("source_highlighted/too_long", 'FileCheck().check_source_highlighted("foo").run("some foo here\\n    ~~~~~~\\nnext")', "Expected to not find"),
    ("source_highlighted/not_underlined", 'FileCheck().check_source_highlighted("foo").run("some foo here\\nnext\\nmore")', "highlighted"),
    ("source_highlighted/second_occurrence", 'FileCheck().check_source_highlighted("foo").run("foo and\\n\\nfoo here\\n~~~\\n")', None),
    # directives as PyTorch reads them: one space after the colon, the rest of the line verbatim
    ("directive/no_space_after_hash", 'FileCheck().run("#CHECK: 9", "232")', 'Expected to find "9"'),
    ("directive/no_space_after_colon", 'FileCheck().run("# CHECK:2", "232")', "Check for bad input"),
    ("directive/two_spaces_after_colon", 'FileCheck().run("# CHECK:  2", "232")', 'Expected to find " 2"'),
    ("directive/trailing_space", 'FileCheck().run("# CHECK: 2 ", "232")', 'Expected to find "2 "'),
    ("directive/trailing_space_found", 'FileCheck().run("# CHECK: 2 ", "2 3")', None),
    ("directive/after_code", 'FileCheck().run("x = 1  # CHECK: 3", "232")', None),
    ("directive/not_a_hash_comment", 'FileCheck().run("// CHECK: 9", "232")', "Check for bad input"),
]  # fmt: skip

#: names the statements above use
NAMESPACE_TEXTS = {
    "F": "\n    # CHECK: 2\n    # CHECK: 3\n    # CHECK: 2\n    232\n    ",
    "G": "\n    # CHECK: 232\n    232\n    ",
    "T": "\ncheck check_same\ncheck_next\ncheck_count\ncheck_dag\ncheck_source_highlighted\n~~~~~~~~~~~~~~~~~~~~~~~~\ncheck_regex\n",
    "C": (
        "\n# CHECK: check\n# CHECK-NOT: check_not\n# CHECK-SAME: check_same\n# CHECK-NEXT: check_next"
        "\n# CHECK-DAG: check_dag\n# CHECK-SOURCE-HIGHLIGHTED: check_source_highlighted"
        "\n# CHECK-REGEX: check_.+\n        "
    ),
}
