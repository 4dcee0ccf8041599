"""Linear algebra beyond products: inverse, determinants, solves, Cholesky, QR, SVD, the
symmetric eigendecomposition, pseudo-inverse, matrix powers and matrix norms.

Computed by numpy.linalg over the batch dims (the last two dims are the
matrix), in the input's floating dtype; a singular matrix where PyTorch
needs an invertible one is a `TensorError`. Gradients:

    inverse     dA = -inv(A)^T g inv(A)^T
    det         dA = g det(A) inv(A)^T                      (invertible A)
    slogdet     dA = g_logabs inv(A)^T
    solve       dB = solve(A^T, g);  dA = -dB X^T           (X = solve(A, B))
    svdvals     dA = U diag(g) V^H                          (distinct singular values)
    cholesky, qr, svd, eigh: none here (their results are used as data)

`matrix_power`, `cholesky_inverse` and `linalg_matrix_norm` are composite;
`solve_triangular` and `cholesky_solve` are solves; the pseudo-inverse drops
singular values below PyTorch's cutoffs.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..tensor import Tensor, TensorError, wrap
from .common import result
from .dispatch import call, derivative, implements

ndarray = np.ndarray


def _square(self: Tensor, name: str) -> ndarray:
    a = self._data
    if a.ndim < 2:
        raise TensorError(f"linalg.{name}: The input tensor A must have at least 2 dimensions.")
    if a.shape[-1] != a.shape[-2]:
        raise TensorError(
            f"linalg.{name}: A must be batches of square matrices, but they are "
            f"{a.shape[-2]} by {a.shape[-1]} matrices"
        )
    if a.dtype.kind not in "fc":
        raise TensorError(
            f"linalg.{name}: Expected a floating point or complex tensor as input. Got {self.dtype}"
        )
    return a


def _matrix(self: Tensor, name: str) -> ndarray:
    a = self._data
    if a.ndim < 2:
        raise TensorError(f"linalg.{name}: The input tensor A must have at least 2 dimensions.")
    if a.dtype.kind not in "fc":
        raise TensorError(
            f"linalg.{name}: Expected a floating point or complex tensor as input. Got {self.dtype}"
        )
    return a


def _mT(t: Tensor) -> Tensor:
    return call("aten::transpose", t, -2, -1)


@implements("aten::inverse", "aten::linalg_inv")
def inverse(self: Tensor) -> Tensor:
    a = _square(self, "inv")
    try:
        return result(np.linalg.inv(a).astype(a.dtype, copy=False))
    except np.linalg.LinAlgError:
        raise TensorError(
            "linalg.inv: The diagonal element 1 is zero, the inversion could not be completed "
            "because the input matrix is singular."
        ) from None


@derivative("aten::inverse", "aten::linalg_inv", saves=("result",))
def _d_inverse(grad, self, *, result):
    inv_t = _mT(result)
    return (-call("aten::matmul", call("aten::matmul", inv_t, grad), inv_t),)


@implements("aten::det", "aten::linalg_det")
def det(self: Tensor) -> Tensor:
    a = _square(self, "det")
    return result(np.asarray(np.linalg.det(a)).astype(a.dtype, copy=False))


# the input is `self` in one schema and `A` in the other: the default saves every tensor
@derivative("aten::det", "aten::linalg_det")
def _d_det(grad, self, *, result):
    inv_t = _mT(call("aten::inverse", self))
    return (grad.unsqueeze(-1).unsqueeze(-1) * result.unsqueeze(-1).unsqueeze(-1) * inv_t,)


@implements("aten::slogdet", "aten::linalg_slogdet")
def slogdet(self: Tensor) -> tuple[Tensor, Tensor]:
    a = _square(self, "slogdet")
    sign, logabs = np.linalg.slogdet(a)
    real = a.real.dtype if a.dtype.kind == "c" else a.dtype
    return result(np.asarray(sign).astype(a.dtype)), result(np.asarray(logabs).astype(real))


@derivative("aten::slogdet", "aten::linalg_slogdet")
def _d_slogdet(grad, self, *, result):
    g_logabs = grad[1] if isinstance(grad, tuple) else grad
    inv_t = _mT(call("aten::inverse", self))
    return (g_logabs.unsqueeze(-1).unsqueeze(-1) * inv_t,)


@implements("aten::logdet", autograd=False)
def logdet(self: Tensor) -> Tensor:
    """log det(A): NaN for a negative determinant, -inf for zero, as PyTorch's."""
    sign, logabs = call("aten::linalg_slogdet", self)
    nan = float("nan")
    return call("aten::where", sign.lt(0), nan, call("aten::where", sign.eq(0), -math.inf, logabs))


