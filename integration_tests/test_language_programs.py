"""Language constructs published TorchScript code uses: tsjit reproduces PyTorch 2.13.

`language/programs.py` holds one program per construct (see
language/README.md). Without PyTorch, each is scripted by tsjit and run on
the recorded inputs, and must give the recorded results (`recorded.jsonl`,
made by `tools/record_language.py`). In the oracle session the same
programs are scripted by both and run on the same inputs, and the
recording must still be what PyTorch gives.
"""

from __future__ import annotations

import builtins
import importlib.util
import json
import warnings
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from corpus_values import decode, mismatch

ROOT = Path(__file__).resolve().parent.parent
with open(ROOT / "integration_tests" / "language" / "recorded.jsonl", encoding="utf-8") as _f:
    ROWS = [json.loads(line) for line in _f if line.strip()]

#: programs whose run needs an operator the runtime does not implement yet
MISSING_KERNELS: dict[str, str] = {}


@cache
def _recorder():
    path = ROOT / "tools" / "record_language.py"
    spec = importlib.util.spec_from_file_location("record_language", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@cache
def tsjit_programs():
    import tsjit

    return _recorder().load_programs(tsjit, "language_programs_tsjit")


@cache
def torch_programs():
    torch = pytest.importorskip("torch")
    return _recorder().load_programs(torch, "language_programs_torch")


def compiled(row: dict, programs, torch_module):
    if row["kind"] == "function":
        return torch_module.jit.script(getattr(programs, row["name"]))
    eager = getattr(programs, row["name"])(*row["ctor_args"])
    is_script = isinstance(eager, torch_module.jit.ScriptModule)
    module = eager if is_script else torch_module.jit.script(eager)
    state = {k: _tensor(v, torch_module) for k, v in row["state_dict"].items()}
    module.load_state_dict(state)
    module.eval()
    return module


def _tensor(encoded: dict, torch_module):
    """A recorded tensor as a tensor of `torch_module` (PyTorch or tsjit)."""
    t = encoded["tensor"]
    array = np.array(t["data"], dtype=np.dtype(t["dtype"])).reshape(t["shape"])
    return torch_module.from_numpy(array)


def _call(fn, inputs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*inputs)


def _marks(row: dict) -> list:
    reason = MISSING_KERNELS.get(row["name"])
    return [pytest.mark.xfail(reason=reason, strict=True)] if reason else []


PARAMS = [pytest.param(row, id=row["name"], marks=_marks(row)) for row in ROWS]


@pytest.mark.parametrize("row", PARAMS)
def test_program_reproduces_the_recording(row):
    fn = compiled(row, tsjit_programs(), __import__("tsjit"))
    for i, case in enumerate(row["cases"]):
        inputs = [decode(x, tsjit_programs()) for x in case["inputs"]]
        if "error" in case:
            with pytest.raises(getattr(builtins, case["error"], Exception)):
                _call(fn, inputs)
            continue
        problem = mismatch(_call(fn, inputs), case["outputs"])
        assert problem is None, f"case {i}: {problem}"


@pytest.mark.oracle
@pytest.mark.parametrize("row", PARAMS)
def test_program_agrees_with_pytorch(row):
    torch = pytest.importorskip("torch")
    import tsjit

    recorder = _recorder()
    theirs_programs = torch_programs()
    if row.get("torchscript_supported", True):
        theirs = compiled(row, theirs_programs, torch)
    else:
        theirs = getattr(theirs_programs, row["name"])  # PyTorch refuses it: eager Python
    ours = compiled(row, tsjit_programs(), tsjit)
    cases = (
        theirs_programs.CASES[row["name"]]
        if row["kind"] == "function"
        else theirs_programs.MODULES[row["name"]][1]
    )
    for i, (inputs, recorded) in enumerate(zip(cases, row["cases"], strict=True)):
        want = recorder.run_case(theirs, recorder.to_runtime(inputs, torch, theirs_programs))
        if "error" in recorded:
            assert "error" in want, f"case {i}: PyTorch no longer raises"
            with pytest.raises(Exception):  # noqa: B017 - TorchScript raises torch.jit.Error
                _call(ours, recorder.to_runtime(inputs, tsjit, theirs_programs, tsjit_programs()))
            continue
        assert mismatch(decode(want["outputs"], tsjit_programs()), recorded["outputs"]) is None, (
            f"case {i}: the recording is stale; run tools/record_language.py"
        )
        got = _call(ours, recorder.to_runtime(inputs, tsjit, theirs_programs, tsjit_programs()))
        problem = mismatch(got, want["outputs"])
        assert problem is None, f"case {i}: {problem}"


def test_every_program_has_cases():
    assert len(ROWS) >= 17
    for row in ROWS:
        assert row["cases"], row["name"]
