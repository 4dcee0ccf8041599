"""A progress line for long compilations, shown on a terminal only.

    with compiling("execution plan for forward"):
        for name in pipeline:
            stage(name)                  # what the line shows as the current step
            ...

Work that ends within `DELAY` seconds shows nothing; so does work whose
standard error is not a terminal (piped output, logs, tests), or any work
with `TS_JIT_PROGRESS=0`. Past the delay a background thread writes one
line to standard error, `compiling execution plan for forward: fuse_graph
(2.4 s)`, updates it while the work goes on (a blocking call into LLVM
included) and erases it when the work ends. Nested work shows the innermost
task. The executor's plan compiles and the fusion kernel compiles use it;
without a terminal it costs one `isatty` call per compile.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

#: Seconds a compilation runs before its progress line appears.
DELAY = 1.0
#: Seconds between updates of the line.
INTERVAL = 0.2
ENV_PROGRESS = "TS_JIT_PROGRESS"

_lock = threading.Lock()
_active: list[_Task] = []  # innermost last


class _Task:
    __slots__ = ("label", "shown", "stage", "start", "stream", "thread")

    def __init__(self, label: str, stream: TextIO) -> None:
        self.label = label
        self.thread = threading.get_ident()
        self.stage = ""
        self.stream = stream
        self.start = time.monotonic()
        self.shown = 0  # the width of what is on screen now

    def line(self) -> str:
        stage = f": {self.stage}" if self.stage else ""
        return f"compiling {self.label}{stage} ({time.monotonic() - self.start:.1f} s)"

    def draw(self) -> None:
        text = self.line()
        pad = " " * max(0, self.shown - len(text))
        self.stream.write(f"\r{text}{pad}")
        self.stream.flush()
        self.shown = len(text)

    def erase(self) -> None:
        if self.shown:
            self.stream.write("\r" + " " * self.shown + "\r")
            self.stream.flush()
            self.shown = 0


def _wanted(stream: TextIO) -> bool:
    if os.environ.get(ENV_PROGRESS, "").strip() == "0":
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except (OSError, ValueError):  # a closed or detached stream
        return False


def _report(task: _Task, done: threading.Event) -> None:
    if done.wait(DELAY):
        return
    while True:
        with _lock:
            if _active and _active[-1] is task:
                task.draw()
        if done.wait(INTERVAL):
            return


@contextmanager
def compiling(label: str) -> Iterator[None]:
    """Show a progress line for the work inside the block, if it takes longer than `DELAY`
    on a terminal (see the module docstring)."""
    stream = sys.stderr
    if not _wanted(stream):
        yield
        return
    task = _Task(label, stream)
    done = threading.Event()
    with _lock:
        outer = _active[-1] if _active else None
        if outer is not None:
            outer.erase()
        _active.append(task)
    reporter = threading.Thread(target=_report, args=(task, done), daemon=True)
    reporter.start()
    try:
        yield
    finally:
        done.set()
        reporter.join()
        with _lock:
            _active.remove(task)
            task.erase()


def stage(name: str) -> None:
    """Name the step this thread's innermost compilation is at (nothing when none is shown)."""
    if _active:
        me = threading.get_ident()
        for task in reversed(_active):
            if task.thread == me:
                task.stage = name
                return
