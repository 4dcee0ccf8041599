import pickle

import pytest
from ts_ir import Namespace, Symbol, aten, attr, onnx, prim


def test_equal_symbols_are_one_object():
    a = Symbol("aten::add")
    b = Symbol("aten::" + "".join(["a", "d", "d"]))
    assert a is b
    assert Symbol.from_parts("aten", "add") is a


def test_symbol_is_a_string():
    s = Symbol("prim::Constant")
    assert s == "prim::Constant"
    assert isinstance(s, str)
    assert {"prim::Constant": 1}[s] == 1
    assert str(s) == "prim::Constant"
    assert s.to_qual_string() == "prim::Constant"


def test_ns_and_name():
    s = Symbol("aten::add_")
    assert s.ns == "aten"
    assert s.name == "add_"
    assert s.to_unqual_string() == "add_"
    # names may themselves hold colons after the first `::`
    t = Symbol("my_ns::a::b")
    assert (t.ns, t.name) == ("my_ns", "a::b")


def test_symbol_needs_a_namespace():
    with pytest.raises(ValueError, match="no namespace"):
        Symbol("add")


def test_namespace_attribute_access_interns():
    assert prim.If is Symbol("prim::If")
    assert aten.add is Symbol("aten::add")
    assert attr.value is Symbol("attr::value")
    assert onnx.Add is Symbol("onnx::Add")
    assert prim["Loop"] is prim.Loop


def test_namespaces_are_open():
    ns = Namespace("my_ops")
    sym = ns.magic
    assert sym == "my_ops::magic"
    assert sym is Symbol("my_ops::magic")
    assert sym.ns == "my_ops"


def test_namespace_does_not_invent_dunder_attributes():
    with pytest.raises(AttributeError):
        _ = prim.__wrapped__
    assert not hasattr(aten, "__array__")


def test_repr():
    assert repr(aten.mul) == "Symbol('aten::mul')"
    assert repr(prim) == "Namespace('prim')"


def test_pickling_keeps_interning():
    s = pickle.loads(pickle.dumps(aten.relu))
    assert s is aten.relu


def test_namespace_symbols_cannot_be_reassigned():
    ns = Namespace("fixed")
    first = ns.op  # made on first access, then a plain attribute
    with pytest.raises(AttributeError):
        ns.op = Symbol("fixed::other")
    assert ns.op is first is Symbol("fixed::op")
    assert ns["op"] is first
