"""Scripted code calls registered operators through an operators namespace (`tsjit.ops`)."""

from __future__ import annotations

import ts_runtime as torch
from ts_frontend import script
from ts_runtime.ops_namespace import ops
from ts_schema import operator


@operator("test_frontend_ns::twice(Tensor x) -> Tensor")
def _twice(x):
    return x * 2


def uses_custom_and_builtin_ops(x):
    return ops.test_frontend_ns.twice(x) + ops.aten.relu(x)


def test_calls_through_the_operators_namespace_compile_to_the_operators_nodes():
    fn = script(uses_custom_and_builtin_ops)
    kinds = [n.kind for n in fn.graph.nodes()]
    assert "test_frontend_ns::twice" in kinds and "aten::relu" in kinds
    x = torch.tensor([-1.0, 2.0])
    assert fn(x).tolist() == [-2.0, 6.0]
