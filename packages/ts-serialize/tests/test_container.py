"""The archive file: preamble, header and blobs checked against the file before use."""

from __future__ import annotations

import io
import struct
import tracemalloc
import zlib
from typing import Any

import msgpack
import numpy as np
import pytest
import ts_runtime as torch
import ts_serialize
from ts_serialize import ArchiveError, UnsupportedArchiveError
from ts_serialize.container import PREAMBLE, write_archive
from ts_serialize.msgpack_io import check_structure


def archive(header: dict[str, Any], blobs: list[bytes]) -> bytes:
    buf = io.BytesIO()
    write_archive(buf, header, blobs)
    return buf.getvalue()


def value_header(**tables: Any) -> dict[str, Any]:
    header = {
        "format": "tsjit-archive",
        "version": 1,
        "kind": "value",
        "root": ["tensor", 0],
        "storages": [],
        "tensors": [],
        "operators": [],
    }
    header.update(tables)
    return header


def load_bytes(data: bytes) -> Any:
    return ts_serialize.load(io.BytesIO(data))


def rewrite_header(data: bytes, edit: Any) -> bytes:
    """The archive with its header decoded, edited, re-encoded and re-checksummed."""
    magic, version, _crc, length, offset = PREAMBLE.unpack_from(data, 0)
    header = msgpack.unpackb(data[32 : 32 + length], strict_map_key=False)
    edit(header)
    new = msgpack.packb(header, use_bin_type=True)
    assert 32 + len(new) <= offset, "the edit must not grow the header past the data offset"
    pad = offset - 32 - len(new)
    return (
        PREAMBLE.pack(magic, version, zlib.crc32(new), len(new), offset)
        + new
        + b"\0" * pad
        + data[offset:]
    )


def saved(obj: Any) -> bytes:
    buf = io.BytesIO()
    ts_serialize.save(obj, buf)
    return buf.getvalue()


def test_layout_is_aligned_and_little_endian() -> None:
    t = torch.arange(10, dtype=torch.int64)
    data = saved(t)
    magic, version, _crc, length, offset = PREAMBLE.unpack_from(data, 0)
    assert magic == b"TSJITAR\x00" and version == ts_serialize.FORMAT_VERSION
    assert offset % 64 == 0 and offset >= 32 + length
    assert data[offset : offset + 80] == np.arange(10, dtype="<i8").tobytes()


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d[:20], "shorter than the 32-byte preamble"),
        (lambda d: b"NOTANARC" + d[8:], "wrong magic"),
        (lambda d: d[:8] + struct.pack("<I", 99) + d[12:], "version 99 is not supported"),
        (lambda d: d[:16] + struct.pack("<Q", 1 << 40) + d[24:], "more than the limit"),
        (lambda d: d[:16] + struct.pack("<Q", len(d)) + d[24:], "truncated"),
        (lambda d: d[:24] + struct.pack("<Q", 33) + d[32:], "not a multiple of 64"),
        (lambda d: d[:40] + bytes([d[40] ^ 0xFF]) + d[41:], "checksum does not match"),
        (lambda d: d[: len(d) - 8], "runs past the end of the data section"),
    ],
)
def test_damaged_files_say_what_and_where(mutate, message) -> None:
    data = saved(torch.arange(10, dtype=torch.int64))
    with pytest.raises(ArchiveError, match=message):
        load_bytes(mutate(data))


def test_errors_name_the_file(tmp_path) -> None:
    path = tmp_path / "broken.tsj"
    path.write_bytes(b"TSJITAR\x00" + b"\x01" * 10)
    with pytest.raises(ArchiveError, match=r"broken\.tsj"):
        ts_serialize.load(path)
    empty = tmp_path / "empty.tsj"
    empty.write_bytes(b"")
    with pytest.raises(ArchiveError, match="empty"):
        ts_serialize.load(empty)


def test_a_tiny_archive_declaring_200_gb_is_refused_without_allocating() -> None:
    numel = 50_000_000_000  # 200 GB of float32
    header = value_header(
        storages=[{"dtype": "float32", "numel": numel, "blob": 0}],
        tensors=[
            {"storage": 0, "offset": 0, "shape": [numel], "strides": [1], "requires_grad": False}
        ],
    )
    data = archive(header, [b"\0" * 1024])
    assert len(data) < 2048
    tracemalloc.start()
    try:
        with pytest.raises(ArchiveError, match=r"declares 50000000000 float32 elements"):
            load_bytes(data)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20


