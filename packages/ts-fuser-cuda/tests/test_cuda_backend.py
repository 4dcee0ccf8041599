"""The CUDA fusion backend behind the graph executor, on the host-emulated device.

Programs run on CUDA tensors are specialized for the device (the
ArgumentSpec records it), fused into groups the CUDA backend compiles, and
give the results the same programs give on the CPU. A group the backend
cannot compile runs in the interpreter (on the device) with the reason
logged. Compiled modules are cached in memory and on disk.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import numpy as np
import pytest
import ts_runtime as ts
from cuda_testing import RecordingHostDriver, assert_same
from ts_fuser_cuda import HostDriver, backend
from ts_fuser_cuda.driver import Driver
from ts_ir import parse_ir
from ts_runtime.executor import describe_spec

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

CORPUS = Path(__file__).resolve().parents[3] / "integration_tests" / "corpus" / "programs.jsonl"
rng = np.random.default_rng(11)

IOU = """graph(%x1 : Tensor, %y1 : Tensor, %w1 : Tensor, %h1 : Tensor, %x2 : Tensor, %y2 : Tensor, %w2 : Tensor, %h2 : Tensor):
  %one : int = prim::Constant[value=1]()
  %zero : float = prim::Constant[value=0.]()
  %eps : float = prim::Constant[value=1.0000000000000001e-05]()
  %none : NoneType = prim::Constant()
  %xi : Tensor = aten::max(%x1, %x2)
  %yi : Tensor = aten::max(%y1, %y2)
  %a : Tensor = aten::add(%x1, %w1, %one)
  %b : Tensor = aten::add(%x2, %w2, %one)
  %c : Tensor = aten::min(%a, %b)
  %d : Tensor = aten::sub(%c, %xi, %one)
  %wi : Tensor = aten::clamp(%d, %zero, %none)
  %e : Tensor = aten::add(%y1, %h1, %one)
  %f : Tensor = aten::add(%y2, %h2, %one)
  %g : Tensor = aten::min(%e, %f)
  %h : Tensor = aten::sub(%g, %yi, %one)
  %hi : Tensor = aten::clamp(%h, %zero, %none)
  %area_i : Tensor = aten::mul(%wi, %hi)
  %p : Tensor = aten::mul(%w1, %h1)
  %q : Tensor = aten::mul(%w2, %h2)
  %s : Tensor = aten::add(%p, %q, %one)
  %area_u : Tensor = aten::sub(%s, %area_i, %one)
  %den : Tensor = aten::clamp(%area_u, %eps, %none)
  %r : Tensor = aten::div(%area_i, %den)
  return (%r)
