# Functions from PyTorch's TorchScript tests, test/test_jit.py
# (pytorch/pytorch commit dc3d6fe6b0710a19a5a9a288f3232955521868cb), BSD-3-Clause,
# Copyright (c) 2016- Facebook, Inc.
# The test methods define these functions (and the classes they use) inside their
# bodies and check them with `self.checkScript(fn, inputs)`; they are lifted to module
# level here (dedented), each function renamed `<test method>__<name>` so that the
# names are unique, otherwise copied as written. The comment above each names its test.
# The imports are those of the file that the lifted code uses.
import torch
from torch import Tensor
import torch.nn.functional as F
from typing import List, Optional, Tuple
import string


# TestJit.test_T_mT_H_mH
def test_T_mT_H_mH__T(x):
    return x.mT


# TestJit.test_T_mT_H_mH
def test_T_mT_H_mH__mT(x):
    return x.mT


# TestJit.test_T_mT_H_mH
def test_T_mT_H_mH__H(x):
    return x.H


# TestJit.test_T_mT_H_mH
def test_T_mT_H_mH__mH(x):
    return x.mH


# TestJit.test_torch_sum
def test_torch_sum__fn(x):
    return torch.sum(x)


# TestJit.test_torch_sum
def test_torch_sum__fn1(x, dim: int):
    return torch.sum(x, dim)


# TestJit.test_constant_prop_exception
def test_constant_prop_exception__bad_index(x):
    # type: (bool)
    y = 0
    if x:
        a = [1, 2, 3]
        y = a[4]
    return y


# TestJit.test_unchecked_cast
def test_unchecked_cast__test(cond):
    # type: (bool)
    a = torch.tensor([10])
    if cond:
        b = None
    else:
        b = a
    if b is not None:
        b[0] = 5
    return a.int()


# TestScript.test_oneline_func
def test_oneline_func__fn(x): return x  # noqa: E704


# TestScript.test_big_int_literals
def test_big_int_literals__ok():
    # signed 64 bit max
    a = 9223372036854775807
    return a


# TestScript.test_hex_literals
def test_hex_literals__test1():
    return 0xaaaaaa


# TestScript.test_hex_literals
def test_hex_literals__test2():
    return 0xaaaaaa


# TestScript.test_hex_literals
def test_hex_literals__test3():
    return -0xaaaaaa


# TestScript.test_hex_literals
def test_hex_literals__ok():
    a = 0x7FFFFFFFFFFFFFFF
    return a


# TestScript.test_type_annotate
def test_type_annotate__foo(a):
    return torch.jit.annotate(torch.Tensor, a)


# TestScript.test_type_annotate
def test_type_annotate__bar():
    a = torch.jit.annotate(List[int], [])
    for _ in range(10):
        a.append(4)
    return a


# TestScript.test_type_annotate
def test_type_annotate__baz(a):
    return torch.jit.annotate(float, a)


# TestScript.test_type_annotate
def test_type_annotate__annotate_none():
    return torch.jit.annotate(Optional[torch.Tensor], None)


# TestScript.test_nested_list_construct
def test_nested_list_construct__foo():
    return [[4]] + [[4, 5]]


# TestScript.test_tensor_shape
def test_tensor_shape__f(x):
    return x.shape


# TestScript.test_tensor_grad
def test_tensor_grad__f_requires_grad(x):
    return x.requires_grad


# TestScript.test_tensor_grad
def test_tensor_grad__f_grad(x):
    return x.grad


# TestScript.test_tensor_to_device
def test_tensor_to_device__to_device(x):
    return x.to(device="cuda").to(device=torch.device("cpu"))


# TestScript.test_tensor_to_cpu
def test_tensor_to_cpu__to_cpu(x):
    return x.cpu()


# TestScript.test_tensor_to_cuda
def test_tensor_to_cuda__to_cuda(x):
    return x.cuda()


# TestScript.test_string_ops
def test_string_ops__foo():
    a = "a" + "b"
    return a + a, "ab" == "b", "ab" != "b", "ab" == "ab", "ab" != "ab"


# TestScript.test_string_sorted
def test_string_sorted__foo(strs: List[str]):
    return sorted(strs)


# TestScript.test_string_sort
def test_string_sort__foo(strs: List[str]):
    strs.sort()
    return strs


# TestScript.test_tuple_sorted
def test_tuple_sorted__foo(tups: List[Tuple[int, int]]):
    return sorted(tups)


# TestScript.test_tuple_sort
def test_tuple_sort__foo(tups: List[Tuple[int, int]]):
    tups.sort()
    return tups


# TestScript.test_tuple_sort_reverse
def test_tuple_sort_reverse__foo(tups: List[Tuple[int, int]]):
    tups.sort(reverse=True)
    return tups


# TestScript.test_tuple_nested_sort
def test_tuple_nested_sort__foo(inputs: List[Tuple[int, Tuple[int, str]]]):
    inputs.sort()
    return inputs


# TestScript.test_torch_pow
def test_torch_pow__func(a, b):
    return pow(a, b)


# TestScript.test_torch_pow
def test_torch_pow__func2(a, b, c, d):
    return pow(pow(c + a, b), d)


