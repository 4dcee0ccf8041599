"""What every launch needs: the current driver, the index width, grid-stride launch shapes."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ts_runtime.devices import DeviceUnavailableError

from .codegen import THREADS, Entry, module_source
from .driver import Driver, Module, current_driver, unavailable_reason

#: Indices are 32-bit when every element and offset of a launch stays this far below 2^31
#: (a grid-stride loop steps past the last element by up to a grid's worth of threads).
INDEX_HEADROOM = 1 << 25


def driver() -> Driver:
    """The driver in use; `DeviceUnavailableError` (with the reason) when there is none."""
    d = current_driver()
    if d is None:
        raise DeviceUnavailableError(f"CUDA is not available: {unavailable_reason()}")
    return d


def index_bits(numel: int, extents: Sequence[int] = ()) -> int:
    """32 when the element count and every operand's reach (in elements) fit in an int with
    headroom for the grid-stride step, else 64."""
    limit = (1 << 31) - INDEX_HEADROOM
    if numel < limit and all(abs(e) < limit for e in extents):
        return 32
    return 64


def reach(sizes: Sequence[int], strides: Sequence[int]) -> int:
    """The largest offset (in elements) an operand with these sizes and strides reads."""
    return sum((s - 1) * abs(st) for s, st in zip(sizes, strides, strict=True) if s > 0)


def grid_stride(
    module: Module, name: str, work: int, args: Sequence[Any], threads: int = THREADS
) -> None:
    """Launch a grid-stride kernel over `work` items (nothing for none)."""
    if work <= 0:
        return
    grid, block = module.driver.launch_shape(work, threads)
    module.launch(name, grid, block, args)


class SourceCache:
    """Generated modules by what they depend on, so a source is written once per process."""

    def __init__(self, make: Callable[..., tuple[str, list[Entry]]]) -> None:
        self.make = make
        self._sources: dict[Any, tuple[str, list[Entry]]] = {}

    def module(self, d: Driver, key: Any) -> Module:
        made = self._sources.get(key)
        if made is None:
            body, entries = self.make(*key)
            made = self._sources[key] = (module_source([body]), entries)
        return d.module(*made)

    def sources(self, key: Any) -> tuple[str, list[Entry]]:
        """The kernel body and entries for `key` (for the compile checks)."""
        return self.make(*key)
