"""Loading is safe: mutated archives raise only `ArchiveError`, and nothing reaches exec or pickle.

The mutation campaign runs `TSJIT_FUZZ_CASES` mutants (500 by default; `nox -s
archive_fuzz` runs 10,000) of a few archives: bytes flipped, files truncated or
spliced, integers in the header inflated to huge values, and header fields
rewritten with their checksum fixed up so the loader's own checks, not the
checksum, must catch them.
"""

from __future__ import annotations

import builtins
import io
import marshal
import os
import pickle
import random
import zlib
from pathlib import Path
from typing import Any

import msgpack
import ts_runtime as torch
import ts_serialize
from archive_mutation import BIG_VALUES, campaign, from_bytes
from test_saved_programs import Everything
from ts_frontend import script
from ts_serialize import ArchiveError
from ts_serialize.container import PREAMBLE

CASES = int(os.environ.get("TSJIT_FUZZ_CASES", "500"))
TORCH_ARCHIVES = Path(__file__).parent / "torch_archives" / "torch-2.14.1"


def seed_archives() -> list[bytes]:
    def looped(x, n: int):
        acc = []
        for i in range(n):
            if i % 2 == 0:
                acc.append(x * i)
        return torch.stack(acc).sum(0) if acc else x

    out = []
    for obj in (
        script(Everything()),
        script(looped),
        {"a": torch.arange(12.0).reshape(3, 4), "b": [1, (2.5, "x")], "c": torch.ones(2, 2).t()},
    ):
        buf = io.BytesIO()
        ts_serialize.save(obj, buf, extra_files={"note.txt": "hello"})
        out.append(buf.getvalue())
    return out


def header_region(data: bytes) -> tuple[int, int]:
    try:
        length = PREAMBLE.unpack_from(data, 0)[3]
    except Exception:
        return (0, min(len(data), 32))
    return (0, min(len(data), 32 + length))


def _mutate_value(rng: random.Random, value: Any, depth: int = 0) -> Any:
    if isinstance(value, dict) and value:
        key = rng.choice(list(value))
        value = dict(value)
        if rng.random() < 0.1:
            del value[key]
        else:
            value[key] = _mutate_value(rng, value[key], depth + 1)
        return value
    if isinstance(value, list) and value:
        value = list(value)
        i = rng.randrange(len(value))
        r = rng.random()
        if r < 0.1:
            del value[i]
        elif r < 0.2:
            value.insert(i, value[i])
        else:
            value[i] = _mutate_value(rng, value[i], depth + 1)
        return value
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return rng.choice([*BIG_VALUES, -1, 0, value + 1, value * 1000])
    if isinstance(value, str):
        if len(value) > 4 and rng.random() < 0.7:  # edit code and names
            i = rng.randrange(len(value))
            return (
                value[:i]
                + rng.choice(["(", ")", ":", "\n", "    ", "x", "", "torch."])
                + value[i + 1 :]
            )
        return rng.choice(["", "float32", "__torch__.x", "tensor", value * 2])
    return rng.choice([None, 0, "x", [], {}, ["list"]])


def structured(rng: random.Random, data: bytes) -> bytes:
    """A header field rewritten, with the checksum and offsets made consistent again."""
    magic, version, _crc, length, offset = PREAMBLE.unpack_from(data, 0)
    header = msgpack.unpackb(data[32 : 32 + length], strict_map_key=False)
    header = _mutate_value(rng, header)
    new = msgpack.packb(header, use_bin_type=True)
    new_offset = max(offset, (32 + len(new) + 63) // 64 * 64)
    return (
        PREAMBLE.pack(magic, version, zlib.crc32(new), len(new), new_offset)
        + new
        + b"\0" * (new_offset - 32 - len(new))
        + data[offset:]
    )


def test_mutated_archives_raise_only_archive_errors() -> None:
    seeds = seed_archives()
    load = from_bytes(ts_serialize.load)
    for data in seeds:
        load(data)  # the seeds themselves load
    outcome = campaign(
        seeds, CASES, load, (ArchiveError,), structured=structured, header_region=header_region
    )
    print(f"\n{CASES} mutated archives: {outcome.summary()}")
    assert not outcome.failures, "\n".join(outcome.failures[:10])
    assert sum(outcome.errors.values()) > CASES // 2  # the mutations do damage


def test_nothing_from_an_archive_reaches_exec_eval_compile_or_pickle() -> None:
    # tsjit archives of every kind, and every `.pt` file PyTorch wrote (code and pickles)
    seeds = seed_archives() + [p.read_bytes() for p in sorted(TORCH_ARCHIVES.glob("*.pt"))]
    assert len(seeds) > 10
    for data in seeds:
        ts_serialize.load(io.BytesIO(data))  # warm up: every lazy import has happened

    calls: list[str] = []

    def forbidden(name: str) -> Any:
        def refuse(*args: Any, **kwargs: Any) -> Any:
            calls.append(name)
            raise AssertionError(f"{name} was called while loading an archive")

        return refuse

    targets = [(builtins, n) for n in ("exec", "eval", "compile")]
    targets += [(pickle, n) for n in ("loads", "load", "Unpickler")]
    targets += [(marshal, "loads")]
    saved = [(obj, name, getattr(obj, name)) for obj, name in targets]
    results: list[Any] = []
    try:
        for obj, name, _ in saved:
            setattr(obj, name, forbidden(f"{obj.__name__}.{name}"))
        for data in seeds:
            try:
                results.append(ts_serialize.load(io.BytesIO(data)))
            except AssertionError:
                results.append(None)
    finally:
        for obj, name, original in saved:
            setattr(obj, name, original)
    assert calls == []
    assert all(r is not None for r in results)
    assert results[0](torch.randn(2, 4)).shape == (2, 4)
