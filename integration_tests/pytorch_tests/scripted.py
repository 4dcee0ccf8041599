"""Cases that script a program, run passes on its graph, check the graph and run it.

PyTorch's pass tests (test/jit/test_peephole.py, test_remove_mutation.py, ...) each
script a function, run one or more passes on its graph, check the graph's text with
FileCheck and compare the function's results. A `Case` holds one such program and its
steps, as data; `play` runs the steps in one *world*: tsjit here (`TsjitWorld`), or
PyTorch 2.13 in `record.py`, which writes what each step gave to `recorded/`.

Steps, in order:

- `("pass", name)`: run a pass on the graph (`("pass", name, {"option": value})` with
  options, as in `_jit_pass_peephole_list_idioms(graph, refine_list_len=True)`);
- `("check", statement)`: a FileCheck statement over `graph` (the graph's text);
- `("rank", i, n)`: give input `i` a tensor type of rank `n` with unknown sizes;
- `("call", args)`: call the program (its graph as it stands now, not optimized again)
  on the arguments that the Python expression `args` makes (a tuple; `torch` names the
  world's tensor library); the result, or the error's type, is compared with PyTorch's;
- `("shape", args)`: the same, comparing only the shapes and dtypes (random results);
- `("constant_tuple",)`: which inputs of the graph's first `prim::TupleConstruct` are
  constants;
- `("inputs_of", kind)`: the values of the inputs of the graph's first node of `kind`
  (searching nested blocks too), `"<not constant>"` for an input that is no constant;
- `("control_flow",)`: the graph's `prim::If` and `prim::Loop` nodes as a tree: for each,
  its kind, its number of outputs and, per block, the sorted kinds of the other nodes
  in it that are not constants, and the control flow nested in it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

Step = tuple


@dataclass(frozen=True)
class Case:
    name: str
    #: TorchScript source defining `entry` (and any function it calls)
    source: str
    entry: str
    steps: tuple[Step, ...]
    #: the PyTorch test it comes from
    origin: str = ""
    #: trace the Python function on these arguments (an expression) instead of scripting it
    trace: str | None = None
    #: take the graph from this IR text instead (`source` and `entry` unused; no calls)
    ir: str | None = None


def plain(value: Any, *, shape_only: bool = False) -> Any:
    """A result as JSON-able data, the same for tsjit's and PyTorch's values."""
    if hasattr(value, "tolist") and hasattr(value, "dtype"):
        dtype = str(value.dtype).rsplit(".", 1)[-1]
        if shape_only:
            return {"tensor_shape": list(value.shape), "dtype": dtype}
        return {"tensor": value.tolist(), "dtype": dtype}
    if isinstance(value, tuple):
        return {"tuple": [plain(v, shape_only=shape_only) for v in value]}
    if isinstance(value, list):
        return [plain(v, shape_only=shape_only) for v in value]
    if isinstance(value, dict):
        return {"dict": [[plain(k), plain(v, shape_only=shape_only)] for k, v in value.items()]}
    if isinstance(value, float) and value != value:
        return {"float": "nan"}
    return value


class World:
    """What a step needs from a JIT: compile, passes, FileCheck, calls."""

    torch: Any

    def compile(self, source: str, entry: str) -> Any:
        raise NotImplementedError

    def graph(self, fn: Any) -> Any:
        return fn.graph

    def parse_ir(self, text: str) -> Any:
        raise NotImplementedError

    def run_pass(self, graph: Any, name: str, options: dict[str, Any]) -> None:
        raise NotImplementedError

    def filecheck(self, statement: str, graph: Any) -> None:
        raise NotImplementedError

    def set_rank(self, graph: Any, index: int, rank: int) -> None:
        raise NotImplementedError

    def call(self, fn: Any, args: tuple) -> Any:
        raise NotImplementedError

    def constant_inputs(self, node: Any) -> list[bool]:
        raise NotImplementedError

    def find_node(self, graph: Any, kind: str, *, recurse: bool = False) -> Any:
        raise NotImplementedError

    def input_values(self, node: Any) -> list[Any]:
        """Each input's constant value, or NOT_CONSTANT."""
        raise NotImplementedError

    # the graph's structure: nodes of a graph or a block, a node's kind, blocks, outputs
    def block_nodes(self, graph_or_block: Any) -> list[Any]:
        raise NotImplementedError

    def kind(self, node: Any) -> str:
        raise NotImplementedError

    def blocks(self, node: Any) -> list[Any]:
        raise NotImplementedError

    def num_outputs(self, node: Any) -> int:
        raise NotImplementedError


