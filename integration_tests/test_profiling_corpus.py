"""Every corpus program under the profiling executor, called with inputs that change mid-stream.

Each function and module is scripted under the profiling executor and called with a sequence
of inputs that keeps changing what its guards checked: its recorded inputs (profiled and then
optimized), its other recorded cases, then variants of the first case made from it (float32
tensors as float64; 2-d tensors laid out column-major; every tensor twice as long along its
first dimension; float tensors requiring grad), each several times, then the first case again.
Every call must give the results eager Python gives on the same inputs (the corpus functions
and modules run uncompiled, with `torch` bound to tsjit), and for tensors requiring grad the
same gradients (of the sum of the outputs). A variant eager Python rejects (a shape the
program cannot take) is left out. Where TorchScript and eager Python differ in the type of a
result (`a ** 2` of ints is a float, `x.size()` a list), numbers compare by value and
sequences by their items; the first call is also compared with PyTorch's recorded output
(later calls may see state an earlier one left in a module).

The bailouts, fallbacks and re-profiles each program takes are counted (printed with
`pytest -s`); a program with float32 tensor inputs must bail out or fall back, and re-profile.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from conftest import load_jsonl
from corpus_values import decode, mismatch
from test_frontend_corpus import corpus_modules, corpus_programs

PROGRAMS = list(load_jsonl("programs"))
#: how often each variant is called in a row: the first call may bail out, the next ones
#: run what the executor made of it
REPEAT = 3


@pytest.fixture(autouse=True)
def profiling_executor():
    import ts_runtime

    previous = ts_runtime.set_profiling_executor(True)
    yield
    ts_runtime.set_profiling_executor(previous)


# -- input variants


def _map_tensors(value: Any, fn: Callable[[Any], Any]) -> Any:
    import ts_runtime

    if isinstance(value, ts_runtime.Tensor):
        return fn(value)
    if isinstance(value, tuple):
        return tuple(_map_tensors(v, fn) for v in value)
    if isinstance(value, list):
        return [_map_tensors(v, fn) for v in value]
    if isinstance(value, dict):
        return {k: _map_tensors(v, fn) for k, v in value.items()}
    return value


def _array(t: Any) -> np.ndarray:
    return t.detach().numpy()


def _tensor(a: np.ndarray, requires_grad: bool = False) -> Any:
    import ts_runtime

    x = ts_runtime.from_numpy(a)
    if requires_grad:
        x.requires_grad_(True)
    return x


def _float64(t: Any) -> Any:
    a = _array(t)
    return _tensor(a.astype(np.float64)) if a.dtype == np.float32 else t


def _column_major(t: Any) -> Any:
    a = _array(t)
    return _tensor(np.asfortranarray(a)) if a.ndim >= 2 else t


def _doubled(t: Any) -> Any:
    a = _array(t)
    return _tensor(np.concatenate([a, a])) if a.ndim >= 1 else t


def _requiring_grad(t: Any) -> Any:
    a = _array(t)
    return _tensor(a.copy(), requires_grad=True) if a.dtype.kind == "f" else t


VARIANTS: dict[str, Callable[[Any], Any]] = {
    "float64": _float64,
    "column-major": _column_major,
    "doubled": _doubled,
    "requires_grad": _requiring_grad,
}


def _fresh(t: Any) -> Any:
    """A copy with the same layout and requires_grad (so no call sees another's writes)."""
    return _tensor(_array(t).copy(order="K"), requires_grad=t.requires_grad)


# -- comparing with eager Python


def _grads(outputs: Any, inputs: Any) -> list[Any] | None:
    """Gradients of the sum of the float outputs that require grad, for the inputs that do."""
    import ts_runtime

    found: list[Any] = []

    def walk(v: Any) -> None:
        if isinstance(v, ts_runtime.Tensor):
            if v.requires_grad and _array(v).dtype.kind == "f":
                found.append(v)
        elif isinstance(v, (tuple, list)):
            for x in v:
                walk(x)

    walk(outputs)
    if not found:
        return None
    loss = found[0].sum()
    for v in found[1:]:
        loss = loss + v.sum()
    loss.backward(retain_graph=True)  # a module's buffers may carry history between calls
    leaves: list[Any] = []
    _map_tensors(inputs, lambda t: leaves.append(t.grad) if t.requires_grad else None)
    return leaves


def _difference(got: Any, want: Any, path: str = "output") -> str | None:
    import ts_runtime

    if isinstance(want, ts_runtime.Tensor):
        if not isinstance(got, ts_runtime.Tensor):
            return f"{path}: {type(got).__name__} where eager gives a tensor"
        a, b = _array(got), _array(want)
        if a.dtype != b.dtype or a.shape != b.shape:
            return f"{path}: {a.dtype}{list(a.shape)} where eager gives {b.dtype}{list(b.shape)}"
        if a.dtype.kind in "fc":
            rtol, atol = (1e-5, 1e-6) if a.dtype != np.float64 else (1e-10, 1e-12)
            ok = np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=True)
        else:
            ok = np.array_equal(a, b)
        return None if ok else f"{path}: values differ\n got  {a}\n want {b}"
    if isinstance(want, (tuple, list)):  # torch.Size in eager, int[] in TorchScript
        if not isinstance(got, (tuple, list)) or len(got) != len(want):
            return f"{path}: {got!r} where eager gives {want!r}"
        for i, (a, b) in enumerate(zip(got, want, strict=True)):
            problem = _difference(a, b, f"{path}[{i}]")
            if problem:
                return problem
        return None
    if isinstance(want, dict):
        if not isinstance(got, dict) or got.keys() != want.keys():
            return f"{path}: {got!r} where eager gives {want!r}"
        for k in want:
            problem = _difference(got[k], want[k], f"{path}[{k!r}]")
            if problem:
                return problem
        return None
    numbers = (int, float)
    if (
        isinstance(got, numbers)
        and isinstance(want, numbers)
        and bool not in (type(got), type(want))
    ):
        ok = math.isclose(got, want, rel_tol=1e-6, abs_tol=1e-9) or (
            math.isnan(got) and math.isnan(want)
        )
        return None if ok else f"{path}: {got!r} where eager gives {want!r}"
    return None if got == want and type(got) is type(want) else f"{path}: {got!r} != {want!r}"


