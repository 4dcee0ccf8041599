"""Every tensor operator, called with arguments of its schema's types but random values
(shapes that do not fit, empty and 0-d tensors, odd dtypes, out-of-range ints), either
returns well-formed values or raises one of the runtime's typed errors: never a numpy
exception, an assert or a crash; and a Tensor result always holds an ndarray."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
import ts_runtime as ts
from ts_ir import (
    BoolType,
    Device,
    DeviceType,
    FloatType,
    IntType,
    ListType,
    NumberType,
    OptionalType,
    ScalarTypeType,
    StringType,
    TensorType,
    TorchScriptError,
)
from ts_schema import registry

MODULES = ("shape", "indexing", "reduction", "creation", "linalg", "nn_functional", "random")


def _operators():
    ops = []
    for op in registry.operators():
        if op.impl is None:
            continue
        kernel = getattr(op.impl, "__wrapped__", op.impl)
        module = getattr(kernel, "__module__", "") or ""
        if any(module == f"ts_runtime.ops.{m}" for m in MODULES):
            ops.append(op)
    return sorted(ops, key=lambda op: op.key)


OPERATORS = _operators()
SHAPES = [(), (3,), (2, 3), (1, 3), (2, 1, 3), (0,), (2, 0), (4, 4), (2, 3, 4)]
DTYPES = [np.float32, np.float64, np.int64, np.bool_, np.int32, np.uint8]
STRINGS = [
    "valid",
    "same",
    "constant",
    "reflect",
    "add",
    "ij",
    "xy",
    "none",
    "tanh",
    "ij,jk->ik",
    "...i->i",
]


def _tensor(rng: random.Random, requires_grad: bool) -> ts.Tensor:
    shape = rng.choice(SHAPES)
    dtype = rng.choice(DTYPES)
    data = np.random.default_rng(rng.randrange(1000)).standard_normal(shape) * 3
    t = ts.from_numpy(np.asarray(data.astype(dtype)))
    if requires_grad and t.dtype == ts.float64:
        t.requires_grad_(True)
    return t


def _value(rng: random.Random, arg, requires_grad: bool):
    t = arg.type
    optional = isinstance(t, OptionalType)
    if optional and rng.random() < 0.3:
        return None
    t = t.element if optional else t
    real = arg.real_type.element if isinstance(arg.real_type, OptionalType) else arg.real_type
    if "Generator" in str(t) or arg.name == "layout":
        return None
    if isinstance(t, TensorType):
        return _tensor(rng, requires_grad)
    if isinstance(real, ScalarTypeType) or arg.name == "dtype":
        return rng.choice([ts.float32, ts.float64, ts.int64, ts.bool, ts.int32, ts.uint8])
    if arg.name == "memory_format":
        return rng.choice([0, 1, None])
    if isinstance(t, DeviceType):
        return Device("cpu")
    if isinstance(t, BoolType):
        return rng.random() < 0.5
    if isinstance(t, IntType):
        return rng.choice([-2, -1, 0, 1, 2, 3])
    if isinstance(t, FloatType):
        return rng.choice([0.0, 0.5, 1.0, -1.5, 2.0])
    if isinstance(t, NumberType):
        return rng.choice([0, 1, 2.5, -1, True])
    if isinstance(t, StringType):
        return rng.choice(STRINGS)
    if isinstance(t, ListType):
        if isinstance(t.element, (TensorType, OptionalType)):
            return [_tensor(rng, requires_grad) for _ in range(rng.randint(0, 3))]
        if isinstance(t.element, IntType):
            return [rng.choice([-1, 0, 1, 2, 3]) for _ in range(rng.randint(0, 3))]
        if isinstance(t.element, BoolType):
            return [rng.random() < 0.5 for _ in range(3)]
    return None


def _well_formed(value) -> bool:
    if isinstance(value, ts.Tensor):
        return type(value._data) is np.ndarray
    if isinstance(value, (list, tuple)):
        return all(_well_formed(v) for v in value)
    return value is None or (
        isinstance(value, (bool, int, float, complex, str)) and not isinstance(value, np.generic)
    )


def test_the_operator_library_is_large():
    assert len(OPERATORS) > 300


@pytest.mark.parametrize("requires_grad", [False, True], ids=["plain", "autograd"])
def test_random_arguments_give_results_or_typed_errors(requires_grad):
    rng = random.Random(2024 + requires_grad)
    problems: dict[str, str] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for op in OPERATORS:
            if requires_grad and op.schema.name.endswith("_"):
                continue
            for _ in range(25):
                args = [_value(rng, a, requires_grad) for a in op.schema.arguments]
                try:
                    out = op.impl(*args)
                except TorchScriptError:
                    continue
                except Exception as exc:  # the failure this test exists to catch
                    problems.setdefault(op.key, f"{type(exc).__name__}: {exc}")
                    continue
                if not _well_formed(out):
                    problems.setdefault(op.key, f"malformed result {out!r}")
                    continue
                outputs = [
                    o
                    for o in (out if isinstance(out, (list, tuple)) else [out])
                    if isinstance(o, ts.Tensor)
                ]
                outputs = [o for o in outputs if o.requires_grad]
                if requires_grad and outputs:
                    try:
                        sum(o.sum() for o in outputs).backward()
                    except TorchScriptError:
                        pass
                    except Exception as exc:
                        problems.setdefault(op.key, f"backward {type(exc).__name__}: {exc}")
    assert not problems, "\n".join(f"{k}: {v}" for k, v in sorted(problems.items()))


@pytest.mark.parametrize(
    "call",
    [
        lambda ts: ts.ones(3) + ts.ones(4),
        lambda ts: ts.ones(2, 3) * ts.ones(4, 3),
        lambda ts: ts.ones(3) < ts.ones(2),
        lambda ts: ts.ones(3) / ts.ones(2),
        lambda ts: ts.where(ts.ones(3) > 0, ts.ones(3), ts.ones(2)),
        lambda ts: ts.maximum(ts.ones(3), ts.ones(2)),
        lambda ts: ts.ones(3).masked_fill(ts.ones(2) > 0, 1.0),
    ],
)
def test_shapes_that_do_not_broadcast_raise_pytorchs_error(call):
    import ts_runtime

    with pytest.raises(
        ts_runtime.TensorError,
        match=r"must match the size of tensor b \(\d\) at non-singleton dimension",
    ):
        call(ts_runtime)
