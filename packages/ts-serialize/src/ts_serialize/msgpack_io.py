"""msgpack, read defensively: a structural check of the bytes before they are decoded.

msgpack's decoder allocates a container's item list as soon as it reads the
container's header, so a few bytes declaring deeply nested arrays of
millions of items make it allocate gigabytes before it notices the input is
short. `check_structure` walks the bytes first, with an explicit stack:
nesting deeper than `max_depth` is refused, and so is any container whose
declared items (together with the items still owed by the containers around
it) could not fit in the bytes that remain, since every item takes at least
one byte. Once the walk passes, everything the decoder allocates is backed
by bytes of the input. Extension types, which the format never writes, are
refused. Cost: one pass over the item headers, O(items).
"""

from __future__ import annotations

import struct
from typing import Any

import msgpack

from .errors import ArchiveError

_U8 = struct.Struct(">B")
_U16 = struct.Struct(">H")
_U32 = struct.Struct(">I")

# lead byte -> (bytes of the length field, kind) for the variable-length forms
_LENGTH_PREFIXED = {
    0xC4: (1, "bytes"),
    0xC5: (2, "bytes"),
    0xC6: (4, "bytes"),
    0xD9: (1, "bytes"),
    0xDA: (2, "bytes"),
    0xDB: (4, "bytes"),
    0xDC: (2, "array"),
    0xDD: (4, "array"),
    0xDE: (2, "map"),
    0xDF: (4, "map"),
}
# lead byte -> size of the fixed payload that follows it
_FIXED = {
    0xC0: 0,
    0xC2: 0,
    0xC3: 0,
    0xCA: 4,
    0xCB: 8,
    0xCC: 1,
    0xCD: 2,
    0xCE: 4,
    0xCF: 8,
    0xD0: 1,
    0xD1: 2,
    0xD2: 4,
    0xD3: 8,
}
_LENGTH_STRUCTS = {1: _U8, 2: _U16, 4: _U32}


def check_structure(buf: bytes | memoryview, *, max_depth: int, where: str) -> None:
    """Raise `ArchiveError` unless `buf` is exactly one msgpack object within the limits."""
    end = len(buf)
    pos = 0
    stack: list[int] = []  # items still owed by each open container, innermost last
    owed = 1  # items owed in total (the top-level object included)
    while True:
        if pos >= end:
            raise ArchiveError("the msgpack data ends in the middle of an object", where)
        lead = buf[pos]
        pos += 1
        owed -= 1
        count = 0
        if lead <= 0x7F or lead >= 0xE0:
            pass  # fixints
        elif lead <= 0x8F:
            count = 2 * (lead & 0x0F)
        elif lead <= 0x9F:
            count = lead & 0x0F
        elif lead <= 0xBF:
            pos += lead & 0x1F
        elif lead in _FIXED:
            pos += _FIXED[lead]
        elif lead in _LENGTH_PREFIXED:
            width, kind = _LENGTH_PREFIXED[lead]
            if pos + width > end:
                raise ArchiveError(
                    "the msgpack data ends in the middle of a length", f"{where} byte {pos}"
                )
            (n,) = _LENGTH_STRUCTS[width].unpack_from(buf, pos)
            pos += width
            if kind == "bytes":
                pos += n
            else:
                count = n if kind == "array" else 2 * n
        else:
            raise ArchiveError(
                f"byte 0x{lead:02x} does not start a msgpack value this format writes",
                f"{where} byte {pos - 1}",
            )
        if pos > end:
            raise ArchiveError(
                "a msgpack string or number runs past the end of its data", f"{where} byte {pos}"
            )
        if count:
            owed += count
            if owed > end - pos:
                raise ArchiveError(
                    f"a msgpack container declares {count} items, more than the remaining "
                    f"{end - pos} bytes can hold",
                    f"{where} byte {pos}",
                )
            stack.append(count)
            if len(stack) > max_depth:
                raise ArchiveError(
                    f"msgpack values are nested deeper than {max_depth} levels",
                    f"{where} byte {pos}",
                )
            continue
        # one item finished: pop every container it completes
        while stack:
            stack[-1] -= 1
            if stack[-1]:
                break
            stack.pop()
        if not stack:
            break
    if owed != 0 or pos != end:
        raise ArchiveError(f"{end - pos} bytes follow the msgpack object", f"{where} byte {pos}")


def _refuse_ext(code: int, data: bytes) -> Any:
    raise ArchiveError(f"msgpack extension type {code} is not part of the format")


def unpack(buf: bytes | memoryview, *, max_depth: int, where: str) -> Any:
    """Decode one msgpack object after `check_structure`; every failure is an `ArchiveError`."""
    check_structure(buf, max_depth=max_depth, where=where)
    n = len(buf)
    try:
        return msgpack.unpackb(
            buf,
            raw=False,
            use_list=True,
            strict_map_key=True,
            ext_hook=_refuse_ext,
            max_str_len=n,
            max_bin_len=n,
            max_array_len=n,
            max_map_len=n,
            max_ext_len=0,
        )
    except ArchiveError:
        raise
    except UnicodeDecodeError as exc:
        raise ArchiveError(f"a string is not valid UTF-8 ({exc.reason})", where) from None
    except (ValueError, TypeError, msgpack.UnpackException) as exc:
        raise ArchiveError(f"the msgpack data is malformed ({exc})", where) from None


def pack(obj: Any) -> bytes:
    return msgpack.packb(obj, use_bin_type=True, strict_types=False)
