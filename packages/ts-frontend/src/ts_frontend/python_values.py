"""Python objects a program refers to, as sugared values.

The resolver finds what a free name means in Python (a closure variable, a
global, a builtin); `to_sugared` says what that object means in compiled
code: numbers, strings and dtypes become constants; `math` and the `torch`
namespace resolve their attributes to operators of the registry; Python
functions are compiled and called with `prim::CallFunction`; exception
classes can be raised; the `jit` API (`fork`, `annotate`, ...) is compiled
specially.
"""

from __future__ import annotations

import inspect
import math
import types
from typing import TYPE_CHECKING, Any

from ts_ir import (
    Device,
    FloatType,
    Graph,
    SourceRange,
    StringType,
    TorchScriptError,
    Value,
)
from ts_schema import registry

from . import jit_api
from . import tree as t
from .builtins import builtin_for_object
from .errors import CallError, FrontendTypeError, NotSupportedError
from .kinds import CALL_FUNCTION, CONSTANT, IF
from .sugared_value import BuiltinFunction, ConstantValue, SimpleValue, SugaredValue

if TYPE_CHECKING:
    from .calls import CallEmitter as FunctionEmitter

_MATH_CONSTANTS = {"pi": math.pi, "e": math.e, "inf": math.inf, "nan": math.nan, "tau": math.tau}
_TORCH_MODULES = frozenset({"tsjit", "ts_runtime", "torch"})
_JIT_MODULES = frozenset({"tsjit.jit", "torch.jit", "ts_frontend", "ts_frontend.jit_api"})
_FUNCTIONAL_MODULES = frozenset(
    {"tsjit.nn.functional", "ts_runtime.nn.functional", "torch.nn.functional"}
)
_SCALAR_TYPES = (bool, int, float, str, complex)


def to_sugared(obj: Any, loc: SourceRange | None = None, name: str = "") -> SugaredValue:
    """What a Python object means in compiled code."""
    if obj is None:
        return ConstantValue(None)
    if isinstance(obj, _SCALAR_TYPES) or isinstance(obj, Device):
        return ConstantValue(obj if type(obj) in _SCALAR_TYPES else _plain(obj))
    if isinstance(obj, tuple) and all(_is_constant(x) for x in obj):
        return ConstantValue(tuple(_plain(x) for x in obj))
    if isinstance(obj, types.ModuleType):
        return module_value(obj)
    builtin = builtin_for_object(obj)
    if builtin is not None:
        return builtin
    jit = _JIT_FUNCTIONS.get(id(obj))
    if jit is not None and jit[0] is obj:
        return jit[1]()
    if isinstance(obj, type):
        if issubclass(obj, BaseException):
            return ExceptionClassValue(obj)
        if obj.__name__ == "Tensor":
            return TensorClassValue()
        raise NotSupportedError(f"class '{obj.__qualname__}' cannot be used in compiled code", loc)
    from ts_runtime.ops_namespace import OperatorNamespace, Operators

    from .script import ScriptFunction

    if isinstance(obj, ScriptFunction):
        return FunctionValue(obj)
    if isinstance(obj, (Operators, OperatorNamespace)):
        return OperatorsValue(obj)
    qualified = getattr(obj, "_ts_operator", None)
    if isinstance(qualified, str) and registry.has(qualified):
        # an operator function of the runtime (`ts_runtime.tanh`, `ops.my_ns.scale`)
        return BuiltinFunction(qualified, name=obj.__name__)
    if _is_operator_function(obj):
        return BuiltinFunction(f"aten::{obj.__name__}", name=obj.__name__)
    if inspect.isfunction(obj) or inspect.ismethod(obj):
        if jit_api.is_unused(obj):
            return UnusedFunctionValue(obj)
        if jit_api.is_ignored(obj):
            return IgnoredFunctionValue(obj)
        return FunctionValue(obj)
    if type(obj).__name__ == "Tensor":
        raise NotSupportedError(
            f"the global tensor '{name}' cannot be used in compiled code",
            loc,
            hint="pass the tensor as an argument, or make it a module buffer",
        )
    raise NotSupportedError(
        f"'{name or obj!r}' is a Python value of type '{type(obj).__name__}', which compiled "
        "code cannot use",
        loc,
        hint="only numbers, strings, tuples of them, functions, math and the torch namespace "
        "can be used from Python; mark the function @ignore to run it in Python",
    )


