# Functions from PyTorch's TorchScript tests, test/jit/test_list_dict.py
# (pytorch/pytorch commit dc3d6fe6b0710a19a5a9a288f3232955521868cb), BSD-3-Clause,
# Copyright (c) 2016- Facebook, Inc.
# The test methods define these functions (and the classes they use) inside their
# bodies and check them with `self.checkScript(fn, inputs)`; they are lifted to module
# level here (dedented), each function renamed `<test method>__<name>` so that the
# names are unique, otherwise copied as written. The comment above each names its test.
# The imports are the file's own (less its test-harness imports).
from typing import Any, Dict, List, NamedTuple, Optional, Tuple
from textwrap import dedent
from collections import OrderedDict
from torch import Tensor
import torch
import torch.nn as nn


# TestList.test_list_bool_conversion
def test_list_bool_conversion__if_predicate(l: List[int]):
    if l:
        s = 0
        for n in l:
            s += n

        return s
    else:
        return -1


# TestList.test_list_bool_conversion
def test_list_bool_conversion__while_predicate(l: List[int]):
    s = 0

    while l:
        s += l.pop()


# TestList.test_list_bool_conversion
def test_list_bool_conversion__ternary_predicate(l: List[int]):
    return "non-empty" if l else "empty"


# TestList.test_in_check
def test_in_check__int_in(x: List[int]) -> bool:
    return 2 in x


# TestList.test_in_check
def test_in_check__float_in(x: List[float]) -> bool:
    return 2. in x


# TestList.test_in_check
def test_in_check__str_in(x: List[str]) -> bool:
    return 'hi' in x


# TestList.test_list_literal
def test_list_literal__reassign():
    x = [1]
    if 1 == 1:
        x = [2, 3]
    return


# TestList.test_list_literal
def test_list_literal__reassign_arity_change():
    x = [1]
    if 1 == 1:
        x = [1, 2, 3]
    return


# TestList.test_list_literal
def test_list_literal__reassign_from_empty_builtin():
    x = torch.jit.annotate(List[int], [])
    if 1 == 1:
        x = [1, 2, 3]
    y = torch.jit.annotate(List[float], [])
    if 1 == 1:
        y = [1.0, 2.0, 3.0]
    z = []
    if 1 == 1:
        z = [torch.randn([1])]
    return


# TestList.test_list_variance
def test_list_variance__test_listliteral_is_typed_from_annotation():
    x: List[Optional[int]] = [None, None, None]
    return x


# TestList.test_list_variance
def test_list_variance__test_listcomprehension_is_typed_from_annotation():
    x: List[Optional[int]] = [None for _ in range(3)]
    return x


# TestList.test_list_keyword
def test_list_keyword__foo():
    return list([1, 2, 3]), list(("a", "b")), list(range(5)), list("abcdefg")  # noqa: C410


# TestList.test_list_keyword
def test_list_keyword__foo2():
    x: List[int] = list()
    x.append(1)
    return x,


# TestList.test_list_keyword
def test_list_keyword__foo3():
    return list(list("abc"))  # noqa: C414


# TestList.test_dict_keyword_with_kwargs
def test_dict_keyword_with_kwargs__fn():
    return dict(foo=1, bar=2, baz=3)


# TestList.test_dict_keyword_with_kwargs_using_container_values
def test_dict_keyword_with_kwargs_using_container_values__fn():
    return dict(foo=[1, 2, 3], bar=[4, 5, 6], baz=[7, 8, 9])


# TestList.test_dict_keyword_with_iterable
def test_dict_keyword_with_iterable__fn():
    return dict([("foo", 1), ("bar", 2), ("baz", 3)])    # noqa: C406


# TestList.test_dict_keyword_with_empty_iterable
def test_dict_keyword_with_empty_iterable__fn():
    return dict([])    # noqa: C406


# TestList.test_dict_keyword_with_internal_aggregate_function
def test_dict_keyword_with_internal_aggregate_function__fn():
    return dict(zip(["foo", "baz", "bar"], [1, 2, 3]))


