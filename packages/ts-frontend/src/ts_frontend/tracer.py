"""Tracing: run a function on example inputs and record the operators it calls.

The tracing state maps each runtime tensor (by identity) to the IR value
that computes it. While tracing, eager dispatch hands every operator call to
the state (`ts_runtime.ops.dispatch.TRACE_HOOK`): the state runs the
operator, then appends a node whose inputs are the values of the argument
tensors (Python numbers become constants) and maps the results to the
node's outputs. A tensor the trace has never seen (a global, say) becomes a
constant. Calls of scripted functions are inlined with their control flow.
Modules are traced with their parameters and buffers read from `self` by
`prim::GetAttr`.

Sizes are recorded as PyTorch's tracer records them, so a trace works at
other sizes: while tracing, `x.size(0)`, `x.shape[1]`, `x.size()` and
`x.numel()` give 0-dim integer tensors computed by `aten::size` (or
`aten::numel`) and `prim::NumToTensor`; arithmetic on them is recorded like
any tensor arithmetic, and where one is passed as an int (`x.view(n, -1)`,
`torch.zeros(n, 3)`) the call records `aten::Int` of it:

    trace(lambda x: torch.zeros(x.size(0), 3), (randn(4, 2),))
    graph(%x : Tensor):
      %1 : int = prim::Constant[value=0]()
      %2 : int = aten::size(%x, %1)
      %3 : Tensor = prim::NumToTensor(%2)
      %4 : int = aten::Int(%3)
      ...
      %6 : int[] = prim::ListConstruct(%4, %5)
      %7 : Tensor = aten::zeros(%6, ...)

Everything else Python does is not recorded: a Python value computed from a
tensor (`bool(x.sum() > 0)`, `x.item()`, `float(x)`, `x.tolist()`, `len(x)`,
iterating over a tensor, `torch.tensor(...)`) is baked into the trace, and
gives a `TracerWarning` with PyTorch's message. As in PyTorch, warnings
raised inside the library's own code are ignored (see
`TracerWarning.ignore_lib_warnings`).

    traced = trace(fn, (x, y))              # a ScriptFunction
    traced = trace(module, (x,))            # a ts_runtime.ScriptModule
"""

from __future__ import annotations

import importlib
import inspect
import threading
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import ts_runtime
from ts_ir import (
    BoolType,
    ClassType,
    FloatType,
    Graph,
    IntType,
    ListType,
    NumberType,
    OptionalType,
    TensorType,
    TorchScriptError,
    TupleType,
    Type,
    Value,
    value_name_for,
)
from ts_runtime.ops import dispatch
from ts_schema import Argument, FunctionSchema, registry

from .cleanup import constant_pooling, eliminate_dead_code
from .tracing_state import _STATE, current_tracing_state

# the module, not the function `ts_runtime.tensor` that shadows it in the package
tensor_module = importlib.import_module("ts_runtime.tensor")


class TracerWarning(Warning):
    """A trace may not generalize: a value computed from a tensor was recorded as a constant."""

    @staticmethod
    def ignore_lib_warnings() -> None:
        """Ignore TracerWarnings raised in the library's own code (as PyTorch ignores those of
        `torch.*` but `torch.jit`): its shape checks convert tensors to Python values."""
        warnings.filterwarnings(
            "ignore",
            category=TracerWarning,
            module=r"(ts_runtime|ts_frontend|ts_passes|ts_ir|ts_schema|numpy)(\.|$)",
        )


TracerWarning.ignore_lib_warnings()

#: PyTorch's messages, word for word (torch/csrc/jit/frontend/tracer.cpp, torch/_tensor.py)
_PYTHON_VALUE = (
    "Converting a tensor to a {} might cause the trace to be incorrect. We can't record the "
    "data flow of Python values, so this value will be treated as a constant in the future. "
    "This means that the trace might not generalize to other inputs!"
)
_LEN_WARNING = (
    "Using len to get tensor shape might cause the trace to be incorrect. Recommended usage "
    "would be tensor.shape[0]. Passing a tensor of different shape might lead to errors or "
    "silently give incorrect results."
)
_ITER_WARNING = (
    "Iterating over a tensor might cause the trace to be incorrect. Passing a tensor of "
    "different shape won't change the number of iterations executed (and might lead to errors "
    "or silently give incorrect results)."
)
_TENSOR_WARNING = (
    "torch.tensor results are registered as constants in the trace. You can safely ignore this "
    "warning if you use this function to create tensors out of constant variables that would be "
    "the same every time you call this function. In any other case, this might cause the trace "
    "to be incorrect."
)


class TracingCheckError(TorchScriptError):
    """Running the trace again did not reproduce what the Python function computes."""


