"""Matrix products: mm, bmm, matmul, addmm, addmv, mv, dot, outer, linear, baddbmm, einsum, ...

Products keep their operands' dtype (float32 stays float32: numpy's matmul
does not widen), and, as in PyTorch, the operands of a product must share
one dtype (`outer` promotes, being a broadcast multiply). `matmul` covers
every rank combination with PyTorch's (and numpy's) rules: 1-D operands
gain and lose a dimension, batch dimensions broadcast.
"""

from __future__ import annotations

import math
import string
from typing import Any

import numpy as np

from .. import parallel
from ..dtypes import dtype_of_numpy
from ..tensor import Tensor, TensorError, wrap
from .common import grad_like, operand, promote, reduce_to, result, sum_to, sum_to_shape
from .dispatch import derivative, implements
from .shape import impl, lazy_impl, scalar_in, shape_str

# the runtime's products run BLAS on one thread and split large work across its own threads
parallel.serial_blas()


def _name(a: np.ndarray) -> str:
    return dtype_of_numpy(a.dtype).scalar_type.name


def _same_dtype(a: np.ndarray, b: np.ndarray, what: str = "") -> None:
    if a.dtype is not b.dtype and a.dtype != b.dtype:
        raise TensorError(
            f"expected m1 and m2 to have the same dtype, but got: {_name(a)} != {_name(b)}"
        )
    if a.dtype.kind == "b":
        raise TensorError(f"\"addmm_impl_cpu_\" not implemented for 'Bool'{what}")


def _mm_shapes(a: np.ndarray, b: np.ndarray) -> None:
    if a.shape[-1] != b.shape[-2]:
        raise TensorError(
            f"mat1 and mat2 shapes cannot be multiplied ({a.shape[-2]}x{a.shape[-1]} and {b.shape[-2]}x{b.shape[-1]})"
        )


