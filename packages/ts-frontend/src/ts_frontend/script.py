"""`script()`: compiling Python functions, source strings and modules.

    f = script(python_function)            # a ScriptFunction
    m = script(module_instance)            # a ts_runtime.ScriptModule
    cu = CompilationUnit('''def f(x): ...''')   # own parser, no Python ast
    g = script_source('''def g(x): ...''')

A `ScriptCompiler` owns a compilation unit and compiles each Python function
once; functions call each other through `prim::CallFunction` of a function
constant the unit resolves by name. A `ScriptFunction` is the compiled
function: callable, with `.graph`, `.code`, `.schema`, `.inlined_graph` and
`.graph_for(*inputs)`.
"""

from __future__ import annotations

import functools
import inspect
import sys
import threading
from collections.abc import Callable, Mapping
from typing import Any

import ts_runtime
from ts_ir import Source, SourceRange, Type, cyclic_gc_paused

from . import jit_api
from . import tree as t
from .ast_builder import def_of_function
from .builtin_functions import reflected_functions
from .class_compiler import ClassTypes
from .conversions import emit_function_call, function_constant
from .errors import FrontendError, NotSupportedError
from .function_values import FunctionValue
from .functions import PythonFunction, ScriptFunction
from .ir_emitter import FunctionEmitter
from .parser import parse_source
from .python_signature import python_defaults, schema_of_python_function
from .resolver import MISSING, ChainedResolver, FunctionResolver, NamespaceResolver, Resolver
from .sugared_value import NamedValue, SimpleValue, SugaredValue, kwarg_values, values_of


def passes_available() -> bool:
    """Whether ts-passes can optimize graphs for execution (else graphs run as compiled)."""
    try:
        import ts_passes
    except ImportError:
        return False
    return callable(getattr(ts_passes, "optimize_for_execution", None))


