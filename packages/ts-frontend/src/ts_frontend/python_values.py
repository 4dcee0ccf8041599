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

import enum
import inspect
import math
import sys
import sysconfig
import types
from typing import Any

import ts_runtime
from ts_ir import Device, FloatType, IntType, SourceRange, StringType, TorchScriptError, Value
from ts_runtime.ops_namespace import OperatorNamespace, Operators
from ts_schema import registry

from . import jit_api
from .builtins import builtin_for_object
from .class_value import EnumClassValue, NamedTupleClassValue, PythonClassValue
from .context import EmitContext
from .conversions import emit_raise, to_bool
from .dtype_names import DTYPE_CODES, LAYOUT_CODES, MEMORY_FORMAT_CODES
from .errors import CallError, NotSupportedError
from .function_values import (
    ExceptionClassValue,
    FunctionalFunction,
    FunctionValue,
    IgnoredFunctionValue,
    UnusedFunctionValue,
    is_operator_function,
)
from .kinds import IF
from .sugared_value import (
    BuiltinFunction,
    ConstantValue,
    NamedValue,
    SimpleValue,
    SpecialFormValue,
    SugaredValue,
    kwarg_values,
    values_of,
)
from .type_annotations import enum_type, is_named_tuple_class, named_tuple_type

_MATH_CONSTANTS = {"pi": math.pi, "e": math.e, "inf": math.inf, "nan": math.nan, "tau": math.tau}
_TORCH_CONSTANTS = {"pi": math.pi, "e": math.e, "inf": math.inf, "nan": math.nan}
_TORCH_MODULES = frozenset({"tsjit", "ts_runtime", "torch"})
_JIT_MODULES = frozenset({"tsjit.jit", "torch.jit", "ts_frontend", "ts_frontend.jit_api"})
_FUNCTIONAL_MODULES = frozenset(
    {"tsjit.nn.functional", "ts_runtime.nn.functional", "torch.nn.functional"}
)
_SCALAR_TYPES = (bool, int, float, str, complex)
_MISSING: Any = object()


def to_sugared(obj: Any, loc: SourceRange | None = None, name: str = "") -> SugaredValue:
    """What a Python object means in compiled code."""
    if isinstance(obj, SugaredValue):
        return obj  # a name the driver defines itself (a compilation unit's function)
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
    alias = _torch_alias(obj)
    if alias is not None:
        return alias
    if isinstance(obj, type):
        return _class_value(obj, loc)
    if isinstance(obj, ts_runtime.Function):
        return FunctionValue(obj)
    if isinstance(obj, (Operators, OperatorNamespace)):
        return OperatorsValue(obj)
    qualified = getattr(obj, "_ts_operator", None)
    if isinstance(qualified, str) and registry.has(qualified):
        # an operator function of the runtime (`ts_runtime.tanh`, `ops.my_ns.scale`)
        return BuiltinFunction(qualified, name=obj.__name__)
    if is_operator_function(obj):
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


def _class_value(cls: type, loc: SourceRange | None) -> SugaredValue:
    """A Python class: an exception to raise, `Tensor`, a NamedTuple, or a class compiled as a
    TorchScript class when used."""
    if issubclass(cls, BaseException):
        return ExceptionClassValue(cls)
    if cls.__name__ == "Tensor":
        return TensorClassValue()
    if issubclass(cls, enum.Enum):
        members = enum_type(cls)
        if members is None:
            raise NotSupportedError(
                f"enum '{cls.__qualname__}' must have all int, all float or all str values", loc
            )
        return EnumClassValue(cls, members)
    if is_named_tuple_class(cls):
        typ = named_tuple_type(cls)
        if typ is None:
            raise NotSupportedError(
                f"NamedTuple '{cls.__qualname__}' has a field of a type compiled code cannot use",
                loc,
            )
        return NamedTupleClassValue(cls, typ)
    if any(c.__name__ == "Module" and "nn" in c.__module__ for c in cls.__mro__):
        raise NotSupportedError(
            f"module class '{cls.__qualname__}' cannot be used in compiled code; make an "
            "instance of it a submodule",
            loc,
        )
    if cls.__module__.partition(".")[0] in sys.stdlib_module_names:  # `builtins` too
        raise NotSupportedError(f"class '{cls.__qualname__}' cannot be used in compiled code", loc)
    return PythonClassValue(cls)