def gemm(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The product of two matrices, in row order as PyTorch returns it.

    BLAS runs on one thread (`parallel.serial_blas`); a float product of at
    least `_PARALLEL_PRODUCT` multiply-adds is split across the runtime's
    threads instead, by rows or by columns, whichever the result has more
    of, each share a product of its own (`_gemm_serial`) written into its
    part of the result.
    """
    m, n = a.shape[0], b.shape[1]
    work = m * n * a.shape[1]
    threads = parallel.get_num_threads()
    if threads <= 1 or work < _PARALLEL_PRODUCT or a.dtype.kind != "f" or b.dtype.kind != "f":
        return _gemm_serial(a, b)
    parts = min(threads, work // (_PARALLEL_PRODUCT // 2))
    out = np.empty((m, n), dtype=np.result_type(a.dtype, b.dtype))
    if m >= n:

        def share(start: int, end: int) -> int:
            out[start:end] = _gemm_serial(a[start:end], b)
            return 0

        bounds = parallel.even_shares(m, parts)
    else:

        def share(start: int, end: int) -> int:
            out[:, start:end] = _gemm_serial(a, b[:, start:end])
            return 0

        bounds = parallel.even_shares(n, parts)
    parallel.POOL.run(share, (), bounds)
    return out


def _gemm_serial(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """`a @ b` on the calling thread.

    numpy's BLAS (OpenBLAS in numpy's wheels) is markedly faster when the
    first operand has the more rows: for a wide result of few rows, such as
    a batch of 64 rows against a 2048-wide weight, computing the transposed
    product `b.T @ a.T` (views, no copies) and copying it back into row
    order was faster on the shapes measured, copy included; from a few
    hundred rows on, the plain product is (see docs/design-notes.md). The products are the same; the BLAS blocking, and
    so the order of the sums, differs, as it does between BLAS libraries.
    Small or tall products, and integer ones (not BLAS), go straight to
    `np.matmul`.
    """
    m, n = a.shape[0], b.shape[1]
    if (
        m > _WIDE_GEMM_ROWS
        or n < 4 * m
        or a.dtype.kind != "f"
        or m * n * a.shape[1] < _WIDE_GEMM_WORK
    ):
        return np.matmul(a, b)
    return np.ascontiguousarray(np.matmul(b.T, a.T).T)


#: multiply-adds from which a product is split across threads (each share gets at least half)
_PARALLEL_PRODUCT = 1 << 21


def _matmul_2d_right(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """`a @ b` for a matrix `b` and `a` of any rank >= 2: the batch dimensions of `a` folded into
    its rows, so one BLAS product runs instead of one per batch element (a copy of `a` only
    where its layout does not fold)."""
    if a.ndim == 2:
        return gemm(a, b)
    rows = a.reshape(-1, a.shape[-1])
    return gemm(rows, b).reshape(*a.shape[:-1], b.shape[-1])


#: multiply-adds below which a product is too small for `gemm`'s orientation to matter
_WIDE_GEMM_WORK = 1 << 20
#: rows above which the transposed product stops paying (256 rows by 768 columns: 0.85 against
#: 0.73 ms plain; 64 rows by 2048: 1.24 against 1.32; 16 by 1024: 0.10 against 0.17)
_WIDE_GEMM_ROWS = 64


@implements("aten::mm")
def mm(self: Tensor, mat2: Tensor) -> Tensor:
    a, b = self._data, mat2._data
    if a.ndim != 2:
        raise TensorError("self must be a matrix")
    if b.ndim != 2:
        raise TensorError("mat2 must be a matrix")
    _mm_shapes(a, b)
    _same_dtype(a, b)
    return result(gemm(a, b))


@implements("aten::bmm")
def bmm(self: Tensor, mat2: Tensor) -> Tensor:
    a, b = self._data, mat2._data
    if a.ndim != 3:
        raise TensorError("batch1 must be a 3D tensor")
    if b.ndim != 3:
        raise TensorError("batch2 must be a 3D tensor")
    if a.shape[0] != b.shape[0]:
        raise TensorError(
            f"batch1 and batch2 must have same number of batches, got {a.shape[0]} and {b.shape[0]}"
        )
    if a.shape[2] != b.shape[1]:
        raise TensorError(
            f"Expected size for first two dimensions of batch2 tensor to be: [{a.shape[0]}, {a.shape[2]}] "
            f"but got: [{b.shape[0]}, {b.shape[1]}]."
        )
    _same_dtype(a, b)
    return result(np.matmul(a, b))


@implements("aten::matmul")
def matmul(self: Tensor, other: Tensor) -> Tensor:
    a, b = self._data, other._data
    if a.ndim == 0 or b.ndim == 0:
        raise TensorError(
            f"both arguments to matmul need to be at least 1D, but they are {a.ndim}D and {b.ndim}D"
        )
    _same_dtype(a, b)
    if a.ndim == 1 and b.ndim == 1:
        _dot_shapes(a, b)
    elif a.shape[-1] != b.shape[-2 if b.ndim > 1 else 0]:
        rows = a.shape[-2] if a.ndim > 1 else 1
        inner = b.shape[-2] if b.ndim > 1 else b.shape[0]
        cols = b.shape[-1] if b.ndim > 1 else 1
        raise TensorError(
            f"mat1 and mat2 shapes cannot be multiplied ({rows}x{a.shape[-1]} and {inner}x{cols})"
        )
    try:
        return result(_matmul_2d_right(a, b) if a.ndim >= 2 and b.ndim == 2 else np.matmul(a, b))
    except ValueError:
        raise TensorError(
            f"The size of tensor a must match the size of tensor b at non-singleton dimensions: "
            f"{shape_str(a.shape)} and {shape_str(b.shape)}"
        ) from None


def _scaled_sum(product: np.ndarray, self: np.ndarray, beta: Any, alpha: Any) -> np.ndarray:
    dt = product.dtype
    if alpha != 1:
        product = np.multiply(product, scalar_in(alpha, dt) if dt.kind in "biu" else alpha).astype(
            dt, copy=False
        )
    if beta == 0:
        return product
    if beta != 1:
        self = np.multiply(self, scalar_in(beta, dt) if dt.kind in "biu" else beta)
    try:
        return np.add(product, self, dtype=dt, casting="unsafe")
    except ValueError:
        raise TensorError(
            f"The expanded size of the tensor ({product.shape[-1]}) must match the existing size "
            f"({self.shape[-1] if self.ndim else 1}).  Target sizes: {list(product.shape)}.  "
            f"Tensor sizes: {list(self.shape)}"
        ) from None


@implements("aten::addmm")
def addmm(self: Tensor, mat1: Tensor, mat2: Tensor, beta: Any = 1, alpha: Any = 1) -> Tensor:
    a, b, c = mat1._data, mat2._data, self._data
    if a.ndim != 2 or b.ndim != 2:
        raise TensorError(
            f"mat1 must be a matrix, got {a.ndim}-D tensor"
            if a.ndim != 2
            else f"mat2 must be a matrix, got {b.ndim}-D tensor"
        )
    _mm_shapes(a, b)
    _same_dtype(a, b)
    if c.dtype != a.dtype:
        raise TensorError(
            f"self and mat2 must have the same dtype, but got {_name(c)} and {_name(b)}"
        )
    return result(_scaled_sum(gemm(a, b), c, beta, alpha))


@implements("aten::addmm_")
def addmm_(self: Tensor, mat1: Tensor, mat2: Tensor, beta: Any = 1, alpha: Any = 1) -> Tensor:
    from ..tensor import bump_version

    out = addmm(self, mat1, mat2, beta, alpha)
    self._data[...] = out._data
    bump_version(self)
    return self


@implements("aten::baddbmm")
def baddbmm(self: Tensor, batch1: Tensor, batch2: Tensor, beta: Any = 1, alpha: Any = 1) -> Tensor:
    product = bmm(batch1, batch2)._data
    if self._data.dtype != product.dtype:
        raise TensorError(
            f"self and batch2 must have the same dtype, but got {_name(self._data)} and {_name(product)}"
        )
    return result(_scaled_sum(product, self._data, beta, alpha))


def _mv_check(a: np.ndarray, v: np.ndarray, self_shape: tuple[int, ...] | None = None) -> None:
    if a.ndim != 2 or v.ndim != 1:
        raise TensorError(f"vector + matrix @ vector expected, got {1}, {a.ndim}, {v.ndim}")
    if a.shape[1] != v.shape[0]:
        size = shape_str(self_shape) if self_shape is not None else f"({a.shape[0]})"
        raise TensorError(
            f"size mismatch, got input {size}, mat ({a.shape[0]}x{a.shape[1]}), vec ({v.shape[0]})"
        )
    _same_dtype(a, v)


@implements("aten::mv")
def mv(self: Tensor, vec: Tensor) -> Tensor:
    a, v = self._data, vec._data
    _mv_check(a, v)
    return result(np.matmul(a, v))


@implements("aten::addmv")
def addmv(self: Tensor, mat: Tensor, vec: Tensor, beta: Any = 1, alpha: Any = 1) -> Tensor:
    a, v = mat._data, vec._data
    _mv_check(a, v, self._data.shape)
    return result(_scaled_sum(np.matmul(a, v), self._data, beta, alpha))


def _dot_shapes(a: np.ndarray, b: np.ndarray) -> None:
    if a.ndim != 1 or b.ndim != 1:
        raise TensorError(f"1D tensors expected, but got {a.ndim}D and {b.ndim}D tensors")
    if a.shape[0] != b.shape[0]:
        raise TensorError(
            f"inconsistent tensor size, expected tensor [{a.shape[0]}] and src [{b.shape[0]}] to have "
            f"the same number of elements, but got {a.shape[0]} and {b.shape[0]} elements respectively"
        )


@implements("aten::dot")
def dot(self: Tensor, tensor: Tensor) -> Tensor:
    a, b = self._data, tensor._data
    _dot_shapes(a, b)
    if a.dtype != b.dtype:
        raise TensorError(
            f"dot : expected both vectors to have same dtype, but found {_name(a)} and {_name(b)}"
        )
    return result(np.dot(a, b))


@implements("aten::outer")
def outer(self: Tensor, vec2: Tensor) -> Tensor:
    a, b = self._data, vec2._data
    if a.ndim != 1:
        raise TensorError(f"outer: Expected 1-D argument self, but got {a.ndim}-D")
    if b.ndim != 1:
        raise TensorError(f"outer: Expected 1-D argument vec2, but got {b.ndim}-D")
    dt = promote(self, vec2)
    return result(np.multiply.outer(operand(self, dt), operand(vec2, dt)))


@implements("aten::linear")
def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    x, w = input._data, weight._data
    if w.ndim not in (1, 2):
        raise TensorError(f"linear: weight must be 1-D or 2-D, got {w.ndim}-D")
    if x.ndim == 0:
        raise TensorError("both arguments to linear need to be at least 1D, but they are 0D and 2D")
    if x.shape[-1] != w.shape[-1]:
        rows = x.size // x.shape[-1] if x.shape[-1] else 0
        raise TensorError(
            f"mat1 and mat2 shapes cannot be multiplied ({rows}x{x.shape[-1]} and "
            f"{w.shape[-1]}x{w.shape[0] if w.ndim == 2 else 1})"
        )
    _same_dtype(x, w)
    out = _matmul_2d_right(x, w.T) if w.ndim == 2 and x.ndim >= 2 else np.matmul(x, w.T)
    if bias is not None:
        b = bias._data
        if b.dtype != out.dtype:
            raise TensorError(
                f"expected m1 and m2 to have the same dtype, but got: {_name(out)} != {_name(b)}"
            )
        if (
            type(out) is np.ndarray
            and out.ndim >= b.ndim
            and out.shape[out.ndim - b.ndim :] == b.shape
        ):
            out += b
        else:
            try:
                out = np.add(out, b)
            except ValueError:
                raise TensorError(
                    f"linear: bias of shape {list(b.shape)} cannot be broadcast to the output shape "
                    f"{list(np.shape(out))}"
                ) from None
    return result(out)


@implements("aten::trace")
def trace(self: Tensor) -> Tensor:
    a = self._data
    if a.ndim != 2:
        raise TensorError(f"trace: expected a matrix, but got tensor with dim {a.ndim}")
    dt = np.int64 if a.dtype.kind in "biu" else a.dtype
    return result(np.trace(a, dtype=dt))


@implements("aten::diag")
def diag(self: Tensor, diagonal: int = 0) -> Tensor:
    a = self._data
    if a.ndim not in (1, 2):
        raise TensorError("diag(): Supports 1D or 2D tensors. Got " + f"{a.ndim}D")
    return result(np.array(np.diag(a, diagonal)))


# ---------------------------------------------------------------------------
# einsum


def _einsum_parts(equation: str, ndims: list[int]) -> tuple[list[str], str]:
    """Operand and output subscripts with `...` spelled out as letters, and the output made
    explicit (implicit mode: the broadcast dims, then the letters used once, sorted)."""
    eq = equation.replace(" ", "")
    lhs, arrow, rhs = eq.partition("->")
    subs = lhs.split(",")
    if len(subs) != len(ndims):
        raise TensorError(
            "einsum(): more operands were provided than specified in the equation"
            if len(ndims) > len(subs)
            else "einsum(): fewer operands were provided than were specified in the equation"
        )
    used = {c for c in eq if c.isalpha()}
    spare = [c for c in string.ascii_letters if c not in used]
    n_ell = 0
    for s, n in zip(subs, ndims, strict=True):
        if "..." in s:
            n_ell = max(n_ell, n - (len(s) - 3))
    ell = "".join(spare[:n_ell])
    out_subs = []
    for s, n in zip(subs, ndims, strict=True):
        if "..." in s:
            k = n - (len(s) - 3)
            s = s.replace("...", ell[n_ell - k :])
        if len(s) != n:
            raise TensorError(
                f"einsum(): the number of subscripts in the equation ({len(s)}) does not match the "
                f"number of dimensions ({n}) for operand {len(out_subs)}"
                + (" and no ellipsis was given" if "..." not in equation else "")
            )
        out_subs.append(s)
    if arrow:
        out = rhs.replace("...", ell)
    else:
        letters = "".join(out_subs)
        out = ell + "".join(
            sorted(c for c in set(letters) if letters.count(c) == 1 and c not in ell)
        )
    return out_subs, out


@implements("aten::einsum")
def einsum(equation: str, tensors: list[Tensor], path: list[int] | None = None) -> Tensor:
    arrays = [t._data for t in tensors]
    for a in arrays[1:]:
        if a.dtype != arrays[0].dtype:
            raise TensorError(f"expected scalar type {_name(arrays[0])} but found {_name(a)}")
    subs, out = _einsum_parts(equation, [a.ndim for a in arrays])
    try:
        return result(np.einsum(",".join(subs) + "->" + out, *arrays, optimize=len(arrays) > 2))
    except ValueError as exc:
        raise TensorError(f"einsum(): {exc}") from None


# ---------------------------------------------------------------------------
# Derivatives


@derivative("aten::mm")
def _d_mm(grad, self, mat2, *, result):
    return grad.mm(mat2.t()), self.t().mm(grad)


@derivative("aten::bmm")
def _d_bmm(grad, self, mat2, *, result):
    return grad.bmm(mat2.transpose(1, 2)), self.transpose(1, 2).bmm(grad)


@derivative("aten::matmul")
def _d_matmul(grad, self, other, *, result):
    a1 = self if self.dim() > 1 else self.unsqueeze(0)
    b1 = other if other.dim() > 1 else other.unsqueeze(-1)
    g = grad
    if other.dim() == 1:
        g = g.unsqueeze(-1)
    if self.dim() == 1:
        g = g.unsqueeze(-2)
    ga = g.matmul(b1.transpose(-1, -2))
    gb = a1.transpose(-1, -2).matmul(g)
    if self.dim() > 2 or other.dim() > 2:  # batch dimensions broadcast: sum them back
        ga, gb = reduce_to(ga, a1), reduce_to(gb, b1)
    if self.dim() == 1:
        ga = ga.squeeze(-2)
    if other.dim() == 1:
        gb = gb.squeeze(-1)
    return ga, gb


@derivative("aten::addmm")
def _d_addmm(grad, self, mat1, mat2, beta=1, alpha=1, *, result):
    g_self = sum_to_shape(grad * beta if beta != 1 else grad, self._data.shape)
    g1 = grad.mm(mat2.t())
    g2 = mat1.t().mm(grad)
    if alpha != 1:
        g1, g2 = g1 * alpha, g2 * alpha
    return g_self, g1, g2


@derivative("aten::baddbmm")
def _d_baddbmm(grad, self, batch1, batch2, beta=1, alpha=1, *, result):
    g_self = sum_to_shape(grad * beta if beta != 1 else grad, self._data.shape)
    g1 = grad.bmm(batch2.transpose(1, 2))
    g2 = batch1.transpose(1, 2).bmm(grad)
    if alpha != 1:
        g1, g2 = g1 * alpha, g2 * alpha
    return g_self, g1, g2


@derivative("aten::mv")
def _d_mv(grad, self, vec, *, result):
    return grad.outer(vec), self.t().mv(grad)


@derivative("aten::addmv")
def _d_addmv(grad, self, mat, vec, beta=1, alpha=1, *, result):
    g_self = sum_to_shape(grad * beta if beta != 1 else grad, self._data.shape)
    g_mat = grad.outer(vec)
    g_vec = mat.t().mv(grad)
    if alpha != 1:
        g_mat, g_vec = g_mat * alpha, g_vec * alpha
    return g_self, g_mat, g_vec


@derivative("aten::dot")
def _d_dot(grad, self, tensor, *, result):
    return grad * tensor, grad * self


@derivative("aten::outer")
def _d_outer(grad, self, vec2, *, result):
    return grad_like(grad.mv(_as_dtype(vec2, grad)), self), grad_like(
        grad.t().mv(_as_dtype(self, grad)), vec2
    )


def _as_dtype(t: Tensor, like: Tensor) -> Tensor:
    if t._data.dtype is like._data.dtype:
        return t
    return t.to(dtype_of_numpy(like._data.dtype))


@derivative("aten::linear")
def _d_linear(grad, input, weight, bias=None, *, result):
    w = weight
    x = input
    if w.dim() == 1:
        g_input = grad.unsqueeze(-1) * w
        g_weight = (grad.unsqueeze(-1) * x).reshape([-1, w._data.shape[0]]).sum(0)
    else:
        g_input = grad.matmul(w)
        if x.dim() == 1:
            g_weight = grad.unsqueeze(1).mm(x.unsqueeze(0))
        else:
            g2 = grad if grad.dim() == 2 else grad.flatten(0, -2)
            x2 = x if x.dim() == 2 else x.flatten(0, -2)
            g_weight = g2.t().mm(x2)
    g_bias = sum_to(grad, bias) if bias is not None else None
    return g_input, g_weight, g_bias


@derivative("aten::trace", saves=())
def _d_trace(grad, self, *, result):
    n, m = self._data.shape
    eye = wrap(np.eye(n, m, dtype=grad._data.dtype))
    return (eye * grad,)


@derivative("aten::diag", saves=())
def _d_diag(grad, self, diagonal=0, *, result):
    if self._data.ndim == 1:
        return (grad.diagonal(diagonal),)
    zeros = wrap(np.zeros(self._data.shape, dtype=grad._data.dtype))
    return (_diagonal_scatter(zeros, grad, diagonal, 0, 1),)


def _on_diagonal(g: Tensor, distinct: str, s: str, sizes: dict[str, int], equation: str) -> Tensor:
    """`g` (over the distinct letters of `s`) placed on the diagonals `s` names: each repeat
    of a letter becomes a fresh letter tied to the first by an identity matrix."""
    fresh = [c for c in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ" if c not in equation]
    seen: set[str] = set()
    renamed, ties, eyes = [], [], []
    for c in s:
        if c in seen:
            n = fresh.pop()
            renamed.append(n)
            ties.append(c + n)
            eyes.append(wrap(np.eye(sizes[c], dtype=g._data.dtype)))
        else:
            seen.add(c)
            renamed.append(c)
    return _einsum(",".join([distinct, *ties]) + "->" + "".join(renamed), [g, *eyes], None)


@derivative("aten::einsum")
def _d_einsum(grad, equation, tensors, path=None, *, result):
    subs, out = _einsum_parts(equation, [t._data.ndim for t in tensors])
    sizes: dict[str, int] = {}
    for s, t in zip(subs, tensors, strict=True):
        for c, n in zip(s, t._data.shape, strict=True):
            if n != 1 or c not in sizes:
                sizes[c] = max(n, sizes.get(c, 1))
    grads = []
    for i, (s, t) in enumerate(zip(subs, tensors, strict=True)):
        if t._data.dtype.kind not in "fc":
            grads.append(None)
            continue
        # a repeated letter ("ii") takes the diagonal: differentiate with respect to the
        # distinct letters, then put the result back on the diagonal
        distinct = "".join(dict.fromkeys(s))
        others = [(subs[j], tensors[j]) for j in range(len(tensors)) if j != i]
        available = set(out).union(*(set(o) for o, _ in others))
        target = "".join(c for c in distinct if c in available)
        operands = [grad] + [
            o.expand([sizes[c] for c in os]) if o._data.shape != tuple(sizes[c] for c in os) else o
            for os, o in others
        ]
        eq = ",".join([out] + [os for os, _ in others]) + "->" + target
        g = _einsum(eq, operands, None)
        if target != distinct:
            # letters summed away in this operand alone: the gradient is constant along them
            shape = [sizes[c] if c in target else 1 for c in distinct]
            g = g.reshape(shape).expand([sizes[c] for c in distinct])
        if distinct != s:
            g = _on_diagonal(g, distinct, s, sizes, equation)
        grads.append(sum_to_shape(g, t._data.shape))
    return None, grads


# ---------------------------------------------------------------------------
# Convolution: im2col (a strided window view) and one tensordot per group


def _conv_check(x: np.ndarray, w: np.ndarray, groups: int, transposed: bool, nd: int) -> None:
    if nd < 1:
        raise TensorError(f"weight should have at least three dimensions, got {w.ndim}")
    if x.ndim != nd + 2:
        raise TensorError(
            f"Expected {nd + 1}D (unbatched) or {nd + 2}D (batched) input to conv{nd}d, but got input of size: {list(x.shape)}"
        )
    if w.ndim != nd + 2:
        raise TensorError(f"weight should have {nd + 2} dimensions, got {w.ndim}")
    if x.dtype != w.dtype:
        raise TensorError(
            f"Input type ({_name(x)}) and weight type ({_name(w)}) should be the same"
        )
    if groups <= 0:
        raise TensorError("non-positive groups is not supported")
    channels = x.shape[1]
    expected = w.shape[0] if transposed else w.shape[1] * groups
    if channels != expected:
        raise TensorError(
            f"Given groups={groups}, weight of size {list(w.shape)}, expected input{list(x.shape)} to have "
            f"{expected} channels, but got {channels} channels instead"
        )
    if w.shape[0] % groups:
        raise TensorError(
            f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0"
        )


def _padded(x: np.ndarray, padding: list[int]) -> np.ndarray:
    """`x` with `padding` zeros on both sides of each spatial dimension (a copy; `x` itself
    when there is none)."""
    if not any(padding):
        return x
    nd = len(padding)
    shape = (*x.shape[:2], *(x.shape[2 + i] + 2 * padding[i] for i in range(nd)))
    out = np.zeros(shape, dtype=x.dtype)
    out[
        (slice(None), slice(None), *(slice(p, p + x.shape[2 + i]) for i, p in enumerate(padding)))
    ] = x
    return out


#: columns of one convolution product: enough for BLAS to run at speed, and a column buffer
#: (rows times columns) that stays in cache
_CONV_COLUMNS = 512
_CONV_BUFFER = 1 << 18


def _conv_forward(
    x: np.ndarray,
    w: np.ndarray,
    stride: list[int],
    padding: list[int],
    dilation: list[int],
    groups: int,
) -> np.ndarray:
    """A convolution as matrix products: for each chunk of images and each group, the input
    windows are copied into one contiguous column buffer (im2col: a row per input channel and
    kernel tap, a column per output position of every image in the chunk), and one BLAS
    product `weight (out, k) @ columns (k, positions)` computes that chunk's outputs, already
    in channel-major order. Chunks have about `_CONV_COLUMNS` columns: large products run at
    BLAS speed, and the buffer stays in cache (a single product over the whole batch ran
    several times slower here). Pointwise convolutions (1x1, stride 1) use the input itself
    as the columns; depthwise ones (a channel per group) sum shifted windows instead."""
    nd = x.ndim - 2
    kernel = w.shape[2:]
    xp = _padded(x, padding)
    out = [
        (xp.shape[2 + i] - dilation[i] * (kernel[i] - 1) - 1) // stride[i] + 1 for i in range(nd)
    ]
    if any(o <= 0 for o in out):
        raise TensorError(
            f"Calculated output size: {out} is too small for input of (padded) size {list(xp.shape[2:])} "
            f"and kernel size {list(kernel)}"
        )
    n = x.shape[0]
    c_out, cg = w.shape[0], w.shape[1]
    og = c_out // groups
    positions = math.prod(out)
    taps = math.prod(kernel)
    k = cg * taps
    dtype = np.result_type(x.dtype, w.dtype)
    y = np.empty((n, c_out, positions), dtype=dtype)
    if n == 0 or c_out == 0 or positions == 0:
        return y.reshape(n, c_out, *out)
    if k == 0:
        y.fill(0)
        return y.reshape(n, c_out, *out)
    s = xp.strides
    windows = np.lib.stride_tricks.as_strided(
        xp,
        (*xp.shape[:2], *kernel, *out),
        (
            s[0],
            s[1],
            *(s[2 + i] * dilation[i] for i in range(nd)),
            *(s[2 + i] * stride[i] for i in range(nd)),
        ),
        writeable=False,
    )
    if cg == 1 and og == 1 and groups > 1:
        return _conv_depthwise(windows, w, y, kernel).reshape(n, c_out, *out)
    weights = w.reshape(groups, og, k)
    pointwise = taps == 1 and all(v == 1 for v in stride)
    threads = parallel.get_num_threads()
    work = n * c_out * positions * k
    if threads > 1 and n > 1 and work >= _PARALLEL_PRODUCT:
        parts = min(threads, work // (_PARALLEL_PRODUCT // 2))
        parallel.POOL.run(
            _conv_images, (windows, weights, y, pointwise), parallel.even_shares(n, parts)
        )
    else:
        _conv_images(windows, weights, y, pointwise, 0, n)
    return y.reshape(n, c_out, *out)


def _conv_images(
    windows: np.ndarray, weights: np.ndarray, y: np.ndarray, pointwise: bool, start: int, end: int
) -> int:
    """Images `[start, end)` of a convolution, into `y` (images, out channels, positions)."""
    n = end - start
    groups, og, k = weights.shape
    cg = windows.shape[1] // groups
    nd = (windows.ndim - 2) // 2
    kernel = windows.shape[2 : 2 + nd]
    out = windows.shape[2 + nd :]
    positions = y.shape[2]
    if pointwise:
        # the input channels are the columns
        for g in range(groups):
            cols = windows[start:end, g * cg : (g + 1) * cg].reshape(n, cg, positions)
            np.matmul(weights[g], cols, out=y[start:end, g * og : (g + 1) * og])
        return 0
    chunk = max(1, min(n, -(-_CONV_COLUMNS // positions), _CONV_BUFFER // (k * positions) or 1))
    buffer = np.empty(k * chunk * positions, dtype=windows.dtype)
    for n0 in range(start, end, chunk):
        nb = min(chunk, end - n0)
        cols = buffer[: k * nb * positions].reshape(k, nb * positions)
        # (cg, *kernel, nb, *out) in the buffer's order: row (channel, tap), column (image, position)
        target = cols.reshape(cg, *kernel, nb, *out)
        for g in range(groups):
            source = windows[n0 : n0 + nb, g * cg : (g + 1) * cg]
            np.copyto(target, np.moveaxis(source, 0, 1 + nd))
            if nb == 1:
                np.matmul(weights[g], cols, out=y[n0, g * og : (g + 1) * og])
            else:
                product = np.matmul(weights[g], cols).reshape(og, nb, positions)
                y[n0 : n0 + nb, g * og : (g + 1) * og] = product.transpose(1, 0, 2)
    return 0


def _conv_depthwise(
    windows: np.ndarray, w: np.ndarray, y: np.ndarray, kernel: tuple[int, ...]
) -> np.ndarray:
    """One input and one output channel per group: the sum over kernel taps of the shifted
    input times that tap's weight, per channel."""
    n, c = windows.shape[:2]
    acc = y.reshape(n, c, *windows.shape[2 + len(kernel) :])
    acc.fill(0)
    term = np.empty_like(acc)
    taps = w.reshape(c, -1)
    shape = (1, c) + (1,) * (acc.ndim - 2)
    for t, index in enumerate(np.ndindex(*kernel)):
        np.multiply(
            windows[(slice(None), slice(None), *index)], taps[:, t].reshape(shape), out=term
        )
        acc += term
    return y


