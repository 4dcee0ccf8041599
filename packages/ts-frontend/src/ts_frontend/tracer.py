"""Tracing: run a function on example inputs and record the operators it calls.

The tracing state maps each runtime tensor (by identity) to the IR value
that computes it. While tracing, eager dispatch hands every operator call to
the state (`ts_runtime.ops.dispatch.TRACE_HOOK`): the state runs the
operator, then appends a node whose inputs are the values of the argument
tensors (Python numbers become constants) and maps the results to the
node's outputs. A tensor the trace has never seen (a global, say) becomes a
constant. Calls of scripted functions are inlined with their control flow;
everything else Python does is not recorded, so a Python number computed
from a tensor (`int(x.sum())`) is baked into the trace as a constant, with a
`TracerWarning`. Modules are traced with their parameters and buffers read
from `self` by `prim::GetAttr`.

    traced = trace(fn, (x, y))              # a ScriptFunction
    traced = trace(module, (x,))            # a ts_runtime.ScriptModule
"""

from __future__ import annotations

import inspect
import threading
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import ts_runtime
from ts_ir import (
    ClassType,
    Graph,
    ListType,
    OptionalType,
    TensorType,
    TorchScriptError,
    TupleType,
    Type,
    Value,
)
from ts_runtime.ops import dispatch
from ts_schema import Argument, FunctionSchema

from .cleanup import constant_pooling, eliminate_dead_code
from .tracing_state import _STATE, current_tracing_state


class TracerWarning(Warning):
    """A trace may not generalize: a value computed from a tensor was recorded as a constant."""


class TracingCheckError(TorchScriptError):
    """Running the trace again did not reproduce what the Python function computes."""


