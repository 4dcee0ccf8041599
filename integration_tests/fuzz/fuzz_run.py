"""Running a generated program three ways, and comparing what came out.

A program runs

- *eager*: its source executed as plain Python with `torch` bound to the
  framework (tsjit, or PyTorch for the reference), each function an
  ordinary Python function;
- *scripted*: its entry point compiled by the framework's
  `torch.jit.script` and called once per entry of `fuzz_gen.CALLS` (a
  first call, a second with the same kinds of inputs, then other sizes and
  dtypes), all from one compiled function, so later calls run the
  executor's cached or re-specialized plans.

Each call's outcome is encoded as plain JSON (`encode`): the result and the
arguments after the call (in-place updates of inputs are results too), or
the error raised. tsjit's eager outcomes are compared with PyTorch's eager
outcomes, and tsjit's scripted outcomes with PyTorch's scripted outcomes
(`compare`): the same language on both sides, so every difference is a
bug in one of them. (Eager and scripted differ by design where TorchScript
differs from Python: float division by zero, the class of an exception.)
"""

from __future__ import annotations

import ast
import builtins
import hashlib
import linecache
import math
import signal
import typing
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
from fuzz_gen import CALLS, Program

#: seconds one program may run (all its calls, one way) before it counts as hung
TIME_LIMIT = 20

_compiled = 0


def source_hash(source: str) -> str:
    return hashlib.sha256(source.encode()).hexdigest()[:16]


class _IEEEDivision(ast.NodeTransformer):
    """Scalar `/` and `%` as TorchScript computes them: a division by zero is inf or nan
    (IEEE), where Python raises ZeroDivisionError."""

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        name = {ast.Div: "__ieee_div__", ast.Mod: "__ieee_mod__"}.get(type(node.op))
        if name is None:
            return node
        call = ast.Call(ast.Name(name, ast.Load()), [node.left, node.right], [])
        return ast.copy_location(call, node)

    def visit_AugAssign(self, node: ast.AugAssign) -> ast.AST:
        self.generic_visit(node)
        if not isinstance(node.target, ast.Name) or not isinstance(node.op, (ast.Div, ast.Mod)):
            return node
        value = ast.BinOp(ast.Name(node.target.id, ast.Load()), node.op, node.value)
        assign = ast.Assign([node.target], self.visit_BinOp(ast.copy_location(value, node)))
        return ast.copy_location(assign, node)


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float))


def _ieee_div(a: Any, b: Any) -> Any:
    if _is_number(a) and _is_number(b) and b == 0:
        a = float(a)
        if a == 0 or math.isnan(a):
            return math.nan
        return math.copysign(math.inf, a) * math.copysign(1.0, float(b))
    return a / b


def _ieee_mod(a: Any, b: Any) -> Any:
    if (isinstance(a, float) or isinstance(b, float)) and _is_number(a) and _is_number(b):
        if b == 0:
            return math.nan
    return a % b


def namespace(program: Program, torch_module: Any, tag: str, *, ieee: bool = False) -> dict:
    """Execute the program's source with `torch` bound to `torch_module`; its globals. With
    `ieee`, scalar division by zero gives inf or nan, as in TorchScript."""
    global _compiled
    _compiled += 1
    filename = f"<fuzz {program.seed} {tag} {_compiled}>"
    lines = program.source.splitlines(True)
    linecache.cache[filename] = (len(program.source), None, lines, filename)
    code: Any = program.source
    if ieee:
        code = ast.fix_missing_locations(_IEEEDivision().visit(ast.parse(program.source)))
    ns: dict[str, Any] = {
        "__ieee_div__": _ieee_div,
        "__ieee_mod__": _ieee_mod,
        "__name__": f"fuzz_{program.seed}_{tag}_{_compiled}",
        "torch": torch_module,
        "List": typing.List,  # noqa: UP006
        "Dict": typing.Dict,  # noqa: UP006
        "Tuple": typing.Tuple,  # noqa: UP006
        "Optional": typing.Optional,
    }
    exec(compile(code, filename, "exec"), ns)
    return ns