def _conv_transpose_forward(
    x: np.ndarray,
    w: np.ndarray,
    stride: list[int],
    padding: list[int],
    output_padding: list[int],
    dilation: list[int],
    groups: int,
) -> np.ndarray:
    nd = x.ndim - 2
    cg, og = w.shape[0] // groups, w.shape[1]
    kernel = w.shape[2:]
    spatial = x.shape[2:]
    full = [
        (spatial[i] - 1) * stride[i] + dilation[i] * (kernel[i] - 1) + 1 + output_padding[i]
        for i in range(nd)
    ]
    out = np.zeros((x.shape[0], og * groups, *full), dtype=x.dtype)
    for g in range(groups):
        # (N, *spatial, og, *kernel): every input position times every kernel tap
        contrib = np.tensordot(
            x[:, g * cg : (g + 1) * cg], w[g * cg : (g + 1) * cg], axes=([1], [0])
        )
        contrib = np.moveaxis(contrib, 1 + nd, 1)  # (N, og, *spatial, *kernel)
        target = out[:, g * og : (g + 1) * og]
        for k in np.ndindex(*kernel):
            where = tuple(
                slice(
                    k[i] * dilation[i],
                    k[i] * dilation[i] + (spatial[i] - 1) * stride[i] + 1,
                    stride[i],
                )
                for i in range(nd)
            )
            target[(slice(None), slice(None), *where)] += contrib[(Ellipsis, *k)]
    crop = tuple(slice(padding[i], full[i] - padding[i]) for i in range(nd))
    if any(c.start >= c.stop for c in crop):
        raise TensorError(
            f"Output size is too small for input of size {list(spatial)} and padding {padding}"
        )
    return out[(slice(None), slice(None), *crop)]