class ScriptCompiler:
    """Compiles functions into one compilation unit, each Python function once."""

    def __init__(
        self, unit: ts_runtime.CompilationUnit | None = None, *, optimize: bool | None = None
    ) -> None:
        self.unit = unit if unit is not None else ts_runtime.CompilationUnit()
        self.optimize = passes_available() if optimize is None else optimize
        self._compiled: dict[Any, Any] = {}
        self._in_progress: set[Any] = set()
        self._lock = threading.RLock()
        self._module_types: Any = None
        self._class_types: ClassTypes | None = None

    def module_types(self) -> Any:
        """The module types this compiler made (see `module_compiler.ModuleTypes`)."""
        if self._module_types is None:
            from .module_compiler import ModuleTypes

            self._module_types = ModuleTypes(self)
        return self._module_types

    # -- what sugared values ask of the compiler (`context.Compiler`)

    def class_types(self) -> ClassTypes:
        """The TorchScript classes this compiler compiled (see `class_compiler`)."""
        if self._class_types is None:
            self._class_types = ClassTypes(self)
        return self._class_types

    def object_value(self, value: Any, loc: SourceRange) -> SugaredValue:
        classes = self.class_types()
        name = value.type.qualified_name
        if name in classes.by_name or name in classes.interfaces:
            return classes.object_value(value, loc)
        return self.module_types().object_value(value, loc)

    def method(self, class_type: Any, name: str, loc: SourceRange | None, caller: str) -> Any:
        classes = self.class_types()
        info = classes.by_name.get(class_type.qualified_name)
        if info is not None:
            return classes.method(info, name, loc, caller)
        return self.module_types().method_of_type(class_type, name, loc, caller)

    def method_overloads(
        self, class_type: Any, name: str, loc: SourceRange | None, caller: str
    ) -> list[Any] | None:
        types = self.module_types()
        concrete = types.concrete_by_name.get(class_type.qualified_name)
        if concrete is None:  # a TorchScript class, or an archive's: no declared overloads
            return None
        return types.method_overloads(concrete, name, loc, caller)

    def class_value(self, cls: type, loc: SourceRange | None) -> SugaredValue:
        with self._lock:
            return self.class_types().class_value(cls, loc)

    def class_type_of(self, cls: type) -> Type | None:
        if _is_module_class(cls) or issubclass(cls, BaseException):
            return None
        if cls.__module__.partition(".")[0] in sys.stdlib_module_names:
            return None
        with self._lock:
            if jit_api.is_interface(cls):
                return self.class_types().interface(cls).interface_type
            return self.class_types().compiled(cls, None).class_type

    def reflected_functions(self, symbol: str) -> list[Any]:
        return reflected_functions(symbol, _compile_builtin_source)

    # -- naming

    def unique_name(self, base: str, qualified: str) -> str:
        existing = self.unit.find_function(base)
        if existing is None or existing.name != base:
            return base
        name = qualified.replace("<locals>.", "").replace("<", "_").replace(">", "_")
        i = 1
        candidate = name
        while self.unit.find_function(candidate) is not None:
            candidate = f"{name}_{i}"
            i += 1
        return candidate

    # -- functions

    def compile_function(
        self,
        fn: Callable[..., Any],
        *,
        call_site: SourceRange | None = None,
        caller: str | None = None,
    ) -> Any:
        if isinstance(fn, (ts_runtime.Function, PythonFunction)):
            return fn
        fn = inspect.unwrap(fn)
        if getattr(fn, "__name__", "") == "<lambda>":
            raise NotSupportedError(
                "lambda functions cannot be compiled; define the function with def", call_site
            )
        key = getattr(fn, "__func__", fn)
        with self._lock:
            done = self._compiled.get(key)
            if done is not None:
                return done
            if key in self._in_progress:
                raise NotSupportedError(
                    f"recursive calls are not supported: '{fn.__name__}' calls itself",
                    call_site,
                )
            self._in_progress.add(key)
            try:
                with cyclic_gc_paused():  # a compile makes only long-lived objects (ts_ir.memory)
                    definition = def_of_function(fn)
                    if jit_api.is_unused(fn):  # scripted itself: its body is not compiled
                        definition = _raising_body(definition)
                    qualified = f"{fn.__module__}.{fn.__qualname__}"
                    name = self.unique_name(fn.__name__, qualified)
                    compiled = self.compile_definition(
                        definition, FunctionResolver(fn), name=name, defaults=python_defaults(fn)
                    )
                    compiled.qualified_name = _qualified_name(fn.__module__, name)
            except FrontendError as exc:
                if call_site is not None:
                    exc.add_call_site(fn.__name__, caller or "?", call_site)
                raise
            finally:
                self._in_progress.discard(key)
            self._compiled[key] = compiled
            return compiled

    def try_compile(self, fn: Callable[..., Any]) -> Any:
        """The compiled function, or None when `fn` cannot be compiled (remembered)."""
        key = ("failed", fn)
        if key in self._compiled:
            return None
        try:
            return self.compile_function(fn)
        except FrontendError:
            self._compiled[key] = True
            return None

    def compile_definition(
        self,
        definition: t.Def,
        resolver: Resolver,
        *,
        name: str | None = None,
        defaults: Mapping[str, Any] | None = None,
    ) -> ScriptFunction:
        emitter = FunctionEmitter(self, resolver, definition, name=name, defaults=defaults)
        graph, schema = emitter.emit()
        fn = ScriptFunction(
            emitter.name, graph, schema=schema, compilation_unit=self.unit, optimize=self.optimize
        )
        self.unit.register(fn)
        return fn

    def python_function(self, fn: Callable[..., Any], loc: SourceRange | None) -> PythonFunction:
        key = ("python", fn)
        with self._lock:
            done = self._compiled.get(key)
            if done is not None:
                return done
            name = self.unique_name(fn.__name__, f"{fn.__module__}.{fn.__qualname__}")
            wrapped = PythonFunction(name, fn, schema_of_python_function(fn, name, loc))
            self.unit.register(wrapped)  # type: ignore[arg-type]
            self._compiled[key] = wrapped
            return wrapped


_DEFAULT: list[ScriptCompiler] = []
_DEFAULT_LOCK = threading.Lock()


