"""Importing printed source: TorchScript's `import_source`, through the frontend's own parser.

Archives hold code as the Python printer writes it (see `python_printer`).
`SourceImporter` compiles it back, never through Python's `exec`: the text
is parsed by the frontend's parser and emitted by its IR emitter, with the
names the printer uses resolved as the printer meant them:

    torch.<op>(...)          the operator aten::<op>
    ops.<ns>.<op>(...)       the operator <ns>::<op>
    CONSTANTS.c3             entry 3 of the archive's constant table
    __torch__.a.b.C          a class or function of the archive (imported on first use)
    annotate(T, v), unchecked_cast(T, v), uninitialized(T), isinstance(v, T),
    fork(f) of a nested `def f():`, int(), float(), bool(), getattr(), inf, nan

Class and function definitions are registered first and compiled on first
use (and `compile_all` compiles the rest), so code may refer to a class or
function defined later in the archive; a definition that refers to itself
is an error, as in scripting. Methods of imported classes are compiled
with `self` typed by the class, whose attributes, constants and methods
the class's definition declares.

`parse_archive_source` reads the files TorchScript's `torch.jit.save`
writes: `class C(Module):` bodies declaring `__parameters__`, `__buffers__`,
attributes (`x : int`), constants (`k : Final[int] = 3`) and methods, plus
`import` lines and `op_version_set = N`, which carry no meaning here.
"""

from __future__ import annotations

import math
import types
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ts_ir import (
    ClassType,
    ComplexType,
    DeviceType,
    FloatType,
    FutureType,
    Lexer,
    Source,
    SourceRange,
    TupleType,
    Type,
    TypeParser,
    Value,
    cyclic_gc_paused,
)
from ts_schema import registry

from . import tree as t
from .builtins import builtin_value
from .context import EmitContext
from .conversions import convert_to_type, emit_function_call
from .emit_context import FunctionState
from .errors import FrontendError, NotSupportedError
from .expressions import ExprEmitter
from .functions import ScriptFunction
from .ir_emitter import FunctionEmitter
from .kinds import FORK
from .module_value import ModuleValue
from .parser import Parser
from .python_values import MathModule
from .resolver import MISSING, Resolver
from .script import ScriptCompiler
from .sugared_value import (
    BuiltinFunction,
    ConstantValue,
    NamedValue,
    SimpleValue,
    SpecialFormValue,
    SugaredValue,
    kwarg_values,
    values_of,
)
from .type_annotations import TypeReader

# -- parsing archive files


@dataclass
class ClassDef:
    """`class Name(Base): body` of an archive file (its body statements unread)."""

    name: str
    bases: list[str]
    body: list[t.Stmt]
    range: SourceRange


class _ArchiveParser(Parser):
    """The frontend's parser, with class definitions and the lines archives add."""

    def parse_statement(self) -> list[Any]:  # type: ignore[override]
        kind = self.cur.kind
        if kind == "class":
            return [self.parse_class()]
        if kind in ("import", "from"):
            while self.cur.kind not in ("newline", "eof"):
                self.next()
            self.lexer.next_if("newline")
            return []
        return super().parse_statement()

    def parse_class(self) -> ClassDef:
        start = self.next().start  # 'class'
        name = self.expect("ident", "a class name").text
        bases: list[str] = []
        if self.lexer.next_if("("):
            while self.cur.kind != ")":
                bases.append(self.parse_expr().range.text())
                if not self.lexer.next_if(","):
                    break
            self.expect(")", "')'")
        body = self.parse_block()
        return ClassDef(name, bases, body, self.span(start))


def parse_archive_source(text: str, filename: str) -> list[Any]:
    """The statements of an archive's code file: `t.Def`s, `ClassDef`s and assignments."""
    return _ArchiveParser(Source(text, filename)).parse_module()


@dataclass
class SourceFile:
    """What one file of printed code defines."""

    classes: list[ClassDef]
    functions: list[t.Def]


