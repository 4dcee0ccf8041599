"""Kernels on disk: a second process starts warm; corrupted entries are detected and rebuilt."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import textwrap

import pytest
from ts_fuser_cpu import DiskCache, cache_dir
from ts_fuser_cpu.disk_cache import MAGIC, entry_key

CODE = b"\x7fELF pretend object code" * 10


def test_store_and_load(tmp_path):
    cache = DiskCache(tmp_path)
    assert cache.load("k") is None
    cache.store("k", CODE)
    assert cache.load("k") == CODE
    assert (cache.hits, cache.misses, cache.writes) == (1, 1, 1)
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".tmp")]


@pytest.mark.parametrize(
    "damage,reason",
    [
        (lambda b: b[:-7], "truncated"),
        (lambda b: b[: len(MAGIC) + 10], "truncated header"),
        (lambda b: b[:-1] + bytes([b[-1] ^ 1]), "checksum mismatch"),
        (lambda b: b"garbage" + b[7:], "bad header"),
        (lambda b: b"", "bad header"),
    ],
    ids=["truncated", "header-cut", "flipped-bit", "bad-magic", "empty"],
)
def test_damaged_entries_are_reported_and_removed(tmp_path, caplog, damage, reason):
    cache = DiskCache(tmp_path)
    cache.store("k", CODE)
    path = cache.path("k")
    path.write_bytes(damage(path.read_bytes()))
    with caplog.at_level(logging.WARNING, logger="ts_fuser_cpu"):
        assert cache.load("k") is None
    assert reason in caplog.text and "corrupted" in caplog.text
    assert not path.exists() and cache.corrupted == 1


def test_unwritable_cache_is_skipped(tmp_path):
    target = tmp_path / "file"
    target.write_text("not a directory")
    cache = DiskCache(target / "sub")
    cache.store("k", CODE)  # no exception
    assert cache.writes == 0


def test_cache_directory_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("TS_JIT_CACHE_DIR", str(tmp_path))
    assert cache_dir() == tmp_path / "cpu-kernels"
    monkeypatch.delenv("TS_JIT_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "xdg" / "tsjit" / "cpu-kernels"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert cache_dir() == cache_dir().home() / ".cache" / "tsjit" / "cpu-kernels"


def test_keys_depend_on_everything_given():
    assert entry_key(("a", 1)) != entry_key(("a", 2))
    assert entry_key(("a", 1)) == entry_key(("a", 1))


# -- across processes

WORKER = textwrap.dedent(
    """
    import json, logging, sys, time
    import numpy as np
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    import ts_fuser_cpu, ts_runtime
    from ts_ir import Device, ScalarType, TensorType, parse_ir
    g = parse_ir('''graph(%a : Tensor, %b : Tensor):
      %one : int = prim::Constant[value=1]()
      %x : Tensor = aten::mul(%a, %b)
      %y : Tensor = aten::tanh(%x)
      %z : Tensor = aten::add(%y, %a, %one)
      return (%z)
    ''')
    spec = TensorType(ScalarType.Float, Device("cpu"), False, (64,), (1,))
    t0 = time.perf_counter()
    kernel = ts_fuser_cpu.backend.compile(g, [spec, spec])
    seconds = time.perf_counter() - t0
    a = np.linspace(-2, 2, 64, dtype=np.float32)
    out = kernel(ts_runtime.from_numpy(a), ts_runtime.from_numpy(a)).numpy()
    s = ts_fuser_cpu.backend.stats
    print(json.dumps({"compiled": s.compiled, "disk_hits": s.disk_hits, "seconds": seconds,
                      "ok": bool(np.allclose(out, np.tanh(a * a) + a, rtol=1e-6))}))
    """
)


def _run(cache: str) -> tuple[dict, str]:
    env = dict(os.environ, TS_JIT_CACHE_DIR=cache)
    done = subprocess.run(
        [sys.executable, "-c", WORKER], env=env, capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout.strip().splitlines()[-1]), done.stderr


def test_a_second_process_loads_kernels_from_disk(tmp_path):
    first, _ = _run(str(tmp_path))
    assert first == {**first, "compiled": 1, "disk_hits": 0, "ok": True}
    entries = list((tmp_path / "cpu-kernels").glob("*.kernel"))
    assert len(entries) == 1
    second, _ = _run(str(tmp_path))
    assert second == {**second, "compiled": 0, "disk_hits": 1, "ok": True}


def test_a_corrupted_entry_is_rebuilt(tmp_path):
    _run(str(tmp_path))
    (entry,) = (tmp_path / "cpu-kernels").glob("*.kernel")
    data = bytearray(entry.read_bytes())
    data[len(data) // 2] ^= 0xFF
    entry.write_bytes(bytes(data))
    rebuilt, log = _run(str(tmp_path))
    assert rebuilt == {**rebuilt, "compiled": 1, "disk_hits": 0, "ok": True}
    assert "corrupted (checksum mismatch); rebuilding it" in log
    again, _ = _run(str(tmp_path))
    assert again == {**again, "compiled": 0, "disk_hits": 1, "ok": True}
    entry.write_bytes(entry.read_bytes()[:100])  # truncated
    rebuilt, log = _run(str(tmp_path))
    assert rebuilt["compiled"] == 1 and rebuilt["ok"] and "truncated" in log
