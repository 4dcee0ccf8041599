"""Scripting `nn.Module` instances: infer a ClassType, compile the methods, build the object.

For each module instance the compiler infers a `ConcreteModuleType`: its
parameters, buffers and submodules (from `_parameters`, `_buffers`,
`_modules`), its constants (`__constants__` and `Final` annotations) and its
other attributes, typed from class annotations or from their values.
Instances whose concrete types agree share one `ClassType`
(`__torch__.<module>.<Class>`, later distinct ones mangled
`___torch_mangle_N`), and so share compiled methods. `forward`, the
`@export`ed methods and every method they call are compiled with `self` as
the first input; the result is a `ts_runtime.ScriptModule` whose parameters
are the eager module's own tensors.
"""

from __future__ import annotations

import inspect
import typing
from collections import OrderedDict
from typing import Any, Protocol

import ts_runtime
from ts_ir import (
    BoolType,
    ClassType,
    Device,
    DeviceType,
    DictType,
    FloatType,
    IntType,
    ListType,
    NoneType,
    Source,
    SourceRange,
    StringType,
    TensorType,
    TupleType,
    Type,
    cyclic_gc_paused,
    unify_type_list,
)
from ts_schema import Argument, FunctionSchema

from . import jit_api
from . import tree as t
from .ast_builder import def_of_function
from .context import Compiler
from .errors import FrontendError, NotSupportedError
from .functions import PythonFunction, ScriptFunction
from .ir_emitter import FunctionEmitter
from .module_value import ModuleValue
from .parser import parse_def
from .python_signature import python_defaults, schema_of_python_function
from .python_values import to_sugared
from .resolver import FunctionResolver, NamespaceResolver
from .script_object import to_script_object
from .sugared_value import SugaredValue
from .type_annotations import TypeReader, type_from_python


class Driver(Compiler, Protocol):
    """The compiler that owns the module types (`script.ScriptCompiler`)."""

    unit: ts_runtime.CompilationUnit
    optimize: bool

    def module_types(self) -> ModuleTypes: ...


_INTERNAL_ATTRIBUTES = frozenset(
    {
        "training",
        "_parameters",
        "_buffers",
        "_modules",
        "_non_persistent_buffers",
        "_forward_hooks",
        "_forward_pre_hooks",
        "_backward_hooks",
        "_state_dict_hooks",
        "_load_state_dict_pre_hooks",
        "dump_patches",
    }
)


_DUNDERS = frozenset({"__call__", "__enter__", "__exit__"})


class ConcreteModuleType:
    """What scripting learned about one module instance (shared by equal instances)."""

    def __init__(self, py_class: type) -> None:
        self.py_class = py_class
        self.class_type: ClassType = None  # type: ignore[assignment]
        self.kinds: OrderedDict[str, str] = (
            OrderedDict()
        )  # name -> parameter/buffer/module/attribute
        self.types: OrderedDict[str, Type] = OrderedDict()
        self.constants: dict[str, Any] = {}
        self.submodules: OrderedDict[str, ConcreteModuleType | None] = OrderedDict()
        self.unusable: dict[str, str] = {}
        self.methods: set[str] = set()
        self.script_methods: set[str] = set()  # `@script_method`s of a ScriptModule subclass
        # attributes holding a function (`self.act = F.gelu`), as what they mean when called
        self.functions: dict[str, SugaredValue] = {}
        self.function_ids: dict[str, int] = {}
        self.method_aliases: dict[str, str] = {}  # attributes holding a bound method of self
        self.container: str | None = None
        self.compiling: set[str] = set()

    def key(self) -> tuple:
        return (
            self.py_class,
            tuple((n, str(self.types[n]), k) for n, k in self.kinds.items()),
            tuple(sorted((k, repr(v)) for k, v in self.constants.items())),
            tuple(
                (n, None if s is None else s.class_type.qualified_name)
                for n, s in self.submodules.items()
            ),
            tuple(sorted(self.function_ids.items())),
            tuple(sorted(self.method_aliases.items())),
        )