# TestList.test_dict_keyword_with_mapping
def test_dict_keyword_with_mapping__fn():
    return dict({"foo" : 1, "bar" : 2, "baz" : 3})


# TestList.test_dict_keyword_with_mapping_and_kwargs
def test_dict_keyword_with_mapping_and_kwargs__fn():
    return dict({"foo" : 1, "bar" : 2}, baz=3)


# TestList.test_dict_keyword_with_dict_comprehension
def test_dict_keyword_with_dict_comprehension__fn():
    return dict({i: chr(i + 65) for i in range(4)})


# TestList.test_dict_keyword_with_dict_comprehension_and_kwargs
def test_dict_keyword_with_dict_comprehension_and_kwargs__fn():
    return dict({chr(65 + i) : i for i in range(4)}, foo=2)


# TestList.test_dict_keyword_with_empty_dict_comprehension
def test_dict_keyword_with_empty_dict_comprehension__fn():
    return dict({})


# TestList.test_dict_keyword_is_correctly_typed
def test_dict_keyword_is_correctly_typed__fn():
    x: Dict[str, int] = dict()
    x["foo"] = 1
    return x


# TestList.test_dict_keyword_with_nested_call
def test_dict_keyword_with_nested_call__fn():
    return dict(dict(foo=1, bar=2, baz=3))


# TestList.test_dict_keyword_with_previously_declared_variable
def test_dict_keyword_with_previously_declared_variable__fn():
    d = {"foo" : 1, "bar" : 2}
    return dict(d)


# TestList.test_dict_keyword_with_previously_declared_variable_and_kwargs
def test_dict_keyword_with_previously_declared_variable_and_kwargs__fn():
    d = {"foo" : 1, "bar" : 2}
    return dict(d, baz=3)


# TestList.test_min_bool_list
def test_min_bool_list__jit_min_list(a: List[bool], b: List[bool]) -> List[bool]:
    return min(a, b)


# TestList.test_list_gather
def test_list_gather__index():
    a = [1, 2, 3]
    return a[1]


# TestList.test_list_gather
def test_list_gather__negative_index():
    a = [1, 2, 3]
    return a[-1]


# TestList.test_list_gather
def test_list_gather__bad_index():
    a = [1, 2, 3]
    return a[4]


# TestList.test_list_gather
def test_list_gather__bad_negative_index():
    a = [1, 2, 3]
    return a[-5]


# TestList.test_list_len
def test_list_len__func():
    a = [1, 2, 3]
    return len(a) == 3


# TestList.test_list_len
def test_list_len__func2():
    a = []
    return len(a) == 0


# TestList.test_list_ops
def test_list_ops__test_equality():
    a = [1, 2, 3]
    b = [1, 2, 3]
    return a == b


# TestList.test_list_ops
def test_list_ops__test_equality_str():
    a = ["foo", "bar"]
    b = ["foo", "bar"]
    return a == b


# TestList.test_list_ops
def test_list_ops__test_inequality():
    a = [1, 2, 3]
    b = [1, 2, 3]
    return a != b


# TestList.test_list_ops
def test_list_ops__test_inequality_str():
    a = ["foo", "bar"]
    b = ["foo", "bar", "food"]
    return a != b


# TestList.test_list_ops
def test_list_ops__test_non_equality():
    a = [1, 2, 3]
    b = [3]
    return a == b


# TestList.test_list_ops
def test_list_ops__test_list_equality_as_cond():
    a = [1, 2, 3]
    b = [3]
    if a == b:
        c = 1
    else:
        c = 2
    return c


# TestList.test_list_ops
def test_list_ops__test_list_add():
    a = [1, 2, 3]
    b = [2]
    c = a + b
    return c == [1, 2, 3, 2]


# TestList.test_list_ops
def test_list_ops__test_list_add_empty():
    a = [1, 2, 3]
    b = torch.jit.annotate(List[int], [])
    c = a + b
    return c == [1, 2, 3]


