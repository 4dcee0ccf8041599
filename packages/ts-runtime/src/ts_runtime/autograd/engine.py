"""The backward engine: `backward()` and `grad()`.

Nodes run in dependency order: a node runs once every node that feeds it a
gradient has run, with the gradients for each of its outputs summed. Tensor
hooks and `retain_grad` apply to the gradient of an output before its node
runs. With `create_graph=True` the backward computation is itself recorded,
so gradients can be differentiated again.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import numpy as np

from ..tensor import Tensor, TensorError, wrap
from .grad_mode import GRAD_MODE
from .graph import AccumulateGrad, Edge, Node, edge_of


def _root_edge(t: Tensor) -> Edge:
    if not t.requires_grad:
        raise TensorError("element 0 of tensors does not require grad and does not have a grad_fn")
    return edge_of(t)


def _default_grad(t: Tensor, grad: Tensor | None) -> Tensor:
    if grad is not None:
        if tuple(grad.shape) != tuple(t.shape):
            raise TensorError(
                f"Mismatch in shape: grad_output has a shape of {list(grad.shape)} and output has a shape of {list(t.shape)}"
            )
        return grad
    if t.numel() != 1:
        raise TensorError("grad can be implicitly created only for scalar outputs")
    return wrap(np.ones(t._data.shape, dtype=t._data.dtype))


def _add(a: Tensor | None, b: Tensor) -> Tensor:
    if a is None:
        return b
    from ..ops.dispatch import call

    return call("aten::add", a, b)


def _run(
    roots: Sequence[tuple[Edge, Tensor]],
    *,
    retain_graph: bool,
    create_graph: bool,
    capture: dict[tuple[int, int], int] | None = None,
) -> list[Tensor | None]:
    """Run the backward graph from `roots`; with `capture`, return the gradients
    reaching those (node id, output_nr) edges instead of accumulating into leaves."""
    # count how many edges feed each node
    dependencies: dict[Node, int] = {}
    seen: set[Node] = set()
    stack: list[Node] = []
    for edge, _ in roots:
        if edge is not None and edge[0] not in seen:
            seen.add(edge[0])
            stack.append(edge[0])
    while stack:
        node = stack.pop()
        for nxt in node.next_functions:
            if nxt is None:
                continue
            dependencies[nxt[0]] = dependencies.get(nxt[0], 0) + 1
            if nxt[0] not in seen:
                seen.add(nxt[0])
                stack.append(nxt[0])

    buffers: dict[Node, list[Tensor | None]] = {}
    for edge, grad in roots:
        if edge is None:
            continue
        buf = buffers.setdefault(edge[0], [None] * edge[0].num_outputs)
        buf[edge[1]] = _add(buf[edge[1]], grad)
    ready = [node for node in buffers if dependencies.get(node, 0) == 0]
    captured: list[Tensor | None] = [None] * (len(capture) if capture else 0)

    prev_mode = GRAD_MODE.enabled
    GRAD_MODE.enabled = create_graph
    try:
        while ready:
            node = ready.pop()
            grads = buffers.pop(node)
            for i, g in enumerate(grads):
                out = node.output_tensor(i)
                if out is not None and out._ag is not None and g is not None:
                    grads[i] = g = _apply_hooks(out, g)
                    if out._ag.retains_grad:
                        out._ag.grad = g if create_graph else g.detach()
                if capture is not None:
                    slot = capture.get((id(node), i))
                    if slot is not None and g is not None:
                        captured[slot] = g if captured[slot] is None else _add(captured[slot], g)
            if isinstance(node, AccumulateGrad):
                if capture is None and grads[0] is not None:
                    grad = _apply_hooks(node.variable, grads.pop())
                    g = None
                    # the leaf may take the gradient itself when nothing else holds it: this
                    # frame's `grad` and getrefcount's argument are the only references
                    steal = sys.getrefcount(grad) == 2 and _unshared_array(grad)
                    _accumulate(node.variable, grad, create_graph, steal)
                    grad = None
                continue
            outs = node.apply(grads)
            if not retain_graph:
                node.release()
            for nxt, g in zip(node.next_functions, outs, strict=True):
                if nxt is None:
                    continue
                target, nr = nxt
                if g is not None:
                    buf = buffers.setdefault(target, [None] * target.num_outputs)
                    buf[nr] = _add(buf[nr], g)
                dependencies[target] -= 1
                if dependencies[target] == 0:
                    if target not in buffers:
                        buffers[target] = [None] * target.num_outputs
                    ready.append(target)
            outs = grads = g = None  # the buffers hold the gradients now, and nothing else here
    finally:
        GRAD_MODE.enabled = prev_mode
    return captured


def _apply_hooks(t: Tensor, grad: Tensor) -> Tensor:
    hooks = t._ag.hooks if t._ag is not None else None
    if hooks:
        for hook in list(hooks):
            new = hook(grad)
            if new is not None:
                grad = new
    return grad


def _unshared_array(grad: Tensor) -> bool:
    """Whether `grad`'s memory belongs to it alone (not a view, no views of it, no other holder)."""
    arr = grad._data
    return (
        grad._ag is None
        and grad._base is None
        and arr.base is None
        and arr.flags.c_contiguous
        and arr.flags.writeable
        # the tensor's reference, `arr`, and getrefcount's argument
        and sys.getrefcount(arr) == 3
    )


