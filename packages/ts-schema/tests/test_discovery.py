"""Discovery of operator packages through entry points (with fake entry points)."""

from __future__ import annotations

import sys
import textwrap
from importlib.metadata import EntryPoint

import pytest
from ts_ir import parse_ir
from ts_schema import (
    Catalogue,
    DiscoveryError,
    EntryPointDiscovery,
    OperatorRegistry,
    UnknownOperatorError,
    registry,
)


@pytest.fixture
def plugin_module(tmp_path, monkeypatch):
    """Write a module registering operators into `target`, importable as `name`."""
    monkeypatch.syspath_prepend(str(tmp_path))
    written = []

    def write(name: str, body: str) -> str:
        (tmp_path / f"{name}.py").write_text(textwrap.dedent(body))
        written.append(name)
        return name

    yield write
    for name in written:
        sys.modules.pop(name, None)


class FakeEntryPoint:
    """An entry point whose `load` runs a function and counts the calls."""

    def __init__(self, name: str, value: str, action) -> None:
        self.name = name
        self.value = value
        self.action = action
        self.loads = 0

    def load(self):
        self.loads += 1
        return self.action()


def test_a_missed_namespace_imports_its_entry_point_once():
    fresh = OperatorRegistry(Catalogue(), None)
    provider = FakeEntryPoint(
        "fake_a",
        "fake_a_ops",
        lambda: fresh.register("fake_a::double(Tensor(a!) self) -> Tensor(a!)"),
    )
    unrelated = FakeEntryPoint("other_ns", "other_ops", lambda: None)
    listings = []

    def entry_points():
        listings.append(1)
        return [provider, unrelated]

    fresh.discovery = EntryPointDiscovery(entry_points)
    (op,) = fresh.lookup("fake_a::double")
    assert op.schema.is_mutable
    assert provider.loads == 1 and unrelated.loads == 0
    # a later miss in the same namespace does not import it again
    with pytest.raises(UnknownOperatorError):
        fresh.lookup("fake_a::triple")
    assert provider.loads == 1
    assert listings == [1]
    assert {"fake_a", "other_ns"} <= set(fresh.namespaces())


def test_a_failing_entry_point_is_a_discovery_error():
    fresh = OperatorRegistry(
        Catalogue(),
        EntryPointDiscovery(lambda: [EntryPoint("broken", "no_such_module_xyz", "ts.operators")]),
    )
    with pytest.raises(DiscoveryError, match=r"no_such_module_xyz.*'broken'"):
        fresh.lookup("broken::op")
    # imported at most once: the next miss is an ordinary unknown operator
    with pytest.raises(UnknownOperatorError):
        fresh.lookup("broken::op")


def test_nodes_resolve_through_discovery(plugin_module, monkeypatch):
    module = plugin_module(
        "tsjit_fake_ops_b",
        """
        from ts_schema import operator

        @operator("fake_b::scale(Tensor self, float alpha=2.) -> Tensor")
        def scale(self, alpha):
            return self * alpha
        """,
    )
    discovery = EntryPointDiscovery(lambda: [EntryPoint("fake_b", module, "ts.operators")])
    monkeypatch.setattr(registry, "discovery", discovery)
    graph = parse_ir(
        """
graph(%x : Tensor, %f : float):
  %y : Tensor = fake_b::scale(%x, %f)
  return (%y)
"""
    )
    (node,) = graph.nodes()
    assert node.schema().key == "fake_b::scale"
    assert registry.get("fake_b::scale").impl(3, 2.0) == 6.0


def test_unknown_namespace_stays_unknown_without_entry_points():
    fresh = OperatorRegistry(Catalogue(), EntryPointDiscovery(lambda: []))
    with pytest.raises(UnknownOperatorError, match="namespace 'nowhere'"):
        fresh.lookup("nowhere::op")


def test_installed_entry_points_are_read_from_metadata():
    discovery = EntryPointDiscovery()
    # whatever is installed, the list is a list of entry points of the group
    assert all(ep.group == "ts.operators" for ep in discovery.entry_points())  # type: ignore[attr-defined]
