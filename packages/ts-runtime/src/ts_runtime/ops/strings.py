"""Operators on strings: the `str` methods, indexing and slicing, `str()`, `format` and `%`.

Each is the Python `str` method with Python's semantics (Unicode-aware
`upper`, `splitlines` on every line boundary, `zfill` after the sign), with
two TorchScript conventions the schemas carry:

- `end` of `find`, `rfind`, `index`, `rindex`, `count`, `startswith` and
  `endswith` counts from one past the last character when negative: the
  default -1 means the end of the string, -2 excludes the last character.
- `aten::format` replaces each `{}` in turn with the next argument and copies
  everything else literally (TorchScript has no format specs); too few
  arguments is an `IndexError`, extra ones are ignored.

Values are rendered as Python's `str` renders them (`0.1`, `[1, 2]`, and a
tensor as `repr` shows it), in `str()`, `format`, `%` and `prim::Print`.
"""

from __future__ import annotations

from typing import Any

from .scalars import register


def _end(s: str, end: int) -> int:
    return end if end >= 0 else max(0, len(s) + end + 1)


def find(s: str, sub: str, start: int = 0, end: int = -1) -> int:
    return s.find(sub, start, _end(s, end))


def rfind(s: str, sub: str, start: int = 0, end: int = -1) -> int:
    return s.rfind(sub, start, _end(s, end))


def index(s: str, sub: str, start: int = 0, end: int = -1) -> int:
    return s.index(sub, start, _end(s, end))


def rindex(s: str, sub: str, start: int = 0, end: int = -1) -> int:
    return s.rindex(sub, start, _end(s, end))


def count(s: str, sub: str, start: int = 0, end: int = -1) -> int:
    return s.count(sub, start, _end(s, end))


def startswith(s: str, prefix: str, start: int = 0, end: int = -1) -> bool:
    return s.startswith(prefix, start, _end(s, end))


def endswith(s: str, suffix: str, start: int = 0, end: int = -1) -> bool:
    return s.endswith(suffix, start, _end(s, end))


register("find", ("",), find)
register("rfind", ("",), rfind)
register("index", ("str",), index)
register("rindex", ("",), rindex)
register("count", ("",), count)
register("startswith", ("",), startswith)
register("endswith", ("",), endswith)


def format_(fmt: str, *args: Any) -> str:
    """`aten::format`: each `{}` in `fmt` replaced by the next argument's `str`."""
    pieces = fmt.split("{}")
    holes = len(pieces) - 1
    if holes > len(args):
        raise IndexError(
            f"Too few arguments for format string: {fmt!r} has {holes} '{{}}' but got {len(args)} arguments"
        )
    out = [pieces[0]]
    for arg, piece in zip(args[:holes], pieces[1:], strict=True):
        out.append(str(arg))
        out.append(piece)
    return "".join(out)


def percent_format(fmt: str, *args: Any) -> str:
    """`aten::percentFormat`: `fmt % value`, where a tuple value supplies several arguments."""
    if len(args) != 1:
        raise TypeError(f"percentFormat takes a format and one value, got {len(args)} values")
    return fmt % args[0]


register("format", ("",), format_)
register("percentFormat", ("",), percent_format)
register("str", ("",), str, "str({0})")

# indexing, length, concatenation
register("len", ("str",), len, "len({0})")
register("__getitem__", ("str",), lambda s, i: s[i], "{0}[{1}]")
register("StringIndex", ("",), lambda s, i: s[i], "{0}[{1}]", namespace="prim")
register("slice", ("str",), lambda s, start, end, step: s[start:end:step], "{0}[{1}:{2}:{3}]")
register("add", ("str",), lambda a, b: a + b, "{0} + {1}")
register("list", ("",), list, "list({0})")
register("ord", ("",), ord, "ord({0})")
register("chr", ("",), chr, "chr({0})")
register("bin", ("",), bin, "bin({0})")
register("oct", ("",), oct, "oct({0})")
register("hex", ("",), hex, "hex({0})")

# splitting and joining
register("split", ("str",), lambda s, sep, n: s.split(sep, n), "{0}.split({1}, {2})")
register("rsplit", ("",), lambda s, sep, n: s.rsplit(sep, n), "{0}.rsplit({1}, {2})")
register("splitlines", ("",), lambda s, keep: s.splitlines(keep), "{0}.splitlines({1})")
register("join", ("",), lambda s, parts: s.join(parts), "{0}.join({1})")
register("partition", ("",), lambda s, sep: s.partition(sep), "{0}.partition({1})")
register("rpartition", ("",), lambda s, sep: s.rpartition(sep), "{0}.rpartition({1})")
register(
    "replace", ("",), lambda s, old, new, n: s.replace(old, new, n), "{0}.replace({1}, {2}, {3})"
)

# padding and stripping
register("strip", ("",), lambda s, chars: s.strip(chars), "{0}.strip({1})")
register("lstrip", ("",), lambda s, chars: s.lstrip(chars), "{0}.lstrip({1})")
register("rstrip", ("",), lambda s, chars: s.rstrip(chars), "{0}.rstrip({1})")
register("center", ("",), lambda s, w, c: s.center(w, c), "{0}.center({1}, {2})")
register("ljust", ("",), lambda s, w, c: s.ljust(w, c), "{0}.ljust({1}, {2})")
register("rjust", ("",), lambda s, w, c: s.rjust(w, c), "{0}.rjust({1}, {2})")
register("zfill", ("",), lambda s, w: s.zfill(w), "{0}.zfill({1})")
register("expandtabs", ("",), lambda s, n: s.expandtabs(n), "{0}.expandtabs({1})")

# case and classification: str.<name>() itself
for _method in (
    "upper",
    "lower",
    "swapcase",
    "capitalize",
    "title",
    "isdigit",
    "isspace",
    "isalpha",
    "isalnum",
    "isnumeric",
    "isdecimal",
    "isidentifier",
    "isprintable",
    "islower",
    "isupper",
    "istitle",
):
    register(_method, ("",), getattr(str, _method), f"{{0}}.{_method}()")
