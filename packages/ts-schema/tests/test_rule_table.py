"""RuleTable: per-concern rules keyed by overload or name, with a default."""

from __future__ import annotations

import pytest
from ts_ir import parse_ir
from ts_schema import RuleTable, SchemaError, registry

IR = """
graph(%x : Tensor, %y : Tensor, %i : int):
  %one : int = prim::Constant[value=1]()
  %a : Tensor = aten::add(%x, %y, %one)
  %b : Tensor = aten::add(%x, %i, %one)
  %c : int = aten::add(%i, %i)
  %d : Tensor = aten::sigmoid(%x)
  %e : Tensor = aten::mystery_op(%x)
  return (%a, %b, %c, %d, %e)
"""


def nodes():
    return list(parse_ir(IR).nodes())[1:]


def test_overload_rule_then_name_rule_then_default():
    table: RuleTable[str] = RuleTable("shape", default="default")
    table.register("aten::add.Tensor", "add.Tensor rule")
    table.register("aten::add", "add rule")
    add_tensor, add_scalar, add_int, sigmoid, mystery = nodes()
    assert table.lookup(add_tensor) == "add.Tensor rule"
    assert table.lookup(add_scalar) == "add rule"
    assert table.lookup(add_int) == "add rule"
    assert table.lookup(sigmoid) == "default"
    assert table.lookup(mystery) == "default"
    assert table.has_rule(add_int) and not table.has_rule(sigmoid)


def test_full_schema_keys_and_the_decorator():
    table: RuleTable = RuleTable("gradient")

    @table.rule("aten::sigmoid(Tensor self) -> Tensor")
    def sigmoid_grad(node):
        return "d sigmoid"

    table.register(
        "aten::add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor", "scalar"
    )
    add_tensor, add_scalar, _, sigmoid, _ = nodes()
    assert table.lookup(sigmoid) is sigmoid_grad
    assert table.lookup(add_scalar) == "scalar"
    assert table.lookup(add_tensor) is None
    assert "aten::sigmoid" in table and "aten::add.Scalar" in table
    assert len(table) == 2


def test_keys_say_whether_a_rule_covers_one_overload_or_a_name():
    table: RuleTable[str] = RuleTable("shape")
    table.register("aten::sigmoid(Tensor self) -> Tensor", "one overload, by schema")
    table.register("aten::add.Tensor", "one overload")
    table.register("aten::mul", "every overload")
    assert sorted(table.overload_keys()) == ["aten::add.Tensor", "aten::sigmoid"]
    assert list(table.name_keys()) == ["aten::mul"]
    assert sorted(table.keys()) == ["aten::add.Tensor", "aten::mul", "aten::sigmoid"]


def test_lookup_operator():
    table: RuleTable[int] = RuleTable("lowering", default=0)
    table.register("aten::mul", 2)
    assert table.lookup_operator(registry.get("aten::mul.Tensor")) == 2
    assert table.lookup_operator(registry.get("aten::div.Tensor")) == 0


def test_name_rules_cover_nodes_without_a_matching_overload():
    table: RuleTable[str] = RuleTable("shape")
    table.register("aten::mystery_op", "mystery")
    *_, mystery = nodes()
    assert table.lookup(mystery) == "mystery"


def test_mistakes_are_reported():
    table: RuleTable[str] = RuleTable("shape")
    table.register("aten::relu", "a")
    with pytest.raises(SchemaError, match="already registered"):
        table.register("aten::relu", "b")
    table.register("aten::relu", "b", replace=True)
    with pytest.raises(SchemaError, match="does not match the registered one"):
        table.register("aten::relu(Tensor self, int x) -> Tensor", "c")
    with pytest.raises(SchemaError, match="not an operator name"):
        table.register("relu", "d")
