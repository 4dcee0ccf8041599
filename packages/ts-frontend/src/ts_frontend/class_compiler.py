"""Compiling Python classes as TorchScript classes.

`@torch.jit.script` on a class, a class a compiled function calls or names
in an annotation, and the class of an object held by a module: each is
compiled once per compiler into a `ClassType` named `__torch__.<module>.<Class>`.
Its `__init__` is compiled first: the attributes it assigns (with the types
of their values, or of the class's annotations) make the type's slots.
Then every other method is compiled, as TorchScript compiles them all; a
property's getter becomes the method `__<name>_getter`; `@ignore`d and
`@unused` methods are left to Python (compiled code cannot call them).
Literal class attributes (`BELOW_LOW_THRESHOLD = -1`) are constants.

    @torch.jit.script
    class Boxes:
        def __init__(self, tensor: Tensor):
            self.tensor = tensor           # ClassType __torch__.m.Boxes(tensor : Tensor)
        def area(self) -> Tensor: ...      # class_type.methods["area"]
"""

from __future__ import annotations

import inspect
import typing
from typing import Any, Protocol

import ts_runtime
from ts_ir import ClassType, InterfaceType, SourceRange, Type
from ts_schema import Argument, FunctionSchema

from . import jit_api
from .ast_builder import def_of_function
from .class_value import ClassValue, InterfaceValue, ObjectValue
from .context import Compiler
from .errors import FrontendError, NotSupportedError
from .functions import ScriptFunction
from .ir_emitter import FunctionEmitter
from .python_signature import python_defaults, schema_of_python_function
from .resolver import MISSING, ChainedResolver, FunctionResolver
from .script_object import CLASS_TYPES
from .sugared_value import NOT_CONSTANT, SugaredValue, python_constant
from .type_annotations import qualified_class_name, type_from_python


class Driver(Compiler, Protocol):
    """The compiler that owns the compiled classes (`script.ScriptCompiler`)."""

    unit: ts_runtime.CompilationUnit
    optimize: bool


class CompiledClass:
    """A Python class compiled as a TorchScript class."""

    def __init__(self, py_class: type, class_type: ClassType) -> None:
        self.py_class = py_class
        self.class_type = class_type
        self.methods: set[str] = set()
        self.properties: dict[str, str] = {}  # property name -> getter method name
        self.constants: dict[str, Any] = {}
        self.declared: dict[str, Type] = {}  # attribute types from class annotations
        self.functions: dict[str, Any] = {}  # method name -> its Python function
        self.compiling: set[str] = set()


class CompiledInterface:
    """An `@interface` class: its InterfaceType and the schemas of its methods."""

    def __init__(self, py_class: type, interface_type: InterfaceType) -> None:
        self.py_class = py_class
        self.interface_type = interface_type
        self.schemas: dict[str, FunctionSchema] = {}