def to_framework(value: Any, torch_module: Any) -> Any:
    if isinstance(value, np.ndarray):
        return torch_module.from_numpy(value.copy())
    if isinstance(value, list):
        return [to_framework(x, torch_module) for x in value]
    return value


class Hang(Exception):
    pass


@contextmanager
def time_limit(seconds: int) -> Iterator[None]:
    def on_alarm(signum, frame):
        raise Hang(f"ran for more than {seconds} s")

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


# -- encoding outcomes


def _float(x: float) -> Any:
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def encode(value: Any) -> Any:
    """A JSON value standing for `value` (a tsjit or PyTorch value alike)."""
    if value is None:
        return ["none"]
    if isinstance(value, bool):
        return ["bool", value]
    if isinstance(value, int):
        return ["int", value]
    if isinstance(value, float):
        return ["float", _float(value)]
    if isinstance(value, str):
        return ["str", value]
    if isinstance(value, list):
        return ["list", [encode(x) for x in value]]
    if isinstance(value, tuple):
        return ["tuple", [encode(x) for x in value]]
    if isinstance(value, dict):
        return ["dict", [[encode(k), encode(v)] for k, v in value.items()]]
    if hasattr(value, "numpy") and hasattr(value, "dtype"):
        arr = np.asarray(value.detach().numpy() if hasattr(value, "detach") else value.numpy())
        dtype = str(value.dtype).rsplit(".", 1)[-1]
        flat = arr.reshape(-1).tolist()
        if arr.dtype.kind == "f":
            flat = [_float(x) for x in flat]
        return ["tensor", dtype, list(arr.shape), flat]
    return ["object", type(value).__name__]


def error_class(exc: BaseException) -> str:
    """The builtin exception class `exc` is an instance of (the most derived one)."""
    for cls in type(exc).__mro__:
        if getattr(builtins, cls.__name__, None) is cls:
            return cls.__name__
    return "Exception"


def run_calls(fn: Any, program: Program, torch_module: Any, *, calls: range | None = None) -> list:
    """The outcome of each call of `fn` (on the inputs of `CALLS`)."""
    outcomes = []
    for call in calls if calls is not None else range(len(CALLS)):
        data, _ = program.inputs(call)
        args = [to_framework(x, torch_module) for x in data]
        try:
            with np.errstate(all="ignore"):
                result = fn(*args)
            outcomes.append({"result": encode(result), "args": encode(args)})
        except Hang:
            raise
        except RecursionError:
            outcomes.append({"error": "RecursionError"})
        except Exception as exc:  # what the program raised, in any form
            # the arguments as the call left them: its writes before the error
            outcomes.append(
                {
                    "error": error_class(exc),
                    "message": str(exc).splitlines()[-1:],
                    "args": encode(args),
                }
            )
    return outcomes


def run_eager(program: Program, torch_module: Any, tag: str, *, ieee: bool = False) -> list:
    ns = namespace(program, torch_module, tag, ieee=ieee)
    with time_limit(TIME_LIMIT):
        return run_calls(ns[program.entry], program, torch_module)


def script(program: Program, torch_module: Any, tag: str) -> tuple[Any, str | None]:
    """The scripted entry point, or (None, the compile error)."""
    ns = namespace(program, torch_module, tag)
    try:
        with time_limit(TIME_LIMIT):
            return torch_module.jit.script(ns[program.entry]), None
    except Hang:
        raise
    except Exception as exc:
        return None, f"{type(exc).__name__}: {str(exc).strip()[:2000]}"


def run_scripted(program: Program, torch_module: Any, tag: str) -> dict:
    fn, error = script(program, torch_module, tag)
    if fn is None:
        return {"compile_error": error}
    with time_limit(TIME_LIMIT):
        return {"calls": run_calls(fn, program, torch_module)}


# -- comparing


RTOL = 1e-4
ATOL = 1e-5


def _close(a: Any, b: Any) -> bool:
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    if a == b:
        return True
    return abs(a - b) <= ATOL + RTOL * abs(b)


