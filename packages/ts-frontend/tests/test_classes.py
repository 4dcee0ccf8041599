"""TorchScript classes, NamedTuples, interfaces and old-style script modules.

Each compiled program is run and compared with the same Python code run
eagerly; the graphs are checked for the nodes TorchScript emits
(`prim::CreateObject`, `prim::CallMethod[name="__init__"]`, ...).
"""

from __future__ import annotations

import enum
from typing import NamedTuple

import numpy as np
import pytest
import ts_runtime as torch
from ts_frontend import (
    NotSupportedError,
    ScriptModule,
    interface,
    script,
    script_if_tracing,
    script_method,
    trace,
)
from ts_runtime import Tensor


def same(a, b) -> bool:
    if isinstance(a, torch.Tensor):
        return np.allclose(a.detach().numpy(), b.detach().numpy())
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return a == b


@script
class Span:
    def __init__(self, start: int, stop: int):
        self.start = start
        self.stop = stop
        self.marks: list[int] = []

    def __len__(self) -> int:
        return self.stop - self.start

    def __getitem__(self, i: int) -> int:
        return self.start + i

    def mark(self, i: int) -> Span:
        self.marks.append(i)
        return self

    @property
    def middle(self) -> float:
        return (self.start + self.stop) / 2


def span_user(a: int, b: int):
    s = Span(a, b)
    s.mark(1).mark(2)
    return len(s), s[1], s.middle, s.marks


def test_a_scripted_class_is_constructed_and_called_in_compiled_code():
    f = script(span_user)
    assert same(f(2, 7), span_user(2, 7))
    kinds = [str(n.kind) for n in f.graph.nodes()]
    assert "prim::CreateObject" in kinds
    calls = [n.s("name") for n in f.graph.nodes() if str(n.kind) == "prim::CallMethod"]
    assert calls[:3] == ["__init__", "mark", "mark"]
    assert {"__len__", "__getitem__", "__middle_getter"} <= set(calls)


def spans_overlap(a: Span, b: Span) -> bool:
    return a.start < b.stop and b.start < a.stop


def test_a_python_instance_is_copied_into_compiled_code():
    f = script(spans_overlap)
    for a, b in [((0, 3), (2, 5)), ((0, 3), (3, 5))]:
        assert f(Span(*a), Span(*b)) == spans_overlap(Span(*a), Span(*b))


def test_a_compiled_object_returned_to_python_keeps_its_methods():
    def make(a: int, b: int) -> Span:
        return Span(a, b)

    s = script(make)(1, 4)
    assert (len(s), s[2], s.start) == (3, 3, 1)
    assert s.mark(5).marks == [5]


class Counter:  # not decorated: compiled when compiled code uses it
    def __init__(self):
        self.n = 0

    def bump(self, k: int) -> int:
        self.n += k
        return self.n


def counts(xs: list[int]) -> int:
    c = Counter()
    for x in xs:
        c.bump(x)
    return c.n


def test_a_class_is_compiled_when_compiled_code_uses_it():
    assert script(counts)([1, 2, 3]) == counts([1, 2, 3])


def adds_attribute_outside_init(x: int) -> int:
    c = Counter()
    c.extra = x  # type: ignore[attr-defined]
    return c.n


def test_attributes_are_defined_only_in_init():
    with pytest.raises(NotSupportedError, match="defined by assignments in __init__"):
        script(adds_attribute_outside_init)


