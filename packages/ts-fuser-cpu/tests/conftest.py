"""Every ts-fuser-cpu test writes kernels to its own cache directory, never to the user's."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _private_kernel_cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("TS_JIT_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "kernels"))
