"""The scripting API programs call: `fork`, `wait`, `annotate`, `Final`, and the decorators.

In eager Python these do the obvious thing (`annotate(T, v)` is `v`,
`is_scripting()` is False, `fork` runs on the interpreter's thread pool);
the frontend recognizes them by identity and compiles them specially.
`@export` marks a module method to compile even if `forward` does not call
it; `@ignore` leaves a function to Python (compiled code calls back into it);
`@unused` replaces a method by one that raises.
"""

from __future__ import annotations

import typing
from collections.abc import Callable
from typing import Any, TypeVar

from ts_runtime import Future
from ts_runtime import fork as _fork
from ts_runtime import wait as _wait

from .tracing_state import current_tracing_state

F = TypeVar("F", bound=Callable[..., Any])

#: `x: Final[int]` marks a module attribute as a constant.
Final = typing.Final

EXPORT = "_tsjit_export"
IGNORE = "_tsjit_ignore"
UNUSED = "_tsjit_unused"


def fork(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Future:
    """Run `fn(*args, **kwargs)` asynchronously; `wait` on the returned Future for its result.

    While tracing, the call runs at once (so its operators are recorded in order).
    """
    if current_tracing_state() is not None:
        future = Future()
        future.set_result(fn(*args, **kwargs))
        return future
    return _fork(fn, *args, **kwargs)


def wait(future: Future) -> Any:
    """The result of a forked call, waiting for it if needed."""
    return _wait(future)


def annotate(the_type: Any, value: Any) -> Any:
    """Give `value` the type `the_type` in compiled code (`annotate(List[int], [])`)."""
    return value


def is_scripting() -> bool:
    """True in compiled code, False in eager Python."""
    return False


def is_tracing() -> bool:
    """True while a function is being traced."""
    return current_tracing_state() is not None


def export(fn: F) -> F:
    """Compile this module method too, even if `forward` does not call it."""
    setattr(fn, EXPORT, True)
    return fn


def ignore(fn: F | None = None, *, drop: bool = False) -> Any:
    """Leave this function to Python: compiled code calls the Python function itself."""

    def mark(f: F) -> F:
        setattr(f, IGNORE, True)
        if drop:
            setattr(f, UNUSED, True)
        return f

    return mark if fn is None else mark(fn)


#: `@_overload_method` declarations: (file, qualified name) -> the declarations, in order
_METHOD_OVERLOADS: dict[tuple[str, str], list[Callable[..., Any]]] = {}


def _overload_method(fn: F) -> F:
    """Declare one signature of an overloaded module method (TorchScript's
    `torch.jit._overload_method`): the declarations carry the annotations, the undecorated
    definition of the same name that follows them is the body. Each declaration compiles to
    a method `<name>__<i>`; a call picks the first whose signature its arguments match."""
    code = fn.__code__
    _METHOD_OVERLOADS.setdefault((code.co_filename, fn.__qualname__), []).append(fn)
    return fn


def method_overloads(cls: type, name: str) -> list[Callable[..., Any]]:
    """The `@_overload_method` declarations of `cls.name`, in order (empty without any): those
    of its class's qualified name and file that precede the implementation."""
    impl = getattr(cls, name, None)
    code = getattr(impl, "__code__", None)
    if code is None:
        return []
    declared = _METHOD_OVERLOADS.get((code.co_filename, f"{cls.__qualname__}.{name}"), [])
    return [d for d in declared if d.__code__.co_firstlineno < code.co_firstlineno]


def unused(fn: F) -> F:
    """Do not compile this function: calling it from compiled code raises."""
    setattr(fn, UNUSED, True)
    return fn


#: classes `@script` compiled as TorchScript classes: an object of one held by a module
#: attribute has that class's type
SCRIPT_CLASSES: set[type] = set()


INTERFACE = "_tsjit_interface"


def interface(cls: type) -> type:
    """Declare `cls` a TorchScript interface: a value of its type is any object whose class has
    methods of these names; compiled code calls them by name (`prim::CallMethod`)."""
    setattr(cls, INTERFACE, True)
    return cls


def is_interface(cls: Any) -> bool:
    return bool(cls.__dict__.get(INTERFACE, False)) if isinstance(cls, type) else False


def is_ignored(fn: Any) -> bool:
    return bool(getattr(fn, IGNORE, False))


def is_unused(fn: Any) -> bool:
    return bool(getattr(fn, UNUSED, False))


def is_exported(fn: Any) -> bool:
    return bool(getattr(fn, EXPORT, False))
