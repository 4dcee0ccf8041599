"""Raw-array kernels (`ops.dispatch.ARRAY_KERNELS`) compute exactly what the operators' kernels do.

Plans compiled without autograd run selected nodes on numpy arrays. For
every rule, the same graph runs through a Code that uses the array kernels
and one that uses the operators' kernels; the results (values, dtype, shape)
and errors must agree, and for float32 the array path must actually be taken.
"""

from __future__ import annotations

import numpy as np
import pytest
import ts_runtime as ts
from ts_ir import parse_ir
from ts_runtime.interpreter.code import Code
from ts_runtime.ops.dispatch import ARRAY_KERNELS
from ts_runtime.ops.pointwise import FLOAT_UNARY, SAME_DTYPE_UNARY

DTYPES = {
    "Float": np.float32,
    "Double": np.float64,
    "Long": np.int64,
    "Int": np.int32,
    "Bool": np.bool_,
}

BINARY = ["add", "sub", "mul", "div", "maximum", "minimum", "eq", "ne", "lt", "le", "gt", "ge"]
ALPHA = {"add", "sub"}
UNARY = sorted([*FLOAT_UNARY, *SAME_DTYPE_UNARY, "relu"])


def tensor_type(dtype: str, rank: int) -> str:
    return f"{dtype}({', '.join('*' * rank)}{', ' if rank else ''}device=cpu)"


