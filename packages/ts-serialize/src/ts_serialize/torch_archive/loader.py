"""Loading a TorchScript `.pt` archive (`torch.jit.save`'s zip file) into tsjit.

    archive/version             the format version (a decimal number)
    archive/byteorder           "little" or "big" (absent: little)
    archive/code/__torch__/a/b.py    classes and functions of `__torch__.a.b`, printed source
    archive/code/**.debug_pkl   source ranges (not read)
    archive/constants.pkl       the constant table (`CONSTANTS.cN`)
    archive/data.pkl            the module object and its attributes
    archive/data/N              tensor storage N, raw, stored uncompressed
    archive/extra/NAME          extra files

Steps: the zip directory is checked; the code files are parsed with the
frontend's parser into class specs and function definitions; the constants
pickle is run (restricted machine, storages checked and mapped); the code
is compiled (`ts_frontend.import_source`); the data pickle is run, its
objects becoming `ScriptModule`s whose attribute values are checked
against their classes' declared types; extra files are read on request.
Nothing is executed: pickles are interpreted by a machine that only knows
TorchScript's globals, code is compiled by tsjit's own frontend.
"""

from __future__ import annotations

from typing import Any

import ts_runtime
from ts_frontend import (
    ClassSpec,
    FrontendError,
    SourceImporter,
    literal_value,
    read_class,
    read_source_file,
)
from ts_ir import ClassType, TorchScriptError

from ..container import Limits
from ..errors import ArchiveError, UnsupportedArchiveError
from ..reader import check_nesting
from ..values import check_type
from .pickles import ObjectShell, TorchScriptPickles
from .unpickler import RestrictedUnpickler
from .zip_reader import ZipArchive

#: the newest `version` record this loader knows (PyTorch 2.x writes 3 to 10)
MAX_VERSION = 12
MAX_PICKLE_BYTES = 1 << 30


class TorchArchive:
    """One `.pt` file: its entries under the archive's top directory."""

    def __init__(self, buf: Any, *, limits: Limits) -> None:
        self.zip = ZipArchive(buf)
        self.limits = limits
        names = self.zip.names()
        if not names:
            raise ArchiveError("the zip archive is empty", "zip directory")
        prefixes = {n.partition("/")[0] for n in names}
        if len(prefixes) != 1 or not all("/" in n for n in names):
            raise ArchiveError(
                "the entries do not share one top directory, as torch.jit.save writes them",
                "zip directory",
            )
        self.prefix = prefixes.pop() + "/"
        if self.has("model.json"):
            raise UnsupportedArchiveError(
                "archives in the model.json layout (PyTorch 1.3 and earlier) are not supported; "
                "load and save it again with a newer PyTorch",
                self.prefix + "model.json",
            )
        if not self.has("data.pkl"):
            raise ArchiveError(
                "the archive has no data.pkl (not a TorchScript archive?)", self.prefix
            )

    def has(self, name: str) -> bool:
        return self.prefix + name in self.zip.entries

    def read(self, name: str, *, limit: int) -> bytes:
        return self.zip.read(self.prefix + name, max_inflated=limit)

    def text(self, name: str, *, limit: int) -> str:
        data = self.read(name, limit=limit)
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            raise ArchiveError("the entry is not UTF-8 text", self.prefix + name) from None

    def storage(self, key: str, where: str) -> memoryview:
        name = f"{self.prefix}data/{key}"
        if name not in self.zip.entries:
            raise ArchiveError(f"the storage data/{key} is not in the archive", where)
        return self.zip.view(name)

    def code_files(self) -> list[tuple[str, str]]:
        """(entry name, namespace) of every code file: `code/__torch__/a/b.py` is `__torch__.a.b`."""
        out = []
        start = self.prefix + "code/"
        for name in self.zip.names():
            if name.startswith(start) and name.endswith(".py"):
                parts = name[len(start) : -3].split("/")
                if not parts or parts[0] != "__torch__" or not all(p.isidentifier() for p in parts):
                    raise ArchiveError("a code file's path is not a qualified name", name)
                out.append((name, ".".join(parts)))
        return out


