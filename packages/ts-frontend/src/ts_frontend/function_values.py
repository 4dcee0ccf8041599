"""Python functions and exception classes a program calls, as sugared values.

A Python function is compiled (by the compiler the context carries) and
called with `prim::CallFunction` of a function constant; an `@ignore`d one
is called back in Python; an `@unused` one raises when called. An exception
class called with a message makes an exception to `raise`, keeping the
class (`prim::RaiseException(msg, "builtins.ValueError")`).
"""

from __future__ import annotations

import inspect
from typing import Any

from ts_ir import SourceRange, StringType, Value
from ts_schema import registry

from .context import EmitContext
from .conversions import emit_function_call, emit_raise, function_constant
from .errors import FrontendTypeError, NotSupportedError
from .sugared_value import (
    BuiltinFunction,
    ConstantValue,
    NamedValue,
    SimpleValue,
    SugaredValue,
    constant_of,
    kwarg_values,
    values_of,
)
from .type_annotations import type_from_python


def _callee(ctx: EmitContext, fn: Any, loc: SourceRange) -> Any:
    return ctx.compiler.compile_function(fn, call_site=loc, caller=ctx.function_name)


class FunctionValue(SugaredValue):
    """A Python function (or an already compiled one): compiled, then called by CallFunction."""

    kind = "function"

    def __init__(self, fn: Any) -> None:
        self.fn = fn

    def describe(self) -> str:
        return f"function '{getattr(self.fn, '__name__', self.fn)}'"

    def call(
        self,
        ctx: EmitContext,
        loc: SourceRange,
        args: list[NamedValue],
        kwargs: dict[str, NamedValue],
    ) -> SugaredValue:
        callee = _callee(ctx, self.fn, loc)
        values, kw = values_of(ctx, args), kwarg_values(ctx, kwargs)
        return SimpleValue(emit_function_call(ctx, callee, values, kw, loc))

    def as_value(self, ctx: EmitContext, loc: SourceRange) -> Value:
        return function_constant(ctx, _callee(ctx, self.fn, loc), loc)


class FunctionalFunction(FunctionValue):
    """A Python function of `nn.functional` that has an operator of the same name.

    Its body is compiled as TorchScript compiles `torch.nn.functional`; when the
    body is not compilable, the call goes to the operator itself.
    """

    def __init__(self, fn: Any, symbol: str) -> None:
        super().__init__(fn)
        self.symbol = symbol

    def call(
        self,
        ctx: EmitContext,
        loc: SourceRange,
        args: list[NamedValue],
        kwargs: dict[str, NamedValue],
    ) -> SugaredValue:
        callee = ctx.compiler.try_compile(self.fn)
        if callee is None:
            symbol, args, kwargs = self._dispatch_return_indices(args, kwargs)
            return BuiltinFunction(symbol, name=self.fn.__name__).call(ctx, loc, args, kwargs)
        values, kw = values_of(ctx, args), kwarg_values(ctx, kwargs)
        return SimpleValue(emit_function_call(ctx, callee, values, kw, loc))

    def _dispatch_return_indices(
        self, args: list[NamedValue], kwargs: dict[str, NamedValue]
    ) -> tuple[str, list[NamedValue], dict[str, NamedValue]]:
        """A function with a `return_indices` flag (`max_pool2d`, ...) calls the
        `_with_indices` operator where the flag is a constant True and the plain one
        otherwise, the flag left out, as TorchScript's boolean dispatch does."""
        try:
            params = list(inspect.signature(self.fn).parameters)
        except (TypeError, ValueError):
            return self.symbol, args, kwargs
        if "return_indices" not in params:
            return self.symbol, args, kwargs
        at = params.index("return_indices")
        if "return_indices" in kwargs:
            flag = kwargs["return_indices"]
            kwargs = {k: v for k, v in kwargs.items() if k != "return_indices"}
        elif len(args) > at:
            flag = args[at]
            args = args[:at] + args[at + 1 :]
        else:
            return self.symbol, args, kwargs
        value = constant_of(flag.sugared)
        if not isinstance(value, bool):
            raise NotSupportedError(
                f"{self.fn.__name__}(): return_indices must be a constant True or False", flag.loc
            )
        symbol = f"{self.symbol}_with_indices" if value else self.symbol
        if not registry.has(symbol):
            raise NotSupportedError(f"{self.fn.__name__}() has no form with indices", flag.loc)
        return symbol, args, kwargs


