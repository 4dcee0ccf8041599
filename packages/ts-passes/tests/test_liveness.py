"""Liveness: values live before each node."""

from __future__ import annotations

from passes_helpers import parse, values
from ts_passes import liveness


def names(vs) -> set[str]:
    return {v.debug_name for v in vs}


def test_straight_line():
    g = parse(
        """
        graph(%x : Tensor, %y : Tensor):
          %a : Tensor = aten::mul(%x, %x)
          %b : Tensor = aten::mul(%a, %y)
          %c : Tensor = aten::relu(%b)
          return (%c)
        """
    )
    live = liveness(g)
    v = values(g)
    assert names(live[v["a"].node]) == {"x", "y"}
    assert names(live[v["b"].node]) == {"a", "y"}
    assert names(live[v["c"].node]) == {"b"}


def test_values_used_in_a_loop_stay_live_through_it():
    g = parse(
        """
        graph(%x : Tensor, %w : Tensor, %n : int):
          %true : bool = prim::Constant[value=1]()
          %r : Tensor = prim::Loop(%n, %true, %x)
            block0(%i : int, %h : Tensor):
              %h2 : Tensor = aten::mul(%h, %w)
              %h3 : Tensor = aten::relu(%h2)
              -> (%true, %h3)
          %out : Tensor = aten::relu(%r)
          return (%out)
        """
    )
    live = liveness(g)
    v = values(g)
    assert "w" in names(live[v["h3"].node])  # read again by the next iteration
    assert names(live[v["h2"].node]) >= {"h", "w"}
    assert "w" not in names(live[v["out"].node])
    assert names(live[v["r"].node]) >= {"x", "w", "n"}


def test_branches():
    g = parse(
        """
        graph(%x : Tensor, %y : Tensor, %c : bool):
          %r : Tensor = prim::If(%c)
            block0():
              %a : Tensor = aten::relu(%x)
              -> (%a)
            block1():
              -> (%y)
          return (%r)
        """
    )
    live = liveness(g)
    v = values(g)
    assert names(live[v["r"].node]) == {"x", "y", "c"}
    assert names(live[v["a"].node]) == {"x"}