def _expand_param(value: list[int], nd: int, name: str) -> list[int]:
    if len(value) == 1 and nd > 1:
        return list(value) * nd
    if len(value) != nd:
        raise TensorError(
            f"expected {name} to be a single integer value or a list of {nd} values to match the convolution dimensions, but got {name}={list(value)}"
        )
    return list(value)


@implements("aten::convolution")
def convolution(
    input: Tensor,
    weight: Tensor,
    bias: Tensor | None,
    stride: list[int],
    padding: list[int],
    dilation: list[int],
    transposed: bool,
    output_padding: list[int],
    groups: int,
) -> Tensor:
    x, w = input._data, weight._data
    nd = w.ndim - 2
    _conv_check(x, w, groups, transposed, nd)
    stride = _expand_param(stride, nd, "stride")
    padding = _expand_param(padding, nd, "padding")
    dilation = _expand_param(dilation, nd, "dilation")
    if any(v <= 0 for v in stride):
        raise TensorError("non-positive stride is not supported")
    if any(v < 0 for v in padding):
        raise TensorError("negative padding is not supported")
    if transposed:
        output_padding = _expand_param(output_padding, nd, "output_padding")
        y = _conv_transpose_forward(x, w, stride, padding, output_padding, dilation, groups)
    else:
        y = _conv_forward(x, w, stride, padding, dilation, groups)
    if bias is not None:
        channels = y.shape[1]
        if bias._data.shape != (channels,):
            raise TensorError(
                f"Given weight of size {list(w.shape)}, expected bias to be 1-dimensional with {channels} "
                f"elements, but got bias of size {list(bias._data.shape)} instead"
            )
        y = y + bias._data.reshape((-1,) + (1,) * nd)
    return result(np.ascontiguousarray(y, dtype=x.dtype))