def load_torch_archive(
    buf: Any,
    *,
    extra_files: dict[str, Any] | None,
    limits: Limits,
    optimize: bool | None = None,
) -> Any:
    """The `ScriptModule` a `.pt` archive holds (see the module docstring)."""
    archive = TorchArchive(buf, limits=limits)
    version = _version(archive)
    big_endian = _big_endian(archive)
    classes, functions = _read_code(archive)
    loader = _ObjectLoader(classes)
    pickles = TorchScriptPickles(
        read_storage=archive.storage,
        big_endian=big_endian,
        is_class=lambda q: q in classes,
        finish_object=loader.finish,
    )
    constants: list[Any] = []
    if archive.has("constants.pkl"):
        table = _unpickle(archive, "constants.pkl", pickles, loader)
        if not isinstance(table, tuple):
            raise ArchiveError(
                "constants.pkl does not hold a tuple", archive.prefix + "constants.pkl"
            )
        constants = [loader.resolve(v, archive.prefix + "constants.pkl", 0) for v in table]
    importer = SourceImporter(
        classes=classes, functions=functions, constants=constants, optimize=optimize
    )
    loader.importer = importer
    try:
        importer.compile_all()
    except FrontendError as exc:
        where = None
        if exc.range is not None:
            line = exc.range.source.line_col(exc.range.start)[0]
            where = f"{exc.range.source.filename}:{line}"
        raise UnsupportedArchiveError(
            f"the archive's code (version {version}) does not compile in tsjit: {exc.message}",
            where,
        ) from None
    except RecursionError:
        raise ArchiveError("the archive's code is nested too deeply to compile", "code") from None
    except TorchScriptError as exc:
        raise UnsupportedArchiveError(
            f"the archive's code does not compile in tsjit: {exc}", "code"
        ) from None
    root = loader.resolve(
        _unpickle(archive, "data.pkl", pickles, loader), archive.prefix + "data.pkl", 0
    )
    if not isinstance(root, ts_runtime.ScriptModule):
        raise ArchiveError("data.pkl does not hold a module", archive.prefix + "data.pkl")
    if extra_files is not None:
        for name in list(extra_files):
            entry = f"extra/{name}"
            found = archive.has(entry)
            extra_files[name] = archive.read(entry, limit=MAX_PICKLE_BYTES) if found else b""
    return root


def _version(archive: TorchArchive) -> int:
    # `version`, or `.data/version` where PyTorch 2.x records a newer operator version there
    record = next((n for n in ("version", ".data/version") if archive.has(n)), None)
    if record is None:
        raise ArchiveError("the archive has no version record", archive.prefix + "version")
    text = archive.text(record, limit=64).strip()
    if not text.isdigit():
        raise ArchiveError(
            f"the version record {text[:20]!r} is not a number", archive.prefix + record
        )
    version = int(text)
    if version > MAX_VERSION:
        raise UnsupportedArchiveError(
            f"archive version {version} is newer than this loader knows ({MAX_VERSION})",
            archive.prefix + record,
        )
    return version


def _big_endian(archive: TorchArchive) -> bool:
    if not archive.has("byteorder"):
        return False
    order = archive.text("byteorder", limit=16).strip()
    if order not in ("little", "big"):
        raise ArchiveError(f"unknown byte order {order!r}", archive.prefix + "byteorder")
    return order == "big"


def _unpickle(
    archive: TorchArchive, name: str, pickles: TorchScriptPickles, loader: _ObjectLoader
) -> Any:
    data = archive.read(name, limit=MAX_PICKLE_BYTES)
    loader.allow(len(data))
    machine = RestrictedUnpickler(
        data,
        name=archive.prefix + name,
        resolve_global=pickles.resolve_global,
        persistent_load=pickles.persistent_load,
    )
    return machine.load()


def _read_code(archive: TorchArchive) -> tuple[dict[str, ClassSpec], dict[str, Any]]:
    classes: dict[str, ClassSpec] = {}
    functions: dict[str, Any] = {}
    for entry, namespace in archive.code_files():
        text = archive.text(entry[len(archive.prefix) :], limit=archive.limits.max_source_bytes)
        check_nesting(text, entry)
        try:
            parsed = read_source_file(text, entry)
        except FrontendError as exc:
            line = exc.range.source.line_col(exc.range.start)[0] if exc.range is not None else "?"
            raise ArchiveError(
                f"the code does not parse: {exc.message}", f"{entry}:{line}"
            ) from None
        except RecursionError:
            raise ArchiveError("the code is nested too deeply to parse", entry) from None
        for cls in parsed.classes:
            q = f"{namespace}.{cls.name}"
            if q in classes:
                raise ArchiveError(f"class '{q}' is defined twice", entry)
            kind = _class_kind(cls)
            if kind is not None:
                raise UnsupportedArchiveError(
                    f"'{q}' is {kind}, which tsjit does not load yet", entry
                )
            try:
                classes[q] = read_class(cls, q, literal_value)
            except FrontendError as exc:
                raise ArchiveError(f"class '{q}': {exc.message}", entry) from None
        for fn in parsed.functions:
            q = f"{namespace}.{fn.name}"
            if q in functions:
                raise ArchiveError(f"function '{q}' is defined twice", entry)
            functions[q] = fn
    return classes, functions