def default_compiler() -> ScriptCompiler:
    """The process-wide compiler `script()` uses (as TorchScript's global compilation unit)."""
    with _DEFAULT_LOCK:
        if not _DEFAULT:
            _DEFAULT.append(ScriptCompiler())
        return _DEFAULT[0]


class CompilationUnit(ts_runtime.CompilationUnit):
    """Functions compiled from source text by the frontend's own parser.

    `CompilationUnit(source)` compiles every `def` of `source`; the functions
    are attributes of the unit (`cu.f(x)`) and call each other by name. Free
    names resolve in `namespace` (by default `math`, the typing names, and
    the torch namespace as `torch`).
    """

    def __init__(
        self,
        source: str | None = None,
        *,
        namespace: Mapping[str, Any] | None = None,
        filename: str | None = None,
        first_line: int = 1,
        optimize: bool | None = None,
    ) -> None:
        super().__init__()
        self.compiler = ScriptCompiler(self, optimize=optimize)
        self.namespace = namespace
        self._pending: dict[str, t.Def] = {}
        self._unit_compiling: set[str] = set()
        if source is not None:
            self.define(source, namespace=namespace, filename=filename, first_line=first_line)

    def define(
        self,
        source: str,
        *,
        namespace: Mapping[str, Any] | None = None,
        filename: str | None = None,
        first_line: int = 1,
    ) -> list[ScriptFunction]:
        """Compile every function definition in `source`; returns them in order."""
        with cyclic_gc_paused():  # a compile makes only long-lived objects (ts_ir.memory)
            return self._define(source, namespace, filename, first_line)

    def _define(
        self,
        source: str,
        namespace: Mapping[str, Any] | None,
        filename: str | None,
        first_line: int,
    ) -> list[ScriptFunction]:
        src = Source(source, filename, first_line)
        stmts = parse_source(src)
        defs: list[t.Def] = []
        for stmt in stmts:
            if not isinstance(stmt, t.Def):
                raise NotSupportedError(
                    "a compilation unit's source may only define functions", stmt.range
                )
            defs.append(stmt)
            self._pending[stmt.name] = stmt
        fallback = NamespaceResolver(namespace if namespace is not None else self.namespace)
        resolver = ChainedResolver(self._local_function, fallback)
        self._resolver = resolver
        out = []
        for d in defs:
            out.append(self._compile_pending(d.name, None, None))
        return out

    def _local_function(self, name: str) -> Any:
        if name in self._pending:
            return _UnitFunction(self, name)
        fn = self._functions.get(name)
        if isinstance(fn, ScriptFunction):
            return FunctionValue(fn)
        return MISSING

    def _compile_pending(
        self, name: str, call_site: SourceRange | None, caller: str | None
    ) -> ScriptFunction:
        d = self._pending.get(name)
        if d is None:
            fn = self._functions[name]
            assert isinstance(fn, ScriptFunction)
            return fn
        if name in self._unit_compiling:
            raise NotSupportedError(
                f"recursive calls are not supported: '{name}' calls itself", call_site
            )
        self._unit_compiling.add(name)
        try:
            fn = self.compiler.compile_definition(d, self._resolver, name=name)
        except FrontendError as exc:
            if call_site is not None:
                exc.add_call_site(name, caller or "?", call_site)
            raise
        finally:
            self._unit_compiling.discard(name)
        del self._pending[name]
        return fn

    def __getattr__(self, name: str) -> Any:
        fn = self.__dict__.get("_functions", {}).get(name)
        if fn is None:
            raise AttributeError(name)
        return fn


