"""Schemas of Python functions that compiled code calls back into (`@ignore`)."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from ts_ir import NoneType, SourceRange, TensorType, Type
from ts_schema import Argument, FunctionSchema

from .errors import FrontendTypeError
from .type_annotations import type_from_python


def _type(annotation: Any, what: str, loc: SourceRange | None, fn: Any = None) -> Type:
    if annotation is inspect.Parameter.empty:
        return TensorType.get()
    if isinstance(annotation, str):
        # a postponed annotation (`from __future__ import annotations`): read it as a tree
        from ts_ir import Source

        from .parser import parse_expression
        from .resolver import FunctionResolver
        from .type_annotations import TypeReader

        expr = parse_expression(Source(annotation), 0, len(annotation))
        return TypeReader(FunctionResolver(fn)).read(expr)
    typ = type_from_python(annotation)
    if typ is None:
        raise FrontendTypeError(f"unsupported type annotation {annotation!r} on {what}", loc)
    return typ


def schema_of_python_function(
    fn: Callable[..., Any], name: str, loc: SourceRange | None
) -> FunctionSchema:
    """A schema from a function's annotations (unannotated parameters are Tensors)."""
    sig = inspect.signature(fn)
    arguments = []
    for p in sig.parameters.values():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            raise FrontendTypeError(
                f"'{fn.__name__}' takes *args or **kwargs, which compiled code cannot pass", loc
            )
        typ = _type(p.annotation, f"parameter '{p.name}' of '{fn.__name__}'", loc, fn)
        kwargs: dict[str, Any] = {"kwarg_only": p.kind is p.KEYWORD_ONLY}
        if p.default is not inspect.Parameter.empty:
            kwargs["default_value"] = p.default
        arguments.append(Argument(p.name, typ, **kwargs))
    ret = sig.return_annotation
    if ret is inspect.Signature.empty or ret is None or ret == "None":
        ret_type: Type = TensorType.get() if ret is inspect.Signature.empty else NoneType.get()
    else:
        ret_type = _type(ret, f"the return of '{fn.__name__}'", loc, fn)
    return FunctionSchema(name, "", arguments, [Argument("", ret_type)])


def python_defaults(fn: Callable[..., Any]) -> dict[str, Any]:
    """The default values Python computed for `fn`'s parameters, by name.

    Read from the function object itself (`inspect.signature` costs more than compiling a
    small function's statements)."""
    fn = getattr(fn, "__func__", fn)
    code = getattr(fn, "__code__", None)
    if code is None:
        return {}
    out: dict[str, Any] = dict(getattr(fn, "__kwdefaults__", None) or {})
    defaults = getattr(fn, "__defaults__", None) or ()
    if defaults:
        positional = code.co_varnames[: code.co_argcount]
        out.update(zip(positional[len(positional) - len(defaults) :], defaults, strict=True))
    return out
