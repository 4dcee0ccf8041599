"""String operators: `str` methods, TorchScript's `end` convention, `format`, `%`, `str()`."""

from __future__ import annotations

import pytest
import ts_ir
import ts_runtime
from ts_runtime import call
from ts_schema import registry


def kernel(key: str):
    return registry.get(key).impl


def test_search_end_counts_from_past_the_end():
    # the schema default -1 is the whole string; -2 leaves out the last character
    s = "abcabc"
    assert call("aten::find", s, "c") == 2
    assert call("aten::rfind", s, "c") == 5
    assert call("aten::rfind", s, "c", 0, -2) == 2
    assert call("aten::find", s, "c", 3, -1) == 5
    assert call("aten::count", s, "bc") == 2
    assert call("aten::count", s, "bc", 0, -2) == 1
    assert call("aten::startswith", s, "bc", 1) is True
    assert call("aten::endswith", s, "c", 0, -2) is False
    assert call("aten::endswith", s, "b", 0, -2) is True
    assert call("aten::index", s, "b", 2) == 4
    assert call("aten::rindex", s, "a") == 3
    assert call("aten::find", s, "z") == -1


def test_index_of_a_missing_substring_is_a_value_error():
    with pytest.raises(ValueError):
        call("aten::index", "abc", "z")
    with pytest.raises(ValueError):
        call("aten::rindex", "abc", "c", 0, -2)


def test_split_and_join():
    assert call("aten::split", "a,b,,c", ",") == ["a", "b", "", "c"]
    assert call("aten::split", "  a b  ") == ["a", "b"]
    assert call("aten::split", "a,b,c", ",", 1) == ["a", "b,c"]
    # rsplit's separator defaults to a space, not to whitespace
    assert call("aten::rsplit", "a b  c") == ["a", "b", "", "c"]
    assert call("aten::rsplit", "a b c", " ", 1) == ["a b", "c"]
    assert call("aten::join", "-", ["x", "y"]) == "x-y"
    assert call("aten::splitlines", "a\nb\r\nc") == ["a", "b", "c"]
    assert call("aten::splitlines", "a\nb", True) == ["a\n", "b"]
    assert call("aten::partition", "a=b=c", "=") == ("a", "=", "b=c")
    assert call("aten::rpartition", "a=b=c", "=") == ("a=b", "=", "c")
    with pytest.raises(ValueError):
        call("aten::split", "abc", "")


def test_strip_defaults_are_the_schemas():
    # the schema's default is " \n\t\f\v": a carriage return stays
    assert call("aten::strip", " \r x \n") == "\r x"
    assert call("aten::lstrip", "xxy", "x") == "y"
    assert call("aten::rstrip", "yxx", "x") == "y"


def test_case_padding_and_classification():
    assert call("aten::upper", "aé") == "AÉ"
    assert call("aten::title", "hello wORLD") == "Hello World"
    assert call("aten::capitalize", "hELLO") == "Hello"
    assert call("aten::swapcase", "aB") == "Ab"
    assert call("aten::center", "ab", 6, "*") == "**ab**"
    assert call("aten::ljust", "ab", 4) == "ab  "
    assert call("aten::rjust", "ab", 4, "0") == "00ab"
    assert call("aten::zfill", "-12", 5) == "-0012"
    assert call("aten::expandtabs", "a\tb", 4) == "a   b"
    assert call("aten::replace", "aaaa", "a", "b", 2) == "bbaa"
    assert call("aten::replace", "aaaa", "a", "b") == "bbbb"
    assert call("aten::isdigit", "123") is True
    assert call("aten::isdigit", "") is False
    assert call("aten::isspace", " \t") is True
    assert call("aten::isidentifier", "a_1") is True
    assert call("aten::istitle", "Hello World") is True


def test_indexing_slicing_and_characters():
    assert call("aten::__getitem__", "abc", -1) == "c"
    assert kernel("prim::StringIndex")("abc", 1) == "b"
    with pytest.raises(IndexError):
        call("aten::__getitem__", "abc", 3)
    assert call("aten::slice", "abcdef", 1, None, 2) == "bdf"
    assert call("aten::len", "héllo") == 5
    assert call("aten::add", "ab", "cd") == "abcd"
    assert call("aten::list", "ab") == ["a", "b"]
    assert call("aten::ord", "A") == 65
    assert call("aten::chr", 97) == "a"
    assert (call("aten::hex", 255), call("aten::oct", 8), call("aten::bin", 5)) == (
        "0xff",
        "0o10",
        "0b101",
    )
    with pytest.raises(TypeError):
        call("aten::ord", "ab")
    with pytest.raises(ValueError):
        call("aten::chr", -1)


def test_str_renders_as_python():
    assert call("aten::str", 1.0) == "1.0"
    assert call("aten::str", [1, 2]) == "[1, 2]"
    assert call("aten::str", (True, None)) == "(True, None)"
    assert call("aten::str", ts_runtime.tensor([1.0, 2.5])) == "tensor([1.0000, 2.5000])"


def test_format_replaces_each_pair_of_braces_in_turn():
    fmt = kernel("aten::format")
    assert fmt("{} and {}", 1, "x") == "1 and x"
    assert fmt("{}{}", 0.5, [1]) == "0.5[1]"
    assert fmt("no holes", 1, 2) == "no holes"
    # TorchScript has no format specs: anything but `{}` is copied as it is
    assert fmt("{:.2f} {}", 1.5) == "{:.2f} 1.5"
    assert fmt("{}", ts_runtime.tensor(2)) == "tensor(2)"
    with pytest.raises(IndexError, match="Too few arguments"):
        fmt("{} {}", 1)


def test_percent_format():
    pct = kernel("aten::percentFormat")
    assert pct("%d-%s", (3, "x")) == "3-x"
    assert pct("%.1f", 2.25) == "2.2"
    with pytest.raises(TypeError):
        pct("%d %d", (1,))


def test_string_program():
    ir = """
graph(%s : str, %n : int):
  %comma : str = prim::Constant[value=","]()
  %dash : str = prim::Constant[value="-"]()
  %fmt : str = prim::Constant[value="{}:{}"]()
  %neg : int = prim::Constant[value=-1]()
  %parts : str[] = aten::split(%s, %comma, %neg)
  %joined : str = aten::join(%dash, %parts)
  %up : str = aten::upper(%joined)
  %k : int = aten::len(%parts)
  %out : str = aten::format(%fmt, %up, %k)
  return (%out)
"""
    fn = ts_runtime.Function("f", ts_ir.parse_ir(ir), optimize=False)
    assert fn("a,b,c", 0) == "A-B-C:3"
    source = fn.code_for("x", 0).python_source
    assert ".split(" in source and ".upper()" in source
