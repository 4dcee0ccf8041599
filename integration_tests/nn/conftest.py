"""PyTorch, where a test uses it, runs on one thread here: the tests run in parallel
workers on few cores, and PyTorch's own threads would compete with them (a small LSTM's
ten training steps take six times longer on a loaded machine with its default threads)."""

from __future__ import annotations

import sys

import pytest


@pytest.fixture(autouse=True)
def _one_torch_thread():
    torch = sys.modules.get("torch")
    if torch is None:
        yield
        return
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(threads)