class TracingError(TorchScriptError):
    """The traced code did something a trace cannot record."""


class TracingState:
    """The graph being recorded and the values of the tensors seen so far."""

    def __init__(self) -> None:
        self.graph = Graph()
        self.values: dict[int, Value] = {}
        # the traced module and its submodules, by id: their `self` values in the graph, for
        # calls of their compiled methods (a `ScriptModule` submodule's `forward`)
        self.modules: dict[int, Value] = {}
        self.keep_alive: list[Any] = []
        # above zero while the library runs on the user's behalf (a kernel, a conversion,
        # dispatch binding arguments): sizes are then plain ints, and nothing warns
        self.depth = 0

    @property
    def user_level(self) -> bool:
        return self.depth == 0

    # -- values

    def set_value(self, tensor: Any, value: Value) -> None:
        self.values[id(tensor)] = value
        self.keep_alive.append(tensor)

    def set_module(self, module: Any, value: Value) -> None:
        """Bind a module of the traced module's tree (and its compiled form, if it has one)."""
        for obj in (module, module.__dict__.get("_actual_script_module")):
            if obj is not None:
                self.modules[id(obj)] = value
                self.keep_alive.append(obj)

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
        if isinstance(obj, (ts_runtime.ScriptModule, ts_runtime.nn.Module)):
            module = self.modules.get(id(obj))
            if module is None:
                raise TracingError(
                    f"a method of {type(obj).__name__} is called while tracing, but the module "
                    "is not part of the trace: modules called during a trace must be "
                    "submodules of the traced module"
                )
            return module
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

    def warn(self, message: str, stacklevel: int = 3) -> None:
        """A TracerWarning attributed to the caller's caller (the code that baked a value)."""
        warnings.warn(TracerWarning(message), stacklevel=stacklevel)

    # -- recording operators

    def record(self, binding: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """The trace hook: run the operator, then record it."""
        op = binding.op
        previous = dispatch.TRACE_HOOK[0]
        dispatch.TRACE_HOOK[0] = None
        self.depth += 1
        try:
            raw = binding.sources(args, kwargs)
            bound = binding.bind(args, kwargs)
            result = op.impl(*bound)
        finally:
            self.depth -= 1
            dispatch.TRACE_HOOK[0] = previous
        schema = op.schema
        inputs = []
        for i, arg in enumerate(bound):
            formal = schema.arguments[i].type if i < len(schema.arguments) else None
            inputs.append(self.value_for(raw[i] if i < len(raw) else arg, arg, formal))
        self.emit(op, inputs, result)
        return result

    def emit(self, op: Any, inputs: list[Value], result: Any) -> Any:
        """Append a node of operator `op` whose outputs are the runtime values `result`."""
        schema = op.schema
        g = self.graph
        node = g.create(schema.name, inputs, 0)
        node.schema_cache = op
        g.insert_node(node)
        results = result if len(schema.returns) > 1 else (result,)
        for r, formal in zip(results, schema.returns, strict=False):
            out = node.add_output(_runtime_type(r, formal.type))
            self._map_output(r, out)
        return node

    def value_for(self, raw: Any, converted: Any, expected: Type | None) -> Value:
        """The IR value of an argument that dispatch converted from `raw` to `converted`.

        Where a tensor was passed for a number (a size tensor for an int, as in
        `x.view(x.size(0), -1)`), the conversion is recorded (`aten::Int`, `aten::Float`,
        `aten::Bool`, or `aten::ScalarImplicit` for a Scalar), so the value keeps flowing
        from the inputs; lists are rebuilt element by element.
        """
        target = expected.element if isinstance(expected, OptionalType) else expected
        if isinstance(raw, ts_runtime.Tensor) and isinstance(converted, (bool, int, float)):
            key = _NUMBER_CONVERSIONS.get(type(target), _NUMBER_CONVERSIONS[type(converted)])
            return self.emit(registry.get(key), [self.value_of(raw)], None).output()
        if isinstance(converted, list) and converted and isinstance(target, ListType):
            element = target.element
            items: list[Any] | None = None
            if isinstance(raw, (list, tuple)) and len(raw) == len(converted):
                if any(
                    isinstance(r, ts_runtime.Tensor) and not isinstance(c, ts_runtime.Tensor)
                    for r, c in zip(raw, converted, strict=True)
                ):
                    items = [
                        self.value_for(r, c, element) for r, c in zip(raw, converted, strict=True)
                    ]
            elif isinstance(raw, ts_runtime.Tensor) and not isinstance(
                converted[0], ts_runtime.Tensor
            ):
                # one int given for a list (`x.view(n)`): repeated as the list's elements
                items = [self.value_for(raw, converted[0], element)] * len(converted)
            if items is not None:
                g = self.graph
                return g.insert_node(g.create_list(element, items)).output()
        return self.value_of(converted, expected)

    # -- sizes

    def size_of(self, tensor: Any, dim: int) -> Any:
        """`tensor.size(dim)` as PyTorch traces it: `aten::size` then `prim::NumToTensor`."""
        n = tensor._data.shape[_normalize_dim(dim, tensor._data.ndim)]
        g = self.graph
        dim_value = g.insert_constant(dim)
        size = self.emit(registry.get("aten::size.int"), [self.value_of(tensor), dim_value], None)
        return self._number_tensor(size.output(), n)

    def numel_of(self, tensor: Any) -> Any:
        numel = self.emit(registry.get("aten::numel"), [self.value_of(tensor)], None)
        return self._number_tensor(numel.output(), int(tensor._data.size))

    def _number_tensor(self, number: Value, n: int) -> Any:
        result = ts_runtime.from_numpy(np.array(n, dtype=np.int64))
        self.emit(registry.get("prim::NumToTensor.Scalar"), [number], result)
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


_NUMBER_CONVERSIONS: dict[type, str] = {
    IntType: "aten::Int.Tensor",
    FloatType: "aten::Float.Tensor",
    BoolType: "aten::Bool.Tensor",
    NumberType: "aten::ScalarImplicit",
    int: "aten::Int.Tensor",
    float: "aten::Float.Tensor",
    bool: "aten::Bool.Tensor",
}


def _normalize_dim(dim: int, ndim: int) -> int:
    if not -ndim <= dim < max(ndim, 1):
        from ts_runtime.tensor import DimensionError

        raise DimensionError(
            f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], "
            f"but got {dim})"
        )
    return dim + ndim if dim < 0 else dim