def diff(got: Any, want: Any, where: str = "result") -> str | None:
    """None when two encoded values agree, else where and how they differ."""
    if got[0] != want[0]:
        return f"{where}: {got[0]} where {want[0]} was expected ({_short(got)} vs {_short(want)})"
    kind = got[0]
    if kind in ("none", "object"):
        return None if got == want else f"{where}: {got} vs {want}"
    if kind in ("bool", "int", "str"):
        return None if got[1] == want[1] else f"{where}: {got[1]!r} vs {want[1]!r}"
    if kind == "float":
        return None if _close(got[1], want[1]) else f"{where}: {got[1]!r} vs {want[1]!r}"
    if kind in ("list", "tuple"):
        if len(got[1]) != len(want[1]):
            return f"{where}: {kind} of {len(got[1])} vs {len(want[1])}: {_short(got)} vs {_short(want)}"
        for i, (a, b) in enumerate(zip(got[1], want[1], strict=True)):
            d = diff(a, b, f"{where}[{i}]")
            if d:
                return d
        return None
    if kind == "dict":
        if len(got[1]) != len(want[1]):
            return f"{where}: dict of {len(got[1])} vs {len(want[1])}"
        for (ka, va), (kb, vb) in zip(got[1], want[1], strict=True):
            d = diff(ka, kb, f"{where}.key") or diff(va, vb, f"{where}[{ka[1]!r}]")
            if d:
                return d
        return None
    if kind == "tensor":
        _, dt_a, sh_a, va = got
        _, dt_b, sh_b, vb = want
        if dt_a != dt_b:
            return f"{where}: dtype {dt_a} vs {dt_b}"
        if sh_a != sh_b:
            return f"{where}: shape {sh_a} vs {sh_b}"
        for i, (a, b) in enumerate(zip(va, vb, strict=True)):
            if not _close(a, b):
                return f"{where}: element {i}: {a!r} vs {b!r}"
        return None
    return f"{where}: unknown kind {kind}"


def _short(enc: Any) -> str:
    text = repr(enc)
    return text if len(text) < 120 else text[:117] + "..."


def diff_outcomes(
    got: list,
    want: list,
    *,
    classes: bool,
    against_eager: bool = False,
    dead_code_may_raise: bool = False,
) -> str | None:
    """None when two lists of call outcomes agree. With `classes`, errors must be of the
    same builtin class; without, an error must only meet an error.

    `against_eager` compares scripted outcomes with eager (Python) ones: lists and dicts
    passed in are copies in scripted code, so only tensor arguments are compared after the
    call, and a ZeroDivisionError in Python may be inf or nan in TorchScript.
    `dead_code_may_raise` accepts any result where Python raised: an optimizer may remove
    dead code that raises (an unused `xs[5]`), as PyTorch's does.
    """
    for i, (a, b) in enumerate(zip(got, want, strict=True)):
        if against_eager and "error" in b and "error" not in a:
            if dead_code_may_raise or _float_division_by_zero(b):
                continue
        if "error" in a or "error" in b:
            if "error" not in a:
                return f"call {i}: returned where an error ({b['error']}) was expected"
            if "error" not in b:
                return (
                    f"call {i}: raised {a['error']} {a.get('message')} where a result was expected"
                )
            if classes and a["error"] != b["error"]:
                return f"call {i}: raised {a['error']} where {b['error']} was expected"
            continue
        d = diff(a["result"], b["result"])
        if d is None:
            args_a, args_b = a["args"], b["args"]
            if against_eager:
                keep = [j for j, x in enumerate(args_b[1]) if x[0] == "tensor"]
                args_a = ["list", [args_a[1][j] for j in keep]]
                args_b = ["list", [args_b[1][j] for j in keep]]
            d = diff(args_a, args_b, "arguments after")
        if d:
            return f"call {i}: {d}"
    return None


def _float_division_by_zero(outcome: dict) -> bool:
    """Python raised where TorchScript computes inf or nan (not an int `//` or `%` by zero,
    which raise in both)."""
    message = " ".join(outcome.get("message") or [])
    return outcome["error"] == "ZeroDivisionError" and "integer" not in message


def _python_reference(eager: dict, scripted: dict) -> dict | None:
    """What a scripted call may give by Python's semantics: the eager error (not a float
    division by zero, which is inf or nan in TorchScript), or the eager result and tensors
    with the other arguments as PyTorch's scripted call left them (it gets copies of lists
    and dicts). None where that cannot be told."""
    if "error" in eager:
        return None if _float_division_by_zero(eager) else eager
    if "args" not in scripted:  # (a scripted call that raised keeps the arguments it left)
        return None
    return {"result": eager["result"], "args": _python_args(eager, scripted)}


