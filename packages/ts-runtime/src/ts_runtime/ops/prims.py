"""`prim::` operators and the runtime's small services: tensor properties, optionals, printing,
size arithmetic for fused and differentiated graphs, and the node-specialized prims.

The prims the interpreter writes itself (`prim::If`, `prim::TupleConstruct`,
`prim::GetAttr`, ...) are not here; see `interpreter.code._SPECIAL`.
Node-specialized ones read their node's attributes once, when the code is
built: `prim::ConstantChunk[chunks=2, dim=1]`, `prim::ChunkSizes`,
`prim::TupleSlice[beg=0, end=2]`.

`prim::Print` writes its arguments' `str`, separated by spaces and ended by
a newline, to `sys.stdout`, as TorchScript's print handler does.
"""

from __future__ import annotations

import struct
import sys
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from ts_ir import (
    Category,
    Device,
    IRError,
    Node,
    ScalarType,
    promote_types,
    result_type,
    scalar_dtype,
)
from ts_schema import registry

from ..autograd.grad_mode import GRAD_MODE
from ..dtypes import to_dtype
from ..tensor import Tensor, TensorError, normalize_dim, wrap
from .dispatch import implement_factory
from .scalars import register

# ---------------------------------------------------------------------------
# Tensor properties

register("dtype", ("",), lambda t: t.dtype, "{0}.dtype", namespace="prim")
register("device", ("",), lambda t: t.device, "{0}.device", namespace="prim")
register("layout", ("",), lambda t: t.layout, "{0}.layout", namespace="prim")
register("requires_grad", ("",), lambda t: t.requires_grad, "{0}.requires_grad", namespace="prim")
register("is_cuda", ("",), lambda t: t.is_cuda, "{0}.is_cuda", namespace="prim")
register("grad", ("",), lambda t: t.grad, "{0}.grad", namespace="prim")
register("data", ("",), lambda t: t.data, "{0}.data", namespace="prim")
register("itemsize", ("",), lambda t: t.element_size(), "{0}.element_size()", namespace="prim")
register(
    "nbytes",
    ("",),
    lambda t: t.numel() * t.element_size(),
    "{0}.numel() * {0}.element_size()",
    namespace="prim",
)
register("name", ("",), lambda t: None, "None", namespace="prim")
register(
    "is_cpu", ("",), lambda t: t.device.type == "cpu", '{0}.device.type == "cpu"', namespace="prim"
)
register(
    "is_meta",
    ("",),
    lambda t: t.device.type == "meta",
    '{0}.device.type == "meta"',
    namespace="prim",
)
# layouts, backends and kinds of tensor this runtime does not have
for _flag in (
    "is_xpu",
    "is_mps",
    "is_maia",
    "is_mtia",
    "is_ipu",
    "is_xla",
    "is_vulkan",
    "is_quantized",
    "is_mkldnn",
    "is_sparse",
    "is_sparse_csr",
    "is_nested",
):
    register(_flag, ("",), lambda t: False, "False", namespace="prim")
register("len", ("Tensor",), len, "len({0})")
register("index", ("",), lambda d: d.index, "{0}.index", namespace="prim")
register("type", ("",), lambda d: d.type, "{0}.type", namespace="prim")
register("device", ("",), Device)
register("device", ("with_index",), Device)


_NUMBER_DTYPES = {bool: np.bool_, int: np.int64, float: np.float64, complex: np.complex128}


def num_to_tensor(a: Any) -> Tensor:
    """A 0-dim tensor of a number: bool, int64, float64 or complex128 (as `scalar_to_tensor`)."""
    dt = _NUMBER_DTYPES.get(type(a))
    if dt is None:
        raise TypeError(f"prim::NumToTensor expects a number, got {type(a).__name__}")
    return wrap(np.array(a, dtype=dt))


register("NumToTensor", ("Scalar", "bool"), num_to_tensor, namespace="prim")


def tolist(t: Tensor, dim: int, elem_type: int) -> Any:
    """`prim::tolist`: nested lists of `dim` levels; `elem_type` 0 int, 1 float, 2 bool, 3 complex."""
    kinds = {0: ("iu", "int"), 1: ("f", "float"), 2: ("b", "bool"), 3: ("c", "complex")}
    if elem_type not in kinds:
        raise TensorError(f"tolist(): unknown element type {elem_type}")
    allowed, name = kinds[elem_type]
    if t._data.ndim != dim:
        raise TensorError(
            "Output annotation list dimension and runtime tensor dimension must match for "
            f"tolist() (expected {dim}, got {t._data.ndim})"
        )
    if t._data.dtype.kind not in allowed:
        raise TensorError(
            "Output annotation element type and runtime tensor element type must match for "
            f"tolist() (expected {name}, got {t.dtype.scalar_type.name})"
        )
    return t._data.tolist()


register("tolist", ("",), tolist, namespace="prim")

# ---------------------------------------------------------------------------
# Optionals, identity, choice


def unwrap_optional(x: Any) -> Any:
    if x is None:
        raise TensorError("Unwrapping null optional")
    return x