def read_source_file(text: str, filename: str) -> SourceFile:
    """The classes and functions a code file defines; `op_version_set = N` lines (1.x
    archives) are skipped, anything else at the top level is an error."""
    out = SourceFile([], [])
    for stmt in parse_archive_source(text, filename):
        if isinstance(stmt, ClassDef):
            out.classes.append(stmt)
        elif isinstance(stmt, t.Def):
            out.functions.append(stmt)
        elif (
            isinstance(stmt, t.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], t.Name)
            and stmt.targets[0].id == "op_version_set"
        ):
            continue
        else:
            raise SourceImportError(f"unexpected {stmt.kind} at the top of a code file", stmt.range)
    return out


# -- what the importer is given


@dataclass
class ClassSpec:
    """A class of the archive: its slots and its methods' definitions.

    `attributes` maps names to types (a `Type`, or a type expression read in
    the class's scope); `constants` maps names to values; `methods` to defs.
    """

    qualified_name: str
    is_module: bool
    attributes: dict[str, Any] = field(default_factory=dict)
    #: a NamedTuple: `attributes` are its fields, `constants` their defaults
    named_tuple: bool = False
    parameters: set[str] = field(default_factory=set)
    buffers: set[str] = field(default_factory=set)
    constants: dict[str, Any] = field(default_factory=dict)
    methods: dict[str, t.Def] = field(default_factory=dict)


class SourceImportError(FrontendError):
    """Printed source that does not import (a missing class, function or constant)."""


# -- the sugared values of printed code


class _OperatorNamespace(SugaredValue):
    """`torch` (aten) or `ops.<ns>`: every attribute is an operator of the registry."""

    kind = "operator namespace"

    def __init__(self, namespace: str, spelled: str) -> None:
        self.namespace = namespace
        self.spelled = spelled

    def describe(self) -> str:
        return f"'{self.spelled}'"

    def attr(self, ctx: EmitContext, loc: SourceRange, name: str) -> SugaredValue:
        symbol = f"{self.namespace}::{name}"
        if not registry.has(symbol):
            raise NotSupportedError(
                f"unknown operator '{symbol}' (written '{self.spelled}.{name}'): no installed "
                "package provides it",
                loc,
            )
        return BuiltinFunction(symbol, name=f"{self.spelled}.{name}")


class _OpsValue(SugaredValue):
    kind = "'ops'"

    def attr(self, ctx: EmitContext, loc: SourceRange, name: str) -> SugaredValue:
        return _OperatorNamespace(name, f"ops.{name}")


class _ConstantTableValue(SugaredValue):
    """`CONSTANTS.cN`."""

    kind = "the constant table"

    def __init__(self, constants: Sequence[Any]) -> None:
        self.constants = constants

    def attr(self, ctx: EmitContext, loc: SourceRange, name: str) -> SugaredValue:
        digits = name[1:]
        if not name.startswith("c") or not digits.isdigit() or len(digits) > 9:
            raise SourceImportError(f"'CONSTANTS.{name}' is not a constant's name (cN)", loc)
        i = int(digits)
        if i >= len(self.constants):
            raise SourceImportError(
                f"CONSTANTS.{name} does not exist: the archive has {len(self.constants)} constants",
                loc,
            )
        return ConstantValue(self.constants[i])


class _QualifiedName(SugaredValue):
    """`__torch__.a.b`: a prefix of the qualified name of a class or function of the archive."""

    kind = "qualified name"

    def __init__(self, importer: SourceImporter, name: str) -> None:
        self.importer = importer
        self.name = name

    def describe(self) -> str:
        return f"'{self.name}'"

    def attr(self, ctx: EmitContext, loc: SourceRange, name: str) -> SugaredValue:
        qualified = f"{self.name}.{name}"
        importer = self.importer
        if qualified in importer.functions:
            return _ImportedFunction(importer.function(qualified, loc))
        if qualified in importer.classes:
            if importer.classes[qualified].named_tuple:
                return _NamedTupleValue(importer, qualified)
            return _ClassValue(importer.class_type(qualified, loc))
        if importer.has_prefix(qualified):
            return _QualifiedName(importer, qualified)
        raise SourceImportError(f"the archive defines no class or function '{qualified}'", loc)


