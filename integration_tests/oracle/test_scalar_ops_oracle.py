"""Scalar, string, list and dict operators against real TorchScript.

Each function below is compiled by `torch.jit.script`; its graph, printed
by PyTorch, is parsed with `ts_ir.parse_ir` and run by the tsjit
interpreter, and the results are compared with what the scripted function
returns. Where tsjit deliberately follows Python instead of TorchScript
(`str(1.0)` is "1.0", `popitem` takes the last item, `1 / 0` raises), the
expected result is the plain Python function's. Exceptions are compared by
class with eager Python's (TorchScript reports every one as
`torch.jit.Error`).
"""

import math

import numpy as np
import pytest
import ts_ir
import ts_runtime

torch = pytest.importorskip("torch")

pytestmark = [pytest.mark.oracle, pytest.mark.filterwarnings("ignore::DeprecationWarning")]


def int_arith(a: int, b: int) -> tuple[int, int, float, int, int, int, int, int, float]:
    return a + b, a - b, a / b, a // b, a % b, a * b, -a, abs(a), a**2


def int_compare(a: int, b: int) -> tuple[bool, bool, bool, bool, bool, bool, bool]:
    return a < b, a <= b, a > b, a >= b, a == b, a != b, not (a < b and b > 0)


def int_bits(a: int, b: int) -> tuple[int, int, int, int, int, tuple[int, int]]:
    return a & b, a | b, a ^ b, a << 3, a >> 1, divmod(a, b)


def float_arith(x: float, y: float) -> tuple[float, float, float, float, float, float, float]:
    return x + y, x - y, x * y, x / y, x // y, x % y, x**y


def mixed_arith(n: int, x: float) -> tuple[float, float, float, float, bool, bool, float]:
    return n + x, x * n, n / x, x - n, n < x, x == n, float(n) + x


def rounding(x: float) -> tuple[float, int, int, float, int]:
    return round(x), math.floor(x), math.ceil(x), abs(x), int(x)


def math_functions(x: float) -> list[float]:
    return [
        math.sqrt(x),
        math.exp(x),
        math.log(x),
        math.log10(x),
        math.log1p(x),
        math.expm1(x),
        math.sin(x),
        math.cos(x),
        math.tan(x),
        math.atan(x),
        math.sinh(x),
        math.tanh(x),
        math.asinh(x),
        math.erf(x),
        math.erfc(x),
        math.gamma(x),
        math.lgamma(x),
        math.degrees(x),
        math.radians(x),
        math.fabs(-x),
        math.atan2(x, 2.0),
        math.copysign(x, -1.0),
        math.fmod(x, 0.75),
        math.log(x, 2.0),
        math.pow(x, 1.5),
    ]


def math_predicates(x: float) -> tuple[bool, bool, bool]:
    return math.isnan(x), math.isinf(x), math.isfinite(x)


def int_math(n: int) -> tuple[int, int, float, float, int]:
    return math.gcd(n, 12), math.factorial(abs(n) % 8), math.sqrt(abs(n)), math.exp(n % 3), abs(n)


def min_max(a: int, b: int, x: float) -> tuple[int, int, float, float, float]:
    return min(a, b), max(a, b), max(x, 1.0), min(x, -1.0), max(a, x)


def conversions(x: float, n: int, s: str) -> tuple[int, float, bool, bool, int, float, str]:
    return int(x), float(n), bool(n), bool(x), int(s), float(s), str(n)


def string_methods(s: str) -> tuple[str, str, str, str, str, str, str, str, str]:
    return (
        s.upper(),
        s.lower(),
        s.strip(),
        s.lstrip(),
        s.rstrip(),
        s.title(),
        s.capitalize(),
        s.swapcase(),
        s.replace("a", "x"),
    )


def string_search(s: str) -> tuple[int, int, int, bool, bool, int, int, bool, bool, bool]:
    return (
        s.find("b"),
        s.rfind("b"),
        s.count("a"),
        s.startswith("a"),
        s.endswith("c"),
        s.find("b", 2),
        len(s),
        s.isdigit(),
        s.isalpha(),
        s.isspace(),
    )


def string_pieces(s: str) -> tuple[list[str], list[str], str, str, str, str, tuple[str, str, str]]:
    parts = s.split(",")
    return parts, s.split(), "-".join(parts), s[1:3], s[::-1], s + "!", s.partition(",")


def string_padding(s: str, n: int) -> tuple[str, str, str, int, str, bool]:
    return s.ljust(n, "*"), s.rjust(n), s.expandtabs(4), ord(s[0]), chr(65 + n), "b" in [s, "b"]