def _torch_alias(obj: Any) -> SugaredValue | None:
    """What `obj` means when it is a callable of the torch namespace or of `nn.functional`
    under another name (`conv2d = F.conv2d`, `tensor = torch.tensor`): the callable itself."""
    name = getattr(obj, "__name__", None)
    if not isinstance(name, str) or not callable(obj):
        return None
    torch_module = sys.modules.get("ts_runtime")
    if torch_module is not None and torch_module.__dict__.get(name) is obj:
        special = _TORCH_SPECIAL.get(name)
        if special is not None:
            return special()
        if registry.has(f"aten::{name}"):
            return BuiltinFunction(f"aten::{name}", name=f"torch.{name}")
    functional = sys.modules.get("ts_runtime.nn.functional")
    if functional is not None and functional.__dict__.get(name) is obj:
        if inspect.isfunction(obj) and registry.has(f"aten::{name}"):
            return FunctionalFunction(obj, f"aten::{name}")
    return None


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


def module_value(module: types.ModuleType) -> SugaredValue:
    name = module.__name__
    if name == "math":
        return MathModule()
    if name == "warnings":
        return WarningsModule()
    if name in _TORCH_MODULES:
        return TorchNamespace(module)
    if name in _JIT_MODULES:
        return JitNamespace(module)
    if name in _FUNCTIONAL_MODULES:
        return FunctionalNamespace(module)
    return PythonModuleValue(module)


class PythonModuleValue(SugaredValue):
    """A Python module: its attributes resolve like globals."""

    kind = "Python module"

    def __init__(self, module: types.ModuleType) -> None:
        self.module = module

    def describe(self) -> str:
        return f"module '{self.module.__name__}'"

    def attr(self, ctx: EmitContext, loc: SourceRange, name: str) -> SugaredValue:
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
    name = module.__name__.partition(".")[0]
    if name in sys.stdlib_module_names:
        return True
    file = getattr(module, "__file__", None) or ""
    paths = sysconfig.get_paths()
    return any(file.startswith(paths[k]) for k in ("purelib", "platlib", "stdlib") if k in paths)


class MathModule(SugaredValue):
    """`math`: constants, and functions that are `aten::` operators on numbers."""

    kind = "module 'math'"

    def attr(self, ctx: EmitContext, loc: SourceRange, name: str) -> SugaredValue:
        if name in _MATH_CONSTANTS:
            return ConstantValue(_MATH_CONSTANTS[name], FloatType.get())
        symbol = f"aten::{name}"
        if registry.has(symbol):
            return BuiltinFunction(symbol, name=f"math.{name}")
        raise NotSupportedError(f"math.{name} is not supported in compiled code", loc)


class WarningsModule(SugaredValue):
    """`warnings`: `warnings.warn(message)` is `aten::warn(message, stacklevel)`."""

    kind = "module 'warnings'"

    def attr(self, ctx: EmitContext, loc: SourceRange, name: str) -> SugaredValue:
        if name == "warn":
            return WarnValue()
        raise NotSupportedError(f"warnings.{name} is not supported in compiled code", loc)


class WarnValue(SugaredValue):
    """`warnings.warn(message, category=None, stacklevel=1)`; the category is not kept."""

    kind = "function 'warnings.warn'"

    def call(
        self,
        ctx: EmitContext,
        loc: SourceRange,
        args: list[NamedValue],
        kwargs: dict[str, NamedValue],
    ) -> SugaredValue:
        named = dict(zip(("message", "category", "stacklevel"), args, strict=False))
        for key, arg in kwargs.items():
            if key not in ("message", "category", "stacklevel") or key in named:
                raise CallError(f"warnings.warn() got an unexpected argument '{key}'", arg.loc)
            named[key] = arg
        if "message" not in named or len(args) > 3:
            raise CallError("warnings.warn() expects a message", loc)
        message = named["message"].value(ctx)
        stacklevel = named["stacklevel"].value(ctx) if "stacklevel" in named else None
        values = [message] if stacklevel is None else [message, stacklevel]
        ctx.call_builtin("aten::warn", values, {}, loc)
        return ConstantValue(None)


