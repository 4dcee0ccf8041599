"""Dict operators: every key type, mutation in place, missing keys, the constructors."""

from __future__ import annotations

import pytest
import ts_ir
import ts_runtime
from ts_runtime import call
from ts_schema import registry


def kernel(key: str):
    return registry.get(key).impl


COUNT_WORDS = """
graph(%words : str[], %d : Dict(str, int)):
  %zero : int = prim::Constant[value=0]()
  %one : int = prim::Constant[value=1]()
  %n : int = aten::len(%words)
  %t : bool = prim::Constant[value=1]()
   = prim::Loop(%n, %t)
    block0(%i : int):
      %w : str = aten::__getitem__(%words, %i)
      %c : int = aten::get(%d, %w, %zero)
      %c1 : int = aten::add(%c, %one)
       = aten::_set_item(%d, %w, %c1)
      -> (%t)
  %keys : str[] = aten::keys(%d)
  %size : int = aten::len(%d)
  %r : (str[], int) = prim::TupleConstruct(%keys, %size)
  return (%r)
"""


def test_dict_is_mutated_in_place():
    d = {"z": 5}
    fn = ts_runtime.Function("f", ts_ir.parse_ir(COUNT_WORDS), optimize=False)
    keys, size = fn(["a", "z", "a"], d)
    assert keys == ["z", "a"] and size == 2
    # the program updated its own copy: a dict (or list) passed from Python is converted
    # to a new one on the way in, as TorchScript does, so the caller's is unchanged
    assert d == {"z": 5}


@pytest.mark.parametrize(
    ("key_type", "key", "other"),
    [
        ("str", "k", "m"),
        ("int", 3, 4),
        ("bool", True, False),
        ("float", 2.5, 0.5),
        ("complex", 1j, 2j),
    ],
)
def test_every_key_type(key_type, key, other):
    d = {key: 1}
    dict_key = f"Dict_{key_type}"
    assert kernel(f"aten::__getitem__.{dict_key}")(d, key) == 1
    assert kernel(f"aten::__contains__.{key_type}")(d, other) is False
    assert kernel(f"aten::get.{key_type}")(d, other) is None
    assert kernel(f"aten::get.default_{key_type}")(d, other, 7) == 7
    kernel(f"aten::_set_item.{key_type}")(d, other, 2)
    assert kernel(f"aten::len.{dict_key}")(d) == 2
    assert kernel(f"aten::setdefault.{key_type}")(d, other, 9) == 2
    assert kernel(f"aten::pop.{dict_key}")(d, other) == 2
    assert kernel(f"aten::pop.Dict_default_{key_type}")(d, other, -1) == -1
    with pytest.raises(KeyError):
        kernel(f"aten::__getitem__.{dict_key}")(d, other)
    with pytest.raises(KeyError):
        kernel(f"aten::Delete.{dict_key}")(d, other)
    kernel(f"aten::Delete.{dict_key}")(d, key)
    assert d == {}


def test_views_are_new_lists():
    d = {"a": [1], "b": [2]}
    keys = call("aten::keys", d)
    values = call("aten::values", d)
    items = call("aten::items", d)
    assert keys == ["a", "b"] and values == [[1], [2]] and items == [("a", [1]), ("b", [2])]
    keys.append("c")
    assert list(d) == ["a", "b"]
    assert values[0] is d["a"]


def test_copies_are_shallow_and_new():
    d = {1: [1.0]}
    for op in ("aten::copy", "aten::dict"):
        e = call(op, d)
        assert e == d and e is not d and e[1] is d[1]
    assert kernel("aten::dict.str")([("a", 1), ("b", 2)]) == {"a": 1, "b": 2}
    assert kernel("aten::dict")() == {}


def test_update_popitem_clear():
    d = {"a": 1}
    call("aten::update", d, {"b": 2, "a": 0})
    assert d == {"a": 0, "b": 2}
    # Python's order: the last item inserted
    assert call("aten::popitem", d) == ("b", 2)
    call("aten::clear", d)
    assert d == {}
    with pytest.raises(KeyError):
        call("aten::popitem", d)


def test_tensor_keys_are_identities_and_record_no_history():
    t = ts_runtime.tensor([1.0, 2.0], requires_grad=True)
    u = t * 2
    d: dict = {}
    kernel("aten::_set_item.Tensor")(d, u, "u")
    assert kernel("aten::__contains__.Tensor")(d, u) is True
    assert kernel("aten::__contains__.Tensor")(d, t * 2) is False
    assert kernel("aten::keys.Tensor")(d)[0] is u
    # under grad mode too: a dict keyed by a tensor that requires grad is not a tensor
    assert call("aten::pop", d, u) == "u"
    assert d == {}
