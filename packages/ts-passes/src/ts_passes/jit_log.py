"""JIT logging, as PyTorch's `PYTORCH_JIT_LOG_LEVEL`, named `TS_JIT_LOG_LEVEL`.

The variable is a `:`-separated list of pass file names (the module name,
`dead_code_elimination`), each with `>` prefixes for more detail:

    TS_JIT_LOG_LEVEL="dead_code_elimination"          GRAPH_DUMP: graphs before and after
    TS_JIT_LOG_LEVEL=">constant_propagation"          also GRAPH_UPDATE: every rewrite
    TS_JIT_LOG_LEVEL=">>alias_analysis:peephole"      also GRAPH_DEBUG: internals

Messages go to the standard `logging` logger `ts_passes.<file>` at INFO
(DUMP, UPDATE) or DEBUG (GRAPH_DEBUG) level, prefixed `[DUMP file]`,
`[UPDATE file]`, `[DEBUG file]`. The variable is read when a pass logs, not
at import; when it enables something and nobody configured logging, a
stderr handler is installed on the `ts_passes` logger, so the messages show
as PyTorch's do. Building a message costs nothing when it is disabled:
pass a callable (or `%`-style arguments) for anything expensive.
"""

from __future__ import annotations

import enum
import logging
import os
from collections.abc import Callable
from typing import Any

from .jit_opt_limit import opt_limit_allows

ENV_LOG_LEVEL = "TS_JIT_LOG_LEVEL"


class LogLevel(enum.IntEnum):
    """How much a pass says: each level includes the ones before it."""

    GRAPH_DUMP = 1
    GRAPH_UPDATE = 2
    GRAPH_DEBUG = 3


_TAGS = {
    LogLevel.GRAPH_DUMP: "DUMP",
    LogLevel.GRAPH_UPDATE: "UPDATE",
    LogLevel.GRAPH_DEBUG: "DEBUG",
}
_parsed: tuple[str | None, dict[str, LogLevel]] = (None, {})
_handler_installed = False


def parse_log_levels(spec: str) -> dict[str, LogLevel]:
    """`">>a:b"` → `{"a": GRAPH_DEBUG, "b": GRAPH_DUMP}`; names may carry a `.py` suffix."""
    levels: dict[str, LogLevel] = {}
    for entry in spec.split(":"):
        entry = entry.strip()
        if not entry:
            continue
        depth = len(entry) - len(entry.lstrip(">"))
        name = entry[depth:].strip().removesuffix(".py")
        if name:
            levels[name] = LogLevel(min(depth + 1, LogLevel.GRAPH_DEBUG))
    return levels


def _levels() -> dict[str, LogLevel]:
    global _parsed
    raw = os.environ.get(ENV_LOG_LEVEL)
    if raw != _parsed[0]:
        _parsed = (raw, parse_log_levels(raw) if raw else {})
    return _parsed[1]


def is_enabled(file: str, level: LogLevel) -> bool:
    """Whether `TS_JIT_LOG_LEVEL` asks for messages of `level` from pass file `file`."""
    wanted = _levels().get(file)
    return wanted is not None and level <= wanted


def _ensure_handler() -> None:
    global _handler_installed
    if _handler_installed:
        return
    _handler_installed = True
    root_logger = logging.getLogger("ts_passes")
    if not root_logger.handlers and not logging.getLogger().handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(message)s"))
        root_logger.addHandler(handler)
    if root_logger.level == logging.NOTSET or root_logger.level > logging.DEBUG:
        root_logger.setLevel(logging.DEBUG)


class PassLogger:
    """The logging and the optimization limit of one pass file.

    log = PassLogger(__name__)            # file name: the module's last component
    log.dump("before", graph)              # GRAPH_DUMP
    log.update("folded %s", node)          # GRAPH_UPDATE
    if log.allowed(): rewrite(...)         # TS_JIT_OPT_LIMIT
    """

    __slots__ = ("file", "logger")

    def __init__(self, module_name: str) -> None:
        self.file = module_name.rpartition(".")[2]
        self.logger = logging.getLogger(module_name)

    def enabled(self, level: LogLevel) -> bool:
        return is_enabled(self.file, level)

    def _emit(
        self, level: LogLevel, message: str | Callable[[], str], args: tuple[Any, ...]
    ) -> None:
        if not is_enabled(self.file, level):
            return
        _ensure_handler()
        text = message() if callable(message) else (message % args if args else message)
        py_level = logging.DEBUG if level is LogLevel.GRAPH_DEBUG else logging.INFO
        self.logger.log(py_level, "[%s %s] %s", _TAGS[level], self.file, text)

    def dump(self, message: str | Callable[[], str], graph: Any = None) -> None:
        """GRAPH_DUMP: a message followed by a graph's text."""
        if not is_enabled(self.file, LogLevel.GRAPH_DUMP):
            return
        text = message() if callable(message) else message
        self._emit(LogLevel.GRAPH_DUMP, f"{text}\n{graph}" if graph is not None else text, ())

    def update(self, message: str | Callable[[], str], *args: Any) -> None:
        """GRAPH_UPDATE: one rewrite."""
        self._emit(LogLevel.GRAPH_UPDATE, message, args)

    def debug(self, message: str | Callable[[], str], *args: Any) -> None:
        """GRAPH_DEBUG: internals of a pass."""
        self._emit(LogLevel.GRAPH_DEBUG, message, args)

    def allowed(self) -> bool:
        """Whether `TS_JIT_OPT_LIMIT` lets this pass make one more rewrite (and count it)."""
        return opt_limit_allows(self.file)