class ClassTypes:
    """The TorchScript classes a compiler has compiled."""

    def __init__(self, compiler: Driver) -> None:
        self.compiler = compiler
        self.by_class: dict[type, CompiledClass] = {}
        self.by_name: dict[str, CompiledClass] = {}
        self.interfaces: dict[str, CompiledInterface] = {}

    def compiled(self, cls: type, loc: SourceRange | None) -> CompiledClass:
        """The compiled class for `cls`, compiling it on first use."""
        info = self.by_class.get(cls)
        if info is not None:
            return info
        info = self._declare(cls)
        try:
            if "__init__" in info.methods:
                self.method(info, "__init__", loc, cls.__name__)
            for name in sorted(info.methods):
                self.method(info, name, loc, cls.__name__)
        except FrontendError:
            del self.by_class[cls]
            del self.by_name[info.class_type.qualified_name]
            raise
        return info

    def class_value(self, cls: type, loc: SourceRange | None) -> SugaredValue:
        return ClassValue(self.compiled(cls, loc))

    def object_value(self, value: Any, loc: SourceRange) -> SugaredValue:
        if isinstance(value.type, InterfaceType):
            return InterfaceValue(value, self.interfaces[value.type.qualified_name].schemas)
        return ObjectValue(value, self.by_name[value.type.qualified_name])

    def interface(self, cls: type) -> CompiledInterface:
        """The interface type `@interface` class `cls` declares, with its methods' schemas."""
        qualified = qualified_class_name(cls)
        found = self.interfaces.get(qualified)
        if found is not None:
            return found
        names = [
            name
            for name, member in vars(cls).items()
            if inspect.isfunction(member) and not (name.startswith("__") and name != "__call__")
        ]
        typ = InterfaceType(qualified, names)
        found = self.interfaces[qualified] = CompiledInterface(cls, typ)
        for name in names:
            schema = schema_of_python_function(vars(cls)[name], name, None)
            arguments = [Argument(schema.arguments[0].name, typ), *schema.arguments[1:]]
            found.schemas[name] = FunctionSchema(name, "", arguments, schema.returns)
        return found

    def _declare(self, cls: type) -> CompiledClass:
        """Name the class and list its methods, properties and constants (nothing compiled)."""
        qualified = qualified_class_name(cls)
        if qualified in self.by_name:
            raise NotSupportedError(f"two classes named '{qualified}' are compiled together")
        info = CompiledClass(cls, ClassType(qualified))
        for klass in reversed(cls.__mro__):
            if klass is object:
                continue
            for name, member in vars(klass).items():
                if inspect.isfunction(member):
                    if jit_api.is_ignored(member) or jit_api.is_unused(member):
                        info.methods.discard(name)
                        continue
                    info.methods.add(name)
                    info.functions[name] = member
                elif isinstance(member, property) and inspect.isfunction(member.fget):
                    getter = f"__{name}_getter"
                    info.properties[name] = getter
                    info.methods.add(getter)
                    info.functions[getter] = member.fget
                elif not name.startswith("__"):
                    value = python_constant(member)
                    if value is not NOT_CONSTANT:
                        info.constants[name] = value
        for name, hint in _annotations(cls).items():
            typ = type_from_python(hint)
            if typ is None and isinstance(hint, type):
                typ = self.compiler.class_type_of(hint)
            if typ is not None:
                info.declared[name] = typ
        self.by_class[cls] = info
        self.by_name[qualified] = info
        CLASS_TYPES[cls] = info.class_type
        return info

    def method(self, info: CompiledClass, name: str, loc: SourceRange | None, caller: str) -> Any:
        """Method `name` of a compiled class, compiled on first use."""
        class_type = info.class_type
        fn = class_type.methods.get(name)
        if fn is not None:
            return fn
        py = info.functions.get(name)
        if py is None or name not in info.methods:
            raise NotSupportedError(
                f"class '{class_type.name}' has no compiled method '{name}'",
                loc,
                hint="methods marked @ignore or @unused cannot be called from compiled code"
                if name in vars(info.py_class)
                else None,
            )
        if name in info.compiling:
            raise NotSupportedError(
                f"recursive calls are not supported: method '{name}' calls itself", loc
            )
        compiler = self.compiler
        info.compiling.add(name)
        try:
            definition = def_of_function(py)
            cls = info.py_class
            # the class's own name resolves to it even while `@script` runs on it, before the
            # module binds the name (`def scale(self) -> "Boxes"`)
            resolver = ChainedResolver(
                lambda n: cls if n == cls.__name__ else MISSING, FunctionResolver(py)
            )
            emitter = FunctionEmitter(
                compiler,
                resolver,
                definition,
                name=name,
                self_type=class_type,
                self_value_factory=lambda v: ObjectValue(v, info, defining=name == "__init__"),
                defaults=python_defaults(py),
            )
            graph, schema = emitter.emit()
        except FrontendError as exc:
            if loc is not None:
                exc.add_call_site(f"{info.py_class.__name__}.{name}", caller, loc)
            raise
        finally:
            info.compiling.discard(name)
        fn = ScriptFunction(
            name, graph, schema=schema, compilation_unit=compiler.unit, optimize=compiler.optimize
        )
        class_type.methods[name] = fn
        return fn


def _annotations(cls: type) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for klass in reversed(cls.__mro__):
        try:
            out.update(typing.get_type_hints(klass))
        except Exception:  # an annotation Python itself cannot evaluate
            out.update(getattr(klass, "__annotations__", {}))
    return out