def test_a_tensor_reaching_past_its_storage_is_refused() -> None:
    def tensor(**fields: Any) -> dict[str, Any]:
        rec = {"storage": 0, "offset": 0, "shape": [4], "strides": [1], "requires_grad": False}
        rec.update(fields)
        return rec

    storage = [{"dtype": "float64", "numel": 4, "blob": 0}]
    blob = [np.arange(4.0).tobytes()]
    assert load_bytes(
        archive(value_header(storages=storage, tensors=[tensor()]), blob)
    ).tolist() == [
        0.0,
        1.0,
        2.0,
        3.0,
    ]
    for bad, message in [
        (tensor(shape=[5]), "needs storage element 4"),
        (tensor(offset=1), "needs storage element 4"),
        (tensor(shape=[2, 2], strides=[3, 1]), "needs storage element 4"),
        (tensor(shape=[2**62, 2**62], strides=[1, 1]), "needs storage element"),
        (tensor(shape=[4], strides=[1, 1]), "1 sizes but 2 strides"),
        (tensor(shape=[-1]), "not a non-negative integer"),
        (tensor(shape=[1] * 65, strides=[1] * 65), "at most 64"),
        (tensor(requires_grad="yes"), "requires_grad"),
        (tensor(storage=3), "not in the storage table"),
    ]:
        with pytest.raises(ArchiveError, match=message):
            load_bytes(archive(value_header(storages=storage, tensors=[bad]), blob))


def test_storage_dtypes_and_lengths_are_checked() -> None:
    tensor = {"storage": 0, "offset": 0, "shape": [0], "strides": [1], "requires_grad": False}
    for storage, message, error in [
        (
            {"dtype": "bfloat16", "numel": 0, "blob": 0},
            "bfloat16 tensors are not supported",
            UnsupportedArchiveError,
        ),
        ({"dtype": "object", "numel": 0, "blob": 0}, "unknown storage dtype", ArchiveError),
        ({"dtype": "int32", "numel": 3, "blob": 0}, "blob holds 8 bytes", ArchiveError),
        ({"dtype": "int32", "numel": 2, "blob": 7}, "not in the blob table", ArchiveError),
    ]:
        with pytest.raises(error, match=message):
            load_bytes(archive(value_header(storages=[storage], tensors=[tensor]), [b"\0" * 8]))


def test_loaded_tensors_are_views_of_the_mapped_file(tmp_path) -> None:
    path = tmp_path / "t.tsj"
    ts_serialize.save({"a": torch.arange(1000.0), "b": torch.ones(3, 4).t()}, path)
    loaded = ts_serialize.load(path)
    a = loaded["a"].numpy()
    import mmap

    base = a
    while isinstance(base.base, np.ndarray):
        base = base.base
    assert isinstance(base.base, memoryview) and isinstance(base.base.obj, mmap.mmap)
    assert a.flags.writeable  # copy-on-write: writes stay in this process
    a[0] = 42.0
    assert ts_serialize.load(path)["a"][0].item() == 0.0
    assert loaded["b"].shape == (4, 3) and loaded["b"].stride() == (1, 4)


def test_msgpack_structure_is_checked_before_decoding() -> None:
    deep = b"\x91" * 100 + b"\xc0"
    with pytest.raises(ArchiveError, match="nested deeper"):
        check_structure(deep, max_depth=40, where="header")
    inflated = b"\xdd" + struct.pack(">I", 1_000_000) + b"\xc0" * 10
    with pytest.raises(ArchiveError, match="declares 1000000 items"):
        check_structure(inflated, max_depth=40, where="header")
    nested_claims = (b"\xdd" + struct.pack(">I", 4)) * 3 + b"\xc0" * 4
    with pytest.raises(ArchiveError, match="more than the remaining"):
        check_structure(nested_claims, max_depth=40, where="header")
    with pytest.raises(ArchiveError, match=r"extension|does not start"):
        check_structure(b"\xd4\x01\x00", max_depth=40, where="header")
    with pytest.raises(ArchiveError, match="follow the msgpack object"):
        check_structure(b"\xc0\xc0", max_depth=40, where="header")
    check_structure(
        msgpack.packb({"a": [1, 2.5, "x", b"y", None, True, {"b": []}]}), max_depth=40, where="h"
    )


def test_deep_values_are_refused() -> None:
    value: Any = 1
    for _ in range(35):
        value = ["list", value]
    with pytest.raises(ArchiveError, match="nested deeper than 32"):
        load_bytes(archive(value_header(root=value), []))


def test_edited_headers_are_checked_field_by_field() -> None:
    data = saved({"x": torch.ones(2), "n": 3})

    def set_root(value: Any) -> Any:
        return lambda h: h.__setitem__("root", value)

    for edit, message in [
        (set_root(["dict", "x"]), "odd number"),
        (set_root(["frozenset", 1]), "unknown value tag"),
        (set_root(["tensor", 5]), "not in the tensor table"),
        (set_root(["object", 0]), "not in the object table"),
        (set_root({"a": 1}), "not a tagged array"),
        (lambda h: h.__setitem__("kind", "program"), "unknown archive kind"),
        (lambda h: h.__setitem__("format", "other"), "not describe a tsjit archive"),
        (lambda h: h.__setitem__("blobs", [[1, 8]]), "not a multiple of 64"),
    ]:
        with pytest.raises(ArchiveError, match=message):
            load_bytes(rewrite_header(data, edit))