def string_format(n: int, s: str, x: float) -> tuple[str, str, str, str]:
    # the operators under test are `format` and `%`, not f-strings
    return "{}-{}".format(n, s), f"<{s}:{n}>", "%d and %s" % (n, s), str(n) + str(True)  # noqa: UP031, UP032


def list_methods(xs: list[int]) -> tuple[list[int], list[int], int, int, int, bool, list[int]]:
    ys = xs.copy()
    ys.append(5)
    ys.insert(0, 9)
    ys.extend([1, 2])
    ys.remove(9)
    last = ys.pop()
    ys.reverse()
    zs = sorted(ys)
    zs.sort(reverse=True)
    del ys[0]
    return ys, zs, last, sum(xs), ys.count(5), 5 in ys, xs[1:] + ys * 2


def list_queries(xs: list[int]) -> tuple[int, int, int, int, int, bool, bool, list[int]]:
    return (
        len(xs),
        xs[-1],
        xs.index(xs[-1]),
        min(xs),
        max(xs),
        xs == [1, 2, 3],
        xs != xs[::-1],
        [x * x for x in xs],
    )


def list_aliasing(xs: list[int]) -> tuple[list[int], list[int]]:
    ys = xs
    ys.append(100)
    ys[0] = -1
    zs = list(xs)
    zs.clear()
    return xs, zs


def float_and_str_lists(
    xs: list[float], ss: list[str]
) -> tuple[float, float, list[float], list[str], bool]:
    return sum(xs), max(xs), sorted(xs), sorted(ss), "b" in ss


def list_of_lists(n: int) -> list[list[int]]:
    out: list[list[int]] = []
    for i in range(n):
        out.append([i] * i)
    out[0].append(7)
    return out


def dict_methods(
    keys: list[str], vals: list[int]
) -> tuple[int, int, int, bool, list[str], list[int], int, int, dict[str, int]]:
    d: dict[str, int] = {}
    for i in range(min(len(keys), len(vals))):
        d[keys[i]] = d.get(keys[i], 0) + vals[i]
    e = d.copy()
    e.update({"z": 26})
    first = e.pop("a", -1)
    default = e.setdefault("y", 25)
    del e["z"]
    return len(d), d["a"], first, "b" in d, list(d.keys()), list(d.values()), default, len(e), e


def dict_items(d: dict[int, float]) -> tuple[list[tuple[int, float]], float | None, float]:
    items = list(d.items())
    return items, d.get(3), d.get(4, -1.0)


def ranges(n: int) -> list[int]:
    out: list[int] = []
    for i in range(2, n, 3):
        out.append(i)
    for i in range(n, 0, -2):
        out.append(-i)
    return out


def tensor_to_scalars(t: torch.Tensor) -> tuple[float, int, bool, float]:
    return float(t), int(t), bool(t), t.item() * 2


def tensor_properties(t: torch.Tensor) -> tuple[int, bool, bool, int]:
    return t.dtype, t.requires_grad, t.is_cuda, len(t)


def more_strings(s: str, t: str) -> tuple[list[str], bool, bool, str, str, str, int, str]:
    return (
        s.rsplit(" ", 1),
        s < t,
        s.islower(),
        hex(len(s) * 255),
        bin(len(t)),
        s.zfill(1),
        s.rindex(s[-1]),
        (s + t)[len(s) :],
    )


def more_lists(
    xs: list[float], bs: list[bool]
) -> tuple[float, float, bool, bool, int, float, list[bool]]:
    ys = xs.copy()
    first = ys.pop(0)
    return min(xs), first, any(bs), all(bs), sum(bs), xs[-1], sorted(bs)


def complex_numbers(x: float, y: float) -> tuple[complex, float, complex, bool]:
    z = complex(x, y)
    return z * z + 1, abs(z), z / (z + 1), z == complex(x, y)


def int_rounding(n: int) -> tuple[float, int, int, tuple[float, float]]:
    return round(n), math.floor(n), math.ceil(n), divmod(float(n), 4.0)  # noqa: RUF057


def tensor_lists(t: torch.Tensor, u: torch.Tensor) -> tuple[int, int, int, bool, bool]:
    ts = [t, u * 2, u]
    return len(ts), ts.index(u), ts.count(u), ts == [t, u * 2, u], ts != [t]


def tensor_list_ambiguity(t: torch.Tensor) -> int:
    # TorchScript compares even a tensor with itself: two elements are ambiguous
    return [t].index(t)


def index_error(xs: list[int], i: int) -> int:
    return xs[i]