class IgnoredFunctionValue(SugaredValue):
    """An `@ignore`d function: compiled code calls the Python function itself."""

    kind = "ignored function"

    def __init__(self, fn: Any) -> None:
        self.fn = fn

    def call(
        self,
        ctx: EmitContext,
        loc: SourceRange,
        args: list[NamedValue],
        kwargs: dict[str, NamedValue],
    ) -> SugaredValue:
        callee = ctx.compiler.python_function(self.fn, loc)
        values, kw = values_of(ctx, args), kwarg_values(ctx, kwargs)
        return SimpleValue(emit_function_call(ctx, callee, values, kw, loc))


class UnusedFunctionValue(SugaredValue):
    """An `@unused` function: calling it raises at run time."""

    kind = "unused function"

    def __init__(self, fn: Any) -> None:
        self.fn = fn

    def call(
        self,
        ctx: EmitContext,
        loc: SourceRange,
        args: list[NamedValue],
        kwargs: dict[str, NamedValue],
    ) -> SugaredValue:
        values_of(ctx, args)
        kwarg_values(ctx, kwargs)
        name = getattr(self.fn, "__qualname__", "function")
        message = ctx.constant(f"{name} is marked @unused and cannot be called", loc)
        emit_raise(ctx, message, ctx.constant(None, loc), loc)
        returns = inspect.signature(self.fn).return_annotation
        if returns is inspect.Signature.empty:
            return ConstantValue(None)
        typ = type_from_python(returns)
        if typ is None:
            raise FrontendTypeError(f"unknown type annotation {returns!r}", loc)
        node = ctx.insert(ctx.graph.create_uninitialized(typ), loc)
        return SimpleValue(node.output())


class ExceptionClassValue(SugaredValue):
    """An exception class: `raise ValueError("...")` keeps the class in the raise."""

    kind = "exception class"

    def __init__(self, cls: type[BaseException]) -> None:
        self.cls = cls

    @property
    def qualified_name(self) -> str:
        return f"{self.cls.__module__}.{self.cls.__qualname__}"

    def call(
        self,
        ctx: EmitContext,
        loc: SourceRange,
        args: list[NamedValue],
        kwargs: dict[str, NamedValue],
    ) -> SugaredValue:
        if kwargs:
            raise NotSupportedError("exception constructors take positional arguments", loc)
        values = values_of(ctx, args)
        if not values:
            message = ctx.constant("", loc)
        elif len(values) == 1 and isinstance(values[0].type, StringType):
            message = values[0]
        elif len(values) == 1:
            message = ctx.call_builtin("aten::str", [values[0]], {}, loc)
        else:
            tup = ctx.insert(ctx.graph.create_tuple(values), loc).output()
            message = ctx.call_builtin("aten::str", [tup], {}, loc)
        return ExceptionValue(self, message)


class ExceptionValue(SugaredValue):
    """An exception instance about to be raised."""

    kind = "exception"

    def __init__(self, cls: ExceptionClassValue, message: Value) -> None:
        self.cls = cls
        self.message = message


def register_user_exception(cls: type[BaseException], qualified_name: str) -> None:
    """Let the interpreter raise a program's own exception class by its qualified name."""
    if cls.__module__ == "builtins":
        return
    from ts_runtime.interpreter.exceptions import register_exception_class

    register_exception_class(qualified_name, cls)


def is_operator_function(obj: Any) -> bool:
    """An eager wrapper of a registry operator (`ts_runtime.tanh`)."""
    module = getattr(obj, "__module__", "") or ""
    return (
        callable(obj)
        and module.startswith("ts_runtime.ops")
        and registry.has(f"aten::{getattr(obj, '__name__', '')}")
    )