register("_unwrap_optional", ("",), unwrap_optional)
register("unchecked_unwrap_optional", ("",), lambda x: x, "{0}", namespace="prim")
register(
    "IfThenElse", ("",), lambda c, x, y: x if c else y, "{1} if {0} else {2}", namespace="prim"
)
register(
    "id",
    ("",),
    lambda x: 0 if x is None else id(x),
    "0 if {0} is None else id({0})",
    namespace="prim",
)
_MASK = (1 << 64) - 1
_MUL = 0xC6A4A7935BD1E995
_SEED = 0xC70F6907


def _hash_bytes(data: bytes) -> int:
    """The C++ standard library's hash of a byte string (libstdc++'s 64-bit `_Hash_bytes`,
    a MurmurHash2 variant), which PyTorch's `hash` of strings and floats gives."""

    def shift_mix(v: int) -> int:
        return v ^ (v >> 47)

    n = len(data)
    h = (_SEED ^ (n * _MUL)) & _MASK
    whole = n & ~7
    for i in range(0, whole, 8):
        word = int.from_bytes(data[i : i + 8], "little")
        h = ((h ^ ((shift_mix((word * _MUL) & _MASK) * _MUL) & _MASK)) * _MUL) & _MASK
    if n & 7:
        h = ((h ^ int.from_bytes(data[whole:], "little")) * _MUL) & _MASK
    h = shift_mix((shift_mix(h) * _MUL) & _MASK)
    return h - (1 << 64) if h >> 63 else h  # as the int64 TorchScript returns


def script_hash(x: Any) -> int:
    """`hash(x)` as TorchScript computes it: ints (and bools) hash to themselves, floats
    and strings by the C++ standard library's hash (0.0 and -0.0 to 0, a NaN by its bits),
    so the same value always hashes alike, unlike Python's per-process string hash or its
    per-object hash of a NaN. Other values (tuples, devices, tensors) use Python's hash."""
    if isinstance(x, (bool, int)):
        return int(x)
    if isinstance(x, float):
        return 0 if x == 0.0 else _hash_bytes(struct.pack("<d", x))
    if isinstance(x, str):
        return _hash_bytes(x.encode("utf-8"))
    return hash(x)


register("hash", ("generic",), script_hash)
register("ModuleContainerIndex", ("list", "dict"), lambda m, i: m[i], "{0}[{1}]", namespace="prim")
register("EnumName", ("",), lambda e: e.name, "{0}.name", namespace="prim")
register("EnumValue", ("int", "float", "str"), lambda e: e.value, "{0}.value", namespace="prim")

# ---------------------------------------------------------------------------
# Gradients that may be undefined (None), in differentiated graphs


def autograd_add(a: Any, b: Any) -> Any:
    """`prim::AutogradAdd`: the sum of two gradients, either of which may be undefined."""
    if a is None:
        return b
    if b is None:
        return a
    return a + b


def _defined(values: tuple[Any, ...]) -> list[bool]:
    """Whether each tensor (or each tensor of a tensor list) in `values` is defined."""
    out: list[bool] = []
    for v in values:
        if isinstance(v, (list, tuple)):
            out.extend(t is not None for t in v)
        else:
            out.append(v is not None)
    return out


register("AutogradAdd", ("",), autograd_add, namespace="prim")
register("AutogradZero", ("",), lambda: None, "None", namespace="prim")
register("AutogradAnyNonZero", ("",), lambda *vs: any(_defined(vs)), namespace="prim")
register("AutogradAllNonZero", ("",), lambda *vs: all(_defined(vs)), namespace="prim")
register("AutogradAllZero", ("",), lambda *vs: not any(_defined(vs)), namespace="prim")

# ---------------------------------------------------------------------------
# Printing, warnings, assertions


def print_(*args: Any) -> None:
    """`prim::Print`: the arguments' `str`, space-separated, as one line on stdout."""
    sys.stdout.write(" ".join(map(str, args)) + "\n")


def print_string(s: str) -> None:
    sys.stdout.write(s + "\n")


def warn(message: str, stacklevel: int = 2) -> None:
    warnings.warn(message, UserWarning, stacklevel=stacklevel)


def assert_scalar(value: Any, message: str) -> None:
    if not value:
        raise TensorError(message)


register("Print", ("",), print_, namespace="prim")
register("_print", ("",), print_string)
register("warn", ("",), warn)
register("_assert_scalar", ("",), assert_scalar)

# ---------------------------------------------------------------------------
# The runtime's state, as programs ask for it

register("is_scripting", ("",), lambda: True, "True")
register("has_torch_function", ("",), lambda *args: False)
register("_get_tracing_state", ("",), lambda: False, "False")
register("is_grad_enabled", ("",), lambda: GRAD_MODE.enabled)
# CPU only, no mixed precision: autocast is never on
register("is_autocast_enabled", ("",), lambda: False, "False")


def set_grad_enabled(enabled: bool) -> None:
    GRAD_MODE.enabled = enabled


register("set_grad_enabled", ("",), set_grad_enabled)