"""


def corpus_program(name: str) -> str | None:
    if not CORPUS.exists():
        return None
    with open(CORPUS, encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            if row["name"] == name:
                return row["inlined_graph"]
    return None


def both(*arrays: np.ndarray) -> tuple[list[ts.Tensor], list[ts.Tensor]]:
    cpu = [ts.from_numpy(a) for a in arrays]
    return cpu, [t.cuda() for t in cpu]


def test_iou_fuses_into_one_cuda_group_and_matches_the_cpu(host_cuda):
    fn = ts.Function("iou", parse_ir(IOU))
    arrays = [rng.random((7, 33), dtype=np.float32) for _ in range(8)]
    cpu, cuda = both(*arrays)
    with ts.no_grad():
        before = backend.stats.specializations
        got = fn(*cuda)
        want = fn(*cpu)
        graph = fn.graph_for(*cuda)
    assert got.is_cuda
    np.testing.assert_array_equal(got.cpu().numpy(), want.numpy())
    groups = [n for n in graph.nodes() if n.kind == "prim::FusionGroup"]
    assert len(groups) == 1
    assert "device=cuda:0" in str(graph)
    assert backend.stats.specializations == before + 1
    # the CPU and the CUDA call compiled a plan each: the spec records the device
    specs = [describe_spec(p.spec) for p in fn.executor.debug_state()]
    assert any("cuda:0" in s for s in specs) and any("cuda" not in s for s in specs)


def test_corpus_ratio_iou_on_cuda(host_cuda):
    text = corpus_program("ratio_iou")
    if text is None:
        pytest.skip("the corpus is not in this checkout")
    fn = ts.Function("ratio_iou", parse_ir(text))
    cpu, cuda = both(*[rng.random((4, 50), dtype=np.float32) for _ in range(8)])
    with ts.no_grad():
        np.testing.assert_array_equal(fn(*cuda).cpu().numpy(), fn(*cpu).numpy())


def test_lstm_cell_mixes_matmul_kernels_and_a_fused_chunk_group(host_cuda):
    text = corpus_program("lstm_cell")
    if text is None:
        pytest.skip("the corpus is not in this checkout")
    fn = ts.Function("lstm_cell", parse_ir(text))
    batch, inp, hidden = 3, 10, 8
    arrays = [
        rng.standard_normal((batch, inp)).astype(np.float32),
        rng.standard_normal((batch, hidden)).astype(np.float32),
        rng.standard_normal((batch, hidden)).astype(np.float32),
        rng.standard_normal((4 * hidden, inp)).astype(np.float32),
        rng.standard_normal((4 * hidden, hidden)).astype(np.float32),
        rng.standard_normal(4 * hidden).astype(np.float32),
        rng.standard_normal(4 * hidden).astype(np.float32),
    ]
    cpu, cuda = both(*arrays)
    with ts.no_grad():
        got, want = fn(*cuda), fn(*cpu)
        graph = str(fn.graph_for(*cuda))
    assert "prim::FusionGroup" in graph and "prim::ConstantChunk" in graph
    for g, w in zip(got, want, strict=True):
        assert g.is_cuda
        np.testing.assert_allclose(g.cpu().numpy(), w.numpy(), rtol=1e-5, atol=1e-5)


def test_a_group_the_backend_cannot_compile_runs_on_the_device_with_the_reason_logged(
    host_cuda, caplog
):
    # two outputs of different shapes: the fused kernel writes one iteration space
    text = """graph(%a : Tensor, %b : Tensor):
  %one : int = prim::Constant[value=1]()
  %x : Tensor = aten::add(%a, %one, %one)
  %y : Tensor = aten::mul(%x, %b)
  %r : (Tensor, Tensor) = prim::TupleConstruct(%x, %y)
  return (%r)
"""
    fn = ts.Function("f", parse_ir(text))
    cpu, cuda = both(rng.random((1, 5), dtype=np.float32), rng.random((4, 5), dtype=np.float32))
    with caplog.at_level(logging.INFO), ts.no_grad():
        got = fn(*cuda)
        want = fn(*cpu)
    for g, w in zip(got, want, strict=True):
        assert g.is_cuda
        np.testing.assert_array_equal(g.cpu().numpy(), w.numpy())
    if "prim::FusionGroup" in str(fn.graph_for(*cuda)):
        assert "outputs of different shapes" in caplog.text


def test_integer_division_by_zero_in_a_group_raises_as_the_interpreter_does(host_cuda):
    text = """graph(%a : Tensor, %b : Tensor):
  %one : int = prim::Constant[value=1]()
  %x : Tensor = aten::add(%a, %b, %one)
  %r : Tensor = aten::remainder(%x, %b)
  return (%r)
"""
    fn = ts.Function("f", parse_ir(text))
    a = ts.tensor([[1, 2, 3], [4, 5, 6]]).cuda()
    with ts.no_grad():
        fn(a, ts.tensor([1, 2, 3]).cuda())
        with pytest.raises(ts.TensorError, match="ZeroDivisionError"):
            fn(a, ts.tensor([1, 0, 3]).cuda())


def test_scripted_code_moves_tensors_to_the_device(host_cuda):
    text = """graph(%x : Tensor):
  %d : Device = prim::Constant[value="cuda"]()
  %none : NoneType = prim::Constant()
  %false : bool = prim::Constant[value=0]()
  %y : Tensor = aten::to(%x, %d, %none, %false, %false)
  %two : int = prim::Constant[value=2]()
  %r : Tensor = aten::mul(%y, %two)
  return (%r)
"""
    fn = ts.Function("f", parse_ir(text))
    out = fn(ts.ones(3))
    assert out.is_cuda and out.cpu().tolist() == [2.0, 2.0, 2.0]


def test_fusibility():
    g = parse_ir(
        """graph(%a : Tensor, %b : Tensor):
  %one : int = prim::Constant[value=1]()
  %m : Tensor = aten::mm(%a, %b)
  %r : Tensor = aten::relu(%m)
  %s : Tensor = aten::add_(%r, %b, %one)
  return (%s)
