"""`tsjit demo`: the JIT's walkthrough, live, on PyTorch's overview examples and a model.

For the LSTM cell and the IoU function it shows the source, the scripted
graph, the graph specialized and optimized for real inputs (with its
FusionGroup), the interpreter's Code listing, the results checked against
plain numpy, a timing table (numpy, tsjit unfused, tsjit fused), and writes
pictures of the graphs. Then a real model, torchvision's ResNet-18 layout
from `tsjit.zoo` built of `tsjit.nn` layers: scripted as a module, its
optimized plan summarized (operators, fusion groups), its output checked
against the same module run eagerly, and both timed.
"""

from __future__ import annotations

import inspect
import shutil
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

import tsjit as torch

from .term import Progress, Terminal


def lstm_cell(x, hx, cx, w_ih, w_hh, b_ih, b_hh):
    gates = x.mm(w_ih.t()) + hx.mm(w_hh.t()) + b_ih + b_hh
    ingate, forgetgate, cellgate, outgate = gates.chunk(4, 1)
    ingate = torch.sigmoid(ingate)
    forgetgate = torch.sigmoid(forgetgate)
    cellgate = torch.tanh(cellgate)
    outgate = torch.sigmoid(outgate)
    cy = (forgetgate * cx) + (ingate * cellgate)
    hy = outgate * torch.tanh(cy)
    return hy, cy


def ratio_iou(x1, y1, w1, h1, x2, y2, w2, h2):
    xi = torch.max(x1, x2)
    yi = torch.max(y1, y2)
    wi = torch.clamp(torch.min(x1 + w1, x2 + w2) - xi, min=0.0)
    hi = torch.clamp(torch.min(y1 + h1, y2 + h2) - yi, min=0.0)
    area_i = wi * hi
    area_u = w1 * h1 + w2 * h2 - wi * hi
    return area_i / torch.clamp(area_u, min=1e-5)


def _sigmoid(a: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-a))


def lstm_cell_numpy(x, hx, cx, w_ih, w_hh, b_ih, b_hh):
    gates = x @ w_ih.T + hx @ w_hh.T + b_ih + b_hh
    i, f, g, o = np.split(gates, 4, axis=1)
    cy = _sigmoid(f) * cx + _sigmoid(i) * np.tanh(g)
    return _sigmoid(o) * np.tanh(cy), cy


def ratio_iou_numpy(x1, y1, w1, h1, x2, y2, w2, h2):
    xi = np.maximum(x1, x2)
    yi = np.maximum(y1, y2)
    wi = np.maximum(np.minimum(x1 + w1, x2 + w2) - xi, 0.0)
    hi = np.maximum(np.minimum(y1 + h1, y2 + h2) - yi, 0.0)
    area_u = w1 * h1 + w2 * h2 - wi * hi
    return (wi * hi) / np.maximum(area_u, np.float32(1e-5))


@dataclass
class Example:
    name: str
    fn: Callable[..., Any]
    reference: Callable[..., Any]
    make_inputs: Callable[[np.random.Generator], list[np.ndarray]]
    tolerance: float


def _lstm_inputs(rng: np.random.Generator) -> list[np.ndarray]:
    batch, inp, hidden = 64, 512, 512

    def r(*shape: int, scale: float = 1.0) -> np.ndarray:
        return (rng.standard_normal(shape) * scale).astype(np.float32)

    return [r(batch, inp), r(batch, hidden), r(batch, hidden), r(4 * hidden, inp, scale=0.05),
            r(4 * hidden, hidden, scale=0.05), r(4 * hidden, scale=0.1), r(4 * hidden, scale=0.1)]  # fmt: skip


def _iou_inputs(rng: np.random.Generator) -> list[np.ndarray]:
    n = 512
    return [rng.random((n, n), dtype=np.float32) for _ in range(8)]


EXAMPLES = [
    Example("lstm_cell", lstm_cell, lstm_cell_numpy, _lstm_inputs, 1e-4),
    Example("ratio_iou", ratio_iou, ratio_iou_numpy, _iou_inputs, 1e-5),
]


def _count(graph: Any, kind: str) -> int:
    return sum(1 for n in graph.all_nodes() if n.kind == kind)


def _fusion_groups(graph: Any) -> list[Any]:
    return [n for n in graph.all_nodes() if n.kind == "prim::FusionGroup"]


