"""What a fusion group computes for one set of input types: dtypes, shapes, loop structure.

    spec = specialize(subgraph, input_specs)

`input_specs` has one entry per subgraph input: a complete `TensorType`
(dtype, sizes, strides in elements) for a tensor, `IntType`/`FloatType`/
`BoolType` for a Python number passed at run time, `NoneType` for None.

The result has two halves:

- what the generated code depends on (`codegen_key`): the group's canonical
  text, each input's dtype and promotion category, and the loop structure:
  the *flat* path (every operand contiguous over the whole iteration space,
  or a single broadcast element: one loop over the elements) or the
  *strided* path (a loop over rows of the innermost dimension, each operand
  with its own strides), and per operand whether its innermost stride is 1,
  0, or something else. Sizes and strides are not part of it: they are read
  at run time from an `info` array, so one compiled kernel serves every
  shape with the same structure.
- what one launch needs (`info`, output shapes and dtypes, element count).

Dimensions are put in the memory order of the inputs (outputs are laid out
the same way, as numpy and PyTorch lay them out) and coalesced (size-1
dimensions dropped, neighbours merged where every operand's strides allow,
as PyTorch's TensorIterator does), so a transposed or sliced operand costs a
strided loop only where it must.
"""

from __future__ import annotations

import enum
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from ts_ir import (
    BoolType,
    Category,
    FloatType,
    Graph,
    IntType,
    Node,
    NoneType,
    ScalarType,
    TensorType,
    Type,
    Value,
    constant_value,
    prim,
)
from ts_schema import RuleTable

from .errors import UnsupportedFusionError
from .llvm_types import is_supported, numpy_dtype
from .lowerings import CPU_LOWERINGS, Lowering
from .operands import Operand
from .reductions import decompose

S = ScalarType
Shape = tuple[int, ...]


class Access(enum.Enum):
    """How a kernel reads one operand along the innermost loop."""

    SCALAR = "scalar"  # one element for the whole launch
    CONTIGUOUS = "contiguous"  # innermost stride 1
    ROW_BROADCAST = "row_broadcast"  # innermost stride 0: one element per row
    STRIDED = "strided"  # any other innermost stride


class Path(enum.Enum):
    FLAT = "flat"
    STRIDED = "strided"
    ROWS = "rows"  # rows of the innermost dimension, with reductions over them (`reductions`)


@dataclass(slots=True)
class Leaf:
    """A tensor the kernel loads from: a group input, or one chunk of a `prim::ConstantChunk`."""

    value: Value
    arg: int  # which kernel argument holds its array
    dtype: ScalarType
    sizes: Shape
    strides: Shape  # in elements
    offset: int = 0  # in bytes, from the array's data pointer
    chunk: int | None = None  # the chunk number, for chunks
    loaded: bool = False
    access: Access = Access.SCALAR
    iter_strides: Shape = ()  # strides over the (coalesced) iteration space


@dataclass(slots=True)
class Step:
    """One node of the group, with its lowering and result dtype; on the rows path, whether its
    value is the same along the innermost dimension (`row`) and, for a reduction, the round
    of reductions it belongs to (`phase`, from 1)."""

    node: Node
    lowering: Lowering
    dtype: ScalarType
    row: bool = False
    phase: int = 0


