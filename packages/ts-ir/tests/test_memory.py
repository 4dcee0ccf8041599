"""`cyclic_gc_paused`: the collector is off inside, and restored as it was after."""

from __future__ import annotations

import gc

import pytest
from ts_ir import cyclic_gc_paused


@pytest.fixture(autouse=True)
def collector_restored():
    was = gc.isenabled()
    yield
    if was:
        gc.enable()
    else:
        gc.disable()


def test_paused_inside_and_enabled_after():
    gc.enable()
    with cyclic_gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_nested_pauses_enable_only_at_the_outermost_exit():
    gc.enable()
    with cyclic_gc_paused():
        with cyclic_gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_collector_disabled_before_stays_disabled():
    gc.disable()
    with cyclic_gc_paused():
        pass
    assert not gc.isenabled()


def test_restored_when_the_block_raises():
    gc.enable()
    with pytest.raises(ValueError), cyclic_gc_paused():
        raise ValueError("inside")
    assert gc.isenabled()
