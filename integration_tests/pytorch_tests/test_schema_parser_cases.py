"""PyTorch's schema parser tests (SchemaParserTest in test/cpp/jit/test_misc.cpp) against
ts-schema's parser."""

from __future__ import annotations

import re

import pytest
import ts_schema
from cases_schema_parser import CASES, EQUALITY
from harvest import case_params, recorded

#: cases tsjit does not pass, with the reason
KNOWN_GAPS: dict[str, str] = {}


def _sorted_alias_sets(text: str) -> str:
    """Alias sets print in the order of an unordered set in PyTorch: compare them sorted."""
    return re.sub(
        r"(?<=[( ])([a-z*]+(?:\|[a-z*]+)+)", lambda m: "|".join(sorted(m.group(1).split("|"))), text
    )


def _alias(info) -> tuple:
    return (sorted(info.before_set), sorted(info.after_set), info.is_write)


@pytest.mark.parametrize(("name", "schema", "facts"), case_params(CASES, KNOWN_GAPS, tuples=True))
def test_schema_parser_case(name, schema, facts):
    pytorch = recorded("schema_parser")[name]
    if facts.get("error"):
        assert "error" in pytorch
        with pytest.raises(ts_schema.SchemaParseError):
            ts_schema.parse_schema(schema)
        return
    parsed = ts_schema.parse_schema(schema)
    # what PyTorch shows of it: the printed schema, and each argument
    assert _sorted_alias_sets(str(parsed)) == _sorted_alias_sets(pytorch["printed"])
    assert len(parsed.arguments) == len(pytorch["arguments"])
    for arg, want in zip(parsed.arguments, pytorch["arguments"], strict=True):
        got = {
            "name": arg.name,
            "type": arg.type.annotation_str(),
            "N": arg.N,
            "is_out": arg.is_out,
            "alias": list(_alias(arg.alias_info)) if arg.alias_info is not None else None,
        }
        assert got == want
    # what the C++ test asserts beyond that
    for i, expected in facts.get("args", {}).items():
        arg = parsed.arguments[i]
        if "N" in expected:
            assert arg.N == expected["N"]
        if "is_out" in expected:
            assert arg.is_out == expected["is_out"]
        if "alias" in expected:
            before, after, write = expected["alias"]
            assert sorted(arg.alias_info.before_set) == before
            assert after is None or sorted(arg.alias_info.after_set) == after
            assert arg.alias_info.is_write == write
        for info, (before, after, write) in zip(
            arg.alias_info.contained_types if "contained" in expected else (),
            expected.get("contained", ()),
            strict=True,
        ):
            assert sorted(info.before_set) == before
            assert after is None or sorted(info.after_set) == after
            assert info.is_write == write
    if "returns" in facts:
        assert [r.name for r in parsed.returns] == facts["returns"]
    if facts.get("reparse"):
        assert ts_schema.parse_schema(str(parsed)) == parsed


@pytest.mark.parametrize(("a", "b", "equal"), EQUALITY)
def test_schema_equality_as_pytorch(a, b, equal):
    pa, pb = ts_schema.parse_schema(a), ts_schema.parse_schema(b)
    assert (pa == pb) is equal
    if equal:
        assert hash(pa) == hash(pb)