# TestList.test_list_ops
def test_list_ops__test_tensor_list_equality():
    t1 = torch.ones([1, 1])
    t2 = torch.ones([1, 1])
    x = [t1, t2]
    y = [t2, t1]
    return x == y


# TestList.test_list_ops
def test_list_ops__test_invalid_list_equality():
    t1 = torch.ones([2, 2])
    t2 = torch.ones([2, 2])
    x = [t1, t2]
    y = [t2, t1]
    # will throw since the tensors have more than one element
    return x == y


# TestList.test_list_sort
def test_list_sort__test_fail(x: List[Tensor]) -> List[Tensor]:
    x.sort()
    return x


# TestList.test_list_sort
def test_list_sort__test_sorted_copy():
    a = [torch.tensor(2), torch.tensor(0), torch.tensor(1)]
    b = sorted(a)
    a[0] = torch.tensor(10)
    return a, b


# TestList.test_list_slice
def test_list_slice__test_regular_slice():
    a = [0, 1, 2, 3, 4]
    return a[2:3] == [2]


# TestList.test_list_slice
def test_list_slice__test_open_ended_slice():
    a = [0, 1, 2, 3, 4]
    return a[2:] == [2, 3, 4]


# TestList.test_list_slice
def test_list_slice__test_open_ended_slice2():
    a = [0, 1, 2, 3, 4]
    return a[:2] == [0, 1]


# TestList.test_list_slice
def test_list_slice__test_negative_slice():
    a = [0, 1, 2, 3, 4]
    return a[:-1] == [0, 1, 2, 3]


# TestList.test_list_slice
def test_list_slice__test_negative_slice2():
    a = [0, 1, 2, 3, 4]
    return a[-3:-1] == [2, 3]


# TestList.test_list_slice
def test_list_slice__test_backward_slice():
    a = [0, 1, 2, 3, 4]
    return a[3:2] == torch.jit.annotate(List[int], [])


# TestList.test_slice_index
def test_slice_index__test_index_slice1(x):
    x = x[:, :, [0, 1]]
    return x


# TestList.test_slice_index
def test_slice_index__test_index_slice2(x):
    x = x[[2, 1, 0], :, :]
    return x


# TestList.test_slice_index
def test_slice_index__test_index_slice3(x):
    x = x[[0, 1], :, [1]]
    return x


# TestList.test_slice_index
def test_slice_index__test_index_slice_empty_list(x):
    empty_list: List[int] = []
    x = x[empty_list, :, :]
    return x


# TestList.test_slice_index
def test_slice_index__test_index_slice_out_of_bounds_index(x):
    x = x[[4], :, :]
    return x


# TestList.test_mutable_list_append
def test_mutable_list_append__test_append():
    a = [0, 1]
    a.append(2)
    a.append(3)
    return a == [0, 1, 2, 3]


# TestList.test_comprehensions_basic
def test_comprehensions_basic__comp(l: List[int]) -> List[int]:

    n = [x * 3 for x in l]
    return n


# TestList.test_comprehensions_basic_float
def test_comprehensions_basic_float__comp(l: List[float]) -> List[float]:

    n = [x * 3 for x in l]
    return n


# TestList.test_comprehension_out_type_not_in_type
def test_comprehension_out_type_not_in_type__list_cast() -> int:
    li = [int(i) for i in [torch.tensor(0), torch.tensor(1), torch.tensor(2)]]
    return li[0] + li[1] + li[2]


# TestList.test_mutable_list_append_2
def test_mutable_list_append_2__test_append_2():
    a = [0, 1]
    a.append(2)
    a = [1]
    a.append(4)
    return a == [1, 4]


# TestList.test_mutable_list_append_if
def test_mutable_list_append_if__test_append_if():
    a = [1]
    if 1 == 1:
        a.append(4)
    return a == [1, 4]


# TestList.test_mutable_list_append_if_else
def test_mutable_list_append_if_else__test_append_if_else():
    a = [1]
    if 1 == 2:
        a.append(4)
    else:
        a.append(10)
    return a == [1, 10]


