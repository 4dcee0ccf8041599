"""Overload matching: argument binding, defaults, type variables, conversions, errors."""

from __future__ import annotations

import pytest
from schema_helpers import make_graph
from ts_ir import (
    DictType,
    FloatType,
    IntType,
    ListType,
    NoneType,
    OptionalType,
    Source,
    SourceRange,
    StringType,
    TensorType,
    TupleType,
    VarType,
    constant_value,
)
from ts_schema import (
    NoMatchingSchemaError,
    evaluate_type_variables,
    match_schema,
    match_schemas,
    match_type_variables,
    parse_schema,
    registry,
)

TENSOR = TensorType.get()
T = VarType("t")


def kinds(graph):
    return [str(n.kind) for n in graph.nodes()]


# -- type variables


def test_match_and_evaluate_type_variables():
    bindings: dict = {}
    assert match_type_variables(ListType(T), ListType(IntType()), bindings)
    assert bindings == {"t": IntType()}
    assert evaluate_type_variables(DictType(StringType(), ListType(T)), bindings) == DictType(
        StringType(), ListType(IntType())
    )
    assert not match_type_variables(ListType(T), IntType(), {})
    assert not match_type_variables(DictType(StringType(), T), ListType(IntType()), {})
    assert not match_type_variables(TupleType([T, T]), TupleType([IntType()]), {})


def test_none_leaves_an_optional_variable_unbound():
    bindings: dict = {}
    assert match_type_variables(OptionalType(T), NoneType(), bindings)
    assert bindings == {}
    assert evaluate_type_variables(OptionalType(T), bindings) is None
    assert match_type_variables(OptionalType(T), IntType(), bindings)
    assert evaluate_type_variables(OptionalType(T), bindings) == OptionalType(IntType())


def test_a_tuple_binds_a_list_variable_through_its_unified_elements():
    bindings: dict = {}
    assert match_type_variables(ListType(T), TupleType([IntType(), IntType()]), bindings)
    assert bindings == {"t": IntType()}


def test_first_binding_wins():
    bindings = {"t": IntType()}
    assert match_type_variables(T, FloatType(), bindings)  # unifies; the subtype check decides
    assert bindings == {"t": IntType()}


# -- binding arguments


def test_positional_keyword_and_default_arguments():
    graph, env = make_graph("x: Tensor, y: Tensor")
    schema = parse_schema(
        "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"
    )
    matched = match_schema(schema, graph, [env["x"]], {"other": env["y"]})
    assert matched.inputs[:2] == [env["x"], env["y"]]
    alpha = matched.inputs[2]
    assert alpha.node.kind == "prim::Constant" and constant_value(alpha) == 1
    assert alpha.type == IntType()
    assert matched.return_types == [TENSOR]
    assert matched.return_field_names is None
    assert matched.schema_name == "aten::add.Tensor"
    assert kinds(graph) == ["prim::Constant"]


def test_aten_self_may_be_passed_as_input():
    graph, env = make_graph("x: Tensor")
    schema = parse_schema("aten::relu(Tensor self) -> Tensor")
    assert match_schema(schema, graph, [], {"input": env["x"]}).inputs == [env["x"]]
    other = parse_schema("mine::relu(Tensor self) -> Tensor")
    with pytest.raises(NoMatchingSchemaError, match=r"Argument self not provided\."):
        match_schema(other, graph, [], {"input": env["x"]})


def test_self_argument_of_a_method_call():
    graph, env = make_graph("x: Tensor, y: Tensor")
    schema = parse_schema("aten::mul.Tensor(Tensor self, Tensor other) -> Tensor")
    matched = match_schema(schema, graph, [env["y"]], {}, self_arg=env["x"])
    assert matched.inputs == [env["x"], env["y"]]
    unused = parse_schema("aten::mul.x(Tensor a) -> Tensor")
    with pytest.raises(NoMatchingSchemaError, match="Provided self argument not used"):
        match_schema(unused, graph, [env["y"]], {}, self_arg=env["x"])


