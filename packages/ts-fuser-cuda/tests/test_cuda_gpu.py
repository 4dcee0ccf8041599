"""The CUDA path on a real GPU (pycuda installed, a device found); skipped elsewhere.

The same checks as on the host emulation, run by the GPU: transfers, eager
pointwise kernels, reductions, matrix products, and a fused group, against
the CPU. Float32 math functions are CUDA's own here (within NVIDIA's
documented ulp bounds), so they are compared within a few ulp.
"""

from __future__ import annotations

import numpy as np
import pytest
import ts_fuser_cuda
import ts_runtime as ts
from cuda_testing import assert_same
from ts_ir import parse_ir


@pytest.fixture(scope="module")
def gpu():
    previous = ts_fuser_cuda.use_driver(None)
    d = ts_fuser_cuda.current_driver()
    if not isinstance(d, ts_fuser_cuda.PyCudaDriver):
        ts_fuser_cuda.use_driver(previous)
        pytest.skip(f"no GPU: {ts_fuser_cuda.unavailable_reason()}")
    ts.devices.is_available("cuda")
    yield d
    ts_fuser_cuda.use_driver(previous)


rng = np.random.default_rng(5)


def test_round_trip(gpu):
    for dtype in (np.bool_, np.int32, np.int64, np.float32, np.float64):
        a = (rng.standard_normal((37, 41)) * 10).astype(dtype)
        np.testing.assert_array_equal(ts.from_numpy(a).cuda().cpu().numpy(), a)


def test_eager_operations(gpu):
    a, b = rng.standard_normal((2, 300, 257)).astype(np.float32)
    x, y = ts.from_numpy(a).cuda(), ts.from_numpy(b).cuda()
    cpu_x, cpu_y = ts.from_numpy(a), ts.from_numpy(b)
    np.testing.assert_array_equal((x * y + 1).cpu().numpy(), (cpu_x * cpu_y + 1).numpy())
    assert_same([x.sigmoid().cpu().numpy()], [cpu_x.sigmoid().numpy()], ulps=4)
    np.testing.assert_allclose(x.sum(1).cpu().numpy(), a.sum(1), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose((x @ y.t()).cpu().numpy(), a @ b.T, rtol=1e-4, atol=1e-3)
    np.testing.assert_array_equal(x.t().contiguous().cpu().numpy(), a.T)


def test_fused_group(gpu):
    text = """graph(%a : Tensor, %b : Tensor):
  %one : int = prim::Constant[value=1]()
  %x : Tensor = aten::mul(%a, %b)
  %y : Tensor = aten::add(%x, %a, %one)
  %r : Tensor = aten::relu(%y)
  return (%r)
"""
    fn = ts.Function("f", parse_ir(text))
    a, b = rng.standard_normal((2, 1000, 1000)).astype(np.float32)
    with ts.no_grad():
        got = fn(ts.from_numpy(a).cuda(), ts.from_numpy(b).cuda())
        want = fn(ts.from_numpy(a), ts.from_numpy(b))
    np.testing.assert_array_equal(got.cpu().numpy(), want.numpy())
