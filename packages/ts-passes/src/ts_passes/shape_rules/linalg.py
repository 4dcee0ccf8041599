"""Shape rules of matrix products and linear algebra: mm, bmm, matmul, linear, einsum, ...

The operands of a product must share a dtype (PyTorch refuses others), so
the result takes whichever operand dtype is known: after `linear` on a
module's weight, whose type the graph does not know, the result still has
the input's dtype, and the pointwise work after it can fuse.
"""

from __future__ import annotations

from typing import Any

from ts_ir import ScalarType, TensorType, Type

from .core import (
    ShapeArgs,
    agreed_dtype,
    broadcast_shapes,
    complete_sizes,
    device_of,
    make_tensor,
    register_exact,
    shape_rules,
)


def _product(args: ShapeArgs, sizes: Any, *operands: TensorType | None) -> TensorType:
    ins = args.tensors()
    known = [t for t in operands if t is not None]
    return make_tensor(agreed_dtype(known), device_of(ins), sizes, ins, contiguous=True)


def mm_rule(args: ShapeArgs) -> Type | None:
    a, b = args.tensor(0), args.tensor(1)
    if a is None and b is None:
        return None
    rows = a.sizes[0] if a is not None and a.sizes is not None and len(a.sizes) == 2 else None
    cols = b.sizes[1] if b is not None and b.sizes is not None and len(b.sizes) == 2 else None
    return _product(args, (rows, cols), a, b)


def bmm_rule(args: ShapeArgs) -> Type | None:
    """bmm, baddbmm (of its batch1, batch2)."""
    a = args.tensor("batch1") or args.tensor(0)
    b = args.tensor("batch2") or args.tensor(1)
    if a is None and b is None:
        return None
    sa, sb = complete_sizes(a), complete_sizes(b)
    if sa is not None and sb is not None and len(sa) == 3 and len(sb) == 3:
        return _product(args, (sa[0], sa[1], sb[2]), a, b)
    return _product(args, 3, a, b)


def matmul_rule(args: ShapeArgs) -> Type | None:
    a, b = args.tensor(0), args.tensor(1)
    if a is None or b is None:
        return None
    ra, rb = a.dim(), b.dim()
    if ra is None or rb is None:
        return _product(args, None, a, b)
    if ra == 1 and rb == 1:
        rank = 0
    elif ra == 1 or rb == 1:
        rank = max(ra, rb) - 1
    else:
        rank = max(ra, rb)
    sa, sb = complete_sizes(a), complete_sizes(b)
    if sa is not None and sb is not None:
        if ra == 1 and rb == 1:
            return _product(args, (), a, b)
        if ra == 1:
            return _product(args, (*sb[:-2], sb[-1]), a, b)
        if rb == 1:
            return _product(args, sa[:-1], a, b)
        batch = broadcast_shapes([TensorType(sizes=sa[:-2]), TensorType(sizes=sb[:-2])])
        if isinstance(batch, tuple):
            return _product(args, (*batch, sa[-2], sb[-1]), a, b)
    return _product(args, rank, a, b)


def addmm_rule(args: ShapeArgs) -> Type | None:
    m1, m2 = args.tensor("mat1"), args.tensor("mat2")
    if m1 is None and m2 is None:
        return None
    s1, s2 = complete_sizes(m1), complete_sizes(m2)
    if s1 is not None and s2 is not None:
        return _product(args, (s1[0], s2[1]), m1, m2, args.tensor(0))
    return _product(args, 2, m1, m2, args.tensor(0))


def linear_rule(args: ShapeArgs) -> Type | None:
    x, w = args.tensor(0), args.tensor(1)
    if x is None:
        return None
    sx, sw = complete_sizes(x), complete_sizes(w)
    if sx is not None and sw is not None and len(sw) == 2:
        return _product(args, (*sx[:-1], sw[0]), x, w)
    if sx is not None and sw is not None and len(sw) == 1:
        return _product(args, sx[:-1], x, w)
    rank = x.dim()
    if w is not None and w.dim() == 1 and rank is not None:
        rank -= 1
    elif w is None or w.dim() != 2:
        rank = None if w is None or w.dim() is None else rank
    return _product(args, rank, x, w)


