"""`tsjit.nn`: ts-runtime's modules (`Module`, `Linear`, `Sequential`, ...)."""

from __future__ import annotations

from typing import Any

import ts_runtime.nn as _nn

from . import functional


def __getattr__(name: str) -> Any:
    try:
        return getattr(_nn, name)
    except AttributeError:
        raise AttributeError(f"module 'tsjit.nn' has no attribute {name!r}") from None


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(dir(_nn)))


__all__ = ["functional"]
