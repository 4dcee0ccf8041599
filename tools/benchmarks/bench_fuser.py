"""The CPU fuser: fused kernels against numpy, PyTorch and the memory-bandwidth bound.

1. The IoU function of the corpus over eight float32 tensors of 1000x1000,
   on one thread and on all cores: tsjit (one fused kernel), eager numpy,
   eager PyTorch and `torch.jit.script`, and the bound set by memory
   bandwidth: the bytes the kernel must move (eight inputs read, one output
   written) over the copy rate numpy achieves in the same run.
2. The LSTM cell of PyTorch's JIT overview (batch 64, input 512, hidden 512):
   tsjit (the matrix products through numpy, the pointwise work fused)
   against eager numpy and eager PyTorch, all on one thread, in a process of
   its own.
3. A chain of 100 pointwise operations on 4-element tensors
   (`bench_runtime.chain_ir`): the cost of one fused call, against the
   interpreter running the same graph unfused.
4. First-call latency of the IoU function, LLVM compilation included, in a
   fresh process with an empty kernel cache, and in another process once
   the disk cache is warm.

All programs are given to tsjit as IR text (the corpus's recorded graphs),
so this measures the runtime and the fuser, whatever the frontend does.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

TITLE = "ts-fuser-cpu: fused pointwise kernels"
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parent))


def _program(name: str) -> str:
    with open(ROOT / "integration_tests" / "corpus" / "programs.jsonl", encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            if row["name"] == name:
                return row["inlined_graph"]
    raise KeyError(name)


def iou_numpy(x1, y1, w1, h1, x2, y2, w2, h2):
    zero, eps = np.float32(0), np.float32(1e-5)
    xi = np.maximum(x1, x2)
    yi = np.maximum(y1, y2)
    wi = np.maximum(np.minimum(x1 + w1, x2 + w2) - xi, zero)
    hi = np.maximum(np.minimum(y1 + h1, y2 + h2) - yi, zero)
    area_i = wi * hi
    area_u = w1 * h1 + w2 * h2 - wi * hi
    return area_i / np.maximum(area_u, eps)


def _sigmoid(a):
    return np.reciprocal(np.add(np.exp(np.negative(a)), np.float32(1)))


def lstm_numpy(x, hx, cx, w_ih, w_hh, b_ih, b_hh):
    gates = x @ w_ih.T + hx @ w_hh.T + b_ih + b_hh
    ingate, forgetgate, cellgate, outgate = np.split(gates, 4, axis=1)
    ingate, forgetgate, outgate = _sigmoid(ingate), _sigmoid(forgetgate), _sigmoid(outgate)
    cellgate = np.tanh(cellgate)
    cy = forgetgate * cx + ingate * cellgate
    hy = outgate * np.tanh(cy)
    return hy, cy


LSTM_POINTWISE = """graph(%xw : Tensor, %hw : Tensor, %cx : Tensor, %b_ih : Tensor, %b_hh : Tensor):
  %one : int = prim::Constant[value=1]()
  %four : int = prim::Constant[value=4]()
  %a : Tensor = aten::add(%xw, %hw, %one)
  %b : Tensor = aten::add(%a, %b_ih, %one)
  %gates : Tensor = aten::add(%b, %b_hh, %one)
  %chunks : Tensor[] = aten::chunk(%gates, %four, %one)
  %i : Tensor, %f : Tensor, %c : Tensor, %o : Tensor = prim::ListUnpack(%chunks)
  %ingate : Tensor = aten::sigmoid(%i)
  %forgetgate : Tensor = aten::sigmoid(%f)
  %cellgate : Tensor = aten::tanh(%c)
  %outgate : Tensor = aten::sigmoid(%o)
  %p : Tensor = aten::mul(%forgetgate, %cx)
  %q : Tensor = aten::mul(%ingate, %cellgate)
  %cy : Tensor = aten::add(%p, %q, %one)
  %t : Tensor = aten::tanh(%cy)
  %hy : Tensor = aten::mul(%outgate, %t)
  %out : (Tensor, Tensor) = prim::TupleConstruct(%hy, %cy)
  return (%out)
"""


def lstm_pointwise_numpy(xw, hw, cx, b_ih, b_hh):
    gates = xw + hw + b_ih + b_hh
    ingate, forgetgate, cellgate, outgate = np.split(gates, 4, axis=1)
    ingate, forgetgate, outgate = _sigmoid(ingate), _sigmoid(forgetgate), _sigmoid(outgate)
    cy = forgetgate * cx + ingate * np.tanh(cellgate)
    return outgate * np.tanh(cy), cy


TORCH_SOURCE = """
import torch


