"""Loading: an archive's header read record by record, every field checked before use.

Order: the operators the archive lists are looked up first (third-party
namespaces are imported through their `ts.operators` entry points), so a
missing package is named before any code is compiled; then the constant
table, the classes (slots, constants, methods' source) and functions, which
`ts_frontend.import_source` compiles with the frontend's own parser and
emitter; then the object table, each value checked against its slot's
type; then the root. Any failure is an `ArchiveError` naming the record.
Nothing in the archive is executed: code is compiled to graphs, never
handed to Python.
"""

from __future__ import annotations

from typing import Any

import ts_runtime
from ts_frontend import (
    ClassSpec,
    FrontendError,
    SourceFile,
    SourceImporter,
    read_source_file,
)
from ts_ir import ClassType, TorchScriptError
from ts_schema import registry

from .container import ArchiveData
from .errors import ArchiveError, MissingOperatorError
from .tensors import TensorReader
from .values import ValueReader, check_type

_KINDS = ("module", "function", "value")
MAX_TYPE_TEXT = 4096
MAX_TYPE_NESTING = 32
MAX_CODE_NESTING = 48


def _field(record: Any, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if not isinstance(record, dict):
        raise ArchiveError("the record is not a map", where)
    if key not in record:
        raise ArchiveError(f"the field '{key}' is missing", where)
    value = record[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        names = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
        raise ArchiveError(f"the field '{key}' is a {type(value).__name__}, not {names}", where)
    return value


def _string_list(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ArchiveError("expected a list of strings", where)
    return value


def check_nesting(text: str, where: str, *, limit: int = MAX_CODE_NESTING) -> None:
    """Refuse source text nested deeper than `limit` brackets or indentation levels.

    The parser and the emitter are recursive; this keeps hostile text far from
    Python's recursion limit (and a `RecursionError` is still caught as an
    `ArchiveError` where code is compiled).
    """
    depth = 0
    for i, ch in enumerate(text):
        if ch in "([{":
            depth += 1
            if depth > limit:
                raise ArchiveError(
                    f"brackets are nested deeper than {limit} levels", f"{where} offset {i}"
                )
        elif ch in ")]}":
            depth -= 1
    for lineno, line in enumerate(text.splitlines(), 1):
        indent = len(line) - len(line.lstrip(" \t"))
        if indent > 2 * limit:
            raise ArchiveError(
                f"a line is indented deeper than {limit} levels", f"{where}:{lineno}"
            )
        run = len(line) - len(line.lstrip("-~+"))
        if run > limit or line.count(".") > 4 * limit:
            raise ArchiveError("an expression is nested too deeply", f"{where}:{lineno}")


class ArchiveReader:
    """Builds the program or value an `ArchiveData` describes."""

    def __init__(self, data: ArchiveData, *, optimize: bool | None = None) -> None:
        self.data = data
        self.header = data.header
        self.limits = data.limits
        self.optimize = optimize
        h = self.header
        if h.get("format") != "tsjit-archive":
            raise ArchiveError("the header does not describe a tsjit archive", "header.format")
        self.kind = _field(h, "kind", str, "header")
        if self.kind not in _KINDS:
            raise ArchiveError(f"unknown archive kind {self.kind!r}", "header.kind")
        self.tensors = TensorReader(
            h.get("storages"), h.get("tensors"), data.blob, max_rank=self.limits.max_tensor_rank
        )
        self.values = ValueReader(
            self.tensors.tensor, self.object, max_depth=self.limits.max_value_depth
        )
        self._objects: dict[int, Any] = {}
        self._building: set[int] = set()
        self._parameters: dict[int, Any] = {}
        self.importer: SourceImporter | None = None
        self.specs: dict[str, ClassSpec] = {}

    # -- the whole archive

    def load(self, extra_files: dict[str, Any] | None) -> Any:
        h = self.header
        self.check_operators(h.get("operators", []))
        if self.kind == "value":
            root = self.values.decode(h.get("root"), "header.root")
        else:
            self.compile_code()
            if self.kind == "module":
                root = self.values.decode(h.get("root"), "header.root")
                if not isinstance(root, ts_runtime.ScriptModule):
                    raise ArchiveError(
                        "the root of a module archive is not a module", "header.root"
                    )
            else:
                name = _field(h, "root", str, "header")
                if self.importer is None or name not in self.importer.functions:
                    raise ArchiveError(f"the root function '{name}' is not defined", "header.root")
                root = self.importer.function(name)
        if extra_files is not None:
            self.read_extra_files(extra_files)
        return root

    def check_operators(self, operators: Any) -> None:
        names = _string_list(operators, "header.operators")
        missing = [op for op in names if not _known_operator(op)]
        if missing:
            raise MissingOperatorError(missing, "header.operators")

    def read_extra_files(self, wanted: dict[str, Any]) -> None:
        entries = self.header.get("extra_files", [])
        if not isinstance(entries, list):
            raise ArchiveError("the extra file table is not a list", "header.extra_files")
        found = {}
        for i, entry in enumerate(entries):
            where = f"header.extra_files[{i}]"
            if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], str)):
                raise ArchiveError("an extra file entry is not [name, blob]", where)
            found[entry[0]] = (entry[1], where)
        for name in list(wanted):
            if name in found:
                blob, where = found[name]
                wanted[name] = bytes(self.data.blob(blob, where))
            else:
                wanted[name] = b""  # as torch.jit.load does

    # -- code

    def compile_code(self) -> None:
        h = self.header
        constants_enc = h.get("constants", [])
        if not isinstance(constants_enc, list):
            raise ArchiveError("the constant table is not a list", "header.constants")
        classes = h.get("classes", [])
        functions = h.get("functions", [])
        if not isinstance(classes, list) or not isinstance(functions, list):
            raise ArchiveError("the class or function table is not a list", "header")
        for i, record in enumerate(classes):
            spec = self.read_class(record, f"header.classes[{i}]")
            self.specs[spec.qualified_name] = spec
        defs: dict[str, Any] = {}
        names: dict[str, str] = {}
        for i, record in enumerate(functions):
            where = f"header.functions[{i}]"
            name = _field(record, "name", str, where)
            local = record.get("function_name")
            if isinstance(local, str) and local and all(p.isidentifier() for p in local.split(".")):
                names[name] = local
            code = self._code(record, where, name)
            parsed = self._parse(code, name)
            if len(parsed.functions) != 1 or parsed.classes:
                raise ArchiveError("a function's code is not one function definition", where)
            defs[name] = parsed.functions[0]
        # objects may be constants (rare); they are decoded once classes are known
        self.importer = SourceImporter(
            classes=self.specs,
            functions=defs,
            constants=[],
            optimize=self.optimize,
            function_names=names,
        )
        self.importer.constants = [
            self.values.decode(c, f"header.constants[{i}]") for i, c in enumerate(constants_enc)
        ]
        try:
            self.importer.compile_all()
        except FrontendError as exc:
            at: str | None = None
            if exc.range is not None:
                line = exc.range.source.line_col(exc.range.start)[0]
                at = f"code of {exc.range.source.filename}:{line}"
            raise ArchiveError(f"the archive's code does not compile: {exc.message}", at) from None
        except RecursionError:
            raise ArchiveError(
                "the archive's code is nested too deeply to compile", "code"
            ) from None
        except TorchScriptError as exc:
            raise ArchiveError(f"the archive's code does not compile: {exc}", "code") from None

    def _code(self, record: dict[str, Any], where: str, name: str) -> str:
        code = _field(record, "code", str, where)
        if len(code) > self.limits.max_source_bytes:
            raise ArchiveError(
                f"the code is longer than {self.limits.max_source_bytes} bytes", where
            )
        check_nesting(code, f"code of {name}")
        return code

    def _parse(self, code: str, filename: str) -> SourceFile:
        try:
            return read_source_file(code, filename)
        except FrontendError as exc:
            line = exc.range.source.line_col(exc.range.start)[0] if exc.range is not None else "?"
            raise ArchiveError(
                f"the code does not parse: {exc.message}", f"code of {filename}:{line}"
            ) from None
        except RecursionError:
            raise ArchiveError(
                "the code is nested too deeply to parse", f"code of {filename}"
            ) from None

    def read_class(self, record: Any, where: str) -> ClassSpec:
        name = _field(record, "name", str, where)
        if not name.startswith("__torch__.") or not all(p.isidentifier() for p in name.split(".")):
            raise ArchiveError(f"the class name {name!r} is not a qualified name", where)
        if name in self.specs:
            raise ArchiveError(f"class '{name}' is defined twice", where)
        spec = ClassSpec(
            name,
            bool(_field(record, "module", bool, where)),
            named_tuple=record.get("named_tuple") is True,
        )
        for i, attr in enumerate(_field(record, "attributes", list, where)):
            if not (
                isinstance(attr, list) and len(attr) == 2 and all(isinstance(x, str) for x in attr)
            ):
                raise ArchiveError("an attribute is not [name, type]", f"{where}.attributes[{i}]")
            spec.attributes[attr[0]] = self.type_from_text(attr[1], f"{where}.attributes[{i}]")
        spec.parameters = set(_string_list(record.get("parameters", []), f"{where}.parameters"))
        spec.buffers = set(_string_list(record.get("buffers", []), f"{where}.buffers"))
        for slot in spec.parameters | spec.buffers:
            if slot not in spec.attributes:
                raise ArchiveError(f"'{slot}' is a parameter or buffer but not an attribute", where)
        for i, entry in enumerate(_field(record, "constants", list, where)):
            if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], str)):
                raise ArchiveError("a constant is not [name, value]", f"{where}.constants[{i}]")
            spec.constants[entry[0]] = self.values.decode(entry[1], f"{where}.constants[{i}]")
        code = self._code(record, where, name)
        parsed = self._parse(code, name)
        if parsed.classes:
            raise ArchiveError("a class's code holds something other than methods", where)
        for stmt in parsed.functions:
            if stmt.name in spec.methods:
                raise ArchiveError(f"method '{stmt.name}' is defined twice", where)
            spec.methods[stmt.name] = stmt
        return spec

    def type_from_text(self, text: str, where: str) -> Any:
        """A slot's type: the class names it uses resolve to the archive's classes (lazily)."""
        if len(text) > MAX_TYPE_TEXT:
            raise ArchiveError("a type is spelled with too many characters", where)
        check_nesting(text, where, limit=MAX_TYPE_NESTING)
        return text

    # -- objects

    def object(self, index: Any, where: str) -> Any:
        if type(index) is not int:
            raise ArchiveError(f"object index {index!r} is not an integer", where)
        done = self._objects.get(index)
        if done is not None:
            return done
        objects = self.header.get("objects", [])
        if not isinstance(objects, list) or not 0 <= index < len(objects):
            raise ArchiveError(f"object index {index} is not in the object table", where)
        if index in self._building:
            raise ArchiveError(f"object {index} contains itself", where)
        self._building.add(index)
        try:
            obj = self._build_object(objects[index], f"header.objects[{index}]")
        finally:
            self._building.discard(index)
        self._objects[index] = obj
        return obj

    def parameter(self, tensor: Any) -> Any:
        """The `Parameter` for a tensor in a parameter slot: one per tensor, so a parameter
        two modules share stays one object."""
        done = self._parameters.get(id(tensor))
        if done is None:
            done = self._parameters[id(tensor)] = ts_runtime.nn.Parameter(
                tensor, tensor.requires_grad
            )
        return done

    def _build_object(self, record: Any, where: str) -> Any:
        name = _field(record, "class", str, where)
        spec = self.specs.get(name)
        if spec is None or self.importer is None:
            raise ArchiveError(f"the object's class '{name}' is not defined", where)
        class_type: ClassType = self.importer.class_type(name, None)
        values = _field(record, "attributes", list, where)
        if len(values) != len(class_type.attributes):
            raise ArchiveError(
                f"{len(values)} attribute values for the {len(class_type.attributes)} slots "
                f"of {name}",
                where,
            )
        attributes = {}
        for (slot, typ), enc in zip(class_type.attributes.items(), values, strict=True):
            slot_where = f"{where}.{slot}"
            value = self.values.decode(enc, slot_where)
            check_type(value, typ, slot_where, _is_tensor)
            if slot in spec.parameters and isinstance(value, ts_runtime.Tensor):
                value = self.parameter(value)
            attributes[slot] = value
        return ts_runtime.ScriptModule(
            class_type, attributes, parameters=spec.parameters, buffers=spec.buffers
        )


def _is_tensor(value: Any) -> bool:
    return isinstance(value, ts_runtime.Tensor)


def _known_operator(name: str) -> bool:
    ns, sep, op = name.partition("::")
    if not sep or not ns.isidentifier() or not op:
        raise ArchiveError(f"{name!r} is not an operator name", "header.operators")
    try:
        return registry.has(name)
    except TorchScriptError as exc:  # an entry point that fails to import
        raise ArchiveError(
            f"looking up operator '{name}' failed: {exc}", "header.operators"
        ) from None
