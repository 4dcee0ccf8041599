"""`ts-opt`: run passes on IR text.

    ts-opt model.ir -p constant-propagation,dce,cse     print the optimized graph
    ts-opt -p peephole < model.ir                        read standard input
    ts-opt --list                                        the passes it knows
    ts-opt cases.ir --split-input-file -p dce            each graph of a multi-case file
    ts-opt model.ir -p cse,dce --verify-each             lint after every pass

A file that does not parse, or an unknown pass, prints one line of error
(`ts-opt: error: ...`) and exits with status 1. `tsjit opt` is the same
command under the name `prog` it is given.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ts_ir import CASE_MARKER, TestCase, TorchScriptError, parse_ir, split_cases

from .pass_manager import get_pass, passes, run_pass


def _parser(prog: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=prog, description="Run tsjit passes on TorchScript IR text and print the result."
    )
    p.add_argument("file", nargs="?", help="IR file to read (default: standard input)")
    p.add_argument(
        "-p",
        "--passes",
        action="append",
        default=[],
        help="comma-separated pass names, run in order (may repeat)",
    )
    p.add_argument("--list", action="store_true", help="list the passes and exit")
    p.add_argument(
        "--verify-each",
        action="store_true",
        help="lint the graph after every pass; a malformed one names the pass that broke it",
    )
    p.add_argument(
        "--split-input-file",
        action="store_true",
        help=f"the file holds several graphs separated by '{CASE_MARKER}' lines: run the passes "
        "on each and print the results separated the same way",
    )
    p.add_argument(
        "--no-source-locations",
        action="store_true",
        help="print without '# file:line:col' comments",
    )
    return p


def main(argv: Sequence[str] | None = None, *, prog: str = "ts-opt") -> int:
    def _error(message: str) -> int:
        first = message.strip().splitlines()[0] if message.strip() else "unknown error"
        print(f"{prog}: error: {first}", file=sys.stderr)
        return 1

    args = _parser(prog).parse_args(argv)
    if args.list:
        for info in passes():
            aliases = f" (also: {', '.join(info.aliases)})" if info.aliases else ""
            print(f"{info.name}{aliases}: {info.description}")
        return 0
    names = [n for group in args.passes for n in group.split(",") if n.strip()]
    try:
        infos = [get_pass(n) for n in names]
    except TorchScriptError as exc:
        return _error(str(exc))
    try:
        if args.file is None or args.file == "-":
            text = sys.stdin.read()
            filename = "<stdin>"
        else:
            with open(args.file, encoding="utf-8") as f:
                text = f.read()
            filename = args.file
    except OSError as exc:
        return _error(f"cannot read {args.file}: {exc.strerror}")
    chunks = split_cases(text) if args.split_input_file else [TestCase(text, 1)]
    outputs = []
    for case in chunks:
        try:
            graph = parse_ir(case.text, filename=filename)
            graph.lint()
        except TorchScriptError as exc:
            return _error(f"{filename}:{case.line}: {_one_line(str(exc))}")
        try:
            for info in infos:
                run_pass(graph, info.name, verify=args.verify_each)
        except TorchScriptError as exc:
            return _error(_one_line(str(exc)))
        outputs.append(graph.to_string(source_locations=not args.no_source_locations))
    sys.stdout.write(f"{CASE_MARKER}\n".join(outputs))
    return 0


def _one_line(message: str) -> str:
    lines = [line for line in message.splitlines() if line.strip()]
    return " ".join(line.strip() for line in lines[:1]) if lines else message


if __name__ == "__main__":
    sys.exit(main())