def infer_value_type(value: Any) -> Type | None:
    """The type of an attribute's value, or None if it has none in compiled code."""
    if value is None:
        return NoneType.get()
    if isinstance(value, bool):
        return BoolType.get()
    if isinstance(value, int):
        return IntType.get()
    if isinstance(value, float):
        return FloatType.get()
    if isinstance(value, str):
        return StringType.get()
    if isinstance(value, ts_runtime.Tensor):
        return TensorType.get()
    if isinstance(value, Device):
        return DeviceType.get()
    if isinstance(value, tuple):
        items = [infer_value_type(v) for v in value]
        return None if any(i is None for i in items) else TupleType(items)  # type: ignore[arg-type]
    if isinstance(value, list):
        if not value:
            return None
        items = [infer_value_type(v) for v in value]
        if any(i is None for i in items):
            return None
        element = unify_type_list(items)  # type: ignore[arg-type]
        return None if element is None else ListType(element)
    if isinstance(value, dict):
        if not value:
            return None
        keys = [infer_value_type(k) for k in value]
        values = [infer_value_type(v) for v in value.values()]
        if any(x is None for x in keys + values):
            return None
        kt, vt = unify_type_list(keys), unify_type_list(values)  # type: ignore[arg-type]
        return None if kt is None or vt is None else DictType(kt, vt)
    return None


def _is_frontend_base(klass: type) -> bool:
    """The frontend's own `ScriptModule` base class (its methods are not the user's)."""
    return klass.__module__.startswith("ts_frontend.")


def _is_function(value: Any) -> bool:
    """A Python function (or an operator, or a compiled function) held by a module attribute;
    Python's own builtins (`print`) are not, as TorchScript does not compile them there."""
    return (
        inspect.isfunction(value)
        or isinstance(value, ts_runtime.Function)
        or getattr(value, "_ts_operator", None) is not None
    )


def _constant_value(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_constant_value(v) for v in value)
    if isinstance(value, tuple):
        return tuple(_constant_value(v) for v in value)
    if value is None or isinstance(value, (bool, int, float, str, Device)):
        return value
    raise TypeError(f"{type(value).__name__} is not a constant type")


def _is_module(obj: Any) -> bool:
    return isinstance(obj, ts_runtime.nn.Module)


def _class_annotations(cls: type) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for klass in reversed(cls.__mro__):
        try:
            out.update(typing.get_type_hints(klass))
        except Exception:  # an annotation Python itself cannot evaluate
            out.update(getattr(klass, "__annotations__", {}))
    return out


def _init_annotations(cls: type) -> dict[str, Type]:
    """`self.x: T = ...` annotations in `__init__` methods (read from their source)."""
    out: dict[str, Type] = {}
    for klass in reversed(cls.__mro__):
        init = vars(klass).get("__init__")
        if not inspect.isfunction(init) or klass.__module__.startswith("ts_runtime."):
            continue
        try:
            definition = def_of_function(init)
        except FrontendError:
            continue
        reader = TypeReader(FunctionResolver(init))
        stack = list(definition.body)
        while stack:
            stmt = stack.pop()
            if isinstance(stmt, (t.If, t.For, t.While)):
                stack.extend(stmt.body)
                stack.extend(stmt.orelse)
            elif isinstance(stmt, t.With):
                stack.extend(stmt.body)
            elif isinstance(stmt, t.Assign) and stmt.annotation is not None:
                target = stmt.targets[0]
                if (
                    isinstance(target, t.Attribute)
                    and isinstance(target.value, t.Name)
                    and target.value.id == "self"
                ):
                    try:
                        typ, _final = reader.read_final(stmt.annotation)
                    except FrontendError:
                        continue
                    if typ is not None:
                        out[target.name] = typ
    return out


