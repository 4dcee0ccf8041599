"""Shape rules of views and shape changes: view, transpose, select, expand, flatten, cat, split.

Views keep the input's dtype and device; their strides are claimed only
where they are computed from the input's (transpose, select), never assumed
contiguous. A size argument built by `prim::ListConstruct` of values that
are not constants still tells the rank.
"""

from __future__ import annotations

from typing import Any

from ts_ir import Device, ListType, ScalarType, TensorType, Type, result_type

from .core import (
    Shape,
    ShapeArgs,
    complete_sizes,
    device_of,
    dims_of,
    int_const,
    int_list_const,
    known,
    list_element_types,
    make_tensor,
    register_exact,
    same_as,
    shape_rules,
    size_list,
)


def view_of(
    t: TensorType, sizes: Shape | int | None, strides: Shape | None = None, *, reshape: bool = False
) -> TensorType:
    """A view of `t`: its dtype and device; strides only if given, or, for a view that only
    reshapes (`reshape`), contiguous ones when `t` is contiguous."""
    return make_tensor(
        t.scalar_type, t.device, sizes, [t], strides=strides, contiguous=None if reshape else False
    )


def infer_view_size(t: TensorType, size: list[int | None]) -> Shape:
    """`size` with its `-1` resolved from `t`'s element count where that is known."""
    complete = complete_sizes(t)
    if complete is not None and size.count(-1) == 1 and None not in size:
        numel = 1
        for s in complete:
            numel *= s
        known_part = 1
        for s in size:
            if s != -1:
                known_part *= s  # type: ignore[operator]
        if known_part:
            return tuple(numel // known_part if s == -1 else s for s in size)
    return tuple(None if s is None or s == -1 else s for s in size)


def view_rule(args: ShapeArgs) -> Type | None:
    """view, reshape, _reshape_alias: the size argument's rank and known sizes."""
    t = args.tensor(0)
    if t is None:
        return None
    size = size_list(args, 1)
    if size is None:
        return view_of(t, None, reshape=True)
    sizes = infer_view_size(t, size)
    return view_of(t, sizes if None not in sizes else len(sizes), reshape=True)


def view_dtype_rule(args: ShapeArgs) -> Type | None:
    """view(dtype): the same bytes read as another dtype; the last dim scales by the ratio of
    element sizes."""
    t = args.tensor(0)
    d = args.const("dtype")
    if t is None:
        return None
    if not isinstance(d, int) or isinstance(d, bool):
        return make_tensor(None, t.device, None, [t], contiguous=False)
    new = ScalarType(d)
    sizes: Any = t.dim()
    if t.sizes is not None and t.scalar_type is not None:
        old_size, new_size = t.scalar_type.itemsize, new.itemsize
        if old_size == new_size:
            sizes = t.sizes if None not in t.sizes else len(t.sizes)
        elif t.sizes and t.sizes[-1] is not None and None not in t.sizes:
            sizes = (*t.sizes[:-1], t.sizes[-1] * old_size // new_size)
    return make_tensor(new, t.device, sizes, [t], contiguous=False)


def resize_rule(args: ShapeArgs) -> Type | None:
    """resize_, resize: contiguous, of the size argument's rank and known sizes (no -1)."""
    t = args.tensor(0)
    if t is None:
        return None
    size = size_list(args, 1)
    shape: Any = None if size is None else (tuple(size) if None not in size else len(size))
    return make_tensor(t.scalar_type, t.device, shape, [t], contiguous=True)


def view_as_rule(args: ShapeArgs) -> Type | None:
    """view_as, reshape_as: `other`'s sizes."""
    t, other = args.tensor(0), args.tensor(1)
    if t is None or other is None:
        return None
    return view_of(t, complete_sizes(other) or other.dim(), reshape=True)


def expand_as_rule(args: ShapeArgs) -> Type | None:
    t, other = args.tensor(0), args.tensor(1)
    if t is None or other is None:
        return None
    return view_of(t, complete_sizes(other) or other.dim())


def _permuted(t: TensorType, perm: list[int]) -> Type:
    assert t.sizes is not None
    sizes = tuple(t.sizes[p] for p in perm)
    strides = tuple(t.strides[p] for p in perm) if t.strides is not None else None
    if None in sizes:
        return view_of(t, len(sizes))
    if strides is not None and None in strides:
        strides = None
    return view_of(t, sizes, strides)  # type: ignore[arg-type]


def _swapped(t: TensorType, a: int, b: int) -> Type:
    assert t.sizes is not None
    perm = list(range(len(t.sizes)))
    perm[a], perm[b] = perm[b], perm[a]
    return _permuted(t, perm)


def t_rule(args: ShapeArgs) -> Type | None:
    """t, numpy_T: the dims reversed (t: of a tensor of rank <= 2)."""
    t = args.tensor(0)
    if t is None or t.sizes is None:
        return None if t is None else view_of(t, None)
    return _permuted(t, list(range(len(t.sizes)))[::-1])


def transpose_rule(args: ShapeArgs) -> Type | None:
    """transpose, swapaxes, swapdims: two dims exchanged."""
    t = args.tensor(0)
    if t is None or t.sizes is None:
        return None if t is None else view_of(t, None)
    rank = len(t.sizes)
    a, b = int_const(args, 1), int_const(args, 2)
    dims = dims_of([a, b], rank) if a is not None and b is not None else None
    if dims is None:
        return view_of(t, rank)
    return _swapped(t, dims[0], dims[1])


def matrix_transpose_rule(args: ShapeArgs) -> Type | None:
    """mT, adjoint, mH, matrix_H: the last two dims exchanged."""
    t = args.tensor(0)
    if t is None or t.sizes is None:
        return None if t is None else view_of(t, None)
    rank = len(t.sizes)
    return _swapped(t, rank - 2, rank - 1) if rank >= 2 else view_of(t, rank)


def permute_rule(args: ShapeArgs) -> Type | None:
    t = args.tensor(0)
    if t is None or t.sizes is None:
        return None if t is None else view_of(t, None)
    rank = len(t.sizes)
    perm = dims_of(args.const(1), rank)
    if perm is None or len(perm) != rank:
        return view_of(t, rank)
    return _permuted(t, perm)


def movedim_rule(args: ShapeArgs) -> Type | None:
    t = args.tensor(0)
    if t is None or t.sizes is None:
        return None if t is None else view_of(t, None)
    rank = len(t.sizes)
    source, destination = dims_of(args.const(1), rank), dims_of(args.const(2), rank)
    if source is None or destination is None or len(source) != len(destination):
        return view_of(t, rank)
    perm: list[int | None] = [None] * rank
    for s, d in zip(source, destination, strict=True):
        perm[d] = s
    rest = iter(i for i in range(rank) if i not in source)
    return _permuted(t, [p if p is not None else next(rest) for p in perm])


def select_rule(args: ShapeArgs) -> Type | None:
    t = args.tensor(0)
    if t is None or t.sizes is None:
        return None if t is None else view_of(t, None)
    rank = len(t.sizes)
    dims = dims_of(args.const(1), rank)
    if dims is None:
        return view_of(t, rank - 1)
    d = dims[0]
    sizes = t.sizes[:d] + t.sizes[d + 1 :]
    strides = t.strides[:d] + t.strides[d + 1 :] if t.strides is not None else None
    if None in sizes:
        return view_of(t, len(sizes))
    if strides is not None and None in strides:
        strides = None
    return view_of(t, sizes, strides)


def same_rank_rule(args: ShapeArgs) -> Type | None:
    """slice, narrow, index_select, narrow_copy: rank and dtype kept, sizes may change."""
    t = args.tensor(0)
    if t is None:
        return None
    return view_of(t, t.dim())


def unsqueeze_rule(args: ShapeArgs) -> Type | None:
    t = args.tensor(0)
    if t is None or t.sizes is None:
        return None if t is None else view_of(t, None, reshape=True)
    rank = len(t.sizes)
    d = int_const(args, 1)
    if d is None:
        return view_of(t, rank + 1, reshape=True)
    if d < 0:
        d += rank + 1
    sizes = (*t.sizes[:d], 1, *t.sizes[d:])
    return view_of(t, sizes if None not in sizes else rank + 1, reshape=True)


def squeeze_rule(args: ShapeArgs) -> Type | None:
    t = args.tensor(0)
    if t is None or t.sizes is None:
        return None if t is None else view_of(t, None, reshape=True)
    rank = len(t.sizes)
    if len(args.inputs) == 1:
        if None in t.sizes:
            return view_of(t, None, reshape=True)
        return view_of(t, tuple(s for s in t.sizes if s != 1), reshape=True)
    dims = dims_of(args.const(1), rank)
    if dims is None or any(t.sizes[d] is None for d in dims):
        return view_of(t, None, reshape=True)
    out = [s for i, s in enumerate(t.sizes) if not (i in dims and s == 1)]
    return view_of(t, tuple(out) if None not in out else len(out), reshape=True)


def expand_rule(args: ShapeArgs) -> Type | None:
    """expand, broadcast_to: sizes given, -1 keeping the input's."""
    t = args.tensor(0)
    if t is None:
        return None
    size = size_list(args, 1)
    if size is None:
        return view_of(t, None)
    rank = len(size)
    if t.sizes is None:
        return view_of(t, rank)
    offset = rank - len(t.sizes)
    out: list[int | None] = []
    for i, s in enumerate(size):
        j = i - offset
        out.append(t.sizes[j] if s == -1 and j >= 0 else (None if s == -1 else s))
    return view_of(t, tuple(out) if None not in out else rank)


def flatten_rule(args: ShapeArgs) -> Type | None:
    t = args.tensor(0)
    if t is None or t.sizes is None:
        return None if t is None else view_of(t, None, reshape=True)
    rank = len(t.sizes)
    start, end = int_const(args, 1), int_const(args, 2)
    if start is None or end is None:
        return view_of(t, None, reshape=True)
    if rank == 0:
        return view_of(t, (1,), reshape=True)
    start, end = start % rank, end % rank
    out_rank = rank - (end - start)
    if complete_sizes(t) is None:
        return view_of(t, out_rank, reshape=True)
    numel = 1
    for s in t.sizes[start : end + 1]:
        numel *= s  # type: ignore[operator]
    return view_of(t, (*t.sizes[:start], numel, *t.sizes[end + 1 :]), reshape=True)


def ravel_rule(args: ShapeArgs) -> Type | None:
    t = args.tensor(0)
    if t is None:
        return None
    sizes = complete_sizes(t)
    if sizes is None:
        return view_of(t, 1, reshape=True)
    numel = 1
    for s in sizes:
        numel *= s
    return view_of(t, (numel,), reshape=True)


def unflatten_rule(args: ShapeArgs) -> Type | None:
    t = args.tensor(0)
    if t is None or t.sizes is None:
        return None if t is None else view_of(t, None, reshape=True)
    rank = len(t.sizes)
    d = dims_of(args.const(1), rank)
    sizes = size_list(args, 2)
    if d is None or sizes is None:
        return view_of(t, None, reshape=True)
    inner = TensorType(sizes=(t.sizes[d[0]],)) if t.sizes[d[0]] is not None else TensorType()
    middle = list(infer_view_size(inner, sizes))
    out = [*t.sizes[: d[0]], *middle, *t.sizes[d[0] + 1 :]]
    return view_of(t, tuple(out) if None not in out else len(out), reshape=True)


def diagonal_rule(args: ShapeArgs) -> Type | None:
    t = args.tensor(0)
    if t is None or t.sizes is None:
        return None if t is None else view_of(t, None)
    rank = len(t.sizes)
    offset = int_const(args, "offset")
    dims = dims_of([int_const(args, "dim1"), int_const(args, "dim2")], rank)
    if offset is None or dims is None or None in t.sizes:
        return view_of(t, rank - 1)
    a, b = t.sizes[dims[0]], t.sizes[dims[1]]
    n = max(0, min(a + min(offset, 0), b - max(offset, 0)))  # type: ignore[operator]
    rest = [s for i, s in enumerate(t.sizes) if i not in dims]
    return view_of(t, (*rest, n))


def as_strided_rule(args: ShapeArgs) -> Type | None:
    t = args.tensor(0)
    if t is None:
        return None
    size = size_list(args, 1)
    stride = int_list_const(args, 2)
    if size is None:
        return view_of(t, None)
    if None in size:
        return view_of(t, len(size))
    return view_of(t, tuple(size), tuple(stride) if stride and len(stride) == len(size) else None)  # type: ignore[arg-type]


def repeat_rule(args: ShapeArgs) -> Type | None:
    """repeat, tile: each dim times its repeat count (tile pads the shorter list with 1s)."""
    t = args.tensor(0)
    if t is None:
        return None
    reps = size_list(args, 1)
    rank = t.dim()
    if reps is None or rank is None:
        return make_tensor(t.scalar_type, t.device, None, [t])
    n = max(len(reps), rank) if args.node.kind == "aten::tile" else len(reps)
    reps = [1] * (n - len(reps)) + reps
    sizes = [1] * (n - rank) + list(t.sizes or ())
    out = [None if r is None or s is None else r * s for r, s in zip(reps, sizes, strict=True)]
    return make_tensor(t.scalar_type, t.device, tuple(out) if None not in out else n, [t])


def unfold_rule(args: ShapeArgs) -> Type | None:
    """unfold(dim, size, step): dim becomes the number of windows, a last dim of `size`."""
    t = args.tensor(0)
    if t is None or t.sizes is None:
        return None if t is None else view_of(t, None)
    rank = len(t.sizes)
    size, step = int_const(args, "size"), int_const(args, "step")
    d = dims_of(args.const("dimension"), rank) if rank else [0]
    if d is None or size is None or step is None or step <= 0 or (rank and t.sizes[d[0]] is None):
        return view_of(t, rank + 1 if rank else 1)
    if rank == 0:
        return view_of(t, (1,))
    out = list(t.sizes)
    out[d[0]] = (t.sizes[d[0]] - size) // step + 1  # type: ignore[operator]
    out.append(size)
    return view_of(t, tuple(out) if None not in out else rank + 1)


def repeat_interleave_rule(args: ShapeArgs) -> Type | None:
    """repeat_interleave(self, repeats, dim): self's rank (1 without dim); of repeats alone,
    1-d int64 indices."""
    t = args.tensor("self")
    if t is None:
        counts = args.tensor("repeats")
        if counts is None:
            return None
        return make_tensor(ScalarType.Long, counts.device, 1, requires_grad=False)
    dim = args.const("dim")
    if dim is None:
        return make_tensor(t.scalar_type, t.device, 1, [t])
    return make_tensor(t.scalar_type, t.device, t.dim() if known(dim) else None, [t])


def diff_rule(args: ShapeArgs) -> Type | None:
    """diff: the rank of self; the dim shrinks by n (prepend and append add to it first)."""
    t = args.tensor(0)
    if t is None:
        return None
    rank = t.dim()
    n = int_const(args, "n")
    d = dims_of(args.const("dim"), rank) if rank else None
    sizes = complete_sizes(t)
    extra = 0
    for name in ("prepend", "append"):
        v = args.value(name)
        if v is not None and isinstance(v.type, TensorType):
            s = complete_sizes(v.type)
            if s is None or d is None or len(s) != rank:
                extra = -1
                break
            extra += s[d[0]]
    if sizes is None or n is None or d is None or extra < 0:
        return make_tensor(t.scalar_type, t.device, rank, [t], contiguous=True)
    out = list(sizes)
    out[d[0]] = max(sizes[d[0]] + extra - n, 0)
    return make_tensor(t.scalar_type, t.device, tuple(out), [t], contiguous=True)


def contiguous_rule(args: ShapeArgs) -> Type | None:
    t = args.tensor(0)
    if t is None:
        return None
    return make_tensor(t.scalar_type, t.device, complete_sizes(t) or t.dim(), [t], contiguous=True)


def to_rule(args: ShapeArgs) -> Type | None:
    """to, _to_copy, type: another dtype or device, the same sizes."""
    t = args.tensor(0)
    if t is None:
        return None
    dtype: ScalarType | None = t.scalar_type
    device = t.device
    other = args.tensor("other")
    if other is not None:
        dtype, device = other.scalar_type, other.device
    if args.index("dtype") is not None:
        d = args.const("dtype")
        if d is not None:
            dtype = ScalarType(d) if known(d) and isinstance(d, int) else None
    if args.index("device") is not None:
        dev = args.const("device")
        if dev is not None:
            device = (dev if isinstance(dev, Device) else Device(str(dev))) if known(dev) else None
    return make_tensor(dtype, device, complete_sizes(t) or t.dim(), [t])


def cuda_rule(args: ShapeArgs) -> Type | None:
    """cuda(): the tensor on the first CUDA device."""
    t = args.tensor(0)
    if t is None:
        return None
    return make_tensor(t.scalar_type, Device("cuda:0"), complete_sizes(t) or t.dim(), [t])


def _joined_dtype(types: list[TensorType]) -> ScalarType | None:
    from ts_ir import Category

    if any(t.scalar_type is None for t in types):
        return None
    return result_type([(t.scalar_type, Category.DIM) for t in types])  # type: ignore[misc]


def cat_rule(args: ShapeArgs) -> Type | None:
    types = list_element_types(args.value(0))
    if not types:
        return None
    dtype = _joined_dtype(types)
    # 1-d empty tensors are skipped by cat whatever their rank
    ranks = {t.dim() for t in types if complete_sizes(t) != (0,)}
    rank = ranks.pop() if len(ranks) == 1 else None
    device = device_of(types)
    dims = dims_of(args.const(1), rank)
    parts = [complete_sizes(t) for t in types if complete_sizes(t) != (0,)]
    if rank is not None and dims is not None and parts and all(p is not None for p in parts):
        d = dims[0]
        total = sum(p[d] for p in parts)  # type: ignore[index]
        first = parts[0]
        assert first is not None
        return make_tensor(dtype, device, (*first[:d], total, *first[d + 1 :]), types)
    return make_tensor(dtype, device, rank, types)


def stack_rule(args: ShapeArgs) -> Type | None:
    types = list_element_types(args.value(0))
    if not types:
        return None
    dtype = _joined_dtype(types)
    ranks = {t.dim() for t in types}
    rank = ranks.pop() if len(ranks) == 1 else None
    device = device_of(types)
    if rank is None:
        return make_tensor(dtype, device, None, types)
    dims = dims_of(args.const(1), rank + 1)
    first = complete_sizes(types[0])
    if dims is not None and first is not None:
        d = dims[0]
        return make_tensor(dtype, device, (*first[:d], len(types), *first[d:]), types)
    return make_tensor(dtype, device, rank + 1, types)


def stack_like_rule(min_rank: int) -> Any:
    """hstack (1), vstack (2), dstack (3), column_stack (2): the joined rank is known."""

    def rule(args: ShapeArgs) -> Type | None:
        types = list_element_types(args.value(0))
        if not types:
            return None
        ranks = {t.dim() for t in types}
        rank = ranks.pop() if len(ranks) == 1 else None
        out_rank = None if rank is None else max(rank, min_rank)
        return make_tensor(_joined_dtype(types), device_of(types), out_rank, types)

    return rule


def atleast_rule(n: int) -> Any:
    def rule(args: ShapeArgs) -> Type | None:
        t = args.tensor(0)
        if t is None:
            return None
        rank = t.dim()
        if rank is None:
            return view_of(t, None)
        if rank >= n:
            return same_as(t)
        sizes = complete_sizes(t)
        if sizes is None:
            return view_of(t, n)
        if n == 1:
            return view_of(t, (1,))
        return view_of(t, (1,) * (n - rank) + sizes if rank < 2 else sizes)

    return rule


# -- results that are lists of tensors: the rule gives the element type


def _element(t: TensorType, rank: int | None) -> ListType:
    return ListType(view_of(t, rank))


def split_rule(args: ShapeArgs) -> Type | None:
    """chunk, split, unsafe_split, split_with_sizes, tensor_split: pieces of the input's rank."""
    t = args.tensor(0)
    return None if t is None else _element(t, t.dim())


def chunk_rule(args: ShapeArgs) -> Type | None:
    """chunk: when the size of the chunked dim, the chunk count and the dim are known and every
    piece has the same size, that piece (with the input's strides, where they are known: a
    piece is a slice); else as `split_rule`."""
    t = args.tensor(0)
    if t is None:
        return None
    sizes, chunks, dim = t.sizes, int_const(args, 1), int_const(args, 2)
    if sizes is None or chunks is None or dim is None or chunks < 1 or not sizes:
        return split_rule(args)
    if not -len(sizes) <= dim < len(sizes):
        return split_rule(args)
    dim %= len(sizes)
    size = sizes[dim]
    piece = -(-size // chunks) if size else 0
    if size is None or piece == 0 or size % piece:
        return split_rule(args)  # an unknown or empty dim, or a smaller last piece
    shape = (*sizes[:dim], piece, *sizes[dim + 1 :])
    complete = None not in sizes and t.strides is not None and None not in t.strides
    return ListType(view_of(t, shape, t.strides if complete else None))


def unbind_rule(args: ShapeArgs) -> Type | None:
    t = args.tensor(0)
    if t is None:
        return None
    rank = t.dim()
    return _element(t, None if rank is None else rank - 1)


def tensors_like_inputs_rule(args: ShapeArgs) -> Type | None:
    """broadcast_tensors, meshgrid, atleast_nd.Sequence: one element type if the inputs share one."""
    types = list_element_types(args.value(0))
    if not types:
        return None
    kind = args.node.kind
    dtypes = {t.scalar_type for t in types}
    dtype = dtypes.pop() if len(dtypes) == 1 else None
    if kind == "aten::meshgrid":
        return ListType(make_tensor(dtype, device_of(types), len(types), types))
    ranks = {t.dim() for t in types}
    rank: Any = None
    if kind == "aten::broadcast_tensors" and None not in ranks:
        rank = max(ranks)  # type: ignore[type-var]
    return ListType(make_tensor(dtype, device_of(types), rank, types))


def _register() -> None:
    r = shape_rules.register
    for name in ("view", "reshape", "_unsafe_view"):
        r(f"aten::{name}", view_rule)
    r("aten::view.dtype", view_dtype_rule)
    for name in ("resize_", "resize"):
        r(f"aten::{name}", resize_rule)
    for name in ("view_as", "reshape_as"):
        r(f"aten::{name}", view_as_rule)
    r("aten::expand_as", expand_as_rule)
    for name in ("t", "numpy_T"):
        r(f"aten::{name}", t_rule)
    for name in ("transpose", "swapaxes", "swapdims"):
        r(f"aten::{name}", transpose_rule)
    for name in ("mT", "adjoint", "mH", "matrix_H"):
        r(f"aten::{name}", matrix_transpose_rule)
    r("aten::permute", permute_rule)
    r("aten::movedim", movedim_rule)
    r("aten::select", select_rule)
    for name in ("slice", "narrow", "index_select", "narrow_copy"):
        r(f"aten::{name}", same_rank_rule)
    r("aten::unsqueeze", unsqueeze_rule)
    r("aten::squeeze", squeeze_rule)
    for name in ("expand", "broadcast_to"):
        r(f"aten::{name}", expand_rule)
    r("aten::flatten", flatten_rule)
    r("aten::ravel", ravel_rule)
    r("aten::unflatten", unflatten_rule)
    r("aten::diagonal", diagonal_rule)
    r("aten::as_strided", as_strided_rule)
    for name in ("repeat", "tile"):
        r(f"aten::{name}", repeat_rule)
    r("aten::contiguous", contiguous_rule)
    for name in ("to", "_to_copy"):
        r(f"aten::{name}", to_rule)
    r("aten::cuda", cuda_rule)
    r("aten::cat", cat_rule)
    r("aten::concat", cat_rule)
    r("aten::concatenate", cat_rule)
    r("aten::stack", stack_rule)
    r("aten::hstack", stack_like_rule(1))
    r("aten::vstack", stack_like_rule(2))
    r("aten::column_stack", stack_like_rule(2))
    r("aten::dstack", stack_like_rule(3))
    register_exact("aten::atleast_1d", atleast_rule(1))
    register_exact("aten::atleast_2d", atleast_rule(2))
    for key in ("aten::atleast_1d.Sequence", "aten::atleast_2d.Sequence"):
        r(key, tensors_like_inputs_rule)
    for name in ("broadcast_tensors", "meshgrid"):
        r(f"aten::{name}", tensors_like_inputs_rule)
    for name in ("chunk", "unsafe_chunk"):
        r(f"aten::{name}", chunk_rule)
    for name in (
        "split",
        "unsafe_split",
        "split_with_sizes",
        "tensor_split",
    ):
        r(f"aten::{name}", split_rule)
    r("aten::unbind", unbind_rule)
    r("aten::unfold", unfold_rule)
    r("aten::diff", diff_rule)
    r("aten::repeat_interleave", repeat_interleave_rule)


_register()
