"""Eager operations on CUDA tensors, on the host-emulated device, against the same operations
on CPU tensors (the interpreter's kernels) and numpy.

Transfers, views and pointwise operators must agree exactly; reductions and
matrix products to rounding (their order of additions differs from numpy's).
An operator without a CUDA kernel raises an error naming it and the device,
and nothing reads device memory on the host unless asked to (`.cpu()`,
`item()`, printing).
"""

from __future__ import annotations

import numpy as np
import pytest
import ts_runtime as ts
from cuda_testing import assert_same
from ts_fuser_cuda import CudaArray
from ts_runtime.devices import DeviceError

pytestmark = [
    pytest.mark.usefixtures("host_cuda"),
    pytest.mark.filterwarnings("ignore::RuntimeWarning"),
]

rng = np.random.default_rng(7)


def host(t: ts.Tensor) -> np.ndarray:
    return t.cpu().numpy()


def randn(*shape: int, dtype=np.float32) -> np.ndarray:
    return rng.standard_normal(shape).astype(dtype)


def pair(array: np.ndarray) -> tuple[ts.Tensor, ts.Tensor]:
    """The same values as a CPU tensor and a CUDA tensor."""
    cpu = ts.from_numpy(np.array(array))
    return cpu, cpu.cuda()


# ---------------------------------------------------------------------------
# storage and transfers


@pytest.mark.parametrize(
    "dtype", [np.bool_, np.int32, np.int64, np.float32, np.float64, np.float16, np.uint8]
)
def test_round_trip_keeps_values_and_dtype(dtype):
    a = (rng.standard_normal((3, 5)) * 10).astype(dtype)
    t = ts.from_numpy(a).cuda()
    assert isinstance(t._data, CudaArray)
    assert t.device == ts.device("cuda", 0) and t.is_cuda and t.get_device() == 0
    back = t.cpu()
    assert back.device.type == "cpu"
    np.testing.assert_array_equal(back.numpy(), a)


def test_strided_host_array_is_uploaded_in_order():
    a = randn(6, 8)[::2, 1::3].T
    np.testing.assert_array_equal(host(ts.from_numpy(a).cuda()), a)


@pytest.mark.parametrize("target", ["cuda", "cuda:0", 0])
def test_to_and_cuda_spellings(target):
    cpu = ts.from_numpy(randn(4))
    for t in (cpu.to(target) if not isinstance(target, int) else cpu.cuda(target), cpu.cuda()):
        assert t.is_cuda
    assert cpu.to("cpu") is cpu


def test_to_with_dtype_converts_on_the_side_that_has_the_data():
    a = randn(3, 4) * 100
    cuda = ts.from_numpy(a).to("cuda", ts.int32)
    assert cuda.is_cuda and cuda.dtype == ts.int32
    np.testing.assert_array_equal(host(cuda), a.astype(np.int32))
    down = cuda.to("cpu", ts.float64)
    np.testing.assert_array_equal(down.numpy(), a.astype(np.int32).astype(np.float64))
    same = cuda.to(ts.int32)
    assert same is cuda
    assert cuda.to(ts.int32, copy=True) is not cuda


def test_creation_with_device():
    assert host(ts.zeros(2, 3, device="cuda")).tolist() == [[0.0] * 3] * 2
    np.testing.assert_array_equal(host(ts.arange(5, device="cuda")), np.arange(5))
    np.testing.assert_array_equal(host(ts.full((2,), 7, device="cuda")), [7, 7])
    np.testing.assert_array_equal(
        host(ts.tensor([[1, 2], [3, 4]], device="cuda")), [[1, 2], [3, 4]]
    )
    ts.manual_seed(3)
    on_cpu = ts.randn(4, 5)
    ts.manual_seed(3)
    on_cuda = ts.randn(4, 5, device="cuda")
    assert on_cuda.is_cuda
    np.testing.assert_array_equal(host(on_cuda), on_cpu.numpy())
    like = ts.ones_like(on_cuda)
    assert like.is_cuda and host(like).sum() == 20