# ---------------------------------------------------------------------------
# dtypes as numbers (TorchScript passes a ScalarType as an int)


def promote(a: int, b: int) -> int:
    return to_dtype(promote_types(ScalarType(a), ScalarType(b)))


def can_cast(from_: int, to: int) -> bool:
    """PyTorch's `can_cast`: no complex to real, floating to integral, or number to bool."""
    f, t = ScalarType(from_), ScalarType(to)
    if f.is_complex and not t.is_complex:
        return False
    if f.is_floating_point and not (t.is_floating_point or t.is_complex):
        return False
    return not (f is not ScalarType.Bool and t is ScalarType.Bool)


def scalars_result_type(a: Any, b: Any) -> int:
    return to_dtype(
        result_type([(scalar_dtype(a), Category.SCALAR), (scalar_dtype(b), Category.SCALAR)])
    )


register("promote_types", ("",), promote)
register("can_cast", ("",), can_cast)
register("result_type", ("Scalar_Scalar",), scalars_result_type)

# ---------------------------------------------------------------------------
# Sizes: broadcasting, reductions, chunks


def broadcast_sizes(*sizes: Sequence[int]) -> list[int]:
    """The broadcast of several sizes (`prim::BroadcastSizes`, `aten::_infer_size`)."""
    out: list[int] = []
    for size in sizes:
        size = list(size)
        if len(size) > len(out):
            out = [1] * (len(size) - len(out)) + out
        offset = len(out) - len(size)
        for i, s in enumerate(size):
            have = out[offset + i]
            if have == s or s == 1:
                continue
            if have == 1:
                out[offset + i] = s
                continue
            raise TensorError(
                f"The size of tensor a ({have}) must match the size of tensor b ({s}) "
                f"at non-singleton dimension {offset + i}"
            )
    return out


register("BroadcastSizes", ("",), broadcast_sizes, namespace="prim")
register("_infer_size", ("",), broadcast_sizes)
register("broadcast_shapes", ("",), broadcast_sizes)


def size_if_not_equal(self_size: Sequence[int], other_size: Sequence[int]) -> Any:
    """`self_size`, or None when it equals `other_size` (no reduction of a gradient needed)."""
    return None if list(self_size) == list(other_size) else self_size


register("_size_if_not_equal", ("",), size_if_not_equal)
register("Size", ("",), list, "list({0})")


def reduction_sizes(size: Sequence[int], axes: Sequence[int], keepdim: bool = False) -> list[int]:
    """The size of a reduction over `axes` of a tensor of `size`."""
    n = len(size)
    reduced = {normalize_dim(a, n) for a in axes}
    if keepdim:
        return [1 if i in reduced else s for i, s in enumerate(size)]
    return [s for i, s in enumerate(size) if i not in reduced]


register("ReductionSizes", ("",), reduction_sizes, namespace="prim")


@implement_factory("prim::ConstantChunk")
def constant_chunk(node: Node) -> Callable[[Tensor], list[Any]]:
    """`prim::ConstantChunk[chunks=n, dim=d]`: `aten::chunk` with exactly n outputs.

    Chunking fewer elements than n gives fewer pieces; the missing outputs are None.
    """
    chunks, dim = _int_attribute(node, "chunks"), _int_attribute(node, "dim")
    chunk = registry.get("aten::chunk").implementation_for(None)

    def run(t: Tensor) -> list[Any]:
        pieces = list(chunk(t, chunks, dim))
        return pieces + [None] * (chunks - len(pieces))

    return run


@implement_factory("prim::ChunkSizes")
def chunk_sizes(node: Node) -> Callable[[Sequence[int]], tuple[list[int], list[int]]]:
    """`prim::ChunkSizes[chunks=n, dim=d]`: the size of every chunk but the last, and the last's."""
    chunks, raw_dim = _int_attribute(node, "chunks"), _int_attribute(node, "dim")

    def run(size: Sequence[int]) -> tuple[list[int], list[int]]:
        regular, last = list(size), list(size)
        dim = normalize_dim(raw_dim, len(size))
        split = (size[dim] + chunks - 1) // chunks
        regular[dim] = split
        if size[dim] % chunks == 0:
            last[dim] = split
        else:
            pieces = max((size[dim] + split - 1) // split, 1)
            last[dim] = split - (split * pieces - size[dim])
        return regular, last

    return run


@implement_factory("prim::TupleSlice")
def tuple_slice(node: Node) -> Callable[..., tuple[Any, ...]]:
    """`prim::TupleSlice[beg=b, end=e]`: the tuple's elements b to e."""
    beg, end = _int_attribute(node, "beg"), _int_attribute(node, "end")
    step = node.i("step") if node.has_attribute("step") else 1

    def run(tup: tuple[Any, ...]) -> tuple[Any, ...]:
        return tup[beg:end:step]

    return run


def _int_attribute(node: Node, name: str) -> int:
    if not node.has_attribute(name):
        raise IRError(f"{node.kind} needs an int attribute '{name}': {node}")
    return node.i(name)
