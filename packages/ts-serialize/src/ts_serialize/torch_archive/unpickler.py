"""A restricted pickle machine: the opcodes TorchScript's pickler writes, and no others.

Python's `pickle` resolves a GLOBAL by importing a module and calls whatever
it finds; that is how a `.pt` file runs `os.system`. This machine never
imports or calls anything: a GLOBAL becomes a `GlobalRef` that `resolve_global`
(given by the caller) turns into one of the caller's own constructors, or
refuses by name with `ForbiddenGlobalError`. REDUCE and NEWOBJ call only
those constructors; BINPERSID goes to `persistent_load`.

Bounds: every length is checked against the bytes that remain before it is
read; integers are limited to 64 bits (TorchScript writes no larger); the
machine runs at most one step per byte of input, so it cannot loop.

Opcodes understood (protocols 0-4, as far as TorchScript uses them): PROTO,
FRAME, STOP, MARK, POP, POP_MARK, DUP, NONE, NEWTRUE, NEWFALSE, INT, BININT,
BININT1, BININT2, LONG1, LONG4, BINFLOAT, BINUNICODE, SHORT_BINUNICODE,
BINUNICODE8, BINBYTES, SHORT_BINBYTES, BINBYTES8, EMPTY_TUPLE, TUPLE,
TUPLE1-3, EMPTY_LIST, APPEND(S), LIST, EMPTY_DICT, DICT, SETITEM(S), GLOBAL,
STACK_GLOBAL, REDUCE, NEWOBJ, BUILD, BINPUT, LONG_BINPUT, PUT, MEMOIZE,
BINGET, LONG_BINGET, GET, BINPERSID. Anything else is refused by name.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..errors import ArchiveError, UnsupportedArchiveError

_MARK = object()
INT64 = 2**63


@dataclass(frozen=True)
class GlobalRef:
    """A global the pickle names (`module.name`), resolved by the caller, never imported."""

    module: str
    name: str

    @property
    def qualified(self) -> str:
        return f"{self.module}.{self.name}"


class Constructor:
    """What a resolved global does when the pickle calls it (REDUCE) or instantiates it."""

    def __init__(self, name: str, call: Callable[[tuple, str], Any] | None = None) -> None:
        self.name = name
        self._call = call

    def reduce(self, args: tuple, where: str) -> Any:
        if self._call is None:
            raise ArchiveError(f"'{self.name}' cannot be called", where)
        return self._call(args, where)

    def new(self, args: tuple, where: str) -> Any:
        raise ArchiveError(f"'{self.name}' cannot be instantiated with NEWOBJ", where)


class Buildable:
    """An object NEWOBJ made; BUILD gives it its state."""

    def build(self, state: Any, where: str) -> None:
        raise NotImplementedError


_OPCODE_NAMES = {
    b"c": "GLOBAL",
    b"i": "INST",
    b"o": "OBJ",
    b"R": "REDUCE",
    b"b": "BUILD",
    b"\x92": "NEWOBJ_EX",
    b"\x82": "EXT1",
    b"\x83": "EXT2",
    b"\x84": "EXT4",
    b"P": "PERSID",
    b"S": "STRING",
    b"T": "BINSTRING",
    b"U": "SHORT_BINSTRING",
    b"V": "UNICODE",
    b"F": "FLOAT",
    b"L": "LONG",
    b"\x8f": "EMPTY_SET",
    b"\x90": "ADDITEMS",
    b"\x91": "FROZENSET",
    b"\x96": "BYTEARRAY8",
    b"\x97": "NEXT_BUFFER",
    b"\x98": "READONLY_BUFFER",
}


class RestrictedUnpickler:
    """Runs one pickle program; `load()` returns its value.

    `resolve_global(ref, where)` returns a `Constructor` (or raises);
    `persistent_load(pid, where)` returns the object a persistent id names.
    """

    def __init__(
        self,
        data: bytes,
        *,
        name: str,
        resolve_global: Callable[[GlobalRef, str], Constructor],
        persistent_load: Callable[[Any, str], Any] | None = None,
    ) -> None:
        self.data = data
        self.name = name
        self.resolve_global = resolve_global
        self.persistent_load = persistent_load
        self.pos = 0
        self.stack: list[Any] = []
        self.marks: list[int] = []
        self.memo: dict[int, Any] = {}

    # -- reading

    def where(self, at: int | None = None) -> str:
        return f"{self.name} byte {self.pos if at is None else at}"

    def take(self, n: int) -> bytes:
        if n < 0 or self.pos + n > len(self.data):
            raise ArchiveError(
                f"the pickle needs {n} more bytes but only {len(self.data) - self.pos} remain "
                "(truncated?)",
                self.where(),
            )
        out = self.data[self.pos : self.pos + n]
        self.pos += n
        return out

    def unpack(self, fmt: str) -> Any:
        s = struct.Struct(fmt)
        return s.unpack(self.take(s.size))[0]

    def line(self) -> str:
        end = self.data.find(b"\n", self.pos)
        if end < 0 or end - self.pos > 4096:
            raise ArchiveError("a pickle text argument has no end of line", self.where())
        text = self.data[self.pos : end]
        self.pos = end + 1
        try:
            return text.decode("ascii")
        except UnicodeDecodeError:
            raise ArchiveError("a pickle text argument is not ASCII", self.where()) from None

    def text(self, n: int) -> str:
        try:
            return self.take(n).decode("utf-8", "surrogatepass")
        except UnicodeDecodeError:
            raise ArchiveError("a pickle string is not UTF-8", self.where()) from None

    # -- the stack

    def pop(self) -> Any:
        if not self.stack or (self.marks and len(self.stack) <= self.marks[-1]):
            raise ArchiveError("the pickle pops from an empty stack", self.where())
        return self.stack.pop()

    def pop_mark(self) -> list[Any]:
        if not self.marks:
            raise ArchiveError("the pickle ends a MARK it never started", self.where())
        at = self.marks.pop()
        items = self.stack[at:]
        del self.stack[at:]
        return items

    def top(self) -> Any:
        if not self.stack or (self.marks and len(self.stack) <= self.marks[-1]):
            raise ArchiveError("the pickle reads an empty stack", self.where())
        return self.stack[-1]

    def memo_get(self, index: int) -> Any:
        if index not in self.memo:
            raise ArchiveError(
                f"the pickle reads memo entry {index}, which was never set", self.where()
            )
        return self.memo[index]

    def checked_int(self, value: int) -> int:
        if not -INT64 <= value < INT64:
            raise ArchiveError("an integer does not fit in 64 bits", self.where())
        return value

    # -- running

    def load(self) -> Any:
        data = self.data
        while True:
            if self.pos >= len(data):
                raise ArchiveError("the pickle ends without STOP (truncated?)", self.where())
            at = self.pos
            op = data[self.pos : self.pos + 1]
            self.pos += 1
            handler = _HANDLERS.get(op)
            if handler is None:
                name = _OPCODE_NAMES.get(op, f"0x{op[0]:02x}")
                raise ArchiveError(
                    f"pickle opcode {name} is not one TorchScript archives use", self.where(at)
                )
            if handler is _stop:
                if len(self.stack) != 1 or self.marks:
                    raise ArchiveError("the pickle stops with a malformed stack", self.where(at))
                return self.stack[0]
            try:
                handler(self)
            except (ArchiveError, UnsupportedArchiveError):
                raise
            except TypeError as exc:  # e.g. an unhashable dict key
                raise ArchiveError(
                    f"the pickle builds an invalid value ({exc})", self.where(at)
                ) from None
            except RecursionError:
                raise ArchiveError("the pickle nests values too deeply", self.where(at)) from None


def _stop(u: RestrictedUnpickler) -> None:  # handled in load()
    pass


def _proto(u: RestrictedUnpickler) -> None:
    version = u.take(1)[0]
    if version > 5:
        raise ArchiveError(f"pickle protocol {version} is not supported", u.where())


def _frame(u: RestrictedUnpickler) -> None:
    u.unpack("<Q")  # frame length: informational


def _mark(u: RestrictedUnpickler) -> None:
    u.marks.append(len(u.stack))


def _push(value: Any) -> Callable[[RestrictedUnpickler], None]:
    return lambda u: u.stack.append(value)


def _int(u: RestrictedUnpickler) -> None:
    text = u.line()
    if text in ("00", "01"):
        u.stack.append(text == "01")
        return
    try:
        u.stack.append(u.checked_int(int(text)))
    except ValueError:
        raise ArchiveError(f"bad INT argument {text!r}", u.where()) from None


def _long(width: int) -> Callable[[RestrictedUnpickler], None]:
    def handler(u: RestrictedUnpickler) -> None:
        n = u.unpack("<B" if width == 1 else "<i")
        if n > 8:
            raise ArchiveError("an integer does not fit in 64 bits", u.where())
        u.stack.append(int.from_bytes(u.take(n), "little", signed=True))

    return handler


def _unicode(fmt: str) -> Callable[[RestrictedUnpickler], None]:
    return lambda u: u.stack.append(u.text(u.unpack(fmt)))


def _bytes(fmt: str) -> Callable[[RestrictedUnpickler], None]:
    return lambda u: u.stack.append(bytes(u.take(u.unpack(fmt))))


def _tuple(n: int | None) -> Callable[[RestrictedUnpickler], None]:
    def handler(u: RestrictedUnpickler) -> None:
        if n is None:
            u.stack.append(tuple(u.pop_mark()))
            return
        items = [u.pop() for _ in range(n)]
        u.stack.append(tuple(reversed(items)))

    return handler


def _list(u: RestrictedUnpickler) -> None:
    u.stack.append(u.pop_mark())


def _append(u: RestrictedUnpickler) -> None:
    value = u.pop()
    target = u.top()
    if not isinstance(target, list):
        raise ArchiveError("APPEND to something that is not a list", u.where())
    target.append(value)


def _appends(u: RestrictedUnpickler) -> None:
    items = u.pop_mark()
    target = u.top()
    if not isinstance(target, list):
        raise ArchiveError("APPENDS to something that is not a list", u.where())
    target.extend(items)


def _dict(u: RestrictedUnpickler) -> None:
    items = u.pop_mark()
    if len(items) % 2:
        raise ArchiveError("DICT with an odd number of items", u.where())
    u.stack.append(dict(zip(items[::2], items[1::2], strict=True)))


def _setitem(u: RestrictedUnpickler) -> None:
    value = u.pop()
    key = u.pop()
    target = u.top()
    if not isinstance(target, dict):
        raise ArchiveError("SETITEM on something that is not a dict", u.where())
    target[key] = value


def _setitems(u: RestrictedUnpickler) -> None:
    items = u.pop_mark()
    target = u.top()
    if not isinstance(target, dict) or len(items) % 2:
        raise ArchiveError("SETITEMS on something that is not a dict", u.where())
    for i in range(0, len(items), 2):
        target[items[i]] = items[i + 1]


def _global(u: RestrictedUnpickler) -> None:
    at = u.pos - 1
    module = u.line()
    name = u.line()
    u.stack.append(u.resolve_global(GlobalRef(module, name), u.where(at)))


def _stack_global(u: RestrictedUnpickler) -> None:
    name = u.pop()
    module = u.pop()
    if not isinstance(module, str) or not isinstance(name, str):
        raise ArchiveError("STACK_GLOBAL needs two strings", u.where())
    u.stack.append(u.resolve_global(GlobalRef(module, name), u.where()))


def _reduce(u: RestrictedUnpickler) -> None:
    args = u.pop()
    fn = u.pop()
    if not isinstance(fn, Constructor) or not isinstance(args, tuple):
        raise ArchiveError("REDUCE of something that is not a resolved global", u.where())
    u.stack.append(fn.reduce(args, u.where()))


def _newobj(u: RestrictedUnpickler) -> None:
    args = u.pop()
    cls = u.pop()
    if not isinstance(cls, Constructor) or not isinstance(args, tuple):
        raise ArchiveError("NEWOBJ of something that is not a resolved class", u.where())
    u.stack.append(cls.new(args, u.where()))


def _build(u: RestrictedUnpickler) -> None:
    state = u.pop()
    obj = u.top()
    if not isinstance(obj, Buildable):
        raise ArchiveError("BUILD of something that is not an object", u.where())
    obj.build(state, u.where())


def _put(fmt: str | None) -> Callable[[RestrictedUnpickler], None]:
    def handler(u: RestrictedUnpickler) -> None:
        if fmt is None:
            index = len(u.memo)
        elif fmt == "line":
            try:
                index = int(u.line())
            except ValueError:
                raise ArchiveError("bad PUT argument", u.where()) from None
        else:
            index = u.unpack(fmt)
        u.memo[index] = u.top()

    return handler


def _get(fmt: str) -> Callable[[RestrictedUnpickler], None]:
    def handler(u: RestrictedUnpickler) -> None:
        if fmt == "line":
            try:
                index = int(u.line())
            except ValueError:
                raise ArchiveError("bad GET argument", u.where()) from None
        else:
            index = u.unpack(fmt)
        u.stack.append(u.memo_get(index))

    return handler


def _binpersid(u: RestrictedUnpickler) -> None:
    pid = u.pop()
    if u.persistent_load is None:
        raise ArchiveError("the pickle refers to persistent data it may not have", u.where())
    u.stack.append(u.persistent_load(pid, u.where()))


def _pop(u: RestrictedUnpickler) -> None:
    u.pop()


def _pop_mark(u: RestrictedUnpickler) -> None:
    u.pop_mark()


def _dup(u: RestrictedUnpickler) -> None:
    u.stack.append(u.top())


_HANDLERS: dict[bytes, Callable[[RestrictedUnpickler], None]] = {
    b".": _stop,
    b"\x80": _proto,
    b"\x95": _frame,
    b"(": _mark,
    b"0": _pop,
    b"1": _pop_mark,
    b"2": _dup,
    b"N": _push(None),
    b"\x88": _push(True),
    b"\x89": _push(False),
    b"I": _int,
    b"J": lambda u: u.stack.append(u.unpack("<i")),
    b"K": lambda u: u.stack.append(u.unpack("<B")),
    b"M": lambda u: u.stack.append(u.unpack("<H")),
    b"\x8a": _long(1),
    b"\x8b": _long(4),
    b"G": lambda u: u.stack.append(u.unpack(">d")),
    b"X": _unicode("<I"),
    b"\x8c": _unicode("<B"),
    b"\x8d": _unicode("<Q"),
    b"B": _bytes("<I"),
    b"C": _bytes("<B"),
    b"\x8e": _bytes("<Q"),
    b")": lambda u: u.stack.append(()),
    b"t": _tuple(None),
    b"\x85": _tuple(1),
    b"\x86": _tuple(2),
    b"\x87": _tuple(3),
    b"]": lambda u: u.stack.append([]),
    b"a": _append,
    b"e": _appends,
    b"l": _list,
    b"}": lambda u: u.stack.append({}),
    b"d": _dict,
    b"s": _setitem,
    b"u": _setitems,
    b"c": _global,
    b"\x93": _stack_global,
    b"R": _reduce,
    b"\x81": _newobj,
    b"b": _build,
    b"q": _put("<B"),
    b"r": _put("<I"),
    b"p": _put("line"),
    b"\x94": _put(None),
    b"h": _get("<B"),
    b"j": _get("<I"),
    b"g": _get("line"),
    b"Q": _binpersid,
}
