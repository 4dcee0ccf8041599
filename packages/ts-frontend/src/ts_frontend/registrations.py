"""What the frontend tells the operator registry about operators it emits.

`prim::Enter` and `prim::Exit` (emitted for `with obj:`) run the object's
compiled `__enter__` and `__exit__`; `prim::CreateObject` makes an empty
`ScriptObject` of its output's class, for the class's `__init__` to fill.
(That `aten::set_grad_enabled` and `aten::warn` have side effects is their
registry tag, `Tag.side_effect`.)
"""

from __future__ import annotations

from typing import Any

from ts_schema import registry

from .script_object import ScriptObject


def _enter(node: Any) -> Any:
    return lambda obj: obj.__enter__()


def _exit(node: Any) -> Any:
    return lambda obj: obj.__exit__(None, None, None)


def _create_object(node: Any) -> Any:
    class_type = node.output().type
    return lambda: ScriptObject(class_type)


def register() -> None:
    # `with obj:` on a compiled object calls its own __enter__ and __exit__ methods
    for key, factory in (
        ("prim::Enter", _enter),
        ("prim::Exit", _exit),
        ("prim::CreateObject", _create_object),
    ):
        op = registry.find(key)
        if op is not None and not op.has_implementation:
            registry.implement(op.key, factory=factory)
