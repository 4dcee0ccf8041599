import pytest
from ts_ir import (
    PYTHON_KEYWORDS,
    IRParseError,
    Lexer,
    SourceError,
    parse_number,
    parse_string_literal,
)


class MyError(SourceError):
    pass


def tokens(text, **options):
    lexer = Lexer(text, **options)
    out = []
    while True:
        tok = lexer.next()
        out.append((tok.kind, tok.text))
        if tok.kind == "eof":
            return out, lexer


def kinds(text, **options):
    return [k for k, _ in tokens(text, **options)[0]]


def test_python_mode_injects_newline_indent_dedent():
    src = "def f(x):\n    if x:\n        return 1\n    return 2\ny = 3\n"
    assert kinds(src, python=True) == [
        "def", "ident", "(", "ident", ")", ":", "newline",
        "indent", "if", "ident", ":", "newline",
        "indent", "return", "number", "newline",
        "dedent", "return", "number", "newline",
        "dedent", "ident", "=", "number", "newline",
        "eof",
    ]  # fmt: skip


def test_dedents_close_every_open_level_at_the_end():
    assert kinds("if a:\n  if b:\n    c", python=True)[-5:] == [
        "ident",
        "newline",
        "dedent",
        "dedent",
        "eof",
    ]


def test_brackets_suppress_newlines_and_indentation():
    src = "x = foo(1,\n        2,\n  3) + [\n4]\ny = {\n}\n"
    assert kinds(src, python=True) == [
        "ident", "=", "ident", "(", "number", ",", "number", ",", "number", ")", "+",
        "[", "number", "]", "newline",
        "ident", "=", "{", "}", "newline",
        "eof",
    ]  # fmt: skip


def test_line_continuations_join_lines():
    src = "x = 1 + \\\n      2\nif a and \\\n   b:\n    pass\n"
    assert kinds(src, python=True) == [
        "ident", "=", "number", "+", "number", "newline",
        "if", "ident", "and", "ident", ":", "newline",
        "indent", "pass", "newline", "dedent",
        "eof",
    ]  # fmt: skip


def test_blank_and_comment_lines_do_not_change_indentation():
    src = "if a:\n\n    # a comment, deeper\n        \n    b  # trailing\n# top\nc\n"
    toks, lexer = tokens(src, python=True)
    assert [k for k, _ in toks] == [
        "if", "ident", ":", "newline", "indent", "ident", "newline", "dedent",
        "ident", "newline", "eof",
    ]  # fmt: skip
    assert [c.text for c in lexer.comments] == ["# a comment, deeper", "# trailing", "# top"]
    assert lexer.comments[1].start == src.index("# trailing")


def test_tabs_indent_to_multiples_of_eight():
    assert kinds("if a:\n\tb\n        c\n", python=True)[4:8] == [
        "indent",
        "ident",
        "newline",
        "ident",
    ]


def test_inconsistent_dedent_is_an_error():
    with pytest.raises(SourceError, match="unindent does not match") as info:
        tokens("if a:\n    b\n  c\n", python=True)
    assert (info.value.line, info.value.column) == (3, 3)


def test_keywords_have_their_own_kinds_only_in_python_mode():
    assert kinds("if not x is None", python=True)[:5] == ["if", "not", "ident", "is", "None"]
    assert kinds("if not x is None")[:5] == ["ident"] * 5
    assert {"def", "return", "lambda", "True", "async"} <= PYTHON_KEYWORDS


def test_operators_longest_first():
    toks, _ = tokens("a **= b // c -> d :: e ... f != g := h << i ? j", python=True)
    ops = [t for k, t in toks if k not in ("ident", "newline", "eof")]
    assert ops == ["**=", "//", "->", "::", "...", "!=", ":=", "<<", "?"]
    assert all(k == t for k, t in toks if t in ops)


