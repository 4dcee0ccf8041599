"""`ProfilingGraphExecutor`: profile the first runs, then specialize behind guards, as
PyTorch's `profiling_graph_executor_impl.cpp`.

The first call optimizes a copy of the graph without tensor types and
instruments it (`ts_passes.prepare_for_profiling`); the first
`num_profiled_runs` calls (default 1) run it, recording at every
`prim::profile` the merged type of what passed (`ProfilingRecord`). The
next call optimizes the plan from those types
(`ts_passes.optimize_profiled_graph`), as PyTorch's does, so an executor
that only ever runs its profiled runs (a fallback function taken once)
never pays for optimizing:
guards where nothing derives a type, each becoming a `prim::BailOut`;
fusion groups behind a `prim::TypeCheck` with a fallback function; the
passes that use the checked types. Later calls run that plan:

- a failing `prim::BailOut` resumes the rest of the computation in its
  bailout graph, built from the `prim::BailoutTemplate` on its first use and
  run by an executor of its own (so it is profiled and optimized in turn);
- a failing `prim::TypeCheck` calls the group's fallback function, also an
  executor of its own;
- after `reprofile_after` bailouts and fallbacks (default 2) the executor
  profiles again: the record keeps merging, so the next plan leaves
  unchecked what varied, and stops bailing out for it;
- each re-profile, and each level of bailout or fallback executors, spends
  one unit of the bailout depth (default 20, PyTorch's); with none left, the
  ArgumentSpec `GraphExecutor` takes over (no profiling, rank-specialized
  plans, fusion with kernels per shape).

One profile and plan is kept per grad mode, fuser choice and device
dispatch state (the ArgumentSpec executor's global keys), so switching
`no_grad` on and off does not bail out. Bailouts, fallbacks and re-profiles
are logged (logger `ts_runtime.profiling_executor`) with their reason and
counted (`ProfilingStats`, and per executor); `debug_state()` shows them.

Choosing the executor: `set_profiling_executor(True)` (also
`tsjit.jit.set_profiling_executor` and `torch._C._jit_set_profiling_executor`
through the facade), or `TS_JIT_PROFILING_EXECUTOR=1`, read when a function
first runs. The ArgumentSpec executor is the default.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ts_ir import FunctionType, Graph, TensorType, TupleType, prim

from .autograd.grad_mode import GRAD_MODE
from .devices import ACTIVE as DEVICES_ACTIVE
from .executor import ExecutorStats, GraphExecutor, _may_create_grad
from .fusion import FUSER_OVERRIDE, fusion_requested
from .guards import BailOutSignal, describe_value
from .interpreter.code import Code
from .interpreter.state import run_code
from .profiling_record import ProfilingRecord

log = logging.getLogger("ts_runtime.profiling_executor")

ENV = "TS_JIT_PROFILING_EXECUTOR"
DEFAULT_NUM_PROFILED_RUNS = 1
DEFAULT_BAILOUT_DEPTH = 20
DEFAULT_REPROFILE_AFTER = 2
MAX_EVENTS = 100


# ---------------------------------------------------------------------------
# settings


class _Settings:
    enabled: bool | None = None  # None: TS_JIT_PROFILING_EXECUTOR decides
    num_profiled_runs = DEFAULT_NUM_PROFILED_RUNS
    bailout_depth = DEFAULT_BAILOUT_DEPTH
    reprofile_after = DEFAULT_REPROFILE_AFTER


SETTINGS = _Settings()


def profiling_executor_enabled() -> bool:
    """Whether functions that first run now get the profiling executor."""
    if SETTINGS.enabled is not None:
        return SETTINGS.enabled
    return os.environ.get(ENV, "").strip().lower() in ("1", "true", "yes", "on")


def set_profiling_executor(enabled: bool) -> bool:
    """Choose the profiling executor (True) or the ArgumentSpec one (False) for functions that
    have not run yet; returns the previous choice (as `torch._C._jit_set_profiling_executor`)."""
    previous = profiling_executor_enabled()
    SETTINGS.enabled = bool(enabled)
    return previous


def set_num_profiled_runs(runs: int) -> int:
    """How many runs profile before a plan is optimized (at least 1); returns the previous."""
    if runs < 1:
        raise ValueError(f"the number of profiled runs must be at least 1, got {runs}")
    previous, SETTINGS.num_profiled_runs = SETTINGS.num_profiled_runs, int(runs)
    return previous


def get_num_profiled_runs() -> int:
    return SETTINGS.num_profiled_runs


def set_bailout_depth(depth: int) -> int:
    """How many times a function may re-specialize (re-profiles, and nested bailout and
    fallback executors) before the ArgumentSpec executor takes over; returns the previous."""
    if depth < 0:
        raise ValueError(f"the bailout depth cannot be negative, got {depth}")
    previous, SETTINGS.bailout_depth = SETTINGS.bailout_depth, int(depth)
    return previous


def set_reprofile_after(count: int) -> int:
    """After how many bailouts and fallbacks a plan is profiled again; returns the previous."""
    if count < 1:
        raise ValueError(f"a plan needs at least 1 bailout before it re-profiles, got {count}")
    previous, SETTINGS.reprofile_after = SETTINGS.reprofile_after, int(count)
    return previous


class ProfilingStats:
    """Counts across all profiling executors (tests and benchmarks read these)."""

    profiled_runs = 0
    optimizations = 0
    bailouts = 0
    fallbacks = 0
    reprofiles = 0


# ---------------------------------------------------------------------------
# plans and what happened to them


@dataclass
class ProfilingEvent:
    """A bailout, fallback, re-profile or optimization, and why."""

    kind: str  # "optimized", "bailout", "fallback", "reprofile", "argument spec executor"
    reason: str

    def __str__(self) -> str:
        return f"{self.kind}: {self.reason}"


@dataclass
class ProfilingPlan:
    """A graph optimized from profiles, its Code, and what became of its checks."""

    graph: Graph
    code: Code
    reason: str
    requires_grad: bool
    template: Graph | None = None
    runs: int = 0
    bailouts: int = 0
    fallbacks: int = 0
    expected: dict[int, Any] = field(default_factory=dict)  # bailout index → checked type
    bailout_executors: dict[int, ProfilingGraphExecutor] = field(default_factory=dict)
    fallback_graphs: dict[str, Graph] = field(default_factory=dict)
    fallback_executors: dict[str, ProfilingGraphExecutor] = field(default_factory=dict)
    run: Callable[..., Any] = field(repr=False, default=None)  # type: ignore[assignment]


@dataclass
class ProfilingDebugState:
    """What `ProfilingGraphExecutor.debug_state()` shows: the plans, what happened, counts, and
    the executors of bailout graphs and fallback functions by name."""

    plans: list[ProfilingPlan]
    events: list[ProfilingEvent]
    profiled_runs: int
    bailouts: int
    fallbacks: int
    reprofiles: int
    nested: dict[str, ProfilingDebugState]

    def __str__(self) -> str:
        lines = [
            f"{len(self.plans)} plan(s), {self.profiled_runs} profiled run(s), "
            f"{self.bailouts} bailout(s), {self.fallbacks} fallback(s), "
            f"{self.reprofiles} re-profile(s)"
        ]
        lines += [f"  {e}" for e in self.events]
        for name, state in self.nested.items():
            lines.append(f"{name}: " + str(state).replace("\n", "\n  "))
        return "\n".join(lines)


class _State:
    """The profile and plan for one grad mode, fuser choice and device dispatch state."""

    __slots__ = ("depth", "grad_enabled", "plan", "profiling_run", "record", "remaining", "simple")

    def __init__(self, grad_enabled: bool, depth: int) -> None:
        self.grad_enabled = grad_enabled
        self.depth = depth
        self.record: ProfilingRecord | None = None
        self.profiling_run: Callable[..., Any] | None = None
        self.remaining = SETTINGS.num_profiled_runs
        self.plan: ProfilingPlan | None = None
        self.simple: GraphExecutor | None = None


# ---------------------------------------------------------------------------
# the executor


class ProfilingGraphExecutor:
    """Runs a graph: profiles, then a plan specialized behind guards (see the module docstring)."""

    def __init__(
        self,
        graph: Graph,
        name: str = "graph",
        *,
        resolver: Callable[[str], Any] | None = None,
        depth: int | None = None,
    ) -> None:
        self.graph = graph
        self.name = name
        self.resolver = resolver
        self.depth = SETTINGS.bailout_depth if depth is None else depth
        self._states: dict[tuple, _State] = {}
        self._last: Graph | None = None
        self._lock = threading.RLock()
        self._arity = len(graph.inputs)
        self.compiles = 0
        self.profiled_runs = 0
        self.bailouts = 0
        self.fallbacks = 0
        self.reprofiles = 0
        self.events: list[ProfilingEvent] = []

    # -- running

    def run(self, *inputs: Any) -> Any:
        override = FUSER_OVERRIDE
        enabled = GRAD_MODE.enabled
        key = (enabled, override[-1] if override else None, DEVICES_ACTIVE[0])
        state = self._states.get(key)
        if state is None:
            state = self._new_state(key)
        plan = state.plan
        if plan is not None and len(inputs) == self._arity:
            plan.runs += 1
            self._last = plan.graph
            try:
                return plan.run(*inputs)
            except BailOutSignal as signal:
                if signal.graph is not plan.graph:
                    raise
                return self._bail_out(state, plan, signal)
        if state.simple is not None:
            return state.simple.run(*inputs)
        if state.remaining <= 0 and state.record is not None:
            self._check_arity(inputs)
            self._plan(state)  # profiled enough: optimize now, then run the plan
            return self.run(*inputs)
        return self._profiling_run(state, inputs)

    __call__ = run

    def run_for(self, plan_kept: bool, inputs: tuple[Any, ...]) -> Any:
        """Run for a plan of another executor: as usual while that plan is kept, else without
        optimizing (the plan is being profiled again: an optimization here would be wasted)."""
        if plan_kept:
            return self.run(*inputs)
        state = self._state_for_now()
        if state.plan is None and state.simple is None:
            return self._profiling_run(state, inputs)
        return self.run(*inputs)

    def _new_state(self, key: tuple) -> _State:
        with self._lock:
            state = self._states.get(key)
            if state is None:
                state = self._states[key] = _State(key[0], self.depth)
                if state.depth <= 0:
                    self._use_simple(state, "no bailout depth left")
            return state

    def _check_arity(self, inputs: tuple[Any, ...]) -> None:
        if len(inputs) != self._arity:
            from .function import ArgumentCountError

            raise ArgumentCountError(
                f"{self.name} takes {self._arity} inputs but {len(inputs)} were given"
            )

    def _profiling_run(self, state: _State, inputs: tuple[Any, ...]) -> Any:
        self._check_arity(inputs)
        if state.profiling_run is None:
            self._instrument(state)
        assert state.profiling_run is not None
        result = state.profiling_run(*inputs)
        with self._lock:
            record = state.record
            assert record is not None
            record.runs += 1
            self.profiled_runs += 1
            ProfilingStats.profiled_runs += 1
            state.remaining -= 1
        return result

    def _plan(self, state: _State) -> None:
        """Optimize the plan of a state that has profiled enough, unless another thread has."""
        with self._lock:
            if state.plan is None and state.simple is None:
                self._optimize(state)

    # -- profiling and optimizing

    def _instrument(self, state: _State) -> None:
        from ts_passes import prepare_for_profiling, progress

        with self._lock:
            if state.profiling_run is not None:
                return
            with progress.compiling(f"profiling graph for {self.name}"):
                graph = self.graph.copy()
                prepare_for_profiling(graph)
                record = ProfilingRecord(graph)
                with record.building():
                    code = Code(
                        graph,
                        grad_enabled=state.grad_enabled,
                        resolver=self.resolver,
                        name=self.name,
                    )
            state.record = record
            state.profiling_run = (
                code.fn if not code.is_async else (lambda *args: run_code(code, *args))
            )
            self._last = graph
            log.debug("instrumented %s for profiling", self.name)

    def _optimize(self, state: _State) -> None:
        """Optimize the plan from the record (the executor's lock held)."""
        from ts_passes import bailout_template, optimize_profiled_graph, progress

        record = state.record
        assert record is not None
        with progress.compiling(f"execution plan for {self.name}"):
            record.annotate()
            graph = record.graph.copy()
            # whether gradients may arise decides about fusion (as for the ArgumentSpec executor)
            requires_grad = state.grad_enabled and (
                record.requires_grad_seen() or _may_create_grad(graph)
            )
            optimize_profiled_graph(graph, requires_grad=requires_grad, fuse=fusion_requested())
            autograd = state.grad_enabled and (requires_grad or _unchecked_inputs(graph))
            plan = ProfilingPlan(
                graph=graph,
                code=None,  # type: ignore[arg-type]
                reason=self._plan_reason(record),
                requires_grad=autograd,
                template=bailout_template(graph),
            )
            for node in graph.all_nodes():
                if node.kind is prim.BailOut:
                    plan.expected[node.i("index")] = node.output().type
            plan.fallback_graphs = _replace_fallback_graphs(graph)
            progress.stage("interpreter code")
            code = Code(
                graph,
                grad_enabled=autograd,
                resolver=self._plan_resolver(state, plan),
                name=self.name,
            )
            plan.code = code
            plan.run = code.fn if not code.is_async else (lambda *args: run_code(code, *args))
        state.plan = plan
        self._last = graph
        self.compiles += 1
        ExecutorStats.compiles += 1
        ProfilingStats.optimizations += 1
        self._event(state, "optimized", plan.reason, logging.INFO)

    def _plan_reason(self, record: ProfilingRecord) -> str:
        runs = f"{record.runs} profiled run{'s' if record.runs != 1 else ''}"
        return f"{runs} ({self.reprofiles} re-profile{'s' if self.reprofiles != 1 else ''})"

    def _plan_resolver(self, state: _State, plan: ProfilingPlan) -> Callable[[str], Any]:
        def resolve(name: str) -> Any:
            if name in plan.fallback_graphs:
                return self._fallback_function(state, plan, name)
            if self.resolver is None:
                from .function import UnknownFunctionError

                raise UnknownFunctionError(f"function {name!r} is not defined for {self.name}")
            return self.resolver(name)

        return resolve

    # -- bailouts, fallbacks, re-profiling

    def _nested(self, state: _State, graph: Graph, name: str) -> ProfilingGraphExecutor:
        return ProfilingGraphExecutor(graph, name, resolver=self.resolver, depth=state.depth - 1)

    def _bail_out(self, state: _State, plan: ProfilingPlan, signal: BailOutSignal) -> Any:
        index = signal.index
        with self._lock:
            executor = plan.bailout_executors.get(index)
            if executor is None:
                from ts_passes import build_bailout_graph

                assert plan.template is not None
                graph = build_bailout_graph(plan.template, index)
                executor = self._nested(state, graph, f"{self.name}.bailout_{index}")
                plan.bailout_executors[index] = executor
            plan.bailouts += 1
            self.bailouts += 1
            ProfilingStats.bailouts += 1
            reason = (
                f"guard {index} expected {plan.expected.get(index)} but got "
                f"{describe_value(signal.values[0])}"
            )
            self._event(state, "bailout", reason, logging.INFO)
            self._maybe_reprofile(state, plan)
        return executor.run_for(state.plan is plan, signal.values)

    def _fallback_function(
        self, state: _State, plan: ProfilingPlan, name: str
    ) -> Callable[..., Any]:
        def call(*args: Any) -> Any:
            with self._lock:
                executor = plan.fallback_executors.get(name)
                if executor is None:
                    executor = self._nested(
                        state, plan.fallback_graphs[name], f"{self.name}.{name}"
                    )
                    plan.fallback_executors[name] = executor
                plan.fallbacks += 1
                self.fallbacks += 1
                ProfilingStats.fallbacks += 1
                got = ", ".join(describe_value(a) for a in args if hasattr(a, "_data"))
                self._event(
                    state, "fallback", f"{name}: a type check failed for ({got})", logging.INFO
                )
                self._maybe_reprofile(state, plan)
            return executor.run_for(state.plan is plan, args)

        return call

    def _maybe_reprofile(self, state: _State, plan: ProfilingPlan) -> None:
        """After enough bailouts and fallbacks, profile again (the executor's lock held)."""
        if state.plan is not plan or plan.bailouts + plan.fallbacks < SETTINGS.reprofile_after:
            return
        state.plan = None
        state.depth -= 1
        self.reprofiles += 1
        ProfilingStats.reprofiles += 1
        reason = (
            f"the plan bailed out {plan.bailouts} and fell back {plan.fallbacks} times in "
            f"{plan.runs} runs"
        )
        if state.depth <= 0:
            self._use_simple(state, reason + "; no bailout depth left")
            return
        state.remaining = SETTINGS.num_profiled_runs
        self._event(state, "reprofile", reason, logging.INFO)

    def _use_simple(self, state: _State, reason: str) -> None:
        state.simple = GraphExecutor(self.graph, self.name, resolver=self.resolver)
        self._event(state, "argument spec executor", reason, logging.INFO)

    def _event(self, state: _State, kind: str, reason: str, level: int) -> None:
        if len(self.events) >= MAX_EVENTS:
            del self.events[: MAX_EVENTS // 2]
        self.events.append(ProfilingEvent(kind, reason))
        grad = "on" if state.grad_enabled else "off"
        log.log(level, "%s (grad %s): %s: %s", self.name, grad, kind, reason)

    # -- inspection

    def _state_for_now(self) -> _State:
        override = FUSER_OVERRIDE
        key = (GRAD_MODE.enabled, override[-1] if override else None, DEVICES_ACTIVE[0])
        return self._states.get(key) or self._new_state(key)

    def plan_for(self, *inputs: Any) -> Any:
        """The plan calls in the current mode run, profiling with these inputs first if no plan
        is optimized yet (running the function, as PyTorch's `graph_for` does)."""
        state = self._state_for_now()
        while state.plan is None and state.simple is None:
            if state.remaining <= 0 and state.record is not None:
                self._plan(state)
            else:
                self._profiling_run(state, inputs)
        if state.simple is not None:
            return state.simple.plan_for(*inputs)
        return state.plan

    def graph_for(self, *inputs: Any) -> Graph:
        """The optimized graph calls with these inputs run (see `plan_for`)."""
        return self.plan_for(*inputs).graph

    def last_executed_optimized_graph(self) -> Graph | None:
        return self._last

    def debug_state(self) -> ProfilingDebugState:
        plans = [s.plan for s in self._states.values() if s.plan is not None]
        nested: dict[str, ProfilingDebugState] = {}
        for plan in plans:
            for executor in (*plan.bailout_executors.values(), *plan.fallback_executors.values()):
                nested[executor.name] = executor.debug_state()
        return ProfilingDebugState(
            plans=plans,
            events=list(self.events),
            profiled_runs=self.profiled_runs,
            bailouts=self.bailouts,
            fallbacks=self.fallbacks,
            reprofiles=self.reprofiles,
            nested=nested,
        )


# ---------------------------------------------------------------------------
# helpers


_CHECKS = frozenset({prim.BailOut, prim.TypeCheck, prim.FallbackGraph})


def _unchecked_inputs(graph: Graph) -> bool:
    """Whether a tensor may enter the plan without a check of its requires_grad: an input
    holding tensors other than one `Tensor`, or a `Tensor` input read by anything but checks
    (bailouts, type checks and fallbacks take care of what they pass on)."""
    for v in graph.inputs:
        t = v.type
        if isinstance(t, TensorType):
            if any(u.user.kind not in _CHECKS for u in v.uses):
                return True
        elif t.contains_tensor():
            return True
    return False


def _replace_fallback_graphs(graph: Graph) -> dict[str, Graph]:
    """Each `prim::FallbackGraph` becomes a call of a fallback function (whose graph returns a
    tuple), as PyTorch's `replaceFallbackGraphWithFallbackFunction`; the functions' graphs by
    name."""
    functions: dict[str, Graph] = {}
    for node in list(graph.all_nodes()):
        if node.kind is not prim.FallbackGraph:
            continue
        name = f"fallback_function_{len(functions)}"
        body = node.g("Subgraph").copy()
        results = list(body.outputs)
        packed = body.create_tuple(results)
        body.append_node(packed)
        for i in reversed(range(len(results))):
            body.erase_output(i)
        body.register_output(packed.output())
        functions[name] = body
        tuple_type = packed.output().type
        assert isinstance(tuple_type, TupleType)
        with graph.inserting_before(node):
            const = graph.create(prim.Constant)
            const.s_("name", name)
            const.i_("fallback", 1)
            const.output().set_type(FunctionType(function_name=name))
            graph.insert_node(const)
            call = graph.create(prim.CallFunction, [const.output(), *node.inputs])
            call.output().set_type(tuple_type)
            graph.insert_node(call)
            unpack = graph.insert_node(graph.create_tuple_unpack(call.output()))
        for old, new in zip(node.outputs, unpack.outputs, strict=True):
            old.replace_all_uses_with(new)
        node.destroy()
    return functions