class TorchNamespace(SugaredValue):
    """The torch-shaped namespace (`tsjit`, `ts_runtime`): dtypes, operators, submodules."""

    kind = "the torch namespace"

    def __init__(self, module: types.ModuleType) -> None:
        self.module = module

    def describe(self) -> str:
        return f"module '{self.module.__name__}'"

    def attr(self, ctx: EmitContext, loc: SourceRange, name: str) -> SugaredValue:
        if name == "jit":
            return JitNamespace(None)
        special = _TORCH_SPECIAL.get(name)
        if special is not None:
            return special()
        code = DTYPE_CODES.get(name, LAYOUT_CODES.get(name, MEMORY_FORMAT_CODES.get(name)))
        if code is not None:
            return ConstantValue(code)  # a dtype, layout or memory format is an int
        if name in _TORCH_CONSTANTS:
            return ConstantValue(_TORCH_CONSTANTS[name], FloatType.get())
        obj = self.module.__dict__.get(name, _MISSING)
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

    def attr(self, ctx: EmitContext, loc: SourceRange, name: str) -> SugaredValue:
        try:
            return to_sugared(getattr(self.obj, name), loc, name)
        except TorchScriptError as exc:
            raise NotSupportedError(str(exc).split("\n")[0], loc) from None


class FunctionalNamespace(SugaredValue):
    """`nn.functional`: its Python functions are compiled; other names are operators."""

    kind = "module 'nn.functional'"

    def __init__(self, module: types.ModuleType) -> None:
        self.module = module

    def attr(self, ctx: EmitContext, loc: SourceRange, name: str) -> SugaredValue:
        obj = getattr(self.module, name, _MISSING)
        symbol = f"aten::{name}"
        if inspect.isfunction(obj) and not is_operator_function(obj):
            if registry.has(symbol):
                return FunctionalFunction(obj, symbol)
            return to_sugared(obj, loc, name)
        if registry.has(symbol):
            return BuiltinFunction(symbol, name=f"F.{name}")
        if obj is _MISSING:
            raise NotSupportedError(f"nn.functional has no function '{name}'", loc)
        return to_sugared(obj, loc, name)


class JitNamespace(SugaredValue):
    """`torch.jit`: fork, wait, annotate, is_scripting, ..."""

    kind = "module 'jit'"

    def __init__(self, module: types.ModuleType | None) -> None:
        self.module = module

    def attr(self, ctx: EmitContext, loc: SourceRange, name: str) -> SugaredValue:
        maker = _JIT_BY_NAME.get(name)
        if maker is not None:
            return maker()
        raise NotSupportedError(f"jit.{name} is not supported in compiled code", loc)


class TensorClassValue(SugaredValue):
    """`torch.Tensor` used as a value (in `isinstance`, or called)."""

    kind = "class 'Tensor'"

    def call(
        self,
        ctx: EmitContext,
        loc: SourceRange,
        args: list[NamedValue],
        kwargs: dict[str, NamedValue],
    ) -> SugaredValue:
        values, kw = values_of(ctx, args), kwarg_values(ctx, kwargs)
        return SimpleValue(ctx.call_builtin("aten::tensor", values, kw, loc))


class AssertValue(SugaredValue):
    """`torch._assert(condition, message)`: as `assert condition, message`."""

    kind = "function 'torch._assert'"

    def call(
        self,
        ctx: EmitContext,
        loc: SourceRange,
        args: list[NamedValue],
        kwargs: dict[str, NamedValue],
    ) -> SugaredValue:
        named = dict(zip(("condition", "message"), args, strict=False))
        named.update(kwargs)
        if len(args) > 2 or set(named) != {"condition", "message"}:
            raise CallError("torch._assert() expects a condition and a message", loc)
        g = ctx.graph
        cond = to_bool(ctx, named["condition"].value(ctx), loc)
        message = named["message"].value(ctx)
        if not isinstance(message.type, StringType):
            message = ctx.call_builtin("aten::str", [message], {}, loc)
        prefix = ctx.constant("AssertionError: ", loc)
        text = ctx.call_builtin("aten::add", [prefix, message], {}, loc)
        n = ctx.insert(g.create(IF, [cond], 0), loc)
        n.add_block()
        fail = n.add_block()
        with g.inserting_before(fail.return_node):
            emit_raise(ctx, text, ctx.constant(None, loc), loc)
        return ConstantValue(None)


class ConstantCall(SugaredValue):
    """A function whose call is a compile-time constant (`is_scripting()`)."""

    kind = "function"

    def __init__(self, value: Any) -> None:
        self.value = value

    def call(
        self,
        ctx: EmitContext,
        loc: SourceRange,
        args: list[NamedValue],
        kwargs: dict[str, NamedValue],
    ) -> SugaredValue:
        return ConstantValue(self.value)


