# Functions from PyTorch's TorchScript tests, test/jit/test_class_type.py
# (pytorch/pytorch commit dc3d6fe6b0710a19a5a9a288f3232955521868cb), BSD-3-Clause,
# Copyright (c) 2016- Facebook, Inc.
# The test methods define these functions (and the classes they use) inside their
# bodies and check them with `self.checkScript(fn, inputs)`; they are lifted to module
# level here (dedented), each function renamed `<test method>__<name>` so that the
# names are unique, otherwise copied as written. The comment above each names its test.
# The imports are those of the file that the lifted code uses.
import torch
from typing import List, Tuple, Optional, Dict


# TestClassType.test_class_sorting
class Foo:  # noqa: B903
    def __init__(self, x: int) -> None:
        self.x = x

    def __lt__(self, other) -> bool:
        # type: (Foo) -> bool
        return self.x < other.x

    def getVal(self):
        return self.x


# TestClassType.test_class_sorting
def test_class_sorting__test(li: List[Foo], reverse: bool = False) -> Tuple[List[int], List[int]]:
    li_sorted = sorted(li)
    ret_sorted = torch.jit.annotate(List[int], [])
    for foo in li_sorted:
        ret_sorted.append(foo.getVal())

    li.sort(reverse=reverse)
    ret_sort = torch.jit.annotate(List[int], [])
    for foo in li:
        ret_sort.append(foo.getVal())
    return ret_sorted, ret_sort


# TestClassType.test_default_args
@torch.jit.script
class ClassWithDefaultArgs:
    def __init__(
        self,
        a: int = 1,
        b: Optional[List[int]] = None,
        c: Tuple[int, int, int] = (1, 2, 3),
        d: Optional[Dict[int, int]] = None,
        e: Optional[str] = None,
    ):
        self.int = a
        self.tup = c
        self.str = e

        self.list = [1, 2, 3]
        if b is not None:
            self.list = b

        self.dict = {1: 2, 3: 4}
        if d is not None:
            self.dict = d

    def add(self, b: int, scale: float = 1.0) -> float:
        return self.int * scale + b


# TestClassType.test_default_args
def test_default_args__all_defaults() -> int:
    obj: ClassWithDefaultArgs = ClassWithDefaultArgs()
    return obj.int + obj.list[2] + obj.tup[1]


# TestClassType.test_default_args
def test_default_args__some_defaults() -> int:
    obj: ClassWithDefaultArgs = ClassWithDefaultArgs(b=[5, 6, 7])
    return obj.int + obj.list[2] + obj.dict[1]


# TestClassType.test_default_args
def test_default_args__override_defaults() -> int:
    obj: ClassWithDefaultArgs = ClassWithDefaultArgs(3, [9, 10, 11], (12, 13, 14), {3: 4}, "str")
    s: int = obj.int

    for x in obj.list:
        s += x

    for y in obj.tup:
        s += y

    s += obj.dict[3]

    st = obj.str
    if st is not None:
        s += len(st)

    return s


# TestClassType.test_default_args
def test_default_args__method_defaults() -> float:
    obj: ClassWithDefaultArgs = ClassWithDefaultArgs()
    return obj.add(3) + obj.add(3, 0.25)


# TestClassType.test_default_args
class ClassWithSomeDefaultArgs:  # noqa: B903
    def __init__(
        self,
        a: int,
        b: int = 1,
    ):
        self.a = a
        self.b = b


# TestClassType.test_default_args
def test_default_args__default_b() -> int:
    obj: ClassWithSomeDefaultArgs = ClassWithSomeDefaultArgs(1)
    return obj.a + obj.b


# TestClassType.test_default_args
def test_default_args__set_b() -> int:
    obj: ClassWithSomeDefaultArgs = ClassWithSomeDefaultArgs(1, 4)
    return obj.a + obj.b


# TestClassType.test_custom_delete
class Example:
    def __init__(self):
        self._data: Dict[str, torch.Tensor] = {"1": torch.tensor(1.0)}

    def check(self, key: str) -> bool:
        return key in self._data

    def __delitem__(self, key: str):
        del self._data[key]


# TestClassType.test_custom_delete
def test_custom_delete__fn() -> bool:
    example = Example()
    del example["1"]
    return example.check("1")


# TestClassType.test_custom_delete
class NoDelItem:
    def __init__(self):
        self._data: Dict[str, torch.Tensor] = {"1": torch.tensor(1.0)}

    def check(self, key: str) -> bool:
        return key in self._data


