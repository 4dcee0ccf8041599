"""Running the profiling executor's checks: `prim::Guard`, `prim::BailOut`, `prim::TypeCheck`.

A check compares a value with a `TensorType` on every field the type knows
(dtype, device, rank, each known size and stride, requires_grad as the
current grad mode sees it) and nothing else; `type_check(t)` writes one
function per type and caches it:

    check = type_check(Float(3, 4, strides=[4, 1], requires_grad=0, device=cpu))
    check(x)       # True when x is such a tensor

- `prim::BailOut[index=i](%template, %x, %captured...)` returns `%x` when it
  matches its output type and otherwise raises `BailOutSignal(graph, i,
  (x, captured...))`, which the executor running the graph catches to
  resume in bailout graph `i`. The interpreter writes it as one conditional
  expression, so the captured values are only touched on failure:
  `r5 = (r0 if check(r0) else bail(r0, r1, r2))`.
- `prim::TypeCheck[types=[...]](%a, %b)` returns its inputs and whether all
  match.
- `prim::Guard(%x)` (a graph run before bailouts were inserted) returns `%x`
  or raises `GuardFailedError`.
- `prim::BailoutTemplate` is 0; `prim::FallbackGraph` runs its subgraph in
  the interpreter (the executor normally replaces it by a function call).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numpy as np
from ts_ir import Device, Graph, Node, TensorType, TorchScriptError, prim

from .autograd.grad_mode import GRAD_MODE
from .devices import DeviceArray, storage_device
from .dtypes import numpy_dtype, scalar_type_of_numpy
from .interpreter.code import Code, register_expression
from .ops.dispatch import implement_factory
from .tensor import Tensor

CPU = Device("cpu")
_checks: dict[TensorType, Callable[[Any], bool]] = {}
_lock = threading.Lock()


class GuardFailedError(TorchScriptError):
    """A `prim::Guard` failed in a graph that has no bailouts to resume in."""


class BailOutSignal(Exception):
    """A bailout's check failed: the executor of `graph` resumes in bailout graph `index` with
    `values` (the bailout's inputs after its template)."""

    def __init__(self, graph: Graph, index: int, values: tuple[Any, ...]) -> None:
        super().__init__(f"bailout {index}")
        self.graph = graph
        self.index = index
        self.values = values


# ---------------------------------------------------------------------------
# types of values


def tensor_type_of(value: Any) -> TensorType | None:
    """The complete type of a tensor as the profiler records it (requires_grad as the current
    grad mode sees it), or None for anything else."""
    if not isinstance(value, Tensor):
        return None
    d = value._data
    try:
        dtype = scalar_type_of_numpy(d.dtype)
    except Exception:
        return None
    itemsize = d.itemsize
    strides = (
        tuple(s // itemsize for s in d.strides)
        if itemsize and all(s % itemsize == 0 for s in d.strides)
        else None
    )
    ag = value._ag
    requires_grad = GRAD_MODE.enabled and ag is not None and ag.requires_grad
    device = CPU if d.__class__ is np.ndarray else storage_device(d)
    return TensorType(dtype, device, bool(requires_grad), d.shape, strides)


def describe_value(value: Any) -> str:
    t = tensor_type_of(value)
    return str(t) if t is not None else type(value).__name__


def type_check(t: TensorType) -> Callable[[Any], bool]:
    """A function telling whether a value is a tensor of type `t` (see the module docstring)."""
    check = _checks.get(t)
    if check is None:
        with _lock:
            check = _checks.get(t)
            if check is None:
                check = _checks[t] = _make_check(t)
    return check


def _make_check(t: TensorType) -> Callable[[Any], bool]:
    cells: dict[str, Any] = {"GRAD": GRAD_MODE, "DeviceArray": DeviceArray}
    lines = ["def check(v):", "    try:", "        d = v._data", "    except AttributeError:"]
    lines.append("        return False")
    conditions: list[str] = []
    if t.device is None or t.device.type == "cpu":
        if t.device is not None:
            cells["ND"] = np.ndarray
            conditions.append("d.__class__ is ND")
    else:
        cells["DEV"] = t.device
        conditions.append("isinstance(d, DeviceArray) and d.device == DEV")
    itemsize = None
    if t.scalar_type is not None:
        dt = numpy_dtype(int(t.scalar_type))
        cells["DT"] = dt
        itemsize = dt.itemsize
        conditions.append("d.dtype == DT")
    if t.sizes is not None:
        if None not in t.sizes:
            cells["SHAPE"] = tuple(t.sizes)
            conditions.append("d.shape == SHAPE")
        else:
            conditions.append(f"d.ndim == {len(t.sizes)}")
            conditions += [f"d.shape[{i}] == {s}" for i, s in enumerate(t.sizes) if s is not None]
        if t.strides is not None:
            strides = [s for s in t.strides if s is not None]
            if itemsize is not None and len(strides) == len(t.strides):
                cells["STRIDES"] = tuple(s * itemsize for s in strides)
                conditions.append("d.strides == STRIDES")
            else:
                for i, s in enumerate(t.strides):
                    if s is not None:
                        conditions.append(f"d.strides[{i}] == {s} * d.itemsize")
    if t.requires_grad is not None:
        wanted = "True" if t.requires_grad else "False"
        conditions.append(
            f"(GRAD.enabled and v._ag is not None and v._ag.requires_grad) == {wanted}"
        )
    lines.append(f"    return {' and '.join(conditions) or 'v.__class__ is not None'}")
    header = f"def _make({', '.join(cells)}):"
    source = "\n".join([header] + ["    " + line for line in lines] + ["    return check", ""])
    namespace: dict[str, Any] = {}
    exec(compile(source, f"<tsjit check {t}>", "exec"), namespace)
    check = namespace["_make"](*cells.values())
    check.type = t
    return check


# ---------------------------------------------------------------------------
# the nodes


def _bailout_expression(code: Code, node: Node, args: list[str]) -> str:
    check = type_check(node.output().type)  # type: ignore[arg-type]
    graph, index = node.graph, node.i("index")

    def bail(*values: Any) -> Any:
        raise BailOutSignal(graph, index, values)

    value = args[1]
    return (
        f"({value} if {code._cell('chk', check)}({value}) "
        f"else {code._cell('bail', bail)}({', '.join(args[1:])}))"
    )


def _template_expression(code: Code, node: Node, args: list[str]) -> str:
    return "0"


register_expression(prim.BailOut, _bailout_expression)
register_expression(prim.BailoutTemplate, _template_expression)


@implement_factory("prim::Guard")
def guard(node: Node) -> Callable[[Any], Any]:
    t = node.output().type
    check = type_check(t)  # type: ignore[arg-type]

    def run(value: Any) -> Any:
        if check(value):
            return value
        raise GuardFailedError(
            f"a prim::Guard expected {t} but got {describe_value(value)}, and the graph has "
            "no bailout to resume in"
        )

    return run


@implement_factory("prim::TypeCheck")
def type_check_node(node: Node) -> Callable[..., Any]:
    checks = [type_check(t) for t in node.tys("types")]  # type: ignore[arg-type]
    params = [f"a{i}" for i in range(len(checks))]
    test = " and ".join(f"c{i}({p})" for i, p in enumerate(params)) or "True"
    source = (
        f"def _make({', '.join(f'c{i}' for i in range(len(checks)))}):\n"
        f"    def type_check({', '.join(params)}):\n"
        f"        return ({''.join(p + ', ' for p in params)}{test})\n"
        "    return type_check\n"
    )
    namespace: dict[str, Any] = {}
    exec(compile(source, "<tsjit prim::TypeCheck>", "exec"), namespace)
    return namespace["_make"](*checks)


@implement_factory("prim::BailoutTemplate")
def bailout_template(node: Node) -> Callable[[], int]:
    return lambda: 0


@implement_factory("prim::FallbackGraph")
def fallback_graph(node: Node) -> Callable[..., Any]:
    """The subgraph in the interpreter (the profiling executor calls a function instead)."""
    code = Code(node.g("Subgraph"), grad_enabled=True, name="fallback_graph")
    return code.fn
