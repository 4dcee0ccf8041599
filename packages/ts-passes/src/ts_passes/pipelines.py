"""The pipelines the graph executor runs, as PyTorch's legacy `GraphExecutor` does.

`optimize_for_execution(graph, requires_grad=..., grad_enabled=...)` gets a
copy of a function's graph whose tensor inputs already carry specialized
types (dtype, device, rank, requires_grad) and optimizes it in place:

1. `REQUIRED_PASSES`: inlining of known calls (and tuple unpacks of
   constructed tuples, which later passes rely on);
2. constant propagation, constant pooling, shape/dtype propagation;
3. `DERIVATIVE_PRESERVING_PASSES`: peephole, DCE, CSE, loop unrolling
   (then constant propagation again, as the unrolled bodies expose
   constants), batch mm, remove mutation where alias analysis allows;
4. `INFERENCE_PASSES` only when no input requires grad: `fuse_graph` (when a
   fusion backend is registered; with `fuse` asked for and none installed,
   the first such plan logs it, see `report_missing_backend`), then DCE.

Each list names passes of the pass manager, so `ts-opt -p` can replay any
step. Nothing here changes results. Each pass names itself as the stage of
the progress line a long compilation shows on a terminal (`progress`).
"""

from __future__ import annotations

from ts_ir import Graph, cyclic_gc_paused

from . import progress
from .fusion_backend import fusion_backends, report_missing_backend
from .jit_log import PassLogger
from .pass_manager import run_pass

log = PassLogger(__name__)

REQUIRED_PASSES: tuple[str, ...] = ("inline", "lower_simple_tuples")
SPECIALIZATION_PASSES: tuple[str, ...] = (
    "constant_propagation",
    "constant_pooling",
    "propagate_shapes",
)
DERIVATIVE_PRESERVING_PASSES: tuple[str, ...] = (
    "peephole",
    "dead_code_elimination",
    "common_subexpression_elimination",
    "loop_unrolling",
    "constant_propagation",
    "batch_mm",
    "remove_mutation",
    "propagate_shapes",
    "peephole",
    "dead_code_elimination",
    "common_subexpression_elimination",
)
INFERENCE_PASSES: tuple[str, ...] = ("fuse_graph", "dead_code_elimination")


def execution_pipeline(*, requires_grad: bool) -> list[str]:
    """The pass names `optimize_for_execution` runs, in order."""
    names = [*REQUIRED_PASSES, *SPECIALIZATION_PASSES, *DERIVATIVE_PRESERVING_PASSES]
    if not requires_grad:
        names.extend(INFERENCE_PASSES)
    return names


def optimize_for_execution(
    graph: Graph, *, requires_grad: bool, grad_enabled: bool, fuse: bool = True
) -> None:
    """Optimize a specialized copy of a graph for running (see the module docstring);
    `fuse=False` leaves out `fuse_graph` (the runtime's fuser switch)."""
    log.dump(
        lambda: (
            f"optimizing for execution (requires_grad={requires_grad}, grad_enabled={grad_enabled})"
        ),
        graph,
    )
    with cyclic_gc_paused():
        for name in execution_pipeline(requires_grad=requires_grad):
            if name == "fuse_graph":
                if not fuse:
                    continue
                if not fusion_backends():
                    report_missing_backend(graph)
                    continue
            progress.stage(name)
            run_pass(graph, name)
    log.dump("optimized for execution", graph)
