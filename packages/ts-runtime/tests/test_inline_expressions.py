"""Every inlined expression computes exactly what its kernel computes.

The interpreter runs an operator with an entry in `ops.dispatch.INLINE` as
that Python expression instead of calling its kernel. For every entry, this
evaluates the expression with `eval` on arguments generated from the
schema's types and compares it with the kernel on equal arguments: the
result, the arguments afterwards (mutating operators), whether the result is
one of the arguments (aliasing), and the exception class when one is raised.
"""

from __future__ import annotations

import builtins
import enum
import math
from typing import Any

import numpy as np
import pytest
import ts_runtime
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ts_ir import (
    AnyClassType,
    AnyEnumType,
    AnyType,
    BoolType,
    ComplexType,
    Device,
    DeviceType,
    DictType,
    FloatType,
    IntType,
    ListType,
    NumberType,
    OptionalType,
    StringType,
    TensorType,
    TupleType,
    Type,
    VarType,
)
from ts_runtime import Tensor
from ts_runtime.ops.dispatch import INLINE
from ts_schema import registry

KEYS = sorted(INLINE.keys())


class Color(enum.Enum):
    RED = 1
    GREEN = 2


class Thing:
    """A class instance, for `AnyClassType` arguments."""


# Small ints: list repetition and string padding take them as sizes.
INTS = st.integers(-6, 6) | st.integers(-40, 40)
FLOATS = st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from([0.5, 2.5, -0.0, 1.0])
COMPLEXES = st.complex_numbers(max_magnitude=1e6) | st.sampled_from(
    [complex("nan+1j"), complex("inf-0j")]
)
TEXT = st.text(alphabet=" \t\n,.-aAbB1_é", max_size=6)
NUMBERS = INTS | FLOATS | COMPLEXES


@st.composite
def tensors(draw: Any) -> Tensor:
    dtype = draw(st.sampled_from([np.float32, np.int64, np.bool_]))
    shape = draw(st.sampled_from([(), (0,), (1,), (2,)]))
    values = np.array(draw(st.lists(st.integers(-3, 3), min_size=3, max_size=3)))
    t = ts_runtime.from_numpy(values[: int(np.prod(shape))].reshape(shape).astype(dtype))
    if dtype is np.float32 and draw(st.booleans()):
        t.requires_grad_(True)
    return t


# Types a schema's type variable is bound to in one example.
BINDINGS = [IntType.get(), FloatType.get(), StringType.get(), BoolType.get(), TensorType.get()]
BINDINGS.append(ListType(IntType.get()))


def strategy(t: Type, env: dict[str, Type]) -> st.SearchStrategy[Any]:
    """Values of IR type `t`, type variables read from `env`."""
    if isinstance(t, VarType):
        return strategy(env[t.name], env)
    if isinstance(t, BoolType):
        return st.booleans()
    if isinstance(t, IntType):
        return INTS
    if isinstance(t, FloatType):
        return FLOATS
    if isinstance(t, ComplexType):
        return COMPLEXES
    if isinstance(t, NumberType):
        return NUMBERS
    if isinstance(t, StringType):
        return TEXT
    if isinstance(t, TensorType):
        return tensors()
    if isinstance(t, DeviceType):
        return st.sampled_from([Device("cpu"), Device("cuda", 0)])
    if isinstance(t, AnyEnumType):
        return st.sampled_from(Color)
    if isinstance(t, AnyClassType):
        return st.builds(Thing)
    if isinstance(t, AnyType):
        return st.one_of(st.booleans(), INTS, FLOATS, TEXT, st.none())
    if isinstance(t, OptionalType):
        return st.none() | strategy(t.element, env)
    if isinstance(t, ListType):
        return st.lists(strategy(t.element, env), max_size=5)
    if isinstance(t, TupleType):
        return st.tuples(*(strategy(e, env) for e in t.elements))
    if isinstance(t, DictType):
        return st.dictionaries(strategy(t.key, env), strategy(t.value, env), max_size=4)
    raise NotImplementedError(f"no values for type {t} (extend this test's generator)")


