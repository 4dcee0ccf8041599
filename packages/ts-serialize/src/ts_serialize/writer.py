"""Saving: a scripted module, a scripted function or a value, written as one archive.

The module hierarchy is an object table (each object its class and its
attribute values in slot order; a submodule used twice is one object); each
class is its slots (name, type, parameter or buffer), its constants and the
printed source of its methods; each function its printed source. The
printer hoists tensors and other non-literal constants into the constant
table (`CONSTANTS.cN`) and reports the classes and functions the code
names, which are saved too, transitively. Tensors are written once per
storage (see `tensors`). Operators outside `aten` and `prim` are listed so a
loader can say which are missing before compiling anything.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import IO, Any

import ts_runtime
from ts_frontend import ConstantTable, PrintError, print_for_archive, qualified_function_name
from ts_ir import ClassType, FunctionType, Graph, TupleType

from . import container
from .errors import SaveError
from .tensors import TensorWriter
from .values import ValueWriter

PRODUCER = "tsjit ts-serialize 0.1.0"
BUILTIN_NAMESPACES = frozenset({"aten", "prim"})


def _is_object(value: Any) -> bool:
    return isinstance(getattr(value, "_type", None), ClassType) and hasattr(value, "__dict__")


def _is_tensor(value: Any) -> bool:
    return isinstance(value, ts_runtime.Tensor)


class ArchiveWriter:
    """Collects everything one archive holds, then writes it."""

    def __init__(self) -> None:
        self.blobs: list[Any] = []
        self.tensors = TensorWriter(self.blobs)
        self.constant_table = ConstantTable()
        self.classes: dict[str, dict[str, Any]] = {}
        self.functions: dict[str, dict[str, Any]] = {}
        self.objects: list[dict[str, Any]] = []
        self._object_index: dict[int, int] = {}
        self._keep: list[Any] = []
        self.operators: set[str] = set()
        self.values = ValueWriter(self.tensors.add, self.add_object, _is_tensor, _is_object)

    # -- code

    def add_class(self, class_type: ClassType, instance: Any = None) -> None:
        q = class_type.qualified_name
        record = self.classes.get(q)
        if record is not None:
            if instance is not None and record["buffers"] is None:
                record["buffers"] = _buffers_of(instance)
            return
        record = {
            "name": q,
            "module": bool(class_type.is_module),
            "attributes": [],
            "parameters": sorted(class_type.parameter_names),
            "buffers": _buffers_of(instance) if instance is not None else None,
            "constants": [],
            "code": "",
        }
        self.classes[q] = record  # before the methods: they may name the class itself
        for name, typ in class_type.attributes.items():
            record["attributes"].append([name, typ.annotation_str()])
            self._add_type(typ)
        for name, value in class_type.constants.items():
            record["constants"].append([name, self.values.encode(value, f"{q}.{name}")])
        sources = []
        for name, fn in class_type.methods.items():
            if getattr(fn, "graph", None) is None:
                raise SaveError(
                    f"method '{name}' of {q} runs Python (it is marked @ignore or @unused) and "
                    "cannot be saved"
                )
            sources.append(self._print(fn, f"method '{name}' of {q}"))
        record["code"] = "\n".join(sources)

    def add_named_tuple(self, typ: TupleType) -> None:
        q = typ.qualified_name
        assert q is not None and typ.names is not None
        if q in self.classes:
            return
        record = {
            "name": q,
            "module": False,
            "named_tuple": True,
            "attributes": [
                [n, t.annotation_str()] for n, t in zip(typ.names, typ.elements, strict=True)
            ],
            "parameters": [],
            "buffers": [],
            "constants": [],
            "code": "",
        }
        self.classes[q] = record
        for t in typ.elements:
            self._add_type(t)

    def add_function(self, fn: Any) -> str:
        q = qualified_function_name(fn)
        if q in self.functions:
            return q
        if getattr(fn, "graph", None) is None:
            raise SaveError(
                f"function '{q}' runs Python (it is marked @ignore) and cannot be saved"
            )
        record = {"name": q, "function_name": fn.name, "code": ""}
        self.functions[q] = record
        record["code"] = self._print(fn, f"function '{q}'")
        return q

    def _print(self, fn: Any, what: str) -> str:
        try:
            source, deps = print_for_archive(fn, self.constant_table)
        except PrintError as exc:
            raise SaveError(f"{what} cannot be saved: {exc}") from None
        self._note_operators(fn.graph)
        for dep in deps.values():
            if isinstance(dep, (ClassType, TupleType)):
                self._add_type(dep)
            else:
                self.add_function(dep)
        return source

    def _add_type(self, typ: Any) -> None:
        if isinstance(typ, ClassType):
            self.add_class(typ)
        elif isinstance(typ, TupleType) and typ.qualified_name is not None:
            self.add_named_tuple(typ)
        for inner in typ.contained_types():
            self._add_type(inner)

    def _note_operators(self, graph: Graph) -> None:
        for node in graph.all_nodes():
            kind = node.kind
            if kind.ns not in BUILTIN_NAMESPACES:
                self.operators.add(str(kind))
            for name in node.attribute_names():
                value = node.attr(name)
                if isinstance(value, Graph):
                    self._note_operators(value)
            for v in node.outputs:
                if isinstance(v.type, FunctionType) and v.type.function is not None:
                    fn = v.type.function
                    if getattr(fn, "graph", None) is not None:
                        self.add_function(fn)

    # -- objects

    def add_object(self, obj: Any, where: str) -> int:
        index = self._object_index.get(id(obj))
        if index is not None:
            return index
        class_type: ClassType = obj._type
        self.add_class(class_type, obj)
        index = len(self.objects)
        self._object_index[id(obj)] = index
        self._keep.append(obj)
        record: dict[str, Any] = {"class": class_type.qualified_name, "attributes": []}
        self.objects.append(record)
        d = obj.__dict__
        for name in class_type.attributes:
            value = d[name] if name in d else getattr(obj, name)
            record["attributes"].append(self.values.encode(value, f"{where}.{name}"))
        return index

    # -- the archive

    def header(self, kind: str, root: Any, extra_files: Mapping[str, Any] | None) -> dict[str, Any]:
        extra = []
        for name, content in (extra_files or {}).items():
            if not isinstance(name, str):
                raise SaveError(f"extra file names must be strings, not {type(name).__name__}")
            if isinstance(content, str):
                content = content.encode("utf-8")
            if not isinstance(content, (bytes, bytearray, memoryview)):
                raise SaveError(
                    f"extra file '{name}' must be str or bytes, not {type(content).__name__}"
                )
            self.blobs.append(bytes(content))
            extra.append([name, len(self.blobs) - 1])
        constants = [
            self.values.encode(v, f"CONSTANTS.c{i}")
            for i, v in enumerate(self.constant_table.values)
        ]
        for record in self.classes.values():
            record["buffers"] = record["buffers"] or []
        return {
            "format": "tsjit-archive",
            "version": container.FORMAT_VERSION,
            "producer": PRODUCER,
            "kind": kind,
            "root": root,
            "classes": list(self.classes.values()),
            "functions": list(self.functions.values()),
            "objects": self.objects,
            "constants": constants,
            "storages": self.tensors.storages,
            "tensors": self.tensors.tensors,
            "extra_files": extra,
            "operators": sorted(self.operators),
        }


def _buffers_of(instance: Any) -> list[str] | None:
    names = instance.__dict__.get("_buffer_names")
    return None if names is None else sorted(names)


def save(obj: Any, f: Any, *, extra_files: Mapping[str, Any] | None = None) -> None:
    """Write `obj` (a scripted module or function, or tensors in containers) to `f`.

    `f` is a path or a binary file object; `extra_files` maps names to str or
    bytes stored alongside (`load(..., extra_files=)` returns them).
    """
    writer = ArchiveWriter()
    # a `torch.jit.ScriptModule` subclass instance (`@script_method`) holds its compiled module
    obj = getattr(obj, "__dict__", {}).get("_actual_script_module", obj)
    if isinstance(obj, ts_runtime.ScriptModule):
        kind = "module"
        root = writer.values.encode(obj, "module")
    elif isinstance(obj, ts_runtime.Function) and getattr(obj, "graph", None) is not None:
        kind = "function"
        root = writer.add_function(obj)
    else:
        kind = "value"
        root = writer.values.encode(obj, "value")
    header = writer.header(kind, root, extra_files)
    if isinstance(f, (str, bytes)) or hasattr(f, "__fspath__"):
        with open(f, "wb") as fh:
            container.write_archive(fh, header, writer.blobs)
    else:
        _check_writable(f)
        container.write_archive(f, header, writer.blobs)


def _check_writable(f: IO[bytes]) -> None:
    if not hasattr(f, "write"):
        raise SaveError(f"save() expects a path or a binary file object, not {type(f).__name__}")