# TestScript.test_torch_pow
def test_torch_pow__func3(a : int, b : float):
    # type: (int, float) -> float
    return pow(a, b)


# TestScript.test_torch_pow
def test_torch_pow__func4():
    # type: () -> float
    return pow(2, -2)


# TestScript.test_torch_pow
def test_torch_pow__func6(a : int, b : int):
    # type: (int, int) -> float
    return pow(a, b)


# TestScript.test_tensor_len
def test_tensor_len__func(x):
    return len(x)


# TestScript.test_string_print
def test_string_print__func(a):
    print(a, "a" 'b' '''c''' """d""", 2, 1.5)
    return a


# TestScript.test_while
def test_while__func(a, b, max):
    while bool(a < max):
        a = a + 1
        b = b + 1
    c = a + b
    return c


# TestScript.test_fibb
def test_fibb__func(lim):
    first = 1
    second = 1
    i = 1
    somenum = 5
    dontmutateme = 3
    third = 0
    while bool(i < lim):
        third = first + second
        first = second
        second = third
        j = 0
        while j < 10:
            somenum = somenum * 2
            j = j + 1
        i = i + j
        i = i + dontmutateme

    st = second + third
    fs = first + second
    return third, st, fs


# TestScript.test_fibb_totally_better
def test_fibb_totally_better__fib(x):
    # type: (int) -> int
    prev = 1
    v = 1
    for i in range(0, x):
        save = v
        v = v + prev
        prev = save
    return v


# TestScript.test_if
def test_if__func(a, b):
    # type: (int, int) -> int
    d = 3
    if bool(a > 10):
        a = 3 + d
    else:
        b = 3 + d
        d = 4
    c = a + b
    return c


# TestScript.test_if_for_in_range
def test_if_for_in_range__func(a, b):
    # type: (int, int) -> int
    d = 3
    for _ in range(20):
        if bool(a > 10):
            a = 3 + d
        else:
            b = 3 + d
            d = 4
        c = a + b
    return d


# TestScript.test_if_noelse
def test_if_noelse__func(a, b):
    if bool(a > 10):
        a = 3 + b
    c = a + b
    return c


# TestScript.test_conditional_casting
def test_conditional_casting__test_bool_cast_tensor(x):
    if x:
        return 1
    else:
        return 0


# TestScript.test_conditional_casting
def test_conditional_casting__test_not_cast(x):
    if not x:
        return 1
    else:
        return 0


# TestScript.test_conditional_casting
def test_conditional_casting__test_cast_int(x):
    # type: (int) -> int
    if x:
        return 1
    else:
        return 0


# TestScript.test_conditional_casting
def test_conditional_casting__test_cast_float(x):
    # type: (float) -> int
    if x:
        return 1
    else:
        return 0


# TestScript.test_while_write_outer_then_read
def test_while_write_outer_then_read__func(a, b):
    while bool(a < 10):
        a = a + 1
        b = a + 1
    return a + b


# TestScript.test_while_nest_if
def test_while_nest_if__func(a, b):
    # type: (int, int) -> int
    c = 0
    while a < 10:
        a = a + 1
        b = b + 1
        if a > b:
            c = -a
        else:
            c = -b
    return c + 1


# TestScript.test_if_nest_while
def test_if_nest_while__func(a, b):
    # type: (int, int) -> int
    c = 0
    if a > b:
        while a > b:
            b = b + 1
            c = -b
    return c


# TestScript.test_script_optional_none
def test_script_optional_none__none_stmt(x):
    output = None
    output = x
    return output


# TestScript.test_script_optional_none
def test_script_optional_none__none_args(x):
    # type: (Optional[Tensor]) -> Optional[Tensor]
    return None


# TestScript.test_script_bool_constant
def test_script_bool_constant__test_script_bool_constant():
    a = True
    return a


# TestScript.test_ternary
def test_ternary__func(a, b):
    c = 3
    c = a + b if bool(a > 3) else b
    return c


# TestScript.test_ternary_right_associative
def test_ternary_right_associative__plus_123(x: int):
    return x + 1 if x == 1 else x + 2 if x == 2 else x + 3


# TestScript.test_literals
def test_literals__func(a):
    return a.view(size=[1, 2, 3])


# TestScript.test_return
def test_return__no_return(a):
    a + 1


# TestScript.test_return
def test_return__void_return(a):
    return


# TestScript.test_return
def test_return__one_return(a):
    return a + 1.


# TestScript.test_return
def test_return__multiple_returns(a):
    return a * 1., a * 2., a * 3.


# TestScript.test_in_operator_with_two_strings
def test_in_operator_with_two_strings__fn() -> bool:
    return "a" in "abcd"


# TestScript.test_bitwise_ops
def test_bitwise_ops__int_test():
    return 2 & 3, 2 ^ 3, 2 | 3, 2 << 3, 2 >> 3


# TestScript.test_bitwise_ops
def test_bitwise_ops__bool_test(x, y):
    # type: (bool, bool) -> Tuple[bool, bool, bool]
    return x & y, x ^ y, x | y


# TestScript.test_bitwise_ops
def test_bitwise_ops__tensor_test(x, y):
    return x & y, x ^ y, x | y