# TestList.test_mutable_list_append_loop
def test_mutable_list_append_loop__test_append_loop():
    a = torch.jit.annotate(List[int], [])
    for i in range(5):
        a.append(i)

    return a == [0, 1, 2, 3, 4]


# TestList.test_mutable_list_append_loop_if
def test_mutable_list_append_loop_if__test_append_loop_if():
    a = torch.jit.annotate(List[int], [])
    for i in range(5):
        if i > 3:
            a.append(i)
        else:
            a.append(0)

    return a == [0, 0, 0, 0, 4]


# TestList.test_mutable_list_nested_loop
def test_mutable_list_nested_loop__test_nested_loop():
    a = torch.jit.annotate(List[int], [])
    for i in range(2):
        for j in range(2):
            a.append(i + j)

    return a == [0, 1, 1, 2]


# TestList.test_mutable_list_reverse_empty
def test_mutable_list_reverse_empty__test_reverse_empty():
    a = []
    a.reverse()

    return a == []


# TestList.test_mutable_list_reverse
def test_mutable_list_reverse__test_reverse():
    a = [1, 2, 3, 4]
    a.reverse()

    return a == [4, 3, 2, 1]


# TestList.test_mutable_tensor_list_reverse
def test_mutable_tensor_list_reverse__test_tensor_reverse():
    a = [torch.tensor(1), torch.tensor(2)]
    a.reverse()

    return a == [torch.tensor(2), torch.tensor(1)]


# TestList.test_mutable_list_pop
def test_mutable_list_pop__test_pop():
    a = [1, 2, 3, 4]
    b = a.pop()

    return b == 4


# TestList.test_mutable_list_pop2
def test_mutable_list_pop2__test_pop2():
    a = [1, 2, 3, 4]
    b = a.pop()

    return len(a) == 3


# TestList.test_mutable_list_pop_at
def test_mutable_list_pop_at__test_pop_at():
    a = [1, 2, 3, 4]
    b = a.pop(1)

    return b == 2


# TestList.test_mutable_list_pop_at2
def test_mutable_list_pop_at2__test_pop_at2():
    a = [1, 2, 3, 4]
    b = a.pop(1)

    return len(a) == 3


# TestList.test_mutable_list_pop_at_negative
def test_mutable_list_pop_at_negative__test_pop_at_negative():
    a = [1, 2, 3, 4]
    b = a.pop(-2)

    return b == 3


# TestList.test_mutable_list_pop_at_negative2
def test_mutable_list_pop_at_negative2__test_pop_at_negative2():
    a = [1, 2, 3, 4]
    b = a.pop(-2)

    return len(a) == 3


# TestList.test_mutable_list_pop_slice
def test_mutable_list_pop_slice__test_pop_slice():
    a = [1, 2, 3, 4]
    b = [1, 2, 3, 4]

    a.pop()
    b = b[:-1]

    return a == b


# TestList.test_mutable_list_clear_empty
def test_mutable_list_clear_empty__test_clear_empty():
    a = torch.jit.annotate(List[int], [])
    a.clear()

    return len(a) == 0


# TestList.test_mutable_list_clear
def test_mutable_list_clear__test_clear():
    a = [1, 2, 3, 4]
    a.clear()

    return len(a) == 0


# TestList.test_mutable_list_insert
def test_mutable_list_insert__test_list_insert():
    a = [1, 2, 3, 4]
    a.insert(2, 5)

    return a == [1, 2, 5, 3, 4]


# TestList.test_mutable_list_insert_negative
def test_mutable_list_insert_negative__test_list_insert_negative():
    a = [1, 2, 3, 4]
    a.insert(-1, 5)

    return a == [1, 2, 3, 5, 4]


# TestList.test_mutable_list_insert_neg_out_of_bounds
def test_mutable_list_insert_neg_out_of_bounds__test_list_insert_neg_out_of_bounds():
    a = [1, 2, 3, 4]
    a.insert(-10, 5)

    return a == [5, 1, 2, 3, 4]


