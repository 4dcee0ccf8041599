"""The archive file: a fixed preamble, a msgpack header, and aligned raw data.

    offset  size  field
    0       8     magic  b"TSJITAR\\0"
    8       4     format version (little-endian u32)
    12      4     CRC-32 of the header bytes
    16      8     header length H (u64)
    24      8     data offset D (u64), a multiple of 64, at least 32 + H
    32      H     header: one msgpack map (see docs/serialization.md)
    32 + H  ...   zero padding up to D
    D       ...   data: the blobs (tensor storages, extra files), each at a multiple of
                  64 bytes from D, as the header's `blobs` table [[offset, length], ...]
                  says; the data runs to the end of the file

Every number is checked against the file's size before anything is read or
allocated; the header is read through `msgpack_io` (structure and nesting
checked before decoding). A file is memory-mapped copy-on-write, so blobs are
handed out as writable views that share the file's pages until written.
"""

from __future__ import annotations

import mmap
import os
import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import IO, Any

from . import msgpack_io
from .errors import ArchiveError, SaveError

MAGIC = b"TSJITAR\x00"
FORMAT_VERSION = 1
ALIGNMENT = 64
PREAMBLE = struct.Struct("<8sIIQQ")
assert PREAMBLE.size == 32


@dataclass(frozen=True)
class Limits:
    """Bounds a loader enforces on an archive, whatever the archive declares."""

    #: deepest nesting of msgpack containers in the header (values nest inside records)
    max_header_depth: int = 40
    #: deepest nesting of a saved value (lists of tuples of dicts ...)
    max_value_depth: int = 32
    #: the largest header read (the header holds code and records, not tensor data)
    max_header_bytes: int = 1 << 30
    #: the longest source text of one class or function
    max_source_bytes: int = 64 << 20
    #: the most dimensions a tensor may have (PyTorch's own limit is 64)
    max_tensor_rank: int = 64


DEFAULT_LIMITS = Limits()


def align(n: int) -> int:
    return (n + ALIGNMENT - 1) // ALIGNMENT * ALIGNMENT


# -- writing


def write_archive(f: IO[bytes], header: dict[str, Any], blobs: Sequence[Any]) -> None:
    """Write `header` (its `blobs` table filled in here) and the blobs (buffer objects)."""
    table = []
    offset = 0
    views = []
    for b in blobs:
        view = memoryview(b).cast("B")
        table.append([offset, view.nbytes])
        views.append(view)
        offset = align(offset + view.nbytes)
    header = dict(header, blobs=table)
    try:
        header_bytes = msgpack_io.pack(header)
    except (TypeError, ValueError, OverflowError) as exc:
        raise SaveError(f"the archive header cannot be written as msgpack: {exc}") from None
    data_offset = align(PREAMBLE.size + len(header_bytes))
    f.write(
        PREAMBLE.pack(
            MAGIC, FORMAT_VERSION, zlib.crc32(header_bytes), len(header_bytes), data_offset
        )
    )
    f.write(header_bytes)
    f.write(b"\0" * (data_offset - PREAMBLE.size - len(header_bytes)))
    written = 0
    for (start, _), view in zip(table, views, strict=True):
        f.write(b"\0" * (start - written))
        f.write(view)
        written = start + view.nbytes


# -- reading


def open_buffer(f: Any) -> tuple[Any, str]:
    """The archive's bytes as a writable buffer, and a name for messages.

    A path is memory-mapped copy-on-write; a file object is read into memory.
    """
    if isinstance(f, (str, os.PathLike)):
        name = os.fspath(f)
        try:
            with open(name, "rb") as fh:
                size = os.fstat(fh.fileno()).st_size
                if size == 0:
                    raise ArchiveError("the file is empty", path=name)
                return mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_COPY), name
        except OSError as exc:
            raise ArchiveError(
                f"cannot read the archive: {exc.strerror or exc}", path=name
            ) from None
    if isinstance(f, (bytes, bytearray, memoryview)):
        return bytearray(f), "<bytes>"
    name = getattr(f, "name", None)
    name = name if isinstance(name, str) else "<file object>"
    if not hasattr(f, "read"):
        raise TypeError(f"load() expects a path or a binary file object, not {type(f).__name__}")
    data = f.read()
    if isinstance(data, str):
        raise TypeError("load() needs a file opened in binary mode ('rb')")
    return bytearray(data), name