@pytest.mark.parametrize(
    ("args", "kwargs", "reason"),
    [
        (["x"], {}, "Argument other not provided."),
        (
            ["x", "y", "y", "y"],
            {},
            "Expected at most 3 arguments but found 4 positional arguments.",
        ),
        (["x", "y"], {"beta": "y"}, "Keyword argument beta unknown."),
        (["x", "y"], {"self": "y"}, "Keyword argument self specified twice."),
        (
            ["x", "i"],
            {},
            "Expected a value of type 'Tensor' for argument 'other' but instead found type 'int'.",
        ),
    ],
)
def test_argument_errors(args, kwargs, reason):
    graph, env = make_graph("x: Tensor, y: Tensor, i: int")
    schema = parse_schema("aten::sub.Tensor(Tensor self, Tensor other, Scalar alpha=1) -> Tensor")
    with pytest.raises(NoMatchingSchemaError) as info:
        match_schema(schema, graph, [env[a] for a in args], {k: env[v] for k, v in kwargs.items()})
    ((candidate, why),) = info.value.candidates
    assert candidate is schema
    assert why == reason


def test_return_field_names_and_substituted_types():
    graph, env = make_graph("x: Tensor, d: Dict[str, List[int]]")
    schema = parse_schema(
        "aten::max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)"
    )
    matched = match_schema(schema, graph, [env["x"], graph.insert_constant(1)], {})
    assert matched.return_field_names == ["values", "indices"]
    schema = parse_schema("aten::values.str(Dict(str, t) self) -> t[](*)")
    matched = match_schema(schema, graph, [env["d"]], {})
    assert matched.return_types == [ListType(ListType(IntType()))]


def test_type_variable_conflicts_are_reported():
    graph, env = make_graph("l: List[int], s: str")
    schema = parse_schema("aten::append.t(t[](a!) self, t(c -> *) el) -> t[](a!)")
    with pytest.raises(NoMatchingSchemaError) as info:
        match_schema(schema, graph, [env["l"], env["s"]], {})
    assert info.value.candidates[0][1] == (
        "Expected a value of type 'int' for argument 'el' but instead found type 'str'."
    )


def test_unbound_type_variable_in_a_formal():
    graph, _ = make_graph("")
    none = graph.insert_constant(None)
    schema = parse_schema("mine::f(t? x, t y) -> t")
    with pytest.raises(NoMatchingSchemaError, match="could not be inferred"):
        match_schema(schema, graph, [none], {"y": none})


# -- lists


def test_varargs_pack_into_a_list_argument():
    graph, env = make_graph("a: int, b: int")
    schema = parse_schema("aten::zeros(SymInt[] size, *, ScalarType? dtype=None) -> Tensor")
    matched = match_schema(schema, graph, [env["a"], env["b"]], {})
    size = matched.inputs[0]
    assert size.node.kind == "prim::ListConstruct"
    assert size.node.inputs == [env["a"], env["b"]]
    assert size.type == ListType(IntType())
    with pytest.raises(NoMatchingSchemaError):
        match_schema(schema, graph, [env["a"], env["b"]], {}, allow_conversions=False)


def test_a_single_int_fills_a_fixed_size_list():
    graph, env = make_graph("x: Tensor, k: int")
    schema = parse_schema(
        "aten::max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[]) -> Tensor"
    )
    matched = match_schema(schema, graph, [env["x"], env["k"]], {}, allow_conversions=False)
    kernel = matched.inputs[1]
    assert kernel.node.kind == "prim::ListConstruct"
    assert kernel.node.inputs == [env["k"], env["k"]]
    assert constant_value(matched.inputs[2]) == []
    assert matched.inputs[2].type == ListType(IntType())


def test_empty_list_literal_takes_the_formal_list_type():
    graph, env = make_graph("x: Tensor")
    empty = graph.insert_node(graph.create_list(TENSOR, [])).output()
    schema = parse_schema(
        "aten::sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False) -> Tensor"
    )
    matched = match_schema(schema, graph, [env["x"], empty], {}, allow_conversions=False)
    assert matched.inputs[1] is empty
    assert empty.type == ListType(IntType())