@implements("aten::linalg_solve")
def linalg_solve(A: Tensor, B: Tensor, left: bool = True) -> Tensor:
    a = _square(A, "solve")
    b = B._data
    vector = b.ndim == a.ndim - 1 or b.ndim == 1
    try:
        if not left:
            # X A = B  <=>  A^T X^T = B^T
            x = np.linalg.solve(np.swapaxes(a, -1, -2), np.swapaxes(b, -1, -2))
            return result(np.swapaxes(x, -1, -2).astype(a.dtype, copy=False))
        x = np.linalg.solve(a, b[..., None] if vector else b)
    except np.linalg.LinAlgError:
        raise TensorError(
            "linalg.solve: The solver failed because the input matrix is singular."
        ) from None
    return result((x[..., 0] if vector else x).astype(np.result_type(a, b), copy=False))


@derivative("aten::linalg_solve", saves=("A", "result"))
def _d_linalg_solve(grad, A, B, left=True, *, result):
    if not left:
        raise TensorError("the derivative of linalg.solve(left=False) is not implemented")
    vector = B._data.ndim == A._data.ndim - 1 or B._data.ndim == 1
    g_b = call("aten::linalg_solve", _mT(A), grad)
    if vector:
        g_a = -g_b.unsqueeze(-1) * result.unsqueeze(-2)
    else:
        g_a = -call("aten::matmul", g_b, _mT(result))
    return g_a, g_b


def _triangular_solve(a: ndarray, b: ndarray, upper: bool, unitriangular: bool) -> ndarray:
    tri = np.triu(a) if upper else np.tril(a)
    if unitriangular:
        eye = np.eye(a.shape[-1], dtype=a.dtype)
        tri = tri * (1 - eye) + eye
    return np.linalg.solve(tri, b)


@implements("aten::linalg_solve_triangular")
def solve_triangular(
    self: Tensor, B: Tensor, upper: bool, left: bool = True, unitriangular: bool = False
) -> Tensor:
    a, b = _square(self, "solve_triangular"), B._data
    try:
        if left:
            x = _triangular_solve(a, b, upper, unitriangular)
        else:
            xt = _triangular_solve(
                np.swapaxes(a, -1, -2), np.swapaxes(b, -1, -2), not upper, unitriangular
            )
            x = np.swapaxes(xt, -1, -2)
    except np.linalg.LinAlgError:
        raise TensorError("linalg.solve_triangular: the matrix is singular") from None
    return result(x.astype(np.result_type(a, b), copy=False))


@implements("aten::cholesky", "aten::linalg_cholesky")
def cholesky(self: Tensor, upper: bool = False) -> Tensor:
    a = _square(self, "cholesky")
    try:
        low = np.linalg.cholesky(a)
    except np.linalg.LinAlgError:
        raise TensorError(
            "linalg.cholesky: The factorization could not be completed because the input is "
            "not positive-definite."
        ) from None
    out = np.conj(np.swapaxes(low, -1, -2)) if upper else low
    return result(out.astype(a.dtype, copy=False))


@implements("aten::cholesky_solve")
def cholesky_solve(self: Tensor, input2: Tensor, upper: bool = False) -> Tensor:
    """Solve A X = B given A's Cholesky factor `input2`."""
    b, f = self._data, input2._data
    low = np.conj(np.swapaxes(f, -1, -2)) if upper else f
    y = _triangular_solve(low, b, False, False)
    x = _triangular_solve(np.conj(np.swapaxes(low, -1, -2)), y, True, False)
    return result(x.astype(np.result_type(b, f), copy=False))


@implements("aten::cholesky_inverse", autograd=False)
def cholesky_inverse(self: Tensor, upper: bool = False) -> Tensor:
    _square(self, "cholesky_inverse")
    factor = self if upper else _mT(self)  # A = U^T U with U upper
    return call("aten::inverse", call("aten::matmul", _mT(factor), factor))


@implements("aten::linalg_qr")
def linalg_qr(A: Tensor, mode: str = "reduced") -> tuple[Tensor, Tensor]:
    a = _matrix(A, "qr")
    if mode not in ("reduced", "complete", "r"):
        raise TensorError(
            f"qr received unrecognized mode '{mode}' but expected one of 'reduced' (default), "
            "'r', or 'complete'"
        )
    q, r = np.linalg.qr(a, mode="complete" if mode == "complete" else "reduced")
    if mode == "r":
        q = np.zeros((0,), dtype=a.dtype)
    return result(q.astype(a.dtype, copy=False)), result(r.astype(a.dtype, copy=False))


@implements("aten::qr")
def qr(self: Tensor, some: bool = True) -> tuple[Tensor, Tensor]:
    return linalg_qr(self, "reduced" if some else "complete")


@implements("aten::linalg_svd")
def linalg_svd(
    A: Tensor, full_matrices: bool = True, driver: str | None = None
) -> tuple[Tensor, Tensor, Tensor]:
    a = _matrix(A, "svd")
    u, s, vh = np.linalg.svd(a, full_matrices=full_matrices)
    real = a.real.dtype if a.dtype.kind == "c" else a.dtype
    return (
        result(u.astype(a.dtype, copy=False)),
        result(s.astype(real, copy=False)),
        result(vh.astype(a.dtype, copy=False)),
    )


