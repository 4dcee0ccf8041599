"""Tensor constants printed as PyTorch prints them, and read back.

The expected texts are what PyTorch 2.13's IR printer writes for these tensors
(integration_tests/oracle/test_tensor_constants_oracle.py checks random ones
against PyTorch itself).
"""

from __future__ import annotations

import math

import pytest
from ts_ir import TensorLiteral, parse_ir
from ts_ir.tensor_text import format_tensor_values

# (row-major values, shape, type name, PyTorch's text)
CASES = [
    ([1.0, 2.5], (2,), 'CPUFloatType', ' 1.0000  2.5000 [ CPUFloatType{2} ]'),
    ([1.0, 2.0, 3.0, 4.0], (2, 2), 'CPULongType', ' 1  2  3  4 [ CPULongType{2,2} ]'),
    ([1.0, 0.0], (2,), 'CPUBoolType', ' 1  0 [ CPUBoolType{2} ]'),
    ([], (0,), 'CPUFloatType', '[ CPUFloatType{0} ]'),
    ([10000000000.0, 0.0010000000474974513], (2,), 'CPUFloatType', ' 1.0000e+10  1.0000e-03 [ CPUFloatType{2} ]'),
    ([1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0], (2, 2, 2), 'CPUFloatType', '(1,.,.) =   1  1   1  1  (2,.,.) =   1  1   1  1 [ CPUFloatType{2,2,2} ]'),
    ([math.nan, 1.5], (2,), 'CPUFloatType', '    nan  1.5000 [ CPUFloatType{2} ]'),
    ([math.inf, -2.0], (2,), 'CPUFloatType', 'inf -2 [ CPUFloatType{2} ]'),
    ([1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5], (1, 10), 'CPUFloatType', ' 1.5000  1.5000  1.5000  1.5000  1.5000  1.5000  1.5000  1.5000  1.5000  1.5000 [ CPUFloatType{1,10} ]'),
    ([1.25e-07, 2.5e-07], (2,), 'CPUDoubleType', '1e-07 *  1.2500  2.5000 [ CPUDoubleType{2} ]'),
    ([1234567.5, 2500000.25], (2,), 'CPUDoubleType', '1000000 *  1.2346  2.5000 [ CPUDoubleType{2} ]'),
    ([0.0012000000569969416, 0.0024999999441206455, 0.0010000000474974513, 0.004000000189989805], (2, 2), 'CPUFloatType', '0.001 *  1.2000  2.5000   1.0000  4.0000 [ CPUFloatType{2,2} ]'),
    ([1200000.0, 2500000.0], (2,), 'CPUFloatType', ' 1.2e+06  2.5e+06 [ CPUFloatType{2} ]'),
    ([-0.0, 1.0], (2,), 'CPUFloatType', '-0  1 [ CPUFloatType{2} ]'),
    ([1.0000000200408773e+20, 1.0000000200408773e+20, 1.0000000200408773e+20, 1.0000000200408773e+20, 1.0000000200408773e+20, 1.0000000200408773e+20, 1.0000000200408773e+20], (1, 7), 'CPUFloatType', 'Columns 1 to 6 1.0000e+20  1.0000e+20  1.0000e+20  1.0000e+20  1.0000e+20  1.0000e+20  Columns 7 to 7 1.0000e+20 [ CPUFloatType{1,7} ]'),
    ([3.0, 3.0, 3.0, 3.0], (1, 1, 2, 2), 'CPUFloatType', '(1,1,.,.) =   3  3   3  3 [ CPUFloatType{1,1,2,2} ]'),
]  # fmt: skip


@pytest.mark.parametrize(("values", "shape", "type_name", "text"), CASES)
def test_tensors_print_as_pytorch_prints_them(values, shape, type_name, text):
    assert format_tensor_values(values, shape, type_name) == text


@pytest.mark.parametrize(("values", "shape", "type_name", "text"), CASES)
def test_printed_tensors_read_back(values, shape, type_name, text):
    ir = f"graph():\n  %0 : Tensor = prim::Constant[value={text}]()\n  return (%0)\n"
    g = parse_ir(ir)
    assert str(g) == ir
    literal = g.outputs[0].node.attr("value")
    assert isinstance(literal, TensorLiteral)
    assert literal.shape == shape and f"CPU{literal.scalar_type}Type" == type_name
    assert len(literal.values) == len(values)
    for got, want in zip(literal.values, values, strict=True):
        # the text shows 4 decimals of the values divided by their common scale
        assert (math.isnan(got) and math.isnan(want)) or math.isclose(
            got,
            want,
            rel_tol=1e-3,
            abs_tol=1e-4 * max(1.0, max(abs(v) for v in values if math.isfinite(v))),
        )


def test_a_malformed_tensor_print_is_an_error():
    ir = "graph():\n  %0 : Tensor = prim::Constant[value= 1  2 [ CPUFloatType{3} ]]()\n  return (%0)\n"
    with pytest.raises(Exception, match="needs 3 values"):
        parse_ir(ir)