def _programs(row: dict) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """(eager, scripted) for a corpus row; modules get their recorded state, in eval mode.
    Each is compiled afresh (`optimize=True`: a compiler of its own), so its executor is
    chosen now, not when another test in this process first ran the same function."""
    from ts_frontend import script

    if row["kind"] == "function":
        eager = getattr(corpus_programs(), row["name"])
        return eager, script(eager, optimize=True)
    made = []
    for _ in range(2):  # separate instances: a module may update its buffers
        module = getattr(corpus_modules(), row["name"])(*row["ctor_args"])
        module.load_state_dict({k: decode(v) for k, v in row["state_dict"].items()})
        module.eval()
        made.append(module)
    scripted = script(made[1], optimize=True)
    scripted.eval()
    return made[0], scripted


def _sequence(row: dict) -> list[tuple[str, list[Any], dict | None]]:
    """(label, inputs, recorded case or None) for each call, in order."""
    cases = [c for c in row["cases"] if "error" not in c]
    first = [decode(x) for x in cases[0]["inputs"]]
    calls: list[tuple[str, list[Any], dict | None]] = [("case 0", first, cases[0])] * 2
    calls += [(f"case {i}", [decode(x) for x in c["inputs"]], c) for i, c in enumerate(cases)]
    for name, variant in VARIANTS.items():
        calls += [(name, _map_tensors(first, variant), None)] * REPEAT
    calls += [("case 0 again", first, cases[0])] * 2
    return calls


@pytest.mark.parametrize("row", PROGRAMS, ids=lambda row: row["name"])
def test_changing_inputs_give_eager_results(row):
    from ts_runtime import ProfilingStats

    if not any("error" not in c for c in row["cases"]):
        pytest.skip("no case with outputs")
    eager, scripted = _programs(row)
    before = (ProfilingStats.bailouts, ProfilingStats.fallbacks, ProfilingStats.reprofiles)
    problems = []
    checked = 0
    for label, inputs, case in _sequence(row):
        eager_inputs = _map_tensors(inputs, _fresh)
        try:
            want = eager(*eager_inputs)
            want_grads = _grads(want, eager_inputs)
        except Exception:
            assert case is None, f"{label}: eager Python fails on a recorded case"
            continue  # a variant the program cannot take
        script_inputs = _map_tensors(inputs, _fresh)
        got = scripted(*script_inputs)
        got_grads = _grads(got, script_inputs)
        problem = _difference(got, want) or _difference(got_grads, want_grads, "gradients")
        if checked == 0 and problem is None:  # later calls may see state the first one left
            problem = mismatch(got, case["outputs"])
        if problem:
            problems.append(f"{label}: {problem}")
        checked += 1
    after = (ProfilingStats.bailouts, ProfilingStats.fallbacks, ProfilingStats.reprofiles)
    bailouts, fallbacks, reprofiles = (a - b for a, b in zip(after, before, strict=True))
    print(f"{row['name']}: {bailouts} bailouts, {fallbacks} fallbacks, {reprofiles} re-profiles")
    assert not problems, "\n".join(problems)
    assert checked >= 4
    if _has_float32_inputs(row):
        # the float64 variant changes what the first plan checked
        assert bailouts + fallbacks > 0 and reprofiles > 0


def _has_float32_inputs(row: dict) -> bool:
    return any(
        isinstance(x, dict) and x.get("tensor", {}).get("dtype") == "float32"
        for x in row["cases"][0]["inputs"]
    )
