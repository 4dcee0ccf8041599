"""The CUDA fuser on a GPU: the IoU function fused into one CUDA kernel.

The IoU function of the corpus over eight float32 tensors of 100×1000 and of
1000×1000 on the GPU: tsjit fused (one generated kernel), tsjit eager (one
kernel per operator, from the same generator), PyTorch eager on CUDA and
`torch.jit.script` (its GPU fuser), against the bound set by device memory
bandwidth: the bytes the kernel must move (eight inputs read, one output
written) over the device-to-device copy rate measured in the same run.
Every timing waits for the device (`synchronize`) after its calls.

Without a GPU (pycuda not installed, or no device) the suite measures
nothing and leaves its section of docs/benchmarks.md as it was. With
`TS_JIT_BENCH_CUDA_EMULATE=1` it runs on the host emulation instead, at
small sizes, to check the suite itself; those timings mean nothing and are
not written.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import numpy as np

TITLE = "ts-fuser-cuda: fused CUDA kernels"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_fuser import _program, iou_numpy, torch_functions  # noqa: E402

SHAPES = [(100, 1000), (1000, 1000)]


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:.3f} ms" if seconds < 0.01 else f"{seconds * 1e3:.2f} ms"


def iou_eager(x1, y1, w1, h1, x2, y2, w2, h2):
    """The IoU function in tsjit's eager API (one CUDA kernel per operator)."""
    import tsjit as torch

    xi = torch.max(x1, x2)
    yi = torch.max(y1, y2)
    wi = torch.clamp(torch.min(x1 + w1, x2 + w2) - xi, min=0.0)
    hi = torch.clamp(torch.min(y1 + h1, y2 + h2) - yi, min=0.0)
    area_i = wi * hi
    area_u = w1 * h1 + w2 * h2 - wi * hi
    return area_i / torch.clamp(area_u, min=1e-5)


def timed(ctx, fn, sync, repeat: int, number: int) -> float:
    """Median seconds per call, the device waited for after each round of calls."""

    def round_() -> None:
        for _ in range(number):
            fn()
        sync()

    return ctx.timeit(round_, repeat=repeat, warmup=2) / number


def copy_rate(driver, nbytes: int, repeat: int) -> float:
    """Bytes per second a device-to-device copy moves (read and write counted)."""
    src, dst = driver.allocate(nbytes), driver.allocate(nbytes)
    driver.copy_on_device(dst.ptr, src.ptr, nbytes)
    driver.synchronize()
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(10):
            driver.copy_on_device(dst.ptr, src.ptr, nbytes)
        driver.synchronize()
        best = min(best, (time.perf_counter() - t0) / 10)
    return 2 * nbytes / best


def run(ctx) -> str | None:
    import ts_fuser_cuda
    import ts_ir
    import ts_runtime

    emulate = os.environ.get("TS_JIT_BENCH_CUDA_EMULATE") == "1"
    if emulate:
        ts_fuser_cuda.use_driver(ts_fuser_cuda.HostDriver())
        shapes = [(4, 50), (8, 100)]
    else:
        shapes = SHAPES
        if not isinstance(ts_fuser_cuda.current_driver(), ts_fuser_cuda.PyCudaDriver):
            print(f"no GPU in this run, nothing measured: {ts_fuser_cuda.unavailable_reason()}")
            return None
    driver = ts_fuser_cuda.current_driver()
    ts_runtime.devices.is_available("cuda")
    sync = driver.synchronize
    repeat = 5 if ctx.quick else 15
    rng = np.random.default_rng(0)
    fused = ts_runtime.Function("ratio_iou", ts_ir.parse_ir(_program("ratio_iou")))

    torch = None
    if ctx.has_torch:
        import torch as _torch

        torch = _torch if _torch.cuda.is_available() else None

    rows: dict[str, dict[str, float]] = {}
    bounds: dict[str, float] = {}
    rate = copy_rate(driver, 64 << 20 if not emulate else 1 << 20, repeat)
    for shape in shapes:
        label = f"{shape[0]}×{shape[1]}"
        arrays = [rng.random(shape, dtype=np.float32) for _ in range(8)]
        expected = iou_numpy(*arrays)
        inputs = [ts_runtime.from_numpy(a).cuda() for a in arrays]
        number = 10 if shape[0] * shape[1] >= 10**6 else 50
        if emulate:
            number = 1
        with ts_runtime.no_grad():
            out = fused(*inputs)
            np.testing.assert_allclose(out.cpu().numpy(), expected, rtol=1e-6)
            graph = fused.executor.last_executed_optimized_graph()
            assert sum(n.kind == "prim::FusionGroup" for n in graph.all_nodes()) == 1
            np.testing.assert_allclose(iou_eager(*inputs).cpu().numpy(), expected, rtol=1e-6)
            rows.setdefault("tsjit (fused)", {})[label] = timed(
                ctx, lambda a=inputs: fused(*a), sync, repeat, number
            )
            rows.setdefault("tsjit (eager)", {})[label] = timed(
                ctx, lambda a=inputs: iou_eager(*a), sync, repeat, number
            )
        if torch is not None:
            iou_torch = torch_functions().iou_torch
            tt = [torch.from_numpy(a).cuda() for a in arrays]
            scripted = torch.jit.script(iou_torch)
            with torch.no_grad():
                for _ in range(3):
                    scripted(*tt)
                np.testing.assert_allclose(scripted(*tt).cpu().numpy(), expected, rtol=1e-6)
                rows.setdefault("PyTorch (eager, CUDA)", {})[label] = timed(
                    ctx, lambda f=iou_torch, a=tt: f(*a), torch.cuda.synchronize, repeat, number
                )
                rows.setdefault("torch.jit.script (CUDA)", {})[label] = timed(
                    ctx, lambda f=scripted, a=tt: f(*a), torch.cuda.synchronize, repeat, number
                )
        bounds[label] = 9 * arrays[0].nbytes / rate
    labels = [f"{s[0]}×{s[1]}" for s in shapes]
    ours = rows["tsjit (fused)"]
    table = []
    for name, times in rows.items():
        row = [name]
        for label in labels:
            t = times[label]
            if name == "tsjit (fused)":
                row.append(_ms(t))
            else:
                row.append(f"{_ms(t)}, fused {t / ours[label]:.1f}x faster")
        table.append(row)
    table.append(["DRAM bound", *[_ms(bounds[label]) for label in labels]])
    big = labels[-1]
    summary = (
        f"\n\nDevice: {driver.info.name} ({driver.info.target}), {driver.info.toolkit}. "
        f"Bound: 9 float32 arrays moved (8 read, 1 written) at the device-to-device copy rate "
        f"measured in this run, {rate / 1e9:.0f} GB/s. At {big}, fused tsjit is "
        f"{ours[big] / bounds[big]:.2f}x the bound and "
        f"{rows['tsjit (eager)'][big] / ours[big]:.1f}x faster than tsjit eager"
        + (
            f", {rows['PyTorch (eager, CUDA)'][big] / ours[big]:.1f}x faster than PyTorch eager"
            if "PyTorch (eager, CUDA)" in rows
            else ""
        )
        + ". Targets: within 1.2x the bound at 1000×1000, at least 3x faster than eager."
    )
    body = ctx.table(["IoU, 8 × float32", *labels], table) + summary
    if emulate:
        print(body)
        print("(host emulation: these timings mean nothing and are not written)")
        ts_fuser_cuda.use_driver(None)
        return None
    return body