# TestList.test_mutable_list_insert_out_of_bounds
def test_mutable_list_insert_out_of_bounds__test_list_insert_out_of_bounds():
    a = [1, 2, 3, 4]
    a.insert(10, 5)

    return a == [1, 2, 3, 4, 5]


# TestList.test_mutable_list_remove
def test_mutable_list_remove__test_list_remove():
    a = [1, 2, 3, 4]
    a.remove(3)

    return a == [1, 2, 4]


# TestList.test_mutable_list_remove
def test_mutable_list_remove__test_str_list_remove():
    a = ["foo", "bar"]
    a.remove("foo")

    return a == ["bar"]


# TestList.test_list_index
def test_list_index__list_index():
    a = [4, 1, 3, 2]
    i = a.index(3)

    return i == 2


# TestList.test_list_index
def test_list_index__list_str_index():
    a = ["foo", "bar"]
    i = a.index("bar")

    return i == 1


# TestList.test_tensor_list_index
def test_tensor_list_index__tensor_list_index():
    a = [torch.tensor(4), torch.tensor(1), torch.tensor(3), torch.tensor(2)]
    i = a.index(torch.tensor(3))

    return i == 2


# TestList.test_list_count
def test_list_count__list_count():
    a = [4, 1, 4, 2, 4]
    i = a.count(4)

    return i == 3


# TestList.test_list_count
def test_list_count__list_str_count():
    a = ["foo", "bar", "foo"]
    i = a.count("foo")

    return i == 2


# TestList.test_list_count_not_existing
def test_list_count_not_existing__list_count_not_existing():
    a = [4, 1, 4, 2, 4]
    i = a.count(5)

    return i == 0


# TestList.test_tensor_list_count
def test_tensor_list_count__tensor_list_count():
    a = [torch.tensor(4), torch.tensor(1), torch.tensor(4), torch.tensor(4)]
    i = a.count(torch.tensor(4))

    return i == 3


# TestList.test_tensor_list_count_not_existing
def test_tensor_list_count_not_existing__tensor_list_count_not_existing():
    a = [torch.tensor(4), torch.tensor(1), torch.tensor(4), torch.tensor(4)]
    i = a.count(torch.tensor(5))

    return i == 0


# TestList.test_mutable_list_remove_tensor
def test_mutable_list_remove_tensor__test_list_remove_tensor():
    a = [torch.ones(1), torch.zeros(1), torch.ones(2)]
    a.remove(torch.zeros(1))

    return len(a) == 2


# TestList.test_mutable_list_remove2
def test_mutable_list_remove2__test_list_remove2():
    a = [1]
    a.remove(1)

    return len(a) == 0


# TestList.test_to_list
def test_to_list__to_list_bool_0D(x: torch.Tensor) -> bool:
    li = torch.jit.annotate(bool, x.tolist())
    return li


# TestList.test_to_list
def test_to_list__to_list_bool_1D(x: torch.Tensor) -> List[bool]:
    li = torch.jit.annotate(List[bool], x.tolist())
    return li


# TestList.test_to_list
def test_to_list__to_list_bool_2D(x: torch.Tensor) -> List[List[bool]]:
    li = torch.jit.annotate(List[List[bool]], x.tolist())
    return li


# TestList.test_to_list
def test_to_list__to_list_bool_3D(x: torch.Tensor) -> List[List[List[bool]]]:
    li = torch.jit.annotate(List[List[List[bool]]], x.tolist())
    return li


# TestList.test_to_list
def test_to_list__to_list_int_0D(x: torch.Tensor) -> int:
    li = torch.jit.annotate(int, x.tolist())
    return li


# TestList.test_to_list
def test_to_list__to_list_int_1D(x: torch.Tensor) -> List[int]:
    li = torch.jit.annotate(List[int], x.tolist())
    return li


# TestList.test_to_list
def test_to_list__to_list_int_2D(x: torch.Tensor) -> List[List[int]]:
    li = torch.jit.annotate(List[List[int]], x.tolist())
    return li


