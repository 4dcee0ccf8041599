# Functions from PyTorch's TorchScript tests, test/jit/test_isinstance.py
# (pytorch/pytorch commit dc3d6fe6b0710a19a5a9a288f3232955521868cb), BSD-3-Clause,
# Copyright (c) 2016- Facebook, Inc.
# The test methods define these functions (and the classes they use) inside their
# bodies and check them with `self.checkScript(fn, inputs)`; they are lifted to module
# level here (dedented), each function renamed `<test method>__<name>` so that the
# names are unique, otherwise copied as written. The comment above each names its test.
# The imports are the file's own (less its test-harness imports).
import torch
import warnings
from typing import List, Any, Dict, Tuple, Optional


# TestIsinstance.test_int
def test_int__int_test(x: Any):
    assert torch.jit.isinstance(x, int)
    assert not torch.jit.isinstance(x, float)


# TestIsinstance.test_float
def test_float__float_test(x: Any):
    assert torch.jit.isinstance(x, float)
    assert not torch.jit.isinstance(x, int)


# TestIsinstance.test_bool
def test_bool__bool_test(x: Any):
    assert torch.jit.isinstance(x, bool)
    assert not torch.jit.isinstance(x, float)


# TestIsinstance.test_list
def test_list__list_str_test(x: Any):
    assert torch.jit.isinstance(x, List[str])
    assert not torch.jit.isinstance(x, List[int])
    assert not torch.jit.isinstance(x, Tuple[int])


# TestIsinstance.test_list_tensor
def test_list_tensor__list_tensor_test(x: Any):
    assert torch.jit.isinstance(x, List[torch.Tensor])
    assert not torch.jit.isinstance(x, Tuple[int])


# TestIsinstance.test_dict
def test_dict__dict_str_int_test(x: Any):
    assert torch.jit.isinstance(x, Dict[str, int])
    assert not torch.jit.isinstance(x, Dict[int, str])
    assert not torch.jit.isinstance(x, Dict[str, str])


# TestIsinstance.test_dict_tensor
def test_dict_tensor__dict_int_tensor_test(x: Any):
    assert torch.jit.isinstance(x, Dict[int, torch.Tensor])


# TestIsinstance.test_tuple
def test_tuple__tuple_test(x: Any):
    assert torch.jit.isinstance(x, Tuple[str, int, str])
    assert not torch.jit.isinstance(x, Tuple[int, str, str])
    assert not torch.jit.isinstance(x, Tuple[str])


# TestIsinstance.test_tuple_tensor
def test_tuple_tensor__tuple_tensor_test(x: Any):
    assert torch.jit.isinstance(x, Tuple[torch.Tensor, torch.Tensor])


# TestIsinstance.test_optional
def test_optional__optional_test(x: Any):
    assert torch.jit.isinstance(x, Optional[torch.Tensor])
    assert not torch.jit.isinstance(x, Optional[str])


# TestIsinstance.test_optional_none
def test_optional_none__optional_test_none(x: Any):
    assert torch.jit.isinstance(x, Optional[torch.Tensor])


# TestIsinstance.test_list_nested
def test_list_nested__list_nested(x: Any):
    assert torch.jit.isinstance(x, List[Dict[str, int]])
    assert not torch.jit.isinstance(x, List[List[str]])


# TestIsinstance.test_dict_nested
def test_dict_nested__dict_nested(x: Any):
    assert torch.jit.isinstance(x, Dict[str, Tuple[str, str, str]])
    assert not torch.jit.isinstance(x, Dict[str, Tuple[int, int, int]])


# TestIsinstance.test_tuple_nested
def test_tuple_nested__tuple_nested(x: Any):
    assert torch.jit.isinstance(
        x, Tuple[Dict[str, Tuple[str, str, str]], List[bool], Optional[str]]
    )
    assert not torch.jit.isinstance(x, Dict[str, Tuple[int, int, int]])
    assert not torch.jit.isinstance(x, Tuple[str])
    assert not torch.jit.isinstance(x, Tuple[List[bool], List[str], List[int]])


# TestIsinstance.test_optional_nested
def test_optional_nested__optional_nested(x: Any):
    assert torch.jit.isinstance(x, Optional[List[str]])


# TestIsinstance.test_list_tensor_type_true
def test_list_tensor_type_true__list_tensor_type_true(x: Any):
    assert torch.jit.isinstance(x, List[torch.Tensor])


# TestIsinstance.test_tensor_type_false
def test_tensor_type_false__list_tensor_type_false(x: Any):
    assert not torch.jit.isinstance(x, List[torch.Tensor])


# TestIsinstance.test_in_if
def test_in_if__list_in_if(x: Any):
    if torch.jit.isinstance(x, List[int]):
        assert True
    if torch.jit.isinstance(x, List[str]):
        assert not True


# TestIsinstance.test_if_else
def test_if_else__list_in_if_else(x: Any):
    if torch.jit.isinstance(x, Tuple[str, str, str]):
        assert True
    else:
        assert not True


# TestIsinstance.test_in_while_loop
def test_in_while_loop__list_in_while_loop(x: Any):
    count = 0
    while torch.jit.isinstance(x, List[Dict[str, int]]) and count <= 0:
        count = count + 1
    assert count == 1


# TestIsinstance.test_type_refinement
def test_type_refinement__type_refinement(obj: Any):
    hit = False
    if torch.jit.isinstance(obj, List[torch.Tensor]):
        hit = not hit
        for el in obj:
            # perform some tensor operation
            y = el.clamp(0, 0.5)
    if torch.jit.isinstance(obj, Dict[str, str]):
        hit = not hit
        str_cat = ""
        for val in obj.values():
            str_cat = str_cat + val
        assert "111222" == str_cat
    assert hit


# TestIsinstance.test_tuple_rhs
def test_tuple_rhs__fn(x: Any):
    assert torch.jit.isinstance(x, (int, List[str]))
    assert not torch.jit.isinstance(x, (List[float], Tuple[int, str]))
    assert not torch.jit.isinstance(x, (List[float], str))
