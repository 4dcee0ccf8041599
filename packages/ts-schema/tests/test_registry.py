"""The operator registry: registering, implementing, looking up, and nodes' operators."""

from __future__ import annotations

import pytest
from ts_ir import IRError, TorchScriptError, parse_ir
from ts_schema import (
    AliasAnalysisKind,
    Catalogue,
    EntryPointDiscovery,
    Operator,
    OperatorRegistry,
    SchemaError,
    Tag,
    UnimplementedOperatorError,
    UnknownOperatorError,
    operator,
    parse_schema,
    registry,
)


@pytest.fixture
def fresh() -> OperatorRegistry:
    """A registry of its own over the builtin catalogue, with no entry points."""
    return OperatorRegistry(Catalogue(), EntryPointDiscovery(lambda: []))


# -- lookup from the catalogue


def test_catalogue_overloads_come_in_pytorchs_order(fresh):
    keys = [op.key for op in fresh.lookup("aten::add")]
    assert keys[:6] == [
        "aten::add.Tensor",
        "aten::add.Scalar",
        "aten::add.out",
        "aten::add.Scalar_out",
        "aten::add.t",
        "aten::add.str",
    ]
    assert "aten::add.int" in keys
    assert all(not op.has_implementation for op in fresh.lookup("aten::add"))


def test_get_has_and_operator_fields(fresh):
    op = fresh.get("aten::add.Tensor")
    assert isinstance(op, Operator)
    assert op.qualified_name == "aten::add"
    assert op.overload_name == "Tensor"
    assert op.key == "aten::add.Tensor"
    assert op.alias_analysis is AliasAnalysisKind.FROM_SCHEMA
    assert fresh.get("aten::relu").key == "aten::relu"
    assert fresh.has("aten::add") and fresh.has("aten::add.Tensor")
    assert not fresh.has("aten::add.nope")
    assert not fresh.has("aten::no_such_op")
    assert not fresh.has("nobody::thing")


def test_namespaces_include_every_catalogue_namespace(fresh):
    namespaces = fresh.namespaces()
    for ns in ("aten", "prim", "prims", "quantized", "c10d", "_test"):
        assert ns in namespaces


def test_unknown_operator_names_the_namespace(fresh):
    with pytest.raises(UnknownOperatorError) as info:
        fresh.lookup("nobody::thing")
    error = info.value
    assert isinstance(error, TorchScriptError)
    assert error.name == "nobody::thing"
    assert error.namespace == "nobody"
    message = str(error)
    assert "'nobody::thing'" in message
    assert "no installed package provides it in namespace 'nobody'" in message
    assert "ts.operators" in message


def test_unknown_overload_lists_the_known_ones(fresh):
    with pytest.raises(UnknownOperatorError, match=r"aten::relu has no overload 'aten::relu\.x'"):
        fresh.get("aten::relu.x")


# -- registering


def test_register_with_the_decorator(fresh):
    @fresh.operator("my_ns::magic(Tensor a, Tensor b, int c) -> (Tensor, Tensor)")
    def magic(a, b, c):
        return b, a

    (op,) = fresh.lookup("my_ns::magic")
    assert op.impl is magic
    assert op.implementation_for() is magic
    assert op.schema == parse_schema("my_ns::magic(Tensor a, Tensor b, int c) -> (Tensor, Tensor)")
    assert "my_ns" in fresh.namespaces()


def test_overloads_keep_registration_order(fresh):
    fresh.register("my_ns::f.b(int x) -> int")
    fresh.register("my_ns::f.a(float x) -> float")
    fresh.register("my_ns::f(str x) -> str")
    assert [op.key for op in fresh.lookup("my_ns::f")] == ["my_ns::f.b", "my_ns::f.a", "my_ns::f"]


def test_registering_an_identical_schema_attaches_the_implementation(fresh):
    def relu(x):
        return x

    op = fresh.register("aten::relu(Tensor self) -> Tensor", relu)
    assert op is fresh.get("aten::relu")
    assert op.impl is relu
    # still the only overload without a name, in the catalogue's place
    assert [o.key for o in fresh.lookup("aten::relu")].count("aten::relu") == 1


def test_a_different_schema_under_a_key_is_an_error(fresh):
    with pytest.raises(SchemaError, match="already registered with a different schema") as info:
        fresh.register("aten::relu(Tensor self, int extra) -> Tensor")
    assert "aten::relu(Tensor self) -> Tensor" in str(info.value)