def _plain(x: Any) -> Any:
    if isinstance(x, bool):
        return bool(x)
    if isinstance(x, int):
        return int(x)
    if isinstance(x, float):
        return float(x)
    if isinstance(x, tuple):
        return tuple(_plain(v) for v in x)
    return x


def _is_constant(x: Any) -> bool:
    if isinstance(x, tuple):
        return all(_is_constant(v) for v in x)
    return x is None or isinstance(x, _SCALAR_TYPES) or isinstance(x, Device)


def _is_operator_function(obj: Any) -> bool:
    """An eager wrapper of a registry operator (`ts_runtime.tanh`)."""
    module = getattr(obj, "__module__", "") or ""
    return (
        callable(obj)
        and module.startswith("ts_runtime.ops")
        and registry.has(f"aten::{getattr(obj, '__name__', '')}")
    )


def module_value(module: types.ModuleType) -> SugaredValue:
    name = module.__name__
    if name == "math":
        return MathModule()
    if name in _TORCH_MODULES:
        return TorchNamespace(module)
    if name in _JIT_MODULES:
        return JitNamespace(module)
    if name in _FUNCTIONAL_MODULES:
        return FunctionalNamespace(module)
    return PythonModuleValue(module)


_MISSING = object()


class PythonModuleValue(SugaredValue):
    """A Python module: its attributes resolve like globals."""

    kind = "Python module"

    def __init__(self, module: types.ModuleType) -> None:
        self.module = module

    def describe(self) -> str:
        return f"module '{self.module.__name__}'"

    def attr(self, em: FunctionEmitter, loc: SourceRange, name: str) -> SugaredValue:
        obj = getattr(self.module, name, _MISSING)
        if obj is _MISSING:
            raise NotSupportedError(
                f"module '{self.module.__name__}' has no attribute '{name}'", loc
            )
        if callable(obj) and not isinstance(obj, type) and _is_library(self.module):
            raise NotSupportedError(
                f"'{self.module.__name__}.{name}' belongs to the Python library "
                f"'{self.module.__name__}', which compiled code cannot call",
                loc,
                hint="use the torch namespace's operator instead, or call it from a function "
                "marked @ignore",
            )
        return to_sugared(obj, loc, f"{self.module.__name__}.{name}")


def _is_library(module: types.ModuleType) -> bool:
    """A module of the standard library or of an installed third-party package."""
    import sys
    import sysconfig

    name = module.__name__.partition(".")[0]
    if name in sys.stdlib_module_names:
        return True
    file = getattr(module, "__file__", None) or ""
    paths = sysconfig.get_paths()
    return any(file.startswith(paths[k]) for k in ("purelib", "platlib", "stdlib") if k in paths)


class MathModule(SugaredValue):
    """`math`: constants, and functions that are `aten::` operators on numbers."""

    kind = "module 'math'"

    def attr(self, em: FunctionEmitter, loc: SourceRange, name: str) -> SugaredValue:
        if name in _MATH_CONSTANTS:
            return ConstantValue(_MATH_CONSTANTS[name], FloatType.get())
        symbol = f"aten::{name}"
        if registry.has(symbol):
            return BuiltinFunction(symbol, name=f"math.{name}")
        raise NotSupportedError(f"math.{name} is not supported in compiled code", loc)


class TorchNamespace(SugaredValue):
    """The torch-shaped namespace (`tsjit`, `ts_runtime`): dtypes, operators, submodules."""

    kind = "the torch namespace"

    def __init__(self, module: types.ModuleType) -> None:
        self.module = module

    def describe(self) -> str:
        return f"module '{self.module.__name__}'"

    def attr(self, em: FunctionEmitter, loc: SourceRange, name: str) -> SugaredValue:
        if name == "jit":
            return JitNamespace(None)
        special = _TORCH_SPECIAL.get(name)
        if special is not None:
            return special()
        obj = self.module.__dict__.get(name, _MISSING)
        if obj is not _MISSING and isinstance(obj, int) and type(obj).__name__ == "dtype":
            return ConstantValue(int(obj))
        if obj is not _MISSING and isinstance(obj, types.ModuleType):
            return module_value(obj)
        symbol = f"aten::{name}"
        if registry.has(symbol):
            return BuiltinFunction(symbol, name=f"torch.{name}")
        if obj is _MISSING:
            try:
                obj = getattr(self.module, name)
            except AttributeError:
                raise NotSupportedError(
                    f"'{self.module.__name__}.{name}' is not an operator or attribute known to "
                    "compiled code",
                    loc,
                ) from None
        return to_sugared(obj, loc, f"{self.module.__name__}.{name}")