def mv_rule(args: ShapeArgs) -> Type | None:
    """mv, addmv (of mat and vec): a vector as long as the matrix has rows."""
    m = args.tensor("mat") or args.tensor(0)
    v = args.tensor("vec")
    if m is None:
        return None
    sm = complete_sizes(m)
    return _product(args, (sm[0],) if sm is not None and len(sm) == 2 else 1, m, v)


def outer_rule(args: ShapeArgs) -> Type | None:
    a, b = args.tensor(0), args.tensor(1)
    if a is None or b is None:
        return None
    sa, sb = complete_sizes(a), complete_sizes(b)
    return _product(args, (sa[0], sb[0]) if sa and sb else 2, a, b)


def zero_dim_rule(args: ShapeArgs) -> Type | None:
    """dot, vdot: a zero-dim result of the operands' dtype."""
    ins = args.tensors()
    if not ins:
        return None
    return _product(args, (), *ins)


def trace_rule(args: ShapeArgs) -> Type | None:
    """trace: a zero-dim sum of the diagonal (integers summed in int64)."""
    t = args.tensor(0)
    if t is None:
        return None
    d = t.scalar_type
    if d is not None and not (d.is_floating_point or d.is_complex):
        d = ScalarType.Long
    return make_tensor(d, t.device, (), [t], contiguous=True)


def diag_rule(args: ShapeArgs) -> Type | None:
    """diag: a vector makes a square matrix, a matrix gives its diagonal."""
    t = args.tensor(0)
    if t is None:
        return None
    rank = t.dim()
    if rank is None:
        return _product(args, None, t)
    return _product(args, 2 if rank == 1 else 1, t)


def einsum_rule(args: ShapeArgs) -> Type | None:
    """einsum: the output's rank from the equation, when it is a constant without `...`."""
    v = args.value(1)
    types = (
        [x.type for x in v.node.inputs]
        if v is not None and v.node.kind == "prim::ListConstruct"
        else []
    )
    tensors = [t for t in types if isinstance(t, TensorType)]
    equation = args.const(0)
    rank = None
    if isinstance(equation, str) and "." not in equation:
        eq = equation.replace(" ", "")
        if "->" in eq:
            rank = len(eq.partition("->")[2])
        else:
            letters = [c for c in eq if c.isalpha()]
            rank = sum(1 for c in set(letters) if letters.count(c) == 1)
    dtypes = {t.scalar_type for t in tensors}
    dtype = dtypes.pop() if len(dtypes) == 1 else None
    return make_tensor(dtype, device_of(tensors) if tensors else None, rank, tensors)


# -- decompositions: the last two dims are the matrix


def _real_of(d: ScalarType | None) -> ScalarType | None:
    return {
        ScalarType.ComplexFloat: ScalarType.Float,
        ScalarType.ComplexDouble: ScalarType.Double,
    }.get(
        d,
        d,  # type: ignore[arg-type]
    )


def _matrix_parts(t: TensorType) -> tuple[Any, int | None, int | None]:
    """(batch sizes or None, rows, columns) of a matrix tensor type."""
    s = complete_sizes(t)
    if s is None or len(s) < 2:
        return None, None, None
    return s[:-2], s[-2], s[-1]


def same_matrix_rule(args: ShapeArgs) -> Type | None:
    """inverse, cholesky, matrix_power, cholesky_inverse: the input's shape."""
    t = args.tensor(0)
    if t is None:
        return None
    return make_tensor(t.scalar_type, t.device, complete_sizes(t) or t.dim(), [t], contiguous=False)


def batch_scalar_rule(real: bool) -> Any:
    """det, logdet (the dtype's), slogdet's logabsdet: one value per matrix."""

    def rule(args: ShapeArgs) -> Type | None:
        t = args.tensor(0)
        if t is None:
            return None
        batch, _, _ = _matrix_parts(t)
        rank = t.dim()
        shape: Any = batch if batch is not None else (None if rank is None else rank - 2)
        d = _real_of(t.scalar_type) if real else t.scalar_type
        return make_tensor(d, t.device, shape, [t], contiguous=True)

    return rule


