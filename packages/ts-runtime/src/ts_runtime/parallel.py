"""Intra-op parallelism: one thread count and one pool of threads for every tsjit kernel.

Fused kernels (ts-fuser-cpu) and large matrix products and convolutions
(`ops.linalg`) split their work into disjoint shares and run them on this
pool; the calling thread runs the first share itself and the others wait on
queues, blocking, never spinning. A share that calls into C with the GIL
released (a ctypes kernel, a BLAS product) runs truly in parallel.

numpy's BLAS keeps threads of its own. OpenBLAS, in numpy's wheels, waits for
its threads by spinning and yielding, several times within one product; on
a machine with more runnable threads than cores (tsjit's pool, PyTorch's, other
processes) a spinning thread burns the time slice its partner needs, and a
product became tens of times slower on two threads than on one. So tsjit's own
products run BLAS on one thread (`serial_blas`), and parallelism comes from
splitting a large product across this pool: one hand-off per product, with
blocking waits.

The thread count is `set_num_threads(n)`, else `TS_JIT_NUM_THREADS`, else the
number of cores this process may run on; read when first needed.
"""

from __future__ import annotations

import ctypes
import os
import queue
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any

_num_threads: int | None = None


def get_num_threads() -> int:
    """How many threads a large kernel runs on."""
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
    """Run large kernels on `n` threads (1: on the calling thread only)."""
    global _num_threads
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise ValueError(f"the number of threads must be a positive int, not {n!r}")
    _num_threads = n


def even_shares(work: int, parts: int) -> list[tuple[int, int]]:
    """`[start, end)` bounds of `work` items in at most `parts` near-equal shares."""
    parts = max(1, min(parts, work))
    step = -(-work // parts)
    return [(start, min(start + step, work)) for start in range(0, work, step)] or [(0, 0)]


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
                    target=_worker, args=(q,), name=f"ts-jit-{len(self._queues)}", daemon=True
                )
                t.start()
                self._queues.append(q)

    def run(
        self, fn: Callable[..., int], args: Sequence[Any], bounds: Sequence[tuple[int, int]]
    ) -> int:
        """Call `fn(*args, start, end)` for every share; the bitwise or of their results.

        Each share handed to a worker carries a claim: the worker runs it only if it claims
        it first. After its own share the calling thread claims and runs every share no
        worker has started, so a worker that the system has not yet scheduled (more runnable
        threads than cores) costs no more than running that share here."""
        others = bounds[1:]
        self._ensure(len(others))
        results: queue.SimpleQueue = queue.SimpleQueue()
        claims = [threading.Lock() for _ in others]
        for q, claim, (start, end) in zip(self._queues, claims, others, strict=False):
            q.put((claim, fn, args, start, end, results))
        error: BaseException | None = None
        status = 0
        try:
            status = fn(*args, *bounds[0])
        except BaseException as exc:  # the workers' shares still finish before it is raised
            error = exc
        started = 0
        for claim, (start, end) in zip(claims, others, strict=False):
            if not claim.acquire(blocking=False):
                started += 1
            elif error is None:
                try:
                    status |= fn(*args, start, end)
                except BaseException as exc:
                    error = exc
        for _ in range(started):
            r = results.get()
            if isinstance(r, BaseException):
                error = error or r
            else:
                status |= r
        if error is not None:
            raise error
        return status


def _worker(q: queue.SimpleQueue) -> None:
    while True:
        claim, fn, args, start, end, results = q.get()
        if not claim.acquire(blocking=False):
            continue  # the calling thread ran it
        try:
            results.put(fn(*args, start, end))
        except BaseException as exc:  # handed to the caller, which re-raises it
            results.put(exc)


POOL = ThreadPool()


# ---------------------------------------------------------------------------
# numpy's BLAS threads

#: OpenBLAS's setter of its thread count, as numpy's wheels (scipy-openblas) and plain builds name it
_BLAS_SETTERS = (
    "scipy_openblas_set_num_threads64_",
    "scipy_openblas_set_num_threads",
    "openblas_set_num_threads64_",
    "openblas_set_num_threads",
)
_blas_pinned = False
_blas_lock = threading.Lock()


def serial_blas() -> None:
    """Make numpy's BLAS run each product on the calling thread, once per process.

    OpenBLAS has no per-thread setting that holds (its `..._local` setter
    changes the process's count in pthreads builds), so the setting is the
    process's: from tsjit's first product on, numpy's products run on one
    thread, and tsjit's own products run on its pool. A program that wants
    OpenBLAS's threads for its own numpy code sets them again afterwards.
    Nothing happens where numpy's BLAS is not OpenBLAS or cannot be found."""
    global _blas_pinned
    if _blas_pinned:
        return
    with _blas_lock:
        if not _blas_pinned:
            setter = _openblas_setter()
            if setter is not None:
                setter(1)
            _blas_pinned = True


def _openblas_setter() -> Any:
    for path in _loaded_libraries("openblas"):
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        for symbol in _BLAS_SETTERS:
            if hasattr(lib, symbol):
                setter = getattr(lib, symbol)
                setter.argtypes = [ctypes.c_int]
                setter.restype = None
                return setter
    return None


def _loaded_libraries(word: str) -> list[str]:
    """Paths of the shared libraries loaded into this process whose name holds `word`
    (from /proc/self/maps: Linux only; none elsewhere)."""
    if not sys.platform.startswith("linux"):
        return []
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return []
    paths = []
    for line in lines:
        fields = line.split(maxsplit=5)
        path = fields[5] if len(fields) == 6 else ""
        name = os.path.basename(path).lower()
        if word in name and ".so" in name and path not in paths:
            paths.append(path)
    return paths