def _type_variables(t: Type, out: set[str]) -> set[str]:
    if isinstance(t, VarType):
        out.add(t.name)
    for c in t.contained_types() if hasattr(t, "contained_types") else ():
        _type_variables(c, out)
    return out


def _element_type(t: Type) -> Type | None:
    if isinstance(t, ListType):
        return t.element
    if isinstance(t, DictType):
        return t.key
    return None


def draw_arguments(data: Any, schema: Any) -> list[Any]:
    names: set[str] = set()
    for arg in schema.arguments:
        _type_variables(arg.type, names)
    env = {name: data.draw(st.sampled_from(BINDINGS), label=name) for name in sorted(names)}
    args: list[Any] = []
    for i, arg in enumerate(schema.arguments):
        s = strategy(arg.type, env)
        # an element or key of the first argument half the time: hits for `in`, `index`, `d[k]`
        if i > 0 and isinstance(args[0], (list, dict)) and args[0]:
            element = _element_type(schema.arguments[0].type)
            if element is not None and _resolve(element, env) == _resolve(arg.type, env):
                s = st.sampled_from(list(args[0])) | s
        args.append(data.draw(s, label=arg.name))
    return args


def _resolve(t: Type, env: dict[str, Type]) -> Type:
    return env[t.name] if isinstance(t, VarType) else t


def copy_containers(x: Any) -> Any:
    """A copy of the lists, dicts and tuples in `x`, sharing everything else (tensors, objects)."""
    if type(x) is list:
        return [copy_containers(v) for v in x]
    if type(x) is dict:
        return {k: copy_containers(v) for k, v in x.items()}
    if type(x) is tuple:
        return tuple(copy_containers(v) for v in x)
    return x


def same(a: Any, b: Any) -> bool:
    """Equal values of equal types, nan equal to nan and -0.0 distinct from 0.0."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)
    if isinstance(a, complex):
        return same(a.real, b.real) and same(a.imag, b.imag)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return same(list(a.items()), list(b.items()))
    if isinstance(a, Tensor):
        if a is b:
            return True
        return (
            a.dtype == b.dtype
            and a.requires_grad == b.requires_grad
            and np.array_equal(a._data, b._data, equal_nan=a._data.dtype.kind == "f")
        )
    return a == b


def outcome(fn: Any, args: list[Any]) -> tuple[str, Any]:
    try:
        return "value", fn(*args)
    except Exception as exc:
        return "raised", type(exc)


def position(value: Any, args: list[Any]) -> int | None:
    """Which argument `value` is (by identity, for containers), if any."""
    if isinstance(value, (list, dict)):
        for i, a in enumerate(args):
            if a is value:
                return i
    return None


def evaluator(template: str, n: int) -> Any:
    names = [f"a{i}" for i in range(n)]
    source = "(" + template.format(*names) + ")"
    code = compile(source, f"<inline {template}>", "eval")

    def run(*args: Any) -> Any:
        return eval(code, {"__builtins__": builtins}, dict(zip(names, args, strict=True)))

    return run


def test_inline_table_is_filled_and_implemented():
    assert len(KEYS) > 300
    for key in KEYS:
        assert registry.get(key).has_implementation, key


@pytest.mark.parametrize("key", KEYS)
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_expression_matches_kernel(key, data):
    op = registry.get(key)
    template = INLINE.lookup_operator(op)
    kernel = getattr(op.impl, "__wrapped__", op.impl)
    expression = evaluator(template, len(op.schema.arguments))
    args = draw_arguments(data, op.schema)
    args_expr, args_kernel = copy_containers(args), copy_containers(args)

    got = outcome(expression, args_expr)
    want = outcome(kernel, args_kernel)

    assert got[0] == want[0], f"{template!r}: {got} but the kernel gives {want}"
    if got[0] == "raised":
        assert got[1] is want[1], f"{template!r} raised {got[1]}, the kernel {want[1]}"
    else:
        assert same(got[1], want[1]), f"{template!r} gave {got[1]!r}, the kernel {want[1]!r}"
        assert position(got[1], args_expr) == position(want[1], args_kernel)
    assert same(args_expr, args_kernel), "the arguments differ afterwards"
