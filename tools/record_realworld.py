"""Record PyTorch's results on the real-world corpus (integration_tests/realworld).

    python tools/record_realworld.py                 # rewrite realworld/recorded.jsonl
    python tools/record_realworld.py --only kornia   # print the rows of matching items

For every item of `realworld/items.py`: the source file is imported with PyTorch, the item
is scripted with `torch.jit.script` and called on each case; a module's parameters are
filled from seeds first (the seeds are recorded, see `runner.state_spec`). Items marked
`trace` are also traced with `torch.jit.trace` on their first case; the traced function's
results on every case of the same form, and the `TracerWarning`s tracing gave, are
recorded too. Needs torch 2.13 (the version is recorded in each row).
"""

from __future__ import annotations

import argparse
import json
import sys
import traceback
import warnings
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "integration_tests"), str(ROOT / "integration_tests" / "realworld")]

import items  # noqa: E402
import runner  # noqa: E402
import torch  # noqa: E402
from values import encode  # noqa: E402

OUT = ROOT / "integration_tests" / "realworld" / "recorded.jsonl"


def _error(exc: BaseException) -> dict:
    """What PyTorch raised: TorchScript reports the exception a script raised as
    `torch.jit.Error` whose message ends with a `builtins.ValueError: ...` line."""
    lines = str(exc).strip().splitlines()
    row = {"error": type(exc).__name__, "message": lines[0] if lines else ""}
    for line in reversed(lines):
        if line.startswith("builtins.") and ":" in line:
            name, _, message = line.removeprefix("builtins.").partition(":")
            row.update(error=name, message=message.strip(), script_error=True)
            break
    return row


def module_state(item: dict, source) -> dict:
    """The recorded state of a module item: seeded parameters, float buffers as built."""
    eager = runner.construct(item, torch, source)
    parameters = {name for name, _ in eager.named_parameters()}
    base = zlib.crc32(item["id"].encode())
    state = {}
    for i, (name, value) in enumerate(eager.state_dict().items()):
        dtype = str(value.dtype).removeprefix("torch.")
        spec = runner.state_spec(name, list(value.shape), dtype, base + i, name in parameters)
        if spec is None and value.is_floating_point() and value.numel() > 256:
            # a large buffer (dropout masks, say): seeded rather than recorded
            spec = {
                "gen": {
                    "kind": "uniform",
                    "shape": list(value.shape),
                    "dtype": dtype,
                    "seed": base + i,
                }
            }
        if spec is not None:
            state[name] = spec
        elif value.is_floating_point():
            state[name] = encode(value)
    return state


def record_cases(fn, item: dict, source) -> list[dict]:
    rows = []
    for case in item["cases"]:
        row = dict(case)
        try:
            row["outputs"] = encode(runner.call(fn, case, torch, source))
        except Exception as exc:  # the recording says what PyTorch raised
            row.update(_error(exc))
        rows.append(row)
    return rows


def record_trace(item: dict, source, state: dict, cases: list[dict]) -> dict:
    """Trace the eager item on its first case; its results on the cases of the same form."""
    target = (
        getattr(source, item["name"])
        if item["kind"] == "function"
        else runner.eager_module(item, torch, source, state)
    )
    example, _ = runner.inputs(item["cases"][0], torch, source)
    out: dict = {}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        # as users see them: PyTorch hides the TracerWarnings its own library code gives
        torch.jit.TracerWarning.ignore_lib_warnings()
        try:
            traced = torch.jit.trace(target, tuple(example))
        except Exception as exc:
            out["trace_error"] = _error(exc)
            return out
    out["trace_warnings"] = sorted(
        {str(w.message) for w in caught if issubclass(w.category, torch.jit.TracerWarning)}
    )
    for case, row in zip(item["cases"], cases, strict=True):
        args, kwargs = runner.inputs(case, torch, source)
        if (
            kwargs
            or len(args) != len(example)
            or not all(runner.all_tensors(a, torch) for a in args)
        ):
            continue
        try:
            result = encode(traced(*args))
        except Exception as exc:
            row["traced_error"] = _error(exc)
            continue
        # most traces reproduce the scripted results: only differences are written out
        if result == row.get("outputs"):
            row["traced_same"] = True
        else:
            row["traced_outputs"] = result
    return out


def record(item: dict) -> dict:
    row = {k: v for k, v in item.items() if k != "cases"}
    row["torch"] = torch.__version__
    source = runner.load_source(item["file"], torch)
    state = module_state(item, source) if item["kind"] == "module" else {}
    if state:
        row["state"] = state
    fn = runner.build(item, torch, source, state)
    row["cases"] = record_cases(fn, item, source)
    if item["trace"]:
        row.update(record_trace(item, source, state, row["cases"]))
    return row


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--only", help="record only items whose id contains this, and print them")
    args = parser.parse_args()
    torch.manual_seed(0)
    rows, failed = [], []
    for item in items.ITEMS:
        if args.only and args.only not in item["id"]:
            continue
        try:
            rows.append(record(item))
        except Exception:  # an item PyTorch cannot script is a mistake in items.py
            failed.append(item["id"])
            print(f"{item['id']}: PyTorch fails\n{traceback.format_exc()}", file=sys.stderr)
    if args.only:
        for row in rows:
            print(json.dumps(row)[:2000])
    else:
        with open(OUT, "w", encoding="utf-8") as f:
            for row in rows:
                f.write(json.dumps(row, separators=(",", ":")) + "\n")
        cases = sum(len(r["cases"]) for r in rows)
        print(f"recorded {len(rows)} items, {cases} cases to {OUT.relative_to(ROOT)}")
    if failed:
        sys.exit(f"{len(failed)} items failed under PyTorch: {', '.join(failed)}")


if __name__ == "__main__":
    main()