def iou_torch(x1, y1, w1, h1, x2, y2, w2, h2):
    xi = torch.max(x1, x2)
    yi = torch.max(y1, y2)
    wi = torch.clamp(torch.min(x1 + w1, x2 + w2) - xi, min=0.0)
    hi = torch.clamp(torch.min(y1 + h1, y2 + h2) - yi, min=0.0)
    area_i = wi * hi
    area_u = w1 * h1 + w2 * h2 - wi * hi
    return area_i / torch.clamp(area_u, min=1e-5)


def lstm_torch(x, hx, cx, w_ih, w_hh, b_ih, b_hh):
    gates = x.mm(w_ih.t()) + hx.mm(w_hh.t()) + b_ih + b_hh
    ingate, forgetgate, cellgate, outgate = gates.chunk(4, 1)
    ingate = torch.sigmoid(ingate)
    forgetgate = torch.sigmoid(forgetgate)
    cellgate = torch.tanh(cellgate)
    outgate = torch.sigmoid(outgate)
    cy = (forgetgate * cx) + (ingate * cellgate)
    hy = outgate * torch.tanh(cy)
    return hy, cy


def lstm_pointwise_torch(xw, hw, cx, b_ih, b_hh):
    gates = xw + hw + b_ih + b_hh
    ingate, forgetgate, cellgate, outgate = gates.chunk(4, 1)
    cy = torch.sigmoid(forgetgate) * cx + torch.sigmoid(ingate) * torch.tanh(cellgate)
    return torch.sigmoid(outgate) * torch.tanh(cy), cy


def lstm_products_torch(x, hx, w_ih, w_hh):
    return x.mm(w_ih.t()), hx.mm(w_hh.t())
"""


def torch_functions():
    """The PyTorch versions, from a real module file (`torch.jit.script` reads the source)."""
    import importlib.util

    with tempfile.NamedTemporaryFile(
        "w", suffix=".py", prefix="tsjit_bench_fuser_", delete=False
    ) as f:
        f.write(TORCH_SOURCE)
    spec = importlib.util.spec_from_file_location(Path(f.name).stem, f.name)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def interleaved(ctx, fns: dict, rounds: int) -> dict[str, float]:
    """Seconds per call of each function, measured in alternating rounds so all see the same
    machine load; medians over the rounds."""
    samples: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(rounds):
        for name, fn in fns.items():
            samples[name].append(ctx.timeit(fn, repeat=1, number=3, warmup=1))
    return {name: float(np.median(ts)) for name, ts in samples.items()}


def against_copy(ctx, fn, nbytes: int, rounds: int) -> tuple[float, float]:
    """(seconds per call of `fn`, bytes per second of a numpy copy touching `nbytes` in all, the
    working set of `fn`), measured in alternating rounds so both see the same machine load and
    caches; medians over the rounds."""
    src = np.ones(nbytes // 8, np.float32)
    dst = np.empty_like(src)
    times, copies = [], []
    for _ in range(rounds):
        copies.append(ctx.timeit(lambda: np.copyto(dst, src), repeat=3, number=5, warmup=1))
        times.append(ctx.timeit(fn, repeat=3, number=5, warmup=1))
    return float(np.median(times)), 2 * src.nbytes / float(np.median(copies))


FIRST_CALL = """
import json, time
t0 = time.perf_counter()
import numpy as np, ts_ir, ts_runtime, ts_fuser_cpu
t1 = time.perf_counter()
rng = np.random.default_rng(0)
inputs = [ts_runtime.from_numpy(rng.random((1000, 1000), dtype=np.float32)) for _ in range(8)]
text = {text!r}
t2 = time.perf_counter()
fn = ts_runtime.Function("ratio_iou", ts_ir.parse_ir(text))
fn(*inputs)
t3 = time.perf_counter()
fn(*inputs)
t4 = time.perf_counter()
s = ts_fuser_cpu.backend.stats
print(json.dumps({{"import": t1 - t0, "first": t3 - t2, "second": t4 - t3,
                   "compiled": s.compiled, "disk_hits": s.disk_hits, "llvm": s.compile_seconds,
                   "fuser": s.seconds}}))