@implements("aten::svd")
def svd(self: Tensor, some: bool = True, compute_uv: bool = True) -> tuple[Tensor, Tensor, Tensor]:
    """The old interface: V rather than V^H; without compute_uv, zero U and V."""
    a = _matrix(self, "svd")
    u, s, vh = np.linalg.svd(a, full_matrices=not some)
    v = np.conj(np.swapaxes(vh, -1, -2))
    if not compute_uv:
        u, v = np.zeros_like(u), np.zeros_like(v)
    real = a.real.dtype if a.dtype.kind == "c" else a.dtype
    return result(u.astype(a.dtype)), result(s.astype(real)), result(v.astype(a.dtype))


@implements("aten::linalg_svdvals")
def linalg_svdvals(A: Tensor, driver: str | None = None) -> Tensor:
    a = _matrix(A, "svdvals")
    real = a.real.dtype if a.dtype.kind == "c" else a.dtype
    return result(np.linalg.svd(a, compute_uv=False).astype(real, copy=False))


@derivative("aten::linalg_svdvals", saves=("A",))
def _d_svdvals(grad, A, driver=None, *, result):
    # d sigma_i = u_i^H dA v_i: the gradient is U diag(g) V^H (distinct singular values)
    u, _, vh = np.linalg.svd(A._data, full_matrices=False)
    return (call("aten::matmul", wrap(u) * grad.unsqueeze(-2), wrap(vh)),)


def _uplo(UPLO: str) -> str:
    if UPLO not in ("L", "U"):
        raise TensorError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")
    return UPLO


@implements("aten::linalg_eigh")
def linalg_eigh(self: Tensor, UPLO: str = "L") -> tuple[Tensor, Tensor]:
    a = _square(self, "eigh")
    w, v = np.linalg.eigh(a, UPLO=_uplo(UPLO))
    real = a.real.dtype if a.dtype.kind == "c" else a.dtype
    return result(w.astype(real, copy=False)), result(v.astype(a.dtype, copy=False))


@implements("aten::linalg_eigvalsh")
def linalg_eigvalsh(self: Tensor, UPLO: str = "L") -> Tensor:
    a = _square(self, "eigvalsh")
    real = a.real.dtype if a.dtype.kind == "c" else a.dtype
    return result(np.linalg.eigvalsh(a, UPLO=_uplo(UPLO)).astype(real, copy=False))


@implements("aten::matrix_power", "aten::linalg_matrix_power", autograd=False)
def matrix_power(self: Tensor, n: int) -> Tensor:
    """A^n by repeated squaring of matmuls (differentiable through them); A^0 is I."""
    a = _square(self, "matrix_power")
    if n == 0:
        eye = np.broadcast_to(np.eye(a.shape[-1], dtype=a.dtype), a.shape)
        return result(eye.copy())
    base = call("aten::inverse", self) if n < 0 else self
    n = abs(n)
    out = None
    while n:
        if n & 1:
            out = base if out is None else call("aten::matmul", out, base)
        n >>= 1
        if n:
            base = call("aten::matmul", base, base)
    return out  # type: ignore[return-value]


def _pinv(self: Tensor, cutoff: Any) -> Tensor:
    """The pseudo-inverse by the SVD; singular values at most cutoff(largest) are dropped."""
    a = _matrix(self, "pinv")
    u, s, vh = np.linalg.svd(a, full_matrices=False)
    largest = s.max(axis=-1, keepdims=True) if s.size else np.zeros((*s.shape[:-1], 1))
    keep = s > cutoff(largest)
    inv_s = np.where(keep, 1.0 / np.where(keep, s, 1.0), 0.0)
    vt = np.conj(np.swapaxes(vh, -1, -2))
    ut = np.conj(np.swapaxes(u, -1, -2))
    return result((vt @ (inv_s[..., None] * ut)).astype(a.dtype, copy=False))


@implements("aten::pinverse")
def pinverse(self: Tensor, rcond: float = 1e-15) -> Tensor:
    return _pinv(self, lambda largest: rcond * largest)


@implements("aten::linalg_pinv")
def linalg_pinv(self: Tensor, rcond: float, hermitian: bool = False) -> Tensor:
    return _pinv(self, lambda largest: rcond * largest)


@implements("aten::linalg_pinv.atol_rtol_float")
def linalg_pinv_tolerances(
    self: Tensor, atol: float | None = None, rtol: float | None = None, hermitian: bool = False
) -> Tensor:
    a = self._data
    if rtol is None:
        eps = np.finfo(a.dtype).eps if a.dtype.kind in "fc" else 0.0
        rtol = 0.0 if atol is not None and atol > 0 else eps * max(a.shape[-2:], default=1)
    atol_ = 0.0 if atol is None else atol
    return _pinv(self, lambda largest: np.maximum(atol_, rtol * largest))


@implements("aten::linalg_matrix_norm", "aten::linalg_matrix_norm.str_ord", autograd=False)
def linalg_matrix_norm(
    self: Tensor, ord: Any = "fro", dim: Any = (-2, -1), keepdim: bool = False, dtype: Any = None
) -> Tensor:
    return call("aten::linalg_norm", self, ord, list(dim), keepdim, dtype=dtype)
