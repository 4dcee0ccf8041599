"""Rebuilding the exception a program raises, with its original class.

TorchScript turns every exception inside a program into `torch.jit.Error`;
tsjit keeps the class. `prim::RaiseException(msg, cls)` names the class by
its qualified name (`builtins.ValueError`); an assert's message starts with
`AssertionError: `. Only Python's built-in exception classes and classes the
script frontend registered while compiling are ever instantiated: a name
read from IR text never imports anything.
"""

from __future__ import annotations

import builtins
import re

from ts_ir import TorchScriptError

_BUILTIN = {
    name: cls
    for name, cls in vars(builtins).items()
    if isinstance(cls, type)
    and issubclass(cls, BaseException)
    and not issubclass(cls, (KeyboardInterrupt, SystemExit, GeneratorExit))
}
_REGISTERED: dict[str, type[BaseException]] = {}
_PREFIX = re.compile(r"\A([A-Za-z_][A-Za-z0-9_]*): (.*)\Z", re.DOTALL)


class ScriptError(TorchScriptError, RuntimeError):
    """An exception raised inside a program whose class is not known here."""


def register_exception_class(qualified_name: str, cls: type[BaseException]) -> None:
    """Let programs raise `cls` (a user-defined exception class) by this name."""
    _REGISTERED[qualified_name] = cls


def exception_class(qualified_name: str) -> type[BaseException] | None:
    cls = _REGISTERED.get(qualified_name)
    if cls is not None:
        return cls
    module, _, name = qualified_name.rpartition(".")
    if module in ("", "builtins"):
        return _BUILTIN.get(name)
    return None


def make_exception(message: str, cls_name: str | None = None) -> BaseException:
    if cls_name:
        cls = exception_class(cls_name)
        if cls is not None:
            return cls(message)
        return ScriptError(f"{cls_name}: {message}")
    m = _PREFIX.match(message)
    if m is not None and m.group(1) in _BUILTIN:
        return _BUILTIN[m.group(1)](m.group(2))
    return ScriptError(message)
