"""The own parser: Python's `ast` and the Pratt parser build the same trees.

Every snippet is parsed both ways (as the body of a function) and the dumps,
ranges included, must be equal; a few trees are checked by shape too.
"""

from __future__ import annotations

import pytest
from ts_frontend import ParseError
from ts_frontend import tree as t
from ts_frontend.ast_builder import AstBuilder
from ts_frontend.parser import parse_def, parse_expression, parse_source
from ts_ir import Source

SNIPPETS = [
    "return a + b * c - d / e // f % g ** -h ** 2",
    "return (a + b) * (c - d)",
    "return not a and b or c and not d",
    "return a < b <= c != d is not e in f not in g",
    "return x if c else y if d else z",
    "return -x, +y, ~z",
    "return x[1], x[1:2], x[::2], x[:, 1], x[..., None], x[1:2:3, ::-1], x[(1, 2)]",
    "return f(a, b=1, *c), g(), h(x)(y)[z].w",
    "return [1, 2, 3], [], (), (1,), {}, {'a': 1, 'b': [2]}",
    "return [i * j for i in range(3) if i for j in range(i) if j > 1]",
    "return {k: v for k, v in zip(a, b)}",
    'return f"a{b}c{d!r}e{f:>5}" "tail", "x" \'y\'',
    "return a @ b & c | d ^ e << 1 >> 2",
    "x: List[int] = []\n    y = z = 3\n    a, (b, c) = t\n    q += 1\n    q //= 2\n    return x",
    "if a:\n        pass\n    elif b:\n        return 1\n    else:\n        return 2",
    "for i, (a, b) in enumerate(zip(x, y)):\n        continue\n    while c:\n        break",
    "with torch.no_grad():\n        y = x\n    with a as b, c:\n        pass",
    "assert x > 0, 'positive'\n    del xs[0], d['k']\n    raise ValueError('bad')",
    "x = [1,\n         2]  # type: List[int]\n    return x",
    "g = lambda v: v + 1\n    return g",
    "x = 1; y = 2; return x + y",
    "if x: return 1\n    return 2",
]


@pytest.mark.parametrize("body", SNIPPETS)
def test_ast_and_parser_agree(body):
    source = Source(f"def f(a, b: int = 1, *, c: float = 2.0) -> int:\n    {body}\n")
    from_ast = AstBuilder(source).defs()
    from_parser = parse_source(source)
    assert [d.dump() for d in from_ast] == [d.dump() for d in from_parser]


def test_indented_source_and_decorators():
    text = "    @decorator\n    def f(self, x):\n        return x\n"
    source = Source(text, "m.py", 10)
    d = parse_def(source)
    assert d.name == "f" and [p.name for p in d.params] == ["self", "x"]
    assert d.range.file_line_col() == ("m.py", 11, 4)
    assert AstBuilder(source).defs()[0].dump() == d.dump()


def test_precedence_shapes():
    e = parse_expression(Source("a + b * c ** -d"), 0, 15)
    assert isinstance(e, t.BinOp) and e.op == "+"
    mul = e.right
    assert isinstance(mul, t.BinOp) and mul.op == "*"
    power = mul.right
    assert isinstance(power, t.BinOp) and power.op == "**"
    assert isinstance(power.right, t.UnaryOp) and power.right.op == "-"
    chain = parse_expression(Source("a < b < c"), 0, 9)
    assert isinstance(chain, t.Compare) and chain.ops == ["<", "<"]


def test_fstring_becomes_format_call():
    e = parse_expression(Source('f"{x}-{y!r}"'), 0, 12)
    assert isinstance(e, t.Call) and isinstance(e.func, t.Attribute)
    assert e.func.name == "format"
    assert isinstance(e.func.value, t.Str) and e.func.value.value == "{}-{!r}"
    assert [a.id for a in e.args] == ["x", "y"]
    assert e.args[0].range.text() == "x"


def test_signature_type_comment():
    source = Source("def f(x, n):\n    # type: (Tensor, int) -> Tensor\n    return x\n")
    d = parse_def(source)
    assert d.type_comment is not None
    assert [p.range.text() for p in d.type_comment.params] == ["Tensor", "int"]
    assert AstBuilder(source).defs()[0].dump() == d.dump()


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        ("def f(x):\n    return x +\n", 2, 15),
        ("def f(x)\n    return x\n", 1, 9),
        ("def f(x):\n    return (x\n", 3, 1),
        ("def f(x):\n  y = 1\n    return y\n", 3, 5),
    ],
)
def test_syntax_errors_point_at_the_problem(text, line, column):
    with pytest.raises(ParseError) as info:
        parse_source(Source(text))
    assert (info.value.line, info.value.column) == (line, column)
