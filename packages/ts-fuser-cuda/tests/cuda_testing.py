"""Helpers for ts-fuser-cuda's tests: reference results, and every kernel compiled by nvcc.

(A module of its own, not conftest.py: test directories of several packages are
collected together, and each has a conftest.) Kernel batches and host arrays as
CUDA tensors come from the package's own `ts_fuser_cuda.testing`.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import warnings
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import ts_runtime
from ts_fuser_cuda.codegen import PRELUDE
from ts_fuser_cuda.host import HostDriver
from ts_fuser_cuda.nvcc import compile_ptx_batches, find_nvcc
from ts_ir import Graph, parse_ir


def graph_of(ir: str | Graph) -> Graph:
    return parse_ir(ir) if isinstance(ir, str) else ir


def interpreted(ir: str | Graph, *values: object) -> list[np.ndarray]:
    """The subgraph run by ts-runtime's interpreter on the CPU: numpy outputs."""
    g = graph_of(ir)
    args = [ts_runtime.from_numpy(v) if isinstance(v, np.ndarray) else v for v in values]
    out = ts_runtime.Code(g, grad_enabled=False).fn(*args)
    outs = out if isinstance(out, tuple) else (out,)
    return [o.numpy() for o in outs]


def ulp_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """How many representable values lie between a and b (same float dtype; NaNs match NaNs)."""
    assert a.dtype == b.dtype and a.dtype.kind == "f"
    ints = np.int32 if a.dtype == np.float32 else np.int64

    def ordered(x: np.ndarray) -> np.ndarray:
        i = np.ascontiguousarray(x).view(ints).astype(np.int64)
        return np.where(i < 0, np.iinfo(ints).min - i, i)

    d = np.abs(ordered(a) - ordered(b))
    return np.where(np.isnan(a) & np.isnan(b), 0, d)


def assert_same(got: list[np.ndarray] | None, want: list[np.ndarray], *, ulps: int = 0) -> None:
    assert got is not None, "the kernel asked for the interpreter"
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        assert g.dtype == w.dtype, (g.dtype, w.dtype)
        assert g.shape == w.shape, (g.shape, w.shape)
        if g.dtype.kind == "f":
            d = ulp_distance(g, w)
            if ulps == 0:
                d = np.where((g == 0) & (w == 0), 0, d)
            bad = d > ulps
            assert not bad.any(), (
                f"{np.count_nonzero(bad)} elements differ: got {g[bad][:5]}, want {w[bad][:5]}"
            )
        else:
            np.testing.assert_array_equal(g, w)


# ---------------------------------------------------------------------------
# kernels in batches


# ---------------------------------------------------------------------------
# every kernel the tests build, compiled by nvcc too


#: The kernel source (without the prelude) of every module the tests of this process built.
RECORDED: dict[str, str] = {}


def record(source: str) -> str:
    """Note a module's source for the nvcc check; returns its digest."""
    body = source[len(PRELUDE) :] if source.startswith(PRELUDE) else source
    digest = hashlib.sha256(body.encode()).hexdigest()
    RECORDED.setdefault(digest, body)
    return digest


class RecordingHostDriver(HostDriver):
    """The host-emulated device, noting the kernel source of every module the tests ask it for,
    so that nvcc compiles each of them too (`check_recorded_with_nvcc`)."""

    def module(self, source, entries):  # type: ignore[override]
        digest = record(source)
        # one test process compiles a module; the others wait and load it from the disk cache
        with shared_lock(f"module-{digest[:16]}"):
            return super().module(source, entries)


def counts_dir() -> Path | None:
    path = os.environ.get("TS_CUDA_TEST_DIR")
    return Path(path) if path else None


@contextlib.contextmanager
def shared_lock(name: str) -> Iterator[None]:
    """A lock the test processes of one run share (a no-op outside the test session)."""
    directory = counts_dir()
    if directory is None:
        yield
        return
    with open(directory / f"{name}.lock", "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def add_count(what: str, n: int) -> None:
    """Add to a count the end-of-run summary prints (works across test processes)."""
    directory = counts_dir()
    if directory is None:
        return
    with open(directory / f"{os.getpid()}.counts", "a") as f:
        f.write(f"{what}\t{n}\n")


def check_recorded_with_nvcc() -> None:
    """Compile every recorded kernel with `nvcc -ptx` in two batched invocations; a kernel
    another test process checked already (a marker in the counts directory) is skipped."""
    if find_nvcc() is None:
        warnings.warn("nvcc was not found: the kernels the tests built were not compiled for a GPU")
        return
    directory = counts_dir()
    with shared_lock("nvcc"):
        todo = []
        for digest, body in sorted(RECORDED.items()):
            marker = None if directory is None else directory / f"{digest}.nvcc"
            if marker is not None and marker.exists():
                continue
            todo.append((marker, body))
        if not todo:
            return
        ptx = compile_ptx_batches([body for _, body in todo])
        for marker, _ in todo:
            if marker is not None:
                marker.touch()
    add_count("kernels compiled by nvcc -ptx (sm_80)", sum(p.count(".entry ") for p in ptx))
    add_count("nvcc invocations", len(ptx))
