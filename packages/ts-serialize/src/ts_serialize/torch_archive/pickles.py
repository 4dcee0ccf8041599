"""What TorchScript's pickler writes, and what each global becomes here.

The allowed globals, each mapped to a constructor of this module (nothing is
imported, nothing of the archive's is called):

    torch._utils._rebuild_tensor_v2     a tensor: a checked view of a storage
    torch.<Type>Storage                 a storage type in a persistent id
    torch.device                        a Device
    builtins.complex                    a complex number
    collections.OrderedDict             a dict (TorchScript writes an empty one)
    torch.jit._pickle.build_intlist, build_doublelist, build_boollist,
        build_tensorlist, restore_type_tag
    __torch__.<...>.<Class>             an object of a class of the archive

Any other global is refused by name (`ForbiddenGlobalError`); a global
PyTorch writes for something tsjit does not support (quantized or sparse
tensors) is refused as unsupported, by name. Persistent ids name storages,
`('storage', torch.FloatStorage, '3', 'cpu', numel)`, whose `data/3` entry
is checked against dtype, byte order and element count before it is viewed.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import numpy as np
from ts_ir import Device

from ..errors import ArchiveError, ForbiddenGlobalError, UnsupportedArchiveError
from ..tensors import view_of
from .unpickler import Buildable, Constructor, GlobalRef

STORAGE_DTYPES = {
    "FloatStorage": "float32",
    "DoubleStorage": "float64",
    "HalfStorage": "float16",
    "LongStorage": "int64",
    "IntStorage": "int32",
    "ShortStorage": "int16",
    "CharStorage": "int8",
    "ByteStorage": "uint8",
    "BoolStorage": "bool",
    "ComplexFloatStorage": "complex64",
    "ComplexDoubleStorage": "complex128",
}
UNSUPPORTED_STORAGES = {
    "BFloat16Storage": "bfloat16",
    "ComplexHalfStorage": "complex32",
    "QInt8Storage": "qint8",
    "QUInt8Storage": "quint8",
    "QInt32Storage": "qint32",
    "QUInt4x2Storage": "quint4x2",
    "QUInt2x4Storage": "quint2x4",
    "Float8_e5m2Storage": "float8_e5m2",
    "Float8_e4m3fnStorage": "float8_e4m3fn",
}
UNSUPPORTED_GLOBALS = {
    "torch._utils._rebuild_qtensor": "quantized tensors",
    "torch._utils._rebuild_sparse_tensor": "sparse tensors",
    "torch._utils._rebuild_sparse_csr_tensor": "sparse tensors",
    "torch._utils._rebuild_nested_tensor": "nested tensors",
    "torch._utils._rebuild_meta_tensor_no_storage": "meta tensors",
    "torch._utils._rebuild_wrapper_subclass": "tensor subclasses",
    "torch._tensor._rebuild_from_type_v2": "tensor subclasses",
    "torch.jit._pickle.build_tensor_from_id": "tensors stored outside the pickle",
}


class StorageType:
    """`torch.FloatStorage` inside a persistent id: just its dtype."""

    def __init__(self, name: str, dtype: str) -> None:
        self.name = name
        self.dtype = dtype


class Storage:
    """A storage: a 1-D numpy array viewing (or, for big-endian files, copying) `data/<key>`."""

    def __init__(self, array: np.ndarray) -> None:
        self.array = array


class ObjectShell(Buildable):
    """An object NEWOBJ made; `build` turns it into a module or class instance."""

    def __init__(self, qualified: str, finish: Callable[[Any, str, Any, str], Any]) -> None:
        self.qualified = qualified
        self.finish = finish
        self.result: Any = None

    def build(self, state: Any, where: str) -> None:
        if self.result is not None:
            raise ArchiveError("an object is built twice", where)
        self.result = self.finish(self, self.qualified, state, where)


class TorchScriptPickles:
    """Resolves globals and persistent ids for the pickles of one TorchScript archive."""

    def __init__(
        self,
        *,
        read_storage: Callable[[str, str], memoryview],
        big_endian: bool,
        is_class: Callable[[str], bool],
        finish_object: Callable[[Any, str, Any, str], Any],
    ) -> None:
        self.read_storage = read_storage
        self.big_endian = big_endian
        self.is_class = is_class
        self.finish_object = finish_object
        self._storages: dict[str, Storage] = {}
        self._constructors: dict[str, Constructor] = {
            "torch._utils._rebuild_tensor_v2": Constructor(
                "torch._utils._rebuild_tensor_v2", self.rebuild_tensor
            ),
            "torch._utils._rebuild_tensor": Constructor(
                "torch._utils._rebuild_tensor", self.rebuild_tensor
            ),
            "torch.device": Constructor("torch.device", _device),
            "builtins.complex": Constructor("builtins.complex", _complex),
            "collections.OrderedDict": Constructor("collections.OrderedDict", _ordered_dict),
            "torch.jit._pickle.build_intlist": Constructor("build_intlist", _list_of(int)),
            "torch.jit._pickle.build_doublelist": Constructor("build_doublelist", _list_of(float)),
            "torch.jit._pickle.build_boollist": Constructor("build_boollist", _list_of(bool)),
            "torch.jit._pickle.build_tensorlist": Constructor("build_tensorlist", _list_of(None)),
            "torch.jit._pickle.restore_type_tag": Constructor(
                "restore_type_tag", _restore_type_tag
            ),
        }

    # -- globals

    def resolve_global(self, ref: GlobalRef, where: str) -> Any:
        q = ref.qualified
        found = self._constructors.get(q)
        if found is not None:
            return found
        if ref.module == "torch" and ref.name in STORAGE_DTYPES:
            return StorageType(ref.name, STORAGE_DTYPES[ref.name])
        if ref.module == "torch" and ref.name in UNSUPPORTED_STORAGES:
            return StorageType(ref.name, UNSUPPORTED_STORAGES[ref.name])
        if q in UNSUPPORTED_GLOBALS:
            raise UnsupportedArchiveError(
                f"the archive holds {UNSUPPORTED_GLOBALS[q]} ('{q}'), which tsjit does not support",
                where,
            )
        if (ref.module == "__torch__" or ref.module.startswith("__torch__.")) and self.is_class(q):
            return _ClassConstructor(q, self.finish_object)
        raise ForbiddenGlobalError(q, where)

    # -- storages

    def persistent_load(self, pid: Any, where: str) -> Storage:
        if not (isinstance(pid, tuple) and len(pid) == 5 and pid[0] == "storage"):
            raise ArchiveError(f"unexpected persistent id {_short(pid)}", where)
        _tag, storage_type, key, location, numel = pid
        if not isinstance(storage_type, StorageType):
            raise ArchiveError("a persistent id does not name a storage type", where)
        if not isinstance(key, str) or not key.isdigit() or len(key) > 12:
            raise ArchiveError(f"the storage key {_short(key)} is not a number", where)
        if not isinstance(location, str) or type(numel) is not int or numel < 0:
            raise ArchiveError("a storage's location or element count is malformed", where)
        if storage_type.dtype not in STORAGE_DTYPES.values():
            raise UnsupportedArchiveError(
                f"{storage_type.dtype} tensors ('torch.{storage_type.name}') are not supported",
                where,
            )
        done = self._storages.get(key)
        if done is not None:
            if done.array.dtype.name != storage_type.dtype:
                raise ArchiveError(f"storage {key} is read with two dtypes", where)
            return done
        dtype = np.dtype(storage_type.dtype).newbyteorder(">" if self.big_endian else "<")
        data = self.read_storage(key, where)
        if data.nbytes != numel * dtype.itemsize:
            raise ArchiveError(
                f"storage {key} declares {numel} {storage_type.dtype} elements "
                f"({numel * dtype.itemsize} bytes) but data/{key} holds {data.nbytes} bytes",
                where,
            )
        if numel == 0:
            array = np.empty(0, dtype.newbyteorder("="))
        else:
            array = np.frombuffer(data, dtype=dtype, count=numel)
            if self.big_endian != (sys.byteorder == "big") or array.ctypes.data % dtype.itemsize:
                array = array.astype(dtype.newbyteorder("="))  # swapped or misaligned: a copy
        storage = Storage(array)
        self._storages[key] = storage
        return storage

    # -- tensors

    def rebuild_tensor(self, args: tuple, where: str) -> Any:
        import ts_runtime

        if len(args) not in (4, 5, 6, 7):
            raise ArchiveError(f"_rebuild_tensor_v2 takes 6 or 7 arguments, not {len(args)}", where)
        storage, offset, size, stride = args[:4]
        requires_grad = args[4] if len(args) > 4 else False
        if len(args) == 7 and args[6]:
            raise UnsupportedArchiveError(
                f"tensor metadata {_short(args[6])} (conjugate or negative views) is not supported",
                where,
            )
        if not isinstance(storage, Storage):
            raise ArchiveError("a tensor's storage is not a storage", where)
        if type(offset) is not int or offset < 0:
            raise ArchiveError("a tensor's storage offset is not a non-negative integer", where)
        for name, dims in (("size", size), ("stride", stride)):
            if (
                not isinstance(dims, tuple)
                or len(dims) > 64
                or not all(type(d) is int and 0 <= d < 2**62 for d in dims)
            ):
                raise ArchiveError(f"a tensor's {name} is not a tuple of dimensions", where)
        if len(size) != len(stride):
            raise ArchiveError(f"{len(size)} sizes but {len(stride)} strides", where)
        if not isinstance(requires_grad, bool):
            raise ArchiveError("requires_grad is not a bool", where)
        array = view_of(storage.array, offset, list(size), list(stride), where)
        t = ts_runtime.from_numpy(array)
        if requires_grad and array.dtype.kind in "fc":
            t.requires_grad_(True)
        return t


class _ClassConstructor(Constructor):
    def __init__(self, qualified: str, finish: Callable[[Any, str, Any, str], Any]) -> None:
        super().__init__(qualified)
        self.finish = finish

    def new(self, args: tuple, where: str) -> Any:
        if args:
            raise ArchiveError(f"'{self.name}' is instantiated with arguments", where)
        return ObjectShell(self.name, self.finish)

    def reduce(self, args: tuple, where: str) -> Any:
        raise UnsupportedArchiveError(
            f"'{self.name}' is called in the pickle (an Enum value?), which is not supported",
            where,
        )


def _device(args: tuple, where: str) -> Device:
    if len(args) != 1 or not isinstance(args[0], str):
        raise ArchiveError("torch.device takes one string", where)
    try:
        device = Device(args[0])
    except (TypeError, ValueError) as exc:
        raise ArchiveError(f"bad device {args[0]!r}: {exc}", where) from None
    return Device("cpu") if str(device) != "cpu" else device


def _complex(args: tuple, where: str) -> complex:
    if len(args) != 2 or not all(isinstance(a, float) for a in args):
        raise ArchiveError("complex takes two floats", where)
    return complex(args[0], args[1])


def _ordered_dict(args: tuple, where: str) -> dict:
    if args:
        raise ArchiveError("OrderedDict is called with arguments", where)
    return {}


def _list_of(kind: type | None) -> Callable[[tuple, str], list]:
    def build(args: tuple, where: str) -> list:
        if len(args) != 1 or not isinstance(args[0], list):
            raise ArchiveError("a list builder takes one list", where)
        items = args[0]
        if kind is not None and not all(type(v) is kind for v in items):
            raise ArchiveError(f"a list of {kind.__name__} holds another type", where)
        return items

    return build


def _restore_type_tag(args: tuple, where: str) -> Any:
    if len(args) != 2 or not isinstance(args[1], str):
        raise ArchiveError("restore_type_tag takes a value and a type", where)
    return args[0]  # the value's type is checked against its slot's declared type


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
