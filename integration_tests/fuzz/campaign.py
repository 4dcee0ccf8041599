"""Differential fuzzing campaigns: generate programs, run them under tsjit and PyTorch, compare.

    python integration_tests/fuzz/campaign.py --count 10000             # seeds 0..9999
    python integration_tests/fuzz/campaign.py --start 20000 --count 500 --minimize
    python integration_tests/fuzz/campaign.py --seed 1234 --show        # one program, both runs
    python integration_tests/fuzz/campaign.py --record recorded/pytorch-seeds.jsonl --count 500
    python integration_tests/fuzz/campaign.py --record-regressions

Prints the figures (generated, compared, disagreeing, by kind; apart, the
programs where PyTorch's scripted calls differ from Python and tsjit's match
Python, and those both frameworks refuse to compile where Python runs them)
and writes each disagreement and each of those (seed, problems or notes, and
with `--minimize` the shrunk source) to `--report` as JSON lines. `--record`
writes PyTorch's outcomes instead, for the fixed seed range the default test
session checks without PyTorch.
Programs run in worker processes (`--jobs`), so that a crash of either
framework costs one program, which is counted.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import fuzz_gen  # noqa: E402
import fuzz_minimize  # noqa: E402
import fuzz_run  # noqa: E402

#: seconds one program may take under both frameworks before it counts as hung
PROGRAM_TIMEOUT = 120
#: outcomes that agree with the oracle but are counted apart (see `fuzz_run.compare`)
SEPARATE = ("pytorch differs", "both refuse")


def check_seed(seed: int) -> dict:
    """Run one seed both ways; the comparison as a JSON-able dict."""
    program = fuzz_gen.generate(seed)
    out: dict = {"seed": seed}
    try:
        # PyTorch's other executors are asked only where its default one disagrees
        torch_run = fuzz_run.run_torch(program, all_executors=False)
    except fuzz_run.Hang:
        return {**out, "status": "torch hung"}
    except SyntaxError as exc:  # the generator's fault, not a finding: counted, not fatal
        return {**out, "status": "invalid program", "problems": [repr(exc)]}
    out["torch_compiles"] = "compile_error" not in torch_run["scripted"]
    try:
        tsjit_run = fuzz_run.run_tsjit(program)
    except fuzz_run.Hang:
        return {**out, "status": "disagree", "problems": ["tsjit hung"]}
    except Exception as exc:  # a crash of the harness or the framework outside a call
        return {**out, "status": "disagree", "problems": [f"tsjit crashed: {exc!r}"]}
    comparable = out["torch_compiles"] or program.extensions
    notes: list[str] = []
    problems = fuzz_run.compare(tsjit_run, torch_run, extensions=program.extensions, notes=notes)
    if (problems or notes) and out["torch_compiles"]:
        try:
            fuzz_run.add_other_executors(program, torch_run)
        except fuzz_run.Hang:
            return {**out, "status": "torch hung"}
        notes = []
        problems = fuzz_run.compare(
            tsjit_run, torch_run, extensions=program.extensions, notes=notes
        )
    if not comparable:
        out["tsjit_compiles"] = "compile_error" not in tsjit_run["scripted"]
    if problems:
        out["status"] = "disagree"
    elif notes:
        # agreement with the oracle, counted apart: PyTorch's own difference from Python,
        # or a program both refuse where Python runs it
        out["status"] = notes[0].split(": ", 1)[0]
    else:
        out["status"] = "compared" if comparable else "eager only"
    out["problems"] = problems
    out["notes"] = notes
    return out


def record_seed(seed: int) -> dict:
    program = fuzz_gen.generate(seed)
    return {"seed": seed, **fuzz_run.compact(fuzz_run.run_torch(program))}


def record_regressions(path: Path) -> int:
    import regressions

    with open(path, "w", encoding="utf-8") as f:
        for r in regressions.REGRESSIONS:
            program = fuzz_gen.program_from_source(r.source, r.seed, rank=r.rank)
            row = {"name": r.name, **fuzz_run.compact(fuzz_run.run_torch(program))}
            f.write(json.dumps(row, sort_keys=True) + "\n")
    print(f"recorded PyTorch's outcomes of {len(regressions.REGRESSIONS)} regressions in {path}")
    return 0


def still_fails_for(program: fuzz_gen.Program, wanted: tuple[str, ...]):
    def still_fails(source: str) -> bool:
        candidate = fuzz_gen.Program(
            program.seed, source, program.params, program.rank, program.extensions
        )
        try:
            torch_run = fuzz_run.run_torch(candidate)
            if "compile_error" in torch_run["scripted"] and not program.extensions:
                return False
            tsjit_run = fuzz_run.run_tsjit(candidate)
        except Exception:
            return False
        problems = fuzz_run.compare(tsjit_run, torch_run, extensions=program.extensions)
        return fuzz_run.signature(problems) == wanted

    return still_fails


def minimize_seed(seed: int, problems: list[str]) -> str:
    program = fuzz_gen.generate(seed)
    wanted = fuzz_run.signature(problems)
    return fuzz_minimize.minimize(program.source, still_fails_for(program, wanted))


def _run_all(fn, seeds: list[int], jobs: int):
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(jobs, maxtasksperchild=200) as pool:
        pending = {seed: pool.apply_async(fn, (seed,)) for seed in seeds}
        for seed, res in pending.items():
            try:
                yield res.get(timeout=PROGRAM_TIMEOUT)
            except multiprocessing.TimeoutError:
                yield {"seed": seed, "status": "crashed or hung"}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--start", type=int, default=0)
    p.add_argument("--count", type=int, default=1000)
    p.add_argument("--seed", type=int, help="one seed (with --show: print the program and runs)")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--minimize", action="store_true", help="shrink each disagreeing program")
    p.add_argument("--show", action="store_true")
    p.add_argument("--report", default="fuzz-report.jsonl")
    p.add_argument("--record", help="write PyTorch's outcomes of the seeds to this file")
    p.add_argument(
        "--record-regressions",
        action="store_true",
        help="write PyTorch's outcomes of regressions.py to recorded/regressions.jsonl",
    )
    args = p.parse_args(argv)
    if args.record_regressions:
        return record_regressions(HERE / "recorded" / "regressions.jsonl")
    seeds = (
        [args.seed] if args.seed is not None else list(range(args.start, args.start + args.count))
    )
    if args.show:
        for seed in seeds:
            program = fuzz_gen.generate(seed)
            print(program.source)
            print(json.dumps(check_seed(seed), indent=1))
        return 0
    if args.record:
        rows = sorted(_run_all(record_seed, seeds, args.jobs), key=lambda r: r["seed"])
        with open(args.record, "w", encoding="utf-8") as f:
            for row in rows:
                f.write(json.dumps(row, sort_keys=True) + "\n")
        print(f"recorded PyTorch's outcomes of {len(rows)} programs in {args.record}")
        return 0
    started = time.perf_counter()
    counts: Counter = Counter()
    kinds: Counter = Counter()
    disagreements = []
    others = []
    for row in _run_all(check_seed, seeds, args.jobs):
        counts["generated"] += 1
        counts[row["status"]] += 1
        if row["status"] == "disagree":
            kinds[fuzz_run.signature(row["problems"])] += 1
            disagreements.append(row)
            print(f"seed {row['seed']}: {row['problems'][0][:200]!r}", flush=True)
        elif row["status"] in ("crashed or hung", "torch hung"):
            others.append(row)
            print(f"seed {row['seed']}: {row['status']}", flush=True)
        elif row["status"] in SEPARATE:
            others.append(row)
            print(f"seed {row['seed']} ({row['status']}): {row['notes'][0][:200]!r}", flush=True)
    if args.minimize:
        for row in disagreements:
            row["minimized"] = minimize_seed(row["seed"], row["problems"])
            print(f"--- seed {row['seed']} minimized:\n{row['minimized']}", flush=True)
    with open(args.report, "w", encoding="utf-8") as f:
        for row in sorted(disagreements + others, key=lambda r: r["seed"]):
            f.write(json.dumps(row) + "\n")
    compared = counts["compared"] + counts["disagree"] + sum(counts[s] for s in SEPARATE)
    print(
        f"\nseeds {seeds[0]}..{seeds[-1]}: generated {counts['generated']}, "
        f"compared {compared}, disagreeing {counts['disagree']}, "
        f"PyTorch differs from Python (tsjit matches Python) {counts['pytorch differs']}, "
        f"both refuse where Python runs {counts['both refuse']}, "
        f"eager only (PyTorch refused to script) {counts['eager only']}, "
        f"crashed or hung {counts['crashed or hung'] + counts['torch hung']}, "
        f"invalid programs generated {counts['invalid program']}; "
        f"{time.perf_counter() - started:.0f} s"
    )
    for kind, n in kinds.most_common():
        print(f"  {n:6d}  {' / '.join(kind)}")
    return 1 if counts["disagree"] else 0


if __name__ == "__main__":
    sys.exit(main())