def _class_kind(stmt: Any) -> str | None:
    for base in stmt.bases:
        if base in ("Enum", "Interface", "ModuleInterface"):
            return {"Enum": "an Enum", "Interface": "an interface"}.get(base, "a module interface")
    return None


class _ObjectLoader:
    """Turns pickled objects into `ScriptModule`s, checking each value against its slot."""

    MAX_DEPTH = 32

    def __init__(self, classes: dict[str, ClassSpec]) -> None:
        self.classes = classes
        self.importer: SourceImporter | None = None
        self.budget = 0  # values visited; a pickle's values can share structure (memo)
        self._parameters: dict[int, tuple[Any, Any]] = {}
        self.max_budget = 10_000

    def allow(self, pickle_bytes: int) -> None:
        """Visiting values of a pickle of this size is allowed: 10 per byte (a value written
        once takes at least one byte, so only shared containers can exceed it)."""
        self.max_budget += 10 * pickle_bytes

    def finish(self, shell: ObjectShell, qualified: str, state: Any, where: str) -> Any:
        if self.importer is None:
            raise ArchiveError("an object appears in the constant table", where)
        spec = self.classes[qualified]
        if "__setstate__" in spec.methods:
            raise UnsupportedArchiveError(
                f"'{qualified}' restores its state with __setstate__, which would run the "
                "archive's code while loading; not supported",
                where,
            )
        if not isinstance(state, dict):
            raise ArchiveError(f"the state of a '{qualified}' is not a dict", where)
        class_type: ClassType = self.importer.class_type(qualified, None)
        missing = [name for name in class_type.attributes if name not in state]
        extra = [name for name in state if name not in class_type.attributes]
        if missing or extra:
            raise ArchiveError(
                f"the state of a '{qualified}' does not match its class"
                + (f"; missing {missing}" if missing else "")
                + (f"; unknown {extra}" if extra else ""),
                where,
            )
        attributes = {}
        for name, typ in class_type.attributes.items():
            slot = f"{where} ({qualified}.{name})"
            value = self.resolve(state[name], slot, 0)
            check_type(value, typ, slot, _is_tensor)
            if name in spec.parameters and isinstance(value, ts_runtime.Tensor):
                value = self.parameter(value)
            attributes[name] = value
        return ts_runtime.ScriptModule(
            class_type, attributes, parameters=spec.parameters, buffers=spec.buffers
        )

    def parameter(self, tensor: Any) -> Any:
        """The `Parameter` for a tensor in a parameter slot: one per tensor, so a parameter
        two modules share stays one object."""
        done = self._parameters.get(id(tensor))
        if done is None:
            made = ts_runtime.nn.Parameter(tensor, tensor.requires_grad)
            done = self._parameters[id(tensor)] = (tensor, made)  # keeps the id's tensor alive
        return done[1]

    def resolve(self, value: Any, where: str, depth: int) -> Any:
        """`value` with built objects in place of their shells; depth and size bounded."""
        self.budget += 1
        if self.budget > self.max_budget:
            raise ArchiveError("the pickled values are too large (shared structure?)", where)
        if depth > self.MAX_DEPTH:
            raise ArchiveError(f"values are nested deeper than {self.MAX_DEPTH} levels", where)
        if isinstance(value, ObjectShell):
            if value.result is None:
                raise ArchiveError(f"a '{value.qualified}' is used before it is built", where)
            return value.result
        if isinstance(value, list):
            return [self.resolve(v, where, depth + 1) for v in value]
        if isinstance(value, tuple):
            return tuple(self.resolve(v, where, depth + 1) for v in value)
        if isinstance(value, dict):
            return {
                self.resolve(k, where, depth + 1): self.resolve(v, where, depth + 1)
                for k, v in value.items()
            }
        if value is None or isinstance(value, (bool, int, float, str, complex, ts_runtime.Tensor)):
            return value
        if type(value).__name__ == "Device":
            return value
        raise ArchiveError(f"unexpected value of type {type(value).__name__}", where)


def _is_tensor(value: Any) -> bool:
    return isinstance(value, ts_runtime.Tensor)
