"""`load`: one entry point for tsjit archives and TorchScript's `.pt` zip archives."""

from __future__ import annotations

from typing import Any

from ts_ir import Device, TorchScriptError

from . import container
from .container import DEFAULT_LIMITS, ArchiveData, Limits
from .errors import ArchiveError
from .reader import ArchiveReader

ZIP_MAGIC = b"PK\x03\x04"


class LoadArgumentError(TorchScriptError, ValueError):
    """`load()` was called with an option it cannot honour (a `map_location` other than the CPU)."""


def _check_map_location(map_location: Any) -> None:
    if map_location is None:
        return
    try:
        device = Device(map_location) if not isinstance(map_location, Device) else map_location
    except (TypeError, ValueError):
        raise LoadArgumentError(
            f"map_location must be a device or a device name, not {map_location!r}"
        ) from None
    if str(device) != "cpu":
        raise LoadArgumentError(
            f"map_location={str(device)!r} is not supported: tsjit loads tensors to the CPU"
        )


def extra_file_names(f: Any, *, limits: Limits = DEFAULT_LIMITS) -> list[str]:
    """The names of the extra files an archive (tsjit or TorchScript) holds; loads nothing else."""
    buf, name = container.open_buffer(f)
    try:
        if bytes(buf[:4]) == ZIP_MAGIC:
            from .torch_archive.loader import TorchArchive

            archive = TorchArchive(buf, limits=limits)
            start = archive.prefix + "extra/"
            return [n[len(start) :] for n in archive.zip.names() if n.startswith(start)]
        entries = ArchiveData(buf, limits=limits).header.get("extra_files", [])
        if not isinstance(entries, list):
            raise ArchiveError("the extra file table is not a list", "header.extra_files")
        return [e[0] for e in entries if isinstance(e, list) and e and isinstance(e[0], str)]
    except ArchiveError as exc:
        raise exc.located(name) from None


def load(
    f: Any,
    *,
    map_location: Any = None,
    extra_files: dict[str, Any] | None = None,
    limits: Limits = DEFAULT_LIMITS,
    optimize: bool | None = None,
    _extra_files: dict[str, Any] | None = None,
) -> Any:
    """Load a tsjit archive or a TorchScript `.pt` archive from a path or a binary file.

    A module archive gives a `ScriptModule`, a function archive a function, a
    value archive the saved tensors and containers. `extra_files` maps names
    to fill in: each gets its content as bytes (`b""` when the archive has no
    such file), as `torch.jit.load(_extra_files=...)` does.
    """
    _check_map_location(map_location)
    if extra_files is None:
        extra_files = _extra_files
    buf, name = container.open_buffer(f)
    try:
        if bytes(buf[:4]) == ZIP_MAGIC:
            from .torch_archive import load_torch_archive

            return load_torch_archive(
                buf, extra_files=extra_files, limits=limits, optimize=optimize
            )
        data = ArchiveData(buf, limits=limits)
        return ArchiveReader(data, optimize=optimize).load(extra_files)
    except ArchiveError as exc:
        raise exc.located(name) from None