def slogdet_rule(args: ShapeArgs) -> Any:
    sign = batch_scalar_rule(False)(args)
    logabs = batch_scalar_rule(True)(args)
    return None if sign is None else [sign, logabs]


def solve_rule(args: ShapeArgs) -> Type | None:
    """linalg_solve, solve_triangular, cholesky_solve: the right-hand side's shape."""
    a, b = args.tensor(0), args.tensor(1)
    if a is None or b is None:
        return None
    dtype = agreed_dtype([a, b])
    return make_tensor(
        dtype, device_of([a, b]), complete_sizes(b) or b.dim(), [a, b], contiguous=False
    )


def svdvals_rule(args: ShapeArgs) -> Type | None:
    t = args.tensor(0)
    if t is None:
        return None
    batch, m, n = _matrix_parts(t)
    rank = t.dim()
    shape: Any = (*batch, min(m, n)) if batch is not None else (None if rank is None else rank - 1)  # type: ignore[type-var]
    return make_tensor(_real_of(t.scalar_type), t.device, shape, [t], contiguous=True)


def eigh_rule(args: ShapeArgs) -> Any:
    values = svdvals_rule(args)
    vectors = same_matrix_rule(args)
    return None if values is None else [values, vectors]


def decomposition_rule(args: ShapeArgs) -> Any:
    """qr (Q, R), svd (U, S, V[h]): the matrix ranks, the input's dtype (S real)."""
    t = args.tensor(0)
    if t is None:
        return None
    rank = t.dim()
    matrix = make_tensor(t.scalar_type, t.device, rank, [t], contiguous=False)
    if len(args.node.outputs) == 2:
        return [matrix, matrix]
    values = make_tensor(_real_of(t.scalar_type), t.device, None if rank is None else rank - 1, [t])
    return [matrix, values, matrix]


def pinverse_rule(args: ShapeArgs) -> Type | None:
    t = args.tensor(0)
    if t is None:
        return None
    batch, m, n = _matrix_parts(t)
    shape: Any = (*batch, n, m) if batch is not None else t.dim()
    return make_tensor(t.scalar_type, t.device, shape, [t], contiguous=False)


def _register() -> None:
    r = shape_rules.register
    r("aten::mm", mm_rule)
    for name in ("bmm", "baddbmm"):
        r(f"aten::{name}", bmm_rule)
    r("aten::matmul", matmul_rule)
    r("aten::addmm", addmm_rule)
    r("aten::linear", linear_rule)
    for name in ("mv", "addmv"):
        r(f"aten::{name}", mv_rule)
    r("aten::outer", outer_rule)
    register_exact("aten::dot", zero_dim_rule)
    register_exact("aten::trace", trace_rule)
    r("aten::diag", diag_rule)
    r("aten::einsum", einsum_rule)
    for name in (
        "inverse",
        "linalg_inv",
        "cholesky",
        "linalg_cholesky",
        "cholesky_inverse",
        "matrix_power",
        "linalg_matrix_power",
    ):
        r(f"aten::{name}", same_matrix_rule)
    for name in ("det", "linalg_det", "logdet"):
        r(f"aten::{name}", batch_scalar_rule(False))
    for name in ("slogdet", "linalg_slogdet"):
        r(f"aten::{name}", slogdet_rule)
    for name in ("linalg_solve", "linalg_solve_triangular", "cholesky_solve"):
        r(f"aten::{name}", solve_rule)
    for name in ("linalg_svdvals", "linalg_eigvalsh"):
        r(f"aten::{name}", svdvals_rule)
    r("aten::linalg_eigh", eigh_rule)
    for name in ("linalg_qr", "qr", "linalg_svd", "svd"):
        r(f"aten::{name}", decomposition_rule)
    for name in ("pinverse", "linalg_pinv"):
        r(f"aten::{name}", pinverse_rule)


_register()