class _ImportedFunction(SugaredValue):
    """A function of the archive. Not a first-class value: `_0 = __torch__.m.f` binds the
    name to the function itself, as TorchScript's printed code expects (`_0(x, )`)."""

    kind = "function"

    def __init__(self, fn: Any) -> None:
        self.fn = fn

    def describe(self) -> str:
        return f"function '{self.fn.name}'"

    def call(
        self,
        ctx: EmitContext,
        loc: SourceRange,
        args: list[NamedValue],
        kwargs: dict[str, NamedValue],
    ) -> SugaredValue:
        values, kw = values_of(ctx, args), kwarg_values(ctx, kwargs)
        return SimpleValue(emit_function_call(ctx, self.fn, values, kw, loc))


class _ClassValue(SugaredValue):
    """A class of the archive: `C.__new__(C)` makes an uninitialized object."""

    kind = "class"

    def __init__(self, class_type: ClassType) -> None:
        self.class_type = class_type

    def describe(self) -> str:
        return f"class '{self.class_type.qualified_name}'"

    def attr(self, ctx: EmitContext, loc: SourceRange, name: str) -> SugaredValue:
        if name == "__new__":
            return _NewObject(self.class_type)
        raise NotSupportedError(f"{self.describe()} has no attribute '{name}' here", loc)


class _NamedTupleValue(SugaredValue):
    """A NamedTuple of the archive: calling it builds the tuple (defaults filled in)."""

    kind = "NamedTuple"

    def __init__(self, importer: SourceImporter, qualified: str) -> None:
        self.importer = importer
        self.qualified = qualified

    def describe(self) -> str:
        return f"NamedTuple '{self.qualified}'"

    def call(
        self,
        ctx: EmitContext,
        loc: SourceRange,
        args: list[NamedValue],
        kwargs: dict[str, NamedValue],
    ) -> SugaredValue:
        typ = self.importer.class_type(self.qualified, loc)
        spec = self.importer.classes[self.qualified]
        assert isinstance(typ, TupleType) and typ.names is not None
        if len(args) > len(typ.names):
            raise SourceImportError(
                f"{self.describe()} takes {len(typ.names)} fields, not {len(args)}", loc
            )
        kw = dict(kwargs)
        values = []
        for i, (name, field_type) in enumerate(zip(typ.names, typ.elements, strict=True)):
            if i < len(args):
                v = args[i].value(ctx)
            elif name in kw:
                v = kw.pop(name).value(ctx)
            elif name in spec.constants:
                v = ctx.constant(spec.constants[name], loc)
            else:
                raise SourceImportError(f"{self.describe()} needs field '{name}'", loc)
            values.append(convert_to_type(ctx, v, field_type, loc))
        if kw:
            raise SourceImportError(f"{self.describe()} has no field '{next(iter(kw))}'", loc)
        return SimpleValue(ctx.insert(ctx.graph.create_tuple(values, typ), loc).output())


class _NewObject(SugaredValue):
    kind = "__new__"

    def __init__(self, class_type: ClassType) -> None:
        self.class_type = class_type

    def call(
        self,
        ctx: EmitContext,
        loc: SourceRange,
        args: list[NamedValue],
        kwargs: dict[str, NamedValue],
    ) -> SugaredValue:
        node = ctx.insert(ctx.graph.create("prim::CreateObject", [], 1), loc)
        node.output().set_type(self.class_type)
        return SimpleValue(node.output())


