"""The schema parser against every schema PyTorch 2.13 recorded in corpus/schemas.jsonl.

Each schema must parse, print back to exactly PyTorch's text, and agree with
every field PyTorch reported: argument and return names, types (as
annotations), declared types, kwarg-only and out flags, defaults (as Python
reprs), fixed list sizes, alias sets, and the schema's mutability and
varargs. A property test then edits corpus schemas at random and checks that
malformed text only ever raises `SchemaParseError`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ts_schema import Argument, FunctionSchema, SchemaParseError, parse_schema

CORPUS = Path(__file__).parent / "corpus" / "schemas.jsonl"
ROWS = [json.loads(line) for line in CORPUS.read_text().splitlines() if line.strip()]
TEXTS = [row["schema"] for row in ROWS]


def _argument_record(arg: Argument) -> dict:
    record = {
        "name": arg.name,
        "type": arg.type.annotation_str(),
        "real_type": arg.real_type.annotation_str(),
        "kwarg_only": arg.kwarg_only,
        "is_out": arg.is_out,
        "has_default": arg.has_default_value,
        "alias": None
        if arg.alias_info is None
        else {
            "before": sorted(arg.alias_info.before_set),
            "after": sorted(arg.alias_info.after_set),
            "is_write": arg.alias_info.is_write,
        },
    }
    if arg.has_default_value:
        record["default"] = repr(arg.default_value)
    if arg.N is not None:
        record["N"] = arg.N
    return record


def _schema_record(schema: FunctionSchema) -> dict:
    return {
        "name": str(schema.name),
        "overload": schema.overload_name,
        "is_mutable": schema.is_mutable,
        "is_vararg": schema.is_vararg,
        "is_varret": schema.is_varret,
        "arguments": [_argument_record(a) for a in schema.arguments],
        "returns": [_argument_record(r) for r in schema.returns],
    }


def _expected_record(row: dict) -> dict:
    expected = {
        key: row[key] for key in ("name", "overload", "is_mutable", "is_vararg", "is_varret")
    }
    for key in ("arguments", "returns"):
        expected[key] = [
            {k: v for k, v in arg.items() if not (k == "N" and v is None)} for arg in row[key]
        ]
    return expected


def test_corpus_has_every_recorded_schema():
    assert len(ROWS) == 3061


def test_every_corpus_schema_parses_prints_and_matches_every_field():
    parsed = printed = matched = 0
    failures = []
    for row in ROWS:
        text = row["schema"]
        try:
            schema = parse_schema(text)
        except SchemaParseError as e:
            failures.append(f"does not parse: {text}\n{e}")
            continue
        parsed += 1
        if str(schema) == text:
            printed += 1
        else:
            failures.append(f"prints differently:\n  {text}\n  {schema}")
        if _schema_record(schema) == _expected_record(row):
            matched += 1
        else:
            failures.append(f"fields differ: {text}")
    assert not failures, "\n".join(failures[:20])
    assert parsed == printed == matched == len(ROWS)


@pytest.mark.parametrize("row", ROWS[:: len(ROWS) // 40], ids=lambda r: r["schema"][:60])
def test_sampled_schema_fields(row):
    """A readable failure for a sample of schemas, field by field."""
    schema = parse_schema(row["schema"])
    assert _schema_record(schema) == _expected_record(row)


def test_printed_schemas_parse_back_to_equal_schemas():
    for text in TEXTS:
        schema = parse_schema(text)
        assert parse_schema(str(schema)) == schema
        assert hash(parse_schema(str(schema))) == hash(schema)


# ---------------------------------------------------------------------------
# Random edits of corpus schemas raise SchemaParseError or parse

PUNCTUATION = [*"()[]{}<>,.:;*!?|=-+~@/%&^\"'#$\\", "->", "...", "::", " "]
IDENTIFIERS = ["Tensor", "int", "t", "a", "self", "None", "True", "inf", "Dict", "Future", "x1"]
NUMBERS = ["0", "1", "-1", "2.5", "1e5", "0x1F", "1j", "99999999999999999999"]


@st.composite
def edited_schema(draw) -> str:
    text = draw(st.sampled_from(TEXTS))
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        n = len(text)
        kind = draw(st.sampled_from(["delete", "insert", "swap", "truncate", "duplicate"]))
        i = draw(st.integers(min_value=0, max_value=n))
        if kind == "delete" and n:
            j = draw(st.integers(min_value=i, max_value=min(n, i + 8)))
            text = text[:i] + text[j:]
        elif kind == "insert":
            piece = draw(
                st.one_of(
                    st.sampled_from(PUNCTUATION),
                    st.sampled_from(IDENTIFIERS),
                    st.sampled_from(NUMBERS),
                    st.text(min_size=1, max_size=3),
                )
            )
            text = text[:i] + piece + text[i:]
        elif kind == "swap" and n >= 2:
            j = draw(st.integers(min_value=0, max_value=n - 1))
            a, b = sorted((min(i, n - 1), j))
            chars = list(text)
            chars[a], chars[b] = chars[b], chars[a]
            text = "".join(chars)
        elif kind == "truncate":
            text = text[:i]
        elif kind == "duplicate" and n:
            j = draw(st.integers(min_value=i, max_value=min(n, i + 12)))
            text = text[:j] + text[i:j] + text[j:]
    return text


FUZZ_EXAMPLES = 10_000


@settings(
    max_examples=FUZZ_EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(edited_schema())
def test_random_edits_raise_only_schema_parse_errors(text):
    try:
        schema = parse_schema(text)
    except SchemaParseError as e:
        # the error points into the text
        assert e.line is not None and e.column is not None
        assert 1 <= e.column <= len(text.split("\n")[e.line - 1]) + 1
        assert "^" in str(e) or "~" in str(e)
        return
    printed = str(schema)
    try:
        again = parse_schema(printed)
    except SchemaParseError:
        # PyTorch prints a few forms it cannot read back, such as `Tensor($0! -> )`
        # for a bare `!` annotation; printing must still not fail
        return
    assert again == schema
