"""Whether operators record autograd history: `no_grad`, `enable_grad`, `set_grad_enabled`.

The flag is per thread, as in PyTorch: `GRAD_MODE.enabled`, read on the hot
path of every operator (a `threading.local` attribute read is cheap).
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


class _GradMode(threading.local):
    enabled = True


GRAD_MODE = _GradMode()


def is_grad_enabled() -> bool:
    return GRAD_MODE.enabled


class _Mode:
    """Base of the context managers/decorators; `mode` is the flag inside the block."""

    mode = True

    def __enter__(self) -> None:
        self.prev = GRAD_MODE.enabled
        GRAD_MODE.enabled = self.mode

    def __exit__(self, *exc: object) -> None:
        GRAD_MODE.enabled = self.prev

    def __call__(self, fn: F) -> F:
        mode = self.mode

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            prev = GRAD_MODE.enabled
            GRAD_MODE.enabled = mode
            try:
                return fn(*args, **kwargs)
            finally:
                GRAD_MODE.enabled = prev

        return wrapper  # type: ignore[return-value]


class no_grad(_Mode):
    """Disable gradient recording inside the block (or decorated function)."""

    mode = False


class enable_grad(_Mode):
    """Enable gradient recording inside the block (or decorated function)."""

    mode = True


class inference_mode(no_grad):
    """Same as `no_grad` in this runtime."""


class set_grad_enabled(_Mode):
    """Set the flag now (as a call) or for a block (as a context manager)."""

    def __init__(self, mode: bool) -> None:
        self.mode = bool(mode)
        self.prev = GRAD_MODE.enabled
        GRAD_MODE.enabled = self.mode

    def __enter__(self) -> None:
        pass
