"""Groups the kernels cannot handle run in the interpreter, with correct results and a logged reason.

The groups here are `prim::FusionGroup` nodes run by ts-runtime's
interpreter, whose operation asks this backend for kernels (`ts_runtime.fusion`).
"""

from __future__ import annotations

import logging

import numpy as np
import pytest
import ts_runtime
from ts_ir import parse_ir


def group_graph(body: str, inputs: str = "%a : Tensor, %b : Tensor", args: str = "%a, %b") -> str:
    return (
        f"graph({inputs}):\n  %r : Tensor = prim::FusionGroup_0({args})\n  return (%r)\n"
        f"with prim::FusionGroup_0 = graph({inputs}):\n{body}"
    )


ADD_TANH = group_graph(
    "  %one : int = prim::Constant[value=1]()\n"
    "  %x : Tensor = aten::add(%a, %b, %one)\n"
    "  %r : Tensor = aten::tanh(%x)\n"
    "  return (%r)\n"
)


def run(text: str, *values):
    fn = ts_runtime.Code(parse_ir(text), grad_enabled=False).fn
    return fn(*(ts_runtime.from_numpy(v) if isinstance(v, np.ndarray) else v for v in values))


def group_of(code_fn_text: str):
    code = ts_runtime.Code(parse_ir(code_fn_text), grad_enabled=False)
    (run_group,) = [c for c in code._cells.values() if hasattr(c, "group")]
    return code.fn, run_group.group


def test_supported_inputs_run_the_kernel():
    fn, group = group_of(ADD_TANH)
    a = np.linspace(-1, 1, 10, dtype=np.float32)
    out = fn(ts_runtime.from_numpy(a), ts_runtime.from_numpy(a))
    np.testing.assert_allclose(out.numpy(), np.tanh(a + a), rtol=1e-6)
    (kernel,) = group.cache.values()
    assert hasattr(kernel, "spec")  # a compiled kernel, not the interpreter


def unfused(text: str, *values):
    """The group's subgraph run by the interpreter directly."""
    sub = parse_ir(text).nodes().__next__().g("Subgraph")
    fn = ts_runtime.Code(sub, grad_enabled=False).fn
    return fn(*(ts_runtime.from_numpy(v) if isinstance(v, np.ndarray) else v for v in values))


@pytest.mark.parametrize("dtype", [np.float16, np.complex64, np.uint8, np.int16])
def test_unsupported_dtypes_fall_back_with_a_reason(dtype, caplog):
    fn, _ = group_of(ADD_TANH)
    a = ts_runtime.from_numpy((np.arange(10) % 4).astype(dtype))
    with caplog.at_level(logging.INFO):
        got = fn(a, a)
        fn(a, a)
    want = unfused(ADD_TANH, a.numpy(), a.numpy())
    np.testing.assert_array_equal(got.numpy(), want.numpy())
    assert got.numpy().dtype == want.numpy().dtype
    fuser_lines = [r.getMessage() for r in caplog.records if r.name == "ts_fuser_cpu"]
    assert len(fuser_lines) == 1, "logged once per group and specialization"
    assert np.dtype(dtype).name in fuser_lines[0] and "runs in the interpreter" in fuser_lines[0]


def test_an_operator_without_a_lowering_falls_back(caplog):
    text = group_graph("  %r : Tensor = aten::mm(%a, %b)\n  return (%r)\n")
    a = np.eye(3, dtype=np.float32) * 2
    with caplog.at_level(logging.INFO, logger="ts_fuser_cpu"):
        out = run(text, a, a)
    np.testing.assert_array_equal(out.numpy(), a @ a)
    assert "aten::mm has no CPU lowering" in caplog.text


def test_integer_division_by_zero_raises_as_the_interpreter_does(caplog):
    text = group_graph("  %r : Tensor = aten::remainder(%a, %b)\n  return (%r)\n")
    a = np.arange(40, dtype=np.int64)
    b = np.full(40, 3, dtype=np.int64)
    np.testing.assert_array_equal(run(text, a, b).numpy(), a % 3)
    b[17] = 0
    with caplog.at_level(logging.INFO, logger="ts_runtime.fusion"):
        with pytest.raises(ts_runtime.TensorError, match="ZeroDivisionError"):
            run(text, a, b)
    assert "could not compute" in caplog.text


def test_float_division_by_zero_is_ieee():
    text = group_graph("  %r : Tensor = aten::div(%a, %b)\n  return (%r)\n")
    a = np.array([1.0, -1.0, 0.0], np.float32)
    b = np.zeros(3, np.float32)
    out = run(text, a, b).numpy()
    assert out[0] == np.inf and out[1] == -np.inf and np.isnan(out[2])


def test_incompatible_shapes_raise_the_interpreters_error():
    a, b = np.zeros(3, np.float32), np.zeros(4, np.float32)
    with pytest.raises(Exception) as unfused_error:
        unfused(ADD_TANH, a, b)
    with pytest.raises(unfused_error.type):
        run(ADD_TANH, a, b)


def test_outputs_of_different_shapes_fall_back(caplog):
    text = (
        "graph(%a : Tensor, %b : Tensor):\n  %x : Tensor, %y : Tensor = prim::FusionGroup_0(%a, %b)\n  return (%x, %y)\n"
        "with prim::FusionGroup_0 = graph(%a : Tensor, %b : Tensor):\n"
        "  %x : Tensor = aten::neg(%a)\n  %y : Tensor = aten::neg(%b)\n  return (%x, %y)\n"
    )
    a, b = np.ones(3, np.float32), np.ones((2, 3), np.float32)
    with caplog.at_level(logging.INFO, logger="ts_fuser_cpu"):
        x, y = run(text, a, b)
    np.testing.assert_array_equal(x.numpy(), -a)
    np.testing.assert_array_equal(y.numpy(), -b)
    assert "outputs of different shapes" in caplog.text


def test_each_specialization_is_compiled_once():
    fn, group = group_of(ADD_TANH)
    for n in (3, 3, 5, 5, 3):
        a = ts_runtime.from_numpy(np.ones(n, np.float32))
        fn(a, a)
    assert len(group.cache) == 2