def play(case: Case, world: World) -> list[Any]:
    """Run the case's steps; what each gave (None for a pass; for a check, None or the
    error's first line; for a call, the result or `{"error": type name}`).

    An error in compiling or in a pass propagates: the case fails there.
    """
    if case.ir is not None:
        fn = None
        graph = world.parse_ir(case.ir)
    elif case.trace is not None:
        namespace: dict[str, Any] = {"torch": world.torch, "__name__": "harvested"}
        exec(case.source, namespace)
        fn = world.torch.jit.trace(namespace[case.entry], eval(case.trace, namespace))
    else:
        fn = world.compile(case.source, case.entry)
    if fn is not None:
        graph = world.graph(fn)
    results: list[Any] = []
    for step in case.steps:
        what = step[0]
        if what == "pass":
            world.run_pass(graph, step[1], step[2] if len(step) > 2 else {})
            results.append(None)
        elif what == "check":
            try:
                world.filecheck(step[1], graph)
            except Exception as exc:
                results.append(_first_line(exc))
            else:
                results.append(None)
        elif what == "rank":
            world.set_rank(graph, step[1], step[2])
            results.append(None)
        elif what in ("call", "shape"):
            args = eval(step[1], {"torch": world.torch})
            try:
                out = world.call(fn, args)
            except Exception as exc:
                results.append({"error": type(exc).__name__})
            else:
                results.append(plain(out, shape_only=what == "shape"))
        elif what == "constant_tuple":
            results.append(world.constant_inputs(world.find_node(graph, "prim::TupleConstruct")))
        elif what == "inputs_of":
            values = world.input_values(world.find_node(graph, step[1], recurse=True))
            results.append([v if _is_not_constant(v) else plain(v) for v in values])
        elif what == "control_flow":
            results.append(_control_flow(world, world.block_nodes(graph)))
        else:
            raise ValueError(f"{case.name}: unknown step {step!r}")
    return results


NOT_CONSTANT = "<not constant>"


def _is_not_constant(value: Any) -> bool:
    return isinstance(value, str) and value == NOT_CONSTANT


_CONTROL = ("prim::If", "prim::Loop")


def _control_flow(world: World, nodes: list[Any]) -> list[Any]:
    tree = []
    for node in nodes:
        kind = world.kind(node)
        if kind not in _CONTROL:
            continue
        blocks = []
        for block in world.blocks(node):
            inner = world.block_nodes(block)
            ops = sorted(
                k for k in map(world.kind, inner) if k not in _CONTROL and k != "prim::Constant"
            )
            blocks.append({"ops": ops, "nested": _control_flow(world, inner)})
        tree.append([kind, world.num_outputs(node), blocks])
    return tree


def _first_line(exc: BaseException) -> str:
    lines = [line for line in str(exc).splitlines() if line.strip()]
    return lines[0] if lines else type(exc).__name__


