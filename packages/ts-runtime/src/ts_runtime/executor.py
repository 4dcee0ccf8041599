"""`GraphExecutor`: specialize a graph to the properties of its inputs, optimize, cache.

Each call computes an ArgumentSpec: for every tensor input (also inside
tuples) its dtype, rank, requires_grad and device, whether an optional tensor
is defined, the grad mode, whether device dispatch is on (`devices.ACTIVE`:
plans compiled before a device was first used run CPU kernels only), and what
the graph reads from its objects: the types of module parameters and the
values of settings (`attribute_guard`). A spec seen before runs its cached
plan; a new one compiles a plan:

    copy the graph → give tensor inputs their specialized types
      → the optimization pipeline of ts-passes (required passes, constant
        propagation, shape and dtype propagation, derivative-preserving
        passes; fusion when no gradient is needed)
      → `Code` (compiled for no-grad execution when grad mode is off)

Every compile is logged (logger `ts_runtime.executor`) with its reason and
counted. `graph_for(*inputs)` returns the optimized graph for those inputs.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from ts_ir import (
    ClassType,
    Device,
    Graph,
    NoneType,
    OptionalType,
    TensorType,
    TupleType,
    Type,
    prim,
)
from ts_schema import Tag, registry

from .attribute_guard import AttributeGuard
from .autograd.grad_mode import GRAD_MODE
from .devices import ACTIVE as DEVICES_ACTIVE
from .devices import storage_device
from .dtypes import scalar_type_of_numpy
from .fusion import FUSER_OVERRIDE
from .interpreter.code import Code
from .interpreter.state import run_code
from .tensor import Tensor

log = logging.getLogger("ts_runtime.executor")
CPU = Device("cpu")

#: Optimizes a specialized graph in place: `optimizer(graph, requires_grad=..., grad_enabled=...)`.
Optimizer = Callable[..., None]

_UNDEFINED = "undefined"
_OTHER = "other"
_UNPREPARED = object()
_ndarray = np.ndarray


def _spec_of(value: Any, grad_enabled: bool) -> Any:
    if isinstance(value, Tensor):
        data = value._data
        ag = value._ag
        return (
            data.dtype,
            data.ndim,
            grad_enabled and ag is not None and ag.requires_grad,
            CPU if data.__class__ is _ndarray else storage_device(data),
        )
    if value is None:
        return _UNDEFINED
    if type(value) is tuple:
        return tuple(_spec_of(v, grad_enabled) for v in value)
    return _OTHER


def _spec_without_grad(spec: Any) -> Any:
    """An input's spec as grad mode off would record it."""
    if _is_tensor_spec(spec):
        return (spec[0], spec[1], False, spec[3])
    if isinstance(spec, tuple):
        return tuple(_spec_without_grad(s) for s in spec)
    return spec


def _is_tensor_spec(spec: Any) -> bool:
    """Whether an input's spec is a tensor's `(dtype, rank, requires_grad, device)` (else a
    tuple's)."""
    return (
        isinstance(spec, tuple)
        and len(spec) == 4
        and not isinstance(spec[0], tuple)
        and hasattr(spec[0], "kind")
    )


def argument_spec(inputs: Sequence[Any]) -> tuple:
    """The key a plan is cached under: grad mode, the fuser chosen in code (`fuser(...)`;
    `TS_JIT_FUSER` is read when a plan compiles), whether device dispatch is on, each
    input's tensor properties (`requires_grad` only counts with grad mode on: under `no_grad`
    nothing is recorded), and the attributes the graph reads (`attribute_guard`; the
    executor adds them)."""
    override = FUSER_OVERRIDE
    enabled = GRAD_MODE.enabled
    return (
        enabled,
        override[-1] if override else None,
        DEVICES_ACTIVE[0],
        tuple([_spec_of(v, enabled) for v in inputs]),
        (),
    )


def _specialize(declared: Type, spec: Any) -> Type:
    if _is_tensor_spec(spec):
        np_dtype, ndim, requires_grad, device = spec
        return TensorType(scalar_type_of_numpy(np_dtype), device, requires_grad, (None,) * ndim)
    if (
        isinstance(spec, tuple)
        and isinstance(declared, TupleType)
        and len(spec) == len(declared.elements)
    ):
        return TupleType([_specialize(t, s) for t, s in zip(declared.elements, spec, strict=True)])
    if spec == _UNDEFINED and isinstance(declared, (OptionalType, TensorType)):
        # an optional that is None; or an undefined tensor (a gradient nothing flowed
        # into, in a backward graph), which specialize_autograd_zero folds away
        return NoneType.get()
    if spec == _OTHER and isinstance(declared, OptionalType):
        return declared.element
    return declared