# TestScript.test_bitwise_ops
def test_bitwise_ops__tensor_with_int_test(x, y):
    # type: (Tensor, int) -> Tuple[Tensor, Tensor]
    return x << y, x >> y


# TestScript.test_bitwise_ops
def test_bitwise_ops__not_test(x):
    return ~x


# TestScript.test_number_abs
def test_number_abs__func1(x):
    # type: (float) -> float
    return abs(x)


# TestScript.test_number_abs
def test_number_abs__func2(x):
    # type: (int) -> int
    return abs(x)


# TestScript.test_number_abs
def test_number_abs__func3(x):
    return abs(x)


# TestScript.test_bool_augassign_bitwise_or
def test_bool_augassign_bitwise_or__func(a: bool, b: bool) -> bool:
    a |= b
    return a


# TestScript.test_bool_augassign_bitwise_and
def test_bool_augassign_bitwise_and__func(a: bool, b: bool) -> bool:
    a &= b
    return a


# TestScript.test_bool_augassign_bitwise_xor
def test_bool_augassign_bitwise_xor__func(a: bool, b: bool) -> bool:
    a ^= b
    return a


# TestScript.test_number_augassign_bitwise_lshift
def test_number_augassign_bitwise_lshift__func() -> int:
    z = 8
    z <<= 2
    return z


# TestScript.test_number_augassign_bitwise_rshift
def test_number_augassign_bitwise_rshift__func() -> int:
    z = 8
    z >>= 2
    return z


# TestScript.test_number_augassign_bitwise_pow
def test_number_augassign_bitwise_pow__func() -> float:
    z = 8
    z **= 2
    return z


# TestScript.test_number_augassign
def test_number_augassign__func():
    z = 1
    z += 2
    return z


# TestScript.test_number_neg
def test_number_neg__func1():
    return -8


# TestScript.test_number_neg
def test_number_neg__func2():
    return -3.14


# TestScript.test_not
def test_not__test_not_op(a):
    return not bool(a > 1)


# TestScript.test_nested_breaks
def test_nested_breaks__foo():
    y = torch.tensor(0)
    z = 0
    while int(y.add_(1)) < 20:
        if int(y) < 10:
            for i in range(6):
                if i == 3:
                    continue
                else:
                    if i > 3:
                        break
                z += 2
        if int(y) == 18:
            break
        if int(y) == 15:
            continue
        z += 1
    return int(y), z


# TestScript.test_nested_breaks
def test_nested_breaks__test_nested_two():
    i = 0
    k = 0
    while i < 5:
        for j in range(5):
            k += 1
            if j == 3:
                continue
        i += 1
        k += 1
        if i == 4:
            break
    return i, k


# TestScript.test_breaks_continues
def test_breaks_continues__test_refine_outside_loop():
    if 1 == 1:
        x = None
    else:
        x = 1
    i = 0
    j = 0
    while (x is None or torch.jit._unwrap_optional(x) > 3):
        if i < 3:
            if i < 3:
                x = torch.jit.annotate(Optional[int], None)
                i += 1
                continue
            x = 1
        else:
            x = 1 if x is None else x
        x = x + 1
        j = x + x

    return x, j


# TestScript.test_breaks_continues
def test_breaks_continues__assign_after_break(y):
    # type: (int)
    x = 0
    for i in range(y):
        x = y * 2 + i
        break
        x = 4
    return x


# TestScript.test_breaks_continues
def test_breaks_continues__assign_after_break_nested(y):
    # type: (int)
    x = 0
    for i in range(y):
        if y == 1:
            x = 5
            break
            assert 1 == 2
        else:
            x = x + 1
            break
            assert 1 == 2
        x = -30
        assert 1 == 2
    return x


# TestScript.test_breaks_continues
def test_breaks_continues__may_break(y):
    # type: (int)
    x = 0
    for i in range(y):
        if y == 1:
            x = 5
        else:
            x = x + 1
            break
        x = -30
    return x


# TestScript.test_breaks_continues
def test_breaks_continues__test(x, y):
    # type: (int, int)
    a = 1
    while (x > 0):
        if y == 3:
            for i in range(y):
                a += (1 % (i + 1))
                x -= 1
        if x == 3:
            a = x * 3
            break
        if x < 3:
            if x == 1:
                a -= 2
                x -= 1
                break
        a -= 1
        x -= 3
    return a, x


# TestScript.test_breaks_continues
def test_breaks_continues__test_delete_after_break(x):
    # type: (int)
    a = 1
    b = 1
    for i in range(x):
        a = i * 3
        break
        b = i * 5
    return a, b


# TestScript.test_breaks_continues
def test_breaks_continues__test_will_break_after_guard(x):
    # type: (int)
    a = 1
    for i in range(x):
        if i == 4:
            a = 3
            break
        a -= 1
        break
        assert 1 == 2
        a -= -100
    return a


# TestScript.test_breaks_continues
def test_breaks_continues__test_varexit(cond):
    # type: (int)
    m = 0
    for i in range(3):
        if cond == 2:
            if cond == 2:
                m = 2
                break
            k = 1
        else:
            k = 2
        m += k
    return m


