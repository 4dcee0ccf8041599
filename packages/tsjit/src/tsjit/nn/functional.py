"""`tsjit.nn.functional`: ts-runtime's functional operations."""

from __future__ import annotations

from typing import Any

import ts_runtime.nn.functional as _functional


def __getattr__(name: str) -> Any:
    try:
        return getattr(_functional, name)
    except AttributeError:
        raise AttributeError(f"module 'tsjit.nn.functional' has no attribute {name!r}") from None


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(dir(_functional)))