def random_array(dtype: str, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    if dtype == "Bool":
        return rng.random(shape) > 0.5
    if dtype in ("Long", "Int"):
        return rng.integers(-5, 6, shape).astype(DTYPES[dtype])
    return (rng.standard_normal(shape) * 2).astype(DTYPES[dtype])


def run_both(text: str, inputs: list) -> tuple:
    """(array path result or error, kernel path result or error, number of array kernels used)."""
    graph = parse_ir(text)
    fast, slow = Code(graph, grad_enabled=False), Code(graph.copy(), grad_enabled=True)
    results = []
    for code in (fast, slow):
        try:
            results.append(code(*inputs))
        except Exception as exc:
            results.append(exc)
    return results[0], results[1], len(fast._array_kernels)


def assert_same(a, b) -> None:
    if isinstance(b, Exception):
        assert type(a) is type(b), (a, b)
        return
    assert not isinstance(a, Exception), a
    assert isinstance(a, ts.Tensor) and isinstance(b, ts.Tensor)
    x, y = a.numpy(), b.numpy()
    assert x.dtype == y.dtype and x.shape == y.shape
    np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("op", BINARY)
@pytest.mark.parametrize(
    "shapes", [((3, 4), (3, 4)), ((3, 1), (1, 4)), ((4,), (2, 4)), ((3,), (2,))]
)
def test_binary_tensor_tensor(op, dtype, shapes):
    rng = np.random.default_rng(0)
    ra, rb = len(shapes[0]), len(shapes[1])
    extra = ", %one" if op in ALPHA else ""
    text = (
        f"graph(%a : {tensor_type(dtype, ra)}, %b : {tensor_type(dtype, rb)}):\n"
        "  %one : int = prim::Constant[value=1]()\n"
        f"  %r : Tensor = aten::{op}(%a, %b{extra})\n"
        "  return (%r)\n"
    )
    a, b = (ts.from_numpy(random_array(dtype, s, rng)) for s in shapes)
    fast, slow, used = run_both(text, [a, b])
    assert_same(fast, slow)
    if dtype == "Float":
        assert used == 1, "a float32 tensor ⊕ tensor must take the array path"


@pytest.mark.parametrize("dtype", ["Float", "Double", "Long", "Int"])
@pytest.mark.parametrize(
    "op", [op for op in BINARY if op not in ("maximum", "minimum")]
)  # no Scalar overloads
@pytest.mark.parametrize("scalar", [2.5, 3, -1])
def test_binary_tensor_scalar(op, dtype, scalar):
    rng = np.random.default_rng(1)
    scalar_type = "float" if isinstance(scalar, float) else "int"
    extra = ", %one" if op in ALPHA else ""
    text = (
        f"graph(%a : {tensor_type(dtype, 2)}, %s : {scalar_type}):\n"
        "  %one : int = prim::Constant[value=1]()\n"
        f"  %r : Tensor = aten::{op}(%a, %s{extra})\n"
        "  return (%r)\n"
    )
    fast, slow, used = run_both(text, [ts.from_numpy(random_array(dtype, (3, 4), rng)), scalar])
    assert_same(fast, slow)
    if dtype == "Float":
        assert used == 1


@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("op", UNARY)
def test_unary(op, dtype):
    rng = np.random.default_rng(2)
    text = f"graph(%a : {tensor_type(dtype, 2)}):\n  %r : Tensor = aten::{op}(%a)\n  return (%r)\n"
    fast, slow, used = run_both(text, [ts.from_numpy(random_array(dtype, (3, 4), rng))])
    assert_same(fast, slow)
    if dtype == "Float":
        assert used == 1


def test_where_and_mm():
    rng = np.random.default_rng(3)
    text = (
        "graph(%c : Bool(*, *, device=cpu), %a : Float(*, *, device=cpu), %b : Float(*, *, device=cpu)):\n"
        "  %w : Float(*, *, device=cpu) = aten::where(%c, %a, %b)\n"
        "  %r : Tensor = aten::mm(%w, %b)\n"
        "  return (%r)\n"
    )
    c = ts.from_numpy(rng.random((4, 4)) > 0.5)
    a, b = (ts.from_numpy(random_array("Float", (4, 4), rng)) for _ in range(2))
    fast, slow, used = run_both(text, [c, a, b])
    assert_same(fast, slow)
    assert used == 2


def test_values_stay_arrays_only_between_array_kernels():
    text = (
        "graph(%a : Float(*, device=cpu)):\n"
        "  %b : Tensor = aten::exp(%a)\n"
        "  %c : Tensor = aten::neg(%b)\n"
        "  %n : int = aten::dim(%c)\n"
        "  %t : (Tensor, int) = prim::TupleConstruct(%c, %n)\n"
        "  return (%t)\n"
    )
    code = Code(parse_ir(text), grad_enabled=False)
    out, n = code(ts.tensor([0.0, 1.0]))
    assert (
        isinstance(out, ts.Tensor) and n == 1
    )  # %c is boxed: aten::dim and the tuple need a Tensor
    assert "_data" in code.python_source


def test_every_rule_is_exercised_here():
    keys = {key.partition("(")[0].split(".")[0] for key in ARRAY_KERNELS.keys()}
    tested = {f"aten::{op}" for op in [*BINARY, *UNARY, "where", "mm", "max", "min"]}
    assert keys <= tested, f"array kernels without a test here: {sorted(keys - tested)}"


def test_generated_code_computes_silently_as_pytorch_does():
    import warnings

    text = "graph(%a : Float(*, device=cpu), %b : Float(*, device=cpu)):\n  %r : Tensor = aten::div(%a, %b)\n  return (%r)\n"
    code = Code(parse_ir(text), grad_enabled=False)
    assert code._array_kernels, "division of float32 tensors takes the array path"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"ts_runtime\.")
        out = code(ts.tensor([1.0, 0.0]), ts.tensor([0.0, 0.0]))
    assert np.isinf(out.numpy()[0]) and np.isnan(out.numpy()[1])


def test_relu_keeps_the_sign_of_a_negative_zero_as_pytorch():
    # PyTorch's relu is x < 0 ? 0 : x: relu(-0.0) is -0.0 (a later 1 / x is -inf), nan stays
    text = "graph(%a : Float(*, device=cpu)):\n  %r : Tensor = aten::relu(%a)\n  return (%r)\n"
    x = ts.from_numpy(np.array([-0.0, 0.0, -1.5, np.nan, 2.0], dtype=np.float32))
    fast, slow, used = run_both(text, [x])
    assert used == 1
    for out in (fast, slow, ts.relu(x)):
        got = out.numpy()
        assert np.signbit(got).tolist() == [True, False, False, False, False]
        assert np.isnan(got[3]) and got[4] == 2.0
