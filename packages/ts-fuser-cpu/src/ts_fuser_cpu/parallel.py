"""Running a kernel on all cores: disjoint shares of its work on a pool of threads.

A kernel called through ctypes releases the GIL for the whole call, so
threads that each call it on their own `[start, end)` share run truly in
parallel. The calling thread runs the first share itself. Work below
`PARALLEL_THRESHOLD` elements stays on one thread, where starting others
would cost more than it saves.

The thread count is `set_num_threads(n)`, else `TS_JIT_NUM_THREADS`, else the
number of cores this process may run on; read when first needed.
"""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Callable, Sequence
from typing import Any

#: Elements of work below which a launch stays on the calling thread.
PARALLEL_THRESHOLD = 1 << 16
#: The least work (elements) a thread is given.
MIN_SHARE = 1 << 15
#: Flat shares start at multiples of this many elements (whole cache lines for every dtype).
ALIGNMENT = 64

_num_threads: int | None = None


def get_num_threads() -> int:
    """How many threads a large fused kernel runs on."""
    global _num_threads
    if _num_threads is None:
        env = os.environ.get("TS_JIT_NUM_THREADS")
        if env and env.strip().isdigit() and int(env) > 0:
            _num_threads = int(env)
        else:
            try:
                _num_threads = len(os.sched_getaffinity(0))
            except AttributeError:  # not every platform has affinity masks
                _num_threads = os.cpu_count() or 1
    return _num_threads


def set_num_threads(n: int) -> None:
    """Run large fused kernels on `n` threads (1: on the calling thread only)."""
    global _num_threads
    if not isinstance(n, int) or n < 1:
        raise ValueError(f"the number of threads must be a positive int, not {n!r}")
    _num_threads = n


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


class ThreadPool:
    """Persistent worker threads, each with its own task queue."""

    def __init__(self) -> None:
        self._queues: list[queue.SimpleQueue] = []
        self._lock = threading.Lock()

    def _ensure(self, n: int) -> None:
        if len(self._queues) >= n:
            return
        with self._lock:
            while len(self._queues) < n:
                q: queue.SimpleQueue = queue.SimpleQueue()
                t = threading.Thread(
                    target=_worker, args=(q,), name=f"ts-fuser-cpu-{len(self._queues)}", daemon=True
                )
                t.start()
                self._queues.append(q)

    def run(
        self, fn: Callable[..., int], args: Sequence[Any], bounds: Sequence[tuple[int, int]]
    ) -> int:
        """Call `fn(*args, start, end)` for every share; the bitwise or of their results."""
        others = bounds[1:]
        self._ensure(len(others))
        results: queue.SimpleQueue = queue.SimpleQueue()
        for q, (start, end) in zip(self._queues, others, strict=False):
            q.put((fn, args, start, end, results))
        start, end = bounds[0]
        status = fn(*args, start, end)
        error: BaseException | None = None
        for _ in others:
            r = results.get()
            if isinstance(r, BaseException):
                error = r
            else:
                status |= r
        if error is not None:
            raise error
        return status


def _worker(q: queue.SimpleQueue) -> None:
    while True:
        fn, args, start, end, results = q.get()
        try:
            results.put(fn(*args, start, end))
        except BaseException as exc:  # handed to the caller, which re-raises it
            results.put(exc)


POOL = ThreadPool()