def _accumulate(variable: Tensor, grad: Tensor, create_graph: bool, steal: bool) -> None:
    """Add `grad` (hooks applied) into `variable.grad`; `steal`: no one else holds `grad`, so
    the first gradient is kept as it is rather than copied, as PyTorch does."""
    ag = variable._ag
    assert ag is not None
    if tuple(grad.shape) != tuple(variable.shape):
        raise TensorError(
            f"gradient of shape {list(grad.shape)} does not match the leaf's shape {list(variable.shape)}"
        )
    if ag.grad is None:
        if create_graph or steal:
            ag.grad = grad
        else:
            ag.grad = wrap(np.array(grad._data, copy=True))
    elif create_graph:
        ag.grad = _add(ag.grad, grad)
    else:
        ag.grad._data += grad._data


def backward(
    tensors: Sequence[Tensor],
    grad_tensors: Sequence[Tensor | None] | None = None,
    *,
    retain_graph: bool | None = None,
    create_graph: bool = False,
) -> None:
    """Accumulate the gradients of `tensors` (seeded with `grad_tensors`) into the leaves' `.grad`."""
    grads = list(grad_tensors) if grad_tensors is not None else [None] * len(tensors)
    roots = [(_root_edge(t), _default_grad(t, g)) for t, g in zip(tensors, grads, strict=True)]
    _run(
        roots,
        retain_graph=create_graph if retain_graph is None else retain_graph,
        create_graph=create_graph,
    )


def grad(
    outputs: Tensor | Sequence[Tensor],
    inputs: Tensor | Sequence[Tensor],
    grad_outputs: Tensor | Sequence[Tensor | None] | None = None,
    *,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    allow_unused: bool = False,
) -> tuple[Tensor | None, ...]:
    """The gradients of `outputs` with respect to `inputs`, without touching `.grad`."""
    outs = [outputs] if isinstance(outputs, Tensor) else list(outputs)
    ins = [inputs] if isinstance(inputs, Tensor) else list(inputs)
    if grad_outputs is None:
        gouts: list[Tensor | None] = [None] * len(outs)
    elif isinstance(grad_outputs, Tensor):
        gouts = [grad_outputs]
    else:
        gouts = list(grad_outputs)
    capture: dict[tuple[int, int], int] = {}
    for i, t in enumerate(ins):
        if not t.requires_grad:
            raise TensorError(f"input {i} of grad() does not require grad")
        edge = edge_of(t)
        assert edge is not None
        capture[(id(edge[0]), edge[1])] = i
    roots = [(_root_edge(t), _default_grad(t, g)) for t, g in zip(outs, gouts, strict=True)]
    result = _run(
        roots,
        retain_graph=create_graph if retain_graph is None else retain_graph,
        create_graph=create_graph,
        capture=capture,
    )
    for i, g in enumerate(result):
        if g is None and not allow_unused:
            raise TensorError(
                f"input {i} of grad() was not used in the graph; pass allow_unused=True to get None for it"
            )
    return tuple(result)