class ModuleTypes:
    """The module types a compiler has made, and their methods."""

    def __init__(self, compiler: Driver) -> None:
        self.compiler = compiler
        self.by_key: dict[tuple, ConcreteModuleType] = {}
        self.concrete_by_name: dict[str, ConcreteModuleType] = {}
        self.name_counts: dict[str, int] = {}

    # -- inference

    def infer(self, module: Any) -> ConcreteModuleType:
        cls = type(module)
        c = ConcreteModuleType(cls)
        constants = set(getattr(cls, "__constants__", ()) or ())
        annotations = _class_annotations(cls)
        init_types = _init_annotations(cls)
        for name, hint in annotations.items():
            if typing.get_origin(hint) is typing.Final or hint is typing.Final:
                constants.add(name)
        c.kinds["training"] = "attribute"
        c.types["training"] = BoolType.get()
        params = module.__dict__.get("_parameters", {})
        buffers = module.__dict__.get("_buffers", {})
        modules = module.__dict__.get("_modules", {})
        for name, p in params.items():
            c.kinds[name] = "parameter"
            c.types[name] = NoneType.get() if p is None else TensorType.get()
        for name, b in buffers.items():
            c.kinds[name] = "buffer"
            c.types[name] = NoneType.get() if b is None else TensorType.get()
        for name, sub in modules.items():
            if sub is None:
                c.kinds[name] = "attribute"
                c.types[name] = NoneType.get()
                c.submodules[name] = None
                continue
            sub_c = self.infer(sub)
            c.kinds[name] = "module"
            c.types[name] = sub_c.class_type
            c.submodules[name] = sub_c
        for name, value in module.__dict__.items():
            if name in _INTERNAL_ATTRIBUTES or name in c.kinds:
                continue
            if name in constants:
                try:
                    c.constants[name] = _constant_value(value)
                except TypeError as exc:
                    c.unusable[name] = (
                        f"a constant must be a number, string, None or a tuple ({exc})"
                    )
                continue
            if _is_function(value):
                # `self.act = F.gelu`: compiled code calls the function itself
                c.functions[name] = to_sugared(value, None, name)
                c.function_ids[name] = id(value)
                continue
            if inspect.ismethod(value) and value.__self__ is module:
                # `self.act = self._mish`: calls of it call that method
                c.method_aliases[name] = value.__func__.__name__
                continue
            if inspect.isroutine(value):
                c.unusable[name] = f"it holds a Python {type(value).__name__}"
                continue
            typ = init_types.get(name)
            if typ is None and name in annotations:
                typ = self._annotation_type(annotations[name])
            if typ is None:
                typ = infer_value_type(value)
            if typ is None and type(value) in jit_api.SCRIPT_CLASSES:
                typ = self.compiler.class_type_of(type(value))  # a TorchScript class's object
            if typ is None:
                c.unusable[name] = (
                    f"its value of type {type(value).__name__} has no type in compiled code"
                    + (
                        " (an empty container needs a class annotation)"
                        if value in ([], {})
                        else ""
                    )
                )
                continue
            c.kinds[name] = "attribute"
            c.types[name] = typ
        for name in constants:
            if name not in c.constants and name not in c.kinds and name not in c.unusable:
                value = getattr(module, name, None)
                try:
                    c.constants[name] = _constant_value(value)
                except TypeError as exc:
                    c.unusable[name] = (
                        f"a constant must be a number, string, None or a tuple ({exc})"
                    )
        if isinstance(module, ts_runtime.nn.ModuleDict):
            c.container = "dict"
        elif isinstance(module, (ts_runtime.nn.ModuleList, ts_runtime.nn.Sequential)):
            c.container = "list"
        for klass in cls.__mro__:
            if klass is ts_runtime.nn.Module or klass is object or _is_frontend_base(klass):
                break
            for name, fn in vars(klass).items():
                if getattr(fn, "_ts_script_method", False):  # `@torch.jit.script_method`
                    c.methods.add(name)
                    c.script_methods.add(name)
                elif inspect.isfunction(fn) and (not name.startswith("__") or name in _DUNDERS):
                    c.methods.add(name)
        return self._intern(c)

    def _annotation_type(self, hint: Any) -> Type | None:
        typ = type_from_python(hint)
        if typ is None and isinstance(hint, type):
            typ = self.compiler.class_type_of(hint)
        return typ

    def _intern(self, c: ConcreteModuleType) -> ConcreteModuleType:
        key = c.key()
        existing = self.by_key.get(key)
        if existing is not None:
            return existing
        cls = c.py_class
        # TorchScript's _qualified_name: the module and the class's __name__ (a class defined
        # in a function, `f.<locals>.M`, is `__torch__.<module>.M`), mangled when taken
        base = "__torch__" if cls.__module__ == "__main__" else f"__torch__.{cls.__module__}"
        count = self.name_counts.get(f"{base}.{cls.__name__}", 0)
        self.name_counts[f"{base}.{cls.__name__}"] = count + 1
        qualified = (
            f"{base}.{cls.__name__}"
            if count == 0
            else f"{base}.___torch_mangle_{count - 1}.{cls.__name__}"
        )
        class_type = ClassType(qualified, is_module=True)
        for name, kind in c.kinds.items():
            class_type.add_attribute(name, c.types[name], is_parameter=kind == "parameter")
        class_type.constants.update(c.constants)
        c.class_type = class_type
        self.by_key[key] = c
        self.concrete_by_name[qualified] = c
        return c

    # -- objects in compiled code

    def concrete_of(self, typ: Any, loc: SourceRange | None) -> ConcreteModuleType:
        concrete = (
            self.concrete_by_name.get(typ.qualified_name) if isinstance(typ, ClassType) else None
        )
        if concrete is None:
            raise NotSupportedError(
                f"no compiled class '{typ.annotation_str()}' is known here", loc
            )
        return concrete

    def object_value(self, value: Any, loc: SourceRange) -> SugaredValue:
        """The sugared value of a module object (a value of a module ClassType)."""
        return ModuleValue(value, self.concrete_of(value.type, loc))

    def method_of_type(
        self, class_type: Any, name: str, loc: SourceRange | None, caller: str
    ) -> Any:
        return self.method(self.concrete_of(class_type, loc), name, loc, caller)

    # -- methods

    def method(
        self,
        c: ConcreteModuleType,
        name: str,
        call_site: SourceRange | None = None,
        caller: str | None = None,
    ) -> Any:
        fn = c.class_type.methods.get(name)
        if fn is not None:
            return fn
        overload = _overload_declaration(c.py_class, name)
        py = getattr(c.py_class, name if overload is None else overload[0], None)
        py = getattr(py, "original_fn", py)  # a `@script_method`'s function
        if py is None or not inspect.isfunction(py):
            raise NotSupportedError(
                f"module '{c.py_class.__name__}' has no method '{name}'", call_site
            )
        if jit_api.is_ignored(py) or jit_api.is_unused(py):
            fn = self._python_method(c, name, py, call_site)
            c.class_type.methods[name] = fn
            return fn
        if name in c.compiling:
            raise NotSupportedError(
                f"recursive calls are not supported: method '{name}' calls itself", call_site
            )
        c.compiling.add(name)
        try:
            builtin = _builtin_method(c.py_class, name)
            defaults = None
            if builtin is not None:
                definition, resolver = builtin
            else:
                definition, resolver = def_of_function(py), FunctionResolver(py)
                defaults = python_defaults(py)
                if overload is not None:
                    definition = overload_definition(overload[1], definition, name)
            emitter = FunctionEmitter(
                self.compiler,
                resolver,
                definition,
                name=name,
                self_type=c.class_type,
                self_value_factory=lambda v: ModuleValue(v, c),
                defaults=defaults,
            )
            graph, schema = emitter.emit()
        except FrontendError as exc:
            if call_site is not None:
                exc.add_call_site(f"{c.py_class.__name__}.{name}", caller or "?", call_site)
            raise
        finally:
            c.compiling.discard(name)
        fn = ScriptFunction(
            name,
            graph,
            schema=schema,
            compilation_unit=self.compiler.unit,
            optimize=self.compiler.optimize,
        )
        c.class_type.methods[name] = fn
        return fn

    def method_overloads(
        self,
        c: ConcreteModuleType,
        name: str,
        call_site: SourceRange | None = None,
        caller: str | None = None,
    ) -> list[Any] | None:
        """The compiled overloads (`name__0`, `name__1`, ...) of a method declared with
        `@_overload_method`, in declaration order; None for a method without overloads."""
        declared = jit_api.method_overloads(c.py_class, name)
        if not declared:
            return None
        return [self.method(c, f"{name}__{i}", call_site, caller) for i in range(len(declared))]

    def _python_method(
        self, c: ConcreteModuleType, name: str, py: Any, loc: SourceRange | None
    ) -> Any:
        schema = schema_of_python_function(py, name, loc)
        args = list(schema.arguments)
        args[0] = Argument(args[0].name, c.class_type)
        schema = FunctionSchema(name, "", args, schema.returns)
        if jit_api.is_unused(py):

            def call(module: Any, *rest: Any) -> Any:
                raise RuntimeError(
                    f"method '{name}' of {c.py_class.__name__} is marked @unused and cannot be called"
                )

        else:

            def call(module: Any, *rest: Any) -> Any:
                return getattr(module.__dict__["_original"], name)(*rest)

        return PythonFunction(name, call, schema)

    def compile_entry_points(self, c: ConcreteModuleType, done: set[int]) -> None:
        if id(c) in done:
            return
        done.add(id(c))
        for sub in c.submodules.values():
            if sub is not None:
                self.compile_entry_points(sub, done)
        cls = c.py_class
        if c.script_methods:  # a `torch.jit.ScriptModule` subclass: its script methods
            for name in sorted(c.script_methods):
                self.method(c, name)
        elif "forward" in c.methods:
            if self.method_overloads(c, "forward") is None:
                self.method(c, "forward")
        for name in sorted(c.methods):
            fn = getattr(cls, name, None)
            if fn is not None and jit_api.is_exported(fn):
                self.method(c, name)