# TestScript.test_breaks_continues
def test_breaks_continues__test_break_true():
    i = 0
    while True:
        i += 1
        if i == 3:
            break
    while False:
        i += 1
    return i


# TestScript.test_torch_functional
def test_torch_functional__cdist_fn():
    a = torch.tensor([[0.9041, 0.0196], [-0.3108, -2.4423], [-0.4821, 1.059]])
    b = torch.tensor([[-2.1763, -0.4713], [-0.6986, 1.3702]])
    return torch.cdist(a, b, compute_mode="use_mm_for_euclid_dist")


# TestScript.test_torch_functional
def test_torch_functional__norm():
    c = torch.tensor([[1, 2, 3], [-1, 1, 4]], dtype=torch.float)
    return torch.norm(c, p="fro"), torch.norm(c, p="nuc"), torch.norm(c), torch.norm(c, p=.5)


# TestScript.test_torch_functional
def test_torch_functional__torch_unique(dim: Optional[int]):
    ten = torch.unique(torch.tensor([[1, 3], [2, 3]], dtype=torch.long))
    a = torch.unique(ten, dim=dim)
    b = torch.unique(ten, return_counts=True, dim=dim)
    c = torch.unique(ten, return_inverse=True, dim=dim)
    d = torch.unique(ten, return_counts=True, return_inverse=True, dim=dim)
    return a, b, c, d


# TestScript.test_torch_functional
def test_torch_functional__torch_unique_consecutive(dim: Optional[int]):
    ten = torch.unique(torch.tensor([[1, 3], [3, 2], [3, 2], [2, 3]], dtype=torch.long))
    a = torch.unique_consecutive(ten, dim=dim)
    b = torch.unique_consecutive(ten, return_counts=True, dim=dim)
    c = torch.unique_consecutive(ten, return_inverse=True, dim=dim)
    d = torch.unique_consecutive(ten, return_counts=True, return_inverse=True, dim=dim)
    return a, b, c, d


# TestScript.test_torch_any
def test_torch_any__fn(x):
    return torch.any(x)


# TestScript.test_torch_any
def test_torch_any__fn1(x, dim: int):
    return torch.any(x, dim)


# TestScript.test_any
def test_any__fn(x: List[int]):
    return any(x)


# TestScript.test_any
def test_any__fn1(x: List[float]):
    return any(x)


# TestScript.test_any
def test_any__fn2(x: List[bool]):
    return any(x)


# TestScript.test_any
def test_any__fn3(x: List[str]):
    return any(x)


# TestScript.test_script_is_tracing
def test_script_is_tracing__test_is_tracing(x):
    if torch.jit.is_tracing():
        return x + 1
    else:
        return x - 1


# TestScript.test_type_annotations
def test_type_annotations__fn_string(str, strpair):
    # type: (str, Tuple[str, str]) -> Tuple[str, int, str, str]
    str1, str2 = strpair
    return str, 2, str1, str2


# TestScript.test_ellipsis_const_mid
def test_ellipsis_const_mid__ellipsize(x):
    # type: (Tensor) -> List[int]
    return x[2, Ellipsis, 0:4, 4:8].size()


# TestScript.test_ellipsis_const_mid_select
def test_ellipsis_const_mid_select__ellipsize(x):
    # type: (Tensor) -> List[int]
    return x[2, Ellipsis, 4, 4, 4:8, 2].size()


# TestScript.test_ellipsis_const_start
def test_ellipsis_const_start__ellipsize(x):
    # type: (Tensor) -> List[int]
    return x[Ellipsis, 0:4, 4:8].size()


# TestScript.test_ellipsis_const_end
def test_ellipsis_const_end__ellipsize(x):
    # type: (Tensor) -> List[int]
    return x[0:4, 2, Ellipsis].size()


# TestScript.test_ellipsis_mid
def test_ellipsis_mid__ellipsize(x):
    # type: (Tensor) -> List[int]
    return x[2, ..., 0:4, 4:8].size()


# TestScript.test_ellipsis_mid_select
def test_ellipsis_mid_select__ellipsize(x):
    # type: (Tensor) -> List[int]
    return x[2, ..., 4, 4, 4:8, 2].size()


# TestScript.test_ellipsis_start
def test_ellipsis_start__ellipsize(x):
    # type: (Tensor) -> List[int]
    return x[..., 0:4, 4:8].size()


# TestScript.test_ellipsis_end
def test_ellipsis_end__ellipsize(x):
    # type: (Tensor) -> List[int]
    return x[0:4, 2, ...].size()


# TestScript.test_shape_analysis_loop
def test_shape_analysis_loop__foo(a, b, x):
    c = a
    # on the first iteration of the loop it appears that
    # c should have a expand to the size of b
    # but on the second+ iterations, there is no broadcast and the
    # sizes are different.
    # previously this would cause the compiler to (1) enter an infinite
    # loop trying to compute the shape, and (2) insert invalid
    # broadcasts.
    # this test ensure we don't regress on these issues
    for _ in range(2):
        a = c + b
        c = x
        b = x
    return a