def _python_args(eager: dict, scripted: dict) -> Any:
    """The arguments after a call: tensors as Python left them, the rest (copies in scripted
    code) as PyTorch's scripted call left them."""
    args = [
        e if e[0] == "tensor" else s
        for e, s in zip(eager["args"][1], scripted["args"][1], strict=True)
    ]
    return ["list", args]


def _python_writes_reference(eager: dict, scripted: dict) -> dict | None:
    """Where Python raised in code PyTorch's optimizer removed as dead (an unused `d["k"]`)
    and PyTorch's scripted call returned: its result, with the tensors as Python's writes
    before the error left them. PyTorch loses some of those writes (an in-place op on a
    value a zero-trip loop passes through); a call matching this matches Python but for the
    dead code PyTorch drops itself. None where that cannot be told."""
    if "error" not in eager or "args" not in eager or "error" in scripted:
        return None
    return {"result": scripted["result"], "args": _python_args(eager, scripted)}


def compare(
    tsjit_run: dict,
    torch_run: dict,
    *,
    extensions: bool = False,
    notes: list[str] | None = None,
) -> list[str]:
    """The disagreements between tsjit's runs and PyTorch's runs of one program.

    Eager runs are compared with eager runs, scripted with scripted. A program using
    `extensions` (accepted by tsjit, refused by TorchScript) has its scripted runs
    compared with PyTorch's eager runs instead.

    `notes` collects what agrees with the oracle but is not plain agreement, each with
    its kind before the first ": ": `pytorch differs` (a scripted call matches Python
    where none of PyTorch's executors does: PyTorch's fault), `both refuse` (tsjit
    refuses to compile a program TorchScript refuses too, where Python runs it).
    """
    problems = []
    notes = notes if notes is not None else []
    d = diff_outcomes(tsjit_run["eager"], torch_run["eager"], classes=True)
    if d:
        problems.append(f"eager: {d}")
    ts, pt = tsjit_run["scripted"], torch_run["scripted"]
    if "compile_error" in pt and not extensions:
        return problems
    if "compile_error" in ts:
        if "compile_error" in pt:
            # TorchScript refuses every program using an extension; tsjit refusing one
            # too agrees with the oracle, but not with Python: counted apart
            notes.append(f"both refuse: {ts['compile_error'][:300]}")
            return problems
        problems.append(f"scripted: tsjit refused the program: {ts['compile_error'][:300]}")
        return problems
    if "compile_error" in pt:
        d = diff_outcomes(
            ts["calls"],
            torch_run["eager"],
            classes=False,
            against_eager=True,
            dead_code_may_raise=True,
        )
        if d:
            problems.append(f"scripted: {d}")
        return problems
    references = [
        run["calls"]
        for run in (pt, torch_run.get("scripted_legacy"), torch_run.get("scripted_unoptimized"))
        if run is not None and "calls" in run
    ]
    for i, call in enumerate(ts["calls"]):
        found = [diff_outcomes([call], [ref[i]], classes=False) for ref in references]
        # Python's own answer: where all of PyTorch's executors lose a write that Python
        # makes (an alias their analysis misses), or drop a dead `t[3] = x` that raises in
        # Python, tsjit may do what Python does
        if not all(found):
            continue
        eager = torch_run["eager"][i]
        if "eager_ieee" in torch_run and "error" in eager and _float_division_by_zero(eager):
            eager = torch_run["eager_ieee"][i]
        python = [
            ref
            for ref in (
                _python_reference(eager, pt["calls"][i]),
                *(_python_writes_reference(eager, ref[i]) for ref in references),
            )
            if ref is not None
        ]
        if any(diff_outcomes([call], [ref], classes=True) is None for ref in python):
            notes.append(
                f"pytorch differs: call {i}: tsjit matches Python where PyTorch's "
                f"executors do not ({found[0].split(': ', 1)[1]})"
            )
            continue
        problems.append(f"scripted: {found[0].replace('call 0', f'call {i}', 1)}")
        break
    return problems


