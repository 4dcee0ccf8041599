"""Saving and loading scripted modules and functions: attributes, code, extra files, operators."""

from __future__ import annotations

import io
from typing import Any

import numpy as np
import pytest
import ts_runtime as torch
import ts_serialize
from ts_frontend import Final, export, ignore, script
from ts_runtime import nn
from ts_serialize import ArchiveError, MissingOperatorError, SaveError, graph_difference


def roundtrip(obj: Any, **kw: Any) -> Any:
    buf = io.BytesIO()
    ts_serialize.save(obj, buf, **kw)
    return ts_serialize.load(io.BytesIO(buf.getvalue()))


def same(a: Any, b: Any) -> bool:
    if isinstance(a, torch.Tensor):
        return (
            isinstance(b, torch.Tensor)
            and a.dtype == b.dtype
            and np.array_equal(a.detach().numpy(), b.detach().numpy(), equal_nan=True)
        )
    if isinstance(a, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(map(same, a, b))
    if isinstance(a, dict):
        return type(b) is dict and list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


class Block(nn.Module):
    def __init__(self, n: int) -> None:
        super().__init__()
        self.lin = nn.Linear(n, n)
        self.register_buffer("shift", torch.arange(n).float())

    def forward(self, x):
        return torch.relu(self.lin(x)) + self.shift


class Everything(nn.Module):
    """A module with one attribute of every kind an archive holds."""

    depth: Final[int] = 2

    def __init__(self) -> None:
        super().__init__()
        self.count = 3
        self.rate = 0.25
        self.flag = True
        self.name = "everything"
        self.nothing: torch.Tensor | None = None
        self.sizes: list[int] = [4, 5]
        self.pair = (1, "two")
        self.table: dict[str, float] = {"a": 1.5, "b": -2.0}
        self.grid: dict[int, list[float]] = {1: [0.5], 2: []}
        self.register_buffer("table_t", torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
        self.view = self.table_t[1]  # a view of a buffer: shares its storage
        self.block = Block(4)
        self.shared = self.block  # the same submodule twice
        self.blocks = nn.ModuleList([Block(4), Block(4)])
        self.weight = nn.Parameter(torch.ones(4) * 0.5)

    def forward(self, x):
        y = self.block(x) * self.weight + self.shared(x)
        for b in self.blocks:
            y = b(y)
        total = 0.0
        for k, v in self.table.items():
            total += v * len(k)
        if self.flag and self.nothing is None:
            y = y + total + self.rate * self.count + float(len(self.name))
        y = y + float(self.sizes[0] + self.pair[0] + self.depth) + self.view.sum()
        return self.helper(y)

    @export
    def helper(self, y):
        return y * 2


def test_every_attribute_kind_round_trips() -> None:
    m = script(Everything())
    loaded = roundtrip(m)
    assert type(loaded) is torch.ScriptModule
    for name in ("count", "rate", "flag", "name", "nothing", "sizes", "pair", "table", "grid"):
        assert same(getattr(m, name), getattr(loaded, name)), name
    assert same(m.table_t, loaded.table_t)
    # the view still shares memory with the buffer, and the shared submodule is one object
    assert np.shares_memory(loaded.view.numpy(), loaded.table_t.numpy())
    assert (loaded.block is loaded.shared) == (m.block is m.shared)
    same_weight = m.block.lin.weight is m.shared.lin.weight
    assert (loaded.block.lin.weight is loaded.shared.lin.weight) == same_weight
    assert sorted(dict(loaded.named_parameters())) == sorted(dict(m.named_parameters()))
    assert sorted(dict(loaded.named_buffers())) == sorted(dict(m.named_buffers()))
    assert loaded.weight.requires_grad and isinstance(loaded.weight, nn.Parameter)
    x = torch.randn(3, 4)
    assert same(m(x), loaded(x))
    assert same(m.helper(x), loaded.helper(x))
    for name in ("forward", "helper"):
        assert graph_difference(m.method(name).graph, loaded.method(name).graph) is None
    assert loaded.code == m.code


def test_function_archive_and_calls_between_functions() -> None:
    def helper(x, k: int):
        return x * k

    def f(x, n: int = 2):
        for i in range(n):
            x = helper(x, i + 1)
        return x

    fn = script(f)
    loaded = roundtrip(fn)
    x = torch.randn(5)
    assert same(fn(x), loaded(x)) and same(fn(x, 4), loaded(x, 4))
    assert graph_difference(fn.graph, loaded.graph) is None
    assert loaded.code == fn.code


def test_extra_files_round_trip_as_bytes() -> None:
    m = script(Block(2))
    buf = io.BytesIO()
    ts_serialize.save(m, buf, extra_files={"meta.json": '{"v": 1}', "raw.bin": b"\x00\xff" * 100})
    wanted = {"meta.json": "", "raw.bin": "", "absent.txt": "x"}
    ts_serialize.load(io.BytesIO(buf.getvalue()), extra_files=wanted)
    assert wanted == {
        "meta.json": b'{"v": 1}',
        "raw.bin": b"\x00\xff" * 100,
        "absent.txt": b"",
    }


def test_script_module_save_method(tmp_path) -> None:
    m = script(Block(3))
    path = tmp_path / "block.tsj"
    m.save(str(path))
    loaded = ts_serialize.load(path)
    x = torch.randn(2, 3)
    assert same(m(x), loaded(x))


def test_values_and_state_dicts(tmp_path) -> None:
    state = script(Block(3)).state_dict()
    value = {
        "state": dict(state),
        "steps": [1, 2, 3],
        "pair": (torch.zeros(2, dtype=torch.int64), None),
    }
    path = tmp_path / "value.tsj"
    ts_serialize.save(value, path)
    assert same(value, ts_serialize.load(path))


def test_tensor_constants_go_to_the_constant_table() -> None:
    from ts_frontend import trace

    w = torch.randn(3, 3)

    def f(x):
        return x.mm(w) + 1

    traced = trace(f, (torch.randn(2, 3),))
    loaded = roundtrip(traced)
    assert "CONSTANTS.c0" in loaded.code
    x = torch.randn(2, 3)
    assert same(traced(x), loaded(x))


def test_python_callbacks_cannot_be_saved() -> None:
    class UsesPython(nn.Module):
        def forward(self, x):
            return self.py(x)

        @ignore
        def py(self, x: torch.Tensor) -> torch.Tensor:
            return x

    with pytest.raises(SaveError, match="Python"):
        ts_serialize.save(script(UsesPython()), io.BytesIO())


def test_missing_third_party_operator_is_named(monkeypatch) -> None:
    from ts_schema import operator, registry

    @operator("serialize_test_ns::double(Tensor x) -> Tensor")
    def double(x):
        return x * 2

    from ts_runtime.ops_namespace import ops

    def f(x):
        return ops.serialize_test_ns.double(x) + 1

    fn = script(f)
    buf = io.BytesIO()
    ts_serialize.save(fn, buf)
    data = buf.getvalue()
    assert same(ts_serialize.load(io.BytesIO(data))(torch.ones(2)), torch.full([2], 3.0))
    real_has = registry.has
    monkeypatch.setattr(
        registry,
        "has",
        lambda name: False if name.startswith("serialize_test_ns::") else real_has(name),
    )
    with pytest.raises(MissingOperatorError, match="serialize_test_ns::double") as info:
        ts_serialize.load(io.BytesIO(data))
    assert info.value.operators == ["serialize_test_ns::double"]
    assert isinstance(info.value, ArchiveError)


def test_map_location() -> None:
    fn = script(lambda_free_add)
    buf = io.BytesIO()
    ts_serialize.save(fn, buf)
    assert ts_serialize.load(io.BytesIO(buf.getvalue()), map_location="cpu")(1, 2) == 3
    with pytest.raises(ts_serialize.LoadArgumentError, match="cuda"):
        ts_serialize.load(io.BytesIO(buf.getvalue()), map_location="cuda:0")


def lambda_free_add(a: int, b: int) -> int:
    return a + b


def test_script_module_subclasses_with_script_methods() -> None:
    import ts_frontend

    class Projected(ts_frontend.ScriptModule):
        def __init__(self) -> None:
            super().__init__()
            self.weight = nn.Parameter(torch.randn(4, 4))

        @ts_frontend.script_method
        def project(self, x):
            return x.mm(self.weight)

        @ts_frontend.script_method
        def forward(self, x):
            return self.project(x) * 2

    m = Projected()
    buf = io.BytesIO()
    m.save(buf)
    loaded = ts_serialize.load(io.BytesIO(buf.getvalue()))
    x = torch.randn(3, 4)
    assert same(m(x), loaded(x)) and same(m.project(x), loaded.project(x))