def _as_tuple(value: Any) -> tuple[Any, ...]:
    return value if isinstance(value, tuple) else (value,)


def _best_time(call: Callable[[], Any], repeat: int, progress: Progress, label: str) -> float:
    call()
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - start)
        progress.step(label)
    return best


def _write_picture(graph: Any, path: Path, term: Terminal) -> str:
    dot_path = path.with_suffix(".dot")
    dot_path.write_text(graph.to_dot())
    if shutil.which("dot"):
        svg_path = path.with_suffix(".svg")
        proc = subprocess.run(
            ["dot", "-Tsvg", str(dot_path), "-o", str(svg_path)], capture_output=True, text=True
        )
        if proc.returncode == 0:
            return f"{dot_path} and {svg_path}"
        term.note(f"    (graphviz could not render {dot_path}: {proc.stderr.strip()})")
    return f"{dot_path} (install graphviz's `dot` to also get an SVG)"


def run_example(ex: Example, term: Terminal, out_dir: Path, repeat: int) -> bool:
    term.heading(f"{ex.name}: the Python source")
    term.block(inspect.getsource(ex.fn), language="python")

    scripted = torch.jit.script(ex.fn)
    term.heading(f"{ex.name}: the graph the frontend emits (scripted.graph)")
    term.block(scripted.graph.to_string(source_locations=False), language="ir")

    rng = np.random.default_rng(0)
    arrays = ex.make_inputs(rng)
    inputs = [torch.from_numpy(a) for a in arrays]
    shapes = ", ".join("x".join(map(str, a.shape)) for a in arrays)
    with torch.no_grad(), torch.jit.fuser("cpu"):
        optimized = scripted.graph_for(*inputs)
        code = scripted.code_for(*inputs)
    groups = _fusion_groups(optimized)
    term.heading(f"{ex.name}: specialized to float32 inputs ({shapes}) and optimized (graph_for)")
    term.block(optimized.to_string(source_locations=False), language="ir")
    fused_ops = sum(len(list(g.g("Subgraph").nodes())) for g in groups)
    term.note(
        f"    {len(groups)} FusionGroup{'s' if len(groups) != 1 else ''} holding {fused_ops} operations; "
        f"{_count(scripted.graph, 'aten::mm')} matrix multiplies stay with numpy"
    )

    term.heading(f"{ex.name}: the interpreter's Code for that plan")
    term.block(str(code))

    term.heading(f"{ex.name}: results against eager numpy")
    with torch.no_grad(), torch.jit.fuser("cpu"):
        fused_out = _as_tuple(scripted(*inputs))
    with torch.no_grad(), torch.jit.fuser("none"):
        unfused_out = _as_tuple(scripted(*inputs))
    expected = _as_tuple(ex.reference(*arrays))
    ok = True
    rows = []
    for i, (want, f, u) in enumerate(zip(expected, fused_out, unfused_out, strict=True)):
        df = float(np.max(np.abs(f.numpy() - want)))
        du = float(np.max(np.abs(u.numpy() - want)))
        good = df <= ex.tolerance and du <= ex.tolerance
        ok &= good
        verdict = term.style("agree", "green") if good else term.style("DIFFER", "red", "bold")
        rows.append(
            [f"output {i}", "x".join(map(str, want.shape)), f"{df:.2e}", f"{du:.2e}", verdict]
        )
    term.table(["", "shape", "max |fused - numpy|", "max |unfused - numpy|", ""], rows)

    term.heading(f"{ex.name}: timing (best of {repeat}, no_grad)")
    progress = Progress(term, "measuring", 3 * repeat)
    t_numpy = _best_time(lambda: ex.reference(*arrays), repeat, progress, "numpy")
    with torch.no_grad():
        with torch.jit.fuser("none"):
            t_unfused = _best_time(lambda: scripted(*inputs), repeat, progress, "tsjit unfused")
        with torch.jit.fuser("cpu"):
            t_fused = _best_time(lambda: scripted(*inputs), repeat, progress, "tsjit fused")
    progress.finish()
    term.table(
        ["", "time", "vs numpy"],
        [
            ["eager numpy", f"{t_numpy * 1e3:.2f} ms", "1.00x"],
            ["tsjit unfused", f"{t_unfused * 1e3:.2f} ms", f"{t_numpy / t_unfused:.2f}x"],
            ["tsjit fused", f"{t_fused * 1e3:.2f} ms", f"{t_numpy / t_fused:.2f}x"],
        ],
    )

    term.heading(f"{ex.name}: pictures")
    out_dir.mkdir(parents=True, exist_ok=True)
    term.write(
        "    scripted graph:  "
        + _write_picture(scripted.graph, out_dir / f"{ex.name}_scripted", term)
    )
    term.write(
        "    optimized graph: " + _write_picture(optimized, out_dir / f"{ex.name}_optimized", term)
    )
    return ok


