"""ts-frontend: how long scripting takes, next to `torch.jit.script` in the same run.

Compiled from scratch each round: tsjit through a fresh `ScriptCompiler` (so
nothing compiled is reused; the overload-resolution cache of the process is
warm after the first round, as PyTorch's operator tables are), PyTorch with
its compiled-function cache and concrete module type store cleared. The
programs are the conformance corpus (`integration_tests/corpus`): the LSTM
cell as a function, from its source string, and as a module, then the whole
corpus (the 53 function definitions PyTorch scripts, 51 programs and 2
helpers, and the 7 modules; tsjit also scripts the 2 programs PyTorch
refuses, timed separately). The ratio is tsjit's time over
PyTorch's: below 1 is faster.
"""

from __future__ import annotations

import importlib.util
import inspect
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent
CORPUS = ROOT / "integration_tests" / "corpus"
TITLE = "ts-frontend: scripting time, next to torch.jit.script"
REFUSED = ("augmented_ops", "list_comprehension")
MODULE_CTOR_ARGS = {"Gated": (True,)}


def _load(file: str, name: str, torch_module: Any) -> ModuleType:
    saved = sys.modules.get("torch")
    sys.modules["torch"] = torch_module
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


def _functions(module: ModuleType) -> list[str]:
    return [
        name
        for name, obj in vars(module).items()
        if inspect.isfunction(obj) and obj.__module__ == module.__name__
    ]


def _modules(module: ModuleType, base: type) -> list[str]:
    return [
        name
        for name, obj in vars(module).items()
        if isinstance(obj, type) and issubclass(obj, base) and obj.__module__ == module.__name__
    ]


def run(ctx) -> str:
    import tsjit
    from ts_frontend import CompilationUnit, ScriptCompiler
    from ts_frontend.module_compiler import script_module

    ours_p = _load("programs.py", "corpus_programs", tsjit)
    ours_m = _load("modules.py", "corpus_modules", tsjit)
    functions = _functions(ours_p)
    supported = [f for f in functions if f not in REFUSED]
    module_names = _modules(ours_m, tsjit.nn.Module)
    lstm_source = inspect.getsource(ours_p.lstm_cell)
    namespace = {"torch": tsjit}
    rounds = 3 if ctx.quick else 7

    def ours_function(name: str) -> None:
        ScriptCompiler(optimize=False).compile_function(getattr(ours_p, name))

    def ours_modules(names: list[str]) -> None:
        compiler = ScriptCompiler(optimize=False)
        for name in names:
            script_module(getattr(ours_m, name)(*MODULE_CTOR_ARGS.get(name, ())), compiler)

    def ours_corpus(names: list[str]) -> None:
        compiler = ScriptCompiler(optimize=False)
        for name in names:
            compiler.compile_function(getattr(ours_p, name))
        for name in module_names:
            script_module(getattr(ours_m, name)(*MODULE_CTOR_ARGS.get(name, ())), compiler)

    measurements: list[tuple[str, Any, Any]] = [
        ("LSTM cell (function)", lambda: ours_function("lstm_cell"), None),
        (
            "LSTM cell (source string, own parser)",
            lambda: CompilationUnit(lstm_source, namespace=namespace, optimize=False),
            None,
        ),
        ("LSTM cell (module)", lambda: ours_modules(["LSTMCellModule"]), None),
        (
            f"corpus: {len(supported)} functions + {len(module_names)} modules "
            "(all PyTorch scripts)",
            lambda: ours_corpus(supported),
            None,
        ),
    ]

    if ctx.has_torch:
        import torch
        import torch.jit._recursive as recursive
        import torch.jit._state as state

        their_p = _load("programs.py", "corpus_programs_torch", torch)
        their_m = _load("modules.py", "corpus_modules_torch", torch)

        def fresh() -> None:
            state._jit_caching_layer.clear()
            recursive.concrete_type_store = recursive.ConcreteTypeStore()

        def theirs_function(name: str) -> None:
            fresh()
            torch.jit.script(getattr(their_p, name))

        def theirs_modules(names: list[str]) -> None:
            fresh()
            for name in names:
                torch.jit.script(getattr(their_m, name)(*MODULE_CTOR_ARGS.get(name, ())))

        def theirs_corpus() -> None:
            fresh()
            for name in supported:
                torch.jit.script(getattr(their_p, name))
            for name in module_names:
                torch.jit.script(getattr(their_m, name)(*MODULE_CTOR_ARGS.get(name, ())))

        their_source = lstm_source
        measurements = [
            (measurements[0][0], measurements[0][1], lambda: theirs_function("lstm_cell")),
            (
                measurements[1][0],
                measurements[1][1],
                lambda: torch.jit.CompilationUnit(their_source),
            ),
            (measurements[2][0], measurements[2][1], lambda: theirs_modules(["LSTMCellModule"])),
            (measurements[3][0], measurements[3][1], theirs_corpus),
        ]

    rows = []
    for label, ours, theirs in measurements:
        t_ours = ctx.timeit(ours, repeat=rounds)
        if theirs is not None:
            t_theirs = ctx.timeit(theirs, repeat=rounds)
            rows.append(
                [label, f"{t_ours * 1e3:.2f}", f"{t_theirs * 1e3:.2f}", f"{t_ours / t_theirs:.2f}"]
            )
        else:
            rows.append([label, f"{t_ours * 1e3:.2f}", "n/a", "n/a"])
    t_all = ctx.timeit(lambda: ours_corpus(functions), repeat=rounds)
    rows.append(
        [
            f"corpus: all {len(functions)} functions (with the 2 PyTorch refuses) + "
            f"{len(module_names)} modules",
            f"{t_all * 1e3:.2f}",
            "n/a",
            "n/a",
        ]
    )
    table = ctx.table(["scripting", "tsjit (ms)", "PyTorch (ms)", "ratio"], rows)
    note = (
        "Median of rounds, each compiling from scratch. tsjit's graphs are ready to run "
        "(SSA, exits removed, cleaned up); execution plans are made at the first call, as "
        "PyTorch's are."
    )
    return table + "\n\n" + note
