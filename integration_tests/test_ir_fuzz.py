"""Random edits of the corpus graphs: the parser raises `IRParseError` or builds a valid graph.

A seeded loop (deterministic, split into chunks that run in parallel) applies one to three
edits to a corpus graph: character deletions, insertions, duplications, swaps and
truncations, and token-level edits (dropping a bracket, renaming a `%value`, changing a
type or a number, dropping or repeating a line). Whatever the parser accepts must lint and
print back to text that parses to the same print.
"""

import random
import re

import pytest
from ts_ir import IRParseError, LintError, parse_ir

CHUNKS = 20
EDITS_PER_CHUNK = 500  # 10,000 in all
ALPHABET = [
    *"%()[]{}:,=-><.#\"'\\ \n\t0123456789abxyz_?*",
    "::",
    "->",
    "%x",
    "%1",
    "block0",
    "block1():",
    "graph",
    "return",
    "with ",
    "prim::If",
    "prim::Loop",
    "prim::Constant",
    "Tensor",
    "int",
    "[]",
    "é",
    "²",
    "\u0663",
    "\u00a0",
    "\x00",
    "\\U00110000",
    "0x_",
]
TYPES = ["int", "bool", "float", "Tensor", "int[]", "Tensor?", "(int, int)", "Float(*, *)", "str"]
NAME = re.compile(r"%[\w.]+")
NUMBER = re.compile(r"(?<![\w.%])\d+(?:\.\d*)?")
TYPE_AFTER_COLON = re.compile(r"(?<= : )[\w.]+(?:\([^()]*\))?(?:\[\])?\??")


def _positions(pattern, text):
    return [m.span() for m in pattern.finditer(text)]


def _replace_one(rng, pattern, text, new):
    spans = _positions(pattern, text)
    if not spans:
        return text
    start, end = rng.choice(spans)
    return text[:start] + (new(text[start:end]) if callable(new) else new) + text[end:]


def _edit(rng, text):
    kind = rng.randrange(12)
    i = rng.randrange(len(text) + 1)
    if kind == 0:  # delete a few characters
        return text[:i] + text[i + rng.randint(1, 3) :]
    if kind == 1:  # insert a character or a fragment
        return text[:i] + rng.choice(ALPHABET) + text[i:]
    if kind == 2:  # duplicate a span
        j = min(len(text), i + rng.randint(1, 30))
        return text[:j] + text[i:j] + text[j:]
    if kind == 3:  # swap two neighbours
        if len(text) < 2:
            return text
        i = rng.randrange(len(text) - 1)
        return text[:i] + text[i + 1] + text[i] + text[i + 2 :]
    if kind == 4:  # truncate
        return text[:i]
    if kind == 5:  # drop one bracket or separator
        return _replace_one(
            rng, re.compile(rng.choice([r"\)", r"\(", r"\]", r":", r","])), text, ""
        )
    if kind == 6:  # rename a use or a definition, often to a name in use
        names = NAME.findall(text) or ["%x"]
        pool = [*names, "%fresh", "%007", "%1.1", "%\u0663"]
        return _replace_one(rng, NAME, text, rng.choice(pool))
    if kind == 7:  # change a type
        return _replace_one(rng, TYPE_AFTER_COLON, text, rng.choice(TYPES))
    if kind == 8:  # change a number
        return _replace_one(rng, NUMBER, text, str(rng.choice([0, 1, 2, 7, 99, -1, 1.5])))
    lines = text.split("\n")
    k = rng.randrange(len(lines))
    if kind == 9:  # drop a line
        del lines[k]
    elif kind == 10:  # repeat a line elsewhere
        lines.insert(rng.randrange(len(lines) + 1), lines[k])
    else:  # swap two lines
        j = rng.randrange(len(lines))
        lines[k], lines[j] = lines[j], lines[k]
    return "\n".join(lines)


#: structure problems the parser accepts, as PyTorch's does, leaving them to `lint`
ACCEPTED_BY_PYTORCH = (
    "prim::If needs exactly one condition input and two blocks",
    "prim::If condition",
)


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_edited_graphs_parse_into_valid_graphs_or_raise_parse_errors(chunk, corpus_graphs):
    rng = random.Random(f"ts-ir fuzz {chunk}")
    texts = [text for _, text in corpus_graphs]
    parsed = rejected = 0
    for n in range(EDITS_PER_CHUNK):
        text = rng.choice(texts)
        for _ in range(rng.randint(1, 3)):
            text = _edit(rng, text)
        try:
            g = parse_ir(text)
        except IRParseError as err:
            rejected += 1
            # the error points into the text and shows the offending line
            assert err.line is not None and 1 <= err.line <= text.count("\n") + 1
            assert err.column is not None and err.column >= 1
            assert "^" in str(err) or "~" in str(err)
            continue
        except Exception as exc:
            pytest.fail(f"edit {n} of chunk {chunk} raised {exc!r} for:\n{text}")
        parsed += 1
        try:
            g.lint()  # the parser builds only valid graphs...
        except LintError as err:
            # ...but for what PyTorch's parser also accepts and its lint reports
            assert any(p in str(err) for p in ACCEPTED_BY_PYTORCH), f"edit {n}: {err}"
        printed = str(g)
        assert str(parse_ir(printed)) == printed, f"edit {n} of chunk {chunk}:\n{text}"
    assert parsed + rejected == EDITS_PER_CHUNK
    # the edits must leave some texts readable, or the lint check above tests nothing
    assert parsed >= EDITS_PER_CHUNK // 50
