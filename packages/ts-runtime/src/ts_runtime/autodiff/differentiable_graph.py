"""Running `prim::DifferentiableGraph` nodes: PyTorch's `DifferentiableGraphOp`.

A differentiated group (`ts_passes.differentiate`) carries a forward graph
`f`, a backward graph `df` and the bookkeeping between them. Its operation

1. detaches its inputs and runs `f` through a `GraphExecutor` of its own
   (specialized, optimized and fused like any graph that needs no gradient);
2. when grad mode is on and an input takes part in autograd, makes one
   autograd node, `DifferentiableGraphBackward`, whose edges lead to the
   inputs `df` returns gradients for (`df_output_vjps`), and makes the
   outputs `df` takes gradients of (`df_input_vjps`, the real outputs and the
   temporaries that require grad) outputs of that node;
3. saves what `df` reads: inputs (with their history) and outputs, checked
   for in-place modification when the backward runs;
4. returns the real outputs.

The node's backward runs `df` through its own `GraphExecutor` with the
output gradients (zeros for a real output nothing flowed into; None for a
temporary, which the executor specializes away) and the saved values. Under
`create_graph=True` grad mode is on while it runs, and `df`'s executor makes
differentiable graphs of `df` in turn: double backward is the same machinery
one level down, with the temporaries' gradients flowing back into this node.

`ops_for(plan_graph)` finds the operations of a plan's differentiable
graphs, for the executor's debug state.
"""

from __future__ import annotations

import itertools
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from ts_ir import Graph, Node, prim
from ts_passes import Gradient, gradient_of

from ..autograd.grad_mode import GRAD_MODE
from ..autograd.graph import FREED_MESSAGE, Edge, edge_of, set_history
from ..autograd.graph import Node as AutogradNode
from ..ops.dispatch import implement_factory
from ..tensor import Tensor, TensorError, wrap

_ids = itertools.count()


class AutodiffStats:
    """Counts across all differentiable graphs (tests and benchmarks read these)."""

    forward_runs = 0  # runs of a forward graph `f`
    backward_runs = 0  # runs of a backward graph `df`


_OPS: weakref.WeakValueDictionary[int, DifferentiableGraphOp] = weakref.WeakValueDictionary()


class DifferentiableGraphBackward(AutogradNode):
    """The autograd node of one run of a differentiable graph: runs `df`."""

    __slots__ = ("_captures", "_real", "_versions", "op")

    def __init__(
        self,
        op: DifferentiableGraphOp,
        next_functions: Sequence[Edge],
        output_meta: Sequence[tuple[tuple[int, ...], np.dtype]],
        real: int,
    ) -> None:
        super().__init__("DifferentiableGraphBackward", next_functions, output_meta)
        self.op = op
        self._real = real  # the first `real` vjps are of real outputs: given as zeros if None
        self._captures: list[Any] | None = None
        self._versions: list[tuple[Tensor, int]] = []

    def save(self, captures: list[Any]) -> None:
        self._captures = captures
        self._versions = [(t, t._version_number) for t in captures if isinstance(t, Tensor)]

    def apply(self, grads: list[Tensor | None]) -> Sequence[Tensor | None]:
        for i in range(self._real):
            if grads[i] is None:
                shape, np_dtype = self.output_meta[i]
                grads[i] = wrap(np.zeros(shape, dtype=np_dtype))
        return self._apply(grads)

    def _apply(self, grads: list[Tensor | None]) -> Sequence[Tensor | None]:
        captures = self._captures
        if captures is None:
            raise TensorError(FREED_MESSAGE)
        for t, version in self._versions:
            if t._version_number != version:
                raise TensorError(
                    f"one of the variables needed for gradient computation has been modified by an inplace "
                    f"operation: [{t.dtype} {list(t.shape)}] is at version {t._version_number}; expected version "
                    f"{version} instead (needed by {self.name})"
                )
        AutodiffStats.backward_runs += 1
        self.op.backward_runs += 1
        out = self.op.backward_executor.run(*grads, *captures)
        n = len(self.next_functions)
        if n == 1:
            return [out]
        return list(out)

    def release(self) -> None:
        # captures that are all non-tensors (sizes, scalars) are kept: like PyTorch's, the
        # backward runs again as long as it saved no tensor
        if self._versions or any(_holds_tensor(c) for c in self._captures or ()):
            self._captures = None
            self._versions = []