@dataclass(slots=True)
class Specialization:
    subgraph: Graph
    canonical: str
    inputs: list[Type]
    operands: dict[Value, Operand]
    shapes: dict[Value, Shape]
    leaves: list[Leaf]
    steps: list[Step]
    scalar_args: list[tuple[int, ScalarType]]  # (input index, dtype) of run-time numbers
    outputs: list[tuple[Value, ScalarType]]
    shape: Shape  # the iteration (and output) shape
    numel: int
    path: Path
    dims: Shape  # coalesced iteration sizes
    order: Shape = ()  # the iteration order of the output's dimensions, outermost first
    info: list[int] = field(default_factory=list)
    output_shapes: list[Shape] = field(default_factory=list)
    phases: int = 0  # rounds of reductions on the rows path

    @property
    def output_layout(self) -> tuple[Shape, Shape] | None:
        """(the shape to allocate outputs with, the transpose giving the output shape) when the
        outputs follow the inputs' memory order rather than C order; None for C order."""
        if list(self.order) == sorted(self.order):
            return None
        inverse = [0] * len(self.order)
        for position, d in enumerate(self.order):
            inverse[d] = position
        return tuple(self.shape[d] for d in self.order), tuple(inverse)

    @property
    def rank(self) -> int:
        return len(self.dims)

    @property
    def inner(self) -> int:
        """Elements per row on the strided path."""
        return self.dims[-1] if self.dims else 1

    @property
    def rows(self) -> int:
        n = 1
        for s in self.dims[:-1]:
            n *= s
        return n

    @property
    def work_items(self) -> int:
        """What a launch splits across threads: elements (flat) or rows (strided, rows)."""
        return self.numel if self.path is Path.FLAT else self.rows

    @property
    def elements_per_item(self) -> int:
        return 1 if self.path is Path.FLAT else self.inner

    @property
    def output_numpy_dtypes(self) -> list[np.dtype]:
        return [numpy_dtype(d) for _, d in self.outputs]

    @property
    def codegen_key(self) -> tuple:
        inputs = tuple(_describe_type(t) for t in self.inputs)
        leaves = tuple(
            (leaf.arg, leaf.chunk, leaf.access.value if leaf.loaded else None)
            for leaf in self.leaves
        )
        rank = self.rank if self.path is not Path.FLAT else 0
        return (self.canonical, inputs, leaves, self.path.value, rank)

    def info_layout(self) -> tuple[int, int, int]:
        """(offsets start, sizes start, strides start) in `info`: one offset per leaf, then
        the iteration sizes, then each leaf's strides."""
        n = len(self.leaves)
        return 0, n, n + self.rank


def _describe_type(t: Type) -> tuple:
    if isinstance(t, TensorType):
        return ("tensor", t.scalar_type.name, len(t.sizes) == 0)  # type: ignore[union-attr,arg-type]
    return (str(t),)


# ---------------------------------------------------------------------------
# canonical text


def canonical_text(subgraph: Graph) -> str:
    """The group's computation without names, types or source locations: what its code depends on."""
    ids: dict[Value, int] = {}
    lines = [f"inputs {len(subgraph.inputs)}"]
    for v in subgraph.inputs:
        ids[v] = len(ids)
    for node in subgraph.nodes():
        if node.kind is prim.Constant:
            value = constant_value(node.output())
            text = f"const {type(value).__name__} {value!r}"
        else:
            op = node.maybe_schema()
            name = op.key if op is not None else str(node.kind)
            attrs = ",".join(f"{a}={node.attr(a)!r}" for a in sorted(node.attribute_names()))
            args = ",".join(str(ids[v]) for v in node.inputs)
            text = f"{name}[{attrs}]({args}) -> {len(node.outputs)}"
        for out in node.outputs:
            ids[out] = len(ids)
        lines.append(text)
    lines.append("return " + ",".join(str(ids[v]) for v in subgraph.outputs))
    return "\n".join(lines)


def canonical_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


# ---------------------------------------------------------------------------
# shapes


def broadcast_shapes(shapes: Sequence[Shape]) -> Shape:
    rank = max((len(s) for s in shapes), default=0)
    out = [1] * rank
    for s in shapes:
        for i, size in enumerate(s, start=rank - len(s)):
            if size == out[i] or size == 1:
                continue
            if out[i] == 1:
                out[i] = size
                continue
            raise UnsupportedFusionError(
                f"shapes {[list(x) for x in shapes]} do not broadcast; the interpreter reports the error"
            )
    return tuple(out)


def _iteration_strides(leaf: Leaf, shape: Shape) -> list[int]:
    lead = len(shape) - len(leaf.sizes)
    strides = [0] * lead
    for size, stride, full in zip(leaf.sizes, leaf.strides, shape[lead:], strict=True):
        strides.append(stride if size == full and size != 1 else 0)
    return strides


