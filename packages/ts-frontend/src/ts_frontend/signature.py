"""A definition's signature: parameters, their types, defaults and the schema arguments.

Parameters become graph inputs stored into their variables. An annotation
(or a `# type:` comment) gives a parameter its type; without one it is a
Tensor, unless its default says otherwise (`n=3` is an int). Defaults must
be constants: numbers, strings, None, and tuples or lists of them, or names
of such constants.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ts_ir import BoolType, ClassType, FloatType, OptionalType, TensorType, Type, Value
from ts_schema import Argument, python_value_type

from . import tree as t
from .emit_context import FunctionState
from .errors import FrontendError, FrontendTypeError, NotSupportedError
from .expressions import ExprEmitter
from .sugared_value import NOT_CONSTANT, SugaredValue


class SignatureEmitter:
    """The parameters of the definition being compiled."""

    def __init__(
        self,
        state: FunctionState,
        exprs: ExprEmitter,
        self_type: ClassType | None,
        self_value: Callable[[Value], SugaredValue] | None,
    ) -> None:
        self.state = state
        self.exprs = exprs
        self.self_type = self_type  # the ClassType of `self` for a method, else None
        self.self_value = self_value  # makes the sugared value of `self` from its graph input

    def emit_params(self, d: t.Def) -> list[Argument]:
        state = self.state
        g = state.graph
        env = state.env
        params = d.params
        comment_types = d.type_comment.params if d.type_comment is not None else None
        arguments: list[Argument] = []
        start = 0
        if self.self_type is not None:
            if not params:
                raise FrontendError("a method needs a 'self' parameter", d.range)
            v = g.add_input(params[0].name, self.self_type)
            assert self.self_value is not None
            env.set_sugared(params[0].name, self.self_value(v))
            arguments.append(Argument(params[0].name, self.self_type))
            start = 1
            if comment_types is not None and len(comment_types) == len(params):
                comment_types = comment_types[1:]
        if comment_types is not None and len(comment_types) != len(params) - start:
            raise FrontendTypeError(
                f"the type comment gives {len(comment_types)} parameter types for "
                f"{len(params) - start} parameters",
                d.type_comment.range if d.type_comment else d.range,
            )
        for i, p in enumerate(params[start:]):
            if p.annotation is not None:
                typ = state.type_of(p.annotation)
            elif comment_types is not None:
                typ = state.type_of(comment_types[i])
            else:
                typ = self.infer_param_type(p)
            default = _NO_DEFAULT
            if p.default is not None:
                default = self.constant_default(p.default, typ)
            v = g.add_input(p.name, typ)
            env.insert_store(p.name, p.range, v, typ)
            kwargs: dict[str, Any] = {"kwarg_only": p.kwarg_only}
            if default is not _NO_DEFAULT:
                kwargs["default_value"] = default
            arguments.append(Argument(p.name, typ, **kwargs))
        return arguments

    def infer_param_type(self, p: t.Param) -> Type:
        """An unannotated parameter is a Tensor, unless its default says otherwise."""
        if p.default is not None:
            value = self.exprs.try_constant(p.default)
            if isinstance(value, bool):
                return BoolType.get()
            if isinstance(value, (int, float, str)):
                return python_value_type(value)
            if value is None and isinstance(p.default, t.Const):
                return OptionalType(TensorType.get())
        self.state.unannotated.add(p.name)
        return TensorType.get()

    def constant_default(self, expr: t.Expr, typ: Type) -> Any:
        value = self.exprs.try_constant(expr)
        if value is NOT_CONSTANT:
            raise NotSupportedError(
                "default values must be constants (numbers, strings, None, or tuples and lists "
                "of them)",
                expr.range,
            )
        if isinstance(typ, TensorType) and value is not None:
            raise FrontendTypeError(
                f"the default value {value!r} does not fit the parameter's type Tensor",
                expr.range,
                hint="annotate the parameter with the type of its default",
            )
        if isinstance(value, int) and not isinstance(value, bool) and _is_float(typ):
            value = float(value)
        return value


def _is_float(typ: Type) -> bool:
    inner = typ.element if isinstance(typ, OptionalType) else typ
    return isinstance(inner, FloatType)


_NO_DEFAULT: Any = object()