"""
    )
    nodes = {n.kind.name: n for n in g.nodes() if n.kind.ns == "aten"}
    assert backend.can_fuse(nodes["relu"])
    assert backend.why_not_fusible(nodes["mm"]) == "aten::mm has no CUDA lowering"
    assert not backend.can_fuse(nodes["add_"])


def test_cuda_source_of_a_group():
    from ts_fuser_cuda.testing import spec_of

    text = "graph(%a : Tensor):\n  %r : Tensor = aten::sigmoid(%a)\n  return (%r)\n"
    source = backend.cuda_source(parse_ir(text), [spec_of(np.zeros(8, np.float32))])
    assert "ts_sigmoid(x0)" in source and "__global__" in source and "_v4" in source


def test_modules_are_cached_in_memory_and_on_disk(tmp_path, monkeypatch):
    monkeypatch.setenv("TS_JIT_CACHE_DIR", str(tmp_path))
    text = "graph(%a : Tensor):\n  %r : Tensor = aten::expm1(%a)\n  return (%r)\n"
    source = backend.cuda_source(parse_ir(text), [_spec()])
    from ts_fuser_cuda import module_source
    from ts_fuser_cuda.backend import CudaFuser

    first = RecordingHostDriver()
    fuser = CudaFuser()
    spec = fuser.specialize(parse_ir(text), [_spec()])
    fuser.code_for(spec, 32, first)
    fuser.code_for(spec, 32, first)
    assert (first.compiled, first.disk_hits, fuser.stats.memory_hits) == (1, 0, 1)
    # another process: the module comes from the disk cache
    second = RecordingHostDriver()
    CudaFuser().code_for(spec, 32, second)
    assert (second.compiled, second.disk_hits) == (0, 1)
    # a corrupted entry is rebuilt
    (entry,) = (tmp_path / "cuda-kernels").glob("*.kernel")
    entry.write_bytes(entry.read_bytes()[:-10])
    third = RecordingHostDriver()
    CudaFuser().code_for(spec, 32, third)
    assert (third.compiled, third.disk_hits, third.disk_cache.corrupted) == (1, 0, 1)
    assert "expm1" in source and module_source([source]).count("__global__") == 2


def test_the_disk_cache_key_covers_target_and_toolkit():
    class Other(HostDriver):
        pass

    a, b = HostDriver(), HostDriver()
    key = a.module_key("source", [])
    assert key == b.module_key("source", [])
    assert key != a.module_key("other source", [])
    b.info = type(b.info)(b.info.name, "sm_80", b.info.toolkit, 1)
    assert key != b.module_key("source", [])
    c = HostDriver()
    c.info = type(c.info)(c.info.name, c.info.target, "another compiler 1.0", 1)
    assert key != c.module_key("source", [])
    assert isinstance(Other(), Driver)


def _spec():
    from ts_fuser_cuda.testing import spec_of

    return spec_of(np.zeros((3, 5), np.float32))


def test_chained_groups_keep_results_on_the_device(host_cuda):
    """Values between groups and unfused nodes stay CUDA tensors (no host round trips)."""
    text = """graph(%a : Tensor, %b : Tensor):
  %one : int = prim::Constant[value=1]()
  %x : Tensor = aten::sigmoid(%a)
  %y : Tensor = aten::mm(%x, %b)
  %z : Tensor = aten::tanh(%y)
  %w : Tensor = aten::add(%z, %one, %one)
  %s : Tensor = aten::sum(%w, %none_dtype)
  return (%s)
""".replace("%none_dtype", "%n").replace(
        "  %one : int", "  %n : NoneType = prim::Constant()\n  %one : int"
    )
    fn = ts.Function("f", parse_ir(text))
    a, b = (
        rng.standard_normal((6, 4)).astype(np.float32),
        rng.standard_normal((4, 5)).astype(np.float32),
    )
    cpu, cuda = both(a, b)
    with ts.no_grad():
        got, want = fn(*cuda), fn(*cpu)
    assert got.is_cuda
    assert_same([got.cpu().numpy()], [want.numpy()], ulps=64)