# TestList.test_to_list
def test_to_list__to_list_int_3D(x: torch.Tensor) -> List[List[List[int]]]:
    li = torch.jit.annotate(List[List[List[int]]], x.tolist())
    return li


# TestList.test_to_list
def test_to_list__to_list_float_1D(x: torch.Tensor) -> List[float]:
    li = torch.jit.annotate(List[float], x.tolist())
    return li


# TestList.test_to_list
def test_to_list__to_list_float_2D(x: torch.Tensor) -> List[List[float]]:
    li = torch.jit.annotate(List[List[float]], x.tolist())
    return li


# TestList.test_to_list
def test_to_list__to_list_float_3D(x: torch.Tensor) -> List[List[List[float]]]:
    li = torch.jit.annotate(List[List[List[float]]], x.tolist())
    return li


# TestList.test_to_list
def test_to_list__to_list_type_annotation_wrong_dim(x: torch.Tensor) -> List[List[float]]:
    li = torch.jit.annotate(List[List[float]], x.tolist())
    return li


# TestList.test_to_list
def test_to_list__to_list_type_annotation_incorrect_scalar_type(x: torch.Tensor) -> List[float]:
    li = torch.jit.annotate(List[float], x.tolist())
    return li


# TestDict.test_dict_bool_conversion
def test_dict_bool_conversion__if_predicate(d: Dict[int, int]):
    if d:
        s, t = 0, 0
        for k, v in d.items():
            s += k
            t += v

        return s, t
    else:
        return -1, -1


# TestDict.test_dict_bool_conversion
def test_dict_bool_conversion__while_predicate(d: Dict[int, int]):
    while d:
        d.clear()


# TestDict.test_dict_bool_conversion
def test_dict_bool_conversion__ternary_predicate(d: Dict[int, int]):
    return "non-empty" if d else "empty"


# TestDict.test_del
def test_del__fn(x: Dict[str, int]) -> Dict[str, int]:
    del x['hi']
    return x


# TestDict.test_dict_variance
def test_dict_variance__test_dictliteral_is_typed_from_annotation():
    x: Dict[str, Optional[int]] = {"foo": None, "bar": None, "baz": None}
    return x


# TestDict.test_dict_variance
def test_dict_variance__test_dictcomprehension_is_typed_from_annotation():
    metasyntactics = ["foo", "bar", "baz"]
    x: Dict[str, Optional[int]] = {word: None for word in metasyntactics}
    return x


# TestDict.test_update_existing_key
def test_update_existing_key__foo() -> Dict[str, int]:
    a: Dict[str, int] = {}
    for i in range(3):
        a.update({'a': i})
    return a


# TestDict.test_aug_assign
def test_aug_assign__aug_assign_dict_prim(a: Dict[str, float]) -> Dict[str, float]:
    a['a'] += 3.4
    a['b'] -= 2.4
    a['c'] *= 3.0
    a['c'] /= 2.0
    a['c'] %= 2.0
    return a


# TestDict.test_basic
def test_basic__simple(x: Dict[str, int]) -> Dict[str, int]:
    return x


# TestDict.test_basic
def test_basic__index(x: Dict[str, int]) -> int:
    return x['item']


# TestDict.test_basic
def test_basic__type_default() -> Dict[str, Tensor]:
    return {}


# TestDict.test_basic
def test_basic__list_of_dicts() -> List[Dict[str, Tensor]]:
    return [{'word': torch.ones(2) + 3}, {'other word': torch.ones(1) + 2}]


# TestDict.test_view
def test_view__fn(x, y):
    l = {"a": x}
    x_view = l["a"]
    a = x + x
    x_view.add_(y)
    b = x + x
    return a == b


# TestDict.test_membership
def test_membership__fn(x: Dict[int, int], y: int) -> int:
    return x.get(y, 3)


# TestDict.test_dict_preserves_order
def test_dict_preserves_order__dict_ordering():
    a : Dict[int, int] = {}
    for i in range(1000):
        a[i] = i + 1
    return a