class Holder(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.span = Span(1, 9)  # an object of a scripted class: its type is inferred
        self.act = torch.tanh  # a function: compiled code calls it

    def forward(self, x):
        return self.act(x) * len(self.span)


def test_a_module_holds_a_scripted_object_and_a_function():
    m = Holder()
    x = torch.tensor([0.5, -1.0])
    assert same(script(m)(x), m(x))


class Pair(NamedTuple):
    first: Tensor
    count: int = 1


def pair_of(x) -> Pair:
    p = Pair(x * 2)
    return Pair(p.first + 1, count=p.count + 1)


def test_a_named_tuple_is_built_read_and_returned_as_its_class():
    out = script(pair_of)(torch.ones(2))
    assert isinstance(out, Pair)
    assert same(out, pair_of(torch.ones(2)))


def test_builtins_named_results_come_back_named():
    def top(x):
        return torch.max(x, 1)

    out = script(top)(torch.tensor([[1.0, 3.0], [4.0, 2.0]]))
    assert same(out.values, torch.tensor([3.0, 4.0])) and out.indices.tolist() == [1, 0]


@interface
class Shape:
    def area(self) -> float:
        pass


@script
class Square:
    def __init__(self, side: float):
        self.side = side

    def area(self) -> float:
        return self.side * self.side


def total_area(a: Shape, b: Shape) -> float:
    return a.area() + b.area()


def test_an_interface_calls_methods_by_name():
    f = script(total_area)
    assert f(Square(2.0), Square(3.0)) == 13.0
    assert any(str(n.kind) == "prim::CallMethod" and n.s("name") == "area" for n in f.graph.nodes())


class Scaled(ScriptModule):
    __constants__ = ["factor"]  # noqa: RUF012 - as published script modules write it

    def __init__(self, factor: float):
        super().__init__()
        self.factor = factor
        self.weight = torch.nn.Parameter(torch.ones(3))

    @script_method
    def forward(self, x: Tensor) -> Tensor:
        return self.helper(x) * self.factor

    def helper(self, x: Tensor) -> Tensor:
        return x + self.weight

    def python_only(self) -> str:
        return "eager"


def test_an_old_style_script_module_compiles_its_script_methods_when_built():
    m = Scaled(2.0)
    assert isinstance(m, ScriptModule) and isinstance(script(torch.nn.Linear(2, 2)), ScriptModule)
    x = torch.tensor([1.0, 2.0, 3.0])
    assert same(m(x), (x + 1) * 2)
    assert "aten::mul" in str(m.graph)
    assert script(m) is m and m.python_only() == "eager"
    with torch.no_grad():
        m.weight.copy_(torch.zeros(3))  # the compiled module shares the tensors
    assert same(m(x), x * 2)


def broadcast_sizes(x, k: list[int] | None = None):
    return x


class _BroadcastingList:  # as `torch._jit_internal.BroadcastingList2`
    __name__ = "BroadcastingList2"

    def __getitem__(self, t):
        return list[t]


BroadcastingList2 = _BroadcastingList()


def pool(x, k: BroadcastingList2[int], s: BroadcastingList2[int] | None = None):
    if s is None:
        s = k
    return torch.max_pool2d(x, k, s)


def pools(x):
    return pool(x, 2) + pool(x, (2, 2), [2, 2])


def test_a_broadcasting_list_parameter_takes_one_int_or_a_list():
    f = script(pools)
    x = torch.from_numpy(np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4))
    assert same(f(x), torch.max_pool2d(x, [2, 2], [2, 2]) * 2)
    callee = next(n for n in f.graph.nodes() if str(n.kind) == "prim::CallFunction")
    schema = callee.inputs[0].type.function.schema
    assert str(schema) == "pool(Tensor x, int[2] k, int[2]? s=None) -> Tensor"


@script_if_tracing
def clipped(x):
    return x.clamp(max=1.0) if bool(x.sum() > 0) else x


def test_script_if_tracing_runs_python_and_is_scripted_under_a_trace():
    x = torch.tensor([2.0, -0.5])
    assert same(clipped(x), torch.tensor([1.0, -0.5]))
    traced = trace(lambda v: clipped(v) * 2, (x,))
    assert "prim::If" in str(traced.graph)  # the scripted control flow is kept
    y = torch.tensor([-2.0, -0.5])
    assert same(traced(y), y * 2)


def total_length(spans: list[Span], extra: Span | None = None) -> int:
    n = 0
    for s in spans:
        n += len(s)
    if extra is not None:
        n += len(extra)
    return n


def test_python_instances_inside_lists_and_optionals_are_copied_in():
    f = script(total_length)
    spans = [Span(0, 2), Span(5, 9)]
    assert f(spans, Span(1, 2)) == total_length(spans, Span(1, 2)) == 7
    assert f(spans) == 6


class Mish(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.act = self._mish  # a bound method of the module itself

    def _mish(self, x: Tensor) -> Tensor:
        return x * torch.tanh(torch.nn.functional.softplus(x))

    def forward(self, x):
        return self.act(x)


def test_an_attribute_holding_a_method_of_the_module_calls_it():
    m = Mish()
    x = torch.tensor([-1.0, 0.5])
    assert same(script(m)(x), m(x))


def test_a_scripted_unused_function_raises_when_called():
    from ts_frontend import unused

    @unused
    def merge(x: Tensor) -> Tensor:
        return x + 1

    f = script(merge)
    assert "aten::add" not in str(f.graph)
    with pytest.raises(RuntimeError, match="@unused"):
        f(torch.ones(2))


class Level(enum.Enum):
    LOW = 1
    HIGH = 2


def bump(level: Level) -> tuple[Level, str, int]:
    if level == Level.LOW:
        return Level.HIGH, level.name, level.value
    return level, level.name, level.value * 10


def test_enum_members_are_constants_of_their_type():
    f = script(bump)
    assert f(Level.LOW) == bump(Level.LOW) == (Level.HIGH, "LOW", 1)
    assert f(Level.HIGH) == bump(Level.HIGH)
    text = str(f.graph)
    assert "Enum<__torch__.test_classes.Level>" in text and "prim::EnumName" in text


@script
class Store:
    def __init__(self):
        self.data: dict[str, int] = {"a": 1, "b": 2}

    def __delitem__(self, key: str):
        del self.data[key]


def drop_item(key: str) -> list[str]:
    s = Store()
    del s[key]
    return list(s.data.keys())


def test_del_of_an_objects_item_calls_its_delitem():
    assert script(drop_item)("a") == ["b"]