def describe_spec(spec: tuple) -> str:
    grad, fuser, _, inputs = spec[:4]

    def one(s: Any) -> str:
        if _is_tensor_spec(s):
            device = "" if s[3].type == "cpu" else f", {s[3]}"
            return f"{s[0]}[{s[1]}d{', grad' if s[2] else ''}{device}]"
        if isinstance(s, tuple):
            return "(" + ", ".join(one(x) for x in s) + ")"
        return str(s)

    fusion = "" if fuser is None else f" fuser={fuser}"
    return f"grad={'on' if grad else 'off'}{fusion} (" + ", ".join(one(s) for s in inputs) + ")"


@dataclass
class ExecutionPlan:
    """A graph optimized for one ArgumentSpec, and its Code."""

    spec: tuple
    graph: Graph
    code: Code
    reason: str
    runs: int = 0
    run: Callable[..., Any] = field(repr=False, default=None)  # type: ignore[assignment]


class ExecutorStats:
    """Counts across all executors (tests and benchmarks read these)."""

    compiles = 0
    runs = 0


def default_optimizer(graph: Graph, *, requires_grad: bool, grad_enabled: bool) -> None:
    """The ts-passes pipeline for execution; fusion as the fuser switch says (`fusion.py`)."""
    import ts_passes

    from .fusion import fusion_requested

    ts_passes.optimize_for_execution(
        graph, requires_grad=requires_grad, grad_enabled=grad_enabled, fuse=fusion_requested()
    )