def _holds_tensor(value: Any) -> bool:
    if isinstance(value, Tensor):
        return True
    return isinstance(value, (list, tuple)) and any(_holds_tensor(v) for v in value)


class DifferentiableGraphOp:
    """The operation of one differentiated `prim::DifferentiableGraph` node."""

    def __init__(self, node: Node) -> None:
        from ..executor import GraphExecutor

        self.gradient: Gradient = gradient_of(node)
        self.name = f"DifferentiableGraph_{next(_ids)}"
        grad = self.gradient
        self.forward_executor = GraphExecutor(grad.f, f"<forward of {self.name}>")
        self.backward_executor = GraphExecutor(
            grad.df, f"<backward of {self.name}>", optimizer=backward_optimizer
        )
        self.num_inputs = len(grad.f.inputs)
        self.num_outputs = len(grad.f.outputs)
        self.real = grad.f_real_outputs
        self.vjps = tuple(grad.df_input_vjps)
        self.real_vjps = sum(1 for k in grad.df_input_vjps if k < grad.f_real_outputs)
        self.output_vjps = tuple(grad.df_output_vjps)
        self.captured_inputs = tuple(grad.df_input_captured_inputs)
        self.captured_outputs = tuple(grad.df_input_captured_outputs)
        self.runs = 0
        self.backward_runs = 0

    def __repr__(self) -> str:
        return f"<{self.name}: {self.num_inputs} inputs, {self.real} outputs>"

    def __call__(self, *inputs: Any) -> Any:
        self.runs += 1
        AutodiffStats.forward_runs += 1
        detached = [x.detach() if isinstance(x, Tensor) else x for x in inputs]
        mode = GRAD_MODE.enabled
        # f records nothing: its plan is compiled, and fused, as no-grad code
        GRAD_MODE.enabled = False
        try:
            result = self.forward_executor.run(*detached)
        finally:
            GRAD_MODE.enabled = mode
        outs = list(result) if self.num_outputs != 1 else [result]
        if mode:
            edges = [edge_of(inputs[i]) for i in self.output_vjps]
            if any(e is not None for e in edges):
                self._record(inputs, outs, edges)
        if self.real == 1:
            return outs[0]
        return tuple(outs[: self.real])

    def _record(self, inputs: tuple[Any, ...], outs: list[Any], edges: list[Edge]) -> None:
        meta = []
        for k in self.vjps:
            t = outs[k]
            meta.append((t._data.shape, t._data.dtype) if isinstance(t, Tensor) else ((), None))
        node = DifferentiableGraphBackward(self, edges, meta, self.real_vjps)
        seen: set[int] = set()
        for slot, k in enumerate(self.vjps):
            t = outs[k]
            if not isinstance(t, Tensor) or t._data.dtype.kind not in "fc":
                continue
            if id(t) in seen:
                # one tensor for two outputs: each needs a history of its own
                t = outs[k] = t.detach()
            seen.add(id(t))
            set_history(t, node, slot)
        captures = [inputs[i] for i in self.captured_inputs]
        captures += [outs[k] for k in self.captured_outputs]
        node.save(captures)


def backward_optimizer(graph: Graph, *, requires_grad: bool, grad_enabled: bool) -> None:
    """The executor's pipeline, with the rewrites only gradients allow (`BACKWARD_PASSES`)."""
    import ts_passes

    from ..fusion import fusion_requested

    ts_passes.optimize_for_execution(
        graph,
        requires_grad=requires_grad,
        grad_enabled=grad_enabled,
        fuse=fusion_requested(),
        backward=True,
    )


def ops_for(graph: Graph) -> list[DifferentiableGraphOp]:
    """The operations of the differentiable graphs of a plan's graph (those built so far)."""
    found = []
    for n in graph.all_nodes():
        if n.kind is prim.DifferentiableGraph:
            op = _OPS.get(id(n))
            if op is not None:
                found.append(op)
    return found


@implement_factory("prim::DifferentiableGraph")
def differentiable_graph(node: Node) -> Callable[..., Any]:
    """The operation of a `prim::DifferentiableGraph` node (one per plan).

    A group not differentiated yet (`create_autodiff_subgraphs` run alone) runs its
    subgraph as it is, autograd recording each operation as outside any group.
    """
    if not node.has_attribute("ReverseSubgraph"):
        from ..executor import GraphExecutor

        return GraphExecutor(node.g("Subgraph"), "<prim::DifferentiableGraph not differentiated>")
    op = DifferentiableGraphOp(node)
    _OPS[id(node)] = op
    return op