def _runtime_type(value: Any, declared: Type) -> Type:
    if isinstance(value, ts_runtime.Tensor):
        return TensorType.get()
    if value is None and isinstance(declared, OptionalType):
        return declared
    return declared


# -- warnings for values that leave the trace, and traced sizes


#: the conversions of a tensor to a Python value, and what PyTorch's warning calls the value
_CONVERSIONS = {
    "__bool__": "Python boolean",
    "__int__": "Python integer",
    "__float__": "Python float",
    "__complex__": "Python complex",
    "item": "Python number",
    "tolist": "Python list",
    "numpy": "NumPy array",
    "__array__": "NumPy array",
    # PyTorch does not warn for an index (`range(n)`, `lst[n]`): its value is baked in silently
    "__index__": None,
}


def _user_state() -> TracingState | None:
    """The tracing state, when the code running is the user's (not the library's)."""
    state = current_tracing_state()
    return state if state is not None and state.user_level else None


def _library(state: TracingState) -> Any:
    """Run the wrapped original as the library: no warnings, no traced sizes inside."""

    class _Depth:
        def __enter__(self) -> None:
            state.depth += 1

        def __exit__(self, *exc: Any) -> None:
            state.depth -= 1

    return _Depth()


def _warning_wrapper(name: str, original: Callable[..., Any]) -> Callable[..., Any]:
    what = _CONVERSIONS[name]

    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        state = _user_state()
        if state is None:
            return original(self, *args, **kwargs)
        if what is not None:
            state.warn(_PYTHON_VALUE.format(what))
        with _library(state):
            return original(self, *args, **kwargs)

    return wrapper


def _traced_size(original: Callable[..., Any]) -> Callable[..., Any]:
    def size(self: Any, dim: int | None = None) -> Any:
        state = _user_state()
        if state is None:
            return original(self, dim)
        if dim is None:
            return ts_runtime.Size(state.size_of(self, d) for d in range(self._data.ndim))
        if self._data.ndim == 0:
            return original(self, dim)  # the error PyTorch gives
        return state.size_of(self, dim)

    return size


def _traced_shape(original: Any) -> property:
    def shape(self: Any) -> Any:
        state = _user_state()
        if state is None:
            return original.fget(self)
        return ts_runtime.Size(state.size_of(self, d) for d in range(self._data.ndim))

    return property(shape)


def _traced_numel(original: Callable[..., Any]) -> Callable[..., Any]:
    def numel(self: Any) -> Any:
        state = _user_state()
        return original(self) if state is None else state.numel_of(self)

    return numel


def _traced_len(original: Callable[..., Any]) -> Callable[..., Any]:
    def length(self: Any) -> int:
        state = _user_state()
        if state is not None and self._data.ndim > 0:
            state.warn(_LEN_WARNING)
        return original(self)

    return length