class GraphExecutor:
    """Runs a graph, compiling one plan per distinct ArgumentSpec."""

    def __init__(
        self,
        graph: Graph,
        name: str = "graph",
        *,
        optimize: bool = True,
        optimizer: Optimizer | None = None,
        resolver: Callable[[str], Any] | None = None,
    ) -> None:
        self.graph = graph
        self.name = name
        self.optimize = optimize
        self.optimizer = optimizer or default_optimizer
        self.resolver = resolver
        self._plans: dict[tuple, ExecutionPlan] = {}
        self._last: ExecutionPlan | None = None
        self._lock = threading.Lock()
        self.compiles = 0
        self._guard: Any = _UNPREPARED
        self._inlined: Graph | None = None

    def run(self, *inputs: Any) -> Any:
        # argument_spec(inputs), inlined: this is the per-call path
        override = FUSER_OVERRIDE
        enabled = GRAD_MODE.enabled
        guard = self._guard
        if guard is _UNPREPARED:
            guard = self._prepare_guard()
        spec = (
            enabled,
            override[-1] if override else None,
            DEVICES_ACTIVE[0],
            tuple([_spec_of(v, enabled) for v in inputs]),
            () if guard is None else guard.key(inputs, enabled),
        )
        plan = self._plans.get(spec)
        if plan is None:
            plan = self._compile(spec)
        plan.runs += 1
        self._last = plan
        return plan.run(*inputs)

    __call__ = run

    def plan_for(self, *inputs: Any) -> ExecutionPlan:
        spec = argument_spec(inputs)
        guard = self._guard if self._guard is not _UNPREPARED else self._prepare_guard()
        if guard is not None:
            spec = (*spec[:4], guard.key(tuple(inputs), spec[0]))
        return self._plans.get(spec) or self._compile(spec)

    def _prepare_guard(self) -> AttributeGuard | None:
        """The attribute guard of the graph, made at the first call (see `attribute_guard`):
        the inlined graph plans are then compiled from."""
        guard = None
        if self.optimize:
            from ts_passes import inline_calls

            inlined = self.graph.copy()
            inline_calls(inlined)
            guard = AttributeGuard.for_graph(inlined)
            if guard is not None:
                self._inlined = inlined
        self._guard = guard
        return guard

    def graph_for(self, *inputs: Any) -> Graph:
        """The optimized graph a call with these inputs runs."""
        return self.plan_for(*inputs).graph

    def last_executed_optimized_graph(self) -> Graph | None:
        return None if self._last is None else self._last.graph

    def debug_state(self) -> list[ExecutionPlan]:
        """Every compiled plan, in compile order."""
        return list(self._plans.values())

    def _reason(self, spec: tuple) -> str:
        if not self._plans:
            return "first call"
        previous = next(reversed(self._plans))
        changes = []
        if previous[0] != spec[0]:
            changes.append(f"grad mode {'on' if spec[0] else 'off'}")
        if previous[1] != spec[1]:
            changes.append(f"fuser {spec[1]}")
        if previous[2] != spec[2]:
            changes.append("a device came into use")
        for i, (a, b) in enumerate(zip(previous[3], spec[3], strict=False)):
            # with grad mode switched, requires_grad flags differ as a consequence only
            if a != b and (
                previous[0] == spec[0] or _spec_without_grad(a) != _spec_without_grad(b)
            ):
                changes.append(f"input {i} changed")
        if previous[4] != spec[4]:
            changes.append("attributes read changed")
        return "new argument spec: " + (", ".join(changes) or "different inputs")

    def _compile(self, spec: tuple) -> ExecutionPlan:
        from ts_passes import progress

        with self._lock:
            plan = self._plans.get(spec)
            if plan is not None:
                return plan
            with progress.compiling(f"execution plan for {self.name}"):
                return self._compile_locked(spec)

    def _compile_locked(self, spec: tuple) -> ExecutionPlan:
        """Compile the plan for `spec` (the executor's lock held)."""
        from ts_passes import progress

        reason = self._reason(spec)
        grad_enabled, _, _, input_specs, attribute_specs = spec
        graph = (self._inlined or self.graph).copy()
        if len(input_specs) != len(graph.inputs):
            from .function import ArgumentCountError

            raise ArgumentCountError(
                f"{self.name} takes {len(graph.inputs)} inputs but {len(input_specs)} were given"
            )
        for v, s in zip(graph.inputs, input_specs, strict=True):
            v.set_type(_specialize(v.type, s))
        specialized: set[Any] = set()
        if attribute_specs and isinstance(self._guard, AttributeGuard):
            if self._guard.seen(attribute_specs):
                log.info(
                    "%s: the settings it reads keep changing; plans from now on read them at "
                    "run time",
                    self.name,
                )
            specialized = self._guard.specialize(graph, attribute_specs)
        requires_grad = grad_enabled and (
            _needs_grad(input_specs)
            or _needs_grad(attribute_specs)
            or _may_create_grad(graph, specialized)
        )
        if self.optimize:
            self.optimizer(graph, requires_grad=requires_grad, grad_enabled=grad_enabled)
        progress.stage("interpreter code")
        # With no way for a gradient to arise, autograd-recording kernels would only
        # check and find nothing: compile the plan with the plain kernels.
        code = Code(graph, grad_enabled=requires_grad, resolver=self.resolver, name=self.name)
        plan = ExecutionPlan(spec, graph, code, reason)
        plan.run = code.fn if not code.is_async else (lambda *args: run_code(code, *args))
        self._plans[spec] = plan
        self.compiles += 1
        ExecutorStats.compiles += 1
        log.info(
            "compiled plan %d of %s (%s): %s",
            len(self._plans),
            self.name,
            describe_spec(spec),
            reason,
        )
        return plan


def _may_create_grad(graph: Graph, specialized: set[Any] = frozenset()) -> bool:  # type: ignore[assignment]
    """Whether tensors requiring grad can appear other than through the inputs: attributes
    read from objects (module parameters) other than the reads the plan specialized (whose
    requires_grad is in its key) and objects themselves, calls into other code, or tensors
    created with a `requires_grad` argument (calls: operators tagged `Tag.calls`)."""
    for n in graph.all_nodes():
        if n.kind is prim.GetAttr:
            if n in specialized or isinstance(n.output().type, ClassType):
                continue
            return True
        if Tag.calls in registry.tags_of(n):
            return True
        if n.kind.startswith("aten::"):
            schema = n.maybe_schema()
            if schema is not None and any(a.name == "requires_grad" for a in schema.arguments):
                return True
    return False


def _needs_grad(specs: Any) -> bool:
    for s in specs:
        if isinstance(s, tuple):
            if _is_tensor_spec(s):
                if s[2]:
                    return True
            elif _needs_grad(s):
                return True
    return False