class GradModeValue(SugaredValue):
    """`torch.no_grad()` / `torch.enable_grad()` / `torch.set_grad_enabled(b)` for `with`."""

    kind = "grad mode context"

    def __init__(self, enabled: bool | None) -> None:
        self.enabled = enabled

    def call(
        self,
        ctx: EmitContext,
        loc: SourceRange,
        args: list[NamedValue],
        kwargs: dict[str, NamedValue],
    ) -> SugaredValue:
        if self.enabled is None:
            if len(args) != 1 or kwargs:
                raise CallError("set_grad_enabled() expects one bool", loc)
            return GradModeContext(args[0].value(ctx))
        return GradModeContext(ctx.constant(self.enabled, loc))


class GradModeContext(SugaredValue):
    """The grad mode a `with` block runs in."""

    kind = "grad mode context"

    def __init__(self, enabled: Value) -> None:
        self.enabled = enabled


def _builtin(symbol: str, name: str) -> Any:
    return lambda: BuiltinFunction(symbol, name=name)


class LegacyTensorConstructor(SugaredValue):
    """`torch.FloatTensor(data)`, `torch.LongTensor()`, ...: `aten::tensor` of the data (of
    an empty int list without any) in the class's dtype, as TorchScript compiles them."""

    kind = "legacy tensor constructor"

    def __init__(self, name: str, dtype: str) -> None:
        self.name = name
        self.dtype = dtype

    def describe(self) -> str:
        return f"'torch.{self.name}'"

    def call(
        self,
        ctx: EmitContext,
        loc: SourceRange,
        args: list[NamedValue],
        kwargs: dict[str, NamedValue],
    ) -> SugaredValue:
        if kwargs or len(args) > 1:
            raise CallError(f"torch.{self.name}() expects at most one argument, its data", loc)
        if args:
            data = args[0].value(ctx)
        else:
            data = ctx.insert(ctx.graph.create_list(IntType.get(), []), loc).output()
        dtype = ctx.constant(DTYPE_CODES[self.dtype], loc)
        return SimpleValue(ctx.call_builtin("aten::tensor", [data], {"dtype": dtype}, loc))


_LEGACY_CONSTRUCTORS = {
    "BoolTensor": "bool",
    "ByteTensor": "uint8",
    "CharTensor": "int8",
    "ShortTensor": "int16",
    "IntTensor": "int32",
    "LongTensor": "int64",
    "HalfTensor": "float16",
    "FloatTensor": "float32",
    "DoubleTensor": "float64",
}


_TORCH_SPECIAL: dict[str, Any] = {
    "Tensor": TensorClassValue,
    "_assert": AssertValue,
    "device": _builtin("aten::device", "torch.device"),
    "no_grad": lambda: GradModeValue(False),
    "enable_grad": lambda: GradModeValue(True),
    "set_grad_enabled": lambda: GradModeValue(None),
    **{
        name: (lambda name=name, dtype=dtype: LegacyTensorConstructor(name, dtype))
        for name, dtype in _LEGACY_CONSTRUCTORS.items()
    },
}

_JIT_BY_NAME: dict[str, Any] = {
    "fork": lambda: SpecialFormValue("fork"),
    "_fork": lambda: SpecialFormValue("fork"),
    "wait": _builtin("aten::wait", "wait"),
    "_wait": _builtin("aten::wait", "wait"),
    "annotate": lambda: SpecialFormValue("annotate"),
    "is_scripting": lambda: ConstantCall(True),
    "is_tracing": lambda: ConstantCall(False),
    "isinstance": lambda: SpecialFormValue("isinstance", "jit.isinstance"),
    "_unwrap_optional": _builtin("aten::_unwrap_optional", "jit._unwrap_optional"),
}

#: the scripting API's Python objects, by identity, to their sugared values
_JIT_FUNCTIONS: dict[int, tuple[Any, Any]] = {
    id(obj): (obj, maker)
    for obj, maker in (
        (ts_runtime.call, lambda: SpecialFormValue("dispatch", "call")),
        (jit_api.fork, _JIT_BY_NAME["fork"]),
        (ts_runtime.fork, _JIT_BY_NAME["fork"]),
        (jit_api.wait, _JIT_BY_NAME["wait"]),
        (ts_runtime.wait, _JIT_BY_NAME["wait"]),
        (jit_api.annotate, _JIT_BY_NAME["annotate"]),
        (jit_api.is_scripting, _JIT_BY_NAME["is_scripting"]),
        (jit_api.is_tracing, _JIT_BY_NAME["is_tracing"]),
    )
}
