"""Kernels called on real arrays: layouts, broadcasting, chunks, scalars, threads, calling conventions."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import ts_fuser_cpu
from fuser_testing import as_runtime, fused, interpreted, spec_of
from ts_fuser_cpu import Abi, CpuFuser, DiskCache
from ts_ir import parse_ir

rng = np.random.default_rng(5)

EXPR = """graph(%a : Tensor, %b : Tensor, %c : Tensor):
  %one : int = prim::Constant[value=1]()
  %x : Tensor = aten::mul(%a, %b)
  %y : Tensor = aten::sub(%x, %c, %one)
  %z : Tensor = aten::sigmoid(%y)
  %w : Tensor = aten::gt(%z, %a)
  return (%z, %w)
"""


def check(text, *values, backend=None):
    got = fused(text, *values, backend=backend)
    want = interpreted(text, *values)
    assert got is not None
    for g, w in zip(got, want, strict=True):
        assert g.dtype == w.dtype and g.shape == w.shape
        if g.dtype.kind == "f":
            # sigmoid and tanh differ from numpy's by an ulp or three; sums may cancel that
            np.testing.assert_allclose(g, w, rtol=4e-6, atol=1e-6)
        else:
            np.testing.assert_array_equal(g, w)
    return got


def r(*shape, dtype=np.float32):
    return rng.standard_normal(shape).astype(dtype)


LAYOUTS = {
    "contiguous": lambda: (r(6, 7), r(6, 7), r(6, 7)),
    "transposed": lambda: (r(7, 6).T, r(7, 6).T, r(7, 6).T),
    "mixed-transposed": lambda: (r(7, 6).T, r(6, 7), r(7, 6).T),
    "sliced": lambda: (r(12, 14)[::2, 1::2], r(6, 7), r(6, 9)[:, :7]),
    "reversed": lambda: (r(6, 7)[::-1], r(6, 7)[:, ::-1], r(6, 7)),
    "row-broadcast": lambda: (r(6, 7), r(7), r(1, 7)),
    "column-broadcast": lambda: (r(6, 7), r(6, 1), r(1)),
    "outer-product": lambda: (r(6, 1), r(1, 7), r(6, 7)),
    "scalar-tensors": lambda: (r(6, 7), r(), r(1, 1)),
    "rank-4": lambda: (r(2, 3, 4, 5), r(3, 1, 5), r(2, 1, 4, 1)),
    "rank-4-permuted": lambda: (r(5, 4, 3, 2).transpose(3, 1, 2, 0), r(2, 4, 3, 5), r(5)),
    "zero-dim": lambda: (r(), r(), r()),
    "empty": lambda: (r(0, 7), r(7), r(1, 7)),
    "long-rows": lambda: (r(3, 1000), r(1000), r(3, 1)),
    "odd-sizes": lambda: (r(37), r(37), r(1)),
}


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_layouts_match_the_interpreter(layout):
    check(EXPR, *LAYOUTS[layout]())


def test_outputs_keep_the_inputs_memory_order():
    a, b, c = LAYOUTS["transposed"]()
    z, w = fused(EXPR, a, b, c)
    zi, wi = interpreted(EXPR, a, b, c)
    assert z.strides == zi.strides and w.strides == wi.strides


@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.int64])
def test_other_dtypes(dtype):
    text = EXPR.replace("aten::sigmoid", "aten::neg")
    check(text, *(r(5, 9).astype(dtype) * (1 if dtype != np.int32 else 100) for _ in range(3)))


def test_chunks_of_broadcast_inputs():
    """What fuse_graph makes of the LSTM cell: a bias broadcast to the gates' shape, then chunked."""
    text = """graph(%gates : Tensor, %bias : Tensor, %cx : Tensor):
  %one : int = prim::Constant[value=1]()
  %g0 : Tensor, %g1 : Tensor, %g2 : Tensor, %g3 : Tensor = prim::ConstantChunk[chunks=4, dim=1](%gates)
  %b0 : Tensor, %b1 : Tensor, %b2 : Tensor, %b3 : Tensor = prim::ConstantChunk[chunks=4, dim=1](%bias)
  %i0 : Tensor = aten::add(%g0, %b0, %one)
  %i1 : Tensor = aten::add(%g1, %b1, %one)
  %i2 : Tensor = aten::add(%g2, %b2, %one)
  %i3 : Tensor = aten::add(%g3, %b3, %one)
  %ingate : Tensor = aten::sigmoid(%i0)
  %forgetgate : Tensor = aten::sigmoid(%i1)
  %cellgate : Tensor = aten::tanh(%i2)
  %outgate : Tensor = aten::sigmoid(%i3)
  %f : Tensor = aten::mul(%forgetgate, %cx)
  %i : Tensor = aten::mul(%ingate, %cellgate)
  %cy : Tensor = aten::add(%f, %i, %one)
  %t : Tensor = aten::tanh(%cy)
  %hy : Tensor = aten::mul(%outgate, %t)
  return (%hy, %cy)
"""
    gates = r(8, 64)
    bias = np.broadcast_to(r(64), (8, 64))  # stride 0 along the batch
    check(text, gates, bias, r(8, 16))


