"""List operators: mutation in place (aliasing), indexing errors, methods, reductions, tensor lists."""

from __future__ import annotations

import math

import pytest
import ts_ir
import ts_runtime
from ts_runtime import TensorError, call
from ts_schema import registry


def function(ir: str) -> ts_runtime.Function:
    return ts_runtime.Function("f", ts_ir.parse_ir(ir), optimize=False)


def kernel(key: str):
    return registry.get(key).impl


APPEND_AND_SET = """
graph(%xs : int[], %i : int):
  %c : int = prim::Constant[value=100]()
  %ys : int[] = aten::append(%xs, %c)
  %zs : int[] = aten::_set_item(%ys, %i, %c)
  %n : int = aten::len(%xs)
  %r : (int[], int[], int) = prim::TupleConstruct(%ys, %zs, %n)
  return (%r)
"""


def test_mutation_is_in_place_and_returns_the_list():
    xs = [1, 2]
    ys, zs, n = function(APPEND_AND_SET)(xs, 0)
    # inside the program all three names are one list, changed in place
    assert ys == [100, 2, 100] and ys is zs
    assert n == 3
    # which is the program's own: a list passed from Python is converted to a new one on
    # the way in, as TorchScript does, so the caller's list is unchanged
    assert xs == [1, 2]


def test_set_item_out_of_range_is_an_index_error():
    with pytest.raises(IndexError):
        function(APPEND_AND_SET)([1], 5)


def test_aliases_see_each_others_changes():
    ir = """
graph(%xs : int[][]):
  %zero : int = prim::Constant[value=0]()
  %seven : int = prim::Constant[value=7]()
  %inner : int[] = aten::__getitem__(%xs, %zero)
  %_ : int[] = aten::append(%inner, %seven)
  return (%xs)
"""
    inner = [1]
    out = function(ir)([inner, [2]])
    assert out == [[1, 7], [2]]
    assert inner == [1]  # nested lists are converted too


@pytest.mark.parametrize(
    ("op", "args", "error"),
    [
        ("aten::__getitem__", ([1, 2], 2), IndexError),
        ("aten::__getitem__", ([1, 2], -3), IndexError),
        ("aten::pop", ([], -1), IndexError),
        ("aten::Delete", ([1], 1), IndexError),
        ("aten::index", ([1, 2], 3), ValueError),
        ("aten::remove", (["a"], "b"), ValueError),
        ("aten::slice", ([1, 2], 0, 2, 0), ValueError),
        ("prim::max", ([],), ValueError),
    ],
)
def test_errors_are_pythons(op, args, error):
    with pytest.raises(error):
        call(op, *args)


def test_reading():
    xs = [5, 6, 7, 8]
    assert call("aten::__getitem__", xs, -1) == 8
    assert call("aten::slice", xs, 1, 3, 1) == [6, 7]
    assert call("aten::slice", xs, None, None, -2) == [8, 6]
    assert call("aten::len", xs) == 4
    assert call("aten::__contains__", xs, 6) is True
    assert call("aten::index", xs, 7) == 2
    assert call("aten::count", [1, 1, 2], 1) == 2
    assert call("aten::add", [1], [2, 3]) == [1, 2, 3]
    assert call("aten::mul", [0, 1], 2) == [0, 1, 0, 1]
    assert kernel("aten::mul.right_")(2, [3]) == [3, 3]


def test_copies_are_new_lists():
    xs = [[1], [2]]
    for op in ("aten::copy", "aten::list", "aten::sorted"):
        ys = call(op, xs)
        assert ys == xs and ys is not xs and ys[0] is xs[0], op


