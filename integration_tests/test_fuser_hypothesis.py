"""Random pointwise expressions, compiled by the CPU fuser, against numpy.

Hypothesis draws an output shape (rank 0 to 3), one to three inputs whose
shapes broadcast to it, each with a dtype (bool, int32, int64, float32,
float64) and a layout (contiguous, transposed, sliced with a step, expanded
with stride 0), and an expression over them of up to four levels of
arithmetic, comparisons, `where`, unary operators, conversions and Python
constants. The reference evaluates the same expression with numpy, promoting
operands with PyTorch's rules (`ts_ir.result_type`); the fused kernel must
match it exactly. A second property applies one transcendental function to a
random operand: within an ulp of the exact result for float32, within
numpy's own error for float64.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import ts_fuser_cpu
import ts_runtime
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ts_ir import Category, Device, ScalarType, TensorType, parse_ir, result_type

S = ScalarType
NUMPY = {
    S.Bool: np.bool_,
    S.Int: np.int32,
    S.Long: np.int64,
    S.Float: np.float32,
    S.Double: np.float64,
}
DTYPES = list(NUMPY)
CPU = Device("cpu")

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


# -- expressions


class Expr:
    """A node of a random expression: its IR operator, children, constant, and dtype/rank."""

    def __init__(self, op, children=(), value=None, dtype=None, zero_dim=False):
        self.op = op
        self.children = list(children)
        self.value = value
        self.dtype = dtype
        self.zero_dim = zero_dim


def _promote(*operands: Expr) -> ScalarType:
    pairs = []
    for e in operands:
        if e.op == "const":
            pairs.append((S.Double if isinstance(e.value, float) else S.Long, Category.SCALAR))
        else:
            pairs.append((e.dtype, Category.ZERO_DIM if e.zero_dim else Category.DIM))
    return result_type(pairs)


BINARY = ["add", "sub", "mul", "div", "maximum", "minimum", "gt", "lt", "eq", "ne", "where"]
UNARY = ["neg", "abs", "relu", "floor", "to_float", "to_double", "to_bool", "logical_not"]


@st.composite
def expressions(draw, leaves: list[Expr], depth: int) -> Expr:
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        if draw(st.integers(0, 5)) == 0:
            value = draw(st.sampled_from([2, -3, 0.5, -1.25, 3.0]))
            return Expr("const", value=value)
        return draw(st.sampled_from(leaves))
    kind = draw(st.sampled_from(["binary", "binary", "unary"]))
    if kind == "unary":
        child = draw(expressions(leaves, depth - 1))
        if child.op == "const":
            child = draw(st.sampled_from(leaves))
        op = draw(st.sampled_from(UNARY))
        if child.dtype is S.Bool and op in ("neg", "abs", "relu"):
            op = "logical_not"
        dtype = {
            "to_float": S.Float,
            "to_double": S.Double,
            "to_bool": S.Bool,
            "logical_not": S.Bool,
        }.get(op, child.dtype)
        return Expr(op, [child], dtype=dtype, zero_dim=child.zero_dim)
    op = draw(st.sampled_from(BINARY))
    a = draw(expressions(leaves, depth - 1))
    b = draw(expressions(leaves, depth - 1))
    if a.op == "const":
        a, b = b, a
    if a.op == "const":
        a = draw(st.sampled_from(leaves))
    if b.op == "const" and op in ("maximum", "minimum"):
        b = draw(st.sampled_from(leaves))  # no Scalar overloads
    if op == "where":
        c = Expr(
            "gt", [a, b], dtype=S.Bool, zero_dim=a.zero_dim and (b.op == "const" or b.zero_dim)
        )
        other = draw(st.sampled_from(leaves))
        dtype = _promote(b, other) if b.op != "const" else _promote(other, b)
        return Expr("where", [c, b, other], dtype=dtype, zero_dim=c.zero_dim and other.zero_dim)
    dtype = _promote(a, b)
    if op == "sub" and dtype is S.Bool:
        op = "add"
    if op in ("gt", "lt", "eq", "ne"):
        result = S.Bool
    elif op == "div":
        result = dtype if dtype in (S.Float, S.Double) else S.Float
    else:
        result = dtype
    return Expr(op, [a, b], dtype=result, zero_dim=a.zero_dim and (b.op == "const" or b.zero_dim))


def to_ir(expr: Expr, n_inputs: int) -> str:
    lines = [
        "graph(" + ", ".join(f"%x{i} : Tensor" for i in range(n_inputs)) + "):",
        "  %one : int = prim::Constant[value=1]()",
        "  %false : bool = prim::Constant[value=0]()",
        "  %none : NoneType = prim::Constant()",
        "  %zero : int = prim::Constant[value=0]()",
    ]
    counter = [0]

    def emit(e: Expr) -> str:
        if e.op == "input":
            return f"%x{e.value}"
        if e.op == "const":
            counter[0] += 1
            name = f"%c{counter[0]}"
            kind = "float" if isinstance(e.value, float) else "int"
            text = repr(e.value) if kind == "float" else str(e.value)
            lines.append(f"  {name} : {kind} = prim::Constant[value={text}]()")
            return name
        args = [emit(c) for c in e.children]
        counter[0] += 1
        out = f"%v{counter[0]}"
        if e.op in ("add", "sub"):
            call = f"aten::{e.op}({args[0]}, {args[1]}, %one)"
        elif e.op in ("mul", "div", "maximum", "minimum", "gt", "lt", "eq", "ne"):
            call = f"aten::{e.op}({args[0]}, {args[1]})"
        elif e.op == "where":
            call = f"aten::where({args[0]}, {args[1]}, {args[2]})"
        elif e.op == "relu":
            call = f"aten::relu({args[0]})"
        elif e.op.startswith("to_"):
            code = {"to_float": 6, "to_double": 7, "to_bool": 11}[e.op]
            counter[0] += 1
            lines.append(f"  %d{counter[0]} : int = prim::Constant[value={code}]()")
            call = f"aten::to({args[0]}, %d{counter[0]}, %false, %false, %none)"
        else:
            call = f"aten::{e.op}({args[0]})"
        lines.append(f"  {out} : Tensor = {call}")
        return out

    result = emit(expr)
    lines.append(f"  return ({result})")
    return "\n".join(lines) + "\n"


def evaluate(e: Expr, arrays: list[np.ndarray]) -> np.ndarray:
    """The expression with numpy, operands promoted by PyTorch's rules."""
    if e.op == "input":
        return arrays[e.value]
    if e.op == "const":
        return e.value
    if e.op == "where":
        cond = evaluate(e.children[0], arrays)
        d = NUMPY[_promote(e.children[1], e.children[2])]
        a, b = (np.asarray(evaluate(c, arrays)).astype(d) for c in e.children[1:])
        return np.where(cond, a, b)
    if len(e.children) == 1:
        x = evaluate(e.children[0], arrays)
        if e.op == "neg":
            return np.negative(x)
        if e.op == "abs":
            return np.abs(x)
        if e.op == "relu":
            return np.maximum(x, np.zeros((), x.dtype))
        if e.op == "floor":
            return np.floor(x) if x.dtype.kind == "f" else x.copy()
        if e.op == "logical_not":
            return np.logical_not(x)
        return x.astype(NUMPY[e.dtype])
    a_expr, b_expr = e.children
    compute = NUMPY[_promote(a_expr, b_expr)]
    if e.op == "div" and np.dtype(compute).kind != "f":
        compute = np.float32
    a = np.asarray(evaluate(a_expr, arrays)).astype(compute)
    b = np.asarray(evaluate(b_expr, arrays)).astype(compute)
    fn = {
        "add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.true_divide,
        "maximum": np.maximum, "minimum": np.minimum, "gt": np.greater, "lt": np.less,
        "eq": np.equal, "ne": np.not_equal,
    }[e.op]  # fmt: skip
    if np.dtype(compute) == np.bool_ and e.op == "add":
        fn = np.logical_or
    if np.dtype(compute) == np.bool_ and e.op == "mul":
        fn = np.logical_and
    return fn(a, b)


