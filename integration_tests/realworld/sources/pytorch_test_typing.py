# Functions from PyTorch's TorchScript tests, test/jit/test_typing.py
# (pytorch/pytorch commit dc3d6fe6b0710a19a5a9a288f3232955521868cb), BSD-3-Clause,
# Copyright (c) 2016- Facebook, Inc.
# The test methods define these functions (and the classes they use) inside their
# bodies and check them with `self.checkScript(fn, inputs)`; they are lifted to module
# level here (dedented), each function renamed `<test method>__<name>` so that the
# names are unique, otherwise copied as written. The comment above each names its test.
# The imports are the file's own (less its test-harness imports).
import torch
from collections import namedtuple
from typing import List, Tuple, Optional, Dict, NamedTuple


# TestTyping.test_dict_in_not_in
def test_dict_in_not_in__test_in_dict(x):
    # type: (Dict[str, int]) -> bool
    return 'hi' in x


# TestTyping.test_dict_in_not_in
def test_dict_in_not_in__test_not_in_dict(a):
    # type: (Dict[str, int]) -> bool
    if "hello" not in a:
        return False
    else:
        return True


# TestTyping.test_dict_in_not_in
def test_dict_in_not_in__test_dict_tensor_key(a, t):
    # type: (Dict[Tensor, int], Tensor) -> bool
    if t in a:
        return True
    else:
        return False


# TestTyping.test_tuple_io
def test_tuple_io__stuff(x):
    # type: (Tuple[Tensor, Tensor]) -> Tuple[Tensor, Tensor]
    a, b = x
    return b, a


# TestTyping.test_tuple_keyword
def test_tuple_keyword__bar():
    f = tuple((1, 2))  # noqa: C409
    return f


# TestTyping.test_tuple_create_return
def test_tuple_create_return__stuff2(x):
    # type: (int) -> Tuple[Tensor, Tensor]
    a = (torch.ones(x), torch.zeros(x))
    return a


# TestTyping.test_list_io
def test_list_io__stuff3(x):
    # type: (List[int]) -> Tuple[Tensor, List[int]]
    return torch.ones(x), x


# TestTyping.test_nested_list
def test_nested_list__foo(z):
    # type: (Tuple[int, List[List[int]]]) -> int
    x, y = z
    return y[0][1]


# TestTyping.test_list_sum
def test_list_sum__fn(x: List[int]) -> int:
    return sum(x)


# TestTyping.test_list_sum
def test_list_sum__fn1(x: List[float]):
    return sum(x)


# TestTyping.test_list_sum
def test_list_sum__fn2(x: List[bool]):
    return sum(x)


# TestTyping.test_list_unification
def test_list_unification__fn():
    return [1, None, 2]


# TestTyping.test_list_unification
def test_list_unification__fn2(x):
    return [torch.ones(2, 2), None, x]


# TestTyping.test_sum_list_literal
def test_sum_list_literal__sum_list():
    # type: () -> int
    sum = 0
    for i in [1, 2, 3, 4, 5]:
        sum += i

    return sum


# TestTyping.test_for_in_string
def test_for_in_string__test_strings(x):
    # type: (str) -> str
    reverse = ""
    for c in x:
        reverse = c + reverse
    return reverse


# TestTyping.test_for_in_string
def test_for_in_string__test_list_strings(x):
    # type: (List[str]) -> str
    result = ""
    for sub_str in x:
        result += sub_str
    return result


# TestTyping.test_for_in_dict
def test_for_in_dict__test_dicts(x):
    # type: (Dict[str, int]) -> int
    sum = 0
    for key in x:
        sum += x[key]
    return sum


# TestTyping.test_for_tuple_unpack
def test_for_tuple_unpack__for_tuple_unpack(x, y):
    for i, j in [[3, 4], [5, 6], [7, 8]]:
        x += i
        y += j
    return x, y


# TestTyping.test_for_tuple_unpack
def test_for_tuple_unpack__nested_tuple_unpack(x, y):
    # type: (List[int], List[int]) -> int
    sum = 0
    for i, (j, k), v in zip(x, enumerate(x), y):
        sum += i + j + k + v
    return sum


# TestTyping.test_dict_comprehension
def test_dict_comprehension__fn():
    return {i : chr(i + 65) for i in range(4)}


# TestTyping.test_dict_comprehension_with_type_annotation
def test_dict_comprehension_with_type_annotation__fn():
    d: Dict[int, str] = {i : chr(i + 65) for i in range(4)}
    return d


# TestTyping.test_dict_comprehension_scope
def test_dict_comprehension_scope__comprehension_can_access_outer_scope_variables():
    lst = ["foo", "bar", "baz"]
    return {l : len(l) for l in lst}


# TestTyping.test_for_tuple_assign
def test_for_tuple_assign__test_simple_assign(x):
    # type: (Tuple[int, float]) -> float
    sum = 0.0
    for a in x:
        sum += float(a)
    return sum


# TestTyping.test_for_tuple_assign
def test_for_tuple_assign__test_tuple_assign(x):
    # type: (Tuple[Tuple[int, int], Tuple[int, int]]) -> int
    sum = 0
    for a in x:
        sum += a[0]
        sum += a[1]
    return sum


# TestTyping.test_singleton_tuple_unpack
def test_singleton_tuple_unpack__foo(a):
    b, = (a,)
    return b + 1


# TestTyping.test_tuple_assignments
def test_tuple_assignments__var_tuple_assign(x, y):
    # type: (Tuple[Tensor, Tensor], Tensor) -> Tensor
    (a, b), c = x, y
    return a + b + c


# TestTyping.test_tuple_assignments
def test_tuple_assignments__nested_tuple_assign(x, y, z):
    # type: (int, Tuple[int, Tuple[int, int]], Tuple[int, int]) -> int
    a, (b, (c, d)), (e, f) = x, y, z
    return a + b + c + d + e + f


# TestTyping.test_tuple_assignments
def test_tuple_assignments__subscript_tuple_assign(a, x, i):
    # type: (List[int], Tensor, int) -> Tuple[int, Tensor, int]
    a[i], (x[i], b) = 1, (2, 3)
    return a[i] + 1, x + 5, b


# TestTyping.test_tuple_assignments
def test_tuple_assignments__star_tuple_assign():
    # type: () -> Tuple[int, int, Tuple[int, int], Tuple[int, int]]
    a, (b, *c), *d = 1, (2, 3, 4), 5, 6
    return a, b, c, d


# TestTyping.test_multiple_assign
def test_multiple_assign__test():
    a = b, c = d, f = (1, 1)

    # side effect
    ten = torch.tensor(1)
    ten1 = ten2 = ten.add_(1)

    # ordering
    x = 1
    y = 3
    x, y = y, x + y

    return a, b, c, d, f, ten, ten1, ten2, x, y


# TestTyping.test_optional_tuple
def test_optional_tuple__fn(x=None):
    # type: (Optional[Tuple[int, int]]) -> Tuple[int, int]
    if x is None:
        new_x = (1, 2)
    else:
        new_x = x
    return new_x