def memory_order(shape: Shape, strides: list[list[int]]) -> list[int]:
    """The dimensions outermost first, in the memory order of the first operand that covers the
    whole shape (as PyTorch's TensorIterator and numpy do): outputs are then laid out like
    their inputs, and uniformly transposed inputs make one flat loop."""
    for s in strides:
        if all(stride != 0 for stride, size in zip(s, shape, strict=True) if size != 1):
            return sorted(range(len(shape)), key=lambda d: -abs(s[d]) if shape[d] != 1 else 0)
    return list(range(len(shape)))


def coalesce(shape: Shape, strides: list[list[int]]) -> tuple[list[int], list[list[int]]]:
    """Drop size-1 dimensions and merge neighbours wherever every operand allows it."""
    keep = [d for d, size in enumerate(shape) if size != 1]
    sizes = [shape[d] for d in keep]
    per = [[s[d] for d in keep] for s in strides]
    d = len(sizes) - 1
    while d > 0:
        if all(s[d - 1] == s[d] * sizes[d] for s in per):
            sizes[d - 1] *= sizes[d]
            for s in per:
                s[d - 1] = s[d]
                del s[d]
            del sizes[d]
        d -= 1
    return sizes, per


# ---------------------------------------------------------------------------
# the analysis


def _number_operand(t: Type) -> Operand | None:
    if isinstance(t, BoolType):
        return Operand(S.Bool, Category.SCALAR)
    if isinstance(t, IntType):
        return Operand(S.Long, Category.SCALAR)
    if isinstance(t, FloatType):
        return Operand(S.Double, Category.SCALAR)
    return None


def _constant_operand(value: object) -> Operand:
    if isinstance(value, bool):
        return Operand(S.Bool, Category.SCALAR, const=value)
    if isinstance(value, int):
        return Operand(S.Long, Category.SCALAR, const=value)
    if isinstance(value, float):
        return Operand(S.Double, Category.SCALAR, const=value)
    if value is None or isinstance(value, str):
        return Operand(None, None, const=value)
    if isinstance(value, list) and all(type(x) is int for x in value):
        return Operand(None, None, const=value)  # the dimensions of a reduction
    raise UnsupportedFusionError(f"a constant of type {type(value).__name__} in a fusion group")


def _category(shape: Shape) -> Category:
    return Category.DIM if shape else Category.ZERO_DIM