def _traced_iter(original: Callable[..., Any]) -> Callable[..., Any]:
    def iterate(self: Any) -> Any:
        state = _user_state()
        if state is not None and self._data.ndim > 0:
            state.warn(_ITER_WARNING)
        return original(self)

    return iterate


def _tensor_from_data() -> None:
    """`torch.tensor(...)` was called (`ts_runtime.tensor.TENSOR_FROM_DATA_HOOK`)."""
    state = _user_state()
    if state is not None:
        # attributed to the caller of `tensor(...)`: this hook, then tensor(), then it
        state.warn(_TENSOR_WARNING, stacklevel=4)


def _index_steps(self: Any, index: Any) -> Any:
    """`self[index]` as recorded operators (as PyTorch's tracer records it), or None.

    Integers (and 0-dim integer tensors) select, slices slice, None unsqueezes, and
    integer tensors index together at the end (`aten::index`). `...` stands for the
    dimensions no other index names, counted on this tensor: the dimensions after it are
    recorded by position, as PyTorch records them. Boolean indices are left to the
    untraced path.
    """
    items = index if isinstance(index, tuple) else (index,)
    if sum(1 for i in items if i is Ellipsis) > 1:
        return None
    if any(
        isinstance(i, bool) or (isinstance(i, ts_runtime.Tensor) and i._data.dtype.kind == "b")
        for i in items
    ):
        return None
    named = sum(1 for i in items if i is not None and i is not Ellipsis)
    x = self
    tensors: list[Any] = []
    dim = 0
    call = dispatch.call
    for item in items:
        if item is Ellipsis:
            skipped = max(self._data.ndim - named, 0)
            tensors.extend([None] * skipped)
            dim += skipped
        elif isinstance(item, int) or _is_index_tensor(item):
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
    while tensors and tensors[-1] is None:
        tensors.pop()
    if tensors:
        x = call("aten::index", x, tensors)
    if x is self:
        x = call("aten::alias", self)
    return x


def _is_index_tensor(item: Any) -> bool:
    """A 0-dim integer tensor (a traced size, say): PyTorch's tracer selects with it."""
    return (
        isinstance(item, ts_runtime.Tensor)
        and item._data.ndim == 0
        and item._data.dtype.kind in "iu"
    )


def _traced_getitem(original: Callable[..., Any]) -> Callable[..., Any]:
    def getitem(self: Any, index: Any) -> Any:
        state = _user_state()
        if state is not None:
            result = _index_steps(self, index)
            if result is not None:
                return result
        return original(self, index)

    return getitem


def _traced_setitem(original: Callable[..., Any]) -> Callable[..., Any]:
    """`x[i] = v` on a traced tensor: recorded as a copy (or fill) into the view `x[i]`."""

    def setitem(self: Any, index: Any, value: Any) -> None:
        state = _user_state()
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
            original = cls.__dict__.get(name)
            if original is not None:
                self.saved[name] = original
                setattr(cls, name, _warning_wrapper(name, original))
        for name, wrap in (
            ("__setitem__", _traced_setitem),
            ("__getitem__", _traced_getitem),
            ("size", _traced_size),
            ("shape", _traced_shape),
            ("numel", _traced_numel),
            ("__len__", _traced_len),
            ("__iter__", _traced_iter),
        ):
            self.saved[name] = cls.__dict__[name]
            setattr(cls, name, wrap(self.saved[name]))
        self.saved_tensor_hook = tensor_module.TENSOR_FROM_DATA_HOOK[0]
        tensor_module.TENSOR_FROM_DATA_HOOK[0] = _tensor_from_data
        self.previous_hook = dispatch.TRACE_HOOK[0]
        dispatch.TRACE_HOOK[0] = self.state.record
        _STATE.state = self.state
        return self.state

    def __exit__(self, *exc: Any) -> None:
        dispatch.TRACE_HOOK[0] = self.previous_hook
        _STATE.state = None
        tensor_module.TENSOR_FROM_DATA_HOOK[0] = self.saved_tensor_hook
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
    if isinstance(result, ts_runtime.Size) and not any(
        isinstance(r, ts_runtime.Tensor) for r in result
    ):
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
    state.set_module(module, value)
    for name, typ in class_type.attributes.items():
        if name in getattr(module, "_parameters", {}) or name in getattr(module, "_buffers", {}):
            tensor = getattr(module, name)
            if tensor is None:
                continue
            node = g.insert_node(g.create_get_attr(value, name, typ))
            node.output().set_debug_name(value_name_for(name))
            state.set_value(tensor, node.output())
        elif isinstance(typ, ClassType):
            sub = module._modules[name]
            node = g.insert_node(g.create_get_attr(value, name, typ))
            node.output().set_debug_name(value_name_for(name))
            _bind_module(state, sub, node.output(), typ)