class _TypedForm(SugaredValue):
    """A call the importer compiles from its syntax: its first argument is a type.

    `unchecked_cast(T, v)` is `prim::unchecked_cast`; `uninitialized(T)` is
    `prim::Uninitialized`; `fork(f)` of a nested `def f():` is a `prim::fork`
    whose subgraph is `f`'s body (any other `fork` is the frontend's own).
    """

    kind = "special form"

    def __init__(self, form: str) -> None:
        self.form = form

    def describe(self) -> str:
        return f"builtin function '{self.form}'"


class _Closure(SugaredValue):
    """A nested `def` of printed code: only `fork(f)` uses one (the forked subgraph)."""

    kind = "closure"

    def __init__(self, definition: t.Def) -> None:
        self.definition = definition

    def describe(self) -> str:
        return f"nested function '{self.definition.name}'"


_FLOAT_NAMES = {"inf": math.inf, "nan": math.nan}
_COMPLEX_NAMES = {"infj": complex(0, math.inf), "nanj": complex(0, math.nan)}


class ImportResolver(Resolver):
    """The names printed code uses, and nothing else (no Python globals, no builtins module)."""

    def __init__(self, importer: SourceImporter) -> None:
        self.importer = importer

    def lookup(self, name: str) -> Any:
        if name == "torch":
            return _OperatorNamespace("aten", "torch")
        if name == "ops":
            return _OpsValue()
        if name == "CONSTANTS":
            return _ConstantTableValue(self.importer.constants)
        if name == "__torch__":
            return _QualifiedName(self.importer, "__torch__")
        if name in ("unchecked_cast", "uninitialized", "fork"):
            return _TypedForm(name)
        if name == "annotate":
            return SpecialFormValue("annotate")
        if name == "math":
            return MathModule()
        if name in _FLOAT_NAMES:
            return ConstantValue(_FLOAT_NAMES[name], FloatType.get())
        if name in _COMPLEX_NAMES:
            return ConstantValue(_COMPLEX_NAMES[name], ComplexType.get())
        found = builtin_value(name)
        return MISSING if found is None else found


class _NoNames(Resolver):
    """Types in printed code are read by their spelling alone."""

    def lookup(self, name: str) -> Any:
        return MISSING


class _ImportTypeReader(TypeReader):
    """Type annotations of printed code: `__torch__.` names are the archive's classes."""

    def __init__(self, importer: SourceImporter) -> None:
        super().__init__(_NoNames())
        self.importer = importer

    def _read(self, expr: t.Expr) -> Any:
        if isinstance(expr, t.Attribute):
            dotted = t.dotted_name(expr)
            if dotted is not None and dotted.startswith("__torch__."):
                return self.importer.class_type(dotted, expr.range)
        if isinstance(expr, t.Name) and expr.id == "Device":
            return DeviceType.get()
        return super()._read(expr)


class _ImportExprs(ExprEmitter):
    """Expressions of printed code: the importer's special forms."""

    def __init__(self, state: FunctionState, emitter: _ImportEmitter) -> None:
        super().__init__(state)
        self.emitter = emitter

    def sugared_Call(self, e: t.Call, hint: Type | None) -> SugaredValue:
        callee = self.emit_sugared(e.func)
        if isinstance(callee, _TypedForm):
            return self.emit_typed_form(callee.form, e, hint)
        if isinstance(callee, SpecialFormValue):
            return self.forms.emit(callee.form, e, hint)
        args, kwargs = self.emit_args(e.args, e.keywords)
        return callee.call(self.state, e.range, args, kwargs)

    def emit_typed_form(self, form: str, call: t.Call, hint: Type | None) -> SugaredValue:
        state = self.state
        if form == "fork":
            target = self.emit_sugared(call.args[0]) if call.args else None
            if isinstance(target, _Closure):
                return SimpleValue(self.emitter.fork_closure(target.definition, call))
            return self.forms.emit("fork", call, hint)
        if call.keywords or len(call.args) != (2 if form == "unchecked_cast" else 1):
            raise SourceImportError(f"malformed {form}() call", call.range)
        typ = state.type_of(call.args[0])
        if form == "uninitialized":
            return SimpleValue(
                state.insert(state.graph.create_uninitialized(typ), call.range).output()
            )
        value = self.emit_expr(call.args[1])
        node = state.insert(state.graph.create_unchecked_cast(value, typ), call.range)
        return SimpleValue(node.output())