# TestScript.test_intlist_args
def test_intlist_args__func_1(x):
    return torch.nn.functional.adaptive_avg_pool1d(x, 1)


# TestScript.test_intlist_args
def test_intlist_args__func_2(x):
    return torch.nn.functional.adaptive_avg_pool1d(x, output_size=1)


# TestScript.test_intlist_args
def test_intlist_args__func_3(x):
    return torch.nn.functional.adaptive_avg_pool1d(x, output_size=[1])


# TestScript.test_builtin_args
def test_builtin_args__t0(a):
    # default arg dim
    return torch.cat([a, a])


# TestScript.test_builtin_args
def test_builtin_args__t1(a):
    # keywords out of order
    return torch.cat(dim=1, tensors=[a, a])


# TestScript.test_builtin_args
def test_builtin_args__t2(a):
    # mix const/non-const attributes
    if 1 == 1:
        b = 1
    else:
        b = 0
    return torch.sum(a, dim=b, keepdim=False)


# TestScript.test_gather_dynamic_index
def test_gather_dynamic_index__t(x):
    gather1 = x[0]
    idx = 0 + 1
    gather2 = x[idx]
    return gather1 + gather2


# TestScript.test_zeros
def test_zeros__fn():
    return torch.zeros((1, 2, 3))


# TestScript.test_vararg_zeros
def test_vararg_zeros__foo():
    return torch.zeros(3, 4, 5, dtype=torch.int)


# TestScript.test_rand
def test_rand__test_rand():
    a = torch.rand([3, 4])
    return a + 1.0 - a


# TestScript.test_loop_unrolling
def test_loop_unrolling__fn(x):
    y = 0
    for i in range(int(x)):
        y -= i
    return y


# TestScript.test_loop_unrolling_nested
def test_loop_unrolling_nested__fn(x):
    y = 0
    for _ in range(10):
        for j in range(int(x)):
            y -= j
    return y


# TestScript.test_loop_unroll_negative
def test_loop_unroll_negative__fn(x):
    y = 0
    for _ in range(int(x)):
        y += 1
    return y


# TestScript.test_where
def test_where__fn(x, y):
    return torch.where(x > 0.0, x, y)


# TestScript.test_where_method
def test_where_method__fn(x, y):
    return x.where(x > 0.0, y)


# TestScript.test_return_tuple
def test_return_tuple__return_tuple(x):
    a = (x, x)
    return a, x


# TestScript.test_add_tuple_different_types
def test_add_tuple_different_types__foo(a: Tuple[int, float], b: Tuple[int]) -> int:
    c: Tuple[int, float, int] = a + b
    d: Tuple[int, float, int, int] = c + b
    return d[3] + 1


# TestScript.test_add_tuple_same_types
def test_add_tuple_same_types__foo(a: Tuple[int, int], b: Tuple[int, int, int]) -> int:
    c: Tuple[int, int, int, int, int] = a + b
    d: Tuple[int, int, int, int, int, int, int, int] = c + b
    return d[6] - 2


# TestScript.test_return_stmt_not_at_end
def test_return_stmt_not_at_end__return_stmt(x):
    if bool(x > 3):
        return x + 3
    else:
        return x


# TestScript.test_for_in_range
def test_for_in_range__fn():
    c = 0
    for i in range(100):
        c += i
    return c


# TestScript.test_for_in_range_dynamic
def test_for_in_range_dynamic__fn():
    c = 0
    for i in range(100):
        acc = 0
        for j in range(i):
            acc += j
        c += acc
    return c


# TestScript.test_for_in_range_ast
def test_for_in_range_ast__test_script_for_in_range_ast():
    c = 0
    for i in range(100):
        acc = 0
        for j in range(i):
            acc += j
        c += acc
    return c


# TestScript.test_for_in_range_start_end
def test_for_in_range_start_end__fn():
    x = 0
    for i in range(7, 100):
        x += i
    return x


# TestScript.test_for_in_range_start_end_step
def test_for_in_range_start_end_step__fn(start, end, step):
    # type: (int, int, int) -> int
    x = 0
    for i in range(start, end, step):
        x += i
    return x


# TestScript.test_for_in_enumerate
def test_for_in_enumerate__fn(x):
    # type: (List[int]) -> int
    sum = 0
    for (i, v) in enumerate(x):
        sum += i * v

    return sum


# TestScript.test_for_in_enumerate
def test_for_in_enumerate__fn_enumerate_start_arg(x):
    # type: (List[int]) -> int
    sum = 0
    for (i, v) in enumerate(x, 1):
        sum += i * v

    return sum


# TestScript.test_for_in_enumerate
def test_for_in_enumerate__fn_enumerate_start_kwarg(x):
    # type: (List[int]) -> int
    sum = 0
    for (i, v) in enumerate(x, start=1):
        sum += i * v

    return sum


# TestScript.test_for_in_enumerate
def test_for_in_enumerate__fn_nested_enumerate(x):
    # type: (List[int]) -> int
    sum = 0
    for (i, (j, v)) in enumerate(enumerate(x)):
        sum += i * j * v

    return sum


# TestScript.test_for_in_zip
def test_for_in_zip__fn(x, y):
    # type: (List[int], List[int]) -> int
    sum = 0
    for (i, j) in zip(x, y):
        sum += i * j

    return sum


