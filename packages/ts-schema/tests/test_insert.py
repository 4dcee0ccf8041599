"""`graph.insert`: operator calls with Values and Python values, through ts-ir's hook."""

from __future__ import annotations

import pytest
from schema_helpers import make_graph
from ts_ir import (
    Device,
    DeviceType,
    Graph,
    IntType,
    IRError,
    ListType,
    TensorType,
    aten,
    constant_value,
    parse_ir,
    prim,
)
from ts_schema import NoMatchingSchemaError, UnknownOperatorError, registry


def round_trip(graph: Graph) -> str:
    text = str(graph)
    assert str(parse_ir(text)) == text
    return text


def test_insert_with_a_constant_and_a_default():
    graph, env = make_graph("v: Tensor")
    out = graph.insert(aten.add, [env["v"], 3])
    graph.register_output(out)
    graph.lint()
    node = out.node
    assert node.kind == "aten::add"
    assert node.schema().key == "aten::add.Scalar"
    assert [constant_value(v) for v in node.inputs[1:]] == [3, 1]
    assert out.type == TensorType.get()
    assert round_trip(graph) == (
        "graph(%v : Tensor):\n"
        "  %1 : int = prim::Constant[value=3]()\n"
        "  %2 : int = prim::Constant[value=1]()\n"
        "  %3 : Tensor = aten::add(%v, %1, %2)\n"
        "  return (%3)\n"
    )


def test_keyword_arguments_and_several_outputs():
    graph, env = make_graph("x: Tensor")
    values, indices = graph.insert(aten.max, [env["x"]], {"dim": 1, "keepdim": True})
    assert values.node is indices.node
    assert values.node.schema().key == "aten::max.dim"
    assert [constant_value(v) for v in values.node.inputs[1:]] == [1, True]


def test_no_outputs_gives_none():
    graph, env = make_graph("s: str")
    assert graph.insert("prim::RaiseException", [env["s"]]) is None
    (node,) = [n for n in graph.nodes() if n.kind == "prim::RaiseException"]
    assert node.outputs == []


@pytest.mark.parametrize(
    ("value", "type_text"),
    [
        (2, "int"),
        (2.5, "float"),
        (True, "bool"),
        ("cpu", "str"),
        (None, "NoneType"),
        ([1, 2], "List[int]"),
        ([1.0], "List[float]"),
        (["a"], "List[str]"),
    ],
)
def test_python_values_become_constants(value, type_text):
    graph = Graph()
    out = graph.insert("prim::unchecked_cast", [value])
    (const,) = out.node.inputs
    assert const.node.kind == "prim::Constant"
    assert const.type.annotation_str() == type_text
    assert constant_value(const) == value
    assert out.type == const.type  # t -> t


def test_device_constant():
    graph = Graph()
    out = graph.insert("prim::unchecked_cast", [Device("cpu")])
    assert out.type == DeviceType()


def test_an_empty_list_takes_the_type_the_schema_wants():
    graph, env = make_graph("x: Tensor")
    out = graph.insert(aten.sum, [env["x"], []])
    node = out.node
    assert node.schema().key == "aten::sum.dim_IntList"
    dims = node.inputs[1]
    assert dims.node.kind == prim.ListConstruct and dims.node.inputs == []
    assert dims.type == ListType(IntType())


def test_a_list_of_values_becomes_a_list_construct():
    graph, env = make_graph("x: Tensor, y: Tensor, n: int")
    out = graph.insert(aten.cat, [[env["x"], env["y"]], env["n"]])
    tensors = out.node.inputs[0]
    assert tensors.node.kind == prim.ListConstruct
    assert tensors.node.inputs == [env["x"], env["y"]]
    assert out.node.schema().key == "aten::cat"
    zeros = graph.insert(aten.zeros, [[env["n"], 3]])
    size = zeros.node.inputs[0]
    assert size.node.kind == prim.ListConstruct
    assert constant_value(size.node.inputs[1]) == 3


def test_a_mixed_list_without_common_type_is_an_error():
    graph, env = make_graph("x: Tensor, s: str")
    with pytest.raises(IRError, match="no common type"):
        graph.insert(aten.cat, [[env["x"], env["s"]]])


def test_values_of_another_graph_are_rejected():
    graph, _ = make_graph("")
    _, other = make_graph("x: Tensor")
    with pytest.raises(IRError, match="another graph"):
        graph.insert(aten.relu, [other["x"]])


def test_insert_at_the_insertion_point():
    graph = parse_ir(
        """
graph(%x : Tensor):
  %a : Tensor = aten::relu(%x)
  return (%a)
"""
    )
    (relu,) = graph.nodes()
    with graph.inserting_before(relu):
        y = graph.insert(aten.neg, [graph.inputs[0]])
    assert y.node.next is relu
    assert y.node.schema().key == "aten::neg"


def test_inserted_nodes_know_their_operator():
    graph, env = make_graph("a: int, b: int")
    out = graph.insert(aten.add, [env["a"], env["b"]])
    assert out.node.schema_cache is registry.get("aten::add.int")
    assert out.type == IntType()


def test_errors():
    graph, env = make_graph("s: str")
    with pytest.raises(NoMatchingSchemaError):
        graph.insert(aten.add, [env["s"], 1])
    with pytest.raises(UnknownOperatorError):
        graph.insert("nobody::thing", [env["s"]])