@implements("aten::_convolution", "aten::_convolution.deprecated", autograd=False)
def convolution_internal(
    input: Tensor,
    weight: Tensor,
    bias: Tensor | None,
    stride: list[int],
    padding: list[int],
    dilation: list[int],
    transposed: bool,
    output_padding: list[int],
    groups: int,
    *flags: Any,
) -> Tensor:
    return _convolution(
        input, weight, bias, stride, padding, dilation, transposed, output_padding, groups
    )


def _batched(input: Tensor, weight: Tensor, nd: int) -> tuple[Tensor, bool]:
    if weight._data.ndim != nd + 2:
        raise TensorError(
            f"Expected {nd + 2}-dimensional weight for conv{nd}d, but got {weight._data.ndim}-dimensional weight of size {list(weight._data.shape)}"
        )
    if input._data.ndim == nd + 1:
        return input.unsqueeze(0), True
    if input._data.ndim != nd + 2:
        raise TensorError(
            f"Expected {nd + 1}D (unbatched) or {nd + 2}D (batched) input to conv{nd}d, but got input of size: {list(input._data.shape)}"
        )
    return input, False


def _same_padding(
    input: Tensor, weight: Tensor, stride: list[int], dilation: list[int], nd: int
) -> tuple[Tensor, list[int]]:
    if any(s != 1 for s in stride):
        raise TensorError("padding='same' is not supported for strided convolutions")
    kernel = weight._data.shape[2:]
    pads = [0] * (2 * nd)
    symmetric = []
    for i in range(nd):
        total = dilation[i] * (kernel[i] - 1)
        left = total // 2
        symmetric.append(left)
        # an odd total puts the extra row at the end: pad the input for it explicitly
        pads[2 * (nd - 1 - i) + 1] = total - 2 * left
    if any(pads):
        input = _constant_pad_nd(input, pads, 0)
    return input, symmetric