def key_error(d: dict[str, int]) -> int:
    return d["missing"]


def value_error(xs: list[int]) -> int:
    return xs.index(1000)


def zero_division(a: int) -> int:
    return a // 0


def float_division(a: float, b: float) -> float:
    return a / b


def str_of_float(x: float) -> str:
    return str(x) + "|" + "{}".format(x)  # noqa: UP032


def popitem(d: dict[str, int]) -> tuple[str, int]:
    return d.popitem()


def floor_division_of_floats(x: float, y: float) -> float:
    return x // y


def split_lines(s: str) -> list[str]:
    return s.splitlines()


TORCHSCRIPT = "torchscript"
PYTHON = "python"

CASES = [
    (int_arith, [(17, 5), (-17, 5), (7, -2), (0, 3)], TORCHSCRIPT),
    (int_compare, [(3, 1), (1, 1), (-2, 5)], TORCHSCRIPT),
    (int_bits, [(13, 6), (-13, 4), (255, 16)], TORCHSCRIPT),
    (float_arith, [(2.5, 1.5), (-7.25, 2.0), (1e10, 3.0), (0.0, 0.5)], TORCHSCRIPT),
    (mixed_arith, [(3, 1.5), (-2, 0.25), (0, 2.0)], TORCHSCRIPT),
    (
        rounding,
        [(2.5,), (3.5,), (-2.5,), (-3.7,), (0.49999999999999994,), (1e15 + 0.5,)],
        TORCHSCRIPT,
    ),
    (math_functions, [(0.5,), (1.25,), (3.0,)], TORCHSCRIPT),
    (math_predicates, [(1.0,), (math.nan,), (math.inf,), (-math.inf,)], TORCHSCRIPT),
    (int_math, [(18,), (-7,), (0,)], TORCHSCRIPT),
    (min_max, [(3, 5, 2.5), (-1, -4, -3.0), (2, 2, 1.0)], TORCHSCRIPT),
    (string_methods, [("  hello World a ",), ("abc",), ("",), ("x\ty",)], TORCHSCRIPT),
    (string_search, [("abcabc",), ("bbb",), ("",), ("a b c",), ("123",)], TORCHSCRIPT),
    (string_pieces, [("a,b,,c",), ("abc",), ("  x  y ",), ("ab",)], TORCHSCRIPT),
    (string_padding, [("ab", 5), ("x\tyz", 1)], TORCHSCRIPT),
    (string_format, [(3, "s", 1.5), (-10, "", 0.0)], TORCHSCRIPT),
    (list_methods, [([1, 2, 3],), ([5, 5],), ([0],)], TORCHSCRIPT),
    (list_queries, [([1, 2, 3],), ([4, -2, 8, 6],), ([3],)], TORCHSCRIPT),
    (list_aliasing, [([1, 2],), ([5],)], TORCHSCRIPT),
    (float_and_str_lists, [([1.5, -2.0, 0.25], ["b", "a"]), ([3.0], ["c"])], TORCHSCRIPT),
    (list_of_lists, [(1,), (4,)], TORCHSCRIPT),
    (dict_methods, [(["a", "b", "a", "c"], [1, 2, 3, 4]), (["a"], [9])], TORCHSCRIPT),
    (dict_items, [({3: 1.5, 1: 2.0},), ({4: 0.0},)], TORCHSCRIPT),
    (ranges, [(10,), (0,), (3,)], TORCHSCRIPT),
    (tensor_to_scalars, [(np.float32(2.5),), (np.int64(-3),)], TORCHSCRIPT),
    (
        tensor_properties,
        [(np.array([1.0, 2.0], np.float32),), (np.array([[1, 2]], np.int64),)],
        TORCHSCRIPT,
    ),
    (more_strings, [("a bc d", "b"), ("zz", "abc")], TORCHSCRIPT),
    (more_lists, [([1.5, -0.5, 2.0], [True, False]), ([3.0], [True, True])], TORCHSCRIPT),
    (complex_numbers, [(1.0, 2.0), (-0.5, 0.0)], TORCHSCRIPT),
    (int_rounding, [(7,), (-9,)], TORCHSCRIPT),
    (tensor_lists, [(np.float32(1.0), np.float32(3.0)), (np.int64(2), np.int64(1))], TORCHSCRIPT),
    (tensor_list_ambiguity, [(np.array([1.0, 2.0], np.float32),)], TORCHSCRIPT),
    # float division by zero is IEEE's inf or nan, as TorchScript computes it
    (float_division, [(1.0, 0.0), (-1.0, 0.0), (0.0, 0.0)], TORCHSCRIPT),
    # tsjit follows Python where TorchScript differs without raising
    (str_of_float, [(1.0,), (0.1,), (2.5e-8,)], PYTHON),
    (popitem, [({"a": 1, "b": 2},)], PYTHON),
    (floor_division_of_floats, [(1.0, 0.1), (-7.5, 2.0)], PYTHON),
    (split_lines, [("a\nb\r\nc",)], PYTHON),
    # errors: TorchScript raises torch.jit.Error, tsjit the class Python raises
    (index_error, [([1, 2], 2), ([], 0), ([1], -2)], PYTHON),
    (key_error, [({"a": 1},)], PYTHON),
    (value_error, [([1, 2],)], PYTHON),
    (zero_division, [(5,)], PYTHON),
]


