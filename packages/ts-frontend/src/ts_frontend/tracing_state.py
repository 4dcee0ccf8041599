"""The tracing state of the current thread, where the scripting API can see it.

`tracer` sets it while a function is traced; `jit_api` (`fork`, `is_tracing`)
and calls of compiled functions read it, without depending on the tracer.
"""

from __future__ import annotations

import threading
from typing import Any

_STATE = threading.local()


def current_tracing_state() -> Any:
    """The `tracer.TracingState` recording on this thread, or None."""
    return getattr(_STATE, "state", None)