# TestScript.test_for_in_zip
def test_for_in_zip__fn_multi_inputs(x, y, z):
    # type: (List[int], List[int], List[int]) -> int
    sum = 0
    for (i, j, k) in zip(x, y, z):
        sum += i * j * k

    return sum


# TestScript.test_for_in_zip_enumerate
def test_for_in_zip_enumerate__fn_zip_enumerate(x, y):
    # type: (List[int], List[int]) -> int
    sum = 0
    for (i, (j, v), k) in zip(x, enumerate(y), range(0, 100)):
        sum += i * j * v * k

    return sum


# TestScript.test_for_in_zip_enumerate
def test_for_in_zip_enumerate__fn_enumerate_zip(x, y):
    # type: (List[int], List[int]) -> int
    sum = 0
    for (i, (j, v)) in enumerate(zip(x, y)):
        sum += i * j * v

    return sum


# TestScript.test_for_in_tensors
def test_for_in_tensors__test_sizes(x):
    sumz = 0
    for s in x:
        sumz += 1
    return sumz


# TestScript.test_for_in_tensors_nested
def test_for_in_tensors_nested__test_sizes(x):
    sumz = 0
    for n in x:
        for t in n:
            sumz += 1
    return sumz


# TestScript.test_sum_list_literal
def test_sum_list_literal__sum_list():
    # type: () -> int
    sum = 0
    for i in [1, 2, 3, 4, 5]:
        sum += i

    return sum


# TestScript.test_for_in_string
def test_for_in_string__test_strings(x):
    # type: (str) -> str
    reverse = ""
    for c in x:
        reverse = c + reverse
    return reverse


# TestScript.test_for_in_string
def test_for_in_string__test_list_strings(x):
    # type: (List[str]) -> str
    result = ""
    for sub_str in x:
        result += sub_str
    return result


# TestScript.test_for_in_dict
def test_for_in_dict__test_dicts(x):
    # type: (Dict[str, int]) -> int
    sum = 0
    for key in x:
        sum += x[key]
    return sum


# TestScript.test_for_tuple_unpack
def test_for_tuple_unpack__for_tuple_unpack(x, y):
    for i, j in [[3, 4], [5, 6], [7, 8]]:
        x += i
        y += j
    return x, y


# TestScript.test_for_tuple_unpack
def test_for_tuple_unpack__nested_tuple_unpack(x, y):
    # type: (List[int], List[int]) -> int
    sum = 0
    for i, (j, k), v in zip(x, enumerate(x), y):
        sum += i + j + k + v
    return sum


# TestScript.test_for_tuple_assign
def test_for_tuple_assign__test_simple_assign(x):
    # type: (Tuple[int, float]) -> float
    sum = 0.0
    for a in x:
        sum += float(a)
    return sum


# TestScript.test_for_tuple_assign
def test_for_tuple_assign__test_tuple_assign(x):
    # type: (Tuple[Tuple[int, int], Tuple[int, int]]) -> int
    sum = 0
    for a in x:
        sum += a[0]
        sum += a[1]
    return sum


# TestScript.test_singleton_tuple_unpack
def test_singleton_tuple_unpack__foo(a):
    b, = (a,)
    return b + 1


# TestScript.test_tuple_assignments
def test_tuple_assignments__var_tuple_assign(x, y):
    # type: (Tuple[Tensor, Tensor], Tensor) -> Tensor
    (a, b), c = x, y
    return a + b + c


# TestScript.test_tuple_assignments
def test_tuple_assignments__nested_tuple_assign(x, y, z):
    # type: (int, Tuple[int, Tuple[int, int]], Tuple[int, int]) -> int
    a, (b, (c, d)), (e, f) = x, y, z
    return a + b + c + d + e + f


# TestScript.test_tuple_assignments
def test_tuple_assignments__subscript_tuple_assign(a, x, i):
    # type: (List[int], Tensor, int) -> Tuple[int, Tensor, int]
    a[i], (x[i], b) = 1, (2, 3)
    return a[i] + 1, x + 5, b


# TestScript.test_tuple_assignments
def test_tuple_assignments__star_tuple_assign():
    # type: () -> Tuple[int, int, Tuple[int, int], Tuple[int, int]]
    a, (b, *c), *d = 1, (2, 3, 4), 5, 6
    return a, b, c, d


# TestScript.test_multiple_assign
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


# TestScript.test_tuple_index_to_list
def test_tuple_index_to_list__test_non_constant_input(a):
    # type: (bool) -> int
    if a:
        b = 1
    else:
        b = 0
    c = (0, 1)
    return c[b]


# TestScript.test_tuple_indexing
def test_tuple_indexing__tuple_index(a):
    if bool(a):
        b = (1, 2)
    else:
        b = (0, 2)
    return b[-2], b[1]


# TestScript.test_tuple_indexing
def test_tuple_indexing__negative_index():
    tup = (1, 2, 3, 4)
    return tup[-1]


# TestScript.test_tuple_indexing
def test_tuple_indexing__negative_slice():
    tup = (1, 2, 3, 4)
    return tup[-3:4]


