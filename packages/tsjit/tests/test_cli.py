"""The `tsjit` command, run as users run it: in a subprocess, through `python -m tsjit`."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest


def tsjit(*args: str, cwd: Path | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tsjit", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=timeout,
    )


def one_line_error(done: subprocess.CompletedProcess, command: str) -> str:
    """The error a failed command printed: one `tsjit CMD: error:` message, no traceback."""
    assert done.returncode == 1, (done.returncode, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith(f"tsjit {command}: error: "), done.stderr
    return done.stderr


@pytest.fixture
def program(tmp_path: Path) -> Path:
    path = tmp_path / "prog.py"
    path.write_text(
        textwrap.dedent(
            """
            import torch

            def scaled_tanh(x, y, n: int):
                for _ in range(n):
                    x = torch.tanh(x) * y
                return x

            class Tiny(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.lin = torch.nn.Linear(4, 2)

                def forward(self, x):
                    return torch.relu(self.lin(x))

            # files written for PyTorch ask this before choosing a device
            DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
            """
        )
    )
    return path


def test_demo_runs_to_the_end_and_shows_the_whole_pipeline(tmp_path: Path):
    done = tsjit("demo", "--repeat", "1", "--out", str(tmp_path / "pictures"))
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "prim::FusionGroup_0" in out and "with prim::FusionGroup_0 = graph(" in out
    assert "prim::ConstantChunk[chunks=4, dim=1]" in out  # the LSTM cell's chunked gates are fused
    assert "the interpreter's Code for that plan" in out
    assert "= FusionGroup move(" in out  # the Code listing runs the group, moving its inputs
    assert out.count("agree") >= 4 and "DIFFER" not in out
    assert "every result agrees with its reference" in out
    assert "resnet18: scripted against eager" in out and "aten::conv2d" in out
    for name in (
        "lstm_cell_scripted",
        "lstm_cell_optimized",
        "ratio_iou_scripted",
        "ratio_iou_optimized",
        "resnet18_optimized",
    ):
        assert (tmp_path / "pictures" / f"{name}.dot").read_text().startswith("digraph")
        if shutil.which("dot"):
            assert (tmp_path / "pictures" / f"{name}.svg").read_text().lstrip().startswith("<?xml")
    assert "\033[" not in out  # piped output has no colour


@pytest.mark.parametrize(
    "command", [[], ["demo"], ["script"], ["viz"], ["opt"], ["doctor"], ["convert"]]
)
def test_every_command_has_help(command):
    done = tsjit(*command, "--help")
    assert done.returncode == 0, done.stderr
    assert "usage:" in done.stdout


def test_script_shows_the_graph_code_and_optimized_graph(program: Path):
    done = tsjit(
        "script", f"{program}:scaled_tanh", "--example", "randn(3, 4), rand(3, 4), 2",
        "--show", "graph,code,optimized,instructions,result",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "prim::Loop" in done.stdout and "aten::tanh" in done.stdout
    assert "def scaled_tanh(" in done.stdout
    assert "optimized graph for the example inputs" in done.stdout
    assert "Float(" in done.stdout  # specialized types
    assert "RET " in done.stdout and "tensor(" in done.stdout


def test_script_compiles_a_module_class(program: Path):
    done = tsjit("script", f"{program}:Tiny", "--example", "randn(5, 4)", "--show", "graph,result")
    assert done.returncode == 0, done.stderr
    assert "prim::CallMethod" in done.stdout or "aten::linear" in done.stdout


def test_script_shows_the_instructions_of_a_module(program: Path):
    done = tsjit(
        "script", f"{program}:Tiny", "--example", "randn(5, 4)", "--show", "optimized,instructions"
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    listing = done.stdout.split("interpreter Code for the example inputs")[1]
    assert "GetAttr" in listing and "linear" in listing
    # the linear layer's bias and the relu run as one fused kernel, or as two instructions
    assert "FusionGroup" in listing or "relu" in listing
    assert "RET " in listing


def test_a_program_that_asks_for_cuda_runs_on_the_cpu(program: Path, tmp_path: Path):
    import tsjit as torch

    assert torch.cuda.is_available() is False and torch.cuda.device_count() == 0
    user = tmp_path / "device.py"
    user.write_text(
        "import torch\n\n"
        "def f(x):\n    return x * 2\n\n"
        "DEVICE = 'cuda' if torch.cuda.is_available() else 'cpu'\n"
    )
    done = tsjit("script", f"{user}:f", "--example", "ones(2)", "--show", "result")
    assert done.returncode == 0, done.stderr
    assert "tensor([2., 2.])" in done.stdout


def test_viz_writes_dot_and_svg(program: Path, tmp_path: Path):
    ir = tmp_path / "g.ir"
    ir.write_text("graph(%x : Tensor):\n  %y : Tensor = aten::relu(%x)\n  return (%y)\n")
    done = tsjit("viz", str(ir), "-o", str(tmp_path / "g.dot"))
    assert done.returncode == 0, done.stderr
    assert "aten::relu" in (tmp_path / "g.dot").read_text()
    if shutil.which("dot"):
        done = tsjit("viz", f"{program}:scaled_tanh", "-o", str(tmp_path / "f.svg"))
        assert done.returncode == 0, done.stderr
        assert "prim::Loop" in (tmp_path / "f.svg").read_text()


def test_viz_block_labels_break_lines(program: Path, tmp_path: Path):
    from ts_ir import read_dot

    done = tsjit("viz", f"{program}:scaled_tanh", "-o", str(tmp_path / "loop.dot"))
    assert done.returncode == 0, done.stderr
    dot = (tmp_path / "loop.dot").read_text()
    assert "\\\\n" not in dot  # an escaped backslash then `n`: a literal \n in a label
    picture = read_dot(dot)
    (loop,) = picture.clusters("prim::Loop")
    (body,) = loop.clusters
    (params,) = [n for n in body.nodes if picture.labels[n].startswith("%")]
    lines = picture.labels[params].split("\n")
    assert len(lines) == 2 and lines[0].endswith(": int") and lines[1].startswith("%x")


def test_opt_calls_itself_tsjit_opt():
    done = tsjit("opt", "--help")
    assert done.returncode == 0 and done.stdout.startswith("usage: tsjit opt ")
    assert "ts-opt" not in done.stdout
    done = tsjit("opt", "-p", "no-such-pass")
    assert done.returncode == 1 and done.stderr.startswith("tsjit opt: error: ")


def test_doctor_reports_packages_backends_caches_threads_and_gpu(tmp_path: Path):
    import os

    cache = tmp_path / "cache"
    (cache / "cpu-kernels").mkdir(parents=True)
    (cache / "cpu-kernels" / "k.kernel").write_bytes(b"x" * 1500)
    env = {**os.environ, "TS_JIT_CACHE_DIR": str(cache), "TS_JIT_NUM_THREADS": "3"}
    done = subprocess.run(
        [sys.executable, "-m", "tsjit", "doctor"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for package in ("ts-ir", "ts-schema", "ts-passes", "ts-runtime", "ts-frontend", "ts-fuser-cpu"):
        assert re.search(rf"^    {package} +0\.1\.0 ", out, re.M), package
    assert re.search(r"^    numpy +\d+\.\d+", out, re.M)
    assert re.search(r"^    cpu +CpuFuser +ts-fuser-cpu", out, re.M)
    assert re.search(r"^    cuda +CudaFuser +ts-fuser-cuda", out, re.M)
    assert re.search(r"^    cuda: device +none: ", out, re.M)
    assert re.search(r"^    fuser in use +cpu$", out, re.M)
    assert re.search(rf"{re.escape(str(cache / 'cpu-kernels'))} +1 file, 1\.5 kB", out)
    assert re.search(r"^    cpu fused kernels +3$", out, re.M)
    assert re.search(r"^    TS_JIT_NUM_THREADS +3$", out, re.M)
    assert re.search(r"^    tsjit\.cuda\.is_available\(\) +False$", out, re.M)


def test_opt_runs_passes_on_ir_text(tmp_path: Path):
    ir = tmp_path / "g.ir"
    ir.write_text("graph(%x : Tensor):\n  %y : Tensor = aten::relu(%x)\n  return (%x)\n")
    done = tsjit("opt", str(ir), "-p", "dce")
    assert done.returncode == 0, done.stderr
    assert "aten::relu" not in done.stdout and "return (%x)" in done.stdout


def test_script_errors_are_one_clear_line(program: Path, tmp_path: Path):
    assert "no such file" in one_line_error(tsjit("script", f"{tmp_path}/missing.py:f"), "script")
    assert "defines no 'nope'" in one_line_error(tsjit("script", f"{program}:nope"), "script")
    assert "expected FILE.py:NAME" in one_line_error(tsjit("script", str(program)), "script")
    bad = tmp_path / "bad.py"
    bad.write_text("def f(x):\n    return x +\n")
    assert "invalid Python" in one_line_error(tsjit("script", f"{bad}:f"), "script")
    unsupported = tmp_path / "unsupported.py"
    unsupported.write_text("def f(x):\n    return undefined_name + x\n")
    message = one_line_error(tsjit("script", f"{unsupported}:f"), "script")
    assert "undefined_name" in message and "unsupported.py:2" in message
    message = one_line_error(
        tsjit("script", f"{program}:scaled_tanh", "--example", "__import__('os')"), "script"
    )
    assert "--example understands" in message


def test_viz_and_opt_errors_are_one_clear_line(tmp_path: Path):
    bad_ir = tmp_path / "bad.ir"
    bad_ir.write_text("graph(%x : Tensor):\n  %y : Tensor = aten::relu(%q)\n  return (%y)\n")
    message = one_line_error(tsjit("viz", str(bad_ir), "-o", str(tmp_path / "x.dot")), "viz")
    assert "%q" in message and "bad.ir:2:28" in message
    done = tsjit("opt", str(bad_ir), "-p", "dce")
    assert done.returncode != 0 and "Traceback" not in done.stderr and "%q" in done.stderr
    done = tsjit("opt", str(bad_ir), "-p", "no-such-pass")
    assert done.returncode != 0 and "no-such-pass" in done.stderr


def test_debug_shows_the_traceback(tmp_path: Path):
    done = tsjit("--debug", "script", f"{tmp_path}/missing.py:f")
    assert done.returncode == 1 and "Traceback" in done.stderr


def test_misused_command_line_exits_2():
    assert tsjit().returncode == 2
    assert tsjit("no-such-command").returncode == 2
    assert tsjit("viz", "g.ir").returncode == 2  # -o is required