# -- operands


@st.composite
def operands(draw, shape: tuple[int, ...], dtype: ScalarType) -> np.ndarray:
    """An array of `shape` (or one broadcasting to it) in a random memory layout."""
    own = list(shape)
    lead = draw(st.integers(0, len(own)))
    own = own[lead:]
    own = [1 if draw(st.integers(0, 3)) == 0 else s for s in own]
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    if dtype is S.Bool:
        values = np.asarray(rng.random(own) < 0.5)
    elif dtype in (S.Int, S.Long):
        values = np.asarray(rng.integers(-20, 20, own), NUMPY[dtype])
    else:
        values = np.asarray(rng.standard_normal(own) * 4, NUMPY[dtype])
        if values.size and draw(st.booleans()):
            values.flat[0] = draw(st.sampled_from([np.nan, np.inf, -np.inf, -0.0, 0.0]))
    layout = draw(st.sampled_from(["contiguous", "transposed", "sliced", "expanded"]))
    if layout == "transposed" and values.ndim >= 2:
        return np.ascontiguousarray(values.T).T
    if layout == "sliced" and values.ndim >= 1:
        big = np.zeros((*values.shape[:-1], values.shape[-1] * 2 + 1), values.dtype)
        view = big[..., 1::2]
        view[...] = values
        return view
    if layout == "expanded":
        return np.broadcast_to(values, tuple(shape))
    return values


