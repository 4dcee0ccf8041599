"""The progress line of long compilations: on a terminal only, after a delay, erased at the end."""

from __future__ import annotations

import io
import sys
import threading
import time

import pytest
from ts_passes import progress


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def terminal(monkeypatch):
    """A terminal as standard error: patched in the test's own body (`with terminal:`), as
    pytest sets sys.stderr again between a fixture's setup and the test."""
    monkeypatch.setattr(progress, "DELAY", 0.05)
    monkeypatch.setattr(progress, "INTERVAL", 0.01)
    monkeypatch.delenv(progress.ENV_PROGRESS, raising=False)
    return OnTerminal()


class OnTerminal(FakeTerminal):
    def __enter__(self) -> OnTerminal:
        self.saved = sys.stderr
        sys.stderr = self
        return self

    def __exit__(self, *exc) -> None:
        sys.stderr = self.saved


def frames(stream: io.StringIO) -> list[str]:
    """What the line showed, update by update (each starts with a carriage return)."""
    return [f.strip() for f in stream.getvalue().split("\r") if f.strip()]


def screen(stream: io.StringIO) -> str:
    """What the line shows at the end (after the last carriage return)."""
    return stream.getvalue().rpartition("\r")[2]


def test_quick_work_shows_nothing(terminal):
    with terminal, progress.compiling("plan for f"):
        progress.stage("dce")
    assert terminal.getvalue() == ""


def test_slow_work_shows_its_stage_and_time_then_erases_the_line(terminal):
    with terminal, progress.compiling("plan for f"):
        progress.stage("fuse_graph")
        time.sleep(0.2)
        progress.stage("interpreter code")
        time.sleep(0.1)
    shown = frames(terminal)
    assert shown[0].startswith("compiling plan for f: fuse_graph (0.")
    assert shown[-1].startswith("compiling plan for f: interpreter code (0.")
    assert all(f.endswith(" s)") for f in shown)
    assert screen(terminal) == ""  # erased


def test_nothing_is_shown_off_a_terminal_or_when_switched_off(terminal, monkeypatch):
    piped = io.StringIO()
    saved, sys.stderr = sys.stderr, piped
    try:
        with progress.compiling("plan for f"):
            time.sleep(0.15)
    finally:
        sys.stderr = saved
    assert piped.getvalue() == ""
    monkeypatch.setenv(progress.ENV_PROGRESS, "0")
    with terminal, progress.compiling("plan for f"):
        time.sleep(0.15)
    assert terminal.getvalue() == ""


def test_nested_work_shows_the_innermost_task(terminal):
    with terminal, progress.compiling("plan for f"):
        time.sleep(0.12)
        with progress.compiling("FusionGroup_0 for cpu"):
            time.sleep(0.15)
            during = screen(terminal)
        after_inner = len(terminal.getvalue())
        time.sleep(0.1)
    assert during.startswith("compiling FusionGroup_0 for cpu (")
    assert "compiling plan for f" in terminal.getvalue()[after_inner:]  # the outer one again
    assert screen(terminal) == ""


def test_a_stage_names_the_task_of_its_own_thread(terminal):
    other_started = threading.Event()
    release = threading.Event()

    def other() -> None:
        with progress.compiling("plan for g"):
            other_started.set()
            release.wait(5)

    thread = threading.Thread(target=other)
    with terminal, progress.compiling("plan for f"):
        thread.start()
        other_started.wait(5)
        progress.stage("peephole")  # this thread's task, though g's is innermost
        time.sleep(0.15)
        release.set()
        thread.join()
        time.sleep(0.1)
    assert not any("plan for g: peephole" in f for f in frames(terminal))
    assert any(f.startswith("compiling plan for f: peephole") for f in frames(terminal))