class TracingState:
    """The graph being recorded and the values of the tensors seen so far."""

    def __init__(self) -> None:
        self.graph = Graph()
        self.values: dict[int, Value] = {}
        self.keep_alive: list[Any] = []
        self.warned: set[str] = set()
        self.depth = 0

    # -- values

    def set_value(self, tensor: Any, value: Value) -> None:
        self.values[id(tensor)] = value
        self.keep_alive.append(tensor)

    def is_traced(self, obj: Any) -> bool:
        return id(obj) in self.values

    def value_of(self, obj: Any, expected: Type | None = None) -> Value:
        """The IR value of a runtime value: a traced tensor's value, or a constant."""
        g = self.graph
        if isinstance(obj, ts_runtime.Tensor):
            v = self.values.get(id(obj))
            if v is None:
                v = g.insert_constant(obj)
                self.set_value(obj, v)
            return v
        if isinstance(obj, (list, tuple)) and any(isinstance(x, ts_runtime.Tensor) for x in obj):
            element = expected.element if isinstance(expected, ListType) else None
            items = [self.value_of(x, element) for x in obj]
            if isinstance(obj, tuple) and not isinstance(expected, ListType):
                return g.insert_node(g.create_tuple(items)).output()
            elem_type = element or (
                OptionalType(TensorType.get()) if any(x is None for x in obj) else TensorType.get()
            )
            return g.insert_node(g.create_list(elem_type, items)).output()
        if isinstance(obj, list) and not obj and isinstance(expected, ListType):
            return g.insert_node(g.create_list(expected.element, [])).output()
        if isinstance(obj, (ts_runtime.dtype,)):
            return g.insert_constant(int(obj))
        if isinstance(obj, ts_runtime.Size):
            obj = list(obj)
        if isinstance(obj, tuple) and isinstance(expected, ListType):
            obj = list(obj)
        return g.insert_constant(obj, expected if isinstance(expected, ListType) else None)

    def warn(self, message: str) -> None:
        if message in self.warned:
            return
        self.warned.add(message)
        warnings.warn(TracerWarning(message), stacklevel=3)

    # -- recording operators

    def record(self, op: Any, bound: list[Any]) -> Any:
        """The trace hook: run the operator, then record it."""
        previous = dispatch.TRACE_HOOK[0]
        dispatch.TRACE_HOOK[0] = None
        try:
            result = op.impl(*bound)
        finally:
            dispatch.TRACE_HOOK[0] = previous
        schema = op.schema
        g = self.graph
        inputs = []
        for i, arg in enumerate(bound):
            formal = schema.arguments[i] if i < len(schema.arguments) else None
            inputs.append(self.value_of(arg, formal.type if formal is not None else None))
        node = g.create(schema.name, inputs, 0)
        node.schema_cache = op
        g.insert_node(node)
        results = result if len(schema.returns) > 1 else (result,)
        for r, formal in zip(results, schema.returns, strict=False):
            out = node.add_output(_runtime_type(r, formal.type))
            self._map_output(r, out)
        return result

    def _map_output(self, r: Any, out: Value) -> None:
        if isinstance(r, ts_runtime.Tensor):
            self.set_value(r, out)
        elif (
            isinstance(r, (list, tuple)) and r and all(isinstance(x, ts_runtime.Tensor) for x in r)
        ):
            g = self.graph
            if isinstance(out.type, ListType):
                unpack = g.insert_node(g.create_list_unpack(out, len(r)))
            else:
                unpack = g.insert_node(g.create_tuple_unpack(out))
            for x, v in zip(r, unpack.outputs, strict=True):
                self.set_value(x, v)

    def call_script_function(self, fn: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """A scripted function called from traced code: its graph is inlined, control flow kept."""
        from .inliner import inline_calls

        bound = fn.bind(args, kwargs)
        previous = dispatch.TRACE_HOOK[0]
        dispatch.TRACE_HOOK[0] = None
        _STATE.state = None
        try:
            result = fn.executor.run(*bound)
        finally:
            _STATE.state = self
            dispatch.TRACE_HOOK[0] = previous
        callee = fn.graph.copy()
        inline_calls(callee)
        g = self.graph
        inputs = [self.value_of(a, v.type) for a, v in zip(bound, callee.inputs, strict=True)]
        env: dict[Value, Value] = dict(zip(callee.inputs, inputs, strict=True))
        for node in callee.nodes():
            clone = g.create_clone(node, lambda v: env[v])
            g.insert_node(clone)
            for a, b in zip(node.outputs, clone.outputs, strict=True):
                env[a] = b
        out = env[callee.outputs[0]]
        if isinstance(result, tuple) and isinstance(out.type, TupleType):
            unpack = g.insert_node(g.create_tuple_unpack(out))
            for r, v in zip(result, unpack.outputs, strict=True):
                if isinstance(r, ts_runtime.Tensor):
                    self.set_value(r, v)
        else:
            self._map_output(result, out)
        return result


def _runtime_type(value: Any, declared: Type) -> Type:
    if isinstance(value, ts_runtime.Tensor):
        return TensorType.get()
    if value is None and isinstance(declared, OptionalType):
        return declared
    return declared


# -- warnings for values that leave the trace


_CONVERSIONS = ("item", "tolist", "__int__", "__float__", "__bool__", "__index__")


def _warning_wrapper(name: str, original: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        state = current_tracing_state()
        if state is not None and state.is_traced(self) and state.depth == 0:
            state.warn(
                f"Converting a tensor to a Python value ({name}) might cause the trace to be "
                "incorrect: the value is recorded as a constant and will not change with the "
                "inputs"
            )
            state.depth += 1
            try:
                return original(self, *args, **kwargs)
            finally:
                state.depth -= 1
        return original(self, *args, **kwargs)

    return wrapper


def _index_steps(self: Any, index: Any) -> Any:
    """`self[index]` as recorded operators (as the script frontend lowers it), or None."""
    items = index if isinstance(index, tuple) else (index,)
    if sum(1 for i in items if i is Ellipsis) > 1:
        return None
    split = next((k for k, i in enumerate(items) if i is Ellipsis), len(items))
    x = self
    tensors: list[Any] = []
    dim = 0
    call = dispatch.call
    for item in items[:split]:
        if isinstance(item, bool):
            return None
        if isinstance(item, int):
            x = call("aten::select", x, dim, item)
        elif isinstance(item, slice):
            x = call(
                "aten::slice", x, dim, item.start, item.stop, 1 if item.step is None else item.step
            )
            tensors.append(None)
            dim += 1
        elif item is None:
            x = call("aten::unsqueeze", x, dim)
            tensors.append(None)
            dim += 1
        elif isinstance(item, ts_runtime.Tensor):
            tensors.append(item)
            dim += 1
        else:
            return None
    dim = -1
    for item in reversed(items[split + 1 :]):
        if isinstance(item, bool) or isinstance(item, ts_runtime.Tensor):
            return None
        if isinstance(item, int):
            x = call("aten::select", x, dim, item)
        elif isinstance(item, slice):
            x = call(
                "aten::slice", x, dim, item.start, item.stop, 1 if item.step is None else item.step
            )
            dim -= 1
        elif item is None:
            x = call("aten::unsqueeze", x, dim if dim == -1 else dim + 1)
            dim -= 1
        else:
            return None
    while tensors and tensors[-1] is None:
        tensors.pop()
    if tensors:
        x = call("aten::index", x, tensors)
    if x is self:
        x = call("aten::alias", self)
    return x


def _traced_getitem(original: Callable[..., Any]) -> Callable[..., Any]:
    def getitem(self: Any, index: Any) -> Any:
        state = current_tracing_state()
        if state is not None:
            result = _index_steps(self, index)
            if result is not None:
                return result
        return original(self, index)

    return getitem


def _traced_setitem(original: Callable[..., Any]) -> Callable[..., Any]:
    """`x[i] = v` on a traced tensor: recorded as a copy (or fill) into the view `x[i]`."""

    def setitem(self: Any, index: Any, value: Any) -> None:
        state = current_tracing_state()
        items = index if isinstance(index, tuple) else (index,)
        advanced = any(isinstance(i, (ts_runtime.Tensor, list)) for i in items)
        if state is None or not state.is_traced(self) or advanced:
            if state is not None and state.is_traced(self):
                state.warn("assignment with tensor indices is not recorded by the tracer")
            original(self, index, value)
            return
        view = self[index]
        if isinstance(value, ts_runtime.Tensor):
            dispatch.call("aten::copy_", view, value)
        else:
            dispatch.call("aten::fill_", view, value)

    return setitem


class _Patched:
    """Installs the trace hook and the conversion warnings for the duration of a trace."""

    _lock = threading.Lock()

    def __init__(self, state: TracingState) -> None:
        self.state = state
        self.saved: dict[str, Any] = {}

    def __enter__(self) -> TracingState:
        self._lock.acquire()
        cls = ts_runtime.Tensor
        for name in _CONVERSIONS:
            original = getattr(cls, name, None)
            if original is not None:
                self.saved[name] = original
                setattr(cls, name, _warning_wrapper(name, original))
        for name, wrap in (("__setitem__", _traced_setitem), ("__getitem__", _traced_getitem)):
            self.saved[name] = getattr(cls, name)
            setattr(cls, name, wrap(self.saved[name]))
        self.previous_hook = dispatch.TRACE_HOOK[0]
        dispatch.TRACE_HOOK[0] = self.state.record
        _STATE.state = self.state
        return self.state

    def __exit__(self, *exc: Any) -> None:
        dispatch.TRACE_HOOK[0] = self.previous_hook
        _STATE.state = None
        cls = ts_runtime.Tensor
        for name, original in self.saved.items():
            setattr(cls, name, original)
        self._lock.release()


# -- the entry point


def _as_tuple(example_inputs: Any) -> tuple[Any, ...]:
    if isinstance(example_inputs, tuple):
        return example_inputs
    if isinstance(example_inputs, list):
        return tuple(example_inputs)
    return (example_inputs,)


def _input_type(value: Any) -> Type:
    if isinstance(value, ts_runtime.Tensor):
        return TensorType.get()
    if isinstance(value, tuple):
        return TupleType([_input_type(v) for v in value])
    if isinstance(value, list) and value and all(isinstance(v, ts_runtime.Tensor) for v in value):
        return ListType(TensorType.get())
    raise TypeError(
        f"trace() inputs must be tensors, or tuples and lists of tensors; got "
        f"{type(value).__name__}"
    )


def _bind_input(state: TracingState, value: Any, v: Value) -> None:
    g = state.graph
    if isinstance(value, ts_runtime.Tensor):
        state.set_value(value, v)
    elif isinstance(value, tuple):
        unpack = g.insert_node(g.create_tuple_unpack(v))
        for x, out in zip(value, unpack.outputs, strict=True):
            _bind_input(state, x, out)
    elif isinstance(value, list):
        unpack = g.insert_node(g.create_list_unpack(v, len(value)))
        for x, out in zip(value, unpack.outputs, strict=True):
            _bind_input(state, x, out)


def _output_value(state: TracingState, result: Any) -> Value:
    g = state.graph
    if isinstance(result, ts_runtime.Size):
        return state.value_of(list(result))
    if isinstance(result, tuple):
        items = [_output_value(state, r) for r in result]
        return g.insert_node(g.create_tuple(items)).output()
    if (
        isinstance(result, list)
        and result
        and all(isinstance(r, ts_runtime.Tensor) for r in result)
    ):
        items = [_output_value(state, r) for r in result]
        return g.insert_node(g.create_list(TensorType.get(), items)).output()
    if isinstance(result, ts_runtime.Tensor):
        return state.value_of(result)
    if not isinstance(result, (int, float, bool, str, type(None), list)):
        raise TypeError(f"trace() cannot return a value of type {type(result).__name__}")
    return state.value_of(result)


def _clone(value: Any) -> Any:
    if isinstance(value, ts_runtime.Tensor):
        return dispatch.call("aten::clone", value.detach())
    if isinstance(value, tuple):
        return tuple(_clone(v) for v in value)
    if isinstance(value, list):
        return [_clone(v) for v in value]
    return value


def _record(
    fn: Callable[..., Any], inputs: tuple[Any, ...], names: list[str], self_value: Any = None
) -> tuple[Graph, Any, TracingState]:
    state = TracingState()
    g = state.graph
    graph_inputs = []
    if self_value is not None:
        self_input = g.add_input("self", self_value[0])
        graph_inputs.append(self_input)
    for name, value in zip(names, inputs, strict=True):
        v = g.add_input(name, _input_type(value))
        graph_inputs.append(v)
    with g.inserting_before(g.block.return_node), _Patched(state):
        if self_value is not None:
            self_value[1](state, graph_inputs[0])
        for value, v in zip(inputs, graph_inputs[1 if self_value else 0 :], strict=True):
            _bind_input(state, value, v)
        result = fn(*inputs)
        g.register_output(_output_value(state, result))
    eliminate_dead_code(g)
    constant_pooling(g)
    return g, result, state


def _parameter_names(fn: Callable[..., Any], n: int) -> list[str]:
    try:
        params = [
            p.name
            for p in inspect.signature(fn).parameters.values()
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        ]
    except (TypeError, ValueError):
        params = []
    names = params[:n]
    names += [f"input{i}" for i in range(len(names), n)]
    return names


def _compare(a: Any, b: Any, path: str = "output") -> str | None:
    if isinstance(b, ts_runtime.Tensor):
        if not isinstance(a, ts_runtime.Tensor):
            return f"{path}: expected a tensor"
        x, y = a.detach().numpy(), b.detach().numpy()
        import numpy as np

        if x.shape != y.shape or x.dtype != y.dtype:
            return f"{path}: {x.dtype}{list(x.shape)} != {y.dtype}{list(y.shape)}"
        if x.dtype.kind in "fc":
            return (
                None
                if np.allclose(x, y, rtol=1e-5, atol=1e-6, equal_nan=True)
                else f"{path}: values differ"
            )
        return None if np.array_equal(x, y) else f"{path}: values differ"
    if isinstance(b, (tuple, list)):
        if not isinstance(a, (tuple, list)) or len(a) != len(b):
            return f"{path}: structure differs"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            problem = _compare(x, y, f"{path}[{i}]")
            if problem:
                return problem
        return None
    return None if a == b else f"{path}: {a!r} != {b!r}"


def _check(
    traced: Callable[..., Any], eager: Callable[..., Any], check_inputs: Sequence[Any]
) -> None:
    for inputs in check_inputs:
        args = _as_tuple(inputs)
        expected = eager(*_clone(args))
        actual = traced(*_clone(args))
        problem = _compare(actual, expected)
        if problem:
            raise TracingCheckError(
                f"the trace does not reproduce the Python function on check inputs: {problem}\n"
                "(does the function take data-dependent branches, or compute Python values "
                "from tensors?)"
            )


def trace(
    func: Any,
    example_inputs: Any = (),
    *,
    check_trace: bool = True,
    check_inputs: Sequence[Any] | None = None,
    name: str | None = None,
) -> Any:
    """Trace a function or an `nn.Module` on example inputs (see the module docstring).

    With `check_inputs`, the trace is run again on each of them and compared with
    the Python function; a difference raises `TracingCheckError`.
    """
    from .module_compiler import create_script_module
    from .script import ScriptCompiler, ScriptFunction, default_compiler

    inputs = _as_tuple(example_inputs)
    if isinstance(func, ts_runtime.nn.Module):
        module = func
        forward = module.forward
        names = _parameter_names(forward, len(inputs))
        types = ScriptCompiler(optimize=default_compiler().optimize).module_types()
        concrete = types.infer(module)
        class_type = concrete.class_type

        def bind_self(state: TracingState, self_value: Value) -> None:
            _bind_module(state, module, self_value, class_type)

        graph, _, _ = _record(forward, inputs, names, (class_type, bind_self))
        schema = FunctionSchema(
            "forward",
            "",
            [
                Argument("self", class_type),
                *[Argument(n, v.type) for n, v in zip(names, graph.inputs[1:], strict=True)],
            ],
            [Argument("", graph.outputs[0].type)],
        )
        fn = ScriptFunction(
            "forward",
            graph,
            schema=schema,
            compilation_unit=default_compiler().unit,
            optimize=default_compiler().optimize,
        )
        class_type.methods["forward"] = fn
        traced = create_script_module(module, concrete)
        checks = list(check_inputs or ()) + ([inputs] if check_trace else [])
        if checks:
            _check(traced, module, checks)
        return traced
    if not callable(func):
        raise TypeError(f"cannot trace an object of type {type(func).__name__}")
    names = _parameter_names(func, len(inputs))
    graph, _, _ = _record(func, inputs, names)
    fn_name = str(name or getattr(func, "__name__", "traced"))
    schema = FunctionSchema(
        fn_name,
        "",
        [Argument(n, v.type) for n, v in zip(names, graph.inputs, strict=True)],
        [Argument("", graph.outputs[0].type)],
    )
    compiler = default_compiler()
    traced_fn = ScriptFunction(
        fn_name, graph, schema=schema, compilation_unit=compiler.unit, optimize=compiler.optimize
    )
    checks = list(check_inputs or ()) + ([inputs] if check_trace else [])
    if checks:
        _check(traced_fn, func, checks)
    return traced_fn


def _bind_module(state: TracingState, module: Any, value: Value, class_type: ClassType) -> None:
    """Map the module's parameters and buffers (recursively) to GetAttrs of `self`."""
    g = state.graph
    for name, typ in class_type.attributes.items():
        if name in getattr(module, "_parameters", {}) or name in getattr(module, "_buffers", {}):
            tensor = getattr(module, name)
            if tensor is None:
                continue
            node = g.insert_node(g.create_get_attr(value, name, typ))
            node.output().set_debug_name(name)
            state.set_value(tensor, node.output())
        elif isinstance(typ, ClassType):
            sub = module._modules[name]
            node = g.insert_node(g.create_get_attr(value, name, typ))
            node.output().set_debug_name(f"_{name}" if name[:1].isdigit() else name)
            _bind_module(state, sub, node.output(), typ)
