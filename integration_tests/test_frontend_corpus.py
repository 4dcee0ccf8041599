"""Scripting the corpus: every function and module compiles and reproduces its recorded cases.

`corpus/programs.py` and `corpus/modules.py` are imported as `corpus_programs`
and `corpus_modules` with the name `torch` bound to `tsjit` while they load.
Each of the 53 functions (the two PyTorch refuses, `augmented_ops` and
`list_comprehension`, included) is scripted and called on every recorded
input; each of the 7 modules is built with its `ctor_args`, scripted, loaded
with its recorded `state_dict`, put in eval mode and called on its cases.
Outputs must match (see `corpus_values.mismatch`); a recorded error must be
raised with the class eager Python raises.
"""

from __future__ import annotations

import builtins
import importlib.util
import sys
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest
from conftest import load_jsonl
from corpus_values import decode, eager_error_class, mismatch

CORPUS = Path(__file__).parent / "corpus"
FUNCTIONS = [row for row in load_jsonl("programs") if row["kind"] == "function"]
MODULES = [row for row in load_jsonl("programs") if row["kind"] == "module"]


def _load(file: str, name: str) -> ModuleType:
    import tsjit

    saved = sys.modules.get("torch")
    sys.modules["torch"] = tsjit
    try:
        spec = importlib.util.spec_from_file_location(name, CORPUS / file)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    finally:
        if saved is None:
            del sys.modules["torch"]
        else:
            sys.modules["torch"] = saved
    return module


@cache
def corpus_programs() -> ModuleType:
    """`corpus/programs.py`, imported as `corpus_programs` with `torch` bound to tsjit."""
    return _load("programs.py", "corpus_programs")


@cache
def corpus_modules() -> ModuleType:
    """`corpus/modules.py`, imported as `corpus_modules` with `torch` bound to tsjit."""
    return _load("modules.py", "corpus_modules")


def run_case(fn, program: dict, case: dict, index: int) -> None:
    inputs = [decode(x) for x in case["inputs"]]
    if "error" in case:
        expected = eager_error_class(program)
        with pytest.raises(getattr(builtins, expected) if expected else Exception):
            fn(*inputs)
        return
    out = fn(*inputs)
    problem = mismatch(out, case["outputs"])
    assert problem is None, f"case {index}: {problem}"


@pytest.mark.parametrize("program", FUNCTIONS, ids=lambda row: row["name"])
def test_function_scripts_and_reproduces_cases(program):
    from ts_frontend import ScriptFunction, script

    fn = script(getattr(corpus_programs(), program["name"]))
    assert isinstance(fn, ScriptFunction)
    fn.graph.lint()
    for i, case in enumerate(program["cases"]):
        run_case(fn, program, case, i)


@pytest.mark.parametrize("program", MODULES, ids=lambda row: row["name"])
def test_module_scripts_and_reproduces_cases(program):
    import ts_runtime
    from ts_frontend import script

    eager = getattr(corpus_modules(), program["name"])(*program["ctor_args"])
    module = script(eager)
    assert isinstance(module, ts_runtime.ScriptModule)
    state = {k: decode(v) for k, v in program["state_dict"].items()}
    module.load_state_dict(state)
    module.eval()
    assert sorted(module.state_dict()) == sorted(state)
    module.graph.lint()
    for i, case in enumerate(program["cases"]):
        run_case(module, program, case, i)


def test_counts():
    """53 functions (2 of them refused by PyTorch) and 7 modules."""
    assert len(FUNCTIONS) == 53
    assert len(MODULES) == 7
    refused = sorted(r["name"] for r in FUNCTIONS if not r.get("torchscript_supported", True))
    assert refused == ["augmented_ops", "list_comprehension"]