class _ImportEmitter(FunctionEmitter):
    """The IR emitter for printed code: archive classes in annotations, forked closures."""

    def __init__(
        self,
        importer: SourceImporter,
        resolver: Resolver,
        definition: t.Def,
        *,
        name: str | None = None,
        self_type: ClassType | None = None,
        self_value_factory: Any = None,
    ) -> None:
        super().__init__(
            importer.compiler,
            resolver,
            definition,
            name=name,
            self_type=self_type,
            self_value_factory=self_value_factory,
        )
        self.importer = importer
        self.state.types = _ImportTypeReader(importer)
        self.exprs = _ImportExprs(self.state, self)
        self.signature.exprs = self.exprs

    def visit_Def(self, stmt: t.Def) -> None:
        self.state.env.set_sugared(stmt.name, _Closure(stmt))

    def fork_closure(self, definition: t.Def, call: t.Call) -> Value:
        if len(call.args) != 1 or call.keywords:
            raise SourceImportError("fork() of a nested function takes no arguments", call.range)
        if definition.params:
            raise SourceImportError(
                "a forked nested function takes no parameters", definition.range
            )
        captures = _CaptureResolver(self)
        inner = _ImportEmitter(self.importer, captures, definition, name=definition.name)
        captures.inner = inner
        sub, schema = inner.emit()
        state = self.state
        node = state.graph.create_with_subgraph(FORK)
        node.g_("Subgraph", sub)
        for outer in captures.outer_values:
            node.add_input(outer)
        node.add_output(FutureType(schema.returns[0].type))
        return state.insert(node, call.range).output()


class _CaptureResolver(Resolver):
    """Free names of a forked closure: the enclosing function's variables become inputs."""

    def __init__(self, outer: _ImportEmitter) -> None:
        self.outer = outer
        self.inner: _ImportEmitter | None = None
        self.outer_values: list[Value] = []
        self._captured: dict[str, Any] = {}

    def lookup(self, name: str) -> Any:
        done = self._captured.get(name)
        if done is not None:
            return done
        found = self.outer.state.env.find_in_any_frame(name)
        if found is None:
            return self.outer.state.resolver.lookup(name)
        if isinstance(found, SimpleValue):
            assert self.inner is not None
            sub_input = self.inner.graph.add_input(name, found.value.type)
            self.outer_values.append(found.value)
            found = SimpleValue(sub_input)
        self._captured[name] = found
        return found


# -- classes as the emitter sees them


class _ImportedConcrete:
    """What `ModuleValue` asks of a class (its `ModuleInfo`), answered by the class's spec."""

    container = None

    def __init__(self, class_type: ClassType, spec: ClassSpec, importer: SourceImporter) -> None:
        self.class_type = class_type
        self.py_class: Any = types.SimpleNamespace(__name__=class_type.name)
        self.constants = dict(spec.constants)
        self.methods = set(spec.methods)
        self.unusable: dict[str, str] = {}
        self.functions: dict[str, SugaredValue] = {}  # Python attributes: printed code has none
        self.method_aliases: dict[str, str] = {}  # printed code calls methods by their names
        self.submodules: dict[str, Any] = {}
        for name, typ in class_type.attributes.items():
            if (
                isinstance(typ, ClassType)
                and typ.is_module
                and typ.qualified_name in importer.classes
            ):
                self.submodules[name] = importer.concrete(typ.qualified_name, None)