def _overload_declaration(cls: type, name: str) -> tuple[str, Any] | None:
    """For an overload's method name (`forward__1`): the overloaded method's name and the
    declaration giving its signature; None for any other name."""
    base, sep, index = name.rpartition("__")
    if not sep or not base or not index.isdigit():
        return None
    declared = jit_api.method_overloads(cls, base)
    if int(index) >= len(declared):
        return None
    return base, declared[int(index)]


def overload_definition(declaration: Any, implementation: t.Def, name: str) -> t.Def:
    """The definition an overload compiles: the declaration's signature (parameters, their
    annotations, the return annotation) with the implementation's body, named `name`."""
    decl = def_of_function(declaration)
    declared = [p.name for p in decl.params]
    defined = [p.name for p in implementation.params]
    if declared != defined:
        raise NotSupportedError(
            f"an overload of '{implementation.name}' declares the parameters "
            f"({', '.join(declared)}), its implementation ({', '.join(defined)}): they must be "
            "the same",
            decl.range,
        )
    return t.Def(
        implementation.range,
        name,
        decl.params,
        decl.returns,
        implementation.body,
        decl.type_comment,
        implementation.name_range,
    )


_SEQUENTIAL_FORWARD = """\
def forward(self, input):
    for module in self:
        input = module(input)
    return input
"""


