"""Running a kernel on all cores: disjoint shares of its work on the runtime's pool of threads.

A kernel called through ctypes releases the GIL for the whole call, so
threads that each call it on their own `[start, end)` share run truly in
parallel. The calling thread runs the first share itself. Work below
`PARALLEL_THRESHOLD` elements stays on one thread, where handing shares to
other threads would cost more than it saves.

The thread count and the pool are the runtime's (`ts_runtime.parallel`),
shared with its matrix products and convolutions.
"""

from __future__ import annotations

from ts_runtime.parallel import POOL, ThreadPool, get_num_threads, set_num_threads

__all__ = [
    "ALIGNMENT",
    "MIN_SHARE",
    "PARALLEL_THRESHOLD",
    "POOL",
    "ThreadPool",
    "get_num_threads",
    "set_num_threads",
    "shares",
]

#: Elements of work below which a launch stays on the calling thread.
PARALLEL_THRESHOLD = 1 << 16
#: The least work (elements) a thread is given.
MIN_SHARE = 1 << 15
#: Flat shares start at multiples of this many elements (whole cache lines for every dtype).
ALIGNMENT = 64


def shares(work: int, elements_per_item: int, *, align: int = 1) -> list[tuple[int, int]]:
    """How `work` items (of `elements_per_item` elements each) split across threads."""
    elements = work * elements_per_item
    threads = get_num_threads()
    if threads <= 1 or elements < PARALLEL_THRESHOLD or work < 2:
        return [(0, work)]
    n = min(threads, elements // MIN_SHARE, work)
    if n <= 1:
        return [(0, work)]
    step = -(-work // n)
    step = -(-step // align) * align
    bounds = []
    start = 0
    while start < work:
        end = min(start + step, work)
        bounds.append((start, end))
        start = end
    return bounds