class _ImportCompiler(ScriptCompiler):
    """The compiler sugared values ask about objects and methods of the archive's classes."""

    def __init__(self, importer: SourceImporter, optimize: bool | None) -> None:
        super().__init__(optimize=optimize)
        self.importer = importer

    def object_value(self, value: Any, loc: SourceRange) -> SugaredValue:
        typ = value.type
        if not isinstance(typ, ClassType) or typ.qualified_name not in self.importer.classes:
            raise SourceImportError(f"no class '{typ}' is defined in the archive", loc)
        return ModuleValue(value, self.importer.concrete(typ.qualified_name, loc))  # type: ignore[arg-type]

    def method(self, class_type: Any, name: str, loc: SourceRange | None, caller: str) -> Any:
        return self.importer.method(class_type.qualified_name, name, loc)


# -- the importer


class SourceImporter:
    """Compiles an archive's classes and functions from their printed source.

    `classes` and `functions` map qualified names (`__torch__.m.M`) to their
    specs and definitions; `constants` is the table `CONSTANTS.cN` indexes;
    `type_reader(spec, expr)` may be given to read attribute type expressions
    of class specs (by default they are read as printed annotations).
    """

    def __init__(
        self,
        *,
        classes: Mapping[str, ClassSpec],
        functions: Mapping[str, t.Def],
        constants: Sequence[Any] = (),
        optimize: bool | None = None,
        function_names: Mapping[str, str] | None = None,
    ) -> None:
        self.classes = dict(classes)
        self.functions = dict(functions)
        # the names functions had when they were saved, where the archive records them
        self.function_names = dict(function_names or {})
        self.constants = list(constants)
        self.compiler = _ImportCompiler(self, optimize)
        self.resolver = ImportResolver(self)
        self._types: dict[str, ClassType] = {}
        self._concrete: dict[str, _ImportedConcrete] = {}
        self._compiled: dict[str, Any] = {}
        self._in_progress: set[str] = set()
        self._prefixes = set()
        for name in (*self.classes, *self.functions):
            parts = name.split(".")
            for i in range(1, len(parts)):
                self._prefixes.add(".".join(parts[:i]))

    def has_prefix(self, name: str) -> bool:
        return name in self._prefixes

    # -- classes

    def class_type(self, qualified: str, loc: SourceRange | None) -> ClassType:
        done = self._types.get(qualified)
        if done is not None:
            return done
        spec = self.classes.get(qualified)
        if spec is None:
            raise SourceImportError(f"the archive defines no class '{qualified}'", loc)
        if spec.named_tuple:
            return self._named_tuple_type(spec, loc)  # type: ignore[return-value]
        class_type = ClassType(qualified, is_module=spec.is_module)
        self._types[qualified] = class_type  # before its attributes: they may name the class
        reader = _ImportTypeReader(self)
        for name, typ in spec.attributes.items():
            if isinstance(typ, str):
                typ = self._type_from_text(typ, loc)
            elif not isinstance(typ, Type):
                typ = reader.read(typ)
            class_type.add_attribute(name, typ, is_parameter=name in spec.parameters)
        class_type.constants.update(spec.constants)
        return class_type

    def _named_tuple_type(self, spec: ClassSpec, loc: SourceRange | None) -> TupleType:
        reader = _ImportTypeReader(self)
        fields = []
        for typ in spec.attributes.values():
            if isinstance(typ, str):
                typ = self._type_from_text(typ, loc)
            elif not isinstance(typ, Type):
                typ = reader.read(typ)
            fields.append(typ)
        made = TupleType(fields, list(spec.attributes), spec.qualified_name)
        self._types[spec.qualified_name] = made  # type: ignore[assignment]
        return made

    def _type_from_text(self, text: str, loc: SourceRange | None) -> Type:
        """A type spelled as an annotation (`List[__torch__.m.C]`), classes from the archive."""
        lexer = Lexer(text, error_class=SourceImportError)
        typ = TypeParser(lexer, class_resolver=lambda q: self.class_type(q, loc)).parse_type()
        lexer.expect("eof", "the end of the type")
        return typ

    def concrete(self, qualified: str, loc: SourceRange | None) -> _ImportedConcrete:
        done = self._concrete.get(qualified)
        if done is None:
            class_type = self.class_type(qualified, loc)
            done = _ImportedConcrete.__new__(_ImportedConcrete)
            self._concrete[qualified] = done  # before submodules: a class may contain itself
            _ImportedConcrete.__init__(done, class_type, self.classes[qualified], self)
        return done

    def method(self, qualified: str, name: str, loc: SourceRange | None = None) -> Any:
        class_type = self.class_type(qualified, loc)
        fn = class_type.methods.get(name)
        if fn is not None:
            return fn
        spec = self.classes[qualified]
        definition = spec.methods.get(name)
        if definition is None:
            raise SourceImportError(f"class '{qualified}' has no method '{name}'", loc)
        key = f"{qualified}::{name}"
        if key in self._in_progress:
            raise NotSupportedError(
                f"recursive calls are not supported: method '{name}' calls itself", loc
            )
        self._in_progress.add(key)
        try:
            concrete = self.concrete(qualified, loc)
            emitter = _ImportEmitter(
                self,
                self.resolver,
                definition,
                name=name,
                self_type=class_type,
                self_value_factory=lambda v: ModuleValue(v, concrete),  # type: ignore[arg-type]
            )
            graph, schema = emitter.emit()
        finally:
            self._in_progress.discard(key)
        fn = ScriptFunction(
            name,
            graph,
            schema=schema,
            compilation_unit=self.compiler.unit,
            optimize=self.compiler.optimize,
        )
        class_type.methods[name] = fn
        return fn

    # -- functions

    def function(self, qualified: str, loc: SourceRange | None = None) -> ScriptFunction:
        done = self._compiled.get(qualified)
        if done is not None:
            return done
        definition = self.functions.get(qualified)
        if definition is None:
            raise SourceImportError(f"the archive defines no function '{qualified}'", loc)
        if qualified in self._in_progress:
            raise NotSupportedError(
                f"recursive calls are not supported: '{qualified}' calls itself", loc
            )
        self._in_progress.add(qualified)
        # the name it was saved with, else TorchScript's: the last part of its qualified
        # name; another function of the archive may have it already, and the unit finds
        # functions by name
        name = self.function_names.get(qualified) or qualified.rpartition(".")[2]
        if self.compiler.unit.find_function(name) is not None:
            name = qualified.removeprefix("__torch__.")
        try:
            emitter = _ImportEmitter(self, self.resolver, definition, name=name)
            graph, schema = emitter.emit()
        finally:
            self._in_progress.discard(qualified)
        fn = ScriptFunction(
            name,
            graph,
            schema=schema,
            compilation_unit=self.compiler.unit,
            optimize=self.compiler.optimize,
        )
        fn.qualified_name = qualified
        self.compiler.unit.register(fn)
        self._compiled[qualified] = fn
        return fn

    def compile_all(self) -> None:
        """Compile every class's methods and every function not compiled yet."""
        with cyclic_gc_paused():
            for qualified in self.classes:
                self.class_type(qualified, None)
            for qualified in self.classes:
                for name in self.classes[qualified].methods:
                    self.method(qualified, name)
            for qualified in self.functions:
                self.function(qualified)