def _conv_nd(nd: int) -> Any:
    def kernel(
        input: Tensor,
        weight: Tensor,
        bias: Tensor | None = None,
        stride: Any = 1,
        padding: Any = 0,
        dilation: Any = 1,
        groups: int = 1,
    ) -> Tensor:
        x, unbatched = _batched(input, weight, nd)
        stride = _expand_param(list(stride), nd, "stride")
        dilation = _expand_param(list(dilation), nd, "dilation")
        if isinstance(padding, str):
            if padding == "valid":
                pad = [0] * nd
            elif padding == "same":
                x, pad = _same_padding(x, weight, stride, dilation, nd)
            else:
                raise TensorError(
                    f"Invalid padding string '{padding}', should be one of {{'valid', 'same'}}"
                )
        else:
            pad = _expand_param(list(padding), nd, "padding")
        y = _convolution(x, weight, bias, stride, pad, dilation, False, [0] * nd, groups)
        return y.squeeze(0) if unbatched else y

    kernel.__name__ = f"conv{nd}d"
    return kernel


implements("aten::conv1d", "aten::conv1d.padding", autograd=False)(_conv_nd(1))
implements("aten::conv2d", "aten::conv2d.padding", autograd=False)(_conv_nd(2))
implements("aten::conv3d", "aten::conv3d.padding", autograd=False)(_conv_nd(3))