def _builtin_method(cls: type, name: str) -> tuple[Any, Any] | None:
    """Methods of the containers compiled from TorchScript's own definitions."""
    if (
        name == "forward"
        and issubclass(cls, ts_runtime.nn.Sequential)
        and (cls.forward is ts_runtime.nn.Sequential.forward)
    ):
        return parse_def(Source(_SEQUENTIAL_FORWARD, "<nn.Sequential>")), NamespaceResolver()
    return None


def create_script_module(module: Any, c: ConcreteModuleType) -> ts_runtime.ScriptModule:
    attributes: dict[str, Any] = {}
    params, buffers = set(), set()
    for name, kind in c.kinds.items():
        if kind == "parameter":
            attributes[name] = module._parameters[name]
            params.add(name)
        elif kind == "buffer":
            attributes[name] = module._buffers[name]
            buffers.add(name)
        elif kind == "module":
            sub = c.submodules[name]
            assert sub is not None
            attributes[name] = create_script_module(module._modules[name], sub)
        elif name == "training":
            attributes[name] = bool(getattr(module, "training", True))
        elif name in module.__dict__.get("_modules", {}):
            attributes[name] = None
        else:
            value = module.__dict__[name]
            typ = c.types[name]
            if isinstance(typ, ClassType) and not typ.is_module:
                value = to_script_object(value, typ)
            attributes[name] = list(value) if isinstance(value, list) else value
    sm = ts_runtime.ScriptModule(c.class_type, attributes, parameters=params, buffers=buffers)
    sm.__dict__["_original"] = module
    return sm


def script_module(module: Any, compiler: Driver) -> ts_runtime.ScriptModule:
    """Compile an `nn.Module` instance (see the module docstring)."""
    with cyclic_gc_paused():  # a compile makes only long-lived objects (ts_ir.memory)
        types = compiler.module_types()
        c = types.infer(module)
        types.compile_entry_points(c, set())
        return create_script_module(module, c)


def script_module_methods(
    module: Any, compiler: Driver, names: list[str]
) -> ts_runtime.ScriptModule:
    """Compile the methods `names` of a module instance (and what they call, and the
    entry points of its submodules): a `torch.jit.ScriptModule` subclass's script methods."""
    with cyclic_gc_paused():
        types = compiler.module_types()
        c = types.infer(module)
        types.compile_entry_points(c, set())
        for name in names:
            types.method(c, name)
        return create_script_module(module, c)