def test_replace_puts_the_new_operator_in_the_old_place(fresh):
    before = [op.key for op in fresh.lookup("aten::add")]
    new = fresh.register("aten::add.int(int a, int b, int c=0) -> int", replace=True)
    assert [op.key for op in fresh.lookup("aten::add")] == before
    assert fresh.get("aten::add.int") is new
    assert len(new.schema.arguments) == 3


def test_implement_by_key(fresh):
    def add(a, b, alpha):
        return a + alpha * b

    op = fresh.implement("aten::add.Tensor", add)
    assert op.impl is add
    assert fresh.get("aten::add.Tensor").implementation_for() is add
    with pytest.raises(UnknownOperatorError):
        fresh.implement("aten::add.nope", add)
    with pytest.raises(SchemaError, match="needs an implementation"):
        fresh.implement("aten::add.Tensor")


def test_implementation_for_prefers_the_factory(fresh):
    seen = []

    def factory(node):
        seen.append(node)
        return lambda *xs: xs

    op = fresh.register("my_ns::unpack(Any tup) -> ...", factory=factory)
    sentinel = object()
    impl = op.implementation_for(sentinel)  # type: ignore[arg-type]
    assert impl(1, 2) == (1, 2)
    assert seen == [sentinel]


def test_schema_without_implementation_is_a_clear_error(fresh):
    op = fresh.get("aten::sigmoid")
    with pytest.raises(UnimplementedOperatorError) as info:
        op.implementation_for(None)
    message = str(info.value)
    assert "aten::sigmoid" in message
    assert "aten::sigmoid(Tensor self) -> Tensor" in message
    assert info.value.schema is op.schema


def test_side_effects(fresh):
    pure = fresh.register("my_ns::pure(Tensor x) -> Tensor")
    conservative = fresh.register(
        "my_ns::log(Tensor x) -> ()", alias_analysis=AliasAnalysisKind.CONSERVATIVE
    )
    flagged = fresh.register("my_ns::emit(Tensor x) -> ()", tags={Tag.side_effect})
    assert not pure.has_side_effects
    assert conservative.has_side_effects
    assert flagged.has_side_effects and flagged.alias_analysis is AliasAnalysisKind.FROM_SCHEMA


def test_unqualified_names_cannot_be_operators(fresh):
    with pytest.raises(SchemaError, match="qualified"):
        fresh.register("forward(Tensor x) -> Tensor")


def test_operators_iterates_everything(fresh):
    keys = {op.key for op in fresh.operators()}
    assert len(keys) > 4000
    assert "prim::If" in keys and "aten::add.Tensor" in keys


# -- nodes (through the global registry and ts-ir's hooks)


def test_operator_for_nodes_from_ir_text():
    graph = parse_ir(
        """
graph(%x : Tensor, %y : Tensor, %i : int, %f : float):
  %one : int = prim::Constant[value=1]()
  %a : Tensor = aten::add(%x, %y, %one)
  %b : int = aten::add(%i, %i)
  %c : float = aten::add(%f, %i)
  %d : Tensor = aten::add(%x, %f, %one)
  %e : Tensor = aten::unknown_op(%x)
  return (%a, %b, %c, %d, %e)
"""
    )
    nodes = list(graph.nodes())
    keys = [
        None if registry.operator_for(n) is None else registry.operator_for(n).key for n in nodes
    ]
    assert keys == [
        "prim::Constant",
        "aten::add.Tensor",
        "aten::add.int",
        "aten::add.float_int",
        "aten::add.Scalar",
        None,
    ]
    assert nodes[1].schema() is registry.get("aten::add.Tensor").schema
    assert nodes[5].maybe_schema() is None
    with pytest.raises(IRError):
        nodes[5].schema()


def test_kwarg_only_inputs_are_positional_and_counts_must_match():
    graph = parse_ir(
        """
graph(%x : Tensor, %y : Tensor, %out : Tensor):
  %one : int = prim::Constant[value=1]()
  %a : Tensor = aten::add(%x, %y)
  %b : Tensor = aten::add(%x, %y, %one, %out)
  %c : Tensor = aten::add(%x, %y, %one, %one)
  return (%a, %b, %c)
"""
    )
    _, two, out, bad = graph.nodes()
    assert two.maybe_schema() is None
    # add.out(self, other, *, alpha, out): the keyword-only inputs follow positionally
    assert out.schema().key == "aten::add.out"
    assert bad.maybe_schema() is None


def test_node_matching_is_lenient_with_scalars_and_optionals():
    graph = parse_ir(
        """
graph(%x : Tensor, %flag : bool, %none : NoneType, %n : int):
  %a : Tensor = aten::add(%x, %flag, %flag)
  %b : Tensor = aten::clamp(%x, %none, %n)
  return (%a, %b)
"""
    )
    add, clamp = graph.nodes()
    assert add.schema().key == "aten::add.Scalar"
    assert clamp.schema().key == "aten::clamp"


