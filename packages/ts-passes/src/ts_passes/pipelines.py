"""The pipelines the graph executor runs, as PyTorch's legacy `GraphExecutor` does.

`optimize_for_execution(graph, requires_grad=..., grad_enabled=...)` gets a
copy of a function's graph whose tensor inputs already carry specialized
types (dtype, device, rank, requires_grad) and optimizes it in place:

1. `REQUIRED_PASSES`: inlining of known calls (and tuple unpacks of
   constructed tuples, which later passes rely on);
2. constant propagation, gradients that are None folded away
   (`specialize_autograd_zero`, for backward graphs), constant pooling,
   shape/dtype propagation;
3. `DERIVATIVE_PRESERVING_PASSES`: peephole, DCE, CSE, loop unrolling
   (then constant propagation again, as the unrolled bodies expose
   constants), batch mm, remove mutation where alias analysis allows;
4. `INFERENCE_PASSES` only when no input requires grad: `fuse_graph` (when a
   fusion backend is registered; with `fuse` asked for and none installed,
   the first such plan logs it, see `report_missing_backend`), then DCE.
   When a gradient is needed, `AUTODIFF_PASSES` instead: chunks become
   `prim::ConstantChunk`, nodes with symbolic gradients are grouped into
   `prim::DifferentiableGraph`s and each is split into a forward graph `f`
   and a backward graph `df`; `f` then gets `FORWARD_GRAPH_PASSES` (fusion
   included), as the inference pipeline would give it. `df` is optimized
   when it first runs, by its own executor, for the gradients it gets.

Each list names passes of the pass manager, so `ts-opt -p` can replay any
step. Nothing here changes results. Each pass names itself as the stage of
the progress line a long compilation shows on a terminal (`progress`).
"""

from __future__ import annotations

from ts_ir import Graph, cyclic_gc_paused, prim

from . import progress
from .fusion_backend import fusion_backends, report_missing_backend
from .jit_log import PassLogger
from .pass_manager import run_pass

log = PassLogger(__name__)

REQUIRED_PASSES: tuple[str, ...] = ("inline", "lower_simple_tuples")
SPECIALIZATION_PASSES: tuple[str, ...] = (
    "constant_propagation",
    "specialize_autograd_zero",
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
#: For backward graphs (`backward=True`), after specialization: rewrites that change only
#: the strides of results, which no one observes of a gradient.
BACKWARD_PASSES: tuple[str, ...] = ("transpose_products",)
AUTODIFF_PASSES: tuple[str, ...] = (
    "canonicalize_chunks",
    "create_autodiff_subgraphs",
    "differentiate_graphs",
)
#: Run on the forward graph `f` of each differentiable graph.
FORWARD_GRAPH_PASSES: tuple[str, ...] = (
    "propagate_shapes",
    "common_subexpression_elimination",
    "batch_mm",
    "fuse_graph",
    "remove_outputs_used_only_in_size",
    "common_subexpression_elimination",
    "dead_code_elimination",
)


def execution_pipeline(*, requires_grad: bool, backward: bool = False) -> list[str]:
    """The pass names `optimize_for_execution` runs, in order."""
    names = [*REQUIRED_PASSES, *SPECIALIZATION_PASSES]
    if backward:
        names.extend(BACKWARD_PASSES)
    names.extend(DERIVATIVE_PRESERVING_PASSES)
    names.extend(AUTODIFF_PASSES if requires_grad else INFERENCE_PASSES)
    return names


def optimize_for_execution(
    graph: Graph,
    *,
    requires_grad: bool,
    grad_enabled: bool,
    fuse: bool = True,
    backward: bool = False,
    verify_each: bool = False,
) -> None:
    """Optimize a specialized copy of a graph for running (see the module docstring);
    `fuse=False` leaves out `fuse_graph` (the runtime's fuser switch); `backward=True`
    for the backward graph of a differentiable graph (`BACKWARD_PASSES`). A pass that
    fails is a `PassFailedError` naming it; `verify_each` lints the graph after every pass."""
    log.dump(
        lambda: (
            f"optimizing for execution (requires_grad={requires_grad}, grad_enabled={grad_enabled})"
        ),
        graph,
    )
    with cyclic_gc_paused():
        pipeline = execution_pipeline(requires_grad=requires_grad, backward=backward)
        _run(graph, pipeline, fuse, verify_each)
        if requires_grad:
            for node in graph.all_nodes():
                if node.kind is prim.DifferentiableGraph and node.has_attribute("ReverseSubgraph"):
                    _run(node.g("Subgraph"), FORWARD_GRAPH_PASSES, fuse, verify_each)
    log.dump("optimized for execution", graph)


def _run(graph: Graph, names: tuple[str, ...] | list[str], fuse: bool, verify: bool) -> None:
    for name in names:
        if name == "fuse_graph":
            if not fuse:
                continue
            if not fusion_backends():
                report_missing_backend(graph)
                continue
        progress.stage(name)
        run_pass(graph, name, verify=verify)