def test_used_empty_list_literal_is_copied_not_retyped():
    graph, _ = make_graph("x: Tensor")
    empty = graph.insert_node(graph.create_list(TENSOR, [])).output()
    graph.register_output(empty)
    schema = parse_schema("mine::f(int[] xs) -> int")
    matched = match_schema(schema, graph, [empty], {})
    assert matched.inputs[0] is not empty
    assert matched.inputs[0].type == ListType(IntType())
    assert empty.type == ListType(TENSOR)


def test_non_empty_list_literal_is_retyped_only_by_the_last_pass():
    graph, env = make_graph("i: int")
    ints = graph.insert_node(graph.create_list(IntType(), [env["i"]])).output()
    schema = parse_schema("mine::f(int?[] xs) -> int")
    with pytest.raises(NoMatchingSchemaError):
        match_schema(schema, graph, [ints], {}, allow_conversions=False)
    matched = match_schema(schema, graph, [ints], {})
    assert matched.inputs[0].type == ListType(OptionalType(IntType()))


def test_homogeneous_tuple_converts_to_a_list():
    graph, env = make_graph("t: Tuple[int, int]")
    schema = parse_schema("mine::f(int[] xs) -> int")
    matched = match_schema(schema, graph, [env["t"]], {}, allow_conversions=False)
    assert kinds(graph) == ["prim::TupleUnpack", "prim::ListConstruct"]
    assert matched.inputs[0].type == ListType(IntType())


def test_tuples_convert_element_by_element():
    graph, env = make_graph("t: Tuple[Tensor, int]")
    schema = parse_schema("mine::f((float, int) pair) -> int")
    matched = match_schema(schema, graph, [env["t"]], {})
    assert matched.inputs[0].type == TupleType([FloatType(), IntType()])
    assert kinds(graph) == ["prim::TupleUnpack", "aten::FloatImplicit", "prim::TupleConstruct"]


# -- implicit conversions


@pytest.mark.parametrize(
    ("actual", "formal", "conversion"),
    [
        ("Tensor", "int", "aten::IntImplicit"),
        ("Tensor", "float", "aten::FloatImplicit"),
        ("Tensor", "complex", "aten::ComplexImplicit"),
        ("Tensor", "Scalar", "aten::ScalarImplicit"),
        ("Tensor", "int?", "aten::IntImplicit"),
        ("number", "int", "aten::Int"),
        ("number", "float", "aten::Float"),
        ("bool", "float", "aten::Float"),
        ("bool", "int", "aten::Int"),
        ("bool", "Scalar", "aten::Int"),
        ("str", "Device", "aten::device"),
        ("int", "float", "aten::Float"),
    ],
)
def test_conversions(actual, formal, conversion):
    graph, env = make_graph(f"v: {actual}")
    schema = parse_schema(f"mine::f({formal} x) -> ()")
    with pytest.raises(NoMatchingSchemaError):
        match_schema(schema, graph, [env["v"]], {}, allow_conversions=False)
    assert kinds(graph) == []
    matched = match_schema(schema, graph, [env["v"]], {})
    assert kinds(graph) == [conversion]
    node = matched.inputs[0].node
    assert node.inputs == [env["v"]]
    assert node.schema() is not None  # the conversion is itself a matched operator call


def test_conversions_only_after_every_overload_failed_without_them():
    graph, env = make_graph("t: Tensor")
    overloads = [
        parse_schema("mine::g.int(int x) -> int"),
        parse_schema("mine::g.tensor(Tensor x) -> Tensor"),
    ]
    chosen, _ = match_schemas(overloads, graph, [env["t"]], {})
    assert chosen is overloads[1]
    assert kinds(graph) == []