def test_host_reads_are_explicit():
    cpu, cuda = pair(randn(2, 3))
    with pytest.raises(DeviceError, match="cuda"):
        cuda.numpy()
    with pytest.raises(DeviceError, match="cuda"):
        np.asarray(cuda)
    with pytest.raises(DeviceError, match="cuda"):
        np.add(cuda._data, 1)
    assert cuda[0, 1].item() == pytest.approx(float(cpu[0, 1]))
    assert cuda.tolist() == cpu.tolist()
    assert bool(cuda[0, 0] == cpu[0, 0].cuda())
    assert repr(cuda).endswith("device='cuda:0')")
    assert repr(cuda).replace(", device='cuda:0'", "") == repr(cpu)


def test_autograd_is_refused_for_cuda_tensors():
    _, cuda = pair(randn(3))
    with pytest.raises(DeviceError, match="autograd"):
        cuda.requires_grad_()


def test_nothing_is_copied_to_the_host_behind_the_callers_back(host_cuda, monkeypatch):
    reads = []
    original = host_cuda.copy_to_host
    monkeypatch.setattr(
        host_cuda, "copy_to_host", lambda dst, src: (reads.append(1), original(dst, src))
    )
    x = ts.from_numpy(randn(16, 8)).cuda()
    y = ts.from_numpy(randn(8)).cuda()
    z = ((x * 2 + y).sigmoid() @ x.t()).sum(1)
    w = x[2:5].permute(1, 0).contiguous().mean()
    assert reads == []
    z.cpu()
    w.item()
    assert len(reads) == 2


# ---------------------------------------------------------------------------
# views


VIEWS = [
    lambda t: t.view(4, 6),
    lambda t: t.reshape(-1),
    lambda t: t.transpose(0, 2),
    lambda t: t.permute(2, 0, 1),
    lambda t: t.unsqueeze(1),
    lambda t: t[:, :1].squeeze(1),
    lambda t: t.select(1, 2),
    lambda t: t.narrow(2, 1, 2),
    lambda t: t[:, None, 1:, ::2],
    lambda t: t[1],
    lambda t: t[..., -1],
    lambda t: t.flatten(1),
    lambda t: t[:, :1].expand(2, 5, 4),
    lambda t: t.transpose(0, 1).reshape(3, 8),  # not a view: copied
    lambda t: t.t() if t.dim() == 2 else t[0].t(),
    lambda t: t.detach(),
]


@pytest.mark.parametrize("view", range(len(VIEWS)))
def test_views_match_the_cpu(view):
    cpu, cuda = pair(randn(2, 3, 4))
    want = VIEWS[view](cpu)
    got = VIEWS[view](cuda)
    assert got.is_cuda
    assert got.shape == want.shape
    np.testing.assert_array_equal(host(got), want.numpy())


def test_views_share_memory_and_version():
    _, cuda = pair(randn(4, 4))
    v = cuda[1:3, ::2]
    assert v._data.allocation is cuda._data.allocation
    assert v.storage_offset() == 4 and v.stride() == (4, 2) and not v.is_contiguous()
    v.add_(1)
    assert cuda._version_number == v._version_number == 1
    cuda[0] = 5.0
    assert host(cuda)[0].tolist() == [5.0] * 4


@pytest.mark.parametrize("op", ["chunk", "split", "unbind"])
def test_splitting(op):
    cpu, cuda = pair(randn(7, 3))
    args = {"chunk": (3, 0), "split": (2, 0), "unbind": (1,)}[op]
    want = getattr(cpu, op)(*args)
    got = getattr(cuda, op)(*args)
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        np.testing.assert_array_equal(host(g), w.numpy())


def test_view_errors_are_the_cpus():
    cpu, cuda = pair(randn(2, 3, 4))
    for call in (
        lambda t: t.transpose(0, 1).view(-1),
        lambda t: t.view(5, 5),
        lambda t: t.select(3, 0),
    ):
        with pytest.raises(Exception) as want:
            call(cpu)
        with pytest.raises(type(want.value)) as got:
            call(cuda)
        assert str(got.value) == str(want.value)