def specialize(
    subgraph: Graph,
    input_specs: Sequence[Type],
    canonical: str | None = None,
    *,
    lowerings: RuleTable[Any] = CPU_LOWERINGS,
    device: str = "cpu",
) -> Specialization:
    """Analyze `subgraph` for these input types; raises `UnsupportedFusionError` with the reason
    when the fuser cannot compile it.

    Nothing here depends on the CPU but the defaults: another device's fuser passes its own
    `lowerings` (each rule with the `dtype`, `check` and `broadcast` of a `Lowering`; its
    `emit` is the fuser's own business) and its device type, which tensor inputs must have."""
    if len(input_specs) != len(subgraph.inputs):
        raise UnsupportedFusionError(
            f"the group takes {len(subgraph.inputs)} inputs, but {len(input_specs)} specs were given"
        )
    if canonical is None:
        canonical = canonical_text(subgraph)
    subgraph, requirements = decompose(subgraph, lowerings)
    operands: dict[Value, Operand] = {}
    shapes: dict[Value, Shape] = {}
    leaf_of: dict[Value, Leaf] = {}
    leaves: list[Leaf] = []
    scalar_args: list[tuple[int, ScalarType]] = []
    chunked: set[Value] = set()
    for node in subgraph.nodes():
        if node.kind is prim.ConstantChunk:
            chunked.add(node.input())

    for i, (v, spec) in enumerate(zip(subgraph.inputs, input_specs, strict=True)):
        if isinstance(spec, TensorType):
            dtype = spec.scalar_type
            if not spec.is_complete():
                raise UnsupportedFusionError(f"input {i} has an incomplete tensor type {spec}")
            if not is_supported(dtype):
                raise UnsupportedFusionError(
                    f"input {i} is a {'tensor of unknown dtype' if dtype is None else dtype.python_name} tensor; "
                    f"the {device.upper()} fuser computes in bool, int32, int64, float32 and float64"
                )
            if spec.device is not None and spec.device.type != device:
                raise UnsupportedFusionError(f"input {i} is on {spec.device}, not {device}")
            sizes = tuple(spec.sizes)  # type: ignore[arg-type]
            operands[v] = Operand(dtype, _category(sizes))
            shapes[v] = sizes
            leaf = Leaf(v, i, dtype, sizes, tuple(spec.strides))  # type: ignore[arg-type]
            leaf_of[v] = leaf
            if (
                v not in chunked
                or any(u.user.kind is not prim.ConstantChunk for u in v.uses)
                or v in subgraph.outputs
            ):
                leaves.append(leaf)
            continue
        if isinstance(spec, NoneType):
            operands[v] = Operand(None, None, const=None)
            continue
        operand = _number_operand(spec)
        if operand is None:
            raise UnsupportedFusionError(
                f"input {i} of type {spec} cannot be passed to a {device.upper()} kernel"
            )
        operands[v] = operand
        scalar_args.append((i, operand.dtype))  # type: ignore[arg-type]

    steps: list[Step] = []
    for node in subgraph.nodes():
        if node.kind is prim.Constant:
            operands[node.output()] = _constant_operand(constant_value(node.output()))
            continue
        if node.kind is prim.ConstantChunk:
            _chunk(node, leaf_of, operands, shapes, leaves)
            continue
        if len(node.outputs) != 1:
            raise UnsupportedFusionError(f"{node.kind} has {len(node.outputs)} outputs")
        lowering = lowerings.lookup(node)
        if lowering is None:
            raise UnsupportedFusionError(f"{node.kind} has no {device.upper()} lowering")
        if lowering.check is not None:
            reason = lowering.check(node)
            if reason is not None:
                raise UnsupportedFusionError(reason)
        args = [operands[v] for v in node.inputs]
        dtype = lowering.dtype(node, args)
        if not is_supported(dtype):
            raise UnsupportedFusionError(f"{node.kind} would produce a {dtype.python_name} tensor")
        positions = lowering.broadcast
        if positions is None:
            positions = tuple(i for i, v in enumerate(node.inputs) if v in shapes)
        tensor_inputs = [node.inputs[i] for i in positions if node.inputs[i] in shapes]
        for v in tensor_inputs:
            if v in leaf_of:
                leaf_of[v].loaded = True
        shape = broadcast_shapes([shapes[v] for v in tensor_inputs])
        if _reduction(lowering) is not None:
            shape = _reduced_shape(node, shape)
        out = node.output()
        shapes[out] = shape
        operands[out] = Operand(dtype, _category(shape))
        steps.append(Step(node, lowering, dtype))
    for requirement in requirements:
        requirement.check(shapes[requirement.value])

    outputs: list[tuple[Value, ScalarType]] = []
    for v in subgraph.outputs:
        if v not in shapes:
            raise UnsupportedFusionError("a fusion group output is not a tensor")
        if v in leaf_of:
            leaf_of[v].loaded = True
        outputs.append((v, operands[v].dtype))  # type: ignore[arg-type]
    if any(_reduction(step.lowering) is not None for step in steps):
        return _rows(
            subgraph, canonical, input_specs, operands, shapes, leaves, steps, scalar_args, outputs
        )
    shape = broadcast_shapes([shapes[v] for v, _ in outputs])
    for v, _ in outputs:
        if shapes[v] != shape:
            raise UnsupportedFusionError(
                f"outputs of different shapes ({list(shapes[v])} and {list(shape)})"
            )
    numel = 1
    for s in shape:
        numel *= s

    loaded = [leaf for leaf in leaves if leaf.loaded]
    for leaf in loaded:
        if broadcast_shapes([leaf.sizes, shape]) != shape:
            raise UnsupportedFusionError(
                f"an input of shape {list(leaf.sizes)} does not broadcast to the output shape {list(shape)}"
            )
    full = [_iteration_strides(leaf, shape) for leaf in loaded]
    order = memory_order(shape, full)
    dims, per_leaf = coalesce(tuple(shape[d] for d in order), [[s[d] for d in order] for s in full])
    if len(dims) <= 1 and all(s[0] in (0, 1) for s in per_leaf if s):
        path = Path.FLAT
    else:
        path = Path.STRIDED
    for leaf, strides in zip(loaded, per_leaf, strict=True):
        leaf.iter_strides = tuple(strides)
        inner = strides[-1] if strides else 0
        if all(s == 0 for s in strides):
            leaf.access = Access.SCALAR
        elif inner == 1:
            leaf.access = Access.CONTIGUOUS
        elif inner == 0:
            leaf.access = Access.ROW_BROADCAST
        else:
            leaf.access = Access.STRIDED

    spec = Specialization(
        subgraph=subgraph,
        canonical=canonical,
        inputs=list(input_specs),
        operands=operands,
        shapes=shapes,
        leaves=leaves,
        steps=steps,
        scalar_args=scalar_args,
        outputs=outputs,
        shape=shape,
        numel=numel,
        path=path,
        dims=tuple(dims) if path is Path.STRIDED else (numel,),
        order=tuple(order),
        output_shapes=[shape] * len(outputs),
    )
    spec.info = _info(spec)
    return spec


