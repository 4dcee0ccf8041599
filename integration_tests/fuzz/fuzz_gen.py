"""Random well-typed TorchScript programs, for differential testing.

`generate(seed)` returns a `Program`: the source of a few functions (helpers
first, the entry point `f` last), the entry point's parameter types, and the
shape class of its tensor parameters. The same seed always gives the same
program and the same inputs (`Program.inputs(call)`), on any machine.

The programs are typed as TorchScript types them (every variable keeps the
type of its first assignment, empty containers are annotated, a variable
first assigned inside a block is not read after it) and are biased toward
what compilers get wrong: lists, dicts and tensors mutated inside loops and
branches and read somewhere else, aliases (`ys = xs`, views of tensors,
tensors inside lists, arguments mutated by a callee), early exits
(`break`, `continue`, `return` and `raise` inside loops), and code that
raises at run time (indices out of range, shape mismatches, division by
zero).

They also stay inside the part of the language where Python and TorchScript
agree, so that any disagreement is a bug: integers stay far from 64-bit
overflow (values stored inside loops are reduced `% 1009`), strings and
lists stored inside loops are truncated, nothing iterates over a list its
body may grow, no floating `//`, no `str(float)`, no chained comparisons.

Tensors are tracked with symbolic shapes: every tensor parameter has shape
`(N,)` or `(N, N)` (N changes between calls), and each dimension is a
polynomial in N (`Dim`) or a dimension of unknown size (a list
concatenated by `torch.cat`), so that most operations generated are
well-shaped; a few are deliberately not (an in-place op that would
broadcast its result, `cat` of mismatched shapes), to compare the errors.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

# -- types (the annotation text, with `Tensor` for `torch.Tensor`)

INT, FLOAT, BOOL, STR, TENSOR = "int", "float", "bool", "str", "Tensor"
LIST_INT, LIST_FLOAT, LIST_STR, LIST_TENSOR = (
    "List[int]",
    "List[float]",
    "List[str]",
    "List[Tensor]",
)
DICT_STR_INT, DICT_INT_TENSOR = "Dict[str, int]", "Dict[int, Tensor]"
TUPLE_INT_FLOAT, TUPLE_TENSOR_INT = "Tuple[int, float]", "Tuple[Tensor, int]"
OPT_INT, OPT_TENSOR = "Optional[int]", "Optional[Tensor]"

LISTS = {LIST_INT: INT, LIST_FLOAT: FLOAT, LIST_STR: STR, LIST_TENSOR: TENSOR}
SCALARS = (INT, FLOAT, BOOL, STR)
#: types whose values carry a tensor shape
SHAPED = frozenset({TENSOR, LIST_TENSOR, DICT_INT_TENSOR, TUPLE_TENSOR_INT, OPT_TENSOR})
#: types a value of which can be changed in place
MUTABLE = frozenset({TENSOR, *LISTS, DICT_STR_INT, DICT_INT_TENSOR})


def annotation(t: str) -> str:
    return t.replace("Tensor", "torch.Tensor")


# -- shapes: a dimension is a polynomial c0 + c1*N + c2*N*N, or an unknown size


Dim = tuple  # (c0, c1, c2) or ("u", k)
N: Dim = (0, 1, 0)
Shape = tuple  # of Dim


def dim_const(c: int) -> Dim:
    return (c, 0, 0)


def dim_known(d: Dim) -> bool:
    return d[0] != "u"


def dim_add(a: Dim, b: Dim) -> Dim | None:
    if not (dim_known(a) and dim_known(b)):
        return None
    return tuple(x + y for x, y in zip(a, b, strict=True))


def dim_mul(a: Dim, b: Dim) -> Dim | None:
    if not (dim_known(a) and dim_known(b)):
        return None
    out = [0, 0, 0, 0, 0]
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    if out[3] or out[4]:
        return None
    return tuple(out[:3])


def dim_value(d: Dim, n: int) -> int | None:
    if not dim_known(d):
        return None
    return d[0] + d[1] * n + d[2] * n * n


# -- the program


@dataclass
class Param:
    name: str
    type: str
    shape: Shape | None = None


@dataclass
class Program:
    seed: int
    source: str
    params: list[Param]
    rank: int
    extensions: bool = False
    entry: str = "f"

    def inputs(self, call: int) -> tuple[list[Any], dict]:
        """The arguments of call number `call` as plain data (numpy arrays for tensors),
        and how they were made: `{"n": N, "dtype": name}`."""
        return make_inputs(self, call)


#: (N, dtype) of the calls each program gets: a first call, a second with the same
#: kinds of inputs (the executor's cached plan), then other sizes and dtypes.
CALLS: tuple[tuple[int, str], ...] = ((3, "float32"), (3, "float32"), (4, "float64"), (2, "int64"))


def make_inputs(program: Program, call: int) -> tuple[list[Any], dict]:
    n, dtype = CALLS[call]
    rng = np.random.default_rng([program.seed, call])
    out: list[Any] = []
    for p in program.params:
        out.append(_input_value(rng, p.type, p.shape, n, dtype))
    return out, {"n": n, "dtype": dtype}


def _input_value(rng: np.random.Generator, t: str, shape: Shape | None, n: int, dtype: str) -> Any:
    if t == TENSOR:
        dims = tuple(dim_value(d, n) for d in shape)
        if dtype == "int64":
            return rng.integers(-4, 5, size=dims).astype(np.int64)
        return (rng.integers(-6, 7, size=dims) / 2).astype(dtype)
    if t == INT:
        return int(rng.integers(-3, 7))
    if t == FLOAT:
        return float(rng.integers(-8, 9)) / 4
    if t == BOOL:
        return bool(rng.integers(0, 2))
    if t == STR:
        return str(rng.choice(["", "a", "ab", "ba", "abc", "xay"]))
    if t == LIST_INT:
        return [int(x) for x in rng.integers(-3, 8, size=int(rng.integers(0, 5)))]
    if t == LIST_FLOAT:
        return [float(x) / 2 for x in rng.integers(-5, 6, size=int(rng.integers(0, 4)))]
    if t == OPT_INT:
        return None if rng.random() < 0.4 else int(rng.integers(-2, 6))
    raise AssertionError(f"no input of type {t}")


# -- the generator


@dataclass
class Var:
    name: str
    type: str
    shape: Shape | None = None  # tensors, and the tensors inside containers
    group: int = 0  # variables with the same group may be the same list/dict object
    fixed: bool = False  # a loop counter: never reassigned
    #: the tensors (by root name) this tensor may share memory with; "*" is any
    bases: frozenset = frozenset()


@dataclass
class Function:
    name: str
    params: list[Var]
    ret: list[str]  # one type, or several (a tuple)
    ret_shapes: list[Shape | None]
    mutates: set[int] = field(default_factory=set)  # positions of parameters it may mutate


class _Scope:
    __slots__ = ("vars",)

    def __init__(self) -> None:
        self.vars: dict[str, Var] = {}


_UNARY = ("relu", "sigmoid", "tanh", "abs", "neg", "exp", "sin", "floor", "sqrt")
_UNARY_INPLACE = ("relu_", "sigmoid_", "abs_", "neg_", "tanh_", "floor_")
_TENSOR_BINOPS = ("+", "-", "*", "/")
_REDUCTIONS = ("sum", "mean", "amax", "amin", "prod")
_NAME_RE = re.compile(r"[A-Za-z_]\w*")
_CALL_RE = re.compile(r"\bh\d+\(")
_STRINGS = ('""', '"a"', '"b"', '"ab"', '"ba"', '"xyz"', '"aab"')
_KEYS = ('"a"', '"b"', '"c"', '"ab"')


class Generator:
    """One program: `Generator(seed).program()`."""

    def __init__(self, seed: int, attempt: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed * 1000 + attempt)
        self.counter = 0
        self.groups = 0
        self.unknown_dims = 0
        self.functions: list[Function] = []
        # per function being generated
        self.scopes: list[_Scope] = []
        self.loop_depth = 0
        self.frozen: set[int] = set()  # groups being iterated over
        self.lines: list[str] = []
        self.indent = 1
        self.current: Function | None = None
        self.rank = 1
        #: a few programs use what tsjit accepts and TorchScript refuses (comprehension
        #: conditions); their scripted runs are compared with PyTorch's eager runs
        self.extensions = self.rng.random() < 0.08

    # -- small helpers

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def pick(self, seq):
        return seq[self.rng.randrange(len(seq))]

    def weighted(self, options: list[tuple[Any, float]]) -> Any:
        total = sum(w for _, w in options if w > 0)
        r = self.rng.random() * total
        for value, w in options:
            if w <= 0:
                continue
            r -= w
            if r <= 0:
                return value
        return options[-1][0]

    def fresh(self, prefix: str = "v") -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def new_group(self) -> int:
        self.groups += 1
        return self.groups

    def emit(self, line: str) -> None:
        self.lines.append("    " * self.indent + line)

    def visible(self, t: str | None = None) -> list[Var]:
        seen: dict[str, Var] = {}
        for scope in self.scopes:
            seen.update(scope.vars)
        vs = list(seen.values())
        return [v for v in vs if t is None or v.type == t]

    def lookup(self, name: str) -> Var | None:
        for scope in reversed(self.scopes):
            if name in scope.vars:
                return scope.vars[name]
        return None

    def define(self, var: Var) -> None:
        self.scopes[-1].vars[var.name] = var

    def push(self) -> None:
        self.scopes.append(_Scope())

    def pop(self) -> None:
        self.scopes.pop()

    def mutable(self, v: Var) -> bool:
        return v.group not in self.frozen

    def bases_of(self, expr: str) -> frozenset:
        """The memory an expression's tensor may share: the bases of the tensors it names;
        "*" (anything) where a container or a call may hand out any tensor."""
        out: set[str] = set()
        for name in _NAME_RE.findall(expr):
            v = self.lookup(name)
            if v is None:
                if any(fn.name == name for fn in self.functions):
                    out.add("*")
                continue
            if v.type == TENSOR:
                out |= v.bases or {v.name}
            elif v.type in SHAPED:
                out.add("*")
        return frozenset(out)

    def operand_for(self, target_bases: frozenset, expr: str) -> str:
        """`expr` as the operand of an in-place op on a tensor of `target_bases`: cloned where it
        may partially overlap the target, whose result is then undefined in PyTorch (it reads
        elements as they are written) while numpy reads them all first."""
        mine = self.bases_of(expr)
        if mine and ("*" in mine or "*" in target_bases or mine & target_bases):
            return f"({expr}).clone()"
        return expr

    def tensor_vars(self, shape: Shape | None = None) -> list[Var]:
        return [v for v in self.visible(TENSOR) if shape is None or v.shape == shape]

    def shapes_in_scope(self) -> list[Shape]:
        out: list[Shape] = []
        for v in self.visible(TENSOR):
            if v.shape not in out:
                out.append(v.shape)
        return out

    def n_source(self) -> str | None:
        """An expression whose value is N, from a tensor in scope."""
        for v in self.tensor_vars():
            for i, d in enumerate(v.shape):
                if d == N:
                    return f"{v.name}.size({i})"
        return None

    # -- bounding values stored inside loops

    def bound(self, t: str, expr: str) -> str:
        if self.loop_depth == 0:
            return expr
        if t == INT and not expr.lstrip("-").isdigit():
            if _CALL_RE.search(expr):
                # PyTorch 2.13 compiles `f(x) % k` to two calls of f: no % over a call
                return f"min(max({expr}, -1009), 1009)"
            return f"({expr}) % 1009"
        if t == STR and expr not in _STRINGS:
            return f"({expr})[:6]"
        if t in LISTS and not expr.startswith("["):
            return f"({expr})[:6]"
        if t == TENSOR:
            # a tensor fed back into itself (`x = x @ x + y` in a loop) grows without bound, and
            # float32 rounding then decides the digits compared (and `sin` of what is left); the
            # int bounds keep an int64 tensor's dtype
            return f"torch.clamp({expr}, -10, 10)"
        return expr

    # -- expressions, by type

    def expr(self, t: str, d: int = 2, shape: Shape | None = None) -> str:
        if t == INT:
            return self.int_expr(d)
        if t == FLOAT:
            return self.float_expr(d)
        if t == BOOL:
            return self.bool_expr(d)
        if t == STR:
            return self.str_expr(d)
        if t == TENSOR:
            assert shape is not None
            return self.tensor_expr(shape, d)
        if t in LISTS:
            return self.list_expr(t, d, shape)
        if t == DICT_STR_INT:
            return self.dict_str_int_expr(d)
        if t == DICT_INT_TENSOR:
            return self.dict_int_tensor_expr(shape)
        if t == TUPLE_INT_FLOAT:
            vs = self.visible(t)
            if vs and self.chance(0.5):
                return self.pick(vs).name
            return f"({self.int_expr(d - 1)}, {self.float_expr(d - 1)})"
        if t == TUPLE_TENSOR_INT:
            vs = [v for v in self.visible(t) if v.shape == shape]
            if vs and self.chance(0.5):
                return self.pick(vs).name
            return f"({self.tensor_expr(shape, d - 1)}, {self.int_expr(d - 1)})"
        if t == OPT_INT:
            vs = self.visible(t)
            if vs and self.chance(0.5):
                return self.pick(vs).name
            return "None" if self.chance(0.3) else self.int_expr(d - 1)
        if t == OPT_TENSOR:
            vs = [v for v in self.visible(t) if v.shape == shape]
            if vs and self.chance(0.5):
                return self.pick(vs).name
            return "None" if self.chance(0.3) else self.tensor_expr(shape, d - 1)
        raise AssertionError(t)

    def atom(self, t: str) -> str | None:
        vs = self.visible(t)
        return self.pick(vs).name if vs else None

    def lit_weight(self, t: str) -> float:
        """Literals are rarer where variables of the type exist: conditions on variables only
        are decided at run time."""
        return 0.7 if self.visible(t) else 2

    def int_expr(self, d: int) -> str:
        options: list[tuple[str, float]] = [("lit", self.lit_weight(INT)), ("var", 5)]
        if d > 0:
            options += [
                ("arith", 5),
                ("div", 1),
                ("neg", 0.5),
                ("minmax", 1),
                ("len", 2),
                ("index", 2),
                ("tensor", 1.5),
                ("dict", 1),
                ("ternary", 1),
                ("call", 1),
                ("tuple", 0.5),
                ("optional", 0.7),
                ("str", 0.5),
                ("bool", 0.3),
            ]
        kind = self.weighted(options)
        if kind == "var":
            a = self.atom(INT)
            if a is not None:
                return a
            kind = "lit"
        if kind == "lit":
            return str(self.pick([0, 1, 2, 3, -1, 5, 7, -2]))
        if kind == "arith":
            op = self.pick(["+", "-", "*", "+", "-"])
            return f"({self.int_expr(d - 1)} {op} {self.int_expr(d - 1)})"
        if kind == "div":
            if self.chance(0.5):
                return f"({self.int_expr(d - 1)} // {self.int_expr(d - 1)})"
            # PyTorch 2.13 dies of SIGFPE on an int `%` by zero: the divisor is never 0; and
            # it compiles `f(x) % k` to two calls of f: no % over a call
            left = self.int_expr(d - 1)
            op = "//" if _CALL_RE.search(left) else "%"
            return f"({left} {op} {self.pick(['2', '3', '7', '-3'])})"
        if kind == "neg":
            return f"(-{self.int_expr(d - 1)})"
        if kind == "minmax":
            return f"{self.pick(['min', 'max'])}({self.int_expr(d - 1)}, {self.int_expr(d - 1)})"
        if kind == "len":
            cands = [v for v in self.visible() if v.type in LISTS or v.type == DICT_STR_INT]
            cands += self.visible(STR)
            if cands:
                return f"len({self.pick(cands).name})"
        if kind == "index":
            lists = self.visible(LIST_INT)
            if lists:
                return f"{self.pick(lists).name}[{self.index_expr()}]"
        if kind == "tensor":
            ts = self.tensor_vars()
            if ts:
                v = self.pick(ts)
                r = len(v.shape)
                form = self.pick(["size", "dim", "numel", "len"])
                if form == "size" and r > 0:
                    return f"{v.name}.size({self.rng.randrange(-r, r)})"
                if form == "dim":
                    return f"{v.name}.dim()"
                if form == "len" and r > 0:
                    return f"len({v.name})"
                return f"{v.name}.numel()"
        if kind == "dict":
            ds = self.visible(DICT_STR_INT)
            if ds:
                dv = self.pick(ds).name
                key = self.pick(_KEYS)
                if self.chance(0.5):
                    return f"{dv}.get({key}, {self.int_expr(0)})"
                return f"{dv}[{key}]"
        if kind == "ternary":
            return (
                f"({self.int_expr(d - 1)} if {self.bool_expr(d - 1)} else {self.int_expr(d - 1)})"
            )
        if kind == "call":
            call = self.call_expr(INT)
            if call is not None:
                return call
        if kind == "tuple":
            ts = self.visible(TUPLE_INT_FLOAT)
            if ts:
                return f"{self.pick(ts).name}[0]"
            ts = self.visible(TUPLE_TENSOR_INT)
            if ts:
                return f"{self.pick(ts).name}[1]"
        if kind == "optional":
            os_ = self.visible(OPT_INT)
            if os_:
                o = self.pick(os_).name
                return f"({o} if {o} is not None else {self.int_expr(0)})"
        if kind == "str":
            ss = self.visible(STR)
            if ss:
                return f"{self.pick(ss).name}.find({self.pick(_STRINGS)})"
        if kind == "bool":
            return f"int({self.bool_expr(d - 1)})"
        a = self.atom(INT)
        return a if a is not None else str(self.rng.randrange(0, 4))

    def index_expr(self) -> str:
        return self.weighted(
            [("0", 4), ("-1", 3), ("1", 2), ("2", 0.5), ("-2", 0.5), (None, 1)]
        ) or self.int_expr(1)

    def float_expr(self, d: int) -> str:
        options: list[tuple[str, float]] = [("lit", self.lit_weight(FLOAT)), ("var", 4)]
        if d > 0:
            options += [
                ("arith", 5),
                ("div", 1),
                ("conv", 1.5),
                ("tensor", 2),
                ("index", 1),
                ("ternary", 0.7),
                ("call", 0.7),
                ("tuple", 0.5),
                ("minmax", 0.5),
            ]
        kind = self.weighted(options)
        if kind == "var":
            a = self.atom(FLOAT)
            if a is not None:
                return a
            kind = "lit"
        if kind == "lit":
            return self.pick(["0.5", "1.0", "-1.5", "2.0", "0.0", "0.25", "3.0"])
        if kind == "arith":
            op = self.pick(["+", "-", "*"])
            left = self.float_expr(d - 1)
            right = self.float_expr(d - 1) if self.chance(0.7) else self.int_expr(d - 1)
            return f"({left} {op} {right})"
        if kind == "div":
            return f"({self.float_expr(d - 1)} / {self.float_expr(d - 1)})"
        if kind == "conv":
            return f"float({self.int_expr(d - 1)})"
        if kind == "tensor":
            ts = self.tensor_vars()
            if ts:
                v = self.pick(ts)
                red = self.pick(["sum", "mean", "amax", "sum"])
                if red == "amax" and v.shape and any(not dim_known(x) for x in v.shape):
                    red = "sum"
                if red == "amax":
                    return (
                        f"float({v.name}.amax())" if self.chance(0.3) else f"float({v.name}.sum())"
                    )
                return f"float({v.name}.{red}())"
        if kind == "index":
            fl = self.visible(LIST_FLOAT)
            if fl:
                return f"{self.pick(fl).name}[{self.index_expr()}]"
        if kind == "ternary":
            return f"({self.float_expr(d - 1)} if {self.bool_expr(d - 1)} else {self.float_expr(d - 1)})"
        if kind == "call":
            call = self.call_expr(FLOAT)
            if call is not None:
                return call
        if kind == "tuple":
            ts = self.visible(TUPLE_INT_FLOAT)
            if ts:
                return f"{self.pick(ts).name}[1]"
        if kind == "minmax":
            return (
                f"{self.pick(['min', 'max'])}({self.float_expr(d - 1)}, {self.float_expr(d - 1)})"
            )
        a = self.atom(FLOAT)
        return a if a is not None else "1.5"

    def bool_expr(self, d: int) -> str:
        options: list[tuple[str, float]] = [("lit", 0.2), ("var", 3), ("cmp", 5)]
        if d > 0:
            options += [
                ("logic", 2),
                ("not", 1),
                ("contains", 2),
                ("none", 1.5),
                ("tensor", 1.5),
                ("strcmp", 0.7),
            ]
        kind = self.weighted(options)
        if kind == "var":
            a = self.atom(BOOL)
            if a is not None:
                return a
            kind = "cmp"
        if kind == "lit":
            return self.pick(["True", "False"])
        if kind == "cmp":
            op = self.pick(["<", "<=", ">", ">=", "==", "!="])
            if self.chance(0.75):
                return f"({self.int_expr(max(d - 1, 0))} {op} {self.int_expr(max(d - 1, 0))})"
            return f"({self.float_expr(max(d - 1, 0))} {op} {self.float_expr(max(d - 1, 0))})"
        if kind == "logic":
            op = self.pick(["and", "or"])
            return f"({self.bool_expr(d - 1)} {op} {self.bool_expr(d - 1)})"
        if kind == "not":
            return f"(not {self.bool_expr(d - 1)})"
        if kind == "contains":
            which = self.pick(["list", "dict", "str"])
            if which == "list":
                ls = self.visible(LIST_INT)
                if ls:
                    neg = "not in" if self.chance(0.3) else "in"
                    return f"({self.int_expr(0)} {neg} {self.pick(ls).name})"
            if which == "dict":
                ds = self.visible(DICT_STR_INT)
                if ds:
                    return f"({self.pick(_KEYS)} in {self.pick(ds).name})"
            ss = self.visible(STR)
            if ss:
                return f"({self.pick(_STRINGS)} in {self.pick(ss).name})"
        if kind == "none":
            os_ = self.visible(OPT_INT) + self.visible(OPT_TENSOR)
            if os_:
                return f"({self.pick(os_).name} is {self.pick(['None', 'not None'])})"
        if kind == "tensor":
            ts = self.tensor_vars()
            if ts:
                v = self.pick(ts)
                form = self.pick(["any", "all", "gt"])
                if form == "gt":
                    return f"bool({v.name}.sum() > {self.float_expr(0)})"
                return f"bool(({v.name} > 0).{form}())"
        if kind == "strcmp":
            ss = self.visible(STR)
            if ss:
                s = self.pick(ss).name
                form = self.pick(["eq", "startswith", "endswith"])
                if form == "eq":
                    return f"({s} == {self.str_expr(0)})"
                return f"{s}.{form}({self.pick(_STRINGS)})"
        return self.pick(["True", "False"])

    def str_expr(self, d: int) -> str:
        options: list[tuple[str, float]] = [("lit", 3), ("var", 4)]
        if d > 0:
            options += [
                ("concat", 3),
                ("slice", 2),
                ("index", 1),
                ("str_int", 1),
                ("method", 1.5),
                ("list", 1),
                ("ternary", 0.5),
                ("join", 0.5),
            ]
        kind = self.weighted(options)
        if kind == "var":
            a = self.atom(STR)
            if a is not None:
                return a
            kind = "lit"
        if kind == "lit":
            return self.pick(_STRINGS)
        if kind == "concat":
            return f"({self.str_expr(d - 1)} + {self.str_expr(d - 1)})"
        if kind == "slice":
            lo = self.pick(["", "1", "-2", "0"])
            hi = self.pick(["", "2", "-1"])
            return f"{self.str_expr(0)}[{lo}:{hi}]"
        if kind == "index":
            ss = self.visible(STR)
            if ss:
                return f"{self.pick(ss).name}[{self.index_expr()}]"
        if kind == "str_int":
            return f"str({self.int_expr(d - 1)})"
        if kind == "method":
            m = self.pick(["upper()", "lower()", 'replace("a", "c")', "strip()"])
            return f"{self.str_expr(d - 1)}.{m}"
        if kind == "list":
            ls = self.visible(LIST_STR)
            if ls:
                return f"{self.pick(ls).name}[{self.index_expr()}]"
        if kind == "ternary":
            return (
                f"({self.str_expr(d - 1)} if {self.bool_expr(d - 1)} else {self.str_expr(d - 1)})"
            )
        if kind == "join":
            ls = self.visible(LIST_STR)
            if ls:
                return f'"-".join({self.pick(ls).name})'
        return self.pick(_STRINGS)

    # -- tensors

    def make_tensor(self, shape: Shape) -> str | None:
        """A fresh tensor of `shape` built from sizes in scope (None where a size is unknown)."""
        sizes: list[str] = []
        n = self.n_source()
        for d in shape:
            if dim_known(d):
                if d == dim_const(d[0]):
                    sizes.append(str(d[0]))
                    continue
                if n is None:
                    return None
                c0, c1, c2 = d
                parts = []
                if c2:
                    parts.append(f"{c2} * {n} * {n}" if c2 != 1 else f"{n} * {n}")
                if c1:
                    parts.append(f"{c1} * {n}" if c1 != 1 else n)
                if c0:
                    parts.append(str(c0))
                sizes.append(" + ".join(parts))
            else:
                src = None
                for v in self.tensor_vars():
                    if d in v.shape:
                        src = f"{v.name}.size({v.shape.index(d)})"
                        break
                if src is None:
                    return None
                sizes.append(src)
        how = self.pick(["zeros", "ones", "full"])
        size_list = "[" + ", ".join(sizes) + "]"
        if how == "full":
            return f"torch.full({size_list}, {self.pick(['0.5', '2.0', '-1.0'])})"
        return f"torch.{how}({size_list})"

    def tensor_expr(self, shape: Shape, d: int) -> str:
        """A tensor expression of `shape` (falls back to a fresh tensor)."""
        pool = self.tensor_vars(shape)
        if d <= 0 or (pool and self.chance(0.35)):
            if pool:
                return self.pick(pool).name
            made = self.make_tensor(shape)
            if made is not None:
                return made
            if d <= 0:
                raise _NoTensor(shape)
        options: list[tuple[str, float]] = [
            ("unary", 3),
            ("binary", 4),
            ("scalar", 3),
            ("where", 0.7),
            ("clamp", 0.5),
            ("like", 0.7),
            ("reduce", 1.5),
            ("index", 1.5),
            ("matmul", 1),
            ("transpose", 0.7),
            ("list", 0.7),
            ("dict", 0.5),
            ("call", 0.7),
            ("optional", 0.5),
            ("cumsum", 0.3),
        ]
        for _ in range(4):
            kind = self.weighted(options)
            got = self._tensor_form(kind, shape, d)
            if got is not None:
                return got
        if pool:
            return self.pick(pool).name
        made = self.make_tensor(shape)
        if made is not None:
            return made
        # no size is known in scope: a shape-preserving expression over something of this shape
        # cannot exist, so the caller only asks for shapes it has seen
        raise _NoTensor(shape)

    def _tensor_form(self, kind: str, shape: Shape, d: int) -> str | None:
        sub = d - 1
        if kind == "unary":
            op = self.pick(_UNARY)
            inner = self.tensor_expr(shape, sub)
            return f"torch.{op}({inner})" if self.chance(0.5) else f"{inner}.{op}()"
        if kind == "binary":
            op = self.pick(_TENSOR_BINOPS)
            a = self.tensor_expr(shape, sub)
            b = self.broadcast_partner(shape, sub)
            if self.chance(0.5):
                a, b = b, a
                if not self._broadcasts_to(self._shape_of_hint(a), shape):
                    a, b = b, a
            if op == "+" and self.chance(0.2):
                return f"torch.add({a}, {b}, alpha={self.pick(['2', '-1', '0.5'])})"
            return f"({a} {op} {b})"
        if kind == "scalar":
            op = self.pick(["+", "-", "*", "/", "*"])
            s = self.float_expr(1) if self.chance(0.6) else self.int_expr(1)
            a = self.tensor_expr(shape, sub)
            if self.chance(0.3) and op in "+*":
                return f"({s} {op} {a})"
            return f"({a} {op} {s})"
        if kind == "where":
            a = self.tensor_expr(shape, sub)
            b = self.tensor_expr(shape, sub)
            return f"torch.where({a} > {self.float_expr(0)}, {a}, {b})"
        if kind == "clamp":
            return f"torch.clamp({self.tensor_expr(shape, sub)}, -1.0, 2.0)"
        if kind == "like":
            f = self.pick(["zeros_like", "ones_like", "clone"])
            inner = self.tensor_expr(shape, sub)
            return f"{inner}.clone()" if f == "clone" else f"torch.{f}({inner})"
        if kind == "cumsum" and shape:
            return f"torch.cumsum({self.tensor_expr(shape, sub)}, {self.rng.randrange(len(shape))})"
        if kind == "reduce":
            cands = []
            for v in self.tensor_vars():
                r = len(v.shape)
                for p in range(r):
                    if v.shape[:p] + v.shape[p + 1 :] == shape:
                        cands.append((v, p))
            if not cands:
                return None
            v, p = self.pick(cands)
            red = self.pick(_REDUCTIONS)
            if len(v.shape) == 1 and self.chance(0.5):
                return f"{v.name}.{red}()"
            dim = p if self.chance(0.6) else p - len(v.shape)
            if red in ("amax", "amin") and self.chance(0.4):
                fn = "max" if red == "amax" else "min"
                return f"torch.{fn}({v.name}, {dim})[0]"
            return f"{v.name}.{red}({dim})"
        if kind == "index":
            cands = [v for v in self.tensor_vars() if len(v.shape) >= 1 and v.shape[1:] == shape]
            cands2 = [v for v in self.tensor_vars() if len(v.shape) == 2 and v.shape[:1] == shape]
            if cands and (not cands2 or self.chance(0.6)):
                v = self.pick(cands)
                i = self.index_expr()
                return f"{v.name}.select(0, {i})" if self.chance(0.3) else f"{v.name}[{i}]"
            if cands2:
                return f"{self.pick(cands2).name}[:, {self.index_expr()}]"
            return None
        if kind == "matmul":
            if len(shape) == 2 and shape[0] == shape[1] and dim_known(shape[0]):
                a = self.tensor_expr(shape, sub)
                b = self.tensor_expr(shape, sub)
                return self.pick([f"torch.matmul({a}, {b})", f"{a}.mm({b})", f"({a} @ {b})"])
            if len(shape) == 1:
                sq = (shape[0], shape[0])
                if self.tensor_vars(sq):
                    a = self.tensor_expr(sq, sub)
                    b = self.tensor_expr(shape, sub)
                    return f"torch.matmul({a}, {b})" if self.chance(0.5) else f"{a}.mv({b})"
            if len(shape) == 0:
                vecs = [s for s in self.shapes_in_scope() if len(s) == 1]
                if vecs:
                    s = self.pick(vecs)
                    return f"torch.dot({self.tensor_expr(s, sub)}, {self.tensor_expr(s, sub)})"
            return None
        if kind == "transpose" and len(shape) == 2:
            t = (shape[1], shape[0])
            if self.tensor_vars(t):
                inner = self.tensor_expr(t, sub)
                return f"{inner}.t()" if self.chance(0.5) else f"{inner}.transpose(0, 1)"
            return None
        if kind == "list":
            ls = [v for v in self.visible(LIST_TENSOR) if v.shape == shape]
            if ls:
                return f"{self.pick(ls).name}[{self.index_expr()}]"
            return None
        if kind == "dict":
            ds = [v for v in self.visible(DICT_INT_TENSOR) if v.shape == shape]
            if ds:
                return f"{self.pick(ds).name}[{self.pick(['0', '1', '2'])}]"
            return None
        if kind == "call":
            return self.call_expr(TENSOR, shape)
        if kind == "optional":
            os_ = [v for v in self.visible(OPT_TENSOR) if v.shape == shape]
            if os_:
                o = self.pick(os_).name
                return f"({o} if {o} is not None else {self.tensor_expr(shape, sub)})"
            return None
        return None

    def _shape_of_hint(self, expr: str) -> Shape | None:
        v = self.lookup(expr)
        return v.shape if v is not None and v.type == TENSOR else None

    @staticmethod
    def _broadcasts_to(src: Shape | None, dst: Shape) -> bool:
        if src is None:
            return True
        return len(src) <= len(dst) and tuple(dst[len(dst) - len(src) :]) == tuple(src)

    def broadcast_partner(self, shape: Shape, d: int) -> str:
        """A tensor that broadcasts to `shape`: the same shape, a 0-d tensor, or a suffix."""
        r = self.rng.random()
        if r < 0.15:
            zero_d = self.tensor_vars(())
            if zero_d:
                return self.pick(zero_d).name
            alls = self.tensor_vars()
            if alls:
                return f"{self.pick(alls).name}.sum()"
        if r < 0.25 and len(shape) == 2 and self.tensor_vars(shape[1:]):
            return self.tensor_expr(shape[1:], d)
        return self.tensor_expr(shape, d)

    def new_tensor_expr(self, d: int) -> tuple[str, Shape] | None:
        """A tensor expression of any shape (and the shape): what a new variable holds."""
        shapes = self.shapes_in_scope()
        if not shapes:
            return None
        kind = self.weighted(
            [
                ("same", 6),
                ("view", 2),
                ("reduce", 1),
                ("cat", 1.5),
                ("stack", 1.2),
                ("unsqueeze", 0.5),
                ("matmul", 1.2),
                ("slice", 1.5),
                ("cat_list", 0.5),
            ]
        )
        s = self.pick(shapes)
        v = self.pick(self.tensor_vars(s))
        if kind == "view" and s and all(dim_known(x) for x in s):
            total = s[0]
            for x in s[1:]:
                total = dim_mul(total, x)
            if total is not None:
                form = self.pick(["view(-1)", "reshape(-1)", "flatten()", "contiguous().view(-1)"])
                return f"{v.name}.{form}", (total,)
        if kind == "reduce" and s:
            red = self.pick(_REDUCTIONS)
            if self.chance(0.4):
                return f"{v.name}.{red}()", ()
            p = self.rng.randrange(len(s))
            return f"{v.name}.{red}({p})", s[:p] + s[p + 1 :]
        if kind == "cat" and s:
            other = self.tensor_expr(s, 1)
            if self.chance(0.1):
                # deliberately mismatched at times: cat of a tensor and its transpose/sum
                return f"torch.cat([{v.name}, {v.name}.sum(0, keepdim=True)])", (
                    dim_add(s[0], dim_const(1)) or self._unknown(),
                    *s[1:],
                )
            first = dim_add(s[0], s[0])
            return f"torch.cat([{v.name}, {other}])", (first or self._unknown(), *s[1:])
        if kind == "stack":
            other = self.tensor_expr(s, 1)
            return f"torch.stack([{v.name}, {other}])", (dim_const(2), *s)
        if kind == "unsqueeze":
            p = self.rng.randrange(len(s) + 1)
            return f"{v.name}.unsqueeze({p})", (*s[:p], dim_const(1), *s[p:])
        if kind == "matmul" and len(s) == 2 and s[0] == s[1]:
            return f"torch.matmul({v.name}, {self.tensor_expr(s, 1)})", s
        if kind == "slice" and s and dim_known(s[0]):
            lo = self.pick([1, 1, 2])
            first = dim_add(s[0], dim_const(-lo))
            if first is not None and (first[1] > 0 or first[2] > 0 or first[0] > 0):
                if len(s) == 2 and self.chance(0.3):
                    second = dim_add(s[1], dim_const(-lo))
                    if second is not None and (second[1] > 0 or second[2] > 0 or second[0] > 0):
                        return f"{v.name}[:, {lo}:]", (s[0], second)
                return f"{v.name}[{lo}:]", (first, *s[1:])
        if kind == "cat_list":
            ls = [x for x in self.visible(LIST_TENSOR) if x.shape and len(x.shape) >= 1]
            if ls:
                lv = self.pick(ls)
                return f"torch.cat({lv.name})", (self._unknown(), *lv.shape[1:])
        return self.tensor_expr(s, d), s

    def _unknown(self) -> Dim:
        self.unknown_dims += 1
        return ("u", self.unknown_dims)

    # -- containers

    def list_expr(self, t: str, d: int, shape: Shape | None) -> str:
        el = LISTS[t]
        vs = [v for v in self.visible(t) if t != LIST_TENSOR or v.shape == shape]
        r = self.rng.random()
        if vs and r < 0.3:
            v = self.pick(vs).name
            return self.pick([v, f"{v}[1:]", f"{v}[:-1]", f"{v}.copy()", f"{v}[::-1]"])
        if r < 0.55 and d > 0:
            # comprehension
            src = self.comprehension_source()
            var, src_expr, src_type, src_shape = src
            self.push()
            self.define(Var(var, src_type, src_shape))
            body = self.expr(el, 1, shape)
            cond = ""
            if self.extensions and self.chance(0.4):
                cond = f" if {self.bool_expr(1)}"
            self.pop()
            return f"[{body} for {var} in {src_expr}{cond}]"
        if vs and r < 0.65 and t != LIST_TENSOR:
            a = self.pick(vs).name
            return f"{a} + {self.list_expr(t, d - 1, shape)}" if d > 0 else a
        n = self.rng.randrange(1, 4)
        return "[" + ", ".join(self.expr(el, max(d - 1, 0), shape) for _ in range(n)) + "]"

    def comprehension_source(self) -> tuple[str, str, str, Shape | None]:
        var = self.fresh("c")
        kind = self.pick(["range", "range", "list", "list", "tensor"])
        if kind == "list":
            lists = [v for v in self.visible() if v.type in (LIST_INT, LIST_FLOAT, LIST_STR)]
            if lists:
                lv = self.pick(lists)
                return var, lv.name, LISTS[lv.type], None
        if kind == "tensor":
            ts = [v for v in self.tensor_vars() if len(v.shape) >= 1]
            if ts:
                tv = self.pick(ts)
                return var, tv.name, TENSOR, tv.shape[1:]
        return var, f"range({self.small_count()})", INT, None

    def small_count(self) -> str:
        form = self.weighted([("lit", 3), ("var", 2), ("len", 1)])
        if form == "var":
            ints = self.visible(INT)
            if ints:
                return f"min({self.pick(ints).name}, 4)"
        if form == "len":
            ls = [v for v in self.visible() if v.type in LISTS]
            if ls:
                return f"len({self.pick(ls).name})"
        return str(self.rng.randrange(0, 5))

    def dict_str_int_expr(self, d: int) -> str:
        vs = self.visible(DICT_STR_INT)
        if vs and self.chance(0.4):
            return self.pick(vs).name
        if self.chance(0.3) and d > 0:
            var = self.fresh("k")
            self.push()
            self.define(Var(var, STR))
            val = self.int_expr(1)
            self.pop()
            keys = ", ".join(self.pick(_KEYS) for _ in range(2))
            return f"{{{var}: {val} for {var} in [{keys}]}}"
        items = {
            self.pick(_KEYS): self.int_expr(max(d - 1, 0)) for _ in range(self.rng.randrange(1, 3))
        }
        return "{" + ", ".join(f"{k}: {v}" for k, v in items.items()) + "}"

    def dict_int_tensor_expr(self, shape: Shape | None) -> str:
        vs = [v for v in self.visible(DICT_INT_TENSOR) if v.shape == shape]
        if vs and self.chance(0.4):
            return self.pick(vs).name
        items = [f"{i}: {self.tensor_expr(shape, 1)}" for i in range(self.rng.randrange(1, 3))]
        return "{" + ", ".join(items) + "}"

    # -- calls

    def call_expr(self, t: str, shape: Shape | None = None) -> str | None:
        cands = [
            fn
            for fn in self.functions
            if len(fn.ret) == 1 and fn.ret[0] == t and (t != TENSOR or fn.ret_shapes[0] == shape)
        ]
        if not cands:
            return None
        fn = self.pick(cands)
        args = self.call_args(fn)
        if args is None:
            return None
        return f"{fn.name}({', '.join(args)})"

    def call_args(self, fn: Function) -> list[str] | None:
        args = []
        for i, p in enumerate(fn.params):
            if p.type in MUTABLE:
                cands = [
                    v
                    for v in self.visible(p.type)
                    if (p.type not in SHAPED or v.shape == p.shape)
                    and (i not in fn.mutates or self.mutable(v))
                ]
                if cands and self.chance(0.8):
                    args.append(self.pick(cands).name)
                    continue
                if p.type == TENSOR:
                    try:
                        args.append(self.tensor_expr(p.shape, 1))
                    except _NoTensor:
                        return None
                    continue
                if p.type in SHAPED:
                    return None
            if p.type in SHAPED and not self.tensor_vars(p.shape) and p.type != OPT_TENSOR:
                return None
            try:
                args.append(self.expr(p.type, 1, p.shape))
            except _NoTensor:
                return None
        return args

    # -- statements

    def block(self, n: int) -> None:
        for _ in range(n):
            self.statement()

    def statement(self) -> None:
        depth_penalty = 0.35 ** (self.indent - 1)
        in_loop = self.loop_depth > 0
        options: list[tuple[str, float]] = [
            ("assign", 6),
            ("reassign", 4),
            ("augassign", 2),
            ("list_mut", 5),
            ("dict_mut", 1.5),
            ("tensor_inplace", 4),
            ("tensor_alias", 2),
            ("if", 4 * depth_penalty),
            ("for", 3 * depth_penalty),
            ("while", 1.2 * depth_penalty),
            ("alias", 1.5),
            ("unpack", 0.7),
            ("optional", 1),
            ("call", 1.5),
            ("raise", 0.25),
            ("assert", 0.25),
            ("early_return", 0.6),
            ("exit", 2.5 if in_loop else 0),
        ]
        for _ in range(5):
            kind = self.weighted(options)
            if getattr(self, "stmt_" + kind)():
                return
        self.stmt_assign()

    def stmt_assign(self) -> bool:
        t = self.weighted(
            [
                (INT, 4),
                (FLOAT, 2),
                (BOOL, 1.5),
                (STR, 1),
                (TENSOR, 4),
                (LIST_INT, 3),
                (LIST_FLOAT, 1),
                (LIST_STR, 0.7),
                (LIST_TENSOR, 1.5),
                (DICT_STR_INT, 1.5),
                (DICT_INT_TENSOR, 0.5),
                (TUPLE_INT_FLOAT, 0.5),
                (TUPLE_TENSOR_INT, 0.5),
            ]
        )
        name = self.fresh()
        if t == TENSOR:
            got = self.new_tensor_expr(2)
            if got is None:
                return False
            expr, shape = got
            expr = self.bound(TENSOR, expr)
            self.emit(f"{name} = {expr}")
            self.define(Var(name, TENSOR, shape, bases=self.bases_of(expr) or frozenset({name})))
            return True
        shape = None
        if t in SHAPED:
            shapes = self.shapes_in_scope()
            if not shapes:
                return False
            shape = self.pick(shapes)
        group = self.new_group() if t in MUTABLE else 0
        if t in LISTS or t in (DICT_STR_INT, DICT_INT_TENSOR):
            if self.chance(0.15):
                self.emit(f"{name}: {annotation(t)} = {'[]' if t in LISTS else '{}'}")
                self.define(Var(name, t, shape, group))
                return True
        expr = self.bound(t, self.expr(t, 2, shape))
        if t in (LIST_INT, LIST_FLOAT, LIST_STR, DICT_STR_INT) and self.chance(0.5):
            self.emit(f"{name}: {annotation(t)} = {expr}")
        else:
            self.emit(f"{name} = {expr}")
        self.define(Var(name, t, shape, group))
        return True

    def stmt_reassign(self) -> bool:
        cands = [v for v in self.visible() if v.type not in (OPT_INT, OPT_TENSOR) and not v.fixed]
        if not cands:
            return False
        v = self.pick(cands)
        expr = self.bound(v.type, self.expr(v.type, 2, v.shape))
        self.emit(f"{v.name} = {expr}")
        if v.type == TENSOR:
            v.bases = v.bases | self.bases_of(expr)
        if v.type in MUTABLE:
            # the name may now be any object: give it the group of what it may alias
            target = self.lookup(expr)
            v.group = target.group if target is not None and target.type == v.type else v.group
        return True

    def stmt_augassign(self) -> bool:
        cands = [
            v for v in self.visible(INT) + self.visible(FLOAT) + self.visible(STR) if not v.fixed
        ]
        v = self.pick(cands) if cands else None
        if v is None:
            return False
        if v.type == STR:
            self.emit(f"{v.name} = {self.bound(STR, f'{v.name} + {self.str_expr(1)}')}")
            return True
        op = self.pick(["+=", "-=", "*="])
        rhs = self.int_expr(1) if v.type == INT else self.float_expr(1)
        if v.type == INT and self.loop_depth > 0:
            self.emit(f"{v.name} = {self.bound(INT, f'{v.name} {op[0]} {rhs}')}")
        else:
            self.emit(f"{v.name} {op} {rhs}")
        return True

    def stmt_list_mut(self) -> bool:
        lists = [v for v in self.visible() if v.type in LISTS and self.mutable(v)]
        if not lists:
            return False
        v = self.pick(lists)
        el = LISTS[v.type]
        op = self.weighted(
            [
                ("append", 5),
                ("insert", 1.5),
                ("pop", 1.5),
                ("setitem", 2.5),
                ("del", 0.7),
                ("extend", 0.7 if self.loop_depth == 0 else 0),
                ("clear", 0.3),
                ("sort", 0.4 if el in (INT, FLOAT, STR) else 0),
                ("reverse", 0.3),
                ("item_inplace", 2 if el == TENSOR else 0),
            ]
        )
        item = self.bound(el, self.expr(el, 1, v.shape)) if el != TENSOR else None
        if el == TENSOR:
            try:
                item = self.tensor_expr(v.shape, 1)
            except _NoTensor:
                return False
        if op == "append":
            self.emit(f"{v.name}.append({item})")
        elif op == "insert":
            self.emit(f"{v.name}.insert({self.index_expr()}, {item})")
        elif op == "pop":
            if self.chance(0.5):
                self.emit(f"{v.name}.pop()")
            else:
                self.emit(f"{v.name}.pop({self.index_expr()})")
        elif op == "setitem":
            self.emit(f"{v.name}[{self.index_expr()}] = {item}")
        elif op == "del":
            self.emit(f"del {v.name}[{self.index_expr()}]")
        elif op == "extend":
            self.emit(f"{v.name}.extend({self.list_expr(v.type, 1, v.shape)})")
        elif op == "clear":
            self.emit(f"{v.name}.clear()")
        elif op == "sort":
            self.emit(f"{v.name}.sort()")
        elif op == "reverse":
            self.emit(f"{v.name}.reverse()")
        else:
            self.emit(f"{v.name}[{self.index_expr()}].{self.inplace_op(v.shape)}")
        return True

    def stmt_dict_mut(self) -> bool:
        ds = [
            v
            for v in self.visible()
            if v.type in (DICT_STR_INT, DICT_INT_TENSOR) and self.mutable(v)
        ]
        if not ds:
            return False
        v = self.pick(ds)
        if v.type == DICT_STR_INT:
            key = self.pick(_KEYS)
            op = self.weighted([("set", 4), ("update", 2), ("del", 0.5), ("pop", 0.5)])
            if op == "set":
                self.emit(f"{v.name}[{key}] = {self.bound(INT, self.int_expr(1))}")
            elif op == "update":
                self.emit(f"{v.name}[{key}] = {self.bound(INT, f'{v.name}.get({key}, 0) + 1')}")
            elif op == "del":
                self.emit(f"del {v.name}[{key}]")
            else:
                self.emit(f"{v.name}.pop({key})")
            return True
        key = self.pick(["0", "1", "2"])
        if self.chance(0.5):
            self.emit(f"{v.name}[{key}] = {self.tensor_expr(v.shape, 1)}")
        else:
            self.emit(f"{v.name}[{key}].{self.inplace_op(v.shape)}")
        return True

    def inplace_op(self, shape: Shape, bases: frozenset = frozenset({"*"})) -> str:
        kind = self.weighted(
            [("add", 3), ("mul", 2), ("unary", 1.5), ("fill", 1), ("zero", 0.5), ("clamp", 0.5)]
        )
        if kind == "add":
            m = self.pick(["add_", "sub_", "mul_", "div_"])
            if self.chance(0.08) and len(shape) < 2 and self.shapes_in_scope():
                # the result would need broadcasting: an error in both
                big = [s for s in self.shapes_in_scope() if len(s) > len(shape)]
                if big:
                    return f"{m}({self.operand_for(bases, self.tensor_expr(self.pick(big), 0))})"
            return f"{m}({self.operand_for(bases, self.broadcast_partner(shape, 1))})"
        if kind == "mul":
            return f"{self.pick(['mul_', 'add_', 'sub_'])}({self.float_expr(1)})"
        if kind == "unary":
            return f"{self.pick(_UNARY_INPLACE)}()"
        if kind == "fill":
            return f"fill_({self.float_expr(0)})"
        if kind == "zero":
            return "zero_()"
        return "clamp_(-1.0, 1.0)"

    def stmt_tensor_inplace(self) -> bool:
        ts = self.tensor_vars()
        if not ts:
            return False
        v = self.pick(ts)
        target, shape = v.name, v.shape
        r = self.rng.random()
        if r < 0.25 and v.shape and dim_known(v.shape[0]):
            target, shape = f"{v.name}[{self.index_expr()}]", v.shape[1:]
        elif r < 0.35 and v.shape and dim_known(v.shape[0]):
            target, shape = f"{v.name}[1:]", (dim_add(v.shape[0], dim_const(-1)), *v.shape[1:])
        form = self.weighted([("method", 5), ("aug", 2), ("setitem", 2)])
        if form == "aug":
            op = self.pick(["+=", "-=", "*="])
            if target != v.name:
                return False
            if self.chance(0.6):
                rhs = self.operand_for(v.bases, self.broadcast_partner(shape, 1))
            else:
                rhs = self.float_expr(1)
            self.emit(f"{target} {op} {rhs}")
            self.bound_inplace(target)
            return True
        if form == "setitem" and v.shape:
            idx = self.index_expr()
            if self.chance(0.6):
                val = self.float_expr(1)
            else:
                val = self.operand_for(v.bases, self.tensor_expr(v.shape[1:], 1))
            self.emit(f"{v.name}[{idx}] = {val}")
            return True
        self.emit(f"{target}.{self.inplace_op(shape, v.bases)}")
        self.bound_inplace(target)
        return True

    def bound_inplace(self, target: str) -> None:
        """Bound a tensor updated in place inside a loop, as `bound` bounds what a loop
        assigns: `x.mul_(x.sum())` repeated grows without bound, and then float32 rounding
        (and `sin` of what is left) decides the digits compared."""
        if self.loop_depth > 0:
            self.emit(f"{target}.clamp_(-10, 10)")

    def stmt_tensor_alias(self) -> bool:
        ts = [v for v in self.tensor_vars() if v.shape]
        if not ts:
            return False
        v = self.pick(ts)
        s = v.shape
        name = self.fresh("w")
        forms: list[tuple[str, Shape]] = [(f"{v.name}[{self.index_expr()}]", s[1:])]
        if dim_known(s[0]):
            forms.append((f"{v.name}[1:]", (dim_add(s[0], dim_const(-1)), *s[1:])))
        if len(s) == 2:
            forms.append((f"{v.name}.t()", (s[1], s[0])))
            forms.append((f"{v.name}[:, 0]", (s[0],)))
        if all(dim_known(x) for x in s):
            total = s[0]
            for x in s[1:]:
                total = dim_mul(total, x)
            if total is not None:
                forms.append((f"{v.name}.view(-1)", (total,)))
        forms.append((f"{v.name}.unsqueeze(0)", (dim_const(1), *s)))
        forms.append((v.name, s))
        expr, shape = self.pick(forms)
        self.emit(f"{name} = {expr}")
        self.define(Var(name, TENSOR, shape, bases=v.bases or frozenset({v.name})))
        return True

    def stmt_alias(self) -> bool:
        cands = [v for v in self.visible() if v.type in MUTABLE and v.type != TENSOR]
        if not cands:
            return False
        v = self.pick(cands)
        name = self.fresh()
        self.emit(f"{name} = {v.name}")
        self.define(Var(name, v.type, v.shape, v.group))
        return True

    def stmt_unpack(self) -> bool:
        ts = self.visible(TUPLE_INT_FLOAT) + self.visible(TUPLE_TENSOR_INT)
        if not ts:
            a, b = self.fresh(), self.fresh()
            self.emit(f"{a}, {b} = {self.int_expr(1)}, {self.float_expr(1)}")
            self.define(Var(a, INT))
            self.define(Var(b, FLOAT))
            return True
        v = self.pick(ts)
        a, b = self.fresh(), self.fresh()
        self.emit(f"{a}, {b} = {v.name}")
        if v.type == TUPLE_INT_FLOAT:
            self.define(Var(a, INT))
            self.define(Var(b, FLOAT))
        else:
            self.define(Var(a, TENSOR, v.shape, bases=frozenset({"*"})))
            self.define(Var(b, INT))
        return True

    def stmt_optional(self) -> bool:
        os_ = self.visible(OPT_INT) + self.visible(OPT_TENSOR)
        if not os_ or self.chance(0.3):
            t = OPT_INT if self.chance(0.6) or not self.tensor_vars() else OPT_TENSOR
            shape = self.pick(self.shapes_in_scope()) if t == OPT_TENSOR else None
            name = self.fresh("o")
            self.emit(f"{name}: {annotation(t)} = None")
            self.define(Var(name, t, shape))
            if self.chance(0.7):
                self.emit(f"if {self.bool_expr(1)}:")
                self.indent += 1
                el = INT if t == OPT_INT else TENSOR
                self.emit(f"{name} = {self.bound(el, self.expr(el, 1, shape))}")
                self.indent -= 1
            return True
        o = self.pick(os_)
        neg = self.chance(0.3)
        self.emit(f"if {o.name} is {'None' if neg else 'not None'}:")
        self.indent += 1
        self.push()
        if neg:
            el = INT if o.type == OPT_INT else TENSOR
            self.emit(f"{o.name} = {self.bound(el, self.expr(el, 1, o.shape))}")
        else:
            # refined: the branch sees the element type
            el = INT if o.type == OPT_INT else TENSOR
            self.scopes[-1].vars[o.name] = Var(o.name, el, o.shape, bases=frozenset({"*"}))
            start = len(self.lines)
            self.block(self.rng.randrange(1, 3))
            if len(self.lines) == start:  # every statement tried declined: keep it valid
                self.emit("pass")
        self.pop()
        self.indent -= 1
        return True

    def stmt_if(self) -> bool:
        self.emit(f"if {self.bool_expr(2)}:")
        self.sub_block()
        n_elif = self.weighted([(0, 5), (1, 2), (2, 0.5)])
        for _ in range(n_elif):
            self.emit(f"elif {self.bool_expr(2)}:")
            self.sub_block()
        if self.chance(0.5):
            self.emit("else:")
            self.sub_block()
        return True

    def sub_block(self, n: int | None = None, *, defines: Var | None = None) -> None:
        self.indent += 1
        self.push()
        if defines is not None:
            self.define(defines)
        before = len(self.lines)
        self.block(n if n is not None else self.rng.randrange(1, 4))
        if len(self.lines) == before:
            self.emit("pass")
        self.pop()
        self.indent -= 1

    def stmt_for(self) -> bool:
        kind = self.weighted(
            [("range", 4), ("list", 2), ("enumerate", 0.7), ("tensor", 0.7), ("dict", 0.5)]
        )
        frozen = None
        if kind == "list":
            lists = [v for v in self.visible() if v.type in LISTS]
            if lists:
                lv = self.pick(lists)
                var = Var(self.fresh("e"), LISTS[lv.type], lv.shape)
                header = f"for {var.name} in {lv.name}:"
                frozen = lv.group
                return self._loop(header, var, frozen)
        if kind == "enumerate":
            lists = [v for v in self.visible() if v.type in (LIST_INT, LIST_FLOAT, LIST_STR)]
            if lists:
                lv = self.pick(lists)
                i, e = self.fresh("i"), self.fresh("e")
                header = f"for {i}, {e} in enumerate({lv.name}):"
                self.emit(header)
                self.loop_depth += 1
                self.frozen.add(lv.group)
                self.indent += 1
                self.push()
                self.define(Var(i, INT))
                self.define(Var(e, LISTS[lv.type]))
                self.block(self.rng.randrange(1, 4))
                self.pop()
                self.indent -= 1
                self.frozen.discard(lv.group)
                self.loop_depth -= 1
                return True
        if kind == "tensor":
            ts = [v for v in self.tensor_vars() if len(v.shape) >= 1]
            if ts:
                tv = self.pick(ts)
                var = Var(
                    self.fresh("r"), TENSOR, tv.shape[1:], bases=tv.bases or frozenset({tv.name})
                )
                return self._loop(f"for {var.name} in {tv.name}:", var, None)
        if kind == "dict":
            ds = self.visible(DICT_STR_INT)
            if ds:
                dv = self.pick(ds)
                var = Var(self.fresh("k"), STR, fixed=True)
                return self._loop(f"for {var.name} in {dv.name}:", var, dv.group)
        var = Var(self.fresh("i"), INT)
        args = self.small_count()
        if self.chance(0.25):
            args = f"{self.pick(['-1', '0', '1', '2'])}, {args}"
            if self.chance(0.4):
                args += f", {self.pick(['2', '1', '-1', '3'])}"
        return self._loop(f"for {var.name} in range({args}):", var, None)

    def _loop(self, header: str, var: Var, frozen: int | None) -> bool:
        self.emit(header)
        self.loop_depth += 1
        if frozen is not None:
            self.frozen.add(frozen)
        self.sub_block(defines=var)
        if frozen is not None:
            self.frozen.discard(frozen)
        self.loop_depth -= 1
        return True

    def stmt_while(self) -> bool:
        k = self.fresh("k")
        self.emit(f"{k} = 0")
        self.define(Var(k, INT, fixed=True))
        limit = self.rng.randrange(1, 5)
        cond = f"{k} < {limit}"
        if self.chance(0.5):
            cond += f" and {self.bool_expr(1)}"
        self.emit(f"while {cond}:")
        self.loop_depth += 1
        self.indent += 1
        self.push()
        self.emit(f"{k} += 1")
        self.block(self.rng.randrange(1, 4))
        self.pop()
        self.indent -= 1
        self.loop_depth -= 1
        # the counter is readable afterwards: its value tells how many iterations ran
        return True

    def stmt_exit(self) -> bool:
        if self.loop_depth == 0:
            return False
        word = self.pick(["break", "continue"])
        self.emit(f"if {self.bool_expr(1)}:")
        self.indent += 1
        self.emit(word)
        self.indent -= 1
        return True

    def stmt_call(self) -> bool:
        fns = [fn for fn in self.functions if fn.mutates]
        if not fns:
            fns = self.functions
        if not fns:
            return False
        fn = self.pick(fns)
        args = self.call_args(fn)
        if args is None:
            return False
        call = f"{fn.name}({', '.join(args)})"
        if len(fn.ret) == 1 and fn.ret[0] in (INT, FLOAT, BOOL, STR) and self.chance(0.6):
            name = self.fresh()
            self.emit(f"{name} = {self.bound(fn.ret[0], call)}")
            self.define(Var(name, fn.ret[0]))
        else:
            self.emit(call)
        return True

    def stmt_raise(self) -> bool:
        self.emit(f"if {self.bool_expr(2)}:")
        self.indent += 1
        exc = self.pick(["ValueError", "RuntimeError", "IndexError"])
        self.emit(f'raise {exc}("fuzz {self.counter}")')
        self.indent -= 1
        return True

    def stmt_assert(self) -> bool:
        self.emit(f'assert {self.bool_expr(2)}, "fuzz {self.counter}"')
        return True

    def stmt_early_return(self) -> bool:
        fn = self.current
        assert fn is not None
        self.emit(f"if {self.bool_expr(2)}:")
        self.indent += 1
        self.push()
        self.block(self.rng.randrange(0, 2))
        self.emit(f"return {self.return_expr(fn)}")
        self.pop()
        self.indent -= 1
        return True

    def return_expr(self, fn: Function) -> str:
        parts = [self.expr(t, 1, s) for t, s in zip(fn.ret, fn.ret_shapes, strict=True)]
        if len(parts) == 1:
            return parts[0]
        return "(" + ", ".join(parts) + ")"

    # -- functions

    def function(self, name: str, params: list[Var], ret: list[str], ret_shapes, n_stmts: int):
        fn = Function(name, params, ret, ret_shapes)
        self.current = fn
        self.scopes = [_Scope()]
        for p in params:
            if p.type in MUTABLE:
                p.group = self.new_group()
            self.define(p)
        self.lines = []
        self.indent = 1
        self.loop_depth = 0
        self.frozen = set()
        self.block(n_stmts)
        self.emit(f"return {self.return_expr(fn)}")
        body = self.lines
        # parameters a callee may mutate: those it passes on or changes (a coarse superset)
        for i, p in enumerate(params):
            if p.type in MUTABLE and any(p.name in line for line in body):
                fn.mutates.add(i)
        sig = ", ".join(f"{p.name}: {annotation(p.type)}" for p in params)
        rtype = annotation(ret[0]) if len(ret) == 1 else f"Tuple[{', '.join(map(annotation, ret))}]"
        return fn, [f"def {name}({sig}) -> {rtype}:", *body]

    def program(self) -> Program:
        self.rank = self.pick([1, 1, 2])
        base: Shape = (N,) * self.rank
        use_tensors = self.chance(0.8)
        sources: list[str] = []
        for h in range(self.weighted([(0, 3), (1, 4), (2, 2)])):
            params = []
            for j in range(self.rng.randrange(1, 4)):
                t = self.weighted(
                    [(INT, 3), (FLOAT, 1), (LIST_INT, 2), (TENSOR, 3 if use_tensors else 0),
                     (STR, 0.5), (OPT_INT, 0.5), (DICT_STR_INT, 0.7)]
                )  # fmt: skip
                # a caller may pass one tensor for several parameters: they may all alias
                params.append(Var(f"p{j}", t, base if t == TENSOR else None,
                                  bases=frozenset({"param"})))  # fmt: skip
            rt = self.weighted(
                [(INT, 3), (FLOAT, 1.5), (BOOL, 0.7), (TENSOR, 3 if use_tensors else 0), (STR, 0.5)]
            )
            if rt == TENSOR and not any(p.type == TENSOR for p in params):
                params.append(Var(f"p{len(params)}", TENSOR, base, bases=frozenset({"param"})))
            fn, lines = self.function(f"h{h}", params, [rt], [base if rt == TENSOR else None],
                                      self.rng.randrange(2, 6))  # fmt: skip
            self.functions.append(fn)
            sources.append("\n".join(lines))
        params = []
        n_tensors = self.rng.randrange(1, 4) if use_tensors else 0
        for j in range(n_tensors):
            # the entry point's tensors are distinct inputs: each its own memory
            params.append(Var(f"a{j}", TENSOR, base, bases=frozenset({f"a{j}"})))
        for t in self.rng.sample([INT, INT, FLOAT, BOOL, STR, LIST_INT, LIST_FLOAT, OPT_INT],
                                 self.rng.randrange(1, 4)):  # fmt: skip
            params.append(Var(f"a{len(params)}", t))
        ret = [self.weighted([(INT, 2), (FLOAT, 1), (TENSOR, 3 if use_tensors else 0),
                              (LIST_INT, 2), (STR, 0.5), (BOOL, 0.5), (DICT_STR_INT, 0.7),
                              (LIST_TENSOR, 0.7 if use_tensors else 0)])
               for _ in range(self.rng.randrange(1, 4))]  # fmt: skip
        shapes = [base if t in SHAPED else None for t in ret]
        fn, lines = self.function("f", params, ret, shapes, self.rng.randrange(5, 12))
        # the entry point returns what it computed last, too
        sources.append("\n".join(lines))
        source = "\n\n\n".join(sources) + "\n"
        return Program(
            self.seed,
            source,
            [Param(p.name, p.type, p.shape) for p in fn.params],
            self.rank,
            self.extensions,
        )


class _NoTensor(Exception):
    def __init__(self, shape: Shape) -> None:
        super().__init__(f"no tensor of shape {shape} can be made here")


def generate(seed: int) -> Program:
    """The program of `seed` (deterministic)."""
    for attempt in range(20):
        try:
            return Generator(seed, attempt).program()
        except _NoTensor:
            continue
    raise RuntimeError(f"seed {seed}: no program could be generated")


def program_from_source(
    source: str, seed: int, *, rank: int = 1, extensions: bool = False
) -> Program:
    """A program from its source (a minimized reproducer): the entry point `f`'s parameters are
    read from its annotations; its inputs are those of `seed` (tensors of shape (N,) * rank)."""
    import ast

    tree = ast.parse(source)
    entry = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "f")
    params = []
    for arg in entry.args.args:
        t = ast.unparse(arg.annotation).replace("torch.Tensor", "Tensor")
        params.append(Param(arg.arg, t, (N,) * rank if t == TENSOR else None))
    return Program(seed, source, params, rank, extensions)