def test_copies_across_devices_and_dtypes():
    cpu, cuda = pair(np.zeros((3, 4), np.float64))
    src = randn(4)
    cuda.copy_(ts.from_numpy(src))  # host to device, broadcast, float32 to float64
    cpu.copy_(ts.from_numpy(src))
    np.testing.assert_array_equal(host(cuda), cpu.numpy())
    back = ts.zeros(3, 4, dtype=ts.int32)
    back.copy_(cuda * 10)  # device to host
    np.testing.assert_array_equal(back.numpy(), (cpu * 10).numpy().astype(np.int32))
    cuda[1:, 2:].fill_(-1)
    cpu[1:, 2:].fill_(-1)
    np.testing.assert_array_equal(host(cuda), cpu.numpy())
    assert host(cuda.clone()).tolist() == cpu.tolist()
    t = cuda.t()
    assert t.contiguous().is_contiguous() and host(t.contiguous()).tolist() == cpu.t().tolist()


# ---------------------------------------------------------------------------
# pointwise operators


#: (operation, ulps): exact, except where the math library (the host's standing in for CUDA's)
#: and numpy's round differently
POINTWISE = [
    (lambda a, b: a + b, 0),
    (lambda a, b: a - 2.5 * b, 0),
    (lambda a, b: a * b / (b.abs() + 1), 0),
    (lambda a, b: (a > b).logical_and(b > 0), 0),
    (lambda a, b: ts.where(a > 0, a, b), 0),
    (lambda a, b: a.sigmoid() * b.tanh(), 8),
    (lambda a, b: ts.maximum(a, b).clamp(-0.5, 0.5), 0),
    (lambda a, b: a.exp().log1p() - b.relu(), 8),
    (lambda a, b: a.to(ts.int64) // 3, 0),
    (lambda a, b: (a * 100).to(ts.int32) % 7, 0),
    (lambda a, b: a.pow(2) + b.sqrt(), 1),
    (lambda a, b: -a + 1, 0),
    (lambda a, b: 3 - a, 0),
    (lambda a, b: a[0] * b, 0),  # broadcasting a row
    (lambda a, b: a.t() + b.t(), 0),  # transposed operands
    (lambda a, b: ts.floor_divide(a, b), 0),
]


@pytest.mark.parametrize("fn", range(len(POINTWISE)))
def test_pointwise_matches_the_cpu(fn):
    op, ulps = POINTWISE[fn]
    a_cpu, a = pair(randn(5, 6) * 3)
    b_cpu, b = pair(randn(5, 6))
    want = op(a_cpu, b_cpu)
    got = op(a, b)
    assert got.is_cuda and got.dtype == want.dtype and got.shape == want.shape
    assert_same([host(got)], [want.numpy()], ulps=ulps)


def test_a_zero_dim_cpu_tensor_mixes_with_cuda_tensors_as_pytorch_allows():
    cpu, cuda = pair(randn(3))
    scale = ts.tensor(2.0, dtype=ts.float64)
    np.testing.assert_array_equal(host(cuda * scale), (cpu * scale).numpy())


def test_mixing_devices_is_an_error():
    _, cuda = pair(randn(3))
    with pytest.raises(DeviceError, match="same device"):
        cuda + ts.ones(3)


def test_in_place_operators():
    cpu, cuda = pair(randn(4, 4))
    for t in (cpu, cuda):
        t.add_(1).mul_(t[0].clone()).relu_().sigmoid_()
    assert_same([host(cuda)], [cpu.numpy()], ulps=2)
    assert cuda._version_number == cpu._version_number
    ints = ts.zeros(3, dtype=ts.int64, device="cuda")
    with pytest.raises(ts.TensorError, match="can't be cast"):
        ints.add_(0.5)


def test_integer_division_by_zero_is_an_error():
    a = ts.tensor([4, 5, 6], device="cuda")
    with pytest.raises(ts.TensorError, match="ZeroDivisionError"):
        a.remainder(ts.tensor([1, 0, 2], device="cuda"))


def test_eager_kernels_come_from_the_fusion_code_generator():
    from ts_fuser_cuda import backend

    before = backend.stats.specializations
    _, a = pair(randn(3))
    a.sigmoid()
    assert backend.stats.specializations == before + 1


# ---------------------------------------------------------------------------
# reductions


REDUCTIONS = [
    lambda t: t.sum(),
    lambda t: t.sum(1),
    lambda t: t.sum([0, 2], keepdim=True),
    lambda t: t.mean(),
    lambda t: t.mean(-1),
    lambda t: t.prod(1),
    lambda t: t.amax(1),
    lambda t: t.amin([0, 1]),
    lambda t: t.max(),
    lambda t: t.min(),
    lambda t: (t > 0).any(1),
    lambda t: (t > -3).all(),
    lambda t: t.to(ts.int32).sum(0),
    lambda t: (t > 0).sum(),
    lambda t: t.transpose(0, 2).sum(0),
    lambda t: t[:, ::2].mean(1, dtype=ts.float64),
]


@pytest.mark.parametrize("fn", range(len(REDUCTIONS)))
def test_reductions_match_the_cpu(fn):
    cpu, cuda = pair(randn(6, 5, 9))
    want = REDUCTIONS[fn](cpu)
    got = REDUCTIONS[fn](cuda)
    assert got.is_cuda and got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(host(got), want.numpy(), rtol=2e-6, atol=1e-6)


def test_reductions_with_nan_and_of_nothing():
    cpu, cuda = pair(np.array([[1.0, np.nan], [2.0, 3.0]], np.float32))
    np.testing.assert_array_equal(host(cuda.amax(1)), cpu.amax(1).numpy())
    empty_cpu, empty = pair(np.zeros((0, 3), np.float32))
    assert host(empty.sum(0)).tolist() == [0.0, 0.0, 0.0]
    assert np.isnan(host(empty.mean(0))).all()
    with pytest.raises(ts.TensorError) as want:
        empty_cpu.max()
    with pytest.raises(type(want.value), match="numel"):
        empty.max()
    with pytest.raises(ts.TensorError, match="floating point"):
        ts.ones(3, dtype=ts.int64, device="cuda").mean()


# ---------------------------------------------------------------------------
# matrix products


def test_matrix_products():
    a, b = randn(33, 20), randn(20, 17)
    _, ca = pair(a)
    _, cb = pair(b)
    np.testing.assert_allclose(host(ca @ cb), a @ b, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(host(ca.mm(cb)), a @ b, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(host(cb.t() @ ca.t()), (a @ b).T, rtol=1e-5, atol=1e-5)
    batch = randn(3, 33, 20)
    np.testing.assert_allclose(host(pair(batch)[1] @ cb), batch @ b, rtol=1e-5, atol=1e-5)
    v = randn(20)
    np.testing.assert_allclose(host(ca @ pair(v)[1]), a @ v, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(host(pair(v)[1] @ pair(v)[1]), v @ v, rtol=1e-5)
    bias = randn(17)
    out = ts.addmm(pair(bias)[1], ca, cb, beta=0.5, alpha=2.0)
    np.testing.assert_allclose(host(out), 0.5 * bias + 2 * (a @ b), rtol=1e-5, atol=1e-5)
    lin = ts.nn.functional.linear(ca, cb.t(), pair(bias)[1])
    np.testing.assert_allclose(host(lin), a @ b + bias, rtol=1e-5, atol=1e-5)
    d = randn(5, 7, dtype=np.float64)
    np.testing.assert_allclose(host(pair(d)[1].t() @ pair(d)[1]), d.T @ d, rtol=1e-12)


def test_matrix_product_errors():
    a = ts.ones(3, 4, device="cuda")
    with pytest.raises(ts.TensorError, match="cannot be multiplied"):
        a @ a
    with pytest.raises(DeviceError, match="not implemented on cuda"):
        ts.ones(2, 2, dtype=ts.int64, device="cuda") @ ts.ones(2, 2, dtype=ts.int64, device="cuda")


# ---------------------------------------------------------------------------
# what has no kernel


def test_an_operator_without_a_cuda_kernel_names_itself_and_the_device():
    _, cuda = pair(randn(5))
    with pytest.raises(DeviceError, match=r"aten::cumsum.* cuda"):
        cuda.cumsum(0)
    with pytest.raises(DeviceError, match=r"aten::sort.* cuda"):
        cuda.sort()
    with pytest.raises(DeviceError, match=r"aten::index.*cuda"):
        cuda[ts.tensor([0, 2])]
