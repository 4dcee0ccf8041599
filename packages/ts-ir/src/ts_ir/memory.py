"""Pausing Python's cyclic garbage collector while graphs are built.

Building, parsing, compiling and optimizing graphs makes many long-lived
objects (nodes, values, uses, types) and almost no garbage that must go at
once. Each allocation burst makes CPython's cyclic collector run, and its
older generations rescan every live object, the whole graph (and whatever
else the process holds) included: work grows with the heap rather than with
what is built, and large graphs become superlinear. Pausing the collector
for the duration of such a step, and restoring it after, removes that cost;
reference counting still frees everything acyclic at once.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def cyclic_gc_paused() -> Iterator[None]:
    """Pause the cyclic collector inside the block; re-enable it after if it was on.

    Nested uses are safe: only the outermost one that found it enabled turns
    it back on.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