class TsjitWorld(World):
    def __init__(self) -> None:
        import tsjit

        self.torch = tsjit

    def compile(self, source: str, entry: str) -> Any:
        return getattr(self.torch.jit.CompilationUnit(source), entry)

    def parse_ir(self, text: str) -> Any:
        import ts_ir

        return ts_ir.parse_ir(text)

    def run_pass(self, graph: Any, name: str, options: dict[str, Any]) -> None:
        import ts_passes

        if options:
            ts_passes.get_pass(name).fn(graph, **options)
        else:
            ts_passes.run_pass(graph, name)
        graph.lint()

    def filecheck(self, statement: str, graph: Any) -> None:
        from ts_ir import FileCheck

        exec(statement, {"FileCheck": FileCheck, "graph": str(graph)})

    def set_rank(self, graph: Any, index: int, rank: int) -> None:
        v = graph.inputs[index]
        v.set_type(v.type.with_rank(rank))

    def call(self, fn: Any, args: tuple) -> Any:
        import ts_runtime

        # the graph as the passes left it, run as it stands
        runner = ts_runtime.Function(
            fn.name,
            fn.graph.copy(),
            schema=fn.schema,
            compilation_unit=getattr(fn, "compilation_unit", None),  # the functions it calls
            optimize=False,
        )
        return runner(*args)

    def constant_inputs(self, node: Any) -> list[bool]:
        return [v.node.kind == "prim::Constant" for v in node.inputs]

    def find_node(self, graph: Any, kind: str, *, recurse: bool = False) -> Any:
        for node in graph.all_nodes() if recurse else graph.nodes():
            if node.kind == kind:
                return node
        raise LookupError(f"no {kind} in the graph")

    def input_values(self, node: Any) -> list[Any]:
        import ts_ir

        values = []
        for v in node.inputs:
            c = ts_ir.maybe_constant(v)
            values.append(NOT_CONSTANT if c is ts_ir.NOT_CONSTANT else _runtime_constant(c))
        return values

    def block_nodes(self, graph_or_block: Any) -> list[Any]:
        block = getattr(graph_or_block, "block", graph_or_block)
        return list(block.nodes())

    def kind(self, node: Any) -> str:
        return str(node.kind)

    def blocks(self, node: Any) -> list[Any]:
        return list(node.blocks)

    def num_outputs(self, node: Any) -> int:
        return len(node.outputs)


def _runtime_constant(value: Any) -> Any:
    """A constant's value as the runtime holds it (a tensor literal as a tensor)."""
    from ts_ir import TensorLiteral

    if isinstance(value, TensorLiteral):
        from ts_runtime.interpreter.code import _materialize

        return _materialize(value)
    return value


def assert_like_pytorch(case: Case, pytorch: dict[str, Any]) -> None:
    """tsjit plays the case as PyTorch 2.13 did: each check passes or fails as it did
    there, each call gives the same result (tensors to 1e-5) or an error where it raised."""
    assert "error" not in pytorch, f"PyTorch 2.13 could not play the case: {pytorch['error']}"
    got = play(case, TsjitWorld())
    for step, ours, theirs in zip(case.steps, got, pytorch["steps"], strict=True):
        if step[0] == "check":
            assert (ours is None) == (theirs is None), (
                f"{step[1]}: PyTorch 2.13 gave {theirs or 'a pass'}, tsjit {ours or 'a pass'}"
            )
        elif step[0] in ("call", "shape"):
            assert _same(ours, theirs), f"call {step[1]}: PyTorch 2.13 gave {theirs}, tsjit {ours}"
        else:
            assert ours == theirs, f"{step}: PyTorch 2.13 gave {theirs}, tsjit {ours}"


def _same(ours: Any, theirs: Any) -> bool:
    if isinstance(theirs, dict) and "error" in theirs:
        return isinstance(ours, dict) and "error" in ours
    if isinstance(theirs, dict) and "tensor" in theirs:
        import numpy as np

        if not (isinstance(ours, dict) and ours.get("dtype") == theirs["dtype"]):
            return False
        a, b = np.asarray(ours["tensor"]), np.asarray(theirs["tensor"])
        return a.shape == b.shape and bool(np.allclose(a, b, rtol=1e-5, atol=1e-6, equal_nan=True))
    if isinstance(theirs, dict) and isinstance(ours, dict):
        return ours.keys() == theirs.keys() and all(_same(ours[k], theirs[k]) for k in theirs)
    if isinstance(theirs, list) and isinstance(ours, list):
        return len(ours) == len(theirs) and all(map(_same, ours, theirs))
    if isinstance(theirs, float) or isinstance(ours, float):
        return type(ours) is type(theirs) and abs(ours - theirs) <= 1e-6 * max(1.0, abs(theirs))
    return type(ours) is type(theirs) and ours == theirs
