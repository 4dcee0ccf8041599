"""Record PyTorch 2.13's results on the language programs (integration_tests/language).

    python tools/record_language.py          rewrite integration_tests/language/recorded.jsonl

Each function of `programs.py` is scripted with `torch.jit.script` and run on
its `CASES`; each module of `MODULES` is built, scripted (unless it is a
`torch.jit.ScriptModule` already), put in eval mode and run. Where PyTorch
refuses a program, `torchscript_supported` is false, `torchscript_error`
says why, and the cases hold what eager Python computes. A case that raises
records the exception's class (eager Python's, since TorchScript raises
`torch.jit.Error` for all). Values are in the corpus's encoding
(`integration_tests/corpus_values.py`).
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LANGUAGE = ROOT / "integration_tests" / "language"
sys.path.insert(0, str(ROOT / "integration_tests"))

from corpus_values import encode  # noqa: E402


def load_programs(torch_module: Any, name: str = "language_programs") -> Any:
    """`programs.py` imported with `torch` bound to `torch_module` while it loads."""
    saved = sys.modules.get("torch")
    sys.modules["torch"] = torch_module
    try:
        spec = importlib.util.spec_from_file_location(name, LANGUAGE / "programs.py")
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


def to_runtime(value: Any, torch_module: Any, programs: Any, enums: Any = None) -> Any:
    """A case's input as a value of `torch_module` (PyTorch or tsjit); an enum member as the
    member of the same name of `enums` (the programs module the callee was loaded as)."""
    import enum

    import numpy as np

    if isinstance(value, enum.Enum) and enums is not None:
        return getattr(getattr(enums, type(value).__name__), value.name)
    if isinstance(value, np.ndarray):
        return torch_module.from_numpy(value.copy())
    if isinstance(value, programs.DType):
        return getattr(torch_module, str(value))
    if isinstance(value, programs.Device):
        return torch_module.device(str(value))
    if isinstance(value, tuple):
        return tuple(to_runtime(v, torch_module, programs, enums) for v in value)
    if isinstance(value, list):
        return [to_runtime(v, torch_module, programs, enums) for v in value]
    return value


def _graph_text(graph: Any) -> str:
    """PyTorch's print of a graph without source locations (they hold local paths)."""
    return re.sub(r" # [^\n]*", "", graph.str(False))


def run_case(fn: Any, inputs: tuple) -> dict:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            out = fn(*inputs)
        except Exception as exc:  # the program raises: record the class
            return {"error": type(exc).__name__}
    return {"outputs": encode(out)}


def record() -> list[dict]:
    import torch

    programs = load_programs(torch)
    rows = []
    for name, cases in programs.CASES.items():
        fn = getattr(programs, name)
        row: dict = {"name": name, "kind": "function", "torchscript_supported": True}
        try:
            compiled = torch.jit.script(fn)
            row["graph"] = _graph_text(compiled.graph)
        except Exception as exc:
            row["torchscript_supported"] = False
            row["torchscript_error"] = str(exc).strip().splitlines()[0]
            compiled = fn
        row["cases"] = []
        for inputs in cases:
            case = {"inputs": [encode(to_runtime(v, torch, programs)) for v in inputs]}
            eager_error = run_case(fn, to_runtime(inputs, torch, programs)).get("error")
            result = run_case(compiled, to_runtime(inputs, torch, programs))
            if "error" in result:
                result["error"] = eager_error or result["error"]
            case.update(result)
            row["cases"].append(case)
        rows.append(row)
    for name, (ctor_args, cases) in programs.MODULES.items():
        torch.manual_seed(0)
        eager = getattr(programs, name)(*ctor_args)
        row = {"name": name, "kind": "module", "ctor_args": list(ctor_args)}
        row["state_dict"] = {k: encode(v) for k, v in eager.state_dict().items()}
        scripted = eager if isinstance(eager, torch.jit.ScriptModule) else torch.jit.script(eager)
        scripted.eval()
        row["graph"] = _graph_text(scripted.graph)
        row["cases"] = []
        for inputs in cases:
            case = {"inputs": [encode(to_runtime(v, torch, programs)) for v in inputs]}
            case.update(run_case(scripted, to_runtime(inputs, torch, programs)))
            row["cases"].append(case)
        rows.append(row)
    return rows


def main() -> int:
    rows = record()
    path = LANGUAGE / "recorded.jsonl"
    with open(path, "w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row) + "\n")
    supported = sum(1 for r in rows if r.get("torchscript_supported", True))
    print(f"wrote {path.relative_to(ROOT)}: {len(rows)} programs, {supported} scripted by PyTorch")
    return 0


if __name__ == "__main__":
    sys.exit(main())
