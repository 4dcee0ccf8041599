"""ts-fuser-cuda's tests: a private kernel cache, the host-emulated device, and the counts
of kernels compiled and expressions checked (printed at the end of the run)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _private_kernel_cache(monkeypatch):
    # one cache for the run, shared by the test processes (compiled once, loaded by the others)
    monkeypatch.setenv("TS_JIT_CACHE_DIR", os.path.join(os.environ["TS_CUDA_TEST_DIR"], "kernels"))


@pytest.fixture(scope="session")
def host_driver():
    """One emulated device for the session (its modules stay loaded between tests). At the end
    every kernel it was asked to build is compiled by nvcc as well."""
    from cuda_testing import RecordingHostDriver, check_recorded_with_nvcc

    yield RecordingHostDriver()
    check_recorded_with_nvcc()


@pytest.fixture
def host_cuda(host_driver):
    """The CUDA path on the host: `HostDriver` installed for the test, removed after."""
    import ts_fuser_cuda

    previous = ts_fuser_cuda.use_driver(host_driver)
    try:
        yield host_driver
    finally:
        ts_fuser_cuda.use_driver(previous)


def pytest_configure(config):
    # a directory of the run, shared by its test processes (xdist workers inherit it): the
    # kernel cache, the counts each process adds, the marks of kernels nvcc has compiled
    if "TS_CUDA_TEST_DIR" not in os.environ:
        os.environ["TS_CUDA_TEST_DIR"] = tempfile.mkdtemp(prefix="tsjit-cuda-tests-")


def pytest_terminal_summary(terminalreporter):
    """Sum the counts tests record (`record_property("cuda_count:<what>", n)`, and
    `cuda_testing.add_count`), across workers."""
    totals: dict[str, int] = {}
    directory = Path(os.environ["TS_CUDA_TEST_DIR"])
    for path in directory.glob("*.counts"):
        for line in path.read_text().splitlines():
            key, _, value = line.partition("\t")
            totals[key] = totals.get(key, 0) + int(value)
    for report in terminalreporter.stats.get("passed", []):
        for name, value in getattr(report, "user_properties", ()):
            if isinstance(name, str) and name.startswith("cuda_count:"):
                key = name.partition(":")[2]
                totals[key] = totals.get(key, 0) + int(value)
    if totals:
        terminalreporter.write_sep("-", "ts-fuser-cuda checks")
        for key in sorted(totals):
            terminalreporter.write_line(f"{key}: {totals[key]}")