class OperatorsValue(SugaredValue):
    """`torch.ops` and `torch.ops.<namespace>`: their attributes are registry operators."""

    kind = "operator namespace"

    def __init__(self, obj: Any) -> None:
        self.obj = obj

    def describe(self) -> str:
        return repr(self.obj)

    def attr(self, emitter: Any, loc: SourceRange, name: str) -> SugaredValue:
        try:
            return to_sugared(getattr(self.obj, name), loc, name)
        except TorchScriptError as exc:
            raise NotSupportedError(str(exc).split("\n")[0], loc) from None


class FunctionalNamespace(SugaredValue):
    """`nn.functional`: its Python functions are compiled; other names are operators."""

    kind = "module 'nn.functional'"

    def __init__(self, module: types.ModuleType) -> None:
        self.module = module

    def attr(self, em: FunctionEmitter, loc: SourceRange, name: str) -> SugaredValue:
        obj = getattr(self.module, name, _MISSING)
        symbol = f"aten::{name}"
        if inspect.isfunction(obj) and not _is_operator_function(obj):
            if registry.has(symbol):
                return FunctionalFunction(obj, symbol)
            return to_sugared(obj, loc, name)
        if registry.has(symbol):
            return BuiltinFunction(symbol, name=f"F.{name}")
        if obj is _MISSING:
            raise NotSupportedError(f"nn.functional has no function '{name}'", loc)
        return to_sugared(obj, loc, name)


class FunctionalFunction(SugaredValue):
    """A Python function of `nn.functional` that has an operator of the same name.

    Its body is compiled as TorchScript compiles `torch.nn.functional`; when the
    body is not compilable, the call goes to the operator itself.
    """

    kind = "function"

    def __init__(self, fn: Any, symbol: str) -> None:
        self.fn = fn
        self.symbol = symbol

    def describe(self) -> str:
        return f"function '{self.fn.__name__}'"

    def call(self, em: FunctionEmitter, call: t.Call) -> SugaredValue:
        callee = em.compiler.try_compile(self.fn)
        if callee is None:
            return BuiltinFunction(self.symbol, name=self.fn.__name__).call(em, call)
        args, kwargs = em.emit_call_args(call)
        return SimpleValue(em.emit_function_call(callee, args, kwargs, call.range))


class DispatchCallValue(SugaredValue):
    """Eager dispatch (`call("aten::relu", x)`) in compiled code: a call of that operator."""

    kind = "eager dispatch"

    def call(self, em: FunctionEmitter, call: t.Call) -> SugaredValue:
        if not call.args:
            raise CallError("call() needs the name of an operator", call.range)
        name = call.args[0]
        rest = t.Call(call.range, call.func, call.args[1:], call.keywords)
        if isinstance(name, t.Str):
            args, kwargs = em.emit_call_args(rest)
            return SimpleValue(em.call_builtin(name.value, args, kwargs, call.range, call=call))
        if (
            isinstance(name, t.IfExp)
            and isinstance(name.body, t.Str)
            and isinstance(name.orelse, t.Str)
        ):
            cond = em.emit_cond(name.cond)
            args, kwargs = em.emit_call_args(rest)
            if cond.static is not None:
                chosen = name.body if cond.static else name.orelse
                return SimpleValue(em.call_builtin(chosen.value, args, kwargs, call.range))
            g = em.graph
            n = em.insert(g.create(IF, [cond.value], 0), call.range)  # type: ignore[list-item]
            outs = []
            for branch in (name.body, name.orelse):
                block = n.add_block()
                with g.inserting_before(block.return_node):
                    v = em.call_builtin(branch.value, args, kwargs, call.range)
                block.register_output(v)
                outs.append(v)
            from ts_ir import unify_types

            return SimpleValue(
                n.add_output(unify_types(outs[0].type, outs[1].type) or outs[0].type)
            )
        raise NotSupportedError(
            "call() in compiled code needs an operator name that is a string literal", name.range
        )


class JitNamespace(SugaredValue):
    """`torch.jit`: fork, wait, annotate, is_scripting, ..."""

    kind = "module 'jit'"

    def __init__(self, module: types.ModuleType | None) -> None:
        self.module = module

    def attr(self, em: FunctionEmitter, loc: SourceRange, name: str) -> SugaredValue:
        maker = _JIT_BY_NAME.get(name)
        if maker is not None:
            return maker()
        raise NotSupportedError(f"jit.{name} is not supported in compiled code", loc)


