"""`fork`/`wait`: running a function on a thread pool and waiting for its result.

A forked call runs on a worker thread with the caller's grad mode and
returns a `Future`. Numpy releases the GIL inside large kernels, so forked
tensor work overlaps.
"""

from __future__ import annotations

import concurrent.futures
import os
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..autograd.grad_mode import GRAD_MODE

if TYPE_CHECKING:
    from ts_ir import Node

    from .code import Code

_pool: concurrent.futures.ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def _executor() -> concurrent.futures.ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = concurrent.futures.ThreadPoolExecutor(
                max_workers=max(2, os.cpu_count() or 2), thread_name_prefix="tsjit-fork"
            )
        return _pool


class Future:
    """The eventual result of a forked call (TorchScript's `Future[T]`)."""

    __slots__ = ("_future",)

    def __init__(self, future: concurrent.futures.Future | None = None) -> None:
        self._future = future or concurrent.futures.Future()

    def wait(self) -> Any:
        """Block until the value is ready and return it (re-raising the call's exception)."""
        return self._future.result()

    value = wait

    def done(self) -> bool:
        return self._future.done()

    def set_result(self, value: Any) -> None:
        self._future.set_result(value)

    def set_exception(self, exc: BaseException) -> None:
        self._future.set_exception(exc)

    def add_done_callback(self, fn: Callable[[Future], None]) -> None:
        self._future.add_done_callback(lambda _: fn(self))

    def then(self, fn: Callable[[Future], Any]) -> Future:
        out = Future()

        def chain(fut: Future) -> None:
            try:
                out.set_result(fn(fut))
            except BaseException as exc:
                out.set_exception(exc)

        self.add_done_callback(chain)
        return out

    def __repr__(self) -> str:
        return f"<Future {'done' if self.done() else 'pending'}>"


def fork(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Future:
    """Run `fn(*args, **kwargs)` on the thread pool; the result arrives in the returned Future."""
    grad = GRAD_MODE.enabled

    def task() -> Any:
        GRAD_MODE.enabled = grad
        return fn(*args, **kwargs)

    return Future(_executor().submit(task))


def wait(future: Future) -> Any:
    return future.wait()


def forker(node: Node, code: Code) -> Callable[..., Future]:
    """The implementation of a `prim::fork` node: compile its subgraph once, fork calls to it."""
    from .code import Code as CodeClass
    from .state import run_code

    sub = CodeClass(
        node.g("Subgraph"),
        grad_enabled=code.grad_enabled,
        resolver=code.resolver,
        name=f"{code.name}.fork",
    )

    def fork_subgraph(*args: Any) -> Future:
        return fork(run_code, sub, *args)

    return fork_subgraph