def _torch_value(x):
    if isinstance(x, (np.ndarray, np.generic)):
        return torch.from_numpy(np.array(x))
    return x


def _tsjit_value(x):
    if isinstance(x, (np.ndarray, np.generic)):
        return ts_runtime.from_numpy(np.array(x))
    if isinstance(x, list):
        return [_tsjit_value(v) for v in x]
    if isinstance(x, dict):
        return {k: _tsjit_value(v) for k, v in x.items()}
    return x


def _copy(x):
    if isinstance(x, list):
        return [_copy(v) for v in x]
    if isinstance(x, dict):
        return {k: _copy(v) for k, v in x.items()}
    return x


def _same(got, want, path="result"):
    if isinstance(want, torch.dtype):
        assert ts_runtime.dtype(got).scalar_type.python_name == str(want).removeprefix("torch."), (
            path
        )
        return
    if isinstance(want, float):
        assert type(got) is float, f"{path}: {got!r} is not a float"
        if math.isnan(want):
            assert math.isnan(got), f"{path}: {got} != nan"
        else:
            assert got == pytest.approx(want, rel=1e-12, abs=1e-300), f"{path}: {got} != {want}"
        return
    if isinstance(got, ts_runtime.dtype) and type(want) is int:
        got = int(got)  # a dtype is its ScalarType number, as in TorchScript
    assert type(got) is type(want), f"{path}: {got!r} ({type(got).__name__}) vs {want!r}"
    if isinstance(want, (list, tuple)):
        assert len(got) == len(want), f"{path}: {got!r} != {want!r}"
        for i, (g, w) in enumerate(zip(got, want, strict=True)):
            _same(g, w, f"{path}[{i}]")
    elif isinstance(want, dict):
        _same(list(got.items()), list(want.items()), path)
    else:
        assert got == want, f"{path}: {got!r} != {want!r}"


def _run(fn, inputs):
    try:
        return "value", fn(*inputs)
    except Exception as exc:
        return "raised", exc


def _cases():
    for fn, inputs, expect in CASES:
        for i, args in enumerate(inputs):
            yield pytest.param(fn, args, expect, id=f"{fn.__name__}-{i}")


@pytest.fixture(scope="module")
def compiled():
    cache = {}

    def get(fn):
        if fn not in cache:
            scripted = torch.jit.script(fn)
            graph = ts_ir.parse_ir(str(scripted.graph))
            cache[fn] = (scripted, ts_runtime.Function(fn.__name__, graph, optimize=False))
        return cache[fn]

    return get


@pytest.mark.parametrize(("fn", "args", "expect"), list(_cases()))
def test_matches_torchscript(fn, args, expect, compiled):
    scripted, ours = compiled(fn)
    got = _run(ours, [_tsjit_value(_copy(a)) for a in args])
    if expect == PYTHON:
        want = _run(fn, [_torch_value(_copy(a)) for a in args])
    else:
        want = _run(scripted, [_torch_value(_copy(a)) for a in args])
    if want[0] == "raised":
        assert got[0] == "raised", f"expected {type(want[1]).__name__}, got {got[1]!r}"
        if expect == PYTHON:  # TorchScript's own errors are all torch.jit.Error
            assert isinstance(got[1], type(want[1])), got[1]
        return
    assert got[0] == "value", f"raised {got[1]!r}"
    _same(got[1], want[1])


def test_conversions_match_torchscript_and_python(compiled):
    """`int`, `float`, `bool` and `str` of numbers and strings agree in all three."""
    scripted, ours = compiled(conversions)
    for args in [(2.7, 3, "42"), (-2.7, 0, "-7")]:
        _same(ours(*args), scripted(*args))
        _same(ours(*args), conversions(*args))
