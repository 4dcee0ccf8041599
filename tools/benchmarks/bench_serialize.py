"""ts-serialize: saving and loading a ResNet-18 (11.7M parameters), next to torch.jit in the same run.

The model is torchvision's ResNet-18 layout, written out in
packages/ts-serialize/tests/torch_archives/make_archives.py, scripted by
PyTorch and saved with `torch.jit.save`. tsjit loads that `.pt` file
(restricted unpickler, code compiled by its own frontend) and saves it as a
tsjit archive; the timings compare:

- save: `ts_serialize.save` against `torch.jit.save` of the same model;
- load: `ts_serialize.load` of the tsjit archive (tensors memory-mapped) and
  of PyTorch's `.pt` file, against `torch.jit.load` of the `.pt` file.

Loads include compiling every method, as `torch.jit.load` does. Peak memory
above the baseline of a fresh process (imports done, a small archive loaded
once so lazy imports are counted out) is measured in a child process per
loader: the resident set's high-water mark (reset through
/proc/self/clear_refs where the kernel allows) minus the resident set before
the load. Mapped parameters count only once they are read, which loading
does not do. Without PyTorch the suite times tsjit alone on a module it
builds itself.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
MAKER = ROOT / "packages" / "ts-serialize" / "tests" / "torch_archives" / "make_archives.py"
TITLE = "ts-serialize: saving and loading ResNet-18, next to torch.jit.save/load"

_CHILD = r"""
import json, os, resource, sys
which, path, small = sys.argv[1], sys.argv[2], sys.argv[3]

def rss():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024

def hwm():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024

if which == "torch":
    import torch
    load = lambda p: torch.jit.load(p)
else:
    import ts_serialize
    load = lambda p: ts_serialize.load(p)
load(small)
try:
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
    reset = True
except OSError:
    reset = False
before = rss()
m = load(path)
after = hwm()
print(json.dumps({"peak_above_baseline": after - before, "reset": reset}))
"""


def _maker():
    spec = importlib.util.spec_from_file_location("make_archives", MAKER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_archives"] = module
    spec.loader.exec_module(module)
    return module


def _peak(which: str, path: Path, small: Path) -> int:
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, which, str(path), str(small)],
        check=True,
        capture_output=True,
        text=True,
        timeout=600,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])["peak_above_baseline"]


def _mb(n: float) -> str:
    return f"{n / 1e6:.1f} MB"


def run(ctx) -> str:
    import numpy as np
    import ts_runtime
    import ts_serialize

    rounds = 3 if ctx.quick else 5
    tmp = Path(tempfile.mkdtemp(prefix="tsjit-bench-serialize-"))
    pt, tsj = tmp / "resnet18.pt", tmp / "resnet18.tsj"
    rows = []
    if ctx.has_torch:
        import torch

        maker = _maker()
        torch.manual_seed(0)
        model = torch.jit.script(maker.ResNet18().eval())
        torch_save = ctx.timeit(lambda: torch.jit.save(model, str(pt)), repeat=rounds)
        torch_load = ctx.timeit(lambda: torch.jit.load(str(pt)), repeat=rounds)
        ours_pt = ctx.timeit(lambda: ts_serialize.load(pt), repeat=rounds)
        loaded = ts_serialize.load(pt)
        # the tsjit module must compute what PyTorch's does before anything is timed on it
        x = torch.randn(1, 3, 64, 64)
        with torch.no_grad(), ts_runtime.no_grad():
            want = model(x).numpy()
            got = loaded(ts_runtime.from_numpy(x.numpy().copy())).numpy()
        assert np.allclose(want, got, rtol=1e-4, atol=1e-4), np.abs(want - got).max()
    else:
        from ts_frontend import script

        loaded = script(_tsjit_resnet18())
        torch_save = torch_load = ours_pt = None
    params = sum(p.numel() for p in loaded.parameters())
    ours_save = ctx.timeit(lambda: ts_serialize.save(loaded, tsj), repeat=rounds)
    ours_load = ctx.timeit(lambda: ts_serialize.load(tsj), repeat=rounds)
    small = tmp / "small.tsj"
    ts_serialize.save({"x": ts_runtime.ones(2)}, small)
    peak_tsj = _peak("tsjit", tsj, small)

    def ratio(ours: float, theirs: float | None) -> str:
        return "" if theirs is None else f"{ours / theirs:.2f}"

    def ms(t: float | None) -> str:
        return "" if t is None else f"{t * 1e3:.0f} ms"

    rows.append(
        ["save", "tsjit archive", ms(ours_save), ms(torch_save), ratio(ours_save, torch_save)]
    )
    rows.append(
        [
            "load",
            "tsjit archive (mapped)",
            ms(ours_load),
            ms(torch_load),
            ratio(ours_load, torch_load),
        ]
    )
    if ours_pt is not None:
        rows.append(
            ["load", "PyTorch's .pt", ms(ours_pt), ms(torch_load), ratio(ours_pt, torch_load)]
        )
    memory = [["tsjit archive, mapped", _mb(peak_tsj)]]
    if ctx.has_torch:
        small_pt = tmp / "small.pt"
        import torch

        torch.jit.save(torch.jit.script(torch.nn.Linear(2, 2)), str(small_pt))
        memory.append(["PyTorch's .pt, by ts_serialize.load", _mb(_peak("tsjit", pt, small_pt))])
        memory.append(["PyTorch's .pt, by torch.jit.load", _mb(_peak("torch", pt, small_pt))])
    sizes = f"tsjit archive {_mb(tsj.stat().st_size)}" + (
        f", PyTorch's .pt {_mb(pt.stat().st_size)}" if pt.exists() else ""
    )
    body = (
        f"ResNet-18, {params:,} parameters ({_mb(params * 4)} of float32); files: {sizes}. "
        f"Median of {rounds} rounds; ratio is tsjit's time over PyTorch's (below 1 is faster).\n\n"
        + ctx.table(["", "archive", "tsjit", "PyTorch", "ratio"], rows)
        + "\n\nPeak memory of a load above the process's baseline:\n\n"
        + ctx.table(["load", "peak above baseline"], memory)
    )
    for p in tmp.iterdir():
        p.unlink()
    tmp.rmdir()
    return body


def _tsjit_resnet18():
    """ResNet-18 in tsjit's own nn, for runs without PyTorch."""
    from ts_runtime import nn

    class Block(nn.Module):
        def __init__(self, cin: int, cout: int, stride: int) -> None:
            super().__init__()
            self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
            self.bn1 = nn.BatchNorm2d(cout)
            self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
            self.bn2 = nn.BatchNorm2d(cout)
            self.down = (
                nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))
                if stride != 1 or cin != cout
                else nn.Identity()
            )

        def forward(self, x):
            y = self.bn2(self.conv2(self.bn1(self.conv1(x)).relu()))
            return (y + self.down(x)).relu()

    class ResNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.conv1 = nn.Conv2d(3, 64, 7, 2, 3, bias=False)
            self.bn1 = nn.BatchNorm2d(64)
            self.pool = nn.MaxPool2d(3, 2, 1)
            blocks, cin = [], 64
            for cout, stride in ((64, 1), (128, 2), (256, 2), (512, 2)):
                blocks += [Block(cin, cout, stride), Block(cout, cout, 1)]
                cin = cout
            self.layers = nn.Sequential(*blocks)
            self.fc = nn.Linear(512, 1000)

        def forward(self, x):
            x = self.layers(self.pool(self.bn1(self.conv1(x)).relu()))
            return self.fc(x.mean([2, 3]))

    return ResNet().eval()
