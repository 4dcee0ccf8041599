"""Language constructs that published TorchScript code uses, one program each.

Written against the name `torch`: `tools/record_language.py` runs them with
PyTorch 2.13 (recording `recorded.jsonl`), `test_language_programs.py` with
`torch` bound to tsjit. `CASES` gives each function's inputs (numpy arrays
become tensors); `MODULES` gives each module's constructor arguments and
inputs. Where PyTorch refuses a program (`s * n` on a string), the recording
holds eager Python's results. See README.md for where the constructs come
from.
"""

import math
import warnings
from typing import Dict, List, Optional, Tuple, Union

import numpy as np
import torch

F = torch.nn.functional  # `import torch.nn.functional as F` in the sources

# module-level aliases of torch callables, as torchvision and kornia write them
conv2d = F.conv2d
torch_pad = F.pad
tensor = torch.tensor


def _randn(seed, *shape):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


class DType(str):
    """An input that is a dtype, by name (`DType("float64")`)."""


class Device(str):
    """An input that is a device (`Device("cpu")`)."""


# -- named results of builtins


def named_results(x):
    m = torch.max(x, 1)
    s = torch.sort(x, 1, descending=True)
    k = x.topk(2, dim=1)
    md = x.median(1)
    mn = x.min(dim=0)
    v, i = torch.max(x, dim=0, keepdim=True)
    return (
        m.values,
        m.indices,
        s.values,
        s.indices,
        k.values,
        k.indices,
        md.values,
        md.indices,
        mn.values,
        mn.indices,
        v + i,
    )


def named_results_kthvalue_mode(x):
    kv = torch.kthvalue(x, 2, 1)
    mo = torch.mode(x, 1)
    return kv.values, kv.indices, mo.values, mo.indices


# -- dtypes, devices and constants


def dtype_names(x):
    return (
        torch.uint16,
        torch.uint32,
        torch.uint64,
        torch.float8_e4m3fn,
        torch.bfloat16,
        torch.cfloat,
        torch.long,
        x.to(torch.float64).dtype == torch.float64,
    )


def torch_constants(x):
    return x * torch.pi + torch.e, torch.inf, -torch.inf


def device_and_dtype_properties(x):
    y = x.to(torch.int32)
    return x.device.type, x.is_floating_point(), y.is_floating_point(), x.device.index


def annotated_types(
    x, d: torch.dtype, dev: torch.device, size: List[int], g: Optional[torch.Generator] = None
):
    return x.to(d).new_zeros(size).to(dev), g is None


def constant_expression_defaults(
    x,
    beta: float = 1.0 / 9,
    clip: float = math.log(1000.0 / 16),
    dtype: torch.dtype = torch.float64,
    device: torch.device = torch.device("cpu"),
    dims: Tuple[int, int] = (0, 1),
):
    return (x * beta).clamp(max=clip).to(dtype=dtype, device=device).sum(dims)


def torch_callable_aliases(x, w):
    y = conv2d(x, w, padding=1)
    z = torch_pad(y, [1, 1])
    return z + tensor([1.0])


# -- indexing and refinement


def ellipsis_then_index(x):
    return x[..., 0::2], x[..., 1], x[..., None, 0], x[None, ..., 1:], x[1, ..., 0, None]


def isinstance_of_union(p: Union[int, List[int]], q: Union[float, Tuple[float, float]]) -> int:
    if isinstance(p, list):
        a = p[0] + len(p)
    else:
        a = p
    if isinstance(q, tuple):
        b = q[0] + q[1]
    else:
        b = q
    return a + int(b)


# -- builtin forms


def dict_from_keywords(n: int) -> Dict[str, int]:
    d = dict(a=1, b=n)
    e = dict(d, c=3, a=n * 2)
    return e


def warns_and_continues(x):
    if bool(x.sum() > 0):
        warnings.warn("the input sums to more than zero")
    return x * 2


def percent_formatting(n: int, ratio: float, name: str) -> str:
    return "%d items (%s), ratio %f" % (n, name, ratio) + " [%s]" % name


def string_repetition(s: str, n: int) -> str:
    return s * n + "-" * 3 + 2 * s


def implicit_string_concatenation(x: int) -> str:
    # fmt: off
    return (
        "a"
        + str(x)
        + "b "
        "c"
    )
    # fmt: on


# -- control flow


def if_elif_else_raise(x, mode: str):
    if mode == "add":
        return x + 1
    elif mode == "mul":
        y = x * 2
        return y
    else:
        raise ValueError("unknown mode " + mode)


def loop_with_raising_branch(xs: List[int]) -> int:
    total = 0
    for x in xs:
        if x > 10:
            total += x
            continue
        elif x >= 0:
            total -= 1
        else:
            raise ValueError("negative")
    return total


CASES = {
    "named_results": [(_randn(0, 3, 4),)],
    "named_results_kthvalue_mode": [(_randn(1, 3, 4),)],
    "dtype_names": [(_randn(2, 2),)],
    "torch_constants": [(_randn(3, 2),)],
    "device_and_dtype_properties": [(_randn(4, 2),)],
    "annotated_types": [(_randn(5, 2), DType("float64"), Device("cpu"), [2, 3])],
    "constant_expression_defaults": [(_randn(6, 3, 4) * 100,)],
    "torch_callable_aliases": [(_randn(7, 1, 2, 4, 4), _randn(8, 3, 2, 3, 3))],
    "ellipsis_then_index": [(_randn(9, 2, 3, 4),)],
    "isinstance_of_union": [([3, 4], 1.5), (5, (1.0, 2.5)), ([7], (0.5, 0.25))],
    "dict_from_keywords": [(4,)],
    "warns_and_continues": [(np.ones(2, np.float32),), (-np.ones(2, np.float32),)],
    "percent_formatting": [(3, 0.5, "abc")],
    "string_repetition": [("ab", 3), ("x", 0)],
    "implicit_string_concatenation": [(5,)],
    "if_elif_else_raise": [
        (_randn(10, 3), "add"),
        (_randn(11, 3), "mul"),
        (_randn(12, 3), "div"),
    ],
    "loop_with_raising_branch": [([1, 20, 3],), ([5, -1],), ([],)],
}

MODULES: dict = {}
