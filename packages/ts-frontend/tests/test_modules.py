"""Scripting modules: types, attributes, methods, containers, state and the ScriptModule API."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import ts_runtime as torch
from ts_frontend import (
    CallError,
    Final,
    NotSupportedError,
    _overload_method,
    export,
    ignore,
    script,
    unused,
)
from ts_runtime import nn


def close(a, b) -> bool:
    return np.allclose(a.detach().numpy(), b.detach().numpy())


class Counter(nn.Module):
    limit: Final[int] = 3

    def __init__(self):
        super().__init__()
        self.count = 0
        self.history: list[int] = []
        self.bias: torch.Tensor | None = torch.ones(2)
        self.lin = nn.Linear(2, 2)
        self.blocks = nn.ModuleList([nn.ReLU(), nn.Tanh()])
        self.heads = nn.ModuleDict({"a": nn.Linear(2, 1), "b": nn.Linear(2, 1)})
        self.register_buffer("seen", torch.zeros(2))

    def forward(self, x):
        self.count += 1
        self.history.append(self.count)
        self.seen.add_(x.sum(0))
        if self.bias is not None:
            x = x + self.bias
        for b in self.blocks:
            x = b(x)
        y = self.blocks[0](x)
        outs = []
        for _name, head in self.heads.items():
            outs.append(head(x))
        if self.training:
            x = x * 2
        total = self.lin(x) + y + self.scale_of(x) + self.helper(x) + len(self.blocks) + self.limit
        return total, outs

    @export
    def scale_of(self, x):
        return x.sum() * 0.5

    @ignore
    def helper(self, x: torch.Tensor) -> torch.Tensor:
        return x * 0 + 1

    @unused
    def never(self, x):
        return x.not_a_method()


def test_counter_module_matches_eager():
    eager = Counter()
    scripted = script(eager)
    x = torch.tensor([[1.0, 2.0]])
    got, got_outs = scripted(x)
    want, want_outs = eager(x)
    assert close(got, want)
    assert all(close(a, b) for a, b in zip(got_outs, want_outs, strict=True))
    # attribute mutation goes through prim::SetAttr into the scripted module's slots
    assert scripted.count == 1 and scripted.history == [1]
    scripted(x)
    assert scripted.count == 2 and scripted.history == [1, 2]
    # the buffer is the eager module's own tensor
    assert close(scripted.seen, eager.seen)


def test_class_type_and_graph():
    scripted = script(Counter())
    typ = scripted._type
    assert typ.qualified_name == f"__torch__.{__name__}.Counter"
    assert {"training", "count", "history", "bias", "lin", "blocks", "heads", "seen"} <= set(
        typ.attributes
    )
    assert "limit" not in typ.attributes  # a constant
    text = str(scripted.graph)
    assert 'prim::SetAttr[name="count"]' in text
    assert 'prim::CallMethod[name="scale_of"]' in text
    assert "prim::unchecked_cast" in text  # self.bias refined by `is not None`
    assert "def forward(self," in scripted.code
    assert "prim::CallMethod" not in str(scripted.lin.inlined_graph)
    assert scripted.graph_for(torch.tensor([[1.0, 2.0]])) is not None


def test_exported_and_ignored_methods():
    scripted = script(Counter())
    assert scripted.scale_of(torch.tensor([[2.0, 4.0]])).item() == 3.0
    assert "scale_of" in scripted._type.methods


def test_parameters_state_dict_train_eval():
    eager = Counter()
    scripted = script(eager)
    names = [n for n, _ in scripted.named_parameters()]
    assert names == [n for n, _ in eager.named_parameters()]
    state = scripted.state_dict()
    assert list(state) == list(eager.state_dict())
    new = {k: torch.ones(tuple(v.shape)) for k, v in state.items()}
    scripted.load_state_dict(new)
    assert close(eager.lin.weight, torch.ones((2, 2)))
    with pytest.raises(RuntimeError, match="Unexpected key"):
        scripted.load_state_dict({"nope": torch.ones(1)})
    assert scripted.training and scripted.lin.training
    scripted.eval()
    assert not scripted.training and not scripted.lin.training
    assert len(list(scripted.modules())) == 8  # itself, 3 children, 2 + 2 grandchildren
    assert len(list(scripted.buffers())) == 1


def test_instances_share_a_type_when_alike():
    a, b = script(nn.Linear(3, 3)), script(nn.Linear(3, 3))
    assert a._type is b._type
    seq = script(nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2)))
    x = torch.ones((1, 3))
    assert tuple(seq(x).shape) == (1, 2)
    kinds = [str(n.kind) for n in seq.graph.nodes()]
    assert kinds.count("prim::CallMethod") == 3  # the loop over children is unrolled


class Broken(nn.Module):
    def __init__(self):
        super().__init__()
        self.fn = print

    def forward(self, x):
        return self.fn(x)


def test_unusable_attribute_is_reported_where_used():
    with pytest.raises(NotSupportedError, match="attribute 'fn'") as info:
        script(Broken())
    assert info.value.line == Broken.forward.__code__.co_firstlineno + 1


class Depth(nn.Module):
    def __init__(self):
        super().__init__()
        self.depth = 0

    def __enter__(self) -> int:
        self.depth += 1
        return self.depth

    def __exit__(self, kind: Any, value: Any, traceback: Any) -> None:
        self.depth -= 1


class UsesContext(nn.Module):
    def __init__(self):
        super().__init__()
        self.ctx = Depth()

    def forward(self, x):
        with self.ctx as d:
            y = x * d
        return y + self.ctx.depth


def test_with_statement_on_a_compiled_object():
    scripted = script(UsesContext())
    text = str(scripted.graph)
    assert "prim::Enter" in text and "prim::Exit" in text
    assert scripted(torch.ones(2)).tolist() == [1.0, 1.0]
    assert scripted.ctx.depth == 0


class _Concat(nn.Module):
    """A method overloaded on its argument's type, as torchvision's DenseNet layers are."""

    @_overload_method
    def forward(self, x: list[torch.Tensor]) -> torch.Tensor:
        pass

    @_overload_method
    def forward(self, x: torch.Tensor) -> torch.Tensor:  # noqa: F811
        pass

    def forward(self, x):  # noqa: F811
        if isinstance(x, torch.Tensor):
            parts = [x]
        else:
            parts = x
        return torch.cat(parts, 1)


class _UsesOverloads(nn.Module):
    def __init__(self):
        super().__init__()
        self.concat = _Concat()

    def forward(self, x):
        return self.concat([x, x]) + self.concat(x).sum()


def test_a_call_picks_the_overload_its_arguments_match():
    m = script(_UsesOverloads())
    calls = [n.s("name") for n in m.graph.nodes() if n.kind == "prim::CallMethod"]
    assert calls == ["forward__0", "forward__1"]
    # each overload compiles the body with its own signature: the isinstance is decided
    assert "prim::ListConstruct" not in str(m.concat.forward__0.graph)
    assert "prim::ListConstruct" in str(m.concat.forward__1.graph)
    x = torch.arange(4.0).reshape(2, 2)
    want = torch.cat([x, x], 1) + x.sum()
    assert close(m(x), want)


def test_a_call_no_overload_accepts_names_every_overload():
    class Wrong(nn.Module):
        def __init__(self):
            super().__init__()
            self.concat = _Concat()

        def forward(self, x: int):
            return self.concat(x)

    with pytest.raises(CallError) as info:
        script(Wrong())
    message = str(info.value)
    assert "forward__0" in message and "forward__1" in message
    assert "self.concat(x)" in message


def test_an_overload_must_declare_the_implementations_parameters():
    class Renamed(nn.Module):
        @_overload_method
        def forward(self, y: torch.Tensor) -> torch.Tensor:
            pass

        def forward(self, x):  # noqa: F811
            return x

    class Outer(nn.Module):
        def __init__(self):
            super().__init__()
            self.inner = Renamed()

        def forward(self, x):
            return self.inner(x)

    with pytest.raises(NotSupportedError, match=r"declares the parameters \(self, y\)"):
        script(Outer())


def test_submodules_named_outside_python_identifiers_keep_their_attribute_names():
    # nn.Sequential(OrderedDict) accepts any key: torchvision's RegNet names blocks "block1-0"
    from collections import OrderedDict

    class Holder(nn.Module):
        def __init__(self):
            super().__init__()
            self.seq = nn.Sequential(OrderedDict([("block1-0", nn.ReLU()), ("x y", nn.Tanh())]))

        def forward(self, x):
            return self.seq(x)

    m = script(Holder())
    graph = str(m.seq.graph)
    assert 'prim::GetAttr[name="block1-0"]' in graph and 'prim::GetAttr[name="x y"]' in graph
    x = torch.tensor([-1.0, 2.0])
    assert close(m(x), torch.tanh(torch.relu(x)))