def is_archive(buf: Any) -> bool:
    return len(buf) >= len(MAGIC) and bytes(buf[: len(MAGIC)]) == MAGIC


class ArchiveData:
    """A validated archive in memory: its header and bounds-checked views of its blobs."""

    def __init__(self, buf: Any, *, limits: Limits = DEFAULT_LIMITS) -> None:
        self.buf = buf
        self.limits = limits
        size = len(buf)
        if size < PREAMBLE.size:
            raise ArchiveError(
                f"the file is {size} bytes, shorter than the {PREAMBLE.size}-byte preamble",
                "preamble",
            )
        magic, version, crc, header_len, data_offset = PREAMBLE.unpack_from(buf, 0)
        if magic != MAGIC:
            raise ArchiveError("the file is not a tsjit archive (wrong magic bytes)", "byte 0")
        if version > FORMAT_VERSION or version == 0:
            raise ArchiveError(
                f"archive format version {version} is not supported (this tsjit reads "
                f"version {FORMAT_VERSION})",
                "byte 8",
            )
        if header_len > limits.max_header_bytes:
            raise ArchiveError(
                f"the header declares {header_len} bytes, more than the limit of "
                f"{limits.max_header_bytes}",
                "byte 16",
            )
        if PREAMBLE.size + header_len > size:
            raise ArchiveError(
                f"the header declares {header_len} bytes but the file has only "
                f"{size - PREAMBLE.size} after the preamble (truncated?)",
                "byte 16",
            )
        if (
            data_offset % ALIGNMENT
            or data_offset < PREAMBLE.size + header_len
            or data_offset > size
        ):
            raise ArchiveError(
                f"the data offset {data_offset} is not a multiple of {ALIGNMENT} between the "
                f"end of the header ({PREAMBLE.size + header_len}) and the end of the file ({size})",
                "byte 24",
            )
        header_view = memoryview(buf)[PREAMBLE.size : PREAMBLE.size + header_len]
        if zlib.crc32(header_view) != crc:
            raise ArchiveError(
                "the header's checksum does not match (the file is corrupt)", "header"
            )
        self.data_offset = data_offset
        self.data_length = size - data_offset
        header = msgpack_io.unpack(header_view, max_depth=limits.max_header_depth, where="header")
        if not isinstance(header, dict):
            raise ArchiveError("the header is not a map", "header")
        self.header: dict[str, Any] = header
        self.blobs = self._blob_table(header.get("blobs"))

    def _blob_table(self, table: Any) -> list[tuple[int, int]]:
        if not isinstance(table, list):
            raise ArchiveError("the blob table is missing or not a list", "header.blobs")
        out = []
        for i, entry in enumerate(table):
            where = f"header.blobs[{i}]"
            if (
                not isinstance(entry, list)
                or len(entry) != 2
                or not all(type(x) is int and x >= 0 for x in entry)
            ):
                raise ArchiveError("a blob entry is not [offset, length]", where)
            start, length = entry
            if start % ALIGNMENT:
                raise ArchiveError(f"blob offset {start} is not a multiple of {ALIGNMENT}", where)
            if start + length > self.data_length:
                raise ArchiveError(
                    f"blob [{start}, {start + length}) runs past the end of the data section "
                    f"({self.data_length} bytes; truncated?)",
                    where,
                )
            out.append((start, length))
        return out

    def blob(self, index: Any, where: str) -> memoryview:
        """A view of blob `index` (checked against the table, itself checked against the file)."""
        if type(index) is not int or not 0 <= index < len(self.blobs):
            raise ArchiveError(f"blob index {index!r} is not in the blob table", where)
        start, length = self.blobs[index]
        begin = self.data_offset + start
        return memoryview(self.buf)[begin : begin + length]
