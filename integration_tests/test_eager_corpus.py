"""The corpus programs and modules, run eagerly with `torch` bound to `ts_runtime`.

`corpus/programs.py` and `corpus/modules.py` are executed with the name
`torch` resolving to `ts_runtime` (no frontend, no interpreter: plain Python
calling the eager operator library), and every recorded case must come out
as PyTorch recorded it. Modules are built with their `ctor_args`, loaded
with the recorded `state_dict` and put in eval mode.

Two differences from the recording are PyTorch's own: eager `x.size()` is a
`Size` (a tuple) where the scripted program returned `List[int]`, and an
eager exception keeps its Python class where TorchScript raised
`torch.jit.Error`.
"""

from __future__ import annotations

import builtins
import json
import sys
from pathlib import Path

import pytest
from conftest import load_jsonl
from corpus_values import decode, eager_error_class, mismatch

CORPUS = Path(__file__).parent / "corpus"

# programs that need `torch.jit` (fork/wait), which eager ts_runtime does not provide
NEEDS_JIT = {"fork_wait"}


def _load(filename: str) -> dict:
    import ts_runtime

    source = (CORPUS / filename).read_text(encoding="utf-8")
    namespace: dict = {"__name__": f"eager_corpus_{filename[:-3]}"}
    saved = sys.modules.get("torch")
    sys.modules["torch"] = ts_runtime  # so that the file's `import torch` binds ts_runtime
    try:
        exec(compile(source, str(CORPUS / filename), "exec"), namespace)
    finally:
        if saved is None:
            del sys.modules["torch"]
        else:
            sys.modules["torch"] = saved
    return namespace


@pytest.fixture(scope="module")
def programs() -> dict:
    return _load("programs.py")


@pytest.fixture(scope="module")
def modules() -> dict:
    return _load("modules.py")


def _eager(value):
    """Eager results as the recording has them: a `Size` is the scripted `List[int]`."""
    import ts_runtime

    if isinstance(value, ts_runtime.Size):
        return list(value)
    if isinstance(value, tuple):
        return tuple(_eager(v) for v in value)
    if isinstance(value, list):
        return [_eager(v) for v in value]
    return value


def _expected_error(program: dict, case: dict) -> type[BaseException]:
    name = eager_error_class(program) or case["error"]
    return getattr(builtins, name, Exception)


def _uses_tensors(row: dict) -> bool:
    return '"tensor"' in json.dumps(row["cases"])


# Programs on Python scalars, lists, strings and dicts only test TorchScript's semantics for
# them (`a ** 2` is a float there, an int in Python); eager Python cannot reproduce those.
FUNCTIONS = [
    row for row in load_jsonl("programs") if row["kind"] == "function" and _uses_tensors(row)
]
MODULES = [row for row in load_jsonl("programs") if row["kind"] == "module"]


@pytest.mark.parametrize("program", FUNCTIONS, ids=lambda row: row["name"])
def test_program_runs_eagerly(program, programs):
    if program["name"] in NEEDS_JIT:
        pytest.skip("uses torch.jit.fork/wait")
    fn = programs[program["name"]]
    for i, case in enumerate(program["cases"]):
        inputs = [decode(x) for x in case["inputs"]]
        if "error" in case:
            with pytest.raises(_expected_error(program, case)):
                fn(*inputs)
            continue
        problem = mismatch(_eager(fn(*inputs)), case["outputs"])
        assert problem is None, f"case {i}: {problem}"


@pytest.mark.parametrize("row", MODULES, ids=lambda row: row["name"])
def test_module_runs_eagerly(row, modules):
    import ts_runtime

    module = modules[row["name"]](*[decode(a) for a in row.get("ctor_args") or []])
    assert isinstance(module, ts_runtime.nn.Module)
    state = {k: decode(v) for k, v in row["state_dict"].items()}
    assert sorted(module.state_dict()) == sorted(state)
    module.load_state_dict(state)
    module.eval()
    for i, case in enumerate(row["cases"]):
        inputs = [decode(x) for x in case["inputs"]]
        with ts_runtime.no_grad():
            out = module(*inputs)
        problem = mismatch(_eager(out), case["outputs"])
        assert problem is None, f"case {i}: {problem}"


def test_module_parameters_take_part_in_autograd(modules):
    """With grad enabled, the loaded module's output has history back to its parameters."""
    import ts_runtime

    row = next(r for r in MODULES if r["name"] == "MLP")
    module = modules["MLP"]()
    module.load_state_dict({k: decode(v) for k, v in row["state_dict"].items()})
    out = module(decode(row["cases"][0]["inputs"][0]))
    out.sum().backward()
    for name, p in module.named_parameters():
        assert p.grad is not None and tuple(p.grad.shape) == tuple(p.shape), name
    assert isinstance(module.fc1.weight, ts_runtime.nn.Parameter)