"""


def first_call(cache: str) -> dict:
    env = dict(os.environ, TS_JIT_CACHE_DIR=cache, TS_JIT_NUM_THREADS="1")
    code = FIRST_CALL.format(text=_program("ratio_iou"))
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


ONE_THREAD = {
    "OMP_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "TS_JIT_NUM_THREADS": "1",
}


def lstm_in_subprocess(ctx) -> dict[str, float]:
    env = dict(os.environ, **ONE_THREAD)
    args = [sys.executable, __file__, "lstm"] + (["--quick"] if ctx.quick else [])
    out = subprocess.run(args, env=env, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def measure_lstm(quick: bool) -> dict[str, float]:
    """The LSTM cell's timings (run by `lstm_in_subprocess`, threads limited by the environment)."""
    sys.path.insert(0, str(ROOT / "tools"))
    import ts_ir
    import ts_runtime
    from bench import Context

    ctx = Context(quick)
    repeat = 5 if quick else 15
    rng = np.random.default_rng(1)

    def r(*shape):
        return (rng.standard_normal(shape) * 0.1).astype(np.float32)

    lstm_arrays = [r(64, 512), r(64, 512), r(64, 512), r(2048, 512), r(2048, 512), r(2048), r(2048)]
    lstm_tensors = [ts_runtime.from_numpy(a) for a in lstm_arrays]
    from ts_runtime.ops.linalg import gemm  # what the cell's two `mm`s run

    lstm = ts_runtime.Function("lstm_cell", ts_ir.parse_ir(_program("lstm_cell")))
    hy, cy = lstm(*lstm_tensors)
    want_hy, want_cy = lstm_numpy(*lstm_arrays)
    assert np.allclose(hy.numpy(), want_hy, rtol=1e-4, atol=1e-5)
    assert np.allclose(cy.numpy(), want_cy, rtol=1e-4, atol=1e-5)
    graph = lstm.executor.last_executed_optimized_graph()
    assert sum(n.kind == "prim::FusionGroup" for n in graph.all_nodes()) == 1
    with ts_runtime.fuser("none"):
        unfused = ts_runtime.Function("lstm_cell", ts_ir.parse_ir(_program("lstm_cell")))
        unfused(*lstm_tensors)
    x, hx, cx, w_ih, w_hh, b_ih, b_hh = lstm_arrays
    products = [x @ w_ih.T, hx @ w_hh.T, cx, b_ih, b_hh]
    pointwise = ts_runtime.Function("lstm_pointwise", ts_ir.parse_ir(LSTM_POINTWISE))
    product_tensors = [ts_runtime.from_numpy(a) for a in products]
    pointwise(*product_tensors)
    times = interleaved(
        ctx,
        {
            "ours": lambda: lstm(*lstm_tensors),
            "numpy": lambda: lstm_numpy(*lstm_arrays),
            "unfused": lambda: unfused_call(unfused, *lstm_tensors),
            "p_ours": lambda: pointwise(*product_tensors),
            "p_numpy": lambda: lstm_pointwise_numpy(*products),
            "mm_numpy": lambda: (x @ w_ih.T, hx @ w_hh.T),
            "mm_ours": lambda: (gemm(x, w_ih.T), gemm(hx, w_hh.T)),
        },
        repeat,
    )
    if ctx.has_torch:
        import torch

        torch.set_num_threads(1)
        fns = torch_functions()
        tt = [torch.from_numpy(a) for a in lstm_arrays]
        tp = [torch.from_numpy(a) for a in products]
        tx, thx, _, tw_ih, tw_hh, _, _ = tt
        with torch.no_grad():
            times["torch"] = ctx.timeit(lambda: fns.lstm_torch(*tt), repeat=repeat, warmup=2)
            times["p_torch"] = ctx.timeit(
                lambda: fns.lstm_pointwise_torch(*tp), repeat=repeat, warmup=2
            )
            times["mm_torch"] = ctx.timeit(
                lambda: fns.lstm_products_torch(tx, thx, tw_ih, tw_hh), repeat=repeat, warmup=2
            )
    return times


def _ms(t: float) -> str:
    return f"{t * 1e3:.2f} ms"


def _us(t: float) -> str:
    return f"{t * 1e6:.2f} µs"


def unfused_call(fn, *args):
    """Call `fn` with fusion off. The fuser chosen is part of an execution plan's key,
    so a function compiled unfused must also be called with fusion off."""
    import ts_runtime

    with ts_runtime.fuser("none"):
        return fn(*args)


