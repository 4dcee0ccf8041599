"""`ScriptObject`: the runtime object of a TorchScript class.

`prim::CreateObject` makes one (its attributes are set by the class's
compiled `__init__`); `prim::GetAttr`/`prim::SetAttr` read and write its
slots, which its ClassType names; `prim::CallMethod` finds its compiled
methods in `class_type.methods`. Python's own protocols (`len(obj)`,
`obj[i]`, `obj(x)`) call the compiled `__len__`, `__getitem__`,
`__call__`. A Python instance of a compiled class is copied into one when it
enters compiled code (`to_script_object`), as TorchScript copies it.
"""

from __future__ import annotations

import weakref
from typing import Any

from ts_ir import ClassType


class ScriptMethod:
    """A compiled method bound to its object."""

    __slots__ = ("function", "obj")

    def __init__(self, obj: ScriptObject, function: Any) -> None:
        self.obj = obj
        self.function = function

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.function(self.obj, *args, **kwargs)

    def __repr__(self) -> str:
        return f"<bound method {self.function.name} of {self.obj._type.qualified_name}>"


class ScriptObject:
    """An instance of a TorchScript class: attribute slots and compiled methods."""

    def __init__(self, class_type: ClassType) -> None:
        self.__dict__["_type"] = class_type

    def __getattr__(self, name: str) -> Any:
        # only reached when `name` is not a slot already set
        class_type = self.__dict__["_type"]
        fn = class_type.methods.get(name)
        if fn is not None:
            return ScriptMethod(self, fn)
        if name in class_type.attributes:
            raise AttributeError(f"attribute '{name}' of {class_type.qualified_name} is not set")
        raise AttributeError(f"'{class_type.qualified_name}' object has no attribute '{name}'")

    def __setattr__(self, name: str, value: Any) -> None:
        class_type = self.__dict__["_type"]
        if name not in class_type.attributes:
            raise AttributeError(
                f"cannot add attribute '{name}' to an object of '{class_type.qualified_name}'"
            )
        self.__dict__[name] = value

    def _method(self, name: str) -> Any:
        fn = self.__dict__["_type"].methods.get(name)
        if fn is None:
            raise TypeError(f"'{self.__dict__['_type'].qualified_name}' object has no {name}")
        return ScriptMethod(self, fn)

    def __len__(self) -> int:
        return self._method("__len__")()

    def __getitem__(self, index: Any) -> Any:
        return self._method("__getitem__")(index)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._method("__call__")(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<{self.__dict__['_type'].qualified_name} object>"


#: the ClassType each Python class was compiled to, so its instances can be copied
CLASS_TYPES: weakref.WeakKeyDictionary[type, ClassType] = weakref.WeakKeyDictionary()


def to_script_object(value: Any, class_type: ClassType | None = None) -> Any:
    """`value` as an object of `class_type` (by default, of the class its Python class was
    compiled to): a Python instance of the class is copied attribute by attribute (objects of
    compiled classes inside it too); anything else is returned as it is, for the argument
    check to judge."""
    if isinstance(value, ScriptObject) or getattr(value, "_type", None) is not None:
        return value
    if class_type is None:
        class_type = CLASS_TYPES.get(type(value))
        if class_type is None:
            return value
    names = class_type.attributes
    if not all(hasattr(value, name) for name in names):
        return value
    obj = ScriptObject(class_type)
    for name, typ in names.items():
        item = getattr(value, name)
        if isinstance(typ, ClassType) and not typ.is_module:
            item = to_script_object(item, typ)
        obj.__dict__[name] = item
    return obj
