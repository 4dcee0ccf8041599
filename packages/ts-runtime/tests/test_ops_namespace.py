"""`ops.<namespace>.<name>`: registered operators as Python functions."""

from __future__ import annotations

import pytest
import ts_runtime as ts
from ts_runtime.ops_namespace import ops
from ts_schema import UnknownOperatorError, operator


@operator("test_ops_ns::affine(Tensor x, float a, float b=0.) -> Tensor")
def _affine(x, a, b):
    return x * a + b


def test_builtin_operators_resolve_their_overload_from_the_arguments():
    x = ts.tensor([1.0, -2.0])
    assert ops.aten.relu(x).tolist() == [1.0, 0.0]
    assert ops.aten.add(x, x).tolist() == [2.0, -4.0]
    assert ops.aten.add(2, 3) == 5


def test_a_custom_operator_is_callable_with_defaults_and_keywords():
    x = ts.tensor([1.0, 2.0])
    assert ops.test_ops_ns.affine(x, 2.0).tolist() == [2.0, 4.0]
    assert ops.test_ops_ns.affine(x, 2.0, b=1.0).tolist() == [3.0, 5.0]
    assert ops.test_ops_ns.affine is ops.test_ops_ns.affine  # made once


def test_unknown_operators_name_their_namespace():
    with pytest.raises(UnknownOperatorError, match="'no_such_ns'"):
        ops.no_such_ns.op  # noqa: B018