def run(ctx) -> str:
    import ts_fuser_cpu
    import ts_ir
    import ts_runtime

    repeat = 5 if ctx.quick else 15
    sections = []
    rng = np.random.default_rng(0)
    cores = ts_fuser_cpu.get_num_threads()

    # -- 1. IoU
    arrays = [rng.random((1000, 1000), dtype=np.float32) for _ in range(8)]
    tensors = [ts_runtime.from_numpy(a) for a in arrays]
    iou = ts_runtime.Function("ratio_iou", ts_ir.parse_ir(_program("ratio_iou")))
    expected = iou_numpy(*arrays)
    assert np.array_equal(iou(*tensors).numpy(), expected), "the fused IoU differs from numpy"
    graph = iou.executor.last_executed_optimized_graph()
    assert sum(n.kind == "prim::FusionGroup" for n in graph.all_nodes()) == 1

    moved = 9 * arrays[0].nbytes
    rows: dict[str, dict[str, float]] = {}
    for threads in (1, cores):
        label = "1 thread" if threads == 1 else f"{threads} threads"
        ts_fuser_cpu.set_num_threads(threads)
        t, copy = against_copy(ctx, lambda: iou(*tensors), moved, repeat)
        rows.setdefault("tsjit (fused)", {})[label] = t
        if threads == 1:
            rate = copy
            bound = moved / rate
        if threads == 1:
            rows.setdefault("numpy (eager)", {})[label] = ctx.timeit(
                lambda: iou_numpy(*arrays), repeat=repeat
            )
        if ctx.has_torch:
            import torch

            iou_torch = torch_functions().iou_torch
            previous = torch.get_num_threads()
            torch.set_num_threads(threads)
            tt = [torch.from_numpy(a) for a in arrays]
            scripted = torch.jit.script(iou_torch)
            with torch.no_grad():
                for _ in range(3):
                    scripted(*tt)
                rows.setdefault("PyTorch (eager)", {})[label] = ctx.timeit(
                    lambda f=iou_torch, args=tt: f(*args), repeat=repeat
                )
                rows.setdefault("TorchScript", {})[label] = ctx.timeit(
                    lambda f=scripted, args=tt: f(*args), repeat=repeat
                )
                assert np.allclose(scripted(*tt).numpy(), expected, rtol=1e-6)
            torch.set_num_threads(previous)
    ts_fuser_cpu.set_num_threads(cores)
    labels = ["1 thread"] + ([f"{cores} threads"] if cores > 1 else [])
    table = []
    ours = rows["tsjit (fused)"]
    for name, times in rows.items():
        row = [name]
        for label in labels:
            t = times.get(label)
            if t is None:
                row.append("")
                continue
            cells = [_ms(t)]
            if name != "tsjit (fused)":
                cells.append(f"tsjit {t / ours[label]:.2f}x faster")
            row.append(", ".join(cells))
        table.append(row)
    table.append(["memory-bandwidth bound", _ms(bound)] + ([""] if cores > 1 else []))
    within = ours["1 thread"] / bound
    sections.append(
        ctx.table(["IoU, 8 × float32 1000×1000", *labels], table)
        + f"\n\nBound: {moved / 1e6:.0f} MB moved (8 inputs read, 1 output written) at the copy rate "
        f"numpy reached in this run, {rate / 1e9:.1f} GB/s. One thread, tsjit is {within:.2f}x the bound"
        + (
            f" and {rows['PyTorch (eager)']['1 thread'] / ours['1 thread']:.1f}x faster than eager PyTorch."
            if "PyTorch (eager)" in rows
            else "."
        )
        + " Targets: within 1.3x the bound, at least 3x faster than PyTorch."
    )

    # -- 2. LSTM cell, in a process of its own with every library on one thread
    times = lstm_in_subprocess(ctx)
    t_ours, t_np, t_unfused = times["ours"], times["numpy"], times["unfused"]
    p_ours, p_np = times["p_ours"], times["p_numpy"]
    lstm_rows = [
        [
            "tsjit (mm via numpy's BLAS, pointwise fused)",
            _ms(t_ours),
            _ms(p_ours),
            _ms(times["mm_ours"]),
        ],
        [
            "numpy (eager)",
            f"{_ms(t_np)}, tsjit {t_np / t_ours:.2f}x faster",
            f"{_ms(p_np)}, tsjit {p_np / p_ours:.1f}x faster",
            _ms(times["mm_numpy"]),
        ],
        ["tsjit, fusion off", f"{_ms(t_unfused)}, fused {t_unfused / t_ours:.2f}x faster", "", ""],
    ]
    if "torch" in times:
        t_torch, p_torch = times["torch"], times["p_torch"]
        lstm_rows.append(
            [
                "PyTorch (eager)",
                f"{_ms(t_torch)}, tsjit {t_torch / t_ours:.2f}x faster",
                f"{_ms(p_torch)}, tsjit {p_torch / p_ours:.1f}x faster",
                _ms(times["mm_torch"]),
            ]
        )
    sections.append(
        ctx.table(
            [
                "LSTM cell, batch 64, 512 → 512, one thread",
                "whole cell",
                "pointwise part alone",
                "the two products alone",
            ],
            lstm_rows,
        )
        + "\n\nIn a separate process with numpy's BLAS, PyTorch and the fuser on one thread each "
        "(multi-threaded BLAS next to other thread pools measures mostly their contention); "
        "medians of rounds alternating between the contenders, PyTorch measured after them. "
        "The two matrix products dominate the whole cell; the pointwise part alone starts from "
        "the products (the bias adds, the chunks, the gates, the new states). tsjit computes "
        "the products with numpy's BLAS, oriented for it (wide products as their transpose, "
        "see docs/design-notes.md); numpy's row is the plain `x @ w.T`. "
        "Target: tsjit no slower than eager numpy and eager PyTorch."
    )

    # -- 3. the 100-op chain on 4 elements
    from bench_runtime import CHAIN_LENGTH, chain_ir

    number = 500 if ctx.quick else 5000
    xa = rng.random(4, dtype=np.float32)
    ya = (rng.random(4, dtype=np.float32) * 0.5 + 0.5).astype(np.float32)
    x, y = ts_runtime.from_numpy(xa), ts_runtime.from_numpy(ya)
    chain = ts_runtime.Function("chain", ts_ir.parse_ir(chain_ir()))
    chain(x, y)
    with ts_runtime.fuser("none"):
        chain_unfused = ts_runtime.Function("chain", ts_ir.parse_ir(chain_ir()))
        chain_unfused(x, y)
    assert np.allclose(chain(x, y).numpy(), unfused_call(chain_unfused, x, y).numpy(), rtol=1e-5)
    t_fused = ctx.timeit(lambda: chain(x, y), repeat=repeat, number=number)
    with ts_runtime.fuser("none"):  # the fuser chosen is part of the plan's key
        t_interp = ctx.timeit(lambda: chain_unfused(x, y), repeat=repeat, number=number)
    with ts_runtime.no_grad():
        t_fused_ng = ctx.timeit(lambda: chain(x, y), repeat=repeat, number=number)
    chain_rows = [
        ["tsjit, one fused kernel", _us(t_fused), _us(t_fused_ng)],
        [
            "tsjit interpreter, fusion off",
            f"{_us(t_interp)} ({t_interp / t_fused:.1f}x slower)",
            "",
        ],
    ]
    sections.append(
        ctx.table(
            [f"{CHAIN_LENGTH}-op chain on 4 elements, per call", "grad mode on", "no_grad"],
            chain_rows,
        )
        + f"\n\nMedian of {repeat} rounds of {number} calls of a `Function` (argument checks, plan "
        "lookup, the group's specialization key, the kernel call). Target: under 10 µs."
    )

    # -- 4. first-call latency
    with tempfile.TemporaryDirectory(prefix="tsjit-bench-cache-") as cache:
        cold = first_call(cache)
        warm = first_call(cache)
    assert cold["compiled"] == 1 and warm["disk_hits"] == 1 and warm["compiled"] == 0
    latency_rows = [
        [
            "empty kernel cache",
            _ms(cold["first"]),
            _ms(cold["fuser"]),
            _ms(cold["llvm"]),
            _ms(cold["second"]),
        ],
        [
            "warm disk cache (another process)",
            _ms(warm["first"]),
            _ms(warm["fuser"]),
            "0 (loaded)",
            _ms(warm["second"]),
        ],
    ]
    sections.append(
        ctx.table(
            [
                "IoU first call, fresh process",
                "first call",
                "of which the fuser",
                "of which LLVM",
                "second call",
            ],
            latency_rows,
        )
        + f"\n\nFrom creating the `Function` to its first result, one thread; imports "
        f"({_ms(cold['import'])}) not included. The first call is the executor's plan (ts-passes' "
        "pipeline, `fuse_graph` included), the fuser (analysis, code generation, LLVM or loading "
        "from disk) and one run on 1000×1000 inputs (the second call's time). "
        "Targets: at most 300 ms cold, at most 30 ms warm."
    )
    return "\n\n".join(sections)


if __name__ == "__main__":
    if sys.argv[1:2] == ["lstm"]:
        print(json.dumps(measure_lstm("--quick" in sys.argv)))
