"""`prim::` operators: tensor properties, printing, optionals, sizes, node-specialized prims."""

from __future__ import annotations

import numpy as np
import pytest
import ts_ir
import ts_runtime
from ts_runtime import TensorError, call
from ts_runtime.interpreter.code import CodeError
from ts_schema import registry


def kernel(key: str):
    return registry.get(key).impl


def function(ir: str) -> ts_runtime.Function:
    return ts_runtime.Function("f", ts_ir.parse_ir(ir), optimize=False)


def test_tensor_properties():
    ir = """
graph(%t : Tensor):
  %d : int = prim::dtype(%t)
  %v : Device = prim::device(%t)
  %g : bool = prim::requires_grad(%t)
  %c : bool = prim::is_cuda(%t)
  %n : int = aten::len(%t)
  %b : int = prim::nbytes(%t)
  %r : (int, Device, bool, bool, int, int) = prim::TupleConstruct(%d, %v, %g, %c, %n, %b)
  return (%r)
"""
    t = ts_runtime.tensor([[1.0, 2.0]], requires_grad=True)
    dtype, device, grad, cuda, n, nbytes = function(ir)(t)
    assert dtype == ts_runtime.float32 and int(dtype) == 6
    assert device == ts_ir.Device("cpu")
    assert (grad, cuda, n, nbytes) == (True, False, 1, 8)
    assert kernel("prim::is_cpu")(t) is True
    assert kernel("prim::is_sparse")(t) is False
    assert kernel("prim::layout")(t) == 0
    assert kernel("prim::itemsize")(t) == 4
    assert kernel("prim::data")(t).requires_grad is False


def test_len_of_a_zero_dim_tensor_is_a_type_error():
    with pytest.raises(TypeError):
        kernel("aten::len.Tensor")(ts_runtime.tensor(1.0))


@pytest.mark.parametrize(
    ("value", "dtype"),
    [(True, np.bool_), (3, np.int64), (2.5, np.float64), (1 + 2j, np.complex128)],
)
def test_num_to_tensor_makes_a_zero_dim_tensor(value, dtype):
    t = call("prim::NumToTensor", value)
    assert t.dim() == 0 and t._data.dtype == dtype and t.item() == value


def test_print_writes_one_line_to_stdout(capsys):
    ir = """
graph(%x : float, %xs : int[]):
  %s : str = prim::Constant[value="x is"]()
  %none : NoneType = prim::Constant()
   = prim::Print(%s, %x, %xs, %none)
  return (%none)
"""
    function(ir)(1.5, [1, 2])
    assert capsys.readouterr().out == "x is 1.5 [1, 2] None\n"


def test_warn():
    with pytest.warns(UserWarning, match="careful"):
        call("aten::warn", "careful")


def test_optionals():
    assert kernel("prim::unchecked_unwrap_optional")(3) == 3
    assert kernel("aten::_unwrap_optional")([1]) == [1]
    with pytest.raises(TensorError, match="null optional"):
        kernel("aten::_unwrap_optional")(None)


def test_choice_identity_and_hash():
    assert kernel("prim::IfThenElse")(False, "a", "b") == "b"
    xs = [1]
    assert kernel("prim::id")(xs) == id(xs)
    assert kernel("prim::id")(None) == 0
    assert kernel("prim::ModuleContainerIndex.list")(["m0", "m1"], 1) == "m1"


def test_hash_gives_pytorchs_values():
    """PyTorch 2.13's `hash` in TorchScript (on Linux x86-64): ints are themselves, strings
    and floats hash by libstdc++'s hash, 0.0 and -0.0 to 0, a NaN alike every time."""
    h = kernel("aten::hash.generic")
    assert h(5) == 5 and h(-1) == -1
    assert h("ab") == 5498234120169091963
    assert h(1.5) == 4982507072649106663
    assert h(float("inf")) == 3377428025507081056
    assert h(float("nan")) == h(float("nan")) == -1255316504868620486
    assert h(-0.0) == h(0.0) == 0
    assert h((1, "a")) == hash((1, "a"))


def test_devices_and_dtypes():
    assert call("aten::device", "cpu") == ts_ir.Device("cpu")
    assert kernel("aten::device.with_index")("cuda", 1) == ts_ir.Device("cuda", 1)
    assert kernel("prim::type")(ts_ir.Device("cuda", 1)) == "cuda"
    assert kernel("prim::index")(ts_ir.Device("cpu")) is None
    assert call("aten::promote_types", ts_runtime.int64, ts_runtime.float16) == ts_runtime.float16
    assert call("aten::can_cast", ts_runtime.float32, ts_runtime.int32) is False
    assert call("aten::can_cast", ts_runtime.int32, ts_runtime.float32) is True
    assert call("aten::can_cast", ts_runtime.int32, ts_runtime.bool) is False
    assert kernel("aten::result_type.Scalar_Scalar")(1, 2.5) == ts_runtime.float32
    assert kernel("aten::is_scripting")() is True