def run_tsjit(program: Program) -> dict:
    import tsjit

    return {
        "eager": run_eager(program, tsjit, "eager"),
        "scripted": run_scripted(program, tsjit, "script"),
    }


#: PyTorch's scripted runs: its default (profiling) executor, its legacy executor (which
#: optimizes on the first call, as tsjit's does), and no optimization at all
EXECUTORS = ("profiling", "legacy", "unoptimized")


def run_torch(program: Program, *, all_executors: bool = True) -> dict:
    """PyTorch's outcomes: eager, and scripted under each of `EXECUTORS`.

    Where PyTorch's executors disagree among themselves (an optimized graph no
    longer raises the IndexError of a dead `xs[5]`, or drops a write its alias
    analysis misses), the program's behaviour depends on the optimizer, and
    tsjit may give any of them: `compare` accepts a scripted call matching any.
    """
    import torch

    out = {
        "hash": source_hash(program.source),
        "eager": run_eager(program, torch, "eager"),
        "scripted": run_scripted(program, torch, "script"),
    }
    if any("error" in c and _float_division_by_zero(c) for c in out["eager"]):
        # Python's answer by TorchScript's float division (inf or nan), for `compare`
        out["eager_ieee"] = run_eager(program, torch, "ieee", ieee=True)
    if all_executors:
        add_other_executors(program, out)
    return out


def add_other_executors(program: Program, out: dict) -> None:
    """Add PyTorch's legacy-executor and unoptimized runs to `out` (a `run_torch` result)."""
    import torch

    profiling = torch._C._jit_set_profiling_executor(False)
    try:
        out["scripted_legacy"] = run_scripted(program, torch, "legacy")
    finally:
        torch._C._jit_set_profiling_executor(profiling)
    with torch.jit.optimized_execution(False):
        out["scripted_unoptimized"] = run_scripted(program, torch, "plain")


def signature(problems: list[str]) -> tuple[str, ...]:
    """What kind of disagreement the first problem is, without its values: a minimized
    program must keep the kind (a refusal stays a refusal with the same error)."""
    if not problems:
        return ()
    first = problems[0]
    mode, _, rest = first.partition(": ")
    if "tsjit refused the program" in rest:
        error = rest.split("tsjit refused the program: ", 1)[1]
        return (mode, "refused", error.split("'", 1)[0].split("\n", 1)[0][:80])
    for key in ("returned where an error", "where a result was expected", "was expected"):
        if key in rest:
            return (mode, key)
    return (mode, "value")


# -- recorded PyTorch outcomes


def _compact_calls(calls: list) -> list:
    out = []
    for c in calls:
        if "error" in c:
            # the message only matters to tell an int division by zero from a float one
            keep = c["error"] == "ZeroDivisionError"
            row = {"error": c["error"], **({"message": c["message"]} if keep else {})}
            if "args" in c and any(a[0] == "tensor" for a in c["args"][1]):
                row["args"] = c["args"]  # the tensors written before the error
            out.append(row)
        else:
            out.append(c)
    return out


def _compact_scripted(run: dict) -> dict:
    if "compile_error" in run:
        return {"compile_error": run["compile_error"].splitlines()[0][:200]}
    return {"calls": _compact_calls(run["calls"])}


def compact(torch_run: dict) -> dict:
    """PyTorch's outcomes as recorded: messages dropped, executors that agree with the
    profiling executor stored as "same"."""
    out = {
        "hash": torch_run["hash"],
        "eager": _compact_calls(torch_run["eager"]),
        "scripted": _compact_scripted(torch_run["scripted"]),
    }
    if "eager_ieee" in torch_run:
        out["eager_ieee"] = _compact_calls(torch_run["eager_ieee"])
    for key in ("scripted_legacy", "scripted_unoptimized"):
        run = _compact_scripted(torch_run[key])
        out[key] = "same" if run == out["scripted"] else run
    return out


def expand(recorded: dict) -> dict:
    """A recorded row back in the form `compare` takes."""
    out = dict(recorded)
    for key in ("scripted_legacy", "scripted_unoptimized"):
        if out.get(key) == "same":
            out[key] = out["scripted"]
    return out
