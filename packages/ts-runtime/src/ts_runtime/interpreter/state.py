"""`InterpreterState`: one activation of a `Code`, resumable where it waits.

A code without `aten::wait` runs as a plain call. A code that waits compiles
to a Python generator that yields the `Future` it waits on; the state resumes
it when the future completes. `run` drives it to the end, blocking on each
wait; `run_async` returns at once with a `Future` of the result, and no
thread blocks while a forked call is pending.
"""

from __future__ import annotations

from typing import Any

from .code import Code
from .fork import Future


def run_code(code: Code, *inputs: Any) -> Any:
    """Run `code` to completion on this thread."""
    result = code.fn(*inputs)
    if not code.is_async:
        return result
    gen = result
    value: Any = None
    try:
        while True:
            fut = gen.send(value)
            value = fut.wait()
    except StopIteration as stop:
        return stop.value


class InterpreterState:
    """A resumable activation of `code`; its registers live in the generated function's frame."""

    def __init__(self, code: Code) -> None:
        self.code = code

    def run(self, *inputs: Any) -> Any:
        return run_code(self.code, *inputs)

    def run_async(self, *inputs: Any) -> Future:
        """Start running; the returned Future completes when the code returns."""
        done = Future()
        if not self.code.is_async:
            try:
                done.set_result(self.code.fn(*inputs))
            except BaseException as exc:
                done.set_exception(exc)
            return done
        gen = self.code.fn(*inputs)

        def step(value: Any, error: BaseException | None) -> None:
            try:
                fut = gen.throw(error) if error is not None else gen.send(value)
            except StopIteration as stop:
                done.set_result(stop.value)
                return
            except BaseException as exc:
                done.set_exception(exc)
                return
            fut.add_done_callback(_resume)

        def _resume(fut: Future) -> None:
            try:
                value = fut.wait()
            except BaseException as exc:
                step(None, exc)
                return
            step(value, None)

        step(None, None)
        return done
