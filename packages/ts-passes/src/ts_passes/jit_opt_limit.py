"""The optimization limiter, as PyTorch's `PYTORCH_JIT_OPT_LIMIT`, named `TS_JIT_OPT_LIMIT`.

    TS_JIT_OPT_LIMIT="constant_propagation=3:dead_code_elimination=5"

Each pass asks `opt_limit_allows(file)` before every rewrite; once a pass
file has made its limit of rewrites, it is told no, so bisecting a
miscompile comes down to lowering one number. Counts are per process, as in
PyTorch, and start over when the variable's value changes (or on
`reset_opt_limit_counters()`). Passes not named are unlimited. The variable
is read when asked, not at import.
"""

from __future__ import annotations

import os
import threading

ENV_OPT_LIMIT = "TS_JIT_OPT_LIMIT"

_lock = threading.Lock()
_state: dict[str, object] = {"raw": None, "limits": {}, "counts": {}}


def parse_opt_limits(spec: str) -> dict[str, int]:
    """`"a=3:b=5"` → `{"a": 3, "b": 5}`; entries without a number are ignored."""
    limits: dict[str, int] = {}
    for entry in spec.split(":"):
        name, eq, number = entry.partition("=")
        name = name.strip().removesuffix(".py")
        if not (name and eq):
            continue
        try:
            limits[name] = int(number.strip())
        except ValueError:
            continue
    return limits


def opt_limit_allows(file: str) -> bool:
    """Whether pass file `file` may make one more rewrite; counts it if so."""
    raw = os.environ.get(ENV_OPT_LIMIT)
    if not raw and _state["raw"] is None:
        return True
    with _lock:
        if raw != _state["raw"]:
            _state["raw"] = raw
            _state["limits"] = parse_opt_limits(raw) if raw else {}
            _state["counts"] = {}
        limits: dict[str, int] = _state["limits"]  # type: ignore[assignment]
        limit = limits.get(file)
        if limit is None:
            return True
        counts: dict[str, int] = _state["counts"]  # type: ignore[assignment]
        done = counts.get(file, 0)
        if done >= limit:
            return False
        counts[file] = done + 1
        return True


def reset_opt_limit_counters() -> None:
    """Forget how many rewrites each pass has made."""
    with _lock:
        _state["counts"] = {}
