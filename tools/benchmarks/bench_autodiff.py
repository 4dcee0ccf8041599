"""Training through differentiable graphs: a forward and backward step, against PyTorch.

Two programs, scripted by tsjit from the same source as PyTorch runs:

1. the LSTM cell of PyTorch's JIT overview (batch 64, input 512, hidden 512);
2. a 20-step LSTM sequence: the cell in a loop over a `[20, 64, 512]` input.

A training step is the forward call, `hy.sum().backward()`, with the four
parameters requiring grad (their `.grad` reset each step), in float32. Peers,
in the same process and interleaved round by round so that load on the
machine falls on all alike: eager PyTorch and `torch.jit.script` (with
PyTorch's default executor and fuser settings). Everything runs on one
thread (BLAS, PyTorch, tsjit's kernels), in a process of its own. Before
timing, tsjit's gradients are checked against PyTorch's, and its plan is
checked to hold a differentiable graph with a fusion group in `f`.
"""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

TITLE = "Autodiff: training steps through differentiable graphs"
ROOT = Path(__file__).resolve().parents[2]

CELL = """
def lstm_cell(x, hx, cx, w_ih, w_hh, b_ih, b_hh):
    gates = x.mm(w_ih.t()) + hx.mm(w_hh.t()) + b_ih + b_hh
    i, f, g, o = gates.chunk(4, 1)
    cy = torch.sigmoid(f) * cx + torch.sigmoid(i) * torch.tanh(g)
    return torch.sigmoid(o) * torch.tanh(cy), cy
"""
SEQUENCE = (
    CELL
    + """
def lstm_sequence(xs, hx, cx, w_ih, w_hh, b_ih, b_hh):
    for t in range(xs.size(0)):
        hx, cx = lstm_cell(xs[t], hx, cx, w_ih, w_hh, b_ih, b_hh)
    return hx, cx
"""
)
PROGRAMS = {
    "LSTM cell": (CELL, "lstm_cell", False),
    "20-step LSTM": (SEQUENCE, "lstm_sequence", True),
}
ONE_THREAD = {
    "OMP_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "TS_JIT_NUM_THREADS": "1",
}


def _arrays(sequence: bool) -> list[np.ndarray]:
    rng = np.random.default_rng(1)

    def r(*shape: int) -> np.ndarray:
        return (rng.standard_normal(shape) * 0.1).astype(np.float32)

    x = r(20, 64, 512) if sequence else r(64, 512)
    return [x, r(64, 512), r(64, 512), r(2048, 512), r(2048, 512), r(2048), r(2048)]


def _step(lib, fn, arrays):
    tensors = [lib.from_numpy(a.copy()) for a in arrays]
    params = tensors[3:]
    for p in params:
        p.requires_grad_(True)

    def step():
        for p in params:
            p.grad = None
        hy, _ = fn(*tensors)
        hy.sum().backward()

    return step, params


def _programs(source: str, name: str):
    import torch
    import tsjit
    from ts_frontend import CompilationUnit

    ours = getattr(CompilationUnit(source, namespace={"torch": tsjit}), name)
    namespace = {"torch": torch}
    exec(compile(source, f"<{name}>", "exec"), namespace)
    eager = namespace[name]
    scripted = getattr(torch.jit.CompilationUnit(source), name)
    return ours, eager, scripted


def _check(ours_step, ours_params, torch_step, torch_params, fn, arrays) -> None:
    ours_step()
    torch_step()
    for a, b in zip(ours_params, torch_params, strict=True):
        np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=2e-3, atol=2e-4)
    import tsjit

    graph = fn.graph_for(*[tsjit.from_numpy(a) for a in arrays[:3]], *ours_params)
    groups = [n for n in graph.all_nodes() if n.kind == "prim::DifferentiableGraph"]
    assert groups, "no differentiable graph"
    assert any(
        n.kind == "prim::FusionGroup" for g in groups for n in g.g("Subgraph").all_nodes()
    ), "no fusion group in the forward graph"


def measure(quick: bool) -> dict[str, dict[str, dict[str, float]]]:
    """Per clock ("wall", "cpu": this process's CPU time), per program, seconds per training
    step of each library (in this process)."""
    import torch
    import tsjit

    torch.set_num_threads(1)
    rounds = 5 if quick else 15
    results: dict[str, dict[str, dict[str, float]]] = {"wall": {}, "cpu": {}}
    for label, (source, name, sequence) in PROGRAMS.items():
        arrays = _arrays(sequence)
        ours, eager, scripted = _programs(source, name)
        steps = {}
        ours_step, ours_params = _step(tsjit, ours, arrays)
        eager_step, eager_params = _step(torch, eager, arrays)
        steps["tsjit"] = ours_step
        steps["PyTorch (eager)"] = eager_step
        steps["torch.jit.script"] = _step(torch, scripted, arrays)[0]
        _check(ours_step, ours_params, eager_step, eager_params, ours, arrays)
        for fn in steps.values():  # warm up: plans, profiling runs, kernels
            for _ in range(3):
                fn()
        wall: dict[str, list[float]] = {k: [] for k in steps}
        cpu: dict[str, list[float]] = {k: [] for k in steps}
        gc.collect()
        gc.disable()
        try:
            for _ in range(rounds):
                for k, fn in steps.items():
                    t0, c0 = time.perf_counter(), time.process_time()
                    fn()
                    cpu[k].append(time.process_time() - c0)
                    wall[k].append(time.perf_counter() - t0)
        finally:
            gc.enable()
        results["wall"][label] = {k: float(np.median(v)) for k, v in wall.items()}
        results["cpu"][label] = {k: float(np.median(v)) for k, v in cpu.items()}
    return results


def _in_subprocess(quick: bool) -> dict[str, dict[str, dict[str, float]]]:
    env = dict(os.environ, **ONE_THREAD)
    args = [sys.executable, __file__, "measure"] + (["--quick"] if quick else [])
    out = subprocess.run(args, env=env, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def run(ctx) -> str:
    if not ctx.has_torch:
        return "PyTorch is not installed: these benchmarks compare with it, and were skipped."
    results = _in_subprocess(ctx.quick)
    tables = []
    for clock, what in (("wall", "wall-clock time"), ("cpu", "CPU time of the process")):
        rows = []
        for label, times in results[clock].items():
            ours = times["tsjit"]
            row = [label, f"{ours * 1e3:.2f} ms"]
            for peer in ("PyTorch (eager)", "torch.jit.script"):
                t = times[peer]
                row.append(f"{t * 1e3:.2f} ms (tsjit {t / ours:.2f}x faster)")
            rows.append(row)
        header = f"training step (forward + backward), float32, one thread: {what}"
        tables.append(ctx.table([header, "tsjit", "PyTorch (eager)", "torch.jit.script"], rows))
    return (
        "\n\n".join(tables) + "\n\nMedians of interleaved rounds in one process. Each step "
        "runs on one thread, so its CPU time is the work it did; on a machine shared with other "
        "work the wall-clock time also counts waiting for a core, and the CPU time is the steadier "
        "figure. tsjit runs each step as one differentiable graph per cell: the forward graph's "
        "pointwise work is one fused kernel, and the backward graph's is fused when it first "
        "runs. Target: faster than both peers."
    )


if __name__ == "__main__" and len(sys.argv) > 1 and sys.argv[1] == "measure":
    print(json.dumps(measure("--quick" in sys.argv)))