class _UnitFunction(SugaredValue):
    """A function of the compilation unit's source, compiled when first called."""

    kind = "function"

    def __init__(self, unit: CompilationUnit, name: str) -> None:
        self.unit = unit
        self.name = name

    def _compiled(self, ctx: Any, loc: SourceRange) -> ScriptFunction:
        return self.unit._compile_pending(self.name, loc, ctx.function_name)

    def call(
        self,
        ctx: Any,
        loc: SourceRange,
        args: list[NamedValue],
        kwargs: dict[str, NamedValue],
    ) -> SugaredValue:
        callee = self._compiled(ctx, loc)
        values, kw = values_of(ctx, args), kwarg_values(ctx, kwargs)
        return SimpleValue(emit_function_call(ctx, callee, values, kw, loc))

    def as_value(self, ctx: Any, loc: SourceRange) -> Any:
        return function_constant(ctx, self._compiled(ctx, loc), loc)


def _raising_body(d: t.Def) -> t.Def:
    """`d` with a body that raises, as TorchScript compiles an `@unused` function."""
    loc = d.range
    message = t.Str(loc, f"{d.name} is marked @unused and cannot be called")
    raise_error = t.Raise(loc, t.Call(loc, t.Name(loc, "RuntimeError"), [message], []))
    return t.Def(loc, d.name, d.params, d.returns, [raise_error], d.type_comment, d.name_range)


def _qualified_name(module: str, name: str) -> str:
    """TorchScript's name of a compiled Python function: `__torch__.<module>.<name>`."""
    prefix = "__torch__" if module == "__main__" else f"__torch__.{module}"
    return f"{prefix}.{name}"


def _compile_builtin_source(source: str) -> list[Any]:
    unit = CompilationUnit(source, namespace={"torch": ts_runtime}, optimize=False)
    return unit.functions()


def script_source(
    source: str,
    *,
    name: str | None = None,
    namespace: Mapping[str, Any] | None = None,
    filename: str | None = None,
    first_line: int = 1,
    optimize: bool | None = None,
) -> ScriptFunction:
    """Compile the function defined in `source` (the last one, or the one named `name`)."""
    unit = CompilationUnit(
        source, namespace=namespace, filename=filename, first_line=first_line, optimize=optimize
    )
    functions = unit.functions()
    if name is not None:
        for fn in functions:
            if fn.name == name:
                return fn  # type: ignore[return-value]
        raise KeyError(f"the source defines no function named {name!r}")
    return functions[-1]  # type: ignore[return-value]


def script(obj: Any, *, optimize: bool | None = None) -> Any:
    """Compile a Python function, an `nn.Module` instance, or function source text."""
    if isinstance(obj, (ScriptFunction, ts_runtime.ScriptModule)):
        return obj
    if "_actual_script_module" in getattr(obj, "__dict__", {}):
        return obj  # a `torch.jit.ScriptModule` subclass's instance is compiled already
    if isinstance(obj, str):
        return script_source(obj, optimize=optimize)
    if inspect.isfunction(obj) or inspect.ismethod(obj):
        compiler = default_compiler() if optimize is None else ScriptCompiler(optimize=optimize)
        return compiler.compile_function(obj)
    if _is_module(obj):
        from .module_compiler import script_module

        compiler = default_compiler() if optimize is None else ScriptCompiler(optimize=optimize)
        return script_module(obj, compiler)
    if isinstance(obj, type):
        if _is_module_class(obj):
            raise NotSupportedError(
                f"script an instance of the module class {obj.__name__}, not the class"
            )
        compiler = default_compiler() if optimize is None else ScriptCompiler(optimize=optimize)
        with compiler._lock:
            compiler.class_types().compiled(obj, None)
        jit_api.SCRIPT_CLASSES.add(obj)
        return obj  # a TorchScript class stays a Python class, as TorchScript's does
    raise NotSupportedError(f"cannot script an object of type {type(obj).__name__}")


def _is_module(obj: Any) -> bool:
    return _is_module_class(type(obj))


def _is_module_class(cls: type) -> bool:
    return any(c.__name__ == "Module" and "nn" in c.__module__ for c in cls.__mro__)


def script_if_tracing(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Run `fn` as Python, but compiled when it is called while a trace records
    (`torch.jit._script_if_tracing`); compiled code calling it compiles `fn` itself."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not jit_api.is_tracing():
            return fn(*args, **kwargs)
        return script(fn)(*args, **kwargs)

    return wrapper