def _conv_transpose_nd(nd: int) -> Any:
    def kernel(
        input: Tensor,
        weight: Tensor,
        bias: Tensor | None = None,
        stride: Any = 1,
        padding: Any = 0,
        output_padding: Any = 0,
        groups: int = 1,
        dilation: Any = 1,
    ) -> Tensor:
        x, unbatched = _batched(input, weight, nd)
        y = _convolution(
            x,
            weight,
            bias,
            _expand_param(list(stride), nd, "stride"),
            _expand_param(list(padding), nd, "padding"),
            _expand_param(list(dilation), nd, "dilation"),
            True,
            _expand_param(list(output_padding), nd, "output_padding"),
            groups,
        )
        return y.squeeze(0) if unbatched else y

    kernel.__name__ = f"conv_transpose{nd}d"
    return kernel


implements("aten::conv_transpose1d", autograd=False)(_conv_transpose_nd(1))
implements("aten::conv_transpose2d.input", autograd=False)(_conv_transpose_nd(2))
implements("aten::conv_transpose3d.input", autograd=False)(_conv_transpose_nd(3))


@derivative("aten::convolution", saves=("input", "weight"))
def _d_convolution(
    grad,
    input,
    weight,
    bias,
    stride,
    padding,
    dilation,
    transposed,
    output_padding,
    groups,
    *,
    result,
):
    nd = weight._data.ndim - 2
    stride = _expand_param(stride, nd, "stride")
    padding = _expand_param(padding, nd, "padding")
    dilation = _expand_param(dilation, nd, "dilation")
    zeros = [0] * nd
    kernel = weight._data.shape[2:]
    if not transposed:
        spatial = input._data.shape[2:]
        out = grad._data.shape[2:]
        extra = [
            spatial[i]
            - ((out[i] - 1) * stride[i] - 2 * padding[i] + dilation[i] * (kernel[i] - 1) + 1)
            for i in range(nd)
        ]
        g_input = _convolution(grad, weight, None, stride, padding, dilation, True, extra, groups)
        g_weight = _weight_grad(input, grad, stride, padding, dilation, groups, kernel)
    else:
        g_input = _convolution(grad, weight, None, stride, padding, dilation, False, zeros, groups)
        g_weight = _weight_grad(grad, input, stride, padding, dilation, groups, kernel)
    g_bias = grad.sum([0, *range(2, 2 + nd)]) if bias is not None else None
    return g_input, g_weight, g_bias


