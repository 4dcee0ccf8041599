"""The profiling executor against the ArgumentSpec executor, in the same run.

Two programs, given as IR text and called through `ts_runtime.Function` with
grad mode on and inputs that do not require grad (both executors fuse):

1. a chain of 100 pointwise operations on two 4-element float32 tensors
   (the per-call cost of the executor: checks, plan lookup, one kernel);
2. the IoU function of the corpus on eight float32 tensors, 256 boxes (the
   cost of checking eight inputs) and 1000x1000 (the kernel's time).

For each: the steady state (median of rounds alternating between the
executors); the first 10 calls after every input changes shape (the
ArgumentSpec executor keeps its plan, whose kernels specialize per shape; the
profiling executor's type check fails, its fallback and then a re-profiled
plan take over), as the mean per call; and the steady state after the change.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import numpy as np

TITLE = "The profiling executor against the ArgumentSpec executor"
ROOT = Path(__file__).resolve().parents[2]
CHAIN_LENGTH = 100
_CHAIN_OPS = ("add", "mul", "sub", "sigmoid")
EXECUTORS = ("ArgumentSpec", "profiling")


def chain_ir() -> str:
    lines = ["graph(%x : Tensor, %y : Tensor):", "  %one : int = prim::Constant[value=1]()"]
    cur = "%x"
    for i in range(CHAIN_LENGTH):
        op = _CHAIN_OPS[i % len(_CHAIN_OPS)]
        if op in ("add", "sub"):
            lines.append(f"  %v{i} : Tensor = aten::{op}({cur}, %y, %one)")
        elif op == "mul":
            lines.append(f"  %v{i} : Tensor = aten::mul({cur}, %y)")
        else:
            lines.append(f"  %v{i} : Tensor = aten::{op}({cur})")
        cur = f"%v{i}"
    lines.append(f"  return ({cur})")
    return "\n".join(lines) + "\n"


def iou_ir() -> str:
    with open(ROOT / "integration_tests" / "corpus" / "programs.jsonl", encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            if row["name"] == "ratio_iou":
                return row["inlined_graph"]
    raise KeyError("ratio_iou")


def _function(text: str, profiling: bool) -> Any:
    import ts_ir
    import ts_runtime

    previous = ts_runtime.set_profiling_executor(profiling)
    try:
        fn = ts_runtime.Function("f", ts_ir.parse_ir(text))
        fn.executor  # noqa: B018 (the executor is chosen when it is first made)
    finally:
        ts_runtime.set_profiling_executor(previous)
    return fn


def _tensors(arrays: list[np.ndarray]) -> list[Any]:
    import ts_runtime

    return [ts_runtime.from_numpy(a) for a in arrays]


def _us(t: float) -> str:
    return f"{t * 1e6:.2f} µs" if t < 1e-3 else f"{t * 1e3:.2f} ms"


def measure(ctx: Any, text: str, before: list[np.ndarray], after: list[np.ndarray]) -> dict:
    """Per executor: steady state, the first 10 calls after the shape change, steady after."""
    fns = {name: _function(text, name == "profiling") for name in EXECUTORS}
    a, b = _tensors(before), _tensors(after)
    results: dict[str, dict[str, float]] = {name: {} for name in EXECUTORS}
    for fn in fns.values():
        for _ in range(3):
            fn(*a)
    reference = fns["ArgumentSpec"](*a).numpy()
    np.testing.assert_allclose(fns["profiling"](*a).numpy(), reference, rtol=1e-5)
    number = max(1, int(0.02 / max(ctx.timeit(lambda: fns["profiling"](*a), repeat=1), 1e-7)))
    rounds = 3 if ctx.quick else 7
    for phase, inputs in (("steady", a), ("after", b)):
        if phase == "after":
            for name, fn in fns.items():
                t0 = time.perf_counter()
                for _ in range(10):
                    fn(*inputs)
                results[name]["first"] = (time.perf_counter() - t0) / 10
                for _ in range(10):
                    fn(*inputs)
            reference = fns["ArgumentSpec"](*b).numpy()
            np.testing.assert_allclose(fns["profiling"](*b).numpy(), reference, rtol=1e-5)
        samples: dict[str, list[float]] = {name: [] for name in EXECUTORS}
        for _ in range(rounds):
            for name, fn in fns.items():
                samples[name].append(
                    ctx.timeit(lambda fn=fn, xs=inputs: fn(*xs), repeat=1, number=number, warmup=0)
                )
        for name in EXECUTORS:
            results[name][phase] = float(np.median(samples[name]))
    return results


def run(ctx: Any) -> str:
    import ts_runtime

    rng = np.random.default_rng(0)

    def boxes(*shape: int) -> list[np.ndarray]:
        return [rng.random(shape, dtype=np.float32) for _ in range(8)]

    chain_in = [rng.random(4, dtype=np.float32), (rng.random(4, dtype=np.float32) + 1) / 2]
    chain_out = [rng.random(5, dtype=np.float32), (rng.random(5, dtype=np.float32) + 1) / 2]
    cases = [
        (f"{CHAIN_LENGTH}-op chain, 4 elements (then 5)", chain_ir(), chain_in, chain_out),
        ("IoU, 8 × 256 boxes (then 300)", iou_ir(), boxes(256), boxes(300)),
        ("IoU, 8 × 1000×1000 (then 999×1000)", iou_ir(), boxes(1000, 1000), boxes(999, 1000)),
    ]
    rows = []
    stats_before = (
        ts_runtime.ProfilingStats.bailouts,
        ts_runtime.ProfilingStats.fallbacks,
        ts_runtime.ProfilingStats.reprofiles,
    )
    for label, text, before, after in cases:
        r = measure(ctx, text, before, after)
        base = r["ArgumentSpec"]
        for name in EXECUTORS:
            cells = [label if name == EXECUTORS[0] else "", name]
            for phase in ("steady", "first", "after"):
                t = r[name][phase]
                ratio = "" if name == EXECUTORS[0] else f" ({t / base[phase]:.2f}x)"
                cells.append(_us(t) + ratio)
            rows.append(cells)
    stats = [
        after - before
        for after, before in zip(
            (
                ts_runtime.ProfilingStats.bailouts,
                ts_runtime.ProfilingStats.fallbacks,
                ts_runtime.ProfilingStats.reprofiles,
            ),
            stats_before,
            strict=True,
        )
    ]
    table = ctx.table(
        [
            "program",
            "executor",
            "steady state, per call",
            "first 10 calls after the shape change, mean",
            "steady state after the change",
        ],
        rows,
    )
    return (
        table
        + "\n\nRatios are the profiling executor's time over the ArgumentSpec executor's in the "
        "same run (below 1: faster). One profiled run (`num_profiled_runs`, PyTorch's default), "
        "then the plan: the fused group behind one `prim::TypeCheck` of the inputs (specialized "
        "to the profiled shapes: one kernel, no per-call key) against the ArgumentSpec plan's "
        "group, which looks its kernel up by the inputs' shapes and strides on every call. After "
        "the change the profiling executor takes its fallback twice, re-profiles and merges the "
        "shapes, so its plan leaves the varying size unchecked and its group looks kernels up "
        f"per shape as the ArgumentSpec one does ({stats[1]} fallbacks, {stats[0]} bailouts, "
        f"{stats[2]} re-profiles in this run). Medians of rounds alternating between the "
        "executors; figures are provisional while the machine is shared."
    )
