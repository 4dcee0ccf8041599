"""Compiled kernels on disk, so a second process starts warm.

An entry is the object code of one kernel, in a file named by the hash of
everything the code depends on: the group's canonical text and
specialization (`Specialization.codegen_key`), the calling convention, the
fuser's format version and a hash of its own sources, the llvmlite and LLVM
versions, and the CPU's name and features. The file holds a magic line, the SHA-256 of the object code,
its length, then the code. A file that is truncated, has another magic or a
checksum that does not match is reported (logger `ts_fuser_cpu`), deleted,
and the kernel is compiled again and rewritten. Writes go to a temporary
file renamed into place, so concurrent processes never see half an entry.

The directory is `TS_JIT_CACHE_DIR`, else `$XDG_CACHE_HOME/tsjit`, else
`~/.cache/tsjit`, with a `cpu-kernels` folder inside; read when the cache
is used. A cache that cannot be written is skipped with a debug message.
"""

from __future__ import annotations

import hashlib
import logging
import os
import struct
import tempfile
from pathlib import Path

log = logging.getLogger("ts_fuser_cpu")

FORMAT_VERSION = 1
MAGIC = b"TSJIT-CPU-KERNEL 1\n"
_HEADER = struct.Struct("<32sQ")  # sha256 of the code, its length
SUFFIX = ".kernel"


def cache_dir(folder: str = "cpu-kernels") -> Path:
    """Where kernels are stored (the folder may not exist yet); other fusers name their own
    `folder` under the same root."""
    root = os.environ.get("TS_JIT_CACHE_DIR")
    if root:
        base = Path(root)
    else:
        xdg = os.environ.get("XDG_CACHE_HOME")
        base = Path(xdg) / "tsjit" if xdg else Path.home() / ".cache" / "tsjit"
    return base / folder


_fingerprint: list[str] = []


def generator_fingerprint() -> str:
    """A hash of this package's sources: a change to code generation invalidates every entry."""
    if not _fingerprint:
        digest = hashlib.sha256()
        for path in sorted(Path(__file__).parent.glob("*.py")):
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
        _fingerprint.append(digest.hexdigest())
    return _fingerprint[0]


def entry_key(parts: object) -> str:
    """The hex digest naming an entry (`parts` is any value with a deterministic repr)."""
    text = repr((FORMAT_VERSION, generator_fingerprint(), parts))
    return hashlib.sha256(text.encode()).hexdigest()


class DiskCache:
    """Object code by key, in `directory` (default: `cache_dir(folder)` when first used).

    Another fuser keeps its own kind of entries with its own `folder`, `magic` line and
    `logger`; the format and the checks are the same."""

    def __init__(
        self,
        directory: Path | None = None,
        *,
        folder: str = "cpu-kernels",
        magic: bytes = MAGIC,
        logger: logging.Logger = log,
    ) -> None:
        self._directory = directory
        self.folder = folder
        self.magic = magic
        self.log = logger
        self.hits = 0
        self.misses = 0
        self.corrupted = 0
        self.writes = 0

    @property
    def directory(self) -> Path:
        return self._directory if self._directory is not None else cache_dir(self.folder)

    def path(self, key: str) -> Path:
        return self.directory / f"{key}{SUFFIX}"

    def load(self, key: str) -> bytes | None:
        """The stored code, or None (missing, or corrupted: then the file is removed)."""
        path = self.path(key)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            self.misses += 1
            return None
        except OSError as exc:
            self.log.debug("kernel cache entry %s unreadable: %s", path, exc)
            self.misses += 1
            return None
        problem = _check(data, self.magic)
        if problem is not None:
            self.corrupted += 1
            self.misses += 1
            self.log.warning(
                "kernel cache entry %s is corrupted (%s); rebuilding it", path, problem
            )
            try:
                path.unlink()
            except OSError:
                pass
            return None
        self.hits += 1
        return data[len(self.magic) + _HEADER.size :]

    def store(self, key: str, code: bytes) -> None:
        directory = self.directory
        blob = self.magic + _HEADER.pack(hashlib.sha256(code).digest(), len(code)) + code
        try:
            directory.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=directory, prefix=".tmp-", suffix=SUFFIX)
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(blob)
                os.replace(tmp, self.path(key))
            except BaseException:
                try:
                    os.unlink(tmp)
                except OSError:
                    pass
                raise
        except OSError as exc:
            self.log.debug("kernel cache %s is not writable: %s", directory, exc)
            return
        self.writes += 1


def _check(data: bytes, magic: bytes) -> str | None:
    """Why `data` is not a valid entry, or None."""
    if not data.startswith(magic):
        return "bad header"
    header_end = len(magic) + _HEADER.size
    if len(data) < header_end:
        return "truncated header"
    digest, length = _HEADER.unpack_from(data, len(magic))
    code = data[header_end:]
    if len(code) != length:
        return f"truncated: {len(code)} of {length} bytes"
    if hashlib.sha256(code).digest() != digest:
        return "checksum mismatch"
    return None