# TestScript.test_tuple_indexing
def test_tuple_indexing__really_slice_out_of_bounds():
    tup = (1, 2, 3, 4)
    return tup[-300:4000]


# TestScript.test_namedtuple_attr
def test_namedtuple_attr__f(x):
    return x.max(dim=1).indices + torch.max(x, dim=1).indices


# TestScript.test_unwrap_optional_builtin
def test_unwrap_optional_builtin__test(x):
    # type: (Optional[int]) -> int
    x = torch.jit._unwrap_optional(x)
    x = x + x  # noqa: T484
    return x


# TestScript.test_inplace_add
def test_inplace_add__foo(a, b):
    c = a + b
    c.add_(b)
    return c


# TestScript.test_add_out
def test_add_out__foo(a, b):
    c = a + b
    e = 2 * a
    torch.add(c, b, out=e)
    return e


# TestScript.test_augmented_assign
def test_augmented_assign__foo(a, b):
    a += b
    a -= b
    a /= b
    a *= b
    return a, b


# TestScript.test_pass
def test_pass__foo(x):
    # type: (bool) -> int
    for _i in range(3):
        pass
    if x:
        pass
    else:
        pass
    return 3


# TestScript.test_lhs_indexing
def test_lhs_indexing__foo(a, b):
    a = a.clone()
    a[0] = b
    return a


# TestScript.test_lhs_advanced_indexing_assignment
def test_lhs_advanced_indexing_assignment__foo(x, y):
    a = torch.exp(x)
    b = x == 1
    a[b] = y[b]
    return a


# TestScript.test_lhs_advanced_indexing_augmented_assignment
def test_lhs_advanced_indexing_augmented_assignment__foo(x, y):
    a = torch.exp(x)
    b = x == 1
    a[b] += y[b]
    return a


# TestScript.test_lhs_indexing_list
def test_lhs_indexing_list__foo(a, b):
    ls = [a]
    ls[0] = b
    return ls


# TestScript.test_inplace_copy_script
def test_inplace_copy_script__foo(x):
    a = torch.rand(3, 4)
    a.copy_(x)
    return a


# TestScript.test_lhs_indexing_increment
def test_lhs_indexing_increment__foo(a, b):
    a[0] += b
    return a


# TestScript.test_lhs_indexing_increment_list
def test_lhs_indexing_increment_list__foo(a, b):
    a = a.clone()
    ls = [a, b]
    ls[0] += b
    return ls


# TestScript.test_lhs_indexing_increment_list_prim
def test_lhs_indexing_increment_list_prim__foo():
    ls = [1, 2, 3]
    ls[0] += 5
    return ls


# TestScript.test_lhs_indexing_multi
def test_lhs_indexing_multi__foo(a, b):
    a = a.clone()
    foo, a[0], bar = (1, b, 3)
    return foo, a, bar


# TestScript.test_bool_dispatch
def test_bool_dispatch__kwarg_false(x):
    # type: (Tensor) -> Tensor
    return F.max_pool1d(x, 1, 1, return_indices=False)


# TestScript.test_bool_dispatch
def test_bool_dispatch__kwarg_true(x):
    # type: (Tensor) -> Tuple[Tensor, Tensor]
    return F.max_pool1d(x, 1, 1, return_indices=True)


# TestScript.test_bool_dispatch
def test_bool_dispatch__full_kwarg_false(x):
    # type: (Tensor) -> Tensor
    return F.max_pool1d(x, 1, 1, ceil_mode=False, return_indices=False)


# TestScript.test_bool_dispatch
def test_bool_dispatch__full_kwarg_true(x):
    # type: (Tensor) -> Tuple[Tensor, Tensor]
    return F.max_pool1d(x, 1, 1, ceil_mode=False, return_indices=True)


# TestScript.test_bool_dispatch
def test_bool_dispatch__use_default(x):
    # type: (Tensor) -> Tensor
    return F.max_pool1d(x, 1, 1)


# TestScript.test_bool_dispatch
def test_bool_dispatch__arg_false(x):
    # type: (Tensor) -> Tensor
    return F.max_pool1d(x, 1, 1, 0, 1, False, False)


# TestScript.test_bool_dispatch
def test_bool_dispatch__arg_true(x):
    # type: (Tensor) -> Tuple[Tensor, Tensor]
    return F.max_pool1d(x, 1, 1, 0, 1, False, True)


# TestScript.test_mutable_dce_indirect_wildcards
def test_mutable_dce_indirect_wildcards__fn():
    x = torch.ones(2, 3)
    x_1 = x.view(-1)
    l = []
    l.append(x_1)
    x_view = l[0]
    x.add_(torch.ones(2, 3))
    return x_view


# TestScript.test_mutable_dce_indirect_wildcard_write
def test_mutable_dce_indirect_wildcard_write__fn():
    indexes = torch.jit.annotate(List[Tensor], [])
    word_ids = torch.zeros(10, dtype=torch.int32)
    word_ids[1] = 1
    indexes.append(word_ids)

    return word_ids


