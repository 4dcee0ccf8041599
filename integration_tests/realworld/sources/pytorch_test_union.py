# Functions from PyTorch's TorchScript tests, test/jit/test_union.py
# (pytorch/pytorch commit dc3d6fe6b0710a19a5a9a288f3232955521868cb), BSD-3-Clause,
# Copyright (c) 2016- Facebook, Inc.
# The test methods define these functions (and the classes they use) inside their
# bodies and check them with `self.checkScript(fn, inputs)`; they are lifted to module
# level here (dedented), each function renamed `<test method>__<name>` so that the
# names are unique, otherwise copied as written. The comment above each names its test.
# The imports are the file's own (less its test-harness imports).
import torch
from enum import Enum
from textwrap import dedent
from typing import Dict, List, Optional, Tuple, Union


# TestUnion.test_check_union_annotation
def test_check_union_annotation__test_func(a: Union[int, float], b: Optional[int]):
    return 0


# TestUnion.test_union_with_scalar_values
def test_union_with_scalar_values__fn(x: Union[int, float]) -> str:
    return "foo"


# TestUnion.test_union_with_collections
def test_union_with_collections__fn(x: Union[Dict[str, int], List[int]]) -> str:
    return "foo"


# TestUnion.test_union_with_enum
class Color(Enum):
    RED = 1
    GREEN = 2


# TestUnion.test_union_with_enum
def test_union_with_enum__fn(x: Union[str, Color]) -> str:
    return "foo"


# TestUnion.test_union_return_type
def test_union_return_type__fn(x: int) -> Union[int, str]:
    return "foo"


# TestUnion.test_union_as_annotation
def test_union_as_annotation__fn() -> Union[int, str]:
    x: Union[int, str] = "foo"
    return x


# TestUnion.test_union_as_annotation_in_typed_container
def test_union_as_annotation_in_typed_container__fn() -> None:
    l: List[Union[int, str]] = []
    u1: Union[int, str] = "foo"
    u2: Union[int, str] = 1
    l.append(u1)
    l.append(u2)


# TestUnion.test_union_as_annotation_py2
def test_union_as_annotation_py2__fn():
    # type: () -> Union[int, str]
    x: Union[int, str] = "foo"
    return x


# TestUnion.test_union_as_internal_tuple_type
def test_union_as_internal_tuple_type__fn():
    t: Tuple[Union[int, str], Union[int, str]] = (1, "foo")
    return t


# TestUnion.test_union_subclasses_larger_union
def test_union_subclasses_larger_union__fn() -> Union[int, str, torch.Tensor]:
    x: Union[int, str] = "foo"
    return x


# TestUnion.test_union_as_dict_value
def test_union_as_dict_value__fn():
    x: Dict[str, Union[int, str]] = {}
    x["foo"] = "bar"
    x["baz"] = 2
    return x["baz"]


# TestUnion.test_union_type_refinement
def test_union_type_refinement__fn(x: Union[int, str]) -> str:
    if isinstance(x, str):
        z = x + "bar"
        return x
    else:
        return "baz"


# TestUnion.test_union_type_refinement_union_rhs
def test_union_type_refinement_union_rhs__fn(x: int) -> str:
    if torch.jit.isinstance(x, Union[int, str]):
        return "bar"
    else:
        return "baz"


# TestUnion.test_union_type_refinement_tuple_rhs
def test_union_type_refinement_tuple_rhs__fn(x: Union[int, float, List[str]]) -> str:
    if isinstance(x, (int, float)):
        if isinstance(x, int):
            return str(x)
        else:
            return "foo"
    else:
        if len(x):
            return x[0]
        else:
            return "bar"


# TestUnion.test_union_type_refinement_tuple_rhs_noncontained_type
def test_union_type_refinement_tuple_rhs_noncontained_type__fn(x: Union[int, List[str]]) -> str:
    if isinstance(x, (int, float)):
        y = x + x
        return str(y)
    else:
        if len(x):
            return x[0]
        else:
            return "bar"


# TestUnion.test_union_type_refinement_partial_static_refinement_tuple_rhs
def test_union_type_refinement_partial_static_refinement_tuple_rhs__fn(x: Union[List[int], int]) -> int:
    if torch.jit.isinstance(x, (int, float, str)):
        # We should know that `x` is an `int` here
        z = x + 1
        return z
    else:
        return 100


# TestUnion.test_union_type_refinement_partial_static_refinement_union_rhs
def test_union_type_refinement_partial_static_refinement_union_rhs__fn(x: Union[List[int], int]) -> int:
    if torch.jit.isinstance(x, Union[int, float, str]):
        # We should know that `x` is an `int` here
        z = x + 1
        return z
    else:
        return 100


# TestUnion.test_union_type_refinement_internal_declaration
def test_union_type_refinement_internal_declaration__fn(flag: bool) -> str:
    x: Union[int, str, None] = None
    if (flag):
        y = "foo"
    else:
        y = 1
    if isinstance(x, str):
        return x
    else:
        return "bar"


# TestUnion.test_union_branching_with_union_return_and_homogenous_types
def test_union_branching_with_union_return_and_homogenous_types__fn(x: int) -> Union[int, str]:
    if x % 2:
        return "foo"
    else:
        return "bar"


# TestUnion.test_union_schema_matching_on_internal_type
def test_union_schema_matching_on_internal_type__fn(x: Union[List[int], Dict[str, int]]) -> int:
    if torch.jit.isinstance(x, List[int]):
        return x[0]
    else:
        return list(x.values())[0]


# TestUnion.test_union_subtractive_refinement
def test_union_subtractive_refinement__fn(x: Union[List[int], int]) -> int:
    if not isinstance(x, int):
        x.append(1)
        return x[0]
    else:
        return x


# TestUnion.test_union_subtractive_refinement_with_container
def test_union_subtractive_refinement_with_container__fn(x: Union[List[int], int]) -> int:
    if not torch.jit.isinstance(x, List[int]):
        return x
    else:
        x.append(1)
        return x[0]


# TestUnion.test_union_memory_aliasing
def test_union_memory_aliasing__fn():
    x : List[torch.Tensor] = []
    z : List[Optional[List[torch.Tensor]]] = []
    z.append(x)
    x_alias = z[0]
    if torch.jit.isinstance(x_alias, List[torch.Tensor]):
        x_alias.append(torch.tensor(3))
    return x


# TestUnion.test_union_serialization_preserves_type_annotations
def test_union_serialization_preserves_type_annotations__fn(x: int) -> str:
    if x % 2:
        y: Union[str, int] = "bar"
    else:
        y: Union[str, int] = x
    if isinstance(y, str):
        return y
    else:
        return "baz"
