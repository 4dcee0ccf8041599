"""Operator tags: declared once (the builtin table, or at registration), asked by kind."""

from __future__ import annotations

import pytest
from ts_ir import Graph
from ts_schema import BUILTIN_TAGS, OperatorRegistry, Tag, operator, registry


@pytest.mark.parametrize(
    "kind",
    ["prim::Print", "prim::RaiseException", "prim::SetAttr", "aten::warn", "prim::CallMethod",
     "aten::set_grad_enabled", "prim::Enter"],
)  # fmt: skip
def test_side_effect_kinds(kind):
    n = Graph().create(kind)
    assert Tag.side_effect in registry.tags_of(n)
    assert n.has_side_effects()


@pytest.mark.parametrize("kind", ["aten::add", "prim::Constant", "prim::If", "prim::ListConstruct"])
def test_pure_kinds(kind):
    assert not Graph().create(kind).has_side_effects()


def test_builtin_tags_name_kinds_that_exist():
    # every tagged aten operator is in the catalogue (a misspelled name would tag nothing)
    for name in BUILTIN_TAGS:
        if name.startswith("aten::"):
            assert registry.has(name), name


def test_every_overload_carries_the_tags_of_its_name():
    for op in registry.lookup("aten::rand"):
        assert Tag.nondeterministic in op.tags
    assert all(not op.tags for op in registry.lookup("aten::add"))


def test_tags_declared_at_registration_apply_to_the_name_and_its_nodes():
    reg = OperatorRegistry()

    @reg.operator("tagtest::log_event(str s) -> ()", tags={Tag.side_effect})
    def log_event(s):
        return None

    op = reg.get("tagtest::log_event")
    assert op.tags == {Tag.side_effect} and op.has_side_effects
    assert reg.tags_of(Graph().create("tagtest::log_event")) == {Tag.side_effect}
    # tags are added, never taken away; a later overload has them too
    reg.tag("tagtest::log_event", Tag.nondeterministic)
    reg.register("tagtest::log_event.count(str s, int n) -> ()")
    for o in reg.lookup("tagtest::log_event"):
        assert o.tags == {Tag.side_effect, Tag.nondeterministic}


def test_the_operator_decorator_takes_tags():
    @operator("tagtest2::emit(Tensor x) -> ()", tags=[Tag.side_effect])
    def emit(x):
        return None

    n = Graph().create("tagtest2::emit")
    assert n.has_side_effects()


@pytest.mark.parametrize(
    ("tag", "kinds"),
    [
        (Tag.calls, ["prim::CallFunction", "prim::CallMethod", "prim::fork", "prim::PythonOp"]),
        (Tag.type_check, ["prim::Guard", "prim::BailOut", "prim::TypeCheck"]),
        (Tag.to_cuda, ["aten::cuda"]),
        (Tag.autograd_function, ["aten::backward", "aten::grad"]),
        (
            Tag.python_builtin,
            ["aten::Int", "aten::Float", "aten::Bool", "aten::str", "aten::sorted"],
        ),
    ],
)
def test_builtin_kinds_carry_the_tags_that_replaced_name_lists(tag, kinds):
    for kind in kinds:
        assert tag in registry.tags_of(Graph().create(kind)), kind
    tagged = {name for name, tags in BUILTIN_TAGS.items() if tag in tags}
    assert tagged == set(kinds)
    assert tag not in registry.tags_of(Graph().create("aten::add"))
