"""Overload resolution picks the overload TorchScript picks.

Each expected overload was read from the graph `torch.jit.script` makes of
the equivalent Python function (integration_tests/test_schema_overloads_oracle.py
keeps that check against PyTorch itself).
"""

from __future__ import annotations

import pytest
from schema_helpers import make_graph
from ts_ir import Value
from ts_schema import NoMatchingSchemaError, insert_call, registry

# (operator, parameters, positional arguments, keyword arguments, expected overload key)
# A string argument naming a parameter stands for that input; other values are constants.
CASES = [
    ("aten::add", "a: Tensor, b: Tensor", ["a", "b"], {}, "aten::add.Tensor"),
    ("aten::add", "a: Tensor, b: int", ["a", "b"], {}, "aten::add.Scalar"),
    ("aten::add", "a: int, b: int", ["a", "b"], {}, "aten::add.int"),
    ("aten::add", "a: float, b: int", ["a", "b"], {}, "aten::add.float_int"),
    ("aten::add", "a: int, b: float", ["a", "b"], {}, "aten::add.int_float"),
    ("aten::add", "a: str, b: str", ["a", "b"], {}, "aten::add.str"),
    ("aten::add", "a: List[int], b: List[int]", ["a", "b"], {}, "aten::add.t"),
    ("aten::add", "a: Tensor, b: Tensor", ["a", "b"], {"alpha": 2}, "aten::add.Tensor"),
    ("aten::add", "a: Tensor", ["a", 1.5], {}, "aten::add.Scalar"),
    ("aten::mul", "a: Tensor, b: Tensor", ["a", "b"], {}, "aten::mul.Tensor"),
    ("aten::mul", "a: Tensor, b: float", ["a", "b"], {}, "aten::mul.Scalar"),
    ("aten::mul", "a: int, b: float", ["a", "b"], {}, "aten::mul.int_float"),
    ("aten::mul", "a: List[int], b: int", ["a", "b"], {}, "aten::mul.left_t"),
    ("aten::div", "a: Tensor, b: Tensor", ["a", "b"], {}, "aten::div.Tensor"),
    ("aten::div", "a: int, b: int", ["a", "b"], {}, "aten::div.int"),
    ("aten::div", "a: Tensor, b: float", ["a", "b"], {}, "aten::div.Scalar"),
    ("aten::div", "a: float, b: float", ["a", "b"], {}, "aten::div.float"),
    (
        "aten::div",
        "a: Tensor, b: Tensor",
        ["a", "b"],
        {"rounding_mode": "floor"},
        "aten::div.Tensor_mode",
    ),
    ("aten::max", "a: Tensor", ["a"], {}, "aten::max"),
    ("aten::max", "a: Tensor", ["a"], {"dim": 1}, "aten::max.dim"),
    ("aten::max", "a: Tensor", ["a", 1, True], {}, "aten::max.dim"),
    ("aten::max", "a: Tensor, b: Tensor", ["a", "b"], {}, "aten::max.other"),
    ("prim::max", "a: int, b: int", ["a", "b"], {}, "prim::max.int"),
    ("prim::max", "a: float, b: int", ["a", "b"], {}, "prim::max.float_int"),
    ("prim::max", "a: List[int]", ["a"], {}, "prim::max.self_int"),
    ("prim::max", "a: List[float]", ["a"], {}, "prim::max.self_float"),
    ("aten::clamp", "a: Tensor", ["a"], {"min": 0.0}, "aten::clamp"),
    ("aten::clamp", "a: Tensor", ["a", 0, 1], {}, "aten::clamp"),
    ("aten::clamp", "a: Tensor, b: Tensor", ["a", "b"], {}, "aten::clamp.Tensor"),
    ("aten::clamp", "a: Tensor, b: Tensor", ["a"], {"max": "b"}, "aten::clamp.Tensor"),
    ("aten::sum", "a: Tensor", ["a"], {}, "aten::sum"),
    ("aten::sum", "a: Tensor", ["a", [0]], {}, "aten::sum.dim_IntList"),
    ("aten::sum", "a: Tensor", ["a", 0], {}, "aten::sum.dim_IntList"),
    ("aten::sum", "a: Tensor", ["a", []], {}, "aten::sum.dim_IntList"),
    ("aten::sum", "a: Tensor", ["a"], {"dim": 0, "keepdim": True}, "aten::sum.dim_IntList"),
    ("aten::sum", "a: List[int]", ["a"], {}, "aten::sum.int"),
    ("aten::sum", "a: List[float]", ["a"], {}, "aten::sum.float"),
    ("aten::cat", "a: List[Tensor]", ["a", 0], {}, "aten::cat"),
    ("aten::cat", "a: Tensor, b: Tensor", [["a", "b"], 1], {}, "aten::cat"),
    ("aten::__getitem__", "a: List[int]", ["a", 0], {}, "aten::__getitem__.t"),
    ("aten::__getitem__", "a: List[Tensor]", ["a", 0], {}, "aten::__getitem__.t"),
    ("aten::__getitem__", "a: Dict[str, int]", ["a", "x"], {}, "aten::__getitem__.Dict_str"),
    ("aten::__getitem__", "a: Dict[int, Tensor]", ["a", 1], {}, "aten::__getitem__.Dict_int"),
    ("aten::__getitem__", "a: str", ["a", 0], {}, "aten::__getitem__.str"),
    # a homogeneous tuple converts to a list (TorchScript indexes tuples without this op)
    ("aten::__getitem__", "a: Tuple[int, int]", ["a", 0], {}, "aten::__getitem__.t"),
    ("aten::len", "a: List[int]", ["a"], {}, "aten::len.t"),
    ("aten::len", "a: List[Tensor]", ["a"], {}, "aten::len.t"),
    ("aten::len", "a: str", ["a"], {}, "aten::len.str"),
    ("aten::len", "a: Dict[str, int]", ["a"], {}, "aten::len.Dict_str"),
    ("aten::len", "a: Tensor", ["a"], {}, "aten::len.Tensor"),
    ("aten::append", "a: List[Tensor], b: Tensor", ["a", "b"], {}, "aten::append.t"),
    ("aten::append", "a: List[int], b: int", ["a", "b"], {}, "aten::append.t"),
    ("aten::zeros", "a: int", [["a", 2]], {}, "aten::zeros"),
    ("aten::zeros", "a: int", ["a", 2], {}, "aten::zeros"),
    ("aten::view", "a: Tensor, b: int", ["a", "b", -1], {}, "aten::view"),
    ("aten::to", "a: Tensor", ["a", "cpu"], {}, "aten::to.prim_Device"),
    ("aten::to", "a: Tensor", ["a", 7], {}, "aten::to.dtype"),
    ("aten::eq", "a: List[int], b: List[int]", ["a", "b"], {}, "aten::eq.int_list"),
    ("aten::eq", "a: Tensor, b: int", ["a", "b"], {}, "aten::eq.Scalar"),
    ("aten::lt", "a: int, b: float", ["a", "b"], {}, "aten::lt.int_float"),
    (
        "aten::conv2d",
        "a: Tensor, b: Tensor",
        ["a", "b"],
        {"padding": "same"},
        "aten::conv2d.padding",
    ),
    ("aten::split", "a: Tensor", ["a", [1, 2]], {}, "aten::split.sizes"),
    ("aten::split", "a: str", ["a", ","], {}, "aten::split.str"),
    ("aten::get", "a: Dict[str, int]", ["a", "k", 1], {}, "aten::get.default_str"),
    ("aten::__contains__", "a: int, b: List[int]", ["b", "a"], {}, "aten::__contains__.int_list"),
    ("aten::size", "a: Tensor", ["a", 0], {}, "aten::size.int"),
    ("aten::Float", "a: Tensor", ["a"], {}, "aten::Float.Tensor"),
    ("aten::floor", "a: float", ["a"], {}, "aten::floor.float"),
]


