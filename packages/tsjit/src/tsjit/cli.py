"""The `tsjit` command (also `python -m tsjit`).

    tsjit demo                      the JIT's walkthrough on the LSTM cell and the IoU function
    tsjit script FILE.py:NAME       script a function or module class and show what the JIT makes of it
    tsjit viz FILE.ir|FILE.py:NAME -o out.svg
                                    a picture of a graph with its blocks and subgraphs
    tsjit opt FILE.ir -p dce,cse    run passes on IR text (the same as `ts-opt`)
    tsjit convert model.pt model.tsj
                                    a TorchScript archive rewritten as a tsjit archive
    tsjit doctor                    what is installed: packages, fusion backends, kernel caches,
                                    threads, GPU

Exit codes: 0 success, 1 a bad program, file or argument (the error is
printed as one clear message; `--debug` shows the traceback), 2 a misused
command line.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import importlib.util
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from .term import Terminal


class CommandError(Exception):
    """A problem with what the user asked for: printed as one message, exit code 1."""


# ---------------------------------------------------------------------------
# Loading FILE.py:NAME


@contextlib.contextmanager
def _torch_is_tsjit() -> Iterator[None]:
    """While a user file is imported, `import torch` gives tsjit (files written for TorchScript run as is)."""
    import tsjit

    saved = sys.modules.get("torch")
    sys.modules["torch"] = tsjit
    try:
        yield
    finally:
        if saved is None:
            sys.modules.pop("torch", None)
        else:
            sys.modules["torch"] = saved


def load_object(target: str) -> Any:
    """The object NAME defined by FILE.py, for a `FILE.py:NAME` argument."""
    path_text, sep, name = target.rpartition(":")
    if not sep or not path_text or not name:
        raise CommandError(f"expected FILE.py:NAME, got {target!r}")
    path = Path(path_text)
    if not path.is_file():
        raise CommandError(f"no such file: {path}")
    module_name = "tsjit_user_" + path.stem.replace("-", "_")
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise CommandError(f"cannot load {path} as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        with _torch_is_tsjit():
            spec.loader.exec_module(module)
    except SyntaxError as exc:
        raise CommandError(f"{path}:{exc.lineno}:{exc.offset}: invalid Python: {exc.msg}") from exc
    if not hasattr(module, name):
        defined = sorted(
            k for k, v in vars(module).items() if callable(v) and not k.startswith("_")
        )
        raise CommandError(
            f"{path} defines no {name!r}; it defines {', '.join(defined) or 'nothing callable'}"
        )
    return getattr(module, name)


def script_object(obj: Any) -> Any:
    import tsjit

    if isinstance(obj, type) and issubclass(obj, tsjit.nn.Module):
        obj = obj()
    if not callable(obj):
        raise CommandError(f"{obj!r} is neither a function nor a module class")
    return tsjit.jit.script(obj)


# ---------------------------------------------------------------------------
# --example "randn(3, 4), 2": a tiny, safe expression language


def parse_example(text: str) -> list[Any]:
    """Inputs from an expression like `randn(3, 4), rand(4), 2, 0.5, True, [1, 2]`."""
    import tsjit

    makers = {
        "randn": tsjit.randn,
        "rand": tsjit.rand,
        "zeros": tsjit.zeros,
        "ones": tsjit.ones,
        "arange": tsjit.arange,
        "tensor": tsjit.tensor,
    }
    try:
        tree = ast.parse(f"({text},)", mode="eval")
    except SyntaxError as exc:
        raise CommandError(f"--example is not a list of inputs: {text!r}") from exc

    def value(node: ast.AST) -> Any:
        if isinstance(node, ast.Constant) and isinstance(
            node.value, (int, float, bool, str, type(None))
        ):
            return node.value
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -value(node.operand)
        if isinstance(node, (ast.List, ast.Tuple)):
            items = [value(e) for e in node.elts]
            return items if isinstance(node, ast.List) else tuple(items)
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in makers
        ):
            args = [value(a) for a in node.args]
            return makers[node.func.id](*args)
        raise CommandError(
            f"--example understands numbers, lists and {', '.join(sorted(makers))}(...); not {ast.unparse(node)!r}"
        )

    assert isinstance(tree.body, ast.Tuple)
    return [value(e) for e in tree.body.elts]


# ---------------------------------------------------------------------------
# Commands


def cmd_demo(args: argparse.Namespace, term: Terminal) -> int:
    from . import demo

    return demo.run(term, out_dir=Path(args.out), repeat=args.repeat, only=args.only)


SHOW_CHOICES = ("graph", "code", "ir", "optimized", "instructions", "result")


def cmd_script(args: argparse.Namespace, term: Terminal) -> int:
    import tsjit

    shows = [s.strip() for s in args.show.split(",") if s.strip()]
    for s in shows:
        if s not in SHOW_CHOICES:
            raise CommandError(f"--show takes {', '.join(SHOW_CHOICES)}; not {s!r}")
    scripted = script_object(load_object(args.target))
    inputs = parse_example(args.example) if args.example else None
    needs_inputs = {"optimized", "instructions", "result"} & set(shows)
    if needs_inputs and inputs is None:
        raise CommandError(f"--show {', '.join(sorted(needs_inputs))} needs --example inputs")
    for s in shows:
        if s == "graph":
            term.heading("graph")
            term.block(str(scripted.graph), language="ir")
        elif s == "code":
            term.heading("code")
            term.block(scripted.code)
        elif s == "ir":
            term.heading("inlined graph")
            term.block(str(scripted.inlined_graph), language="ir")
        elif s == "optimized":
            with tsjit.no_grad():
                graph = scripted.graph_for(*inputs)  # type: ignore[misc]
            term.heading("optimized graph for the example inputs")
            term.block(str(graph), language="ir")
        elif s == "instructions":
            with tsjit.no_grad():
                code = scripted.code_for(*inputs)  # type: ignore[misc]
            term.heading("interpreter Code for the example inputs")
            term.block(str(code))
        elif s == "result":
            with tsjit.no_grad():
                out = scripted(*inputs)  # type: ignore[misc]
            term.heading("result")
            term.block(repr(out))
    return 0


def cmd_viz(args: argparse.Namespace, term: Terminal) -> int:
    from ts_ir import parse_ir

    target = args.target
    if target.endswith(".ir"):
        path = Path(target)
        if not path.is_file():
            raise CommandError(f"no such file: {path}")
        graph = parse_ir(path.read_text(), filename=str(path))
    else:
        scripted = script_object(load_object(target))
        if args.example:
            import tsjit

            with tsjit.no_grad():
                graph = scripted.graph_for(*parse_example(args.example))
        else:
            graph = scripted.graph
    out = Path(args.output)
    dot = graph.to_dot()
    if out.suffix == ".dot":
        out.write_text(dot)
    else:
        if not shutil.which("dot"):
            raise CommandError(
                f"writing {out.suffix or 'that format'} needs graphviz's `dot` program; use -o FILE.dot for the DOT text"
            )
        with tempfile.NamedTemporaryFile("w", suffix=".dot", delete=False) as f:
            f.write(dot)
        fmt = out.suffix.lstrip(".") or "svg"
        proc = subprocess.run(
            ["dot", f"-T{fmt}", f.name, "-o", str(out)], capture_output=True, text=True
        )
        if proc.returncode != 0:
            raise CommandError(f"graphviz could not write {out}: {proc.stderr.strip()}")
    term.write(f"wrote {out}")
    return 0


def cmd_convert(args: argparse.Namespace, term: Terminal) -> int:
    """Load an archive (TorchScript's `.pt`, or tsjit's own) and write it as a tsjit archive."""
    import ts_serialize

    source, target = Path(args.source), Path(args.target)
    if not source.is_file():
        raise CommandError(f"no such file: {source}")
    if target.exists() and not args.force:
        raise CommandError(f"{target} exists; pass --force to overwrite it")
    wanted: dict[str, Any] = {name: None for name in ts_serialize.extra_file_names(source)}
    program = ts_serialize.load(source, extra_files=wanted)
    ts_serialize.save(program, target, extra_files=wanted)
    kind = "module" if hasattr(program, "named_parameters") else type(program).__name__
    params = sum(p.numel() for p in program.parameters()) if kind == "module" else 0
    term.write(
        f"wrote {target} ({target.stat().st_size:,} bytes): {kind} "
        f"{getattr(getattr(program, '_type', None), 'qualified_name', '')}"
        + (f", {params:,} parameters" if params else "")
        + (f", extra files {', '.join(wanted)}" if wanted else "")
    )
    return 0


def cmd_opt(argv: Sequence[str]) -> int:
    from ts_passes.cli import main as opt_main

    return int(opt_main(list(argv), prog="tsjit opt") or 0)


def cmd_doctor(args: argparse.Namespace, term: Terminal) -> int:
    from . import doctor

    return doctor.run(term)


# ---------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tsjit",
        description="TorchScript's JIT rebuilt in Python: script, optimize, fuse and run array programs.",
        epilog="`tsjit COMMAND --help` explains each command.",
    )
    parser.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour output (default: auto)",
    )
    parser.add_argument("--debug", action="store_true", help="show the traceback of an error")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("demo", help="the JIT's walkthrough on the LSTM cell, the IoU function and ResNet-18",
                       description="Script, optimize, fuse and run the overview's LSTM cell and IoU function, "
                       "checking results against numpy and timing them; then a ResNet-18 of tsjit.nn "
                       "layers, checked against eager and timed.")  # fmt: skip
    p.add_argument(
        "--out",
        default="tsjit-demo",
        help="directory for the graph pictures (default: ./tsjit-demo)",
    )
    p.add_argument("--repeat", type=int, default=10, help="timing runs per variant (default: 10)")
    p.add_argument(
        "--only", choices=("lstm_cell", "ratio_iou", "resnet18"), help="run one of the examples"
    )

    p = sub.add_parser("script", help="script a function or module class from a file and show the result",
                       description="Script NAME from FILE.py (a function, or an nn.Module class built with no "
                       "arguments) and show what the JIT makes of it. In the file, `import torch` gives tsjit.")  # fmt: skip
    p.add_argument("target", metavar="FILE.py:NAME")
    p.add_argument("--example", help='example inputs, e.g. "randn(3, 4), randn(3, 4), 2"')
    p.add_argument(
        "--show",
        default="graph",
        help=f"comma-separated: {', '.join(SHOW_CHOICES)} (default: graph)",
    )

    p = sub.add_parser("viz", help="draw a graph with its blocks and subgraphs",
                       description="Write a picture of the graph in FILE.ir, or of NAME scripted from FILE.py "
                       "(optimized for --example inputs if given). .dot needs nothing; other formats need graphviz.")  # fmt: skip
    p.add_argument("target", metavar="FILE.ir|FILE.py:NAME")
    p.add_argument("-o", "--output", required=True, help="output file: .svg, .png, .pdf or .dot")
    p.add_argument("--example", help="optimize for these inputs first (see `tsjit script --help`)")

    p = sub.add_parser("convert", help="rewrite a TorchScript .pt archive as a tsjit archive",
                       description="Load SOURCE (a TorchScript archive written by torch.jit.save, or a tsjit "
                       "archive) without running any of its code or pickles, and write it as a tsjit "
                       "archive (docs/serialization.md), extra files included.")  # fmt: skip
    p.add_argument("source", metavar="model.pt")
    p.add_argument("target", metavar="model.tsj")
    p.add_argument("--force", action="store_true", help="overwrite TARGET if it exists")

    sub.add_parser(
        "opt", help="run optimization passes on IR text (same as `ts-opt`)", add_help=False
    )

    sub.add_parser("doctor", help="what is installed: packages, fusion backends, kernel caches, threads, GPU",
                   description="Print the installed tsjit packages and libraries with their versions, the fusion "
                   "backends, the kernel caches on disk and their sizes, threads, and whether a GPU can be used.")  # fmt: skip
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    # `opt` hands its whole command line to ts-opt, help included
    leading = [a for a in argv if a.startswith("--")]
    rest = argv[len(leading) :] if argv[: len(leading)] == leading else argv
    if rest[:1] == ["opt"]:
        return cmd_opt(rest[1:])
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    term = Terminal(color=args.color)
    handler = {
        "demo": cmd_demo,
        "script": cmd_script,
        "viz": cmd_viz,
        "doctor": cmd_doctor,
        "convert": cmd_convert,
    }[args.command]
    try:
        return handler(args, term)
    except (CommandError, OSError) as exc:
        return _fail(args, exc)
    except Exception as exc:
        from ts_ir import TorchScriptError

        if isinstance(exc, TorchScriptError):
            return _fail(args, exc)
        raise


def _fail(args: argparse.Namespace, exc: BaseException) -> int:
    if args.debug:
        import traceback

        traceback.print_exception(exc)
    err = Terminal(sys.stderr, color=args.color)
    err.write(err.style(f"tsjit {args.command}: error: ", "red", "bold") + str(exc))
    return 1


if __name__ == "__main__":
    sys.exit(main())