# ---------------------------------------------------------------------------
# the rows path: reductions over the innermost dimension


def _reduction(lowering: Any) -> str | None:
    """The kind of a reduction lowering, None for pointwise ones (and for other devices'
    lowerings, which have no reductions)."""
    return getattr(lowering, "reduction", None)


def _reduced_shape(node: Node, shape: Shape) -> Shape:
    """The keepdim result shape of a reduction over the innermost dimension of `shape`."""
    if not shape:
        raise UnsupportedFusionError(f"{node.kind} of a 0-d tensor")
    (dim,) = constant_value(node.inputs[1])
    if dim not in (-1, len(shape) - 1):
        raise UnsupportedFusionError(
            f"{node.kind} over dimension {dim} of a {len(shape)}-d tensor, not the innermost"
        )
    return (*shape[:-1], 1)


def _rows(
    subgraph: Graph,
    canonical: str,
    input_specs: Sequence[Type],
    operands: dict[Value, Operand],
    shapes: dict[Value, Shape],
    leaves: list[Leaf],
    steps: list[Step],
    scalar_args: list[tuple[int, ScalarType]],
    outputs: list[tuple[Value, ScalarType]],
) -> Specialization:
    """The specialization of a group with reductions: the iteration space is the outputs'
    shape, the innermost dimension kept whole (each reduction runs along it), the outer
    dimensions coalesced into rows; outputs have that shape or one element per row."""
    reductions = [step for step in steps if _reduction(step.lowering) is not None]
    reduced_inputs = [shapes[step.node.inputs[0]] for step in reductions]
    output_shapes = [shapes[v] for v, _ in outputs]
    shape = broadcast_shapes([*output_shapes, *reduced_inputs])
    inner = shape[-1]
    if inner == 0:
        raise UnsupportedFusionError("a reduction over an empty dimension")
    for s in reduced_inputs:
        if s[-1] != inner:
            raise UnsupportedFusionError(
                f"a reduction over {s[-1]} elements in a group whose rows have {inner}"
            )
    row_shape = (*shape[:-1], 1)
    for s in output_shapes:
        padded = (1,) * (len(shape) - len(s)) + s
        if padded != shape and padded != row_shape:
            raise UnsupportedFusionError(
                f"an output of shape {list(s)} in a group of shape {list(shape)}"
            )
    loaded = [leaf for leaf in leaves if leaf.loaded]
    for leaf in loaded:
        if broadcast_shapes([leaf.sizes, shape]) != shape:
            raise UnsupportedFusionError(
                f"an input of shape {list(leaf.sizes)} does not broadcast to {list(shape)}"
            )
    full = [_iteration_strides(leaf, shape) for leaf in loaded]
    outer, per_outer = coalesce(shape[:-1], [s[:-1] for s in full])
    dims = (*outer, inner)
    for leaf, strides, last in zip(loaded, per_outer, full, strict=True):
        leaf.iter_strides = (*strides, last[-1])
        if all(s == 0 for s in leaf.iter_strides):
            leaf.access = Access.SCALAR
        elif last[-1] == 1:
            leaf.access = Access.CONTIGUOUS
        elif last[-1] == 0:
            leaf.access = Access.ROW_BROADCAST
        else:
            leaf.access = Access.STRIDED

    # which values are the same along a row, and the rounds reductions run in
    row: dict[Value, bool] = {}
    depth: dict[Value, int] = {}
    for leaf in leaves:
        row[leaf.value] = not leaf.loaded or leaf.access in (Access.SCALAR, Access.ROW_BROADCAST)
    for step in steps:
        node = step.node
        ins = [v for v in node.inputs if v in shapes]
        d = max((depth.get(v, 0) for v in ins), default=0)
        if _reduction(step.lowering) is not None:
            step.row, step.phase = True, d + 1
            depth[node.output()] = d + 1
        else:
            step.row = all(row.get(v, True) for v in ins)
            depth[node.output()] = d
        row[node.output()] = step.row

    numel = 1
    for size in shape:
        numel *= size
    spec = Specialization(
        subgraph=subgraph,
        canonical=canonical,
        inputs=list(input_specs),
        operands=operands,
        shapes=shapes,
        leaves=leaves,
        steps=steps,
        scalar_args=scalar_args,
        outputs=outputs,
        shape=shape,
        numel=numel,
        path=Path.ROWS,
        dims=dims,
        order=tuple(range(len(shape))),
        output_shapes=output_shapes,
        phases=max(step.phase for step in reductions),
    )
    spec.info = _info(spec)
    return spec