def test_type_variables_bind_across_inputs():
    graph = parse_ir(
        """
graph(%l : int[], %m : float[], %i : int):
  %a : int[] = aten::add(%l, %l)
  %b : float[] = aten::add(%l, %m)
  %c : int = aten::__getitem__(%l, %i)
  return (%a, %b, %c)
"""
    )
    a, b, c = graph.nodes()
    assert a.schema().key == "aten::add.t"
    assert b.maybe_schema() is None
    assert c.schema().key == "aten::__getitem__.t"


def test_operator_for_is_cached_and_invalidated_by_input_changes():
    graph = parse_ir(
        """
graph(%x : Tensor, %y : Tensor, %i : int):
  %one : int = prim::Constant[value=1]()
  %a : Tensor = aten::add(%x, %y, %one)
  return (%a)
"""
    )
    _, add = graph.nodes()
    op = registry.operator_for(add)
    assert add.schema_cache is op
    assert registry.operator_for(add) is op
    add.replace_input(1, graph.inputs[2])  # now add(Tensor, int, int)
    assert add.schema_cache is None
    assert registry.operator_for(add).key == "aten::add.Scalar"


def test_a_cached_miss_is_forgotten_when_the_operator_appears():
    graph = parse_ir(
        """
graph(%x : Tensor):
  %a : Tensor = test_registry_late::op(%x)
  return (%a)
"""
    )
    (node,) = graph.nodes()
    assert node.maybe_schema() is None
    registry.register("test_registry_late::op(Tensor x) -> Tensor")
    assert node.schema().key == "test_registry_late::op"


def test_a_replaced_operator_is_not_served_from_node_caches():
    registry.register("test_registry_replace::op(Tensor x) -> Tensor")
    graph = parse_ir(
        "graph(%x : Tensor):\n  %a : Tensor = test_registry_replace::op(%x)\n  return (%a)"
    )
    (node,) = graph.nodes()
    old = registry.operator_for(node)
    new = registry.register("test_registry_replace::op(Tensor(a) x) -> Tensor(a)", replace=True)
    assert registry.operator_for(node) is new is not old


def test_node_matches_schema_text():
    graph = parse_ir(
        """
graph(%x : Tensor, %y : Tensor):
  %one : int = prim::Constant[value=1]()
  %a : Tensor = aten::add(%x, %y, %one)
  return (%a)
"""
    )
    _, add = graph.nodes()
    assert add.matches("aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor")
    assert (
        add.matches("aten::add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor")
        is False
    )
    assert not add.matches(
        "aten::sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"
    )
    # a schema nobody registered still matches by name and types
    assert add.matches("aten::add.mine(Tensor a, Tensor b, int c) -> Tensor")


def test_side_effect_hook():
    registry.register(
        "test_registry_fx::log(Tensor x) -> ()", alias_analysis=AliasAnalysisKind.CONSERVATIVE
    )
    graph = parse_ir(
        """
graph(%x : Tensor):
  %a : Tensor = aten::relu(%x)
  = test_registry_fx::log(%a)
  = prim::Store[name="y"](%a)
  = prim::Print(%a)
  %u : Tensor = aten::no_such_op(%a)
  return (%a)
"""
    )
    relu, log, store, print_, unknown = graph.nodes()
    assert not relu.has_side_effects()
    assert log.has_side_effects()
    assert store.has_side_effects()  # a CONSERVATIVE special prim
    assert print_.has_side_effects()
    assert not unknown.has_side_effects()


def test_module_level_operator_decorator_uses_the_global_registry():
    @operator("test_registry_global::double(Tensor x) -> Tensor")
    def double(x):
        return x + x

    assert registry.get("test_registry_global::double").impl is double


def test_concurrent_first_lookups_see_every_overload():
    import threading

    fresh = OperatorRegistry(Catalogue(), EntryPointDiscovery(lambda: []))
    names = ["aten::add", "aten::mul", "aten::sub", "aten::div", "aten::max", "aten::sum"]
    expected = {
        name: [op.key for op in OperatorRegistry(Catalogue(), None).lookup(name)] for name in names
    }
    results: list[tuple[str, list[str]]] = []
    errors: list[BaseException] = []

    def worker() -> None:
        try:
            for name in names:
                results.append((name, [op.key for op in fresh.lookup(name)]))
        except BaseException as e:  # collected and asserted below
            errors.append(e)

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(results) == 8 * len(names)
    for name, keys in results:
        assert keys == expected[name]