class TensorClassValue(SugaredValue):
    """`torch.Tensor` used as a value (in `isinstance`, or called)."""

    kind = "class 'Tensor'"

    def call(self, em: FunctionEmitter, call: t.Call) -> SugaredValue:
        args, kwargs = em.emit_call_args(call)
        return SimpleValue(em.call_builtin("aten::tensor", args, kwargs, call.range, call=call))


class DeviceConstructor(SugaredValue):
    kind = "class 'device'"

    def call(self, em: FunctionEmitter, call: t.Call) -> SugaredValue:
        args, kwargs = em.emit_call_args(call)
        return SimpleValue(em.call_builtin("aten::device", args, kwargs, call.range, call=call))


class ForkValue(SugaredValue):
    """`fork(fn, *args)`: a `prim::fork` whose subgraph calls `fn`; its value is a Future."""

    kind = "jit.fork"

    def call(self, em: FunctionEmitter, call: t.Call) -> SugaredValue:
        if not call.args:
            raise CallError("fork() expects a function to run", call.range)
        return SimpleValue(em.emit_fork(call))


class WaitValue(SugaredValue):
    kind = "jit.wait"

    def call(self, em: FunctionEmitter, call: t.Call) -> SugaredValue:
        args, kwargs = em.emit_call_args(call)
        return SimpleValue(em.call_builtin("aten::wait", args, kwargs, call.range, call=call))


class AnnotateValue(SugaredValue):
    """`annotate(T, value)`: emit `value` expecting type T."""

    kind = "jit.annotate"

    def call(self, em: FunctionEmitter, call: t.Call) -> SugaredValue:
        if len(call.args) != 2 or call.keywords:
            raise CallError("annotate() expects a type and a value", call.range)
        typ = em.type_of(call.args[0])
        value = em.emit_expr(call.args[1], typ)
        value = em.convert_to_type(value, typ, call.args[1].range)
        if not value.type.is_subtype_of(typ):
            raise FrontendTypeError(
                f"annotate() expected a value of type '{typ.annotation_str()}' but found "
                f"'{value.type.annotation_str()}'",
                call.args[1].range,
            )
        return SimpleValue(value)


class ConstantCall(SugaredValue):
    """A function whose call is a compile-time constant (`is_scripting()`)."""

    kind = "function"

    def __init__(self, value: Any) -> None:
        self.value = value

    def call(self, em: FunctionEmitter, call: t.Call) -> SugaredValue:
        return ConstantValue(self.value)


class IsinstanceValue(SugaredValue):
    kind = "jit.isinstance"

    def call(self, em: FunctionEmitter, call: t.Call) -> SugaredValue:
        return SimpleValue(em.cond_as_value(em.emit_isinstance(call), call.range))


class GradModeValue(SugaredValue):
    """`torch.no_grad()` / `torch.enable_grad()` as `with` contexts."""

    kind = "grad mode context"

    def __init__(self, enabled: bool | None) -> None:
        self.enabled = enabled

    def call(self, em: FunctionEmitter, call: t.Call) -> SugaredValue:
        if self.enabled is None:
            args, _ = em.emit_call_args(call)
            if len(args) != 1:
                raise CallError("set_grad_enabled() expects one bool", call.range)
            return GradModeContext(args[0])
        return GradModeContext(em.constant(self.enabled, call.range))


class GradModeContext(SugaredValue):
    kind = "grad mode context"

    def __init__(self, enabled: Value) -> None:
        self.enabled = enabled


_TORCH_SPECIAL: dict[str, Any] = {
    "Tensor": TensorClassValue,
    "device": DeviceConstructor,
    "no_grad": lambda: GradModeValue(False),
    "enable_grad": lambda: GradModeValue(True),
    "set_grad_enabled": lambda: GradModeValue(None),
}

_JIT_BY_NAME: dict[str, Any] = {
    "fork": ForkValue,
    "_fork": ForkValue,
    "wait": WaitValue,
    "_wait": WaitValue,
    "annotate": AnnotateValue,
    "is_scripting": lambda: ConstantCall(True),
    "is_tracing": lambda: ConstantCall(False),
    "isinstance": IsinstanceValue,
}


_JIT_FUNCTIONS: dict[int, tuple[Any, Any]] = {}


def _register_jit_objects() -> None:
    import ts_runtime

    pairs = [
        (ts_runtime.call, DispatchCallValue),
        (jit_api.fork, ForkValue),
        (ts_runtime.fork, ForkValue),
        (jit_api.wait, WaitValue),
        (ts_runtime.wait, WaitValue),
        (jit_api.annotate, AnnotateValue),
        (jit_api.is_scripting, lambda: ConstantCall(True)),
        (jit_api.is_tracing, lambda: ConstantCall(False)),
    ]
    for obj, maker in pairs:
        _JIT_FUNCTIONS[id(obj)] = (obj, maker)