def test_methods_in_place():
    xs = [3, 1, 2]
    assert call("aten::insert", xs, 100, 9) is None and xs == [3, 1, 2, 9]
    call("aten::insert", xs, -100, 0)
    assert xs == [0, 3, 1, 2, 9]
    assert call("aten::pop", xs) == 9
    assert call("aten::pop", xs, 0) == 0
    call("aten::reverse", xs)
    assert xs == [2, 1, 3]
    call("aten::sort", xs, True)
    assert xs == [3, 2, 1]
    call("aten::extend", xs, xs)
    assert xs == [3, 2, 1, 3, 2, 1]
    call("aten::remove", xs, 2)
    call("aten::Delete", xs, -1)
    assert xs == [3, 1, 3, 2]
    assert kernel("aten::add_.t")(xs, [0]) is xs and xs == [3, 1, 3, 2, 0]
    assert kernel("aten::mul_.t")(xs, 0) is xs and xs == []
    ys = [1]
    call("aten::clear", ys)
    assert ys == []


def test_reductions_keep_the_schemas_types():
    assert call("aten::sum", [1, 2, 3]) == 6
    empty = kernel("aten::sum.float")([])
    assert empty == 0.0 and type(empty) is float
    assert kernel("aten::sum.bool")([True, True, False]) == 2
    assert kernel("aten::sum.complex")([1j, 2]) == 2 + 1j
    assert call("aten::all", [1, 0]) is False
    assert call("aten::any", ["", "x"]) is True
    assert kernel("prim::min.self_float")([2.5, -1.0]) == -1.0
    assert kernel("prim::max.self_bool")([False, True]) is True


def test_min_and_max_of_two_lists_return_one_of_them():
    a, b = [1, 2, 3], [1, 3]
    assert kernel("prim::max.int_list")(a, b) is b
    assert kernel("prim::min.int_list")(a, b) is a


def test_list_comparisons():
    assert call("aten::eq", [1, 2], [1, 2]) is True
    assert call("aten::ne", [1.0], [1.0, 2.0]) is True
    assert call("aten::eq", ["a"], ["b"]) is False


def test_float_lists_compare_by_value():
    # TorchScript's floats have no identity: a nan is never found, even the same object
    nan = math.nan
    with pytest.raises(ValueError):
        kernel("aten::index.list_float")([1.0, nan], nan)
    with pytest.raises(ValueError):
        kernel("aten::remove.float")([nan], nan)
    xs = [1.0, 2.0, 1.0]
    kernel("aten::remove.float")(xs, 1.0)
    assert xs == [2.0, 1.0]


def test_rangelist():
    assert kernel("prim::rangelist")(4) == [0, 1, 2, 3]


# ---------------------------------------------------------------------------
# lists of tensors


def test_tensor_list_elements_compare_as_torchscript_does():
    t = ts_runtime.tensor([1.0, 2.0])
    # a two-element tensor is ambiguous as a bool even compared with itself
    with pytest.raises(TensorError):
        kernel("aten::index.list_Tensor")([t], t)
    a, b = ts_runtime.tensor(1.0), ts_runtime.tensor(2.0)
    assert kernel("aten::index.list_Tensor")([a, b], ts_runtime.tensor(2.0)) == 1
    assert kernel("aten::count.Tensor")([a, b, a], ts_runtime.tensor(1.0)) == 2
    assert kernel("aten::eq.Tensor_list")([a, b], [ts_runtime.tensor(1.0), b]) is True
    assert kernel("aten::ne.Tensor_list")([a], [a, b]) is True
    xs = [a, b]
    kernel("aten::remove.Tensor")(xs, ts_runtime.tensor(2.0))
    assert xs == [a] and xs[0] is a
    with pytest.raises(ValueError):
        kernel("aten::index.list_Tensor")([a], b)


def test_tensor_list_operators_record_no_autograd_history():
    x = ts_runtime.tensor(2.0, requires_grad=True)
    y = x * 3
    z = x * 1
    history = (y.grad_fn, z.grad_fn)
    ys = call("aten::sorted", [y, z])
    assert ys == [z, y] or (ys[0] is z and ys[1] is y)
    assert (y.grad_fn, z.grad_fn) == history
    xs = [y, z]
    call("aten::sort", xs, True)
    call("aten::remove", xs, z)
    assert xs[0] is y and y.grad_fn is history[0]