def _call(op: str, signature: str, args: list, kwargs: dict):
    graph, env = make_graph(signature)

    def resolve(x):
        if isinstance(x, str) and x in env:
            return env[x]
        if isinstance(x, list):
            return [resolve(e) for e in x]
        return x

    out = insert_call(
        graph, op, [resolve(a) for a in args], {k: resolve(v) for k, v in kwargs.items()}
    )
    value = out[0] if isinstance(out, tuple) else out
    assert isinstance(value, Value)
    graph.lint()
    return graph, value.node


@pytest.mark.parametrize(
    ("op", "signature", "args", "kwargs", "expected"),
    CASES,
    ids=[f"{c[0]}({c[1]}){'+kw' if c[3] else ''}->{c[4]}" for c in CASES],
)
def test_picks_torchscripts_overload(op, signature, args, kwargs, expected):
    _, node = _call(op, signature, args, kwargs)
    assert node.schema().key == expected
    assert registry.operator_for(node).key == expected


def test_max_dim_returns_named_pair():
    _, node = _call("aten::max", "a: Tensor", ["a"], {"dim": 1})
    assert [o.type.annotation_str() for o in node.outputs] == ["Tensor", "Tensor"]
    # the default keepdim=False became a constant input
    assert len(node.inputs) == 3
    assert node.inputs[2].node.kind == "prim::Constant"


def test_list_types_substitute_into_returns():
    _, node = _call("aten::add", "a: List[int], b: List[int]", ["a", "b"], {})
    assert node.output().type.annotation_str() == "List[int]"
    _, node = _call("aten::__getitem__", "a: Dict[str, Tensor]", ["a", "k"], {})
    assert node.output().type.annotation_str() == "Tensor"


def test_bool_plus_int_converts_the_bool():
    _, node = _call("aten::add", "a: bool, b: int", ["a", "b"], {})
    assert node.schema().key == "aten::add.int"
    conversion = node.inputs[0].node
    assert conversion.kind == "aten::Int"
    assert conversion.schema().key == "aten::Int.bool"


def test_failing_call_lists_every_candidate():
    graph, env = make_graph("a: str, b: int")
    with pytest.raises(NoMatchingSchemaError) as info:
        insert_call(graph, "aten::add", [env["a"], env["b"]])
    message = str(info.value)
    assert message.startswith("Arguments for call to aten::add are not valid.")
    assert "The following variants are available:" in message
    candidates = [schema.key for schema, _ in info.value.candidates]
    assert candidates == [op.key for op in registry.lookup("aten::add")]
    reasons = dict((schema.key, reason) for schema, reason in info.value.candidates)
    assert reasons["aten::add.Tensor"] == (
        "Expected a value of type 'Tensor' for argument 'self' but instead found type 'str'."
    )
    assert reasons["aten::add.str"] == (
        "Expected a value of type 'str' for argument 'b' but instead found type 'int'."
    )
    assert reasons["aten::add.t"] == (
        "Could not match type str to List[t] in argument 'a': Cannot match List[t] to str."
    )
    # each candidate appears with its schema and reason, indented
    assert "  aten::add.str(str a, str b) -> str:\n  Expected a value of type 'str'" in message
    # nothing was inserted for the failed call
    assert list(graph.nodes()) == []


def test_heterogeneous_tuple_is_not_a_list():
    graph, env = make_graph("a: Tuple[int, str]")
    with pytest.raises(NoMatchingSchemaError):
        insert_call(graph, "aten::__getitem__", [env["a"], 0])