def test_number_inputs_passed_at_run_time():
    text = """graph(%a : Tensor, %s : float, %n : int, %flag : bool):
  %one : int = prim::Constant[value=1]()
  %x : Tensor = aten::mul(%a, %s)
  %y : Tensor = aten::add(%x, %n, %one)
  %z : Tensor = aten::mul(%y, %flag)
  return (%z)
"""
    g = parse_ir(text)
    a = r(50)
    kernel = ts_fuser_cpu.backend.compile(g, [spec_of(a), spec_of(1.5), spec_of(3), spec_of(True)])
    for s, n, flag in [(1.5, 3, True), (-0.25, -7, True), (2.0, 0, False)]:
        out = kernel(as_runtime(a), s, n, flag).numpy()
        np.testing.assert_array_equal(out, interpreted(text, a, s, n, flag)[0])


def test_large_tensors_run_on_threads_with_the_same_results():
    text = EXPR
    values = (r(700, 300), r(300), r(700, 1))
    previous = ts_fuser_cpu.get_num_threads()
    try:
        ts_fuser_cpu.set_num_threads(1)
        one = fused(text, *values)
        ts_fuser_cpu.set_num_threads(3)
        three = fused(text, *values)
    finally:
        ts_fuser_cpu.set_num_threads(previous)
    for a, b in zip(one, three, strict=True):
        np.testing.assert_array_equal(a, b)


def test_thread_shares_cover_the_work_once():
    from ts_fuser_cpu import parallel

    previous = parallel.get_num_threads()
    try:
        parallel.set_num_threads(4)
        bounds = parallel.shares(1_000_003, 1, align=64)
        assert bounds[0][0] == 0 and bounds[-1][1] == 1_000_003
        assert all(a[1] == b[0] for a, b in itertools.pairwise(bounds))
        assert all(start % 64 == 0 for start, _ in bounds)
        assert len(bounds) == 4
        assert parallel.shares(1000, 1) == [(0, 1000)]  # small work stays on one thread
    finally:
        parallel.set_num_threads(previous)
    with pytest.raises(ValueError):
        parallel.set_num_threads(0)


def test_data_pointers_instead_of_array_objects(tmp_path):
    backend = CpuFuser(abi=Abi(pass_objects=False), disk_cache=DiskCache(tmp_path))
    check(EXPR, *LAYOUTS["sliced"](), backend=backend)
    check(EXPR, *LAYOUTS["contiguous"](), backend=backend)


def test_the_array_struct_layout_is_detected():
    from ts_fuser_cpu.kernel import detect_abi

    assert detect_abi().pass_objects  # CPython on 64 bits with numpy's documented struct


def test_one_compiled_code_serves_every_shape(tmp_path):
    backend = CpuFuser(disk_cache=DiskCache(tmp_path))
    for shape in [(3, 4), (100, 7), (5,), (2, 2, 2)]:
        check(EXPR, r(*shape), r(*shape), r(*shape), backend=backend)
    assert backend.stats.specializations == 4
    assert len(backend._codes) == 1


def test_small_launches_use_the_cpython_entry_and_agree_with_ctypes():
    import ctypes

    g = parse_ir(EXPR)
    a, b, c = LAYOUTS["row-broadcast"]()
    kernel = ts_fuser_cpu.backend.compile(g, [spec_of(a), spec_of(b), spec_of(c)])
    code = kernel.code
    assert code.pyfunc is not None and "_small(" in kernel.source
    spec = kernel.spec
    info = (ctypes.c_int64 * len(spec.info))(*spec.info)
    results = []
    for entry in (code.pyfunc, code.cfunc):
        outs = [np.empty(spec.shape, d) for d in spec.output_numpy_dtypes]
        status = entry(a, b, c, *outs, ctypes.addressof(info), 0, spec.work_items)
        assert status == 0
        results.append(outs)
    for x, y in zip(*results, strict=True):
        np.testing.assert_array_equal(x, y)
