"""The backward graph: one `Node` per recorded operation, `AccumulateGrad` for leaves.

A node's `next_functions` are its edges to the nodes that produced its
differentiable inputs, as `(node, output_nr)` pairs (None where an input does
not require grad). `apply(grads)` maps the gradients of the node's outputs to
the gradients of its inputs, one per edge.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..dtypes import dtype_of_numpy
from ..tensor import AutogradMeta, Tensor, TensorError, wrap

Edge = tuple["Node", int] | None
ONE = "one"


class Node:
    """A backward function. Subclasses implement `_apply`."""

    __slots__ = ("__weakref__", "_outputs", "name", "next_functions", "output_meta")

    def __init__(
        self,
        name: str,
        next_functions: Sequence[Edge],
        output_meta: Sequence[tuple[tuple[int, ...], np.dtype]],
    ) -> None:
        self.name = name
        self.next_functions = tuple(next_functions)
        self.output_meta = tuple(output_meta)
        self._outputs: list[weakref.ref[Tensor] | None] | None = None

    @property
    def num_outputs(self) -> int:
        return len(self.output_meta)

    def register_output(self, t: Tensor, output_nr: int) -> None:
        """Remember an output tensor (weakly), for its hooks and retain_grad."""
        if self._outputs is None:
            self._outputs = [None] * len(self.output_meta)
        self._outputs[output_nr] = weakref.ref(t)

    def output_tensor(self, output_nr: int) -> Tensor | None:
        if self._outputs is None:
            return None
        ref = self._outputs[output_nr]
        return None if ref is None else ref()

    def apply(self, grads: list[Tensor | None]) -> Sequence[Tensor | None]:
        for i, g in enumerate(grads):
            shape, np_dtype = self.output_meta[i]
            if g is None:
                grads[i] = wrap(np.zeros(shape, dtype=np_dtype))
            elif g._data.dtype != np_dtype and np_dtype.kind in "fc":
                # a gradient arrives in its output's dtype, whatever promotion made of it
                # downstream (a float32 result times a float64 tensor), as PyTorch's engine
                # casts it to the input's metadata
                grads[i] = g.to(dtype_of_numpy(np_dtype))
        return self._apply(grads)

    def _apply(self, grads: list[Tensor | None]) -> Sequence[Tensor | None]:
        raise NotImplementedError

    def release(self) -> None:
        """Free saved tensors after a backward pass that does not retain the graph."""

    def __repr__(self) -> str:
        return f"<{self.name} object at {id(self):#x}>"

    def __call__(self, *grads: Tensor | None) -> Sequence[Tensor | None]:
        return self.apply(list(grads))


FREED_MESSAGE = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Specify retain_graph=True if you need to backward a second time."
)


def _metadata_only(value: Any) -> Any:
    """`value` with each host tensor replaced by one of its shape and dtype holding no data: a
    zero-stride broadcast of NaN (or 0 for integers and booleans), so that a formula reading
    data it did not declare in `saves` gives NaN gradients rather than plausible ones."""
    if isinstance(value, Tensor):
        data = value._data
        if data.__class__ is not np.ndarray:
            return value  # device storage: kept as it is
        fill = np.nan if data.dtype.kind in "fc" else 0
        return wrap(np.broadcast_to(np.array(fill, dtype=data.dtype), data.shape))
    if isinstance(value, tuple):
        return tuple(_metadata_only(v) for v in value)
    if isinstance(value, list):
        return [_metadata_only(v) for v in value]
    return value


class OpBackward(Node):
    """The backward of an operator call, computed by its derivative formula."""

    __slots__ = ("_args", "_formula", "_layout", "_result", "_saved_versions")

    def __init__(
        self,
        name: str,
        formula: Callable[..., Sequence[Any]],
        args: tuple[Any, ...],
        result: Any,
        layout: Sequence[Any],
        next_functions: Sequence[Edge],
        output_meta: Sequence[tuple[tuple[int, ...], np.dtype]],
        saved: Sequence[Tensor],
    ) -> None:
        super().__init__(name, next_functions, output_meta)
        self._formula = formula
        self._args = args
        self._result = result
        # per argument: None (not differentiable), ONE (a tensor: one edge) or the
        # length of a tensor list (one edge per element)
        self._layout = tuple(layout)
        self._saved_versions = [(t, t._version_number) for t in saved]

    def _apply(self, grads: list[Tensor | None]) -> Sequence[Tensor | None]:
        if self._args is None:
            raise TensorError(FREED_MESSAGE)
        for t, version in self._saved_versions:
            if t._version_number != version:
                raise TensorError(
                    f"one of the variables needed for gradient computation has been modified by an inplace "
                    f"operation: [{t.dtype} {list(t.shape)}] is at version {t._version_number}; expected version "
                    f"{version} instead (needed by {self.name})"
                )
        grad_in = grads[0] if len(grads) == 1 else tuple(grads)
        per_arg = tuple(self._formula(grad_in, *self._args, result=self._result))
        if len(per_arg) < len(self._layout):  # formulas may omit trailing non-tensor arguments
            per_arg += (None,) * (len(self._layout) - len(per_arg))
        out: list[Tensor | None] = []
        for spec, g in zip(self._layout, per_arg, strict=True):
            if spec is None:
                continue
            if spec == ONE:
                out.append(g)
            else:
                out.extend(g if g is not None else [None] * spec)
        return out

    def release(self) -> None:
        """Free what the formula saved. A formula that saves no tensor (`saves=()`: it reads
        only its arguments' sizes and dtypes, as `add` or `view` do) keeps metadata-only
        stand-ins and can run again, as PyTorch's nodes without saved variables can."""
        if self._args is None:
            return
        if self._saved_versions:
            self._args = None  # type: ignore[assignment]
            self._result = None
            self._saved_versions = []
        else:
            self._args = _metadata_only(self._args)
            self._result = _metadata_only(self._result)


class NotDifferentiable(Node):
    """Stands in for an operator without a derivative formula; backward through it is an error."""

    __slots__ = ("_op",)

    def __init__(
        self,
        op: str,
        next_functions: Sequence[Edge],
        output_meta: Sequence[tuple[tuple[int, ...], np.dtype]],
    ) -> None:
        super().__init__(f"NotImplemented({op})", next_functions, output_meta)
        self._op = op

    def _apply(self, grads: list[Tensor | None]) -> Sequence[Tensor | None]:
        raise TensorError(f"the derivative for '{self._op}' is not implemented")


class AccumulateGrad(Node):
    """Accumulates incoming gradients into a leaf tensor's `.grad`."""

    __slots__ = ("variable",)

    def __init__(self, variable: Tensor) -> None:
        super().__init__("AccumulateGrad", (), ((variable._data.shape, variable._data.dtype),))
        self.variable = variable

    def _apply(self, grads: list[Tensor | None]) -> Sequence[Tensor | None]:
        return ()


def grad_accumulator(t: Tensor) -> AccumulateGrad:
    ag = t._ag
    assert ag is not None and ag.requires_grad and ag.grad_fn is None
    acc = ag.grad_accumulator
    if acc is None:
        acc = ag.grad_accumulator = AccumulateGrad(t)
    return acc


def edge_of(t: Tensor | None) -> Edge:
    """Where a gradient for `t` should flow: its grad_fn, or its accumulator if it is a leaf."""
    if t is None:
        return None
    if t._base is not None:
        refresh_view(t)
    ag = t._ag
    if ag is None:
        return None
    if ag.grad_fn is not None:
        return (ag.grad_fn, ag.output_nr)
    if ag.requires_grad:
        return (grad_accumulator(t), 0)
    return None


def set_history(t: Tensor, node: Node, output_nr: int) -> None:
    """Make `t` an output of `node` (it then requires grad and is not a leaf)."""
    ag = t._ag
    if ag is None:
        t._ag = AutogradMeta(True, node, output_nr)
    else:
        ag.requires_grad = True
        ag.grad_fn = node
        ag.output_nr = output_nr
        ag.grad_accumulator = None
    if t._base is not None:
        t._ag.view_version = t._version[0]  # type: ignore[union-attr, index]
    node.register_output(t, output_nr)


def refresh_view(view: Tensor) -> None:
    """Re-derive a view's history if its storage was modified in place since it was set.

    A view shares its base's version counter; when that moved (an in-place
    operation on the base or another view) and the base takes part in
    autograd, the view is re-read from the base's current history.
    """
    base = view._base
    assert base is not None
    current = view._version[0]  # type: ignore[index]
    ag = view._ag
    seen = ag.view_version if ag is not None and ag.view_version is not None else view._view_version
    if current == seen:
        return
    bag = base._ag
    if bag is None or not bag.requires_grad or bag.grad_fn is None:
        if ag is not None:
            ag.view_version = current
        return
    if not base._data.flags.c_contiguous:
        raise TensorError(
            "a view of a tensor that was modified in place is used by autograd, but its base is not "
            "contiguous; make the base contiguous before taking views of it"
        )
    set_history(
        view, ViewOfBase(base, (bag.grad_fn, bag.output_nr), view, view_geometry(view, base)), 0
    )


# ---------------------------------------------------------------------------
# In-place operations on views


def view_geometry(view: Tensor, base: Tensor) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """(sizes, strides, offset) of `view` in elements of `base`'s C-contiguous buffer."""
    b, v = base._data, view._data
    item = b.itemsize
    offset = (v.__array_interface__["data"][0] - b.__array_interface__["data"][0]) // item
    return v.shape, tuple(s // item for s in v.strides), offset


def _region(
    flat_like_base: np.ndarray, geometry: tuple[tuple[int, ...], tuple[int, ...], int]
) -> np.ndarray:
    shape, strides, offset = geometry
    item = flat_like_base.itemsize
    return np.lib.stride_tricks.as_strided(
        flat_like_base.reshape(-1)[offset:], shape, tuple(s * item for s in strides), writeable=True
    )


class CopySlices(Node):
    """The new history of a base after an in-place operation on one of its views.

    The gradient of the updated base flows unchanged to the base's old value,
    except in the view's region, which instead receives what flows back
    through the in-place operation (`fn`, the backward of its functional form).
    """

    __slots__ = ("fn", "geometry")

    def __init__(self, base: Tensor, base_edge: Edge, fn: Node | None, geometry: tuple) -> None:
        others = fn.next_functions[1:] if fn is not None else ()
        super().__init__(
            "CopySlices", (base_edge, *others), ((base._data.shape, base._data.dtype),)
        )
        self.fn = fn
        self.geometry = geometry

    def _apply(self, grads: list[Tensor | None]) -> Sequence[Tensor | None]:
        grad = grads[0]
        assert grad is not None
        result = np.array(grad._data, order="C", copy=True)
        region = _region(result, self.geometry)
        if self.fn is None:
            region[...] = 0
            return [wrap(result)]
        res = self.fn.apply([wrap(region.copy())])
        first = res[0]
        region[...] = 0 if first is None else first._data
        return [wrap(result), *res[1:]]

    def release(self) -> None:
        if self.fn is not None:
            self.fn.release()


class ViewOfBase(Node):
    """A view's history after its base was updated in place: the view is re-read from the base."""

    __slots__ = ("base_meta", "geometry")

    def __init__(self, base: Tensor, base_edge: Edge, view: Tensor, geometry: tuple) -> None:
        super().__init__(
            "AsStridedBackward0", (base_edge,), ((view._data.shape, view._data.dtype),)
        )
        self.base_meta = (base._data.shape, base._data.dtype)
        self.geometry = geometry

    def _apply(self, grads: list[Tensor | None]) -> Sequence[Tensor | None]:
        shape, dtype = self.base_meta
        result = np.zeros(shape, dtype=dtype)
        grad = grads[0]
        assert grad is not None
        _region(result, self.geometry)[...] += grad._data
        return [wrap(result)]
