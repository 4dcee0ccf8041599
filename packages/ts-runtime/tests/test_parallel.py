"""Intra-op parallelism: products and convolutions split across threads give the serial
values, the pool hands back errors, and numpy's BLAS runs on one thread."""

from __future__ import annotations

import ctypes
import itertools

import numpy as np
import pytest
import ts_runtime as ts
from ts_runtime import parallel


@pytest.fixture
def handed_off(monkeypatch):
    """How many times work was split across the pool."""
    calls = []
    run = parallel.POOL.run

    def spy(fn, args, bounds):
        calls.append(len(bounds))
        return run(fn, args, bounds)

    monkeypatch.setattr(parallel.POOL, "run", spy)
    return calls


@pytest.fixture
def threads():
    previous = parallel.get_num_threads()

    def use(n: int) -> None:
        parallel.set_num_threads(n)

    yield use
    parallel.set_num_threads(previous)


def _matrix(rng, shape, dtype):
    return rng.standard_normal(shape).astype(dtype)


@pytest.mark.parametrize(
    ("m", "k", "n"),
    [
        (512, 256, 64),  # more rows than columns: split by rows
        (64, 512, 2048),  # a wide result of few rows: split by columns
        (3, 1024, 1024),  # fewer rows than threads
        (300, 129, 301),  # shares of uneven size
    ],
)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_split_products_equal_numpy(threads, handed_off, m, k, n, dtype):
    threads(3)
    rng = np.random.default_rng(m + k + n)
    a, b = _matrix(rng, (m, k), dtype), _matrix(rng, (k, n), dtype)
    got = ts.from_numpy(a).mm(ts.from_numpy(b)).numpy()
    assert handed_off and handed_off[0] > 1  # the product was split
    want = a.astype(np.float64) @ b.astype(np.float64)
    assert got.dtype == dtype and got.shape == (m, n)
    tol = 1e-3 if dtype == np.float32 else 1e-10
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * np.sqrt(k))
    # strided operands (a transposed weight, as linear passes it) split the same way
    got_t = ts.from_numpy(a).matmul(ts.from_numpy(np.ascontiguousarray(b.T)).t()).numpy()
    np.testing.assert_allclose(got_t, want, rtol=tol, atol=tol * np.sqrt(k))


@pytest.mark.parametrize(
    ("kernel", "stride", "padding", "groups"),
    [(3, 1, 1, 1), (1, 1, 0, 1), (3, 2, 1, 2), (5, 1, 2, 1)],
)
def test_split_convolutions_equal_serial(threads, handed_off, kernel, stride, padding, groups):
    rng = np.random.default_rng(kernel * 10 + stride)
    x = ts.from_numpy(_matrix(rng, (5, 32, 24, 24), np.float32))
    w = ts.from_numpy(_matrix(rng, (32, 32 // groups, kernel, kernel), np.float32))
    b = ts.from_numpy(_matrix(rng, (32,), np.float32))
    threads(1)
    serial = ts.nn.functional.conv2d(x, w, b, stride, padding, 1, groups).numpy()
    assert not handed_off
    threads(3)
    split = ts.nn.functional.conv2d(x, w, b, stride, padding, 1, groups).numpy()
    assert handed_off and handed_off[0] > 1  # the images were split
    # each image's products are the same products, on whichever thread: the same bits
    np.testing.assert_array_equal(split, serial)
    # and the values are a convolution's (a direct sum in float64)
    xd = np.pad(x.numpy().astype(np.float64), ((0, 0), (0, 0), (padding,) * 2, (padding,) * 2))
    wd = w.numpy().astype(np.float64)
    out = serial.shape[-1]
    want = np.zeros(serial.shape)
    cg, og = 32 // groups, 32 // groups
    for i in range(kernel):
        for j in range(kernel):
            window = xd[:, :, i : i + stride * out : stride, j : j + stride * out : stride]
            for g in range(groups):
                want[:, g * og : (g + 1) * og] += np.einsum(
                    "nchw,oc->nohw",
                    window[:, g * cg : (g + 1) * cg],
                    wd[g * og : (g + 1) * og, :, i, j],
                )
    want += b.numpy()[None, :, None, None]
    np.testing.assert_allclose(serial, want, rtol=1e-4, atol=1e-4)


def test_pool_hands_back_a_share_error_and_stays_usable():
    def share(fail_at: int, start: int, end: int) -> int:
        if start == fail_at:
            raise ValueError(f"share {start}")
        return 1 << start

    with pytest.raises(ValueError, match="share 2"):
        parallel.POOL.run(share, (2,), [(0, 1), (1, 2), (2, 3)])
    with pytest.raises(ValueError, match="share 0"):  # the calling thread's own share
        parallel.POOL.run(share, (0,), [(0, 1), (1, 2)])
    assert parallel.POOL.run(share, (-1,), [(0, 1), (1, 2), (2, 3)]) == 0b111


def test_even_shares_cover_the_work_once():
    for work in (1, 2, 7, 64, 1001):
        for parts in (1, 2, 3, 8):
            bounds = parallel.even_shares(work, parts)
            assert len(bounds) <= parts
            assert bounds[0][0] == 0 and bounds[-1][1] == work
            assert all(a[1] == b[0] for a, b in itertools.pairwise(bounds))
            assert all(end > start for start, end in bounds)


def test_set_num_threads_rejects_what_is_not_a_positive_int(threads):
    for bad in (0, -1, 1.5, True, "2"):
        with pytest.raises(ValueError, match="positive int"):
            parallel.set_num_threads(bad)


def test_numpy_openblas_runs_on_one_thread():
    paths = parallel._loaded_libraries("openblas")
    if not paths:
        pytest.skip("numpy's BLAS is not OpenBLAS here")
    lib = ctypes.CDLL(paths[0])
    getters = [s.replace("set_num", "get_num") for s in parallel._BLAS_SETTERS]
    getter = next((getattr(lib, s) for s in getters if hasattr(lib, s)), None)
    if getter is None:
        pytest.skip("this OpenBLAS cannot report its thread count")
    getter.restype = ctypes.c_int
    assert getter() == 1


def test_thread_count_is_one_setting_for_the_namespace_and_the_fuser(threads):
    ts.set_num_threads(3)
    assert ts.get_num_threads() == parallel.get_num_threads() == 3
    fuser = pytest.importorskip("ts_fuser_cpu")
    assert fuser.get_num_threads() == 3
    fuser.set_num_threads(2)
    assert ts.get_num_threads() == 2


def test_a_worker_runs_a_share_while_the_caller_runs_its_own():
    import threading

    started = threading.Event()
    ran_on = {}

    def share(start: int, end: int) -> int:
        ran_on[start] = threading.get_ident()
        if start == 0:  # the caller's share waits for the other one to start elsewhere
            return 0 if started.wait(timeout=30) else 1
        started.set()
        return 0

    assert parallel.POOL.run(share, (), [(0, 1), (1, 2)]) == 0
    assert ran_on[0] == threading.get_ident() != ran_on[1]
