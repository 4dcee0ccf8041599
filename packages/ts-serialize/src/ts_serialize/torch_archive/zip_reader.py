"""A small, strict zip reader for TorchScript archives.

`torch.jit.save` writes an ordinary zip file: tensor storages stored
uncompressed (and aligned to 64 bytes, so they can be mapped), code and
pickles usually deflated. This reader finds the central directory (ZIP64
included), checks every entry's offsets and sizes against the file before
reading anything, and hands out stored entries as views of the buffer
(no copy) and deflated ones decompressed with a bound: never more than the
entry declares, never more than `max_inflated` bytes for one entry, and the
CRC-32 must match. Encrypted, split and other-method entries are refused.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass
from typing import Any

from ..errors import ArchiveError, UnsupportedArchiveError

_EOCD = struct.Struct("<4sHHHHIIH")  # end of central directory record (22 bytes)
_EOCD64_LOCATOR = struct.Struct("<4sIQI")  # 20 bytes
_EOCD64 = struct.Struct("<4sQHHIIQQQQ")  # 56 bytes
_CENTRAL = struct.Struct("<4sHHHHHHIIIHHHHHII")  # 46 bytes
_LOCAL = struct.Struct("<4sHHHHHIIIHH")  # 30 bytes
_MAX_COMMENT = 0xFFFF
STORED = 0
DEFLATED = 8


@dataclass(frozen=True)
class ZipEntry:
    name: str
    method: int
    flags: int
    crc: int
    compressed_size: int
    size: int
    header_offset: int


class ZipArchive:
    """The entries of a zip file held in `buf` (bytes, bytearray or mmap)."""

    def __init__(self, buf: Any, *, max_entries: int = 1 << 20) -> None:
        self.buf = buf
        self.size = len(buf)
        self.entries: dict[str, ZipEntry] = {}
        cd_offset, cd_size, count = self._find_directory()
        if count > max_entries:
            raise ArchiveError(f"the zip directory declares {count} entries", "zip directory")
        self._read_directory(cd_offset, cd_size, count)

    # -- the directory

    def _find_directory(self) -> tuple[int, int, int]:
        size = self.size
        if size < _EOCD.size:
            raise ArchiveError(f"the file is {size} bytes, too short for a zip archive", "zip end")
        start = max(0, size - _EOCD.size - _MAX_COMMENT)
        tail = bytes(self.buf[start:size])
        pos = tail.rfind(b"PK\x05\x06")
        while pos >= 0 and pos + _EOCD.size > len(tail):
            pos = tail.rfind(b"PK\x05\x06", 0, pos)
        if pos < 0:
            raise ArchiveError("no zip end-of-directory record (truncated?)", "zip end")
        eocd_at = start + pos
        (_sig, disk, cd_disk, _n_disk, count, cd_size, cd_offset, _clen) = _EOCD.unpack_from(
            tail, pos
        )
        if disk != 0 or cd_disk != 0:
            raise UnsupportedArchiveError(
                "split (multi-disk) zip archives are not supported", "zip end"
            )
        if count == 0xFFFF or cd_size == 0xFFFFFFFF or cd_offset == 0xFFFFFFFF:
            count, cd_size, cd_offset = self._zip64_directory(eocd_at)
        if cd_offset + cd_size > self.size:
            raise ArchiveError(
                f"the zip directory [{cd_offset}, {cd_offset + cd_size}) runs past the end of "
                f"the file ({self.size} bytes; truncated?)",
                f"byte {eocd_at}",
            )
        if count * _CENTRAL.size > cd_size:
            raise ArchiveError(
                f"{count} directory entries cannot fit in {cd_size} bytes", f"byte {eocd_at}"
            )
        return cd_offset, cd_size, count

    def _zip64_directory(self, eocd_at: int) -> tuple[int, int, int]:
        at = eocd_at - _EOCD64_LOCATOR.size
        if at < 0:
            raise ArchiveError("the ZIP64 locator is missing", f"byte {eocd_at}")
        sig, _disk, record_at, _disks = _EOCD64_LOCATOR.unpack_from(self.buf, at)
        if sig != b"PK\x06\x07":
            raise ArchiveError("the ZIP64 locator is missing", f"byte {at}")
        if record_at + _EOCD64.size > self.size:
            raise ArchiveError(
                "the ZIP64 directory record is past the end of the file", f"byte {at}"
            )
        (sig, _rsize, _v1, _v2, _d1, _d2, _n_disk, count, cd_size, cd_offset) = _EOCD64.unpack_from(
            self.buf, record_at
        )
        if sig != b"PK\x06\x06":
            raise ArchiveError("the ZIP64 directory record is damaged", f"byte {record_at}")
        return count, cd_size, cd_offset

    def _read_directory(self, offset: int, size: int, count: int) -> None:
        end = offset + size
        pos = offset
        for i in range(count):
            where = f"zip directory entry {i} (byte {pos})"
            if pos + _CENTRAL.size > end:
                raise ArchiveError("the zip directory ends in the middle of an entry", where)
            (
                sig,
                _made_by,
                _needed,
                flags,
                method,
                _time,
                _date,
                crc,
                csize,
                usize,
                name_len,
                extra_len,
                comment_len,
                _disk,
                _iattr,
                _eattr,
                header_offset,
            ) = _CENTRAL.unpack_from(self.buf, pos)
            if sig != b"PK\x01\x02":
                raise ArchiveError("a zip directory entry has a bad signature", where)
            name_at = pos + _CENTRAL.size
            extra_at = name_at + name_len
            next_pos = extra_at + extra_len + comment_len
            if next_pos > end:
                raise ArchiveError("a zip directory entry runs past the directory", where)
            try:
                name = bytes(self.buf[name_at:extra_at]).decode("utf-8")
            except UnicodeDecodeError:
                raise ArchiveError("a zip entry's name is not UTF-8", where) from None
            if 0xFFFFFFFF in (csize, usize, header_offset):
                usize, csize, header_offset = self._zip64_extra(
                    bytes(self.buf[extra_at : extra_at + extra_len]),
                    usize,
                    csize,
                    header_offset,
                    where,
                )
            if flags & 0x1:
                raise UnsupportedArchiveError(f"zip entry '{name}' is encrypted", where)
            if name in self.entries:
                raise ArchiveError(f"zip entry '{name}' appears twice", where)
            self.entries[name] = ZipEntry(name, method, flags, crc, csize, usize, header_offset)
            pos = next_pos

    @staticmethod
    def _zip64_extra(
        extra: bytes, usize: int, csize: int, offset: int, where: str
    ) -> tuple[int, int, int]:
        pos = 0
        while pos + 4 <= len(extra):
            tag, length = struct.unpack_from("<HH", extra, pos)
            body = extra[pos + 4 : pos + 4 + length]
            if tag == 0x0001:
                values = []
                for k in range(0, len(body) - 7, 8):
                    values.append(struct.unpack_from("<Q", body, k)[0])
                it = iter(values)
                try:
                    if usize == 0xFFFFFFFF:
                        usize = next(it)
                    if csize == 0xFFFFFFFF:
                        csize = next(it)
                    if offset == 0xFFFFFFFF:
                        offset = next(it)
                except StopIteration:
                    raise ArchiveError("a ZIP64 extra field is too short", where) from None
                return usize, csize, offset
            pos += 4 + length
        raise ArchiveError("a zip entry needs a ZIP64 extra field but has none", where)

    # -- entries

    def names(self) -> list[str]:
        return list(self.entries)

    def _data_range(self, entry: ZipEntry) -> tuple[int, int]:
        where = f"zip entry '{entry.name}'"
        at = entry.header_offset
        if at + _LOCAL.size > self.size:
            raise ArchiveError("the local header is past the end of the file", where)
        sig, *_rest, name_len, extra_len = _LOCAL.unpack_from(self.buf, at)
        if sig != b"PK\x03\x04":
            raise ArchiveError(f"the local header at byte {at} has a bad signature", where)
        start = at + _LOCAL.size + name_len + extra_len
        end = start + entry.compressed_size
        if end > self.size:
            raise ArchiveError(
                f"the entry's data [{start}, {end}) runs past the end of the file "
                f"({self.size} bytes; truncated?)",
                where,
            )
        return start, end

    def view(self, name: str) -> memoryview:
        """A stored entry's bytes, as a view of the buffer (no copy, no CRC check)."""
        entry = self.entries[name]
        if entry.method != STORED:
            raise ArchiveError(
                "a tensor storage is compressed; expected it stored", f"zip entry '{name}'"
            )
        if entry.compressed_size != entry.size:
            raise ArchiveError(
                f"a stored entry declares {entry.size} bytes but holds {entry.compressed_size}",
                f"zip entry '{name}'",
            )
        start, end = self._data_range(entry)
        return memoryview(self.buf)[start:end]

    def read(self, name: str, *, max_inflated: int) -> bytes:
        """An entry's bytes, decompressed with a bound and checked against its CRC-32."""
        entry = self.entries[name]
        where = f"zip entry '{name}'"
        if entry.size > max_inflated:
            raise ArchiveError(
                f"the entry declares {entry.size} bytes, more than the limit of {max_inflated}",
                where,
            )
        start, end = self._data_range(entry)
        raw = memoryview(self.buf)[start:end]
        if entry.method == STORED:
            if entry.compressed_size != entry.size:
                raise ArchiveError("a stored entry's sizes disagree", where)
            data = bytes(raw)
        elif entry.method == DEFLATED:
            inflater = zlib.decompressobj(-zlib.MAX_WBITS)
            try:
                data = inflater.decompress(raw, entry.size + 1)
            except zlib.error as exc:
                raise ArchiveError(f"the compressed data is damaged ({exc})", where) from None
            if len(data) > entry.size or (len(data) == entry.size and not inflater.eof):
                raise ArchiveError(
                    f"the entry inflates to more than the {entry.size} bytes it declares", where
                )
            if len(data) < entry.size or not inflater.eof:
                raise ArchiveError(
                    f"the entry inflates to {len(data)} bytes, not the {entry.size} it declares "
                    "(truncated?)",
                    where,
                )
        else:
            raise UnsupportedArchiveError(
                f"zip compression method {entry.method} is not supported", where
            )
        if zlib.crc32(data) != entry.crc:
            raise ArchiveError("the entry's CRC-32 does not match (the file is corrupt)", where)
        return data