class FunctionValue(SugaredValue):
    """A Python function (or an already compiled one): compiled, then called by CallFunction."""

    kind = "function"

    def __init__(self, fn: Any) -> None:
        self.fn = fn

    def describe(self) -> str:
        return f"function '{getattr(self.fn, '__name__', self.fn)}'"

    def call(self, em: FunctionEmitter, call: t.Call) -> SugaredValue:
        callee = em.compile_callee(self.fn, call.range)
        args, kwargs = em.emit_call_args(call)
        return SimpleValue(em.emit_function_call(callee, args, kwargs, call.range))

    def as_value(self, em: FunctionEmitter, loc: SourceRange) -> Value:
        callee = em.compile_callee(self.fn, loc)
        return em.function_constant(callee, loc)


class IgnoredFunctionValue(SugaredValue):
    """An `@ignore`d function: compiled code calls the Python function itself."""

    kind = "ignored function"

    def __init__(self, fn: Any) -> None:
        self.fn = fn

    def call(self, em: FunctionEmitter, call: t.Call) -> SugaredValue:
        callee = em.python_callee(self.fn, call.range)
        args, kwargs = em.emit_call_args(call)
        return SimpleValue(em.emit_function_call(callee, args, kwargs, call.range))


class UnusedFunctionValue(SugaredValue):
    """An `@unused` function: calling it raises at run time."""

    kind = "unused function"

    def __init__(self, fn: Any) -> None:
        self.fn = fn

    def call(self, em: FunctionEmitter, call: t.Call) -> SugaredValue:
        em.emit_call_args(call)
        name = getattr(self.fn, "__qualname__", "function")
        em.emit_raise_message(f"{name} is marked @unused and cannot be called", None, call.range)
        returns = inspect.signature(self.fn).return_annotation
        typ = (
            em.type_from_python(returns, call.range)
            if returns is not inspect.Signature.empty
            else None
        )
        if typ is None:
            return ConstantValue(None)
        node = em.insert(em.graph.create_uninitialized(typ), call.range)
        return SimpleValue(node.output())


class ExceptionClassValue(SugaredValue):
    """An exception class: `raise ValueError("...")` keeps the class in the raise."""

    kind = "exception class"

    def __init__(self, cls: type[BaseException]) -> None:
        self.cls = cls

    @property
    def qualified_name(self) -> str:
        module = self.cls.__module__
        return f"{module}.{self.cls.__qualname__}"

    def call(self, em: FunctionEmitter, call: t.Call) -> SugaredValue:
        if call.keywords:
            raise NotSupportedError("exception constructors take positional arguments", call.range)
        args = [em.emit_expr(a) for a in call.args]
        if not args:
            message = em.constant("", call.range)
        elif len(args) == 1 and isinstance(args[0].type, StringType):
            message = args[0]
        elif len(args) == 1:
            message = em.call_builtin("aten::str", [args[0]], {}, call.range)
        else:
            tup = em.insert(em.graph.create_tuple(args), call.range).output()
            message = em.call_builtin("aten::str", [tup], {}, call.range)
        return ExceptionValue(self, message)


class ExceptionValue(SugaredValue):
    """An exception instance about to be raised."""

    kind = "exception"

    def __init__(self, cls: ExceptionClassValue, message: Value) -> None:
        self.cls = cls
        self.message = message


def register_user_exception(cls: type[BaseException], qualified_name: str) -> None:
    if cls.__module__ == "builtins":
        return
    from ts_runtime.interpreter.exceptions import register_exception_class

    register_exception_class(qualified_name, cls)


def fork_subgraph(callee: Any, arg_types: list[Any], result: Any) -> Graph:
    """The subgraph of a `prim::fork`: it calls `callee` on its inputs."""
    from ts_ir import FunctionType

    g = Graph()
    inputs = [g.add_input(None, typ) for typ in arg_types]
    const = g.create(CONSTANT)
    const.s_("name", callee.name)
    const.output().set_type(FunctionType(callee, callee.name))
    fn = g.insert_node(const).output()
    node = g.insert_node(g.create(CALL_FUNCTION, [fn, *inputs]))
    node.output().set_type(result)
    g.register_output(node.output())
    return g


_register_jit_objects()