def test_broadcast_sizes():
    broadcast = kernel("prim::BroadcastSizes")
    assert broadcast([2, 1, 3], [4, 1], [1]) == [2, 4, 3]
    assert broadcast([5]) == [5]
    assert call("aten::_infer_size", [3, 1], [1, 4]) == [3, 4]
    with pytest.raises(TensorError, match="must match"):
        broadcast([2, 3], [4])


def test_size_if_not_equal():
    f = kernel("aten::_size_if_not_equal")
    assert f([2, 3], [2, 3]) is None
    size = [2, 1]
    assert f(size, [2, 3]) is size


def test_reduction_sizes():
    f = kernel("prim::ReductionSizes")
    assert f([2, 3, 4], [0, -1], False) == [3]
    assert f([2, 3, 4], [1], True) == [2, 1, 4]


def test_constant_chunk_reads_its_attributes():
    ir = """
graph(%x : Tensor):
  %a : Tensor, %b : Tensor, %c : Tensor = prim::ConstantChunk[chunks=3, dim=1](%x)
  %r : (Tensor, Tensor, Tensor) = prim::TupleConstruct(%a, %b, %c)
  return (%r)
"""
    x = ts_runtime.from_numpy(np.arange(10.0).reshape(2, 5))
    a, b, c = function(ir)(x)
    assert a.shape == (2, 2) and b.shape == (2, 2) and c.shape == (2, 1)
    np.testing.assert_array_equal(c.numpy(), [[4.0], [9.0]])


def test_constant_chunk_of_too_few_elements_leaves_outputs_empty():
    ir = """
graph(%x : Tensor):
  %a : Tensor, %b : Tensor, %c : Tensor = prim::ConstantChunk[chunks=3, dim=0](%x)
  %r : (Tensor, Tensor, Tensor) = prim::TupleConstruct(%a, %b, %c)
  return (%r)
"""
    a, b, c = function(ir)(ts_runtime.tensor([1.0, 2.0]))
    assert a.tolist() == [1.0] and b.tolist() == [2.0] and c is None


def test_chunk_sizes():
    ir = """
graph(%size : int[]):
  %regular : int[], %last : int[] = prim::ChunkSizes[chunks=3, dim=-1](%size)
  %r : (int[], int[]) = prim::TupleConstruct(%regular, %last)
  return (%r)
"""
    fn = function(ir)
    assert fn([4, 10]) == ([4, 4], [4, 2])
    assert fn([4, 9]) == ([4, 3], [4, 3])


def test_tuple_slice():
    ir = """
graph(%t : (int, str, float, int)):
  %s : (str, float) = prim::TupleSlice[beg=1, end=3](%t)
  return (%s)
"""
    assert function(ir)((1, "a", 2.5, 3)) == ("a", 2.5)


def test_node_specialized_prim_without_its_attributes_cannot_run():
    ir = """
graph(%x : Tensor):
  %a : Tensor, %b : Tensor = prim::ConstantChunk[chunks=2](%x)
  return (%a)
"""
    with pytest.raises(CodeError, match="'dim'"):
        function(ir)(ts_runtime.tensor([1.0, 2.0]))


def test_tolist():
    f = kernel("prim::tolist")
    assert f(ts_runtime.tensor([[1, 2]]), 2, 0) == [[1, 2]]
    assert f(ts_runtime.tensor(2.5), 0, 1) == 2.5
    with pytest.raises(TensorError, match="dimension"):
        f(ts_runtime.tensor([1, 2]), 2, 0)
    with pytest.raises(TensorError, match="element type"):
        f(ts_runtime.tensor([1.5]), 1, 0)


def test_autograd_prims_treat_none_as_an_undefined_gradient():
    add = kernel("prim::AutogradAdd")
    g = ts_runtime.tensor([1.0])
    assert add(None, g) is g and add(g, None) is g and add(None, None) is None
    assert add(g, g).tolist() == [2.0]
    assert kernel("prim::AutogradZero")() is None
    assert kernel("prim::AutogradAnyNonZero")(None, [None, g]) is True
    assert kernel("prim::AutogradAllNonZero")(g, [g, None]) is False
    assert kernel("prim::AutogradAllZero")(None, []) is True