def test_int_to_float_never_changes_torchscripts_choice():
    # TorchScript picks `mine::h.int` by converting the tensor (no int->float conversion
    # exists there); the widening pass runs last, so it cannot take `h.float` first
    graph, env = make_graph("i: int, t: Tensor")
    overloads = [
        parse_schema("mine::h.float(float a, float b) -> float"),
        parse_schema("mine::h.int(int a, int b) -> int"),
    ]
    chosen, matched = match_schemas(overloads, graph, [env["i"], env["t"]], {})
    assert chosen is overloads[1]
    assert kinds(graph) == ["aten::IntImplicit"]
    # only when nothing else matches does an int become a float
    graph, env = make_graph("i: int, f: float")
    chosen, matched = match_schemas(overloads[:1], graph, [env["i"], env["f"]], {})
    assert chosen is overloads[0]
    assert kinds(graph) == ["aten::Float"]
    assert matched.inputs[0].type == FloatType()


def test_optional_accepts_none_and_the_element():
    graph, env = make_graph("x: Tensor, n: int")
    schema = parse_schema("aten::clamp(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor")
    none = graph.insert_constant(None)
    matched = match_schema(schema, graph, [env["x"], none, env["n"]], {}, allow_conversions=False)
    assert matched.inputs[1:] == [none, env["n"]]


def test_scalar_accepts_numbers_but_not_strings():
    schema = parse_schema("aten::add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor")
    for t in ("int", "float", "complex"):
        graph, env = make_graph(f"x: Tensor, v: {t}")
        match_schema(schema, graph, [env["x"], env["v"]], {}, allow_conversions=False)
    graph, env = make_graph("x: Tensor, v: str")
    with pytest.raises(NoMatchingSchemaError):
        match_schema(schema, graph, [env["x"], env["v"]], {})


def test_blocklisted_overloads_are_never_picked():
    graph, env = make_graph("x: Tensor, n: int")
    ops = registry.lookup("aten::view")
    assert "aten::view.dtype" in [op.key for op in ops]
    chosen, _ = match_schemas(ops, graph, [env["x"], env["n"]], {})
    assert chosen.key == "aten::view"


# -- failures


def test_failures_insert_nothing():
    graph, env = make_graph("s: str")
    with pytest.raises(NoMatchingSchemaError):
        match_schemas(registry.lookup("aten::add"), graph, [env["s"], env["s"], env["s"]], {})
    assert kinds(graph) == []


def test_error_carries_and_prints_the_source_range():
    source = Source("y = torch.add(s, 1)\n", filename="model.py")
    call = SourceRange(source, 4, 19)
    graph, env = make_graph("s: str")
    with pytest.raises(NoMatchingSchemaError) as info:
        match_schemas(
            registry.lookup("aten::add"),
            graph,
            [env["s"], graph.insert_constant(1)],
            {},
            source_range=call,
        )
    error = info.value
    assert error.source_range is call
    text = str(error)
    assert "The original call is:" in text
    assert "model.py:1:5" in text
    assert text.endswith("y = torch.add(s, 1)\n        ~~~~~~~~~~~~~~~")


def test_emitted_inputs_go_before_the_insertion_point():
    graph, env = make_graph("x: Tensor, y: Tensor")
    anchor = graph.insert_node(graph.create("aten::relu", [env["x"]]))
    schema = parse_schema(
        "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"
    )
    with graph.inserting_before(anchor):
        matched = match_schema(schema, graph, [env["x"], env["y"]], {})
    assert matched.inputs[2].node.next is anchor


def test_python_value_types():
    from ts_ir import BoolType, ComplexType, Device, DeviceType
    from ts_schema import python_value_type

    assert python_value_type(True) == BoolType()
    assert python_value_type(3) == IntType()
    assert python_value_type(1j) == ComplexType()
    assert python_value_type(Device("cpu")) == DeviceType()
    assert python_value_type([1.5]) == ListType(FloatType())
    assert python_value_type([]) == ListType(TENSOR)
    assert python_value_type((1, "a")) == TupleType([IntType(), StringType()])
    with pytest.raises(TypeError):
        python_value_type(object())