@st.composite
def programs(draw):
    rank = draw(st.integers(0, 3))
    shape = tuple(draw(st.integers(1, 5)) for _ in range(rank))
    n = draw(st.integers(1, 3))
    dtypes = [draw(st.sampled_from(DTYPES)) for _ in range(n)]
    arrays = [draw(operands(shape, d)) for d in dtypes]
    leaves = [
        Expr("input", value=i, dtype=d, zero_dim=a.ndim == 0)
        for i, (a, d) in enumerate(zip(arrays, dtypes, strict=True))
    ]
    expr = draw(expressions(leaves, 4))
    if expr.op in ("const", "input"):
        expr = Expr(
            "neg" if expr.dtype is not S.Bool else "logical_not",
            [leaves[0]],
            dtype=leaves[0].dtype if leaves[0].dtype is not S.Bool else S.Bool,
            zero_dim=leaves[0].zero_dim,
        )
        if leaves[0].dtype is S.Bool:
            expr.op = "logical_not"
    return expr, arrays


def spec(a: np.ndarray) -> TensorType:
    st_ = {np.dtype(v): k for k, v in NUMPY.items()}[a.dtype]
    return TensorType(st_, CPU, False, a.shape, tuple(s // a.itemsize for s in a.strides))


def run_fused(text: str, arrays: list[np.ndarray]) -> np.ndarray:
    kernel = ts_fuser_cpu.backend.compile(parse_ir(text), [spec(a) for a in arrays])
    out = kernel(*[ts_runtime.from_numpy(a) for a in arrays])
    assert out is not None
    return out.numpy()


@settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(programs())
def test_random_expressions_match_numpy_exactly(program):
    expr, arrays = program
    text = to_ir(expr, len(arrays))
    want = np.asarray(evaluate(expr, arrays))
    got = run_fused(text, arrays)
    assert got.dtype == want.dtype, text
    assert got.shape == want.shape, text
    if want.dtype.kind == "f":
        same = np.array_equal(got, want, equal_nan=True)
    else:
        same = np.array_equal(got, want)
    assert same, f"{text}\ngot  {got}\nwant {want}"


FUNCTIONS = {
    "exp": np.exp, "expm1": np.expm1, "log": np.log, "log1p": np.log1p, "sin": np.sin,
    "cos": np.cos, "tan": np.tan, "tanh": np.tanh, "sigmoid": lambda x: 1 / (1 + np.exp(-x)),
    "erf": np.vectorize(math.erf, otypes=[np.float64]), "sqrt": np.sqrt, "rsqrt": lambda x: 1 / np.sqrt(x),
}  # fmt: skip


def ulps(a: np.ndarray, b: np.ndarray) -> int:
    ints = np.int32 if a.dtype == np.float32 else np.int64

    def ordered(x):
        i = np.ascontiguousarray(x).view(ints).astype(np.int64)
        return np.where(i < 0, np.iinfo(ints).min - i, i)

    d = np.abs(ordered(a) - ordered(b))
    d = np.where(np.isnan(a) & np.isnan(b), 0, d)
    return int(d.max()) if d.size else 0


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(sorted(FUNCTIONS)),
    st.sampled_from([S.Float, S.Double]),
    st.tuples(st.integers(1, 6), st.integers(1, 40)),
    st.data(),
)
def test_transcendental_functions_match_numpy(name, dtype, shape, data):
    a = data.draw(operands(shape, dtype))
    scale = data.draw(st.sampled_from([0.01, 1.0, 30.0]))
    a = np.asarray(a * NUMPY[dtype](scale), NUMPY[dtype])
    if name in ("log", "sqrt", "rsqrt"):
        a = np.asarray(np.abs(a))
    if name == "log1p":
        a = np.asarray(np.maximum(a, NUMPY[dtype](-0.999)))
    text = f"graph(%a : Tensor):\n  %r : Tensor = aten::{name}(%a)\n  return (%r)\n"
    got = run_fused(text, [a])
    with np.errstate(all="ignore"):
        exact = FUNCTIONS[name](a.astype(np.float64)).astype(a.dtype)
        numpy_result = FUNCTIONS[name](a)
    if dtype is S.Float:
        assert ulps(got, exact) <= (2 if name in ("rsqrt", "sigmoid") else 1)
    numpy_result = np.asarray(numpy_result, a.dtype)
    # numpy's float32 sigmoid underflows to 0 where the exact result is subnormal
    tiny = np.abs(got.astype(np.float64) - numpy_result) <= np.finfo(a.dtype).tiny
    assert ulps(np.where(tiny, numpy_result, got), numpy_result) <= 5