# TestScript.test_mutable_dce_wildcards
def test_mutable_dce_wildcards__fn():
    x = torch.ones(2, 3)
    l = []
    l.append(x)
    x_view = l[0]
    x.add_(torch.ones(2, 3))
    return x_view


# TestScript.test_string_index
def test_string_index__fn(x):
    # type: (str)
    return x[2], x[-1]


# TestScript.test_chr
def test_chr__fn(x):
    # type: (int) -> str
    return chr(x)


# TestScript.test_round
def test_round__round_float(x):
    # type: (float) -> float
    return round(x)


# TestScript.test_round
def test_round__round_int(x):
    # type: (int) -> float
    return round(x)


# TestScript.test_string_slicing
def test_string_slicing__fn1(x):
    # type: (str) -> str
    return x[1:3]


# TestScript.test_string_slicing
def test_string_slicing__fn2(x):
    # type: (str) -> str
    return x[-1:3]


# TestScript.test_string_slicing
def test_string_slicing__fn3(x):
    # type: (str) -> str
    return x[3:1]


# TestScript.test_string_slicing
def test_string_slicing__fn4(x):
    # type: (str) -> str
    return x[3:100]


# TestScript.test_exceptions_with_control_flow
def test_exceptions_with_control_flow__no_guard_ifs_added(x):
    # type: (int) -> int
    if x == 1:
        return 1
    else:
        if x == 2:
            raise RuntimeError("hi")
        else:
            raise RuntimeError("hi")


# TestScript.test_exceptions_with_control_flow
def test_exceptions_with_control_flow__no_ifs_added(x):
    # type: (int) -> int
    if x < 0:
        raise RuntimeError("hi")
    return x


# TestScript.test_exceptions_with_control_flow
def test_exceptions_with_control_flow__test_if_might(x):
    # type: (int)
    if x > 0:
        if x == 1:
            return 1
        else:
            a = 2
    else:
        raise RuntimeError("hi")
    return a + 2


# TestScript.test_exceptions_with_control_flow
def test_exceptions_with_control_flow__test_loop_no_escape(x):
    # type: (int)
    if x >= 0:
        for i in range(x):
            raise RuntimeError("hi")
    else:
        return 5
    return x + 3


# TestScript.test_exceptions_with_control_flow
def test_exceptions_with_control_flow__test_loop_exception_with_continue(x):
    # type: (int)
    i = 0
    for i in range(5):
        if i == x:
            raise RuntimeError("hi")
        else:
            continue
        print(i)
    return i + 5


# TestScript.test_non_final_return
def test_non_final_return__vars_used_after_ret(x):
    # type: (int) -> int
    if x == 0:
        return x
    else:
        y = 2
        z = 3
    return x + y * z


# TestScript.test_early_returns_loops
def test_early_returns_loops__nest_while_ret(x):
    # type: (int) -> int
    y = 4
    while x < 4:
        if x < 3:
            return y
        else:
            y = y + 1
            break
        y = y + 2
    y = y + 1
    return y


# TestScript.test_early_returns_loops
def test_early_returns_loops__loop_ret(x, y):
    # type: (int, int) -> (int)
    i = 0
    for i in range(x):
        if x == y:
            return x + y
        i = i + y
    i = i - 1
    return i


# TestScript.test_early_returns_loops
def test_early_returns_loops__test_will_ret(y):
    # type: (int) -> int
    for i in range(y):
        return 2
    return 1


# TestScript.test_early_returns_loops
def test_early_returns_loops__test_loop_nest_ret(y):
    # type: (int) -> int
    for i in range(y):
        for i in range(y - 2):
            return 10
        return 5
    return 0


# TestScript.test_early_return_rewrite
def test_early_return_rewrite__test_foo(x: bool):
    if x:
        return 1
    return 2


# TestScript.test_early_return_rewrite
def test_early_return_rewrite__test_multiple(x: int):
    if x == 5:
        return x * x
    else:
        y = 2 * x

    z = y * 2
    if z == 8:
        return 1

    if z != 16:
        z = z - 2
        abc = 4
    else:
        return 3

    z = z * abc
    return z * z * z


# TestScript.test_narrow_copy
def test_narrow_copy__foo(a):
    return a.narrow_copy(0, 0, 5)


# TestScript.test_select_after_chunk
def test_select_after_chunk__foo(x):
    chunked = torch.chunk(x, 1)
    foo = chunked[0]
    foo.add_(5)
    return x


# TestScript.test_view_write
def test_view_write__fn(x, y):
    l = []
    l.append(x)
    x_view = l[0]
    a = x + x
    x_view.add_(y)
    b = x + x
    return a == b


# TestScript.test_string_len
def test_string_len__fn(x):
    # type: (str) -> int
    return len(x)


# TestScript.test_string_list
def test_string_list__fn(string):
    # type: (str) -> List[str]
    return list(string)


# TestScript.test_in_for_and_comp_expr
def test_in_for_and_comp_expr__fn(d):
    # type: (Dict[str, int]) -> List[int]
    out = [1]
    for i in range(d["hi"] if "hi" in d else 6):
        out.append(i)
    return out


# TestScript.test_input_keyword_in_schema
def test_input_keyword_in_schema__f(x):
    return torch.ceil(input=x)
