"""A definition's signature: parameters, their types, defaults and the schema arguments.

Parameters become graph inputs stored into their variables. An annotation
(or a `# type:` comment) gives a parameter its type; without one it is a
Tensor, unless its default says otherwise (`n=3` is an int). Defaults must
be constants: numbers, strings, None, and tuples or lists of them, or names
of such constants.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ts_ir import ClassType, Device, FloatType, OptionalType, TensorType, Type, Value
from ts_schema import Argument, python_value_type

from . import tree as t
from .emit_context import FunctionState
from .errors import FrontendError, FrontendTypeError, NotSupportedError
from .expressions import ExprEmitter
from .sugared_value import NOT_CONSTANT, SugaredValue, python_constant


class SignatureEmitter:
    """The parameters of the definition being compiled."""

    def __init__(
        self,
        state: FunctionState,
        exprs: ExprEmitter,
        self_type: ClassType | None,
        self_value: Callable[[Value], SugaredValue] | None,
        defaults: Mapping[str, Any] | None = None,
    ) -> None:
        self.state = state
        self.exprs = exprs
        # the defaults Python computed for a Python function's parameters, by name; a
        # definition from source text has none, and its defaults are read from the tree
        self.defaults = defaults
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
            default = _NO_DEFAULT if p.default is None else self.default_value(p)
            if p.annotation is not None:
                typ = state.type_of(p.annotation)
            elif comment_types is not None:
                typ = state.type_of(comment_types[i])
            else:
                typ = self.infer_param_type(p, default)
            if default is not _NO_DEFAULT:
                default = self.check_default(default, typ, p)
            v = g.add_input(p.name, typ)
            env.insert_store(p.name, p.range, v, typ)
            kwargs: dict[str, Any] = {"kwarg_only": p.kwarg_only}
            if p.annotation is not None:
                size = state.types.broadcast_size(p.annotation)
                if size is not None:
                    kwargs["N"] = size
            if default is not _NO_DEFAULT:
                kwargs["default_value"] = default
            arguments.append(Argument(p.name, typ, **kwargs))
        return arguments

    def default_value(self, p: t.Param) -> Any:
        """A parameter's default as a constant: the value Python computed for a Python
        function (`beta: float = 1. / 9`, `device=torch.device("cpu")`), else the value
        of the default's expression."""
        assert p.default is not None
        if self.defaults is not None and p.name in self.defaults:
            value = python_constant(self.defaults[p.name])
        else:
            value = self.exprs.try_constant(p.default)
        if value is NOT_CONSTANT:
            raise NotSupportedError(
                "default values must be constants (numbers, strings, None, devices, dtypes, "
                "or tuples and lists of them)",
                p.default.range,
            )
        return value

    def infer_param_type(self, p: t.Param, default: Any) -> Type:
        """An unannotated parameter is a Tensor, unless its default says otherwise."""
        if default is not _NO_DEFAULT:
            if isinstance(default, (bool, int, float, str, Device)):
                return python_value_type(default)
            if default is None:
                return OptionalType(TensorType.get())
        self.state.unannotated.add(p.name)
        return TensorType.get()

    def check_default(self, value: Any, typ: Type, p: t.Param) -> Any:
        assert p.default is not None
        if isinstance(typ, TensorType) and value is not None:
            raise FrontendTypeError(
                f"the default value {value!r} does not fit the parameter's type Tensor",
                p.default.range,
                hint="annotate the parameter with the type of its default",
            )
        if isinstance(value, int) and not isinstance(value, bool) and _is_float(typ):
            value = float(value)
        return value


def _is_float(typ: Type) -> bool:
    inner = typ.element if isinstance(typ, OptionalType) else typ
    return isinstance(inner, FloatType)


_NO_DEFAULT: Any = object()