def _chunk(
    node: Node,
    leaf_of: dict[Value, Leaf],
    operands: dict[Value, Operand],
    shapes: dict[Value, Shape],
    leaves: list[Leaf],
) -> None:
    source = leaf_of.get(node.input())
    if source is None:
        raise UnsupportedFusionError("prim::ConstantChunk of a value computed inside the group")
    chunks = node.i("chunks")
    rank = len(source.sizes)
    dim = node.i("dim")
    if not -rank <= dim < rank:
        raise UnsupportedFusionError(
            f"prim::ConstantChunk along dimension {dim} of a {rank}-d tensor"
        )
    dim %= rank
    size = source.sizes[dim]
    if chunks <= 0 or size % chunks != 0 or len(node.outputs) != chunks:
        raise UnsupportedFusionError(
            f"prim::ConstantChunk of {size} elements into {chunks} chunks of unequal size"
        )
    step = size // chunks
    sizes = (*source.sizes[:dim], step, *source.sizes[dim + 1 :])
    itemsize = numpy_dtype(source.dtype).itemsize
    for k, out in enumerate(node.outputs):
        leaf = Leaf(
            out,
            source.arg,
            source.dtype,
            sizes,
            source.strides,
            offset=source.offset + k * step * source.strides[dim] * itemsize,
            chunk=k,
        )
        leaf_of[out] = leaf
        leaves.append(leaf)
        operands[out] = Operand(source.dtype, _category(sizes))
        shapes[out] = sizes


def _info(spec: Specialization) -> list[int]:
    info = [leaf.offset for leaf in spec.leaves]
    if spec.path is not Path.FLAT:
        info += list(spec.dims)
        for leaf in spec.leaves:
            info += list(leaf.iter_strides) if leaf.loaded else [0] * spec.rank
    return info