#: The model section: (zoo name, size) and its input's shape.
MODEL = ("resnet18", "small")


def run_model(term: Terminal, out_dir: Path, repeat: int) -> bool:
    """Script a zoo model, show its optimized plan, check it against eager, time both."""
    from . import zoo

    name, size = MODEL
    torch.manual_seed(0)
    model = zoo.build(torch, name, size).eval()
    params = sum(p.numel() for p in model.parameters())
    shape = zoo.SPECS[name].inputs[size]["image"]
    image = torch.from_numpy(np.random.default_rng(0).standard_normal(shape).astype(np.float32))
    term.heading(f"{name}: a model of tsjit.nn layers ({params:,} parameters), scripted")
    scripted = torch.jit.script(model)
    term.block(scripted.code, language="python")

    with torch.no_grad(), torch.jit.fuser("cpu"):
        expected = model(image)
        actual = scripted(image)
        optimized = scripted.forward.graph_for(image)
    kinds: dict[str, int] = {}
    for node in optimized.all_nodes():
        kinds[str(node.kind)] = kinds.get(str(node.kind), 0) + 1
    groups = _fusion_groups(optimized)
    term.heading(f"{name}: the plan for a {'x'.join(map(str, shape))} float32 image (graph_for)")
    top = sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0]))[:10]
    term.table(["operator", "nodes"], [[k, str(v)] for k, v in top])
    term.note(
        f"    {sum(kinds.values())} nodes after inlining every submodule's forward; "
        f"{len(groups)} FusionGroup{'s' if len(groups) != 1 else ''}"
    )

    term.heading(f"{name}: scripted against eager (the same module, run as Python)")
    diff = float(np.max(np.abs(actual.numpy() - expected.numpy())))
    ok = diff <= 1e-4 and actual.shape == expected.shape
    verdict = term.style("agree", "green") if ok else term.style("DIFFER", "red", "bold")
    term.table(
        ["", "shape", "max |scripted - eager|", ""],
        [["logits", "x".join(map(str, actual.shape)), f"{diff:.2e}", verdict]],
    )

    term.heading(f"{name}: timing (best of {repeat}, no_grad)")
    progress = Progress(term, "measuring", 2 * repeat)
    with torch.no_grad(), torch.jit.fuser("cpu"):
        t_eager = _best_time(lambda: model(image), repeat, progress, "eager")
        t_script = _best_time(lambda: scripted(image), repeat, progress, "scripted")
    progress.finish()
    term.table(
        ["", "time", "vs eager"],
        [
            ["eager tsjit.nn", f"{t_eager * 1e3:.2f} ms", "1.00x"],
            ["scripted", f"{t_script * 1e3:.2f} ms", f"{t_eager / t_script:.2f}x"],
        ],
    )
    out_dir.mkdir(parents=True, exist_ok=True)
    term.write(
        "    optimized graph: " + _write_picture(optimized, out_dir / f"{name}_optimized", term)
    )
    return ok


def run(term: Terminal, *, out_dir: Path, repeat: int, only: str | None = None) -> int:
    """Run the demo; the exit code is 0 when every result agrees with numpy."""
    term.write(
        term.style("tsjit demo", "bold")
        + ": script → optimize → fuse → run, on PyTorch's overview examples and a ResNet-18"
    )
    ok = True
    for ex in EXAMPLES:
        if only is None or ex.name == only:
            ok &= run_example(ex, term, out_dir, repeat)
    if only is None or only == MODEL[0]:
        ok &= run_model(term, out_dir, repeat)
    term.write()
    if ok:
        term.write(
            term.style("demo finished: every result agrees with its reference", "green", "bold")
        )
        return 0
    term.write(term.style("demo finished: some results DIFFER from their reference", "red", "bold"))
    return 1
