"""Tensors in archives: storages as raw little-endian blobs, tensors as views of them.

Saving groups tensors by the numpy buffer that owns their memory, so views
of one storage stay views of one storage after loading (as `torch.save`
keeps them); a tensor whose memory cannot be described as a strided view of
its owner with non-negative strides (a reinterpreting view, a flipped one)
is saved as a copy. Loading checks every storage against its blob (dtype,
element count, byte length) and every tensor against its storage (rank,
sizes, strides, offset: the furthest element must lie inside) before the
numpy view is made, so a tensor declaring more memory than the file holds
is refused without allocating anything.

    storages: [{"dtype": "float32", "numel": 6, "blob": 0}]
    tensors:  [{"storage": 0, "offset": 0, "shape": [2, 3], "strides": [3, 1],
                "requires_grad": false}]
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import ts_runtime

from .errors import ArchiveError, SaveError, UnsupportedArchiveError

#: dtype names used in archives (numpy's names), to numpy dtypes in little-endian order
DTYPES: dict[str, np.dtype] = {
    name: np.dtype(name).newbyteorder("<")
    for name in (
        "bool",
        "uint8",
        "int8",
        "int16",
        "int32",
        "int64",
        "float16",
        "float32",
        "float64",
        "complex64",
        "complex128",
    )
}
#: dtypes PyTorch has that numpy cannot store: named so the error can say which
UNSUPPORTED_DTYPES = frozenset({"bfloat16", "complex32", "qint8", "quint8", "qint32"})
_LITTLE = sys.byteorder == "little"


def _root(arr: np.ndarray) -> np.ndarray:
    base = arr
    while isinstance(base.base, np.ndarray):
        base = base.base
    return base


def _address(arr: np.ndarray) -> int:
    return int(arr.__array_interface__["data"][0])


class TensorWriter:
    """Collects tensors and their storages for one archive."""

    def __init__(self, blobs: list[Any]) -> None:
        self.blobs = blobs
        self.storages: list[dict[str, Any]] = []
        self.tensors: list[dict[str, Any]] = []
        self._tensor_index: dict[int, int] = {}
        self._storage_index: dict[int, int] = {}
        self._keep: list[Any] = []  # the objects whose ids are keys above stay alive

    def add(self, t: Any) -> int:
        """The index of tensor `t` in the tensor table (one entry per tensor object)."""
        index = self._tensor_index.get(id(t))
        if index is not None:
            return index
        arr = t._data
        name = arr.dtype.name
        if name not in DTYPES:
            raise SaveError(f"tensors of numpy dtype {arr.dtype} cannot be saved")
        view = self._view_of_storage(arr)
        if view is None:  # not a plain strided view of its owner: save a copy
            copy = np.ascontiguousarray(arr)
            storage = self._storage(copy, copy)
            offset, strides = 0, [s // copy.itemsize for s in copy.strides]
        else:
            storage, offset, strides = view
        record = {
            "storage": storage,
            "offset": offset,
            "shape": list(arr.shape),
            "strides": strides,
            "requires_grad": bool(t.requires_grad),
        }
        index = len(self.tensors)
        self.tensors.append(record)
        self._tensor_index[id(t)] = index
        self._keep.append(t)
        return index

    def _view_of_storage(self, arr: np.ndarray) -> tuple[int, int, list[int]] | None:
        root = _root(arr)
        item = arr.itemsize
        if (
            root.dtype != arr.dtype
            or not (root.flags.c_contiguous or root.flags.f_contiguous)
            or not arr.dtype.isnative
        ):
            return None
        delta = _address(arr) - _address(root)
        if delta < 0 or delta % item or any(s < 0 or s % item for s in arr.strides):
            return None
        storage = self._storage(root, root)
        return storage, delta // item, [s // item for s in arr.strides]

    def _storage(self, owner: np.ndarray, data: np.ndarray) -> int:
        index = self._storage_index.get(id(owner))
        if index is not None:
            return index
        flat = data.ravel(order="K")
        if not _LITTLE:
            flat = flat.astype(flat.dtype.newbyteorder("<"))
        self.blobs.append(flat.view(np.uint8) if flat.size else b"")
        index = len(self.storages)
        self.storages.append(
            {"dtype": data.dtype.name, "numel": int(flat.size), "blob": len(self.blobs) - 1}
        )
        self._storage_index[id(owner)] = index
        self._keep.append(owner)
        return index


def _int_list(value: Any, where: str, what: str, *, max_len: int) -> list[int]:
    if not isinstance(value, list) or len(value) > max_len:
        raise ArchiveError(f"{what} is not a list of at most {max_len} integers", where)
    for v in value:
        if type(v) is not int or v < 0:
            raise ArchiveError(f"{what} holds {v!r}, not a non-negative integer", where)
    return value


class TensorReader:
    """Makes the tensors of a loaded archive, each checked before its view is made."""

    def __init__(
        self, storages: Any, tensors: Any, blob: Any, *, max_rank: int, where: str = "header"
    ) -> None:
        if not isinstance(storages, list):
            raise ArchiveError("the storage table is not a list", f"{where}.storages")
        if not isinstance(tensors, list):
            raise ArchiveError("the tensor table is not a list", f"{where}.tensors")
        self.storage_records = storages
        self.tensor_records = tensors
        self.blob = blob
        self.max_rank = max_rank
        self.where = where
        self._storages: dict[int, np.ndarray] = {}
        self._tensors: dict[int, Any] = {}

    def __len__(self) -> int:
        return len(self.tensor_records)

    def storage(self, index: Any, where: str) -> np.ndarray:
        if type(index) is not int or not 0 <= index < len(self.storage_records):
            raise ArchiveError(f"storage index {index!r} is not in the storage table", where)
        done = self._storages.get(index)
        if done is not None:
            return done
        where = f"{self.where}.storages[{index}]"
        rec = self.storage_records[index]
        if not isinstance(rec, dict):
            raise ArchiveError("a storage record is not a map", where)
        name = rec.get("dtype")
        dtype = DTYPES.get(name) if isinstance(name, str) else None
        if dtype is None:
            if name in UNSUPPORTED_DTYPES:
                raise UnsupportedArchiveError(f"{name} tensors are not supported", where)
            raise ArchiveError(f"unknown storage dtype {name!r}", where)
        numel = rec.get("numel")
        if type(numel) is not int or numel < 0:
            raise ArchiveError(f"the element count {numel!r} is not a non-negative integer", where)
        data = self.blob(rec.get("blob"), where)
        if data.nbytes != numel * dtype.itemsize:
            raise ArchiveError(
                f"the storage declares {numel} {name} elements ({numel * dtype.itemsize} bytes) "
                f"but its blob holds {data.nbytes} bytes",
                where,
            )
        arr = np.frombuffer(data, dtype=dtype, count=numel) if numel else np.empty(0, dtype)
        if not _LITTLE:
            arr = arr.astype(dtype.newbyteorder("="))
        self._storages[index] = arr
        return arr

    def tensor(self, index: Any, where: str) -> Any:
        if type(index) is not int or not 0 <= index < len(self.tensor_records):
            raise ArchiveError(f"tensor index {index!r} is not in the tensor table", where)
        done = self._tensors.get(index)
        if done is not None:
            return done
        where = f"{self.where}.tensors[{index}]"
        rec = self.tensor_records[index]
        if not isinstance(rec, dict):
            raise ArchiveError("a tensor record is not a map", where)
        storage = self.storage(rec.get("storage"), where)
        shape = _int_list(rec.get("shape"), where, "the shape", max_len=self.max_rank)
        strides = _int_list(rec.get("strides"), where, "the strides", max_len=self.max_rank)
        if len(strides) != len(shape):
            raise ArchiveError(f"{len(shape)} sizes but {len(strides)} strides", where)
        offset = rec.get("offset")
        if type(offset) is not int or offset < 0:
            raise ArchiveError(
                f"the storage offset {offset!r} is not a non-negative integer", where
            )
        requires_grad = rec.get("requires_grad", False)
        if not isinstance(requires_grad, bool):
            raise ArchiveError("requires_grad is not a bool", where)
        arr = view_of(storage, offset, shape, strides, where)
        t = ts_runtime.from_numpy(arr)
        if requires_grad:
            if arr.dtype.kind not in "fc":
                raise ArchiveError("a tensor of an integer dtype cannot require grad", where)
            t.requires_grad_(True)
        self._tensors[index] = t
        return t


def view_of(
    storage: np.ndarray, offset: int, shape: list[int], strides: list[int], where: str
) -> np.ndarray:
    """The strided view of `storage`, after checking that it stays inside the storage.

    All arithmetic is on Python integers, so huge declared sizes cannot wrap around.
    """
    numel = 1
    for s in shape:
        numel *= s
    if numel:
        last = offset + sum(
            (size - 1) * stride for size, stride in zip(shape, strides, strict=True)
        )
        if last >= storage.size:
            raise ArchiveError(
                f"a tensor of shape {shape} with strides {strides} at offset {offset} needs "
                f"storage element {last}, but the storage has {storage.size} elements",
                where,
            )
    elif offset > storage.size:
        raise ArchiveError(
            f"the storage offset {offset} is past the end of the storage ({storage.size})",
            where,
        )
    if numel == 0:
        return np.empty(shape, dtype=storage.dtype)
    contiguous = []
    expected = 1
    for size in reversed(shape):
        contiguous.append(expected)
        expected *= size
    contiguous.reverse()
    if all(st == c or size == 1 for st, c, size in zip(strides, contiguous, shape, strict=True)):
        return storage[offset : offset + numel].reshape(shape)
    item = storage.itemsize
    return np.lib.stride_tricks.as_strided(
        storage[offset:],
        shape=tuple(shape),
        strides=tuple(s * item for s in strides),
        writeable=storage.flags.writeable,
    )