def test_percent_names_only_where_asked():
    assert tokens("%x.1 + %y", percent_names=True)[0][:3] == [
        ("var", "%x.1"),
        ("+", "+"),
        ("var", "%y"),
    ]
    assert tokens("a %b")[0][:3] == [("ident", "a"), ("%", "%"), ("ident", "b")]
    assert tokens("a %b", python=True)[0][:3] == [("ident", "a"), ("%", "%"), ("ident", "b")]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("0x1F", 31),
        ("0XfF", 255),
        ("0o17", 15),
        ("0b101", 5),
        ("0b_1", 1),
        ("1_000", 1000),
        ("42", 42),
        ("1.5", 1.5),
        ("1.", 1.0),
        (".5", 0.5),
        ("1e3", 1000.0),
        ("1.5e-3", 0.0015),
        ("2E+2", 200.0),
        ("2j", 2j),
        ("1.5J", 1.5j),
        ("1e2j", 100j),
    ],
)
def test_numbers(text, value):
    toks, _ = tokens(text)
    assert toks[0] == ("number", text)
    got = parse_number(text)
    assert got == value and type(got) is type(value)


def test_a_minus_sign_is_its_own_token():
    assert tokens("-1")[0][:2] == [("-", "-"), ("number", "1")]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("'a'", "a"),
        ('"a\\nb\\t"', "a\nb\t"),
        ("'it\\'s'", "it's"),
        ('"\\x41\\u00e9\\U0001F600"', "Aé\U0001f600"),
        ("'\\101\\0'", "A\0"),
        ('"\\303\\251"', "é"),
        ("'\\q'", "\\q"),
        ("'''tri\nple'''", "tri\nple"),
        ('"""a"b"""', 'a"b'),
        ("r'a\\n'", "a\\n"),
        ("R'\\d'", "\\d"),
        ("b'\\x00\\xff'", b"\x00\xff"),
        ("rb'\\n'", b"\\n"),
        ("u'x'", "x"),
        ("f'{x}'", "{x}"),
        ("'line\\\ncontinued'", "linecontinued"),
    ],
)
def test_string_literals(text, value):
    toks, _ = tokens(text, python=True)
    assert toks[0] == ("string", text)
    assert parse_string_literal(text) == value


def test_string_prefixes_are_python_only():
    # in IR and schema text `b"x"` is a name and a string
    assert kinds('b"x"')[:2] == ["ident", "string"]
    assert kinds('b"x"', python=True)[:1] == ["string"]


def test_token_values_and_ranges():
    lexer = Lexer("x = 0x10 'hi'", python=True)
    x, _, num, s = (lexer.next() for _ in range(4))
    assert num.value == 16 and s.value == "hi"
    assert (num.start, num.end) == (4, 8)
    assert num.range.text() == "0x10"
    with pytest.raises(ValueError):
        _ = x.value


def test_lookahead_and_expect():
    lexer = Lexer("a ( b )")
    assert lexer.cur.text == "a"
    assert lexer.lookahead().kind == "(" and lexer.lookahead(2).text == "b"
    assert lexer.lookahead(10).kind == "eof"
    assert lexer.next().text == "a"
    assert lexer.next_if(")") is None and lexer.next_if("(").kind == "("
    assert lexer.expect("ident").text == "b"
    with pytest.raises(SourceError, match="expected a name but found '\\)'"):
        lexer.expect("ident", "a name")
    lexer.next()
    assert lexer.next().kind == "eof" and lexer.next().kind == "eof"


@pytest.mark.parametrize(
    ("text", "line", "column", "message"),
    [
        ("x = $", 1, 5, "unexpected character '$'"),
        ("a\nb = 'open", 2, 5, "unterminated string literal"),
        ('s = "abc\n"', 1, 5, "unterminated string literal"),
        ("x = `y`", 1, 5, "unexpected character '`'"),
    ],
)
@pytest.mark.parametrize("python", [True, False])
def test_errors_are_raised_as_the_given_class(text, line, column, message, python):
    with pytest.raises(MyError) as info:
        tokens(text, python=python, error_class=MyError)
    err = info.value
    assert (err.line, err.column) == (line, column)
    assert err.message == message
    assert "^" in str(err).splitlines()[-1]


def test_default_error_class():
    with pytest.raises(SourceError):
        tokens("$")
    with pytest.raises(IRParseError):
        tokens("$", error_class=IRParseError)
