"""The example operator package, found through its entry point.

Nothing here imports `tsjit_example_ops`: the registry must import it when a
lookup misses the `example` namespace. Run with the package installed
(`nox -s example_ops`); skipped where it is not.
"""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys

import pytest

try:
    importlib.metadata.distribution("tsjit-example-ops")
except importlib.metadata.PackageNotFoundError:
    pytest.skip("tsjit-example-ops is not installed", allow_module_level=True)

from ts_ir import parse_ir
from ts_schema import UnknownOperatorError, registry

IR = """
graph(%x : Tensor, %y : Tensor, %alpha : float):
  %z : Tensor = example::scaled_add_(%x, %y, %alpha)
  %w : Tensor = example::axpy(%z, %y, %alpha)
  return (%w)
"""


class ListTensor:
    """A minimal tensor: the three methods the example operators use."""

    def __init__(self, data: list[float]) -> None:
        self.data = data

    def add_(self, other: ListTensor) -> ListTensor:
        self.data = [a + b for a, b in zip(self.data, other.data, strict=True)]
        return self

    def add(self, other: ListTensor) -> ListTensor:
        return ListTensor([a + b for a, b in zip(self.data, other.data, strict=True)])

    def mul(self, k: float) -> ListTensor:
        return ListTensor([a * k for a in self.data])


def test_the_entry_point_is_installed():
    eps = importlib.metadata.entry_points(group="ts.operators")
    assert ("example", "tsjit_example_ops.operators") in {(ep.name, ep.value) for ep in eps}


def test_ir_using_the_operators_resolves_through_the_entry_point():
    graph = parse_ir(IR)
    scaled_add, axpy = graph.nodes()
    schema = scaled_add.schema()
    assert str(schema) == (
        "example::scaled_add_(Tensor(a!) self, Tensor other, float alpha=1.) -> Tensor(a!)"
    )
    self_alias = schema.arguments[0].alias_info
    assert self_alias.before_set == {"a"} and self_alias.after_set == {"a"}
    assert self_alias.is_write
    assert schema.arguments[1].alias_info is None
    assert schema.returns[0].alias_info == self_alias
    assert schema.is_mutable
    assert not axpy.schema().is_mutable
    assert axpy.schema().arguments[2].default_value == 1.0


def test_the_implementations_run_on_any_tensor_type():
    graph = parse_ir(IR)
    scaled_add, axpy = graph.nodes()
    x, y = ListTensor([1.0, 2.0]), ListTensor([10.0, 20.0])
    out = registry.operator_for(scaled_add).implementation_for(scaled_add)(x, y, 0.5)
    assert out is x and x.data == [6.0, 12.0]
    result = registry.operator_for(axpy).implementation_for(axpy)(x, y, 2.0)
    assert result.data == [22.0, 44.0] and x.data == [6.0, 12.0]


def test_the_package_is_imported_only_when_its_namespace_is_needed():
    code = (
        "import sys, ts_schema\n"
        "assert 'tsjit_example_ops.operators' not in sys.modules\n"
        "ts_schema.registry.lookup('aten::add')\n"
        "assert 'tsjit_example_ops.operators' not in sys.modules\n"
        "(op,) = ts_schema.registry.lookup('example::scaled_add_')\n"
        "assert 'tsjit_example_ops.operators' in sys.modules\n"
        "print(op.key)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "example::scaled_add_"


def test_an_operator_in_a_namespace_nobody_provides():
    graph = parse_ir(
        """
graph(%x : Tensor):
  %y : Tensor = nobody_provides_this::op(%x)
  return (%y)
"""
    )
    (node,) = graph.nodes()
    assert node.maybe_schema() is None
    with pytest.raises(UnknownOperatorError) as info:
        registry.lookup("nobody_provides_this::op")
    assert info.value.namespace == "nobody_provides_this"
    assert "namespace 'nobody_provides_this'" in str(info.value)
    assert "no installed package provides it" in str(info.value)