def _weight_grad(
    a: Tensor,
    b: Tensor,
    stride: list[int],
    padding: list[int],
    dilation: list[int],
    groups: int,
    kernel: Any,
) -> Tensor:
    """The weight's gradient as a convolution of `a` (batch and channels exchanged) with `b`
    (the same), strides and dilations exchanged, per group, cropped to the kernel size."""
    nd = len(kernel)
    ca, cb = a._data.shape[1] // groups, b._data.shape[1] // groups
    parts = []
    for g in range(groups):
        ag = a.narrow(1, g * ca, ca).transpose(0, 1)
        bg = b.narrow(1, g * cb, cb).transpose(0, 1)
        z = _convolution(ag, bg, None, dilation, padding, stride, False, [0] * nd, 1)
        for i, k in enumerate(kernel):
            z = z.narrow(2 + i, 0, k)
        parts.append(z)
    # per group z is (a's channels, b's channels, *k): (in, out) for a convolution's
    # (out, in/groups, *k) weight, (out, in) for a transposed one's (in, out/groups, *k)
    return (parts[0] if groups == 1 else _cat(parts, 1)).transpose(0, 1)


_convolution = impl("aten::convolution")


def einsum_eager(equation: str, *operands: Any) -> Tensor:
    """`tsjit.einsum("ij,jk", a, b)`: PyTorch's eager form, operands as separate arguments."""
    from .dispatch import call

    tensors = (
        list(operands[0])
        if len(operands) == 1 and isinstance(operands[0], (list, tuple))
        else list(operands)
    )
    return call("aten::einsum", equation, tensors)


EAGER = {"einsum": einsum_eager}

_einsum = impl("aten::einsum")
_cat = lazy_impl("aten::cat")
_constant_pad_nd = lazy_impl("aten::constant_pad_nd")
_diagonal_scatter = impl("aten::diagonal_scatter")
