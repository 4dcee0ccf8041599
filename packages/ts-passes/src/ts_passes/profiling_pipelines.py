"""The pipelines of the profiling executor, as PyTorch's `profiling_graph_executor_impl.cpp`.

Before profiling, `prepare_for_profiling(graph)` runs the passes that need
no tensor types (`PROFILING_INSENSITIVE_PASSES`: inlining, tuple lowering,
constant propagation and pooling, peephole, DCE, CSE, loop unrolling, batch
mm, remove mutation) and then `insert_profile_nodes`. The runtime runs that
graph a few times, recording a merged type at each `prim::profile`.

`optimize_profiled_graph(graph, requires_grad=..., fuse=...)` then turns a
copy of the profiled graph into the optimized one:

1. `GUARD_PASSES`: `insert_guards` (profiles become `prim::Guard`s of the
   recorded types), `eliminate_redundant_guards` (guards move to the
   definitions, merge, and go where shape propagation derives their types),
   `insert_bailout_nodes` (each guard becomes a `prim::BailOut` that resumes
   in a deoptimized graph built from the `prim::BailoutTemplate`);
2. `FUSION_PASSES`, only when nothing needs a gradient and fusion is on:
   `fuse_graph`, then `insert_type_checks` (each group behind a
   `prim::TypeCheck`, a `prim::If` and a `prim::FallbackGraph`; bailouts that
   only fed groups move into the checks), DCE;
3. `SPECIALIZED_PASSES`: peephole, constant propagation, DCE and CSE, which
   now see the checked types.

The template is taken before fusion and before any pass that uses the
profiled types, so a bailout graph never depends on what a guard claimed.
Each name is a pass of the pass manager: `ts-opt -p` replays any step.
"""

from __future__ import annotations

from ts_ir import Graph, cyclic_gc_paused

from . import progress
from .fusion_backend import fusion_backends, report_missing_backend
from .jit_log import PassLogger
from .pass_manager import run_pass

log = PassLogger(__name__)

PROFILING_INSENSITIVE_PASSES: tuple[str, ...] = (
    "inline",
    "lower_simple_tuples",
    "constant_propagation",
    "constant_pooling",
    "peephole",
    "dead_code_elimination",
    "common_subexpression_elimination",
    "loop_unrolling",
    "constant_propagation",
    "batch_mm",
    "remove_mutation",
    "peephole",
    "dead_code_elimination",
    "common_subexpression_elimination",
)
GUARD_PASSES: tuple[str, ...] = (
    "insert_guards",
    "eliminate_redundant_guards",
    "insert_bailout_nodes",
)
FUSION_PASSES: tuple[str, ...] = ("fuse_graph", "insert_type_checks", "dead_code_elimination")
SPECIALIZED_PASSES: tuple[str, ...] = (
    "peephole",
    "constant_propagation",
    "dead_code_elimination",
    "common_subexpression_elimination",
)


def profiling_pipeline(*, requires_grad: bool) -> list[str]:
    """The pass names `optimize_profiled_graph` runs, in order."""
    names = list(GUARD_PASSES)
    if not requires_grad:
        names.extend(FUSION_PASSES)
    names.extend(SPECIALIZED_PASSES)
    return names


def _run(graph: Graph, names: list[str] | tuple[str, ...], *, fuse: bool = True) -> None:
    for name in names:
        if name == "fuse_graph":
            if not fuse:
                continue
            if not fusion_backends():
                report_missing_backend(graph)
                continue
        progress.stage(name)
        run_pass(graph, name)


def prepare_for_profiling(graph: Graph) -> None:
    """Optimize what needs no types, then instrument (see the module docstring); in place."""
    with cyclic_gc_paused():
        _run(graph, PROFILING_INSENSITIVE_PASSES)
        progress.stage("insert_profile_nodes")
        run_pass(graph, "insert_profile_nodes")
    log.dump("prepared for profiling", graph)


def optimize_profiled_graph(graph: Graph, *, requires_grad: bool, fuse: bool = True) -> None:
    """Guards, bailouts, fusion behind type checks, and the passes that use the checked types
    (see the module docstring); in place, on a copy of a profiled graph."""
    log.dump(lambda: f"optimizing a profiled graph (requires_grad={requires_grad})", graph)
    with cyclic_gc_paused():
        _run(graph, profiling_pipeline(requires_grad=requires_grad), fuse=fuse)
    log.dump("optimized from profiles", graph)
