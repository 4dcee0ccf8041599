"""`tsjit.cuda`, as `torch.cuda`, where no GPU can be used (the machines tests run on).

With a GPU, ts-fuser-cuda's own tests cover the device (`tests/test_gpu.py`);
here, everything asking for CUDA must say it is unavailable and why, where
PyTorch without CUDA raises or answers False.
"""

from __future__ import annotations

import pytest
import ts_fuser_cuda
import tsjit as torch
from ts_runtime.devices import DeviceUnavailableError


@pytest.fixture
def no_gpu():
    if ts_fuser_cuda.current_driver() is not None:
        pytest.skip("a CUDA device is available here")


def test_is_available_is_false_with_a_reason(no_gpu):
    assert torch.cuda.is_available() is False
    assert torch.cuda.device_count() == 0
    reason = torch.cuda.unavailable_reason()
    assert reason and reason == ts_fuser_cuda.unavailable_reason()


def test_asking_for_cuda_raises_the_reason(no_gpu):
    for ask in (
        torch.cuda.synchronize,
        torch.cuda.current_device,
        lambda: torch.ones(2).cuda(),
        lambda: torch.ones(2).to("cuda"),
        lambda: torch.zeros(2, 3, device="cuda"),
    ):
        with pytest.raises(DeviceUnavailableError, match="CUDA is not available"):
            ask()
    # the error is the RuntimeError (TensorError) PyTorch raises for it
    with pytest.raises(RuntimeError):
        torch.randn(2, device="cuda")


def test_scripted_code_on_the_cpu_is_unaffected(no_gpu):
    @torch.jit.script
    def f(x):
        return (x * 2).sigmoid()

    x = torch.ones(3)
    assert f(x).device.type == "cpu"
    assert not x.is_cuda and x.get_device() == -1
