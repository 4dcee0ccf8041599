"""Discovery of third-party operator packages through entry points.

A package that provides operators in namespace `my_ns` declares

    [project.entry-points."ts.operators"]
    my_ns = "my_package.operators"

and registers its operators when that module is imported. The registry
imports it the first time a lookup misses the namespace, so a program that
uses `my_ns::magic` runs without the user importing anything by hand. Each
entry point is imported at most once.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from ts_ir import TorchScriptError

GROUP = "ts.operators"

logger = logging.getLogger(__name__)


class EntryPointLike(Protocol):
    name: str
    value: str

    def load(self) -> Any: ...


class DiscoveryError(TorchScriptError):
    """An operator package's entry point could not be imported."""


def installed_entry_points(group: str = GROUP) -> list[EntryPointLike]:
    """The entry points of `group` in the installed distributions. O(installed packages)."""
    import importlib.metadata  # imported when first needed: it is slow to import

    return list(importlib.metadata.entry_points(group=group))


class EntryPointDiscovery:
    """Imports the modules that provide a namespace, once each.

    `entry_points` supplies the entry points (by default, those installed in
    group `ts.operators`); it is called once, when first needed, and again
    after `refresh()`.
    """

    def __init__(
        self,
        entry_points: Callable[[], Iterable[EntryPointLike]] | None = None,
        *,
        group: str = GROUP,
    ) -> None:
        self.group = group
        self._source = entry_points or (lambda: installed_entry_points(group))
        self._entry_points: list[EntryPointLike] | None = None
        self._loaded: set[tuple[str, str]] = set()
        self._lock = threading.RLock()

    def entry_points(self) -> list[EntryPointLike]:
        if self._entry_points is None:
            self._entry_points = list(self._source())
        return self._entry_points

    def namespaces(self) -> set[str]:
        """The namespaces installed packages say they provide."""
        return {ep.name for ep in self.entry_points()}

    def load_namespace(self, namespace: str) -> bool:
        """Import every not yet imported entry point for `namespace`; True if any was imported."""
        loaded_any = False
        with self._lock:
            for ep in self.entry_points():
                ident = (ep.name, ep.value)
                if ep.name != namespace or ident in self._loaded:
                    continue
                self._loaded.add(ident)
                logger.debug("importing %s for operator namespace %r", ep.value, namespace)
                try:
                    ep.load()
                except Exception as e:
                    raise DiscoveryError(
                        f"importing {ep.value!r}, which provides operator namespace "
                        f"'{namespace}' (entry point group '{self.group}'), failed: {e}"
                    ) from e
                loaded_any = True
        return loaded_any

    def refresh(self) -> None:
        """Forget the entry point list (not what was imported), e.g. after installing a package."""
        self._entry_points = None