def read_class(
    definition: ClassDef, qualified: str, evaluate_constant: Callable[[t.Expr], Any]
) -> ClassSpec:
    """The spec of a printed `class` (TorchScript's module and class syntax).

    class Linear(Module):
      __parameters__ = ["weight", "bias", ]
      __buffers__ = []
      weight : Tensor
      out_features : Final[int] = 8
      __annotations__["0"] = __torch__.m.Block
      def forward(self: __torch__.m.Linear, input: Tensor) -> Tensor: ...
    """
    is_module = "Module" in definition.bases
    spec = ClassSpec(qualified, is_module, named_tuple="NamedTuple" in definition.bases)
    for stmt in definition.body:
        if isinstance(stmt, t.Def):
            spec.methods[stmt.name] = stmt
        elif isinstance(stmt, t.Assign) and len(stmt.targets) == 1:
            target = stmt.targets[0]
            if isinstance(target, t.Name) and target.id in ("__parameters__", "__buffers__"):
                names = _string_list(stmt.value, target.id)
                (spec.parameters if target.id == "__parameters__" else spec.buffers).update(names)
            elif isinstance(target, t.Name) and target.id == "__annotations__":
                continue  # `__annotations__ = []` starts the non-identifier attributes
            elif isinstance(target, t.Name) and stmt.annotation is not None:
                final = stmt.annotation
                if (
                    isinstance(final, t.Subscript)
                    and isinstance(final.value, t.Name)
                    and final.value.id == "Final"
                ):
                    if stmt.value is None:
                        raise SourceImportError("a Final constant needs a value", stmt.range)
                    spec.constants[target.id] = evaluate_constant(stmt.value)
                elif stmt.value is None:
                    spec.attributes[target.id] = stmt.annotation
                elif spec.named_tuple:  # a field with its default
                    spec.attributes[target.id] = stmt.annotation
                    spec.constants[target.id] = evaluate_constant(stmt.value)
                else:
                    raise SourceImportError(
                        "a class attribute declaration has a value but is not Final", stmt.range
                    )
            elif (
                isinstance(target, t.Subscript)
                and isinstance(target.value, t.Name)
                and target.value.id == "__annotations__"
                and len(target.indices) == 1
                and isinstance(target.indices[0], t.Str)
                and stmt.value is not None
            ):
                spec.attributes[target.indices[0].value] = stmt.value
            else:
                raise SourceImportError("unexpected assignment in a class body", stmt.range)
        elif isinstance(stmt, (t.Pass, t.ExprStmt)):
            continue
        else:
            raise SourceImportError(f"unexpected {stmt.kind} statement in a class body", stmt.range)
    return spec


