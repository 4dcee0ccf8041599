"""How operators are implemented, differentiated and called.

- `@implements("aten::add.Tensor", ...)` attaches a kernel (a plain function
  over positional values, returning Tensors) to schemas of the registry. The
  registry's implementation becomes an autograd-aware wrapper generated for
  the schema: it records history only when grad mode is on and a tensor
  argument takes part in autograd, and otherwise calls the kernel directly.
  The kernel stays reachable as `wrapper.__wrapped__`, which the interpreter
  calls in plans compiled for no-grad execution.
- `@derivative("aten::mul.Tensor", saves=("self", "other"))` registers the
  gradient formula: `formula(grad, *args, result=...)` returns one gradient per
  argument (trailing non-tensor arguments may be omitted). Formulas are
  written with tensor operations, so gradients are differentiable again.
- `call(name, *args, **kwargs)` is eager dispatch: it resolves the overload
  from the Python values (cached per argument-type signature), fills in
  defaults, and calls the implementation. The tracer hooks in here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from ts_ir import (
    AnyType,
    BoolType,
    ComplexType,
    Device,
    DeviceType,
    DictType,
    FloatType,
    IntType,
    ListType,
    NoneType,
    NumberType,
    OptionalType,
    ScalarTypeType,
    StringType,
    TensorType,
    TorchScriptError,
    TupleType,
    Type,
    UnionType,
)
from ts_schema import (
    Operator,
    RuleTable,
    Tag,
    evaluate_type_variables,
    match_type_variables,
    registry,
)

from ..autograd.grad_mode import GRAD_MODE
from ..autograd.graph import (
    ONE,
    CopySlices,
    NotDifferentiable,
    OpBackward,
    ViewOfBase,
    edge_of,
    set_history,
    view_geometry,
)
from ..devices import ACTIVE as DEVICES_ACTIVE
from ..devices import DeviceArray, DeviceError, DeviceNotDispatchedError, as_device, provider_for
from ..tensor import AutogradMeta, Size, Tensor, TensorError, bump_version, wrap
from .common import check_inplace_overlap, write_inplace

DERIVATIVES: RuleTable = RuleTable("derivative", default=None)

#: Python expressions the interpreter may inline instead of calling a scalar
#: operator's kernel: "{0} + {1}" over the argument expressions. Registered
#: with `implements(..., expr=...)`; the expression must compute exactly what
#: the kernel computes (a test checks this for every entry).
INLINE: RuleTable = RuleTable("python_inline", default=None)

#: Kernels over raw numpy arrays, for plans compiled without autograd. A rule is
#: `select(node) -> ArrayKernel | None`: given the node's (specialized) input
#: types it returns a function over the inputs with every tensor as a numpy
#: array, returning an array, or None when the types do not pin the result
#: down (unknown dtype or rank, mixed dtypes, rank 0 where numpy would return a
#: scalar). It must compute exactly what the operator's kernel computes; a test
#: checks every entry against the kernel.
ARRAY_KERNELS: RuleTable = RuleTable("array_kernel", default=None)


class ArrayKernel:
    """A raw-array implementation chosen for one node (see `ARRAY_KERNELS`).

    `fn` is called with the node inputs at positions `args`, in that order;
    those at positions `tensors` are passed as numpy arrays. `broadcasts`
    says whether operand shapes can fail to broadcast (numpy's ValueError is
    then reported as PyTorch's TensorError).
    """

    __slots__ = ("args", "broadcasts", "fn", "tensors")

    def __init__(
        self,
        fn: Callable[..., Any],
        args: Sequence[int],
        tensors: Sequence[int],
        *,
        broadcasts: bool,
    ) -> None:
        self.fn = fn
        self.args = tuple(args)
        self.tensors = frozenset(tensors)
        self.broadcasts = broadcasts


class ArgumentError(TorchScriptError, TypeError):
    """No overload of an operator accepts the given arguments (a `TypeError`, as in PyTorch)."""


# ---------------------------------------------------------------------------
# Registering kernels and formulas


class _OpInfo:
    """What the autograd path needs to know about one operator, computed once."""

    __slots__ = ("functional", "layout", "mutated", "name", "op", "saves")

    def __init__(self, op: Operator) -> None:
        self.op = op
        schema = op.schema
        self.name = _node_name(schema.name, schema.overload_name)
        self.layout: list[Any] = []
        self.mutated: list[int] = []
        for i, arg in enumerate(schema.arguments):
            kind = _tensor_kind(arg.type)
            self.layout.append(
                None if kind is None else ONE if kind in ("tensor", "optional") else "list"
            )
            alias = arg.alias_info
            if alias is not None and alias.is_write:
                self.mutated.append(i)
        self.saves: tuple[str, ...] | None = None
        self.functional: Operator | None = None


def _tensor_kind(t: Type) -> str | None:
    if isinstance(t, TensorType):
        return "tensor"
    if isinstance(t, OptionalType) and isinstance(t.element, TensorType):
        return "optional"
    if isinstance(t, ListType) and _tensor_kind(t.element) is not None:
        return "list"
    return None


def _node_name(name: str, overload: str) -> str:
    base = name.partition("::")[2].strip("_")
    return "".join(part[:1].upper() + part[1:] for part in base.split("_")) + "Backward0"


def _any_ag(values: Sequence[Any]) -> bool:
    for v in values:
        if v is not None and (v._ag is not None or v._base is not None):
            return True
    return False


def _make_wrapper(op: Operator, kernel: Callable[..., Any]) -> Callable[..., Any]:
    """An autograd-aware wrapper for `kernel`, specialized to the schema's tensor arguments."""
    schema = op.schema
    if schema.is_vararg:
        return kernel
    checks = []
    for i, arg in enumerate(schema.arguments):
        kind = _tensor_kind(arg.type)
        # a view takes the recording path too: its base may have started requiring
        # grad since the view was made (see autograd.graph.refresh_view)
        if kind == "tensor":
            checks.append(f"a{i}._ag is not None or a{i}._base is not None")
        elif kind == "optional":
            checks.append(
                f"(a{i} is not None and (a{i}._ag is not None or a{i}._base is not None))"
            )
        elif kind == "list":
            checks.append(f"_any_ag(a{i})")
    if not checks:
        return kernel
    params = ", ".join(f"a{i}" for i in range(len(schema.arguments)))
    packed = f"({params},)"
    # Generated from the schema's argument count only; no schema text enters the code.
    source = (
        f"def wrapper({params}):\n"
        f"    if _mode.enabled and ({' or '.join(checks)}):\n"
        f"        return _record(_info, _kernel, {packed})\n"
        f"    return _kernel({params})\n"
    )
    namespace: dict[str, Any] = {
        "_mode": GRAD_MODE,
        "_any_ag": _any_ag,
        "_record": _record,
        "_info": _OpInfo(op),
        "_kernel": kernel,
    }
    exec(compile(source, f"<autograd wrapper of {op.key}>", "exec"), namespace)
    wrapper = namespace["wrapper"]
    wrapper.__wrapped__ = kernel
    wrapper.__name__ = getattr(kernel, "__name__", "wrapper")
    wrapper.__doc__ = getattr(kernel, "__doc__", None)
    return wrapper


def implements(
    *keys: str, expr: str | None = None, autograd: bool = True
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Attach a kernel to the registry's schemas `keys` (e.g. "aten::add.Tensor").

    `expr`, for operators on Python scalars and containers, is the same
    computation as a Python expression over "{0}", "{1}", ... that the
    interpreter inlines in place of a call. `autograd=False` registers the
    kernel as it is, without recording history: for composite kernels, whose
    inner operator calls record their own, and for operators whose results
    never require grad (`detach`, `zeros_like`).
    """

    def decorate(kernel: Callable[..., Any]) -> Callable[..., Any]:
        for key in keys:
            op = registry.get(key)
            registry.implement(key, _make_wrapper(op, kernel) if autograd else kernel)
            _IMPLEMENTED_NAMES.add(op.qualified_name)
            if expr is not None:
                # by full schema: a bare "aten::add" key would mean every overload
                INLINE.register(str(op.schema), expr)
        return kernel

    return decorate


_IMPLEMENTED_NAMES: set[str] = set()


def implemented_names() -> set[str]:
    """The qualified names (`aten::add`) that `implements` gave a kernel to some overload of."""
    return set(_IMPLEMENTED_NAMES)


def implement_factory(*keys: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Attach a node-specialized implementation: `factory(node) -> callable` (vararg prims)."""

    def decorate(factory: Callable[..., Any]) -> Callable[..., Any]:
        for key in keys:
            registry.implement(key, factory=factory)
        return factory

    return decorate


def derivative(
    *keys: str, saves: Sequence[str] | None = None, not_differentiable: Sequence[str] = ()
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register a gradient formula for the operators `keys`.

    `saves` names the arguments (or "result") the formula reads; they are
    checked for in-place modification before the formula runs. By default
    every tensor argument is checked. `not_differentiable` names tensor
    arguments that get no gradient by definition, as PyTorch declares them
    (batch norm's running statistics, a loss's class weights), though the
    result depends on them.
    """

    def decorate(formula: Callable[..., Any]) -> Callable[..., Any]:
        formula.saves = None if saves is None else tuple(saves)  # type: ignore[attr-defined]
        formula.not_differentiable = frozenset(not_differentiable)  # type: ignore[attr-defined]
        for key in keys:
            DERIVATIVES.register(key, formula)
        return formula

    return decorate


# ---------------------------------------------------------------------------
# Recording autograd history


def _tensors_in(value: Any) -> list[Tensor]:
    if isinstance(value, Tensor):
        return [value]
    if isinstance(value, (tuple, list)):
        return [t for v in value for t in _tensors_in(v)]
    return []


def _record(info: _OpInfo, kernel: Callable[..., Any], args: tuple[Any, ...]) -> Any:
    if info.mutated:
        return _record_inplace(info, args)
    prev = GRAD_MODE.enabled
    GRAD_MODE.enabled = False
    try:
        result = kernel(*args)
    finally:
        GRAD_MODE.enabled = prev
    outputs = _tensors_in(result)
    if not any(t._data.dtype.kind in "fc" for t in outputs):
        return result
    layout: list[Any] = []
    edges = []
    for spec, arg in zip(info.layout, args, strict=True):
        if spec is None:
            layout.append(None)
        elif spec == ONE:
            layout.append(ONE)
            edges.append(edge_of(arg))
        else:
            layout.append(len(arg))
            edges.extend(edge_of(t) for t in arg)
    if all(e is None for e in edges):
        return result
    meta = [(t._data.shape, t._data.dtype) for t in outputs]
    formula = DERIVATIVES.lookup_operator(info.op)
    if formula is None:
        node: Any = NotDifferentiable(info.op.key, edges, meta)
    else:
        node = OpBackward(
            info.name,
            formula,
            args,
            result,
            layout,
            edges,
            meta,
            _saved(info, formula, args, result),
        )
    for k, t in enumerate(outputs):
        if t._data.dtype.kind in "fc":
            set_history(t, node, k)
    return result


def _saved(info: _OpInfo, formula: Any, args: tuple[Any, ...], result: Any) -> list[Tensor]:
    saves = formula.saves
    if saves is None:
        return [
            t
            for spec, a in zip(info.layout, args, strict=True)
            if spec is not None
            for t in _tensors_in(a)
        ]
    names = [arg.name for arg in info.op.schema.arguments]
    saved: list[Tensor] = []
    for name in saves:
        saved.extend(_tensors_in(result if name == "result" else args[names.index(name)]))
    return saved


def _record_inplace(info: _OpInfo, args: tuple[Any, ...]) -> Any:
    """An in-place op under autograd: compute its functional form with history, then write it back.

    On a view whose base takes part in autograd, the base's history is rebased
    (`CopySlices`) and the view re-read from it, as PyTorch does.
    """
    target = args[info.mutated[0]]
    if _is_grad_leaf(target):
        raise TensorError(
            "a leaf Variable that requires grad is being used in an in-place operation."
        )
    if Tag.idempotent_write not in info.op.tags:  # fill_ may write `x[:1].expand(3, 6)`
        check_inplace_overlap(target, args)
    functional = info.functional
    if functional is None:
        functional = info.functional = _functional_of(info.op)
    base = target._base
    # The functional form must see (and its backward save) the target's value from
    # before the write: give it a snapshot with the target's autograd edge.
    index = info.mutated[0]
    args = (*args[:index], _snapshot(target), *args[index + 1 :])
    out = functional.impl(*args)
    out_ag = out._ag if out._ag is not None and out._ag.grad_fn is not None else None
    if base is not None and (
        out_ag is not None or (base._ag is not None and base._ag.requires_grad)
    ):
        _rebase_view(base, target, out, None if out_ag is None else out_ag.grad_fn, info.op.key)
        return target
    write_inplace(target, out._data, info.op.key)
    bump_version(target)
    if out_ag is not None:
        set_history(target, out_ag.grad_fn, out_ag.output_nr)
    return target


def _snapshot(t: Tensor) -> Tensor:
    copy = wrap(t._data.copy())
    ag = t._ag
    if ag is not None and ag.requires_grad:
        copy._ag = AutogradMeta(True, ag.grad_fn, ag.output_nr)
    return copy


def _is_grad_leaf(t: Tensor) -> bool:
    ag = t._ag
    return ag is not None and ag.requires_grad and ag.grad_fn is None


def _rebase_view(base: Tensor, view: Tensor, out: Tensor, fn: Any, name: str) -> None:
    if _is_grad_leaf(base):
        raise TensorError(
            "a view of a leaf Variable that requires grad is being used in an in-place operation."
        )
    if not base._data.flags.c_contiguous:
        raise TensorError(
            "an in-place operation on a view of a non-contiguous tensor that requires grad is not "
            "supported; make the base contiguous first (x = x.contiguous())"
        )
    geometry = view_geometry(view, base)
    base_edge = edge_of(base)
    write_inplace(view, out._data, name)
    bump_version(view)
    copy_slices = CopySlices(base, base_edge, fn, geometry)
    set_history(base, copy_slices, 0)
    set_history(view, ViewOfBase(base, (copy_slices, 0), view, geometry), 0)


def _functional_of(op: Operator) -> Operator:
    name, overload = op.schema.name, op.schema.overload_name
    if not name.endswith("_"):
        raise TensorError(
            f"{op.key} writes its arguments and has no functional form to differentiate"
        )
    key = name[:-1] + (f".{overload}" if overload else "")
    try:
        return registry.get(key)
    except TorchScriptError:
        raise TensorError(
            f"the derivative of in-place {op.key} needs {key}, which is not implemented"
        ) from None


# ---------------------------------------------------------------------------
# Eager dispatch


def ir_type_of(value: Any) -> Type:
    """The IR type a Python value takes part in overload resolution with."""
    if isinstance(value, Tensor):
        return TensorType.get()
    if isinstance(value, bool):
        return BoolType.get()
    if isinstance(value, int):
        return IntType.get()
    if isinstance(value, float):
        return FloatType.get()
    if isinstance(value, complex):
        return ComplexType.get()
    if isinstance(value, str):
        return StringType.get()
    if value is None:
        return NoneType.get()
    if isinstance(value, Device):
        return DeviceType.get()
    if isinstance(value, (list, Size)):
        return (
            _EMPTY_LIST if not value else ListType(_unify_elements([ir_type_of(v) for v in value]))
        )
    if isinstance(value, tuple):
        return TupleType([ir_type_of(v) for v in value])
    if isinstance(value, dict):
        if not value:
            return DictType(StringType.get(), AnyType.get())
        k, v = next(iter(value.items()))
        return DictType(ir_type_of(k), ir_type_of(v))
    if isinstance(value, np.generic):
        return ir_type_of(value.item())
    symbolic = getattr(value, "ir_type", None)  # a symbolic value of a formula (autodiff)
    if isinstance(symbolic, Type):
        return symbolic
    return AnyType.get()


class _EmptyListType(ListType):
    """The type of `[]` in eager calls: it fits any list type."""

    def is_subtype_of(self, other: Type) -> bool:
        target = other.element if isinstance(other, OptionalType) else other
        return isinstance(target, ListType) or super().is_subtype_of(other)


_EMPTY_LIST = _EmptyListType(AnyType.get())


def _unify_elements(types: list[Type]) -> Type:
    first = types[0]
    if all(t == first for t in types):
        return first
    if all(isinstance(t, (TensorType, NoneType)) for t in types):
        return OptionalType(TensorType.get())
    return AnyType.get()


def _tag(value: Any) -> Any:
    """A cheap key for the argument-type signature of a call."""
    t = type(value)
    if t is list or t is tuple or t is Size:
        return (t, len(value) == 0, tuple(_tag(v) for v in value))
    return t


_NUMBERS = (IntType, FloatType, ComplexType, BoolType)
Conversion = Callable[[Any], Any] | None


def _convert(value: Any, arg: Any, allow: bool) -> tuple[bool, Conversion]:
    """Whether `value` fits schema argument `arg`, and the conversion it needs if any.

    As TorchScript's schema matching: an int or float where a fixed-size list is
    expected is repeated, homogeneous tuples become lists; with `allow`, the
    implicit conversions (Tensor to number, bool/int to float, str to Device).
    """
    formal = arg.type
    target = formal.element if isinstance(formal, OptionalType) else formal
    if (type(value) is int or isinstance(value, Tensor)) and _is_scalar_type(arg.real_type):
        # eager code names dtypes by `tsjit.float32` (an int subclass); a plain int (or a
        # one-element tensor) is a size or an index, so `x.view(6)` is not `x.view(dtype=6)`
        return False, None
    actual = ir_type_of(value)
    if (
        arg.N is not None
        and isinstance(target, ListType)
        and isinstance(actual, (IntType, FloatType))
    ):
        if isinstance(target.element, type(actual)):
            n = arg.N
            return True, lambda v: [v] * n
    if _fits(actual, formal):
        return True, (list if isinstance(value, tuple) and isinstance(actual, ListType) else None)
    if isinstance(target, ListType) and isinstance(value, tuple) and value:
        as_list = ListType(_unify_elements([ir_type_of(v) for v in value]))
        if _fits(as_list, formal):
            return True, list
    if not allow:
        return False, None
    if (
        isinstance(target, ListType)
        and isinstance(target.element, IntType)
        and isinstance(actual, IntType)
    ):
        # as PyTorch's argument parser: `x.view(6)`, `torch.zeros(3)`
        return True, _singleton
    if isinstance(target, ListType) and isinstance(target.element, IntType) and _is_int_like(value):
        # a one-element integer tensor for a list of ints: `x.view(x.numel())` while tracing
        return True, _int_singleton
    if (
        isinstance(target, ListType)
        and isinstance(target.element, IntType)
        and isinstance(value, (list, tuple))
        and value
        and all(_is_int_like(v) for v in value)
    ):
        # as PyTorch's argument parser: elements may be one-element integer tensors
        # (`x.view(x.size(0), -1)` while tracing, where sizes are 0-dim tensors)
        return True, _int_list
    if isinstance(target, FloatType) and isinstance(actual, (IntType, BoolType)):
        return True, float
    if isinstance(target, IntType) and isinstance(actual, BoolType):
        return True, int
    if isinstance(actual, TensorType) and isinstance(
        target, (IntType, FloatType, BoolType, NumberType)
    ):
        return True, {IntType: int, FloatType: float, BoolType: bool}.get(type(target), _item)
    if (
        isinstance(target, ListType)
        and isinstance(target.element, FloatType)
        and isinstance(value, (list, tuple))
        and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
    ):
        return True, lambda xs: [float(x) for x in xs]
    if isinstance(target, DeviceType) and isinstance(actual, StringType):
        return True, Device
    return False, None


def _singleton(v: Any) -> list[Any]:
    return [v]


def _is_int_like(v: Any) -> bool:
    """An int, or a one-element integer tensor (which PyTorch accepts where an int goes)."""
    if isinstance(v, Tensor):
        return v._data.size == 1 and v._data.dtype.kind in "iu"
    return isinstance(v, int) and not isinstance(v, bool)


def _int_list(values: Any) -> list[int]:
    return [int(v) for v in values]


def _int_singleton(value: Any) -> list[int]:
    return [int(value)]


def _is_scalar_type(t: Type) -> bool:
    return isinstance(t.element if isinstance(t, OptionalType) else t, ScalarTypeType)


def _item(t: Tensor) -> Any:
    return t.item()


def _fits(actual: Type, formal: Type) -> bool:
    if isinstance(formal, OptionalType) and isinstance(actual, NoneType):
        return True
    target = formal.element if isinstance(formal, OptionalType) else formal
    if isinstance(target, NumberType):
        return isinstance(actual, _NUMBERS)
    if isinstance(target, UnionType):
        return any(_fits(actual, m) for m in target.types)
    bindings: dict[str, Type] = {}
    if not match_type_variables(target, actual, bindings):
        return False
    if target.has_free_variables():
        evaluated = evaluate_type_variables(target, bindings)
        target = evaluated if evaluated is not None else target
    return actual.is_subtype_of(target)


class _Binding:
    """How to turn (args, kwargs) into the positional arguments of one overload."""

    __slots__ = ("impl", "op", "plan")
    #: whether calls write graph nodes instead of computing (see SYMBOLIC_BINDING)
    symbolic = False

    def __init__(self, op: Operator, plan: list[tuple[int, Any, Conversion]]) -> None:
        self.op = op
        self.impl = op.impl
        # per schema argument: (source, key, conversion) where source is
        # 0 positional index, 1 keyword name, 2 default value, 3 pack args[key:] into a list
        self.plan = plan

    def bind(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Any]:
        out = []
        for source, key, conv in self.plan:
            if source == 0:
                v = args[key]
            elif source == 1:
                v = kwargs[key]
            elif source == 2:
                v = list(key) if type(key) is list else key
            else:
                v = list(args[key:])
            out.append(v if conv is None else conv(v))
        return out

    def sources(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Any]:
        """Per schema argument, the value the caller gave, before conversion (the tracer
        records conversions of traced values, such as a size tensor passed as an int)."""
        out = []
        for source, key, _ in self.plan:
            if source == 0:
                out.append(args[key])
            elif source == 1:
                out.append(kwargs[key])
            elif source == 2:
                out.append(key)
            else:
                out.append(args[key:])
        return out


def _try_bind(
    op: Operator, args: tuple[Any, ...], kwargs: dict[str, Any], allow: bool
) -> tuple[_Binding | None, str]:
    formals = op.schema.arguments
    n_positional = sum(1 for a in formals if not a.kwarg_only)
    pack_from = None
    if len(args) > n_positional:
        last = formals[n_positional - 1] if n_positional else None
        packed = args[n_positional - 1 :]
        if (
            last is not None
            and isinstance(last.type, ListType)
            and isinstance(last.type.element, IntType)
            and all(isinstance(a, int) or _is_int_like(a) for a in packed)
        ):
            pack_from = n_positional - 1
        else:
            return None, f"expected at most {n_positional} positional arguments, got {len(args)}"
    plan: list[tuple[int, Any, Conversion]] = []
    used: set[str] = set()
    for i, formal in enumerate(formals):
        if pack_from is not None and i == pack_from:
            tensors = any(isinstance(a, Tensor) for a in args[i:])
            plan.append((3, i, _int_list if tensors else None))
            continue
        if i < len(args) and not formal.kwarg_only:
            value, source, key = args[i], 0, i
        elif formal.name in kwargs:
            value, source, key = kwargs[formal.name], 1, formal.name
            used.add(formal.name)
        elif formal.has_default_value:
            plan.append((2, formal.default_value, None))
            continue
        else:
            return None, f"argument '{formal.name}' is missing"
        ok, conv = _convert(value, formal, allow)
        if not ok:
            expected = formal.type.annotation_str()
            return (
                None,
                f"argument '{formal.name}' expects {expected}, got {ir_type_of(value).annotation_str()}",
            )
        plan.append((source, key, conv))
    extra = set(kwargs) - used
    if extra:
        return None, f"unexpected keyword argument '{sorted(extra)[0]}'"
    if op.impl is None:
        return None, "has no eager implementation"
    return _Binding(op, plan), ""


_CACHE: dict[Any, _Binding] = {}
#: While tracing, `hook(binding, args, kwargs)` runs and records each eager call.
TRACE_HOOK: list[Callable[[_Binding, tuple[Any, ...], dict[str, Any]], Any] | None] = [None]
#: `make(binding)`: the binding for calls whose arguments include symbolic values (values
#: whose class sets `_ts_symbolic`), which writes the call into a graph; set by
#: `ts_runtime.autodiff`, which evaluates derivative formulas symbolically.
SYMBOLIC_BINDING: list[Callable[[_Binding], _Binding] | None] = [None]


def _has_symbolic(values: Any) -> bool:
    for v in values:
        if getattr(type(v), "_ts_symbolic", False):
            return True
        if type(v) in (list, tuple) and _has_symbolic(v):
            return True
    return False


def resolve(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> _Binding:
    """The overload of `name` these values call, by TorchScript's matching rules (cached)."""
    key = (name, tuple(map(_tag, args)), tuple(kwargs))
    binding = _CACHE.get(key)
    if binding is not None:
        return binding
    overloads = registry.lookup(name)
    failures: list[str] = []
    for allow in (False, True):
        failures.clear()
        for op in overloads:
            binding, why = _try_bind(op, args, kwargs, allow)
            if binding is not None:
                make = SYMBOLIC_BINDING[0]
                if make is not None and _has_symbolic((*args, *kwargs.values())):
                    binding = make(binding)
                _CACHE[key] = binding
                return binding
            failures.append(f"  {op.schema}\n    {why}")
    given = ", ".join(
        [ir_type_of(a).annotation_str() for a in args]
        + [f"{k}={ir_type_of(v).annotation_str()}" for k, v in kwargs.items()]
    )
    raise ArgumentError(
        f"no overload of {name} accepts ({given}); the candidates were:\n" + "\n".join(failures)
    )


def call(name: str, *args: Any, **kwargs: Any) -> Any:
    """Call operator `name` (e.g. "aten::add") on Python values, as eager code does."""
    binding = resolve(name, args, kwargs)
    hook = TRACE_HOOK[0]
    if hook is not None and not binding.symbolic:
        return hook(binding, args, kwargs)
    bound = binding.bind(args, kwargs)
    if DEVICES_ACTIVE[0]:
        return device_dispatch(binding.op, binding.impl, bound)
    try:
        return binding.impl(*bound)
    except DeviceNotDispatchedError:
        # the call asked for a device that initialized just now: dispatch it there
        if not DEVICES_ACTIVE[0]:
            raise
        return device_dispatch(binding.op, binding.impl, bound)


# ---------------------------------------------------------------------------
# Device dispatch


_CUDA = Device("cuda")


class _DevicePlan:
    """Where an operator's arguments can name a device: tensors, lists of tensors, devices."""

    __slots__ = ("devices", "lists", "named", "tensors")

    def __init__(self, op: Operator) -> None:
        # the device an operator's name implies (`x.cuda()`: tagged `Tag.to_cuda`)
        self.named = _CUDA if Tag.to_cuda in op.tags else None
        self.tensors: list[int] = []
        self.lists: list[int] = []
        self.devices: list[int] = []
        for i, arg in enumerate(op.schema.arguments):
            kind = _tensor_kind(arg.type)
            if kind in ("tensor", "optional"):
                self.tensors.append(i)
            elif kind == "list":
                self.lists.append(i)
            else:
                t = arg.type.element if isinstance(arg.type, OptionalType) else arg.type
                if isinstance(t, DeviceType):
                    self.devices.append(i)

    def device(self, args: Sequence[Any]) -> Any:
        """The first device other than the CPU among the arguments, or None."""
        if self.named is not None:
            return self.named
        n = len(args)
        for i in self.tensors:
            if i < n:
                a = args[i]
                if a.__class__ is Tensor and isinstance(a._data, DeviceArray):
                    return a._data.device
        for i in self.lists:
            if i < n and args[i] is not None:
                for a in args[i]:
                    if a.__class__ is Tensor and isinstance(a._data, DeviceArray):
                        return a._data.device
        for i in self.devices:
            if i < n and args[i] is not None:
                d = as_device(args[i])
                if d.type != "cpu":
                    return d
        return None


_DEVICE_PLANS: dict[str, _DevicePlan | None] = {}


def _device_plan(op: Operator) -> _DevicePlan | None:
    plan = _DEVICE_PLANS.get(op.key, False)
    if plan is False:
        plan = None if op.schema.is_vararg else _DevicePlan(op)
        if plan is not None and not (plan.tensors or plan.lists or plan.devices):
            plan = None
        _DEVICE_PLANS[op.key] = plan
    return plan  # type: ignore[return-value]


def device_dispatch(op: Operator, impl: Callable[..., Any], args: Sequence[Any]) -> Any:
    """Call `op` on `args`: its CPU implementation `impl`, or the kernel of the device its
    arguments are on (a tensor's storage, or a `device` argument). An operator the device has
    no kernel for is a `DeviceError` naming both."""
    plan = _device_plan(op)
    device = None if plan is None else plan.device(args)
    if device is None:
        return impl(*args)
    provider = provider_for(device.type)
    kernel = None if provider is None else provider.kernel_for(op)
    if kernel is None:
        raise DeviceError(f"{op.key} has no kernel for tensors on {device.type}")
    return kernel(*args)


def device_aware(op: Operator, impl: Callable[..., Any]) -> Callable[..., Any]:
    """`impl` behind device dispatch (what plans compiled with a device in use call); `impl`
    itself for operators that take no tensors and no device."""
    if _device_plan(op) is None:
        return impl

    def dispatching(*args: Any) -> Any:
        return device_dispatch(op, impl, args)

    return dispatching


def eager_function(name: str, python_name: str | None = None) -> Callable[..., Any]:
    """A Python function for the eager namespace that calls operator `name`."""

    def fn(*args: Any, **kwargs: Any) -> Any:
        return call(name, *args, **kwargs)

    fn.__name__ = fn.__qualname__ = python_name or name.partition("::")[2]
    # lets the frontend compile calls to it
    fn._ts_operator = name  # type: ignore[attr-defined]
    fn.__doc__ = (
        f"Calls the operator {name}; its overloads are listed by `tsjit.schemas({name!r})`."
    )
    return fn


def prefixed_functions(prefix: str, module: str) -> Callable[[str], Callable[..., Any]]:
    """A module `__getattr__` for torch's prefixed namespaces: `special.i0e` is
    `aten::special_i0e`, `linalg.norm` is `aten::linalg_norm`."""
    made: dict[str, Callable[..., Any]] = {}

    def getattr_(name: str) -> Callable[..., Any]:
        fn = made.get(name)
        if fn is not None:
            return fn
        qualified = f"aten::{prefix}{name}"
        if name.startswith("__") or not registry.has(qualified):
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        fn = made[name] = eager_function(qualified, name)
        return fn

    return getattr_