def _string_list(value: t.Expr | None, what: str) -> list[str]:
    if not isinstance(value, t.ListLiteral) or not all(isinstance(e, t.Str) for e in value.elts):
        where = value.range if value is not None else None
        raise SourceImportError(f"{what} must be a list of strings", where)
    return [e.value for e in value.elts]  # type: ignore[attr-defined]


def literal_value(expr: t.Expr, constants: Sequence[Any] = ()) -> Any:
    """The value of a printed constant: numbers, strings, None, lists, tuples, CONSTANTS.cN."""
    if isinstance(expr, (t.Const, t.Str)):
        return expr.value
    if isinstance(expr, t.UnaryOp) and expr.op == "-":
        inner = literal_value(expr.operand, constants)
        if isinstance(inner, (int, float, complex)) and not isinstance(inner, bool):
            return -inner
    if isinstance(expr, t.ListLiteral):
        return [literal_value(e, constants) for e in expr.elts]
    if isinstance(expr, t.TupleLiteral):
        return tuple(literal_value(e, constants) for e in expr.elts)
    if isinstance(expr, t.Name) and expr.id in _FLOAT_NAMES:
        return _FLOAT_NAMES[expr.id]
    if isinstance(expr, t.Attribute) and isinstance(expr.value, t.Name):
        if expr.value.id == "CONSTANTS" and expr.name[1:].isdigit():
            i = int(expr.name[1:])
            if i < len(constants):
                return constants[i]
    raise SourceImportError("expected a constant value", expr.range)


__all__ = [
    "ClassDef",
    "ClassSpec",
    "ImportResolver",
    "SourceFile",
    "SourceImportError",
    "SourceImporter",
    "literal_value",
    "parse_archive_source",
    "read_class",
    "read_source_file",
]
